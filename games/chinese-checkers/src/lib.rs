//! Two-player Chinese Checkers on the 7x7 hex rhombus, as Sturtevant and Saffidine's solver
//! paper plays it (rules of `docs/games/chinese-checkers.md`): the board, positions and
//! their moves, text, a playout policy, the perfect index of every placement for the
//! `retro` solvers, and the solved table as an MCTS oracle.

#![forbid(unsafe_code)]

pub mod board;
#[cfg(feature = "cli")]
pub mod cli;
pub mod encode;
pub mod eval;
pub mod notation;
pub mod opened;
pub mod policy;
pub mod position;
pub mod prove;
pub mod setup;
pub mod solve;
pub mod space;

pub use eval::CcEval;
pub use notation::NotationError;
pub use policy::CcPolicy;
pub use position::{Move, PiecesError, Position};
pub use prove::CcProver;
pub use setup::CcSetup;
pub use solve::{CcTable, LoadError};
pub use space::CcSpace;
