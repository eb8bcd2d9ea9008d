//! What several commands print alike: a game's length as exact or as a bound, a table's
//! answer about one position in one shape for every game, and `--json` objects and errors.

use quasar_core::GameResult;
use serde::Serialize;

/// Whether the command line asks for JSON (`--json` anywhere before a lone `--`), so that
/// even an error found while parsing it is printed as a JSON object.
pub fn json_requested() -> bool {
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// Prints `value` as one line of JSON on standard output.
pub fn print_json<T: Serialize>(value: &T) -> super::CliResult {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}

/// The JSON error object `{"error": "..."}` for `message`, as one line.
pub fn json_error(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// A result in words: `win`, `loss` or `draw`.
pub fn result_word(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Loss => "loss",
        GameResult::Draw => "draw",
    }
}

/// `in 3 plies` for an exact length, `within 9 plies` for a bound.
pub fn length_text(plies: u32, exact: bool) -> String {
    let unit = if plies == 1 { "ply" } else { "plies" };
    if exact {
        format!("in {plies} {unit}")
    } else {
        format!("within {plies} {unit}")
    }
}

/// A proven result for the side to move, as `bestmove` and `solve` report it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proven {
    /// `win`, `loss` or `draw` for the side to move.
    pub result: &'static str,
    /// Plies until the game ends; `None` when the prover knows no length.
    pub plies: Option<u32>,
    /// Whether `plies` is the exact length under perfect play (else an upper bound).
    pub plies_exact: bool,
}

impl Proven {
    /// `win within 9 plies`, `loss in 4 plies`, `draw`, or `win` without a length.
    pub fn text(&self) -> String {
        match self.plies {
            Some(n) if self.result != "draw" => {
                format!("{} {}", self.result, length_text(n, self.plies_exact))
            }
            _ => self.result.to_string(),
        }
    }
}

/// A table's answer about one position, the same shape for every game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeAnswer {
    /// The game (`breakthrough`, `woodpush`, `chinese-checkers`, `checkers`).
    pub game: &'static str,
    /// The position as the game writes it.
    pub position: String,
    /// The side to move, in the game's words.
    pub to_move: String,
    /// `win`, `loss` or `draw` for the side to move; `None` when the table cannot say.
    pub result: Option<&'static str>,
    /// Plies until the game ends, when the table knows them.
    pub plies: Option<u32>,
    /// Whether `plies` is exact (else an upper bound).
    pub plies_exact: bool,
    /// A move that keeps the value, when the table gives one.
    pub best_move: Option<String>,
    /// What else the game's table says (a score, a distance to conversion), or why the
    /// answer is unknown.
    pub detail: Option<String>,
}

impl ProbeAnswer {
    /// The answer as text: `White to move: win within 3 plies`, then `best move: ...` and
    /// the detail, one a line.
    pub fn text(&self) -> String {
        let mut s = format!("{} to move: ", self.to_move);
        match self.result {
            None => s.push_str("unknown"),
            Some(r) => {
                let proven = Proven {
                    result: r,
                    plies: self.plies,
                    plies_exact: self.plies_exact,
                };
                s.push_str(&proven.text());
                if self.plies == Some(0) {
                    s.push_str(" (the game is over)");
                }
            }
        }
        s.push('\n');
        if let Some(m) = &self.best_move {
            s.push_str(&format!("best move: {m}\n"));
        }
        if let Some(d) = &self.detail {
            let label = if self.result.is_none() {
                "why"
            } else {
                "detail"
            };
            s.push_str(&format!("{label}: {d}\n"));
        }
        s
    }
}

/// `tablebase info --json`: the keys every game's table has, and the game's own counts
/// under `details`.
#[derive(Debug, Serialize)]
pub struct TableInfo {
    /// The game of the table.
    pub game: &'static str,
    /// The table file or directory.
    pub file: String,
    /// Bytes on disk.
    pub bytes: u64,
    /// What the table covers, in words (`5x5, 3 rows`, `width 9, every position`).
    pub covers: String,
    /// Positions (or, for Breakthrough, configurations) stored.
    pub positions: u64,
    /// Whether the checksums were checked (every `info` checks them).
    pub checksum_verified: bool,
    /// The game's own counts: see docs/tablebases.md.
    pub details: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_read_as_bounds_and_exact_lengths_as_exact() {
        assert_eq!(length_text(9, false), "within 9 plies");
        assert_eq!(length_text(1, true), "in 1 ply");
        let p = |result, plies, plies_exact| Proven {
            result,
            plies,
            plies_exact,
        };
        assert_eq!(p("win", Some(3), true).text(), "win in 3 plies");
        assert_eq!(p("loss", Some(9), false).text(), "loss within 9 plies");
        assert_eq!(p("draw", Some(0), true).text(), "draw");
        assert_eq!(p("win", None, false).text(), "win");
    }

    #[test]
    fn an_unknown_answer_says_why() {
        let a = ProbeAnswer {
            game: "breakthrough",
            position: "B4/5/2W2/1B3/5 w".into(),
            to_move: "White".into(),
            result: None,
            plies: None,
            plies_exact: false,
            best_move: None,
            detail: Some("an opponent piece on row 2".into()),
        };
        assert_eq!(
            a.text(),
            "White to move: unknown\nwhy: an opponent piece on row 2\n"
        );
    }
}
