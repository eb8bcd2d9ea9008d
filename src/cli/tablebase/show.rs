//! The one `tablebase info`, `probe` and `verify` of every game: each opens the table
//! through its game's [`EndgameTable`] and prints the structured answer as text or as one
//! JSON object; no game's knowledge is here.

use crate::cli::output::{print_json, result_word, ProbeAnswer, TableInfo as InfoJson};
use crate::cli::CliResult;
use quasar_cli::progress::Bars;
use quasar_core::table::{EndgameTable, Fact, TableInfo, TableProbe, VerifyOptions, VerifyReport};
use std::path::Path;

/// `tablebase info`: the table's facts and counts (its checksums checked), as text or one
/// JSON object; a table that is not whole fails, after the text form says what is there.
pub fn info<T: EndgameTable>(path: &Path, json: bool) -> CliResult {
    let table = T::open(path)?;
    let mut info = table.info(&Bars::default())?;
    let incomplete = info.incomplete.take();
    if json {
        if let Some(e) = incomplete {
            return Err(e);
        }
        return print_json(&info_json(T::GAME, &info));
    }
    print!("{}", info_text(T::GAME, &info));
    match incomplete {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `tablebase probe`: the table's answer about one position.
pub fn probe<T: EndgameTable>(path: &Path, position: &str, json: bool, cache: u64) -> CliResult {
    let table = T::open_cached(path, cache)?;
    let p = table.probe(position)?;
    for w in &p.warnings {
        eprintln!("warning: {w}");
    }
    let answer = probe_answer(T::GAME, &p);
    if json {
        return print_json(&answer);
    }
    print!("{}", answer.text());
    for (mv, after) in &p.moves {
        println!("  {mv}: {after}");
    }
    Ok(())
}

/// `tablebase verify`: the checksums, then the values against the rules; an error naming
/// the first position that disagrees.
pub fn verify<T: EndgameTable>(path: &Path, options: &VerifyOptions, cache: u64) -> CliResult {
    let table = T::open_cached(path, cache)?;
    let report = table.verify(options, &Bars::default())?;
    print!("{}", verify_text(&report));
    match report.examples.first() {
        None if report.inconsistent == 0 => Ok(()),
        first => Err(format!(
            "{} positions fail the check ({}), the first {}",
            report.inconsistent,
            report.how,
            first.map_or("not named", String::as_str)
        )
        .into()),
    }
}

/// The text form of `info`: the file, the game and what it covers, the form, the positions,
/// then the game's own lines, the counts by class and by part.
fn info_text(game: &str, info: &TableInfo) -> String {
    let mut s = format!(
        "file: {} ({} bytes, checksum verified)\ntable: {}, {}\nform: {}\n\
         positions: {}, {:.1} positions a byte\n",
        info.path.display(),
        info.bytes,
        game,
        info.covers,
        info.form_text,
        info.positions,
        info.positions_per_byte()
    );
    for row in &info.rows {
        if let Some(text) = &row.text {
            s += &format!("{}: {text}\n", row.label());
        }
    }
    if !info.classes.is_empty() {
        s += &format!("{}:\n", info.classes_title);
        for c in &info.classes {
            s += &format!("  {}: {}\n", c.class, c.count);
        }
    }
    if let Some(grid) = &info.grid {
        s += &format!("{}\n", grid.columns.join("\t"));
        for line in &grid.lines {
            s += &format!("{}\n", line.join("\t"));
        }
    }
    s
}

/// The JSON form of `info`: the keys every game's table has, and the game's own facts
/// under `details`.
fn info_json(game: &'static str, info: &TableInfo) -> InfoJson {
    let details = (info.rows.iter())
        .filter_map(|r| Some((r.key.clone(), json_value(r.value.as_ref()?))))
        .collect();
    InfoJson {
        game,
        file: info.path.display().to_string(),
        bytes: info.bytes,
        covers: info.covers.clone(),
        positions: info.positions,
        checksum_verified: true,
        details: serde_json::Value::Object(details),
    }
}

/// A fact as a JSON value.
fn json_value(f: &Fact) -> serde_json::Value {
    use serde_json::Value;
    match f {
        Fact::Null => Value::Null,
        Fact::Bool(b) => (*b).into(),
        Fact::Int(n) => (*n).into(),
        Fact::Float(x) => (*x).into(),
        Fact::Text(t) => t.clone().into(),
        Fact::List(items) => items.iter().map(json_value).collect(),
        Fact::Map(pairs) => Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.clone(), json_value(v)))
                .collect(),
        ),
    }
}

