//! Chinese Checkers' setup: pieces a side, start, policy, the solved table as an oracle and
//! the engines' defaults.

use crate::notation::diagram;
use crate::{CcEval, CcPolicy, CcTable, Position};
use engine::ab_player::AbEval;
use engine::engine::DefaultEngine;
use engine::settings::{PlayoutKind, PlayoutSettings, TableSpec};
use engine::setup::{load_exact_table, GameSetup, OptionHelp, Picture, SetupError};
use quasar_core::{Evaluation, Game, Oracle, Outcome};
use std::sync::Arc;

/// Chinese Checkers with `pieces` a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcSetup {
    /// Pieces a side (1 to 6).
    pub pieces: u32,
}

impl CcSetup {
    /// Chinese Checkers with `pieces` a side, refused unless it has a start (1 to 6).
    pub fn checked(pieces: u32) -> Result<CcSetup, SetupError> {
        Position::start(pieces).map_err(|e| SetupError::Size(e.into()))?;
        Ok(CcSetup { pieces })
    }
}

/// Two pieces a side, the papers' start.
impl Default for CcSetup {
    fn default() -> Self {
        CcSetup { pieces: 2 }
    }
}

impl GameSetup for CcSetup {
    type Game = Position;
    type Policy = CcPolicy;

    const NAME: &'static str = "chinese-checkers";

    fn params(&self) -> String {
        format!("7x7, {} pieces a side", self.pieces)
    }

    /// Its default engine (see [`Self::default_engine`]), its tables and verdicts.
    fn option_help() -> &'static [OptionHelp] {
        const HELP: &[OptionHelp] = &[
            OptionHelp::default_of("engine", "ab"),
            OptionHelp::note("rule", "sound only, its tables are exact"),
            OptionHelp::note("verdicts", "a move that wins at once"),
        ];
        HELP
    }

    fn of_position(pos: &Position) -> Self {
        CcSetup { pieces: pos.k() }
    }

    fn from_params(text: &str) -> Result<Self, SetupError> {
        let pieces = text
            .strip_prefix("7x7, ")
            .and_then(|t| t.strip_suffix(" pieces a side"))
            .and_then(|k| k.parse().ok())
            .ok_or_else(|| {
                SetupError::Size(
                    format!("expected Chinese Checkers parameters such as \"7x7, 2 pieces a side\", got {text:?}").into(),
                )
            })?;
        CcSetup::checked(pieces)
    }

    fn picture(&self) -> Option<Picture> {
        // The rhombus stood on a corner, as the diagram draws it: 13 rows of 1 to 7 cells.
        let rows = crate::board::ROW_START;
        let mut cells = Vec::new();
        for r in 0..13 {
            let len = rows[r + 1] - rows[r];
            for k in 0..len {
                let x = (7 - len) as f64 / 2.0 + k as f64;
                cells.push([x, r as f64 * 0.866]);
            }
        }
        Some(Picture {
            cells,
            shape: "hex",
            background: Vec::new(),
            colours: ["#c8302c", "#2c5fc8"],
            labels: (0..crate::board::CELLS)
                .map(crate::board::cell_name)
                .collect(),
        })
    }

    fn cells(&self, pos: &Position) -> String {
        (0..crate::board::CELLS)
            .map(|c| {
                if pos.pieces[0] >> c & 1 == 1 {
                    'a'
                } else if pos.pieces[1] >> c & 1 == 1 {
                    'b'
                } else {
                    '.'
                }
            })
            .collect()
    }

    fn start(&self) -> Result<Position, SetupError> {
        Position::start(self.pieces).map_err(|e| SetupError::Size(e.into()))
    }

    fn boardsize(&self, args: &[&str]) -> Result<Self, SetupError> {
        match args {
            ["7"] => Ok(*self),
            _ => Err(SetupError::Boardsize(
                "Chinese Checkers is played on 7x7 only: boardsize 7".into(),
            )),
        }
    }

    /// Alpha-beta: it beat the default MCTS 144 - 56 in 200 games at 100 ms a move
    /// (docs/results.md).
    fn default_engine(&self) -> DefaultEngine {
        DefaultEngine::AlphaBeta(AbEval::Ab)
    }

    fn evaluation(&self) -> Option<Arc<dyn Evaluation<Position>>> {
        Some(Arc::new(CcEval::new()))
    }

    fn boardsize_command(&self) -> String {
        "boardsize 7".into()
    }

    fn policy(&self, p: &PlayoutSettings) -> Result<CcPolicy, SetupError> {
        Ok(CcPolicy {
            uniform: p.kind == Some(PlayoutKind::Uniform),
        })
    }

    fn playout_keys(&self) -> &'static [&'static str] {
        &["playout"]
    }

    fn playout_text(&self) -> String {
        "its playouts take a winning move, else the more forward of two random moves, and \
         take only playout=uniform (uniform moves)"
            .into()
    }

    fn load_oracle(&self, table: &TableSpec) -> Result<Arc<dyn Oracle<Position>>, SetupError> {
        let t = load_exact_table(table, "a Chinese Checkers table", CcTable::load, |t| {
            if t.k() == self.pieces {
                Ok(())
            } else {
                Err(format!(
                    "holds {} pieces a side, but the game has {}",
                    t.k(),
                    self.pieces
                ))
            }
        })?;
        Ok(Arc::new(t))
    }

    fn diagram(&self, pos: &Position) -> String {
        format!(
            "{}{} to move\n",
            diagram(pos),
            Position::side_name(pos.side)
        )
    }

    fn end_detail(&self, pos: &Position) -> Option<String> {
        Some(match pos.outcome()? {
            Outcome::Win(w) if pos.has_won(w) => {
                format!("{} filled its goal", Position::side_name(w))
            }
            Outcome::Win(w) => format!("{} has no move left", Position::side_name(w.opponent())),
            Outcome::Draw => "a draw".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_words_and_sizes() {
        let s = CcSetup::checked(3).unwrap();
        assert_eq!(s.params(), "7x7, 3 pieces a side");
        assert!(CcSetup::checked(7).is_err());
        assert_eq!(s.boardsize(&["7"]).unwrap(), s);
        assert!(s.boardsize(&["8"]).is_err());
        assert!(s.policy(&PlayoutSettings::default()).is_ok());
        let start = s.start().unwrap();
        assert_eq!(CcSetup::of_position(&start), s);
        assert!(s.diagram(&start).ends_with("X to move\n"));
    }
}
