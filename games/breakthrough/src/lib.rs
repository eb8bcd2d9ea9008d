//! Breakthrough on any board `W x H` with `W, H >= 3` and `W * H <= 64`, on bitboards.
//!
//! Cells are numbered row-major from `a1 = 0`; White (the [`Side::First`]) starts on rows
//! 1-2 and moves up, Black on the top two rows and moves down.
//!
//! # Searching a position
//!
//! ```
//! use breakthrough::{Board, BreakthroughPolicy, Position};
//! use mcts::{Config, Searcher};
//! use quasar_core::Limit;
//! use std::time::Duration;
//!
//! let pos = Position::start(Board::new(6, 6).unwrap());
//! let config = Config { seed: 7, ..Config::<BreakthroughPolicy>::default() };
//! let mut searcher = Searcher::without_oracle(config);
//! let report = searcher.search(&pos, Limit::Count(2_000));
//! let mv = report.best_move.expect("the game is not over");
//! assert!(report.simulations <= 2_000);
//! # let _ = (mv, Limit::Time(Duration::from_millis(10)));
//! ```

pub mod bench;
mod board;
#[cfg(feature = "cli")]
pub mod cli;
pub mod encode;
mod error;
pub mod eval;
pub mod features;
mod movegen;
mod notation;
pub mod policy;
pub mod setup;
pub mod solve;
pub mod tablebase;
mod transform;

pub use board::{Board, Move, Position, BLACK, WHITE};
pub use error::{BoardError, CellError, Illegal, MoveError, PositionError};
pub use eval::BreakthroughEval;
pub use movegen::Targets;
pub use policy::{evaluate, BreakthroughPolicy};
pub use setup::BreakthroughSetup;

use quasar_core::{Game, Outcome, ParseError, Side};

/// The Breakthrough player: MCTS with the bitboard playout policy.
pub type BreakthroughSearcher = mcts::Searcher<Position, BreakthroughPolicy>;

impl Game for Position {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = ["White", "Black"];

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.make_move(mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.zobrist()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        Ok(self.parse_move_text(text)?)
    }

    fn move_text(&self, mv: Move) -> String {
        self.format_move(mv)
    }

    fn position_text(&self) -> String {
        self.to_fen()
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Ok(Position::from_fen(text)?)
    }

    /// The fused bitboard playout. It needs no cap: every move takes a piece one row
    /// forward, so a game ends within `pieces * (height - 1)` plies.
    fn random_playout(
        &mut self,
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
        _moves: &mut Vec<Move>,
        _max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        let (outcome, plies) = self.random_playout_plies(rng);
        (Some(outcome), plies)
    }
}
