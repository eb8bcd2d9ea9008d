//! English checkers' setup: positions, policy, the endgame databases as oracles and the
//! engines' defaults.

use crate::db::Database;
use crate::{Checkers, CheckersEval};
use engine::engine::DefaultEngine;
use engine::settings::{PlayoutSettings, ProbeRule, TableSpec};
use engine::setup::{GameSetup, OptionHelp, Picture, RecordStyle, SetupError};
use mcts::UniformPolicy;
use quasar_core::{Evaluation, Game, Oracle, Outcome};
use std::sync::Arc;

/// Checkers on the standard 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckersSetup;

impl GameSetup for CheckersSetup {
    type Game = Checkers;
    type Policy = UniformPolicy;

    const NAME: &'static str = "checkers";

    fn params(&self) -> String {
        "8x8".into()
    }

    /// Its defaults as the methods below choose them, and what its databases, positions
    /// that are not quiet and verdicts are.
    fn option_help() -> &'static [OptionHelp] {
        const HELP: &[OptionHelp] = &[
            OptionHelp::default_of("engine", "mcts with its shipped model"),
            OptionHelp::note("table-cache", "a part is 4 KiB of runs"),
            OptionHelp::note("rule", "sound only, its databases are exact"),
            OptionHelp::note("quiesce", "a capture to make"),
            OptionHelp::default_of("imb", "0.25"),
            OptionHelp::default_of("imb-decided", "0.9"),
            OptionHelp::default_of("prior", "10"),
            OptionHelp::note("net", "a model shipped"),
            OptionHelp::default_of("leaf", "eval with a learned model, as by default"),
            OptionHelp::note("verdicts", "a capture that takes every opponent piece"),
        ];
        HELP
    }

    fn of_position(_: &Checkers) -> Self {
        CheckersSetup
    }

    fn from_params(text: &str) -> Result<Self, SetupError> {
        match text {
            "8x8" => Ok(CheckersSetup),
            _ => Err(SetupError::Size(
                format!("checkers is played on 8x8, not {text:?}").into(),
            )),
        }
    }

    fn record_style(&self) -> RecordStyle {
        // PDN: GameType 21 is English draughts; FEN and moves are the game's own text.
        RecordStyle {
            extension: "pdn",
            tags: vec![("GameType", "21".into())],
        }
    }

    fn picture(&self) -> Option<Picture> {
        // Square s (from 0) lies on row s / 4 from Black's side, on the dark squares.
        let dark = |r: u8, c: u8| (r + c) % 2 == 1;
        let spots = |want: bool| {
            (0..8u8)
                .flat_map(|r| (0..8u8).map(move |c| (r, c)))
                .filter(move |&(r, c)| dark(r, c) == want)
                .map(|(r, c)| [c as f64, r as f64])
                .collect()
        };
        Some(Picture {
            cells: spots(true),
            shape: "square",
            background: spots(false),
            colours: ["#2b2b2b", "#f4f1e8"],
            labels: (1..=32).map(|s: u32| s.to_string()).collect(),
        })
    }

    fn cells(&self, g: &Checkers) -> String {
        let b = g.pos.board;
        (0..32u8)
            .map(|sq| {
                let king = b.kings >> sq & 1 == 1;
                match (b.black >> sq & 1 == 1, b.white >> sq & 1 == 1, king) {
                    (true, _, false) => 'a',
                    (true, _, true) => 'A',
                    (_, true, false) => 'b',
                    (_, true, true) => 'B',
                    _ => '.',
                }
            })
            .collect()
    }

    fn start(&self) -> Result<Checkers, SetupError> {
        Ok(Checkers::default())
    }

    fn boardsize(&self, args: &[&str]) -> Result<Self, SetupError> {
        match args {
            ["8"] => Ok(CheckersSetup),
            _ => Err(SetupError::Boardsize(
                "checkers is played on 8x8 only: boardsize 8".into(),
            )),
        }
    }

    fn evaluation(&self) -> Option<Arc<dyn Evaluation<Checkers>>> {
        Some(Arc::new(CheckersEval))
    }

    /// Piece-square, counts and four-square windows (`crate::features`).
    fn features(&self) -> Option<Arc<dyn learn::Features<Checkers>>> {
        Some(Arc::new(crate::features::SquaresAndWindows))
    }

    /// The shipped model: MCTS's priors, implicit minimax backups and leaf values, and
    /// alpha-beta's evaluation with `net=builtin`.
    fn builtin_net(&self) -> Option<&'static [u8]> {
        Some(crate::features::builtin_model())
    }

    /// MCTS with the shipped model: with `imb-decided` it beat alpha-beta with the same
    /// model (docs/results.md).
    fn default_engine(&self) -> DefaultEngine {
        DefaultEngine::Mcts
    }

    /// With the shipped model the model scores the leaves: at 100 ms a move that beat
    /// playouts, whose simulations cost eight times as much, although at equal simulations
    /// playouts won (docs/results.md).
    fn default_leaf(&self, learned: bool) -> mcts::Leaf {
        if learned {
            mcts::Leaf::Evaluation
        } else {
            mcts::Leaf::Playout
        }
    }

    /// Implicit minimax backups at 0.25 with priors of 10 visits, from the shipped model:
    /// with them MCTS beat MCTS without an evaluation, where the same with the hand-written
    /// evaluation gained less (docs/results.md).
    fn default_imb(&self) -> f64 {
        0.25
    }

    /// Once a position is decided (a winning chance of 0.9 or more for one side), ranking
    /// the children by their minimax values alone converts won endings that the blended
    /// ranking drew by the 40-move rule (docs/results.md).
    fn default_imb_decided(&self) -> Option<f64> {
        Some(0.9)
    }

    /// See [`Self::default_imb`].
    fn default_prior(&self) -> u32 {
        10
    }

    fn boardsize_command(&self) -> String {
        "boardsize 8".into()
    }

    fn policy(&self, _: &PlayoutSettings) -> Result<UniformPolicy, SetupError> {
        Ok(UniformPolicy)
    }

    fn playout_keys(&self) -> &'static [&'static str] {
        &["playout"]
    }

    fn playout_text(&self) -> String {
        "its playouts play uniform legal moves (captures are compulsory) and end on entering \
         the databases; they take only playout=uniform"
            .into()
    }

    fn load_oracle(&self, table: &TableSpec) -> Result<Arc<dyn Oracle<Checkers>>, SetupError> {
        if table.rule == ProbeRule::Race {
            return Err(SetupError::Policy(
                "rule=race needs a table with a looser rule; checkers databases are exact \
                 (rule=sound)"
                    .into(),
            ));
        }
        // Distance files (`tablebase build --distance`) beside the slices make a won root
        // convert by the shortest way; they cost four times the values' memory. Slices
        // not built or damaged are left out, as a Breakthrough table's are, said once. A
        // compressed database larger than the table cache is read through it.
        let cache = table
            .cache_bytes
            .unwrap_or(quasar_file::cache::DEFAULT_CACHE_BYTES);
        let (db, problem) = Database::open_partial_cached(&table.path, true, cache)
            .map_err(|e| SetupError::Table(e.into()))?;
        if let Some(e) = problem {
            engine::warn::warn_incomplete(&table.path, &e);
        }
        Ok(Arc::new(db))
    }

    fn diagram(&self, g: &Checkers) -> String {
        let b = g.pos.board;
        let mut s = String::new();
        for r in 0..8u8 {
            let row: Vec<String> = (0..8u8)
                .map(|c| {
                    if (r + c) % 2 == 0 {
                        return " ".to_string();
                    }
                    let sq = r * 4 + c / 2;
                    let (black, white, king) = (
                        b.black >> sq & 1 == 1,
                        b.white >> sq & 1 == 1,
                        b.kings >> sq & 1 == 1,
                    );
                    match (black, white, king) {
                        (true, _, false) => "b",
                        (true, _, true) => "B",
                        (_, true, false) => "w",
                        (_, true, true) => "W",
                        _ => ".",
                    }
                    .to_string()
                })
                .collect();
            s.push_str(&format!("{:>2}  {}\n", r * 4 + 1, row.join(" ")));
        }
        s.push_str(&format!(
            "{} to move ({})\n",
            Checkers::side_name(g.side_to_move()),
            g.position_text()
        ));
        s
    }

    fn end_detail(&self, g: &Checkers) -> Option<String> {
        Some(match g.outcome()? {
            Outcome::Win(w) => format!(
                "{} has no legal move; {} wins",
                Checkers::side_name(w.opponent()),
                Checkers::side_name(w)
            ),
            Outcome::Draw => format!("drawn: {}", g.draw_rule().unwrap_or("no side can win")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::settings::EngineSettings;

    #[test]
    fn the_default_mcts_takes_priors_backups_and_leaves_from_the_shipped_model() {
        let s = CheckersSetup;
        let d = s.evaluation_use(&EngineSettings::default()).unwrap();
        assert!(d.learned && d.evaluation.is_some());
        assert_eq!((d.imb, d.prior, d.leaf), (0.25, 10, mcts::Leaf::Evaluation));
        assert_eq!(d.imb_decided, Some(0.9));
        let off = EngineSettings::parse_keys("imb-decided=off").unwrap();
        assert_eq!(s.evaluation_use(&off).unwrap().imb_decided, None);
        let nothing_to_raise = EngineSettings::parse_keys("imb=0,imb-decided=0.8").unwrap();
        let e = s.evaluation_use(&nothing_to_raise).unwrap_err().to_string();
        assert!(e.contains("imb-decided=0.8 needs imb= above 0"), "{e}");
        let mut searcher = s.searcher(&EngineSettings::default(), 1).unwrap();
        let r = searcher.search(&s.start().unwrap(), quasar_core::Limit::Count(300));
        assert_eq!(r.simulations, 300);
        assert!(r.best_move.is_some());
        // The hand-written evaluation where the model is off; the plain search with neither.
        let hand = EngineSettings::parse_keys("net=off").unwrap();
        let h = s.evaluation_use(&hand).unwrap();
        assert!(!h.learned && h.evaluation.is_some());
        assert_eq!(h.leaf, mcts::Leaf::Playout);
        let plain = EngineSettings::parse_keys("net=off,imb=0,prior=0").unwrap();
        assert!(s.evaluation_use(&plain).unwrap().evaluation.is_none());
    }

    #[test]
    fn boardsize_is_eight_only_and_the_end_is_in_words() {
        let s = CheckersSetup;
        assert!(s.boardsize(&["8"]).is_ok());
        assert!(s.boardsize(&["10"]).is_err());
        let end = Checkers::parse_position("B:W9,14:B5").unwrap();
        assert_eq!(
            s.end_detail(&end).unwrap(),
            "Black has no legal move; White wins"
        );
        assert!(s
            .diagram(&Checkers::default())
            .starts_with(" 1    b   b   b   b"));
    }
}
