//! Retrograde analysis for any game: a game exposes a perfect index of its positions and its
//! moves between them ([`RetroGame`]); the solvers settle every position.
//!
//! - [`wdl::solve_wdl`]: win/draw/loss with distance in plies, by the forward or the
//!   backward solver of Sturtevant and Saffidine (2017) in each of their variants
//!   (win-only, layered, direct propagation, no-dup), with their work counts.
//! - [`scored`]: games whose ends carry a score (the first player maximises it, the second
//!   minimises it; endless play scores 0): the interleaved passes of Cazenave and Nowakowski
//!   ("Retrograde analysis of Woodpush"), and an exact backward solver by score thresholds.
//! - Positions no side can force out of a cycle are draws in both.
//! - [`symmetric::solve_mirror`]: games whose sides are colour-swapped images of each other,
//!   solved over one side to move with counters and unmoves, checkpointed between layers.
//! - [`ReverseGraph`] gives backward solvers the predecessors of games without unmoves.
//! - [`PackedArray`] stores values in the fewest bits, [`RunArray`] as run-length blocks
//!   with don't-cares, their runs as bytes or entropy-coded ([`huffman`], one [`RunCode`]
//!   shared by many arrays); [`TableFile`] writes them as a checksummed file.
//!
//! # Example
//!
//! A pile of stones, take 1 or 2, taking the last stone wins: position `2k + s` is a pile of
//! `k` with side `s` to move.
//!
//! ```
//! use quasar_core::{GameResult, Side};
//! use retro::wdl::{solve_wdl, Method, WdlOptions};
//! use retro::{Child, RetroGame};
//!
//! struct Pile(u64);
//! impl RetroGame for Pile {
//!     fn size(&self) -> u64 { 2 * (self.0 + 1) }
//!     fn mover(&self, p: u64) -> Side { if p % 2 == 0 { Side::First } else { Side::Second } }
//!     // An empty pile: the side to move has lost (score for the first player).
//!     fn terminal(&self, p: u64) -> Option<i32> {
//!         (p / 2 == 0).then(|| if p % 2 == 0 { -1 } else { 1 })
//!     }
//!     fn successors(&self, p: u64, out: &mut Vec<Child>) {
//!         out.clear();
//!         for take in 1..=2.min(p / 2) {
//!             out.push(Child::Pos(2 * (p / 2 - take) + (1 - p % 2)));
//!         }
//!     }
//! }
//!
//! let (table, report) = solve_wdl(&Pile(10), Method::Backward, WdlOptions::default(), &retro::Silent).unwrap();
//! // Piles that are multiples of 3 are lost for the side to move.
//! assert_eq!(table.value(2 * 9, Side::First).result, GameResult::Loss);
//! assert_eq!(table.value(2 * 10, Side::First).result, GameResult::Win);
//! // Take 1, then answer every move so that each round removes 3: 1 + 3 * 2 plies.
//! assert_eq!(table.value(2 * 10, Side::First).plies, 7);
//! assert_eq!(report.undecided, 0);
//! ```

#![forbid(unsafe_code)]

pub mod file;
pub mod huffman;
pub mod packed;
pub mod progress;
pub mod reverse;
pub mod runs;
pub mod scored;
pub mod space;
pub mod symmetric;
pub mod wdl;

pub use file::{Section, TableFile, TableFileError};
pub use packed::PackedArray;
pub use progress::{Progress, ProgressFn, Silent};
pub use reverse::{ReverseGraph, Reversed};
pub use runs::{RunArray, RunCode, RunCounts, RunWriter, RunsError, RUN_PAD};
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
