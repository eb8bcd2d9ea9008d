//! Exact solving of small Breakthrough boards: df-pn finds the winner, a bounded search
//! then proves the exact length under perfect play, with finished games, the last rows'
//! forced wins and a tablebase's sound claims as proven leaves, and a proof file that
//! [`check::check`] verifies independently.
//!
//! ```
//! use breakthrough::solve::{solve, Options, Silent};
//! use breakthrough::{Board, Position};
//!
//! let root = Position::start(Board::new(4, 4).unwrap());
//! let s = solve(&root, &Options::default(), &Silent).unwrap();
//! assert_eq!((s.winner, s.plies), (quasar_core::Side::Second, 14));
//! ```

pub mod leaves;

/// The prover's modules, under the names this crate always gave them.
pub use prover::check::{self};
pub use prover::merge::{self};
pub use prover::{dfpn, frame, length, proof, proof_writer, seen, tt};

/// The solver's checkpoint file, its state typed by Breakthrough's positions.
pub mod checkpoint {
    pub use prover::checkpoint::*;

    /// A Breakthrough solve's saved state.
    pub type Checkpoint = prover::checkpoint::Checkpoint<crate::Position>;
}
pub use prover::{
    BoundTest, CheckReport, CheckpointError, ProofError, ProofFile, ProofSummary, Record,
    RecordKind, SolveError, Status, PLACE_LEVELS,
};
pub use quasar_core::progress::{Progress, Silent};

use crate::tablebase::{generate, Limits, Region, RegionError, Tablebase};
use crate::{Board, Position};
use leaves::Geometry;
use prover::ProofView as View;
use quasar_core::Shard;
use std::path::{Path, PathBuf};

/// How to solve a Breakthrough position.
pub type Options<'a> = prover::Options<'a, Tablebase>;
/// A solved Breakthrough position.
pub type Solution = prover::Solution<Position>;
/// A proof of a Breakthrough position, in memory.
pub type Proof = prover::Proof<Position>;
/// A Breakthrough proof file's contents, read in place.
pub type ProofView<'a> = View<'a, Position>;
pub use checkpoint::Checkpoint;
/// A Breakthrough proof being written.
pub type ProofWriter = prover::ProofWriter<Position>;

/// Solves the unfinished `root`: the winner, the exact length, the principal line and,
/// when asked, the proof.
pub fn solve(
    root: &Position,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    prover::solve(&Geometry::new(root.board()), root, options, progress)
}

/// Finds the winner of the unfinished `root`, then answers one bound of the length
/// search: does the winner win within `plies` plies? (See [`prover::test_bound`].)
pub fn test_bound(
    root: &Position,
    options: &Options,
    plies: u32,
    progress: &dyn Progress,
) -> Result<BoundTest, SolveError> {
    prover::test_bound(&Geometry::new(root.board()), root, options, plies, progress)
}

/// Checks that `proof.winner` wins from `proof.root` within `proof.plies` plies.
pub fn check(proof: &Proof) -> Result<CheckReport, ProofError> {
    prover::check(proof)
}

/// Checks the proof a file holds, on the current rayon pool's threads.
pub fn check_view(view: &ProofView, progress: &dyn Progress) -> Result<CheckReport, ProofError> {
    prover::check_view(view, progress)
}

/// Checks the root and `shard`'s share of the records of the proof a file holds.
pub fn check_shard(
    view: &ProofView,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<CheckReport, ProofError> {
    prover::check_shard(view, shard, progress)
}

/// Merges the Breakthrough proof pieces at `pieces` into `out`.
pub fn merge(pieces: &[PathBuf], out: &Path) -> Result<ProofSummary, ProofError> {
    prover::merge::<Position>(pieces, out)
}

/// The least bound the length search tests by proof numbers on `board` by default: 6 on
/// boards of at least 5 columns and 6 rows, where it disproved 5x6's bound 31 in a fifth of
/// the time the depth-first search had spent without an answer and halved the time on 5x6
/// positions lasting 25-27 plies; none elsewhere, where depth first was faster (5x5 by
/// 1.7x, 4x6 by 1.7x; README, "The length by proof numbers").
pub fn default_length_pn_from(board: Board) -> u32 {
    if board.width() >= 5 && board.height() >= 6 {
        6
    } else {
        length::DEFAULT_PN_FROM
    }
}

/// The row count of the default in-memory table for `board`: four on boards of six rows
/// or more when that table is small enough to probe by one byte (at most 5 columns: 5x6
/// has 8 M configurations), else three. The sound rule accepts depths up to
/// `R = H - n + 1`, and a table of `n` rows holds depths up to about `n - 1`: on 5 rows
/// three rows are best (four proved the same nodes on 5x5 and cost 4 s to build), on 6
/// rows four rows claim the wins of depth 3 as well, which cut df-pn's nodes 2.5-3 fold
/// on 3x6, 3x7 and 4x6 and 2.7-14 fold on 5x6 positions (README, "6-row boards").
pub fn default_rows(board: Board) -> Option<u32> {
    let w = board.width();
    if board.height() < 4 || 3 * w > crate::tablebase::region::MAX_KEY_CELLS {
        return None;
    }
    let four = (1u64 << (3 * w)).saturating_mul(3u64.pow(w));
    Some(
        if board.height() >= 6 && four <= crate::tablebase::dense::DENSE_MAX_LEN {
            4
        } else {
            3
        },
    )
}

/// Builds a table of the top `rows` rows of `board` in memory, on all cores, whose probes
/// read one byte a configuration when it is small (5x6 with 4 rows: 8 MB): the solver
/// probes at every node, and through the B-tree a 4-row table's probes took 30 % of
/// df-pn's time on 4x6.
pub fn table_in_memory(board: Board, rows: u32) -> Result<Tablebase, RegionError> {
    let region = Region::new(board, rows)?;
    let g = generate(&region, Limits::NONE, &Silent)?;
    Ok(Tablebase::from_generated_dense(&g))
}

#[cfg(test)]
mod tests;
