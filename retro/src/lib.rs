//! Retrograde analysis for any game: a game exposes a perfect index of its positions and its
//! moves between them ([`RetroGame`]); the solvers settle every position.
//!
//! - [`wdl::solve_wdl`]: win/draw/loss with distance in plies, by the forward or the
//!   backward solver of Sturtevant and Saffidine (seed 000) in each of their variants
//!   (win-only, layered, direct propagation, no-dup), with their work counts.
//! - [`scored`]: games whose ends carry a score (the first player maximises it, the second
//!   minimises it; endless play scores 0): the interleaved passes of Cazenave and Nowakowski
//!   (seed 002), and an exact backward solver by score thresholds.
//! - Positions no side can force out of a cycle are draws in both.
//! - [`ReverseGraph`] gives backward solvers the predecessors of games without unmoves.
//! - [`PackedArray`] stores values in the fewest bits; [`TableFile`] writes them as a
//!   checksummed file.

pub mod file;
pub mod packed;
pub mod progress;
pub mod reverse;
pub mod scored;
pub mod space;
pub mod wdl;

pub use file::{Section, TableFile, TableFileError};
pub use packed::PackedArray;
pub use progress::{Progress, ProgressFn};
pub use reverse::{ReverseGraph, Reversed};
pub use space::{Child, PerfectIndex, RetroGame};

/// Why a solve cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The index is too large for the reverse graph (positions are stored in 32 bits there).
    #[error(
        "{0} positions are too many for a reverse graph (at most 2^32); give the game unmoves"
    )]
    TooLarge(u64),
    /// The solver cannot handle this game.
    #[error("{0}")]
    Unsupported(&'static str),
}
