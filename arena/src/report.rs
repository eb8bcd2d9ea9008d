//! Reports of a match: the thesis' table (each player's W-L moving first, and the total),
//! win rate with its 95% interval, Elo with its interval, LOS, a cross table for round
//! robins; as Markdown, CSV, JSON and an SVG chart of win rates with error bars.

use crate::matchup::pairings;
use crate::record::GameRecord;
use crate::stats::{elo, los, ratings, wilson, Interval, Tally, Z95};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

mod csv;
mod svg;
#[cfg(test)]
mod tests;

pub use csv::{cross_csv, pairings_csv, ratings_csv};
pub use svg::svg;

/// The pairings table's file in a report's folder.
pub const PAIRINGS_CSV: &str = "pairings.csv";
/// The report's figures as JSON.
pub const REPORT_JSON: &str = "report.json";
/// The chart of win rates.
pub const WINRATES_SVG: &str = "winrates.svg";
/// The cross table of a round robin.
pub const CROSSTABLE_CSV: &str = "crosstable.csv";
/// The ratings of a round robin.
pub const RATINGS_CSV: &str = "ratings.csv";
/// The report's page (see [`crate::html`]).
pub const REPORT_HTML: &str = "report.html";

/// Every file a report may write into its folder (`--out`), besides the games' PGN-style
/// record: a record kept there under one of these names would be overwritten.
pub const FILES: [&str; 6] = [
    PAIRINGS_CSV,
    REPORT_JSON,
    WINRATES_SVG,
    CROSSTABLE_CSV,
    RATINGS_CSV,
    REPORT_HTML,
];

/// The name of the report's file (one of [`FILES`]) that `path` is when the report is
/// written into `dir`, if it is one.
pub fn file_taken_by(path: &Path, dir: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let name = FILES.iter().find(|f| **f == name)?;
    let parent = path.parent().unwrap_or(Path::new(""));
    same_folder(parent, dir).then_some(*name)
}

/// Whether two paths name one folder: resolved where they exist (links, `..`), else made
/// absolute as written.
fn same_folder(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        std::fs::canonicalize(p).or_else(|_| std::path::absolute(p))
    };
    matches!((resolve(a), resolve(b)), (Ok(x), Ok(y)) if x == y)
}

/// One pairing's results, as player A sees them unless named otherwise.
#[derive(Clone, Debug, Serialize)]
pub struct PairingSummary {
    /// The pairing's number in the table, from 1.
    pub test: usize,
    /// Player A's spec.
    pub player_a: String,
    /// Player B's spec.
    pub player_b: String,
    /// A's results in the games where A moved first.
    pub a_first: Tally,
    /// B's results in the games where B moved first.
    pub b_first: Tally,
    /// A's results over all games.
    pub total: Tally,
    /// A's mean score (draws half).
    pub score: Option<f64>,
    /// The Wilson 95% interval of A's score.
    pub score_ci: Option<Interval>,
    /// A's Elo advantage over B (null in JSON when unbounded, at a 0% or 100% score).
    pub elo: Option<f64>,
    /// The 95% interval of the Elo advantage (an unbounded end is null in JSON).
    pub elo_ci: Option<Interval>,
    /// The likelihood that A is stronger than B.
    pub los: f64,
    /// How the games ended, by reason.
    pub reasons: BTreeMap<String, u32>,
    /// A's mean and longest time per move in milliseconds.
    pub a_ms: MoveTimes,
    /// B's mean and longest time per move in milliseconds.
    pub b_ms: MoveTimes,
}

/// Time per move of one player over a pairing.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct MoveTimes {
    /// Moves timed.
    pub moves: u64,
    /// Mean milliseconds per move.
    pub mean: f64,
    /// Longest move in milliseconds.
    pub max: f64,
}