/// A probe in the answer shape of every game.
fn probe_answer(game: &'static str, p: &TableProbe) -> ProbeAnswer {
    ProbeAnswer {
        game,
        position: p.position.clone(),
        to_move: p.to_move.clone(),
        result: p.result.map(result_word),
        plies: p.plies,
        plies_exact: p.plies_exact,
        best_move: p.best_move.clone(),
        detail: p.detail.clone(),
    }
}

/// The text form of a check: what it did, the checksums, the positions checked and the
/// disagreements, or `all agree`.
fn verify_text(r: &VerifyReport) -> String {
    let mut s = String::new();
    for row in &r.rows {
        if let Some(text) = &row.text {
            s += &format!("{}: {text}\n", row.label());
        }
    }
    let which = r
        .which
        .as_ref()
        .map_or(String::new(), |w| format!(" ({w})"));
    s += &format!(
        "checksum ok: {}\nchecked {} positions{which} {}: {} inconsistent\n",
        r.checksums, r.checked, r.how, r.inconsistent
    );
    for e in &r.examples {
        s += &format!("MISMATCH {e}\n");
    }
    if r.inconsistent == 0 {
        s += "all agree\n";
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use quasar_core::table::{ClassCount, Form, Grid, Row};
    use quasar_core::GameResult;

    fn sample() -> TableInfo {
        TableInfo {
            path: "w6.qrt".into(),
            form: Form::Plain,
            form_text: "plain".into(),
            covers: "width 6, every position".into(),
            positions: 300,
            bytes: 200,
            classes_title: "positions by value".into(),
            classes: vec![ClassCount::new("Left wins", 7)],
            rows: vec![
                Row::fact("width", 6u32),
                Row::data("start_score", Some(-4)),
                Row::line("ko_states", "every push"),
            ],
            grid: Some(Grid {
                columns: vec!["part".into(), "n".into()],
                lines: vec![vec!["a".into(), "1".into()]],
            }),
            incomplete: None,
        }
    }

    #[test]
    fn info_prints_every_row_in_its_form() {
        let info = sample();
        assert_eq!(
            info_text("woodpush", &info),
            "file: w6.qrt (200 bytes, checksum verified)\ntable: woodpush, width 6, every \
             position\nform: plain\npositions: 300, 1.5 positions a byte\nwidth: 6\n\
             ko states: every push\npositions by value:\n  Left wins: 7\npart\tn\na\t1\n"
        );
        let json = serde_json::to_value(info_json("woodpush", &info)).unwrap();
        assert_eq!(
            json["details"],
            serde_json::json!({"width": 6, "start_score": -4})
        );
        assert_eq!(json["positions"], 300);
    }

    #[test]
    fn a_check_names_its_sample_and_its_first_disagreement() {
        let mut r = VerifyReport {
            checksums: "width 6".into(),
            rows: Vec::new(),
            checked: 40,
            which: Some("a random sample".into()),
            how: "against their moves".into(),
            inconsistent: 0,
            examples: Vec::new(),
        };
        assert_eq!(
            verify_text(&r),
            "checksum ok: width 6\nchecked 40 positions (a random sample) against their \
             moves: 0 inconsistent\nall agree\n"
        );
        (r.which, r.inconsistent, r.examples) = (None, 1, vec!["L. L".into()]);
        assert_eq!(
            verify_text(&r),
            "checksum ok: width 6\nchecked 40 positions against their moves: 1 \
             inconsistent\nMISMATCH L. L\n"
        );
    }

    #[test]
    fn a_probe_keeps_the_shape_of_every_game() {
        let p = TableProbe {
            position: "L.L L".into(),
            to_move: "Left".into(),
            result: Some(GameResult::Loss),
            plies: Some(3),
            plies_exact: true,
            best_move: Some("a".into()),
            detail: None,
            moves: Vec::new(),
            warnings: Vec::new(),
        };
        let a = probe_answer("woodpush", &p);
        assert_eq!(a.text(), "Left to move: loss in 3 plies\nbest move: a\n");
        assert_eq!((a.game, a.result), ("woodpush", Some("loss")));
    }
}
