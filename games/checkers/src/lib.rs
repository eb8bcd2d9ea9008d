//! English checkers (rules of `docs/games/checkers.md`): bitboard rules and move
//! generation, PDN text, the draw rules of play, the perfect index of each database slice,
//! and the endgame databases built slice by slice with the passes of Lake, Schaeffer and Lu.

#![forbid(unsafe_code)]

pub mod board;
pub mod build;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compress;
pub mod db;
pub mod distance;
pub mod encode;
pub mod endgame;
pub mod eval;
pub mod features;
pub mod notation;
pub mod opened;
mod oracle;
pub mod play;
pub mod position;
pub mod prove;
pub mod setup;
pub mod slice;

pub use board::{Board, Move};
pub use db::{Database, DbError, SliceTable, Wdl};
pub use endgame::Distance;
pub use eval::CheckersEval;
pub use notation::NotationError;
pub use play::Checkers;
pub use position::Position;
pub use prove::{CheckersProver, Leafed};
pub use setup::CheckersSetup;
pub use slice::{Slice, SliceIndex};