/// A match's report: one summary per pairing, and the cross table of a round robin.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game's name for the side that moves first ("White"), for the table's headings.
    pub first_side: String,
    /// The players in the order given.
    pub players: Vec<String>,
    /// One entry per pairing, in the order of [`pairings`].
    pub pairings: Vec<PairingSummary>,
    /// `cross[i][j]`: player i's results against player j (`None` on the diagonal).
    pub cross: Vec<Vec<Option<Tally>>>,
    /// Each player's results against everyone.
    pub overall: Vec<Tally>,
    /// The player rated 0 in `ratings`.
    pub anchor: String,
    /// Every player's maximum-likelihood Elo from all games, best first; empty when a
    /// player has no games linking it to the anchor.
    pub ratings: Vec<RatingRow>,
}

/// One line of the rating list.
#[derive(Clone, Debug, Serialize)]
pub struct RatingRow {
    /// The player's spec.
    pub player: String,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Its 95% interval relative to the anchor.
    pub elo_ci: Interval,
    /// Games played.
    pub games: u32,
    /// Mean score over all games.
    pub score: Option<f64>,
}

impl Report {
    /// Rates every player relative to `player` (one of the report's players), rated 0.
    pub fn anchor_at(&mut self, player: &str) -> Result<(), String> {
        let Some(i) = self.players.iter().position(|p| p == player) else {
            return Err(format!(
                "--anchor {player}: not a player of the match ({})",
                self.players.join(", ")
            ));
        };
        self.anchor = player.to_string();
        self.ratings = match ratings(&self.cross, i) {
            Some(r) => {
                let mut rows: Vec<RatingRow> = r
                    .iter()
                    .enumerate()
                    .map(|(k, r)| RatingRow {
                        player: self.players[k].clone(),
                        elo: r.elo,
                        elo_ci: r.ci,
                        games: self.overall[k].games(),
                        score: self.overall[k].score(),
                    })
                    .collect();
                rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
                rows
            }
            None => Vec::new(),
        };
        Ok(())
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Summarises the games of a match among `players` (specs, in the order given);
/// `first_side` is the game's name for the side that moves first.
pub fn summarize(players: &[String], games: &[GameRecord], first_side: &str) -> Report {
    let n = players.len();
    let mut cross = vec![vec![None; n]; n];
    let mut overall = vec![Tally::default(); n];
    let mut summaries = Vec::new();
    for (k, (a, b)) in pairings(n).into_iter().enumerate() {
        let mine: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.player_a == players[a] && g.player_b == players[b])
            .collect();
        let (mut a_first, mut b_first, mut total) =
            (Tally::default(), Tally::default(), Tally::default());
        let mut reasons = BTreeMap::new();
        let (mut a_sum, mut b_sum) = ((0u64, 0.0f64, 0.0f64), (0u64, 0.0f64, 0.0f64));
        for g in &mine {
            total += Tally::of(g.a_result());
            let first = Tally::of(g.first_result());
            if g.a_moves_first() {
                a_first += first;
            } else {
                b_first += first;
            }
            *reasons.entry(g.reason.name().to_string()).or_insert(0) += 1;
            // The first move after the opening is the first side's when the opening has
            // even length.
            let first_moves_next = g.opening_moves.len() % 2 == 0;
            for (i, &ms) in g.times_ms.iter().enumerate() {
                let by_first = (i % 2 == 0) == first_moves_next;
                let acc = if by_first == g.a_moves_first() {
                    &mut a_sum
                } else {
                    &mut b_sum
                };
                acc.0 += 1;
                acc.1 += ms;
                acc.2 = acc.2.max(ms);
            }
        }
        let times = |(moves, sum, max): (u64, f64, f64)| MoveTimes {
            moves,
            mean: if moves > 0 { sum / moves as f64 } else { 0.0 },
            max,
        };
        let e = elo(&total);
        cross[a][b] = Some(total);
        cross[b][a] = Some(total.flip());
        overall[a] += total;
        overall[b] += total.flip();
        summaries.push(PairingSummary {
            test: k + 1,
            player_a: players[a].clone(),
            player_b: players[b].clone(),
            a_first,
            b_first,
            total,
            score: total.score(),
            score_ci: wilson(&total, Z95),
            elo: e.and_then(|(v, _)| finite(v)),
            elo_ci: e.map(|(_, ci)| ci),
            los: los(&total),
            reasons,
            a_ms: times(a_sum),
            b_ms: times(b_sum),
        });
    }
    let mut report = Report {
        first_side: first_side.to_string(),
        players: players.to_vec(),
        pairings: summaries,
        cross,
        overall,
        anchor: String::new(),
        ratings: Vec::new(),
    };
    if let Some(first) = players.first() {
        report
            .anchor_at(first)
            .expect("the first player is a player");
    }
    report
}

/// The rating list as Markdown: rank, player, Elo with its interval, games, score.
pub fn ratings_markdown(r: &Report) -> String {
    let mut out = format!(
        "Ratings (maximum likelihood over all games, 95% intervals, {} = 0):\n\n\
         | Rank | Player | Elo (95% CI) | Games | Score |\n|---:|---|---:|---:|---:|\n",
        md_escape(&r.anchor)
    );
    for (k, row) in r.ratings.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} |",
            rating_cells(k + 1, row, md_escape).join(" | ")
        );
    }
    out
}

