//! Woodpush's setup: the strip's width and pieces, start, policy, tables as oracles and the
//! engines' defaults.

use crate::notation::board_text;
use crate::{Position, WoodpushPolicy, WoodpushTable};
use engine::ab_player::AbEval;
use engine::engine::DefaultEngine;
use engine::settings::{PlayoutSettings, TableSpec};
use engine::setup::{load_exact_table, GameSetup, OptionHelp, Picture, SetupError};
use quasar_core::{Evaluation, Game, Oracle, Outcome};
use std::sync::Arc;

/// Woodpush on one strip width, from a start with some pieces a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WoodpushSetup {
    /// Cells of the strip.
    pub width: u32,
    /// Pieces a side at the start (2 in the paper).
    pub pieces: u32,
}

/// The paper's start: two pieces a side.
pub const PAPER_PIECES: u32 = 2;

impl WoodpushSetup {
    /// The paper's start on `width` cells (a width known to be legal).
    pub fn paper(width: u32) -> WoodpushSetup {
        WoodpushSetup {
            width,
            pieces: PAPER_PIECES,
        }
    }

    /// A setup whose start exists, or why not.
    pub fn checked(width: u32, pieces: u32) -> Result<WoodpushSetup, SetupError> {
        let setup = WoodpushSetup { width, pieces };
        setup.start()?;
        Ok(setup)
    }
}

/// The paper's start on 7 cells.
impl Default for WoodpushSetup {
    fn default() -> Self {
        WoodpushSetup::paper(7)
    }
}

impl GameSetup for WoodpushSetup {
    type Game = Position;
    type Policy = WoodpushPolicy;

    const NAME: &'static str = "woodpush";

    fn params(&self) -> String {
        if self.pieces == PAPER_PIECES {
            format!("width {}", self.width)
        } else {
            format!("width {}, {} pieces a side", self.width, self.pieces)
        }
    }

