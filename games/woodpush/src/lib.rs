//! Woodpush (Cazenave and Nowakowski's retrograde analysis, rules of `docs/games/woodpush.md`):
//! the strip and its moves, positions with the direct ko, text, a playout policy, the state
//! space indexed for the `retro` solvers, and the solved game.

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
pub mod store;

pub use board::{Board, Kind, MAX_WIDTH};
pub use eval::WoodpushEval;
pub use notation::NotationError;
pub use policy::WoodpushPolicy;
pub use position::{Move, Position, WidthError};
pub use prove::WoodpushProver;
pub use setup::WoodpushSetup;
pub use solve::{solve, SolveError, SolveOptions, SolveReport, TableCounts, WoodpushTable};
pub use space::{KoStates, WoodpushSpace};
pub use store::{LoadError, VerifyReport};
