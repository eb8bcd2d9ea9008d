//! Reports of a match: the thesis' table (each player's W-L as White, and the total), win
//! rate with its 95% interval, Elo with its interval, LOS, a cross table for round robins;
//! as Markdown, CSV, JSON and an SVG chart of win rates with error bars.

use crate::game::Reason;
use crate::matchup::pairings;
use crate::record::{GameRecord, Winner};
use crate::stats::{elo, los, wilson, Interval, Tally, Z95};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One pairing's results, as player A sees them unless named otherwise.
#[derive(Clone, Debug, Serialize)]
pub struct PairingSummary {
    /// The pairing's number in the table, from 1.
    pub test: usize,
    /// Player A's spec.
    pub player_a: String,
    /// Player B's spec.
    pub player_b: String,
    /// A's results in the games where A had White.
    pub a_white: Tally,
    /// B's results in the games where B had White.
    pub b_white: Tally,
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
    /// The players in the order given.
    pub players: Vec<String>,
    /// One entry per pairing, in the order of [`pairings`].
    pub pairings: Vec<PairingSummary>,
    /// `cross[i][j]`: player i's results against player j (`None` on the diagonal).
    pub cross: Vec<Vec<Option<Tally>>>,
    /// Each player's results against everyone.
    pub overall: Vec<Tally>,
}