    /// Its default engine (see [`Self::default_engine`]), its tables and verdicts.
    fn option_help() -> &'static [OptionHelp] {
        const HELP: &[OptionHelp] = &[
            OptionHelp::default_of("engine", "ab"),
            OptionHelp::note("rule", "sound only, its tables are exact"),
            OptionHelp::note(
                "verdicts",
                "a push that drives the opponent's last piece off",
            ),
        ];
        HELP
    }

    fn of_position(pos: &Position) -> Self {
        // A position with more pieces a side than the paper's comes from such a start,
        // where the width has one; one with more than any start of its width has (pieces
        // only leave the strip) comes from none, and is named by its width alone.
        let most = pos
            .board
            .left
            .count_ones()
            .max(pos.board.right.count_ones());
        let width = pos.board.width;
        let pieces = match Position::start_with(width, most) {
            Ok(_) => most.max(PAPER_PIECES),
            Err(_) => PAPER_PIECES,
        };
        WoodpushSetup { width, pieces }
    }

    fn start(&self) -> Result<Position, SetupError> {
        Position::start_with(self.width, self.pieces).map_err(|e| SetupError::Size(e.into()))
    }

    fn from_params(text: &str) -> Result<Self, SetupError> {
        let bad = || {
            SetupError::Size(
                format!("expected Woodpush parameters such as \"width 9\" or \"width 9, 3 pieces a side\", got {text:?}").into(),
            )
        };
        let rest = text.strip_prefix("width ").ok_or_else(bad)?;
        let (width, pieces) = match rest.split_once(", ") {
            Some((w, k)) => (w, k.strip_suffix(" pieces a side").ok_or_else(bad)?),
            None => (rest, "2"),
        };
        let width = width.parse().map_err(|_| bad())?;
        let pieces = pieces.parse().map_err(|_| bad())?;
        WoodpushSetup::checked(width, pieces)
    }

    fn picture(&self) -> Option<Picture> {
        Some(Picture {
            cells: (0..self.width).map(|i| [i as f64, 0.0]).collect(),
            shape: "square",
            background: Vec::new(),
            colours: ["#c8302c", "#2c5fc8"],
            labels: (1..=self.width).map(|i| i.to_string()).collect(),
        })
    }

    fn cells(&self, pos: &Position) -> String {
        board_text(pos.board)
            .chars()
            .map(|c| match c {
                'L' => 'a',
                'R' => 'b',
                _ => '.',
            })
            .collect()
    }

    fn boardsize(&self, args: &[&str]) -> Result<Self, SetupError> {
        let [n] = args else {
            return Err(SetupError::Boardsize(
                "boardsize takes the strip width N".into(),
            ));
        };
        let width = n.parse::<u32>().map_err(|_| {
            SetupError::Boardsize(format!("boardsize {n}: the width is a whole number"))
        })?;
        WoodpushSetup::checked(width, self.pieces)
    }

    /// Alpha-beta: level with MCTS on 7 cells (100 - 100 at 100 ms a move) and far ahead
    /// on 20 cells with three pieces a side, with the endgame table or without it
    /// (docs/results.md).
    fn default_engine(&self) -> DefaultEngine {
        DefaultEngine::AlphaBeta(AbEval::Ab)
    }

    fn evaluation(&self) -> Option<Arc<dyn Evaluation<Position>>> {
        Some(Arc::new(crate::WoodpushEval))
    }

    fn boardsize_command(&self) -> String {
        format!("boardsize {}", self.width)
    }

    fn policy(&self, _: &PlayoutSettings) -> Result<WoodpushPolicy, SetupError> {
        Ok(WoodpushPolicy)
    }

    fn playout_keys(&self) -> &'static [&'static str] {
        &[]
    }

    fn playout_text(&self) -> String {
        "its playouts take a move that removes the opponent's last piece, else a uniform \
         move, and have no switches"
            .into()
    }

    fn load_oracle(&self, table: &TableSpec) -> Result<Arc<dyn Oracle<Position>>, SetupError> {
        let t = load_exact_table(table, "a Woodpush table", WoodpushTable::load, |t| {
            if t.width() == self.width {
                Ok(())
            } else {
                Err(format!(
                    "is for width {}, but the game is on width {}",
                    t.width(),
                    self.width
                ))
            }
        })?;
        Ok(Arc::new(t))
    }

    fn diagram(&self, pos: &Position) -> String {
        let cells: Vec<String> = board_text(pos.board)
            .chars()
            .map(|c| c.to_string())
            .collect();
        let ruler: Vec<String> = (1..=pos.board.width)
            .map(|i| (i % 10).to_string())
            .collect();
        let mut s = format!(
            "{}\n{}\n{} to move",
            cells.join(" "),
            ruler.join(" "),
            Position::side_name(pos.side)
        );
        if let Some(f) = pos.forbidden() {
            s.push_str(&format!(
                " (the ko forbids pushing back to {})",
                board_text(f)
            ));
        }
        s.push('\n');
        s
    }

    fn end_detail(&self, pos: &Position) -> Option<String> {
        Some(match pos.outcome()? {
            Outcome::Win(w) => format!(
                "{} has no piece left; {} scores {}",
                Position::side_name(w.opponent()),
                Position::side_name(w),
                pos.board.score().abs()
            ),
            Outcome::Draw => "no piece is left on the strip".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boardsize_takes_a_width_with_a_start() {
        let s = WoodpushSetup::paper(9);
        assert_eq!(s.boardsize(&["7"]).unwrap(), WoodpushSetup::paper(7));
        for bad in [&["5"][..], &["x"], &[], &["7", "7"], &["40"]] {
            assert!(s.boardsize(bad).is_err(), "{bad:?}");
        }
        let three = WoodpushSetup::checked(12, 3).unwrap();
        assert!(three.boardsize(&["9"]).is_err(), "3 a side need 10 cells");
        assert_eq!(s.boardsize_command(), "boardsize 9");
    }

    /// An exact table refuses the race rule before it is read, saying why.
    #[test]
    fn its_tables_refuse_the_race_rule() {
        let table = TableSpec {
            path: "absent.wpt".into(),
            rule: engine::settings::ProbeRule::Race,
            cache_bytes: None,
        };
        let e = WoodpushSetup::paper(7).load_oracle(&table).err().unwrap();
        assert_eq!(
            e.to_string(),
            "rule=race needs a table with a looser rule; a Woodpush table is exact (rule=sound)"
        );
    }

    #[test]
    fn the_policy_refuses_switches_it_does_not_have() {
        let s = WoodpushSetup::paper(7);
        assert!(s.check_playout_keys(&PlayoutSettings::default()).is_ok());
        let e = s
            .check_playout_keys(&PlayoutSettings {
                eval_after: Some(5),
                ..PlayoutSettings::default()
            })
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("eval-after= is not an option of woodpush: its playouts take"),
            "{e}"
        );
    }

    #[test]
    fn sizes_text_and_the_end_in_the_games_words() {
        assert_eq!(WoodpushSetup::paper(7).params(), "width 7");
        let pos = Position::parse_position("L.L.L..........R.R.R L").unwrap();
        let s = WoodpushSetup::of_position(&pos);
        assert_eq!(s.params(), "width 20, 3 pieces a side");
        assert_eq!(s.start().unwrap(), pos);
        let end = Position::parse_position("..L.... R").unwrap();
        assert_eq!(
            s.end_detail(&end).unwrap(),
            "Right has no piece left; Left scores 5"
        );
        assert!(s.diagram(&pos).starts_with("L . L . L"));
    }
}