/// An Elo rating with its interval: `+35 (-12 .. +82)`.
pub(crate) fn rating_cell(row: &RatingRow) -> String {
    format!(
        "{} ({} .. {})",
        elo_text(row.elo),
        elo_text(row.elo_ci.low),
        elo_text(row.elo_ci.high)
    )
}

/// `W - L`, or `W - L - D` when there were draws.
pub(crate) fn wl(t: &Tally) -> String {
    if t.draws > 0 {
        format!("{} - {} - {}", t.wins, t.losses, t.draws)
    } else {
        format!("{} - {}", t.wins, t.losses)
    }
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An Elo value for text: signed, whole, `+inf`/`-inf` when unbounded.
fn elo_text(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x.abs() < 0.5 {
        "0".into()
    } else {
        format!("{:+.0}", x)
    }
}

/// A line of the rating list (rank, player as `name` writes it, Elo with its interval,
/// games, score), shared by the Markdown and HTML reports.
pub(crate) fn rating_cells(
    rank: usize,
    row: &RatingRow,
    name: impl Fn(&str) -> String,
) -> [String; 5] {
    [
        rank.to_string(),
        name(&row.player),
        rating_cell(row),
        row.games.to_string(),
        row.score.map_or("-".into(), pct),
    ]
}

/// A pairing's row of the results table (test, players as `name` writes them, wins - losses
/// with each side and in all, score, Elo, LOS), shared by the Markdown and HTML reports.
pub(crate) fn pairing_cells(s: &PairingSummary, name: impl Fn(&str) -> String) -> [String; 9] {
    [
        s.test.to_string(),
        name(&s.player_a),
        name(&s.player_b),
        wl(&s.a_first),
        wl(&s.b_first),
        wl(&s.total),
        score_cell(s),
        elo_cell(s),
        pct(s.los),
    ]
}

fn score_cell(s: &PairingSummary) -> String {
    match (s.score, s.score_ci) {
        (Some(p), Some(ci)) => format!("{} ({} - {})", pct(p), pct(ci.low), pct(ci.high)),
        _ => "-".into(),
    }
}

fn elo_cell(s: &PairingSummary) -> String {
    let e = elo(&s.total);
    match e {
        Some((v, ci)) => format!(
            "{} ({} .. {})",
            elo_text(v),
            elo_text(ci.low),
            elo_text(ci.high)
        ),
        None => "-".into(),
    }
}

/// A pairing's result in one sentence, as player A's: "mcts:tb=t.d scored 62.5% (25 wins,
/// 15 losses in 40 games) against mcts: Elo +89 (95% CI +1 .. +189)".
pub fn verdict(s: &PairingSummary) -> String {
    let t = &s.total;
    if t.games() == 0 {
        return format!("{} and {} played no games", s.player_a, s.player_b);
    }
    let draws = match t.draws {
        0 => String::new(),
        d => format!(", {d} draws"),
    };
    let score = s.score.map_or("-".into(), pct);
    format!(
        "{} scored {score} ({} wins{draws}, {} losses in {} games) against {}: Elo {}",
        s.player_a,
        t.wins,
        t.losses,
        t.games(),
        s.player_b,
        match elo(t) {
            Some(_) => elo_cell(s).replacen(" (", " (95% CI ", 1),
            None => "unknown (no games)".into(),
        }
    )
}

/// The thesis' table (Figure 5.3) with the statistics added, and a cross table when there
/// are more than two players, as Markdown.
pub fn markdown(r: &Report) -> String {
    let mut out = String::new();
    let side = &r.first_side;
    let _ = writeln!(
        out,
        "| Test | Player A | Player B | Player A {side} | Player B {side} | Player A - Player B | A score (95% CI) | Elo A-B (95% CI) | LOS |"
    );
    out.push_str("|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
    let mut draws = false;
    for s in &r.pairings {
        draws |= s.total.draws > 0;
        let _ = writeln!(out, "| {} |", pairing_cells(s, md_escape).join(" | "));
    }
    let _ = write!(
        out,
        "\n\"Player A {side}\": A's wins - losses with {side}; \"Player B {side}\": B's with {side}; \
         \"Player A - Player B\": wins of A - wins of B."
    );
    if draws {
        out.push_str(" A third number counts draws (scored half).");
    }
    out.push('\n');
    // The slowest move shows a player that overran its budget, which the mean hides.
    if r.pairings.iter().any(|s| s.a_ms.moves + s.b_ms.moves > 0) {
        out.push_str(
            "\nTime per move in ms (mean / slowest):\n\n| Test | Player A | Player B |\n|---:|---:|---:|\n",
        );
        for s in &r.pairings {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                s.test,
                times_cell(&s.a_ms),
                times_cell(&s.b_ms)
            );
        }
    }
    if r.players.len() > 2 {
        out.push_str("\nCross table (row's wins - losses against column):\n\n| Player |");
        for i in 0..r.players.len() {
            let _ = write!(out, " {} |", i + 1);
        }
        out.push_str(" Score |\n|---|");
        for _ in 0..r.players.len() {
            out.push_str("---:|");
        }
        out.push_str("---:|\n");
        for (i, name) in r.players.iter().enumerate() {
            let _ = write!(out, "| {}. {} |", i + 1, md_escape(name));
            for cell in &r.cross[i] {
                match cell {
                    Some(t) => {
                        let _ = write!(out, " {} |", wl(t));
                    }
                    None => out.push_str(" |"),
                }
            }
            let score = r.overall[i].score().map_or("-".into(), pct);
            let _ = writeln!(out, " {score} |");
        }
        if !r.ratings.is_empty() {
            out.push('\n');
            out.push_str(&ratings_markdown(r));
        }
    }
    out
}

/// A player's mean and slowest move in milliseconds: `40.2 / 103.5`; `-` with no moves.
fn times_cell(t: &MoveTimes) -> String {
    if t.moves == 0 {
        "-".into()
    } else {
        format!("{:.1} / {:.1}", t.mean, t.max)
    }
}

fn md_escape(s: &str) -> String {
    format!("`{}`", s.replace('`', "'").replace('|', "\\|"))
}

/// Writes `pairings.csv`, `crosstable.csv` (more than two players), `report.json` and
/// `winrates.svg` into `dir` (created if needed); returns the paths written.
pub fn write_files(r: &Report, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut files = vec![
        (dir.join(PAIRINGS_CSV), pairings_csv(r)),
        (
            dir.join(REPORT_JSON),
            serde_json::to_string_pretty(r).expect("a report always serialises") + "\n",
        ),
        (dir.join(WINRATES_SVG), svg(r)),
    ];
    if r.players.len() > 2 {
        files.push((dir.join(CROSSTABLE_CSV), cross_csv(r)));
        if !r.ratings.is_empty() {
            files.push((dir.join(RATINGS_CSV), ratings_csv(r)));
        }
    }
    let mut written = Vec::new();
    for (path, text) in files {
        quasar_file::write(&path, text.as_bytes()).map_err(std::io::Error::other)?;
        written.push(path);
    }
    Ok(written)
}