fn add(t: &mut Tally, won: Option<bool>) {
    match won {
        Some(true) => t.wins += 1,
        Some(false) => t.losses += 1,
        None => t.draws += 1,
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Summarises the games of a match among `players` (specs, in the order given).
pub fn summarize(players: &[String], games: &[GameRecord]) -> Report {
    let n = players.len();
    let mut cross = vec![vec![None; n]; n];
    let mut overall = vec![Tally::default(); n];
    let mut summaries = Vec::new();
    for (k, (a, b)) in pairings(n).into_iter().enumerate() {
        let mine: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.player_a == players[a] && g.player_b == players[b])
            .collect();
        let (mut a_white, mut b_white, mut total) =
            (Tally::default(), Tally::default(), Tally::default());
        let mut reasons = BTreeMap::new();
        let (mut a_sum, mut b_sum) = ((0u64, 0.0f64, 0.0f64), (0u64, 0.0f64, 0.0f64));
        for g in &mine {
            let white_won = match g.result {
                Winner::White => Some(true),
                Winner::Black => Some(false),
                Winner::Draw => None,
            };
            let a_won = if g.a_is_white() {
                white_won
            } else {
                white_won.map(|w| !w)
            };
            add(&mut total, a_won);
            if g.a_is_white() {
                add(&mut a_white, white_won);
            } else {
                add(&mut b_white, white_won);
            }
            *reasons
                .entry(reason_name(g.reason).to_string())
                .or_insert(0) += 1;
            // The first move after the opening is White's when the opening has even length.
            let white_first = g.opening_moves.len() % 2 == 0;
            for (i, &ms) in g.times_ms.iter().enumerate() {
                let by_white = (i % 2 == 0) == white_first;
                let acc = if by_white == g.a_is_white() {
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
        for (i, t) in [(a, total), (b, total.flip())] {
            overall[i].wins += t.wins;
            overall[i].draws += t.draws;
            overall[i].losses += t.losses;
        }
        summaries.push(PairingSummary {
            test: k + 1,
            player_a: players[a].clone(),
            player_b: players[b].clone(),
            a_white,
            b_white,
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
    Report {
        players: players.to_vec(),
        pairings: summaries,
        cross,
        overall,
    }
}

/// The record's name of a reason.
pub fn reason_name(r: Reason) -> &'static str {
    match r {
        Reason::Goal => "goal",
        Reason::AllCaptured => "all-captured",
        Reason::NoMoves => "no-moves",
        Reason::Illegal => "illegal",
        Reason::Overrun => "overrun",
        Reason::Resigned => "resigned",
        Reason::Error => "error",
        Reason::PlyCap => "ply-cap",
    }
}

/// `W - L`, or `W - L - D` when there were draws.
fn wl(t: &Tally) -> String {
    if t.draws > 0 {
        format!("{} - {} - {}", t.wins, t.losses, t.draws)
    } else {
        format!("{} - {}", t.wins, t.losses)
    }
}

fn pct(x: f64) -> String {
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

/// The thesis' table (Figure 5.3) with the statistics added, and a cross table when there
/// are more than two players, as Markdown.
pub fn markdown(r: &Report) -> String {
    let mut out = String::new();
    out.push_str("| Test | Player A | Player B | Player A White | Player B White | Player A - Player B | A score (95% CI) | Elo A-B (95% CI) | LOS |\n");
    out.push_str("|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
    let mut draws = false;
    for s in &r.pairings {
        draws |= s.total.draws > 0;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.test,
            md_escape(&s.player_a),
            md_escape(&s.player_b),
            wl(&s.a_white),
            wl(&s.b_white),
            wl(&s.total),
            score_cell(s),
            elo_cell(s),
            pct(s.los)
        );
    }
    out.push_str(
        "\n\"Player A White\": A's wins - losses with White; \"Player B White\": B's with White; \
         \"Player A - Player B\": wins of A - wins of B.",
    );
    if draws {
        out.push_str(" A third number counts draws (scored half).");
    }
    out.push('\n');
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
    }
    out
}

fn md_escape(s: &str) -> String {
    format!("`{}`", s.replace('`', "'").replace('|', "\\|"))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_num(x: Option<f64>) -> String {
    match x {
        Some(v) if v == f64::INFINITY => "inf".into(),
        Some(v) if v == f64::NEG_INFINITY => "-inf".into(),
        // Adding zero turns -0 into 0.
        Some(v) => format!("{:.6}", v + 0.0),
        None => String::new(),
    }
}

/// One CSV line per pairing.
pub fn pairings_csv(r: &Report) -> String {
    let mut out = String::from(
        "test,player_a,player_b,a_white_wins,a_white_losses,a_white_draws,b_white_wins,b_white_losses,b_white_draws,\
         a_wins,a_losses,draws,score,score_low,score_high,elo,elo_low,elo_high,los,a_mean_ms,a_max_ms,b_mean_ms,b_max_ms\n",
    );
    for s in &r.pairings {
        let e = elo(&s.total);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.3}",
            s.test,
            csv_field(&s.player_a),
            csv_field(&s.player_b),
            s.a_white.wins,
            s.a_white.losses,
            s.a_white.draws,
            s.b_white.wins,
            s.b_white.losses,
            s.b_white.draws,
            s.total.wins,
            s.total.losses,
            s.total.draws,
            csv_num(s.score),
            csv_num(s.score_ci.map(|c| c.low)),
            csv_num(s.score_ci.map(|c| c.high)),
            csv_num(e.map(|x| x.0)),
            csv_num(e.map(|x| x.1.low)),
            csv_num(e.map(|x| x.1.high)),
            csv_num(Some(s.los)),
            s.a_ms.mean,
            s.a_ms.max,
            s.b_ms.mean,
            s.b_ms.max
        );
    }
    out
}

/// The cross table as CSV: a header of players, then each player's score against each.
pub fn cross_csv(r: &Report) -> String {
    let mut out = String::from("player");
    for p in &r.players {
        let _ = write!(out, ",{}", csv_field(p));
    }
    out.push_str(",score\n");
    for (i, p) in r.players.iter().enumerate() {
        out.push_str(&csv_field(p));
        for cell in &r.cross[i] {
            let _ = write!(out, ",{}", cell.map_or(String::new(), |t| wl(&t)));
        }
        let _ = writeln!(out, ",{}", csv_num(r.overall[i].score()));
    }
    out
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A bar chart of player A's score per pairing with its 95% interval as an error bar.
pub fn svg(r: &Report) -> String {
    const LABEL: f64 = 330.0;
    const BAR: f64 = 400.0;
    const ROW: f64 = 30.0;
    const TOP: f64 = 40.0;
    let height = TOP + ROW * r.pairings.len() as f64 + 40.0;
    let width = LABEL + BAR + 90.0;
    let x = |p: f64| LABEL + BAR * p;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{LABEL}\" y=\"20\" font-size=\"14\">Score of player A (95% Wilson interval)</text>\n"
    );
    let bottom = TOP + ROW * r.pairings.len() as f64;
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = writeln!(
            out,
            "<line x1=\"{0}\" y1=\"{TOP}\" x2=\"{0}\" y2=\"{bottom}\" stroke=\"#bbb\"{1}/>\n\
             <text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{3}%</text>",
            x(tick),
            if tick == 0.5 {
                " stroke-dasharray=\"4 3\""
            } else {
                ""
            },
            bottom + 16.0,
            (tick * 100.0) as u32
        );
    }
    for (i, s) in r.pairings.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let label = format!("{}. {} vs {}", s.test, s.player_a, s.player_b);
        // Long specs (paths, command lines) keep their ends, which tell them apart.
        let label = if label.chars().count() > 52 {
            let tail: String = label
                .chars()
                .rev()
                .take(51)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("…{tail}")
        } else {
            label
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            LABEL - 8.0,
            y + ROW / 2.0 + 4.0,
            xml(&label)
        );
        let (Some(p), Some(ci)) = (s.score, s.score_ci) else {
            continue;
        };
        let mid = y + ROW / 2.0;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{:.2}\" height=\"{}\" fill=\"#4a7fb5\"/>\n\
             <line x1=\"{:.2}\" y1=\"{mid}\" x2=\"{:.2}\" y2=\"{mid}\" stroke=\"black\" stroke-width=\"1.5\"/>\n\
             <line x1=\"{:.2}\" y1=\"{}\" x2=\"{:.2}\" y2=\"{}\" stroke=\"black\" stroke-width=\"1.5\"/>\n\
             <line x1=\"{:.2}\" y1=\"{}\" x2=\"{:.2}\" y2=\"{}\" stroke=\"black\" stroke-width=\"1.5\"/>\n\
             <text x=\"{}\" y=\"{}\">{} ({})</text>",
            LABEL,
            y + 6.0,
            BAR * p,
            ROW - 12.0,
            x(ci.low),
            x(ci.high),
            x(ci.low),
            mid - 6.0,
            x(ci.low),
            mid + 6.0,
            x(ci.high),
            mid - 6.0,
            x(ci.high),
            mid + 6.0,
            LABEL + BAR + 8.0,
            mid + 4.0,
            pct(p),
            s.total.games()
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Writes `pairings.csv`, `crosstable.csv` (more than two players), `report.json` and
/// `winrates.svg` into `dir` (created if needed); returns the paths written.
pub fn write_files(r: &Report, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut files = vec![
        (dir.join("pairings.csv"), pairings_csv(r)),
        (
            dir.join("report.json"),
            serde_json::to_string_pretty(r).expect("a report always serialises") + "\n",
        ),
        (dir.join("winrates.svg"), svg(r)),
    ];
    if r.players.len() > 2 {
        files.push((dir.join("crosstable.csv"), cross_csv(r)));
    }
    let mut written = Vec::new();
    for (path, text) in files {
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of pairing (a, b) numbered `game`, won by White or Black.
    fn g(a: &str, b: &str, game: u32, result: Winner) -> GameRecord {
        let a_white = game % 2 == 0;
        GameRecord {
            player_a: a.into(),
            player_b: b.into(),
            game,
            opening: game / 2,
            white: if a_white { a } else { b }.into(),
            black: if a_white { b } else { a }.into(),
            board: "6x6".into(),
            seed: 1,
            opening_plies: 0,
            white_budget: "100ms".into(),
            black_budget: "100ms".into(),
            opening_moves: vec![],
            moves: vec!["a2-a3".into(), "a5-a4".into(), "b2-b3".into()],
            times_ms: vec![10.0, 20.0, 30.0],
            result,
            reason: Reason::Goal,
            detail: None,
        }
    }

    /// The thesis' test 2 (3 row TB vs no TB): A with White 157 - 43, B with White 65 - 135.
    fn thesis_test_2() -> Vec<GameRecord> {
        let mut games = Vec::new();
        let mut n = 0;
        for (count, result) in [(157, Winner::White), (43, Winner::Black)] {
            for _ in 0..count {
                games.push(g("tb3", "notb", 2 * n, result));
                n += 1;
            }
        }
        let mut n = 0;
        for (count, result) in [(65, Winner::White), (135, Winner::Black)] {
            for _ in 0..count {
                games.push(g("tb3", "notb", 2 * n + 1, result));
                n += 1;
            }
        }
        games
    }

    #[test]
    fn the_thesis_row_comes_out() {
        let r = summarize(&["tb3".into(), "notb".into()], &thesis_test_2());
        let s = &r.pairings[0];
        assert_eq!((s.a_white.wins, s.a_white.losses), (157, 43));
        assert_eq!((s.b_white.wins, s.b_white.losses), (65, 135));
        assert_eq!((s.total.wins, s.total.losses), (292, 108));
        let md = markdown(&r);
        assert!(
            md.contains("| 1 | `tb3` | `notb` | 157 - 43 | 65 - 135 | 292 - 108 | 73.0% (68.4% - 77.1%) | +173 (+135 .. +211) | 100.0% |"),
            "{md}"
        );
        // A moves first in its White games (times 10 and 30 ms), second in the others (20 ms).
        assert_eq!(s.a_ms.moves, 200 * 2 + 200);
        assert!((s.a_ms.mean - (200.0 * 40.0 + 200.0 * 20.0) / 600.0).abs() < 1e-9);
        assert_eq!(s.a_ms.max, 30.0);
        let csv = pairings_csv(&r);
        assert!(csv
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("1,tb3,notb,157,43,0,65,135,0,292,108,0,0.730000,"));
        let svg = svg(&r);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("73.0% (400)"));
    }

    #[test]
    fn round_robin_cross_table() {
        let players: Vec<String> = ["p,1", "p2", "p3"].map(String::from).to_vec();
        let games = vec![
            g("p,1", "p2", 0, Winner::White),
            g("p,1", "p2", 1, Winner::White), // p2 White wins
            g("p,1", "p3", 0, Winner::White),
            g("p,1", "p3", 1, Winner::Black),
            g("p2", "p3", 0, Winner::Draw),
            g("p2", "p3", 1, Winner::Black),
        ];
        let r = summarize(&players, &games);
        assert_eq!(r.pairings.len(), 3);
        let row = |i: usize, j: usize| r.cross[i][j].map(|t| (t.wins, t.losses, t.draws));
        assert_eq!(row(0, 1), Some((1, 1, 0)));
        assert_eq!(row(0, 2), Some((2, 0, 0)));
        assert_eq!(row(1, 2), Some((1, 0, 1)));
        assert_eq!(row(2, 1), Some((0, 1, 1)));
        assert_eq!(row(1, 1), None);
        // p2: 1 win + 1 loss vs p1, 1 win + 1 draw vs p3: 2.5 of 4.
        assert_eq!(r.overall[1].score(), Some(0.625));
        let md = markdown(&r);
        assert!(
            md.contains("| 2. `p2` | 1 - 1 | | 1 - 0 - 1 | 62.5% |"),
            "{md}"
        );
        let csv = cross_csv(&r);
        assert!(csv.starts_with("player,\"p,1\",p2,p3,score\n"), "{csv}");
    }
}
