//! The exact prover of quasar, for any game: df-pn finds the winner, a bounded search then
//! proves the exact length, with proof files that an independent checker replays,
//! checkpoints, shards and merges. A game takes part through [`Instance`], its own
//! knowledge: a compact position key for the transposition table and the files, a code of
//! each move, and (optional) quick verdicts, a symmetry, ordered moves and table claims.
//!
//! # Inside
//!
//! `solve.rs` holds the entry points ([`solve()`], [`solve_with_draws`], [`test_bound`]),
//! `dfpn.rs` the winner's search (and `dfpn/proof.rs` a winner-only proof read off its table), `draws.rs` the winner's search where games may draw or
//! cycle, `draw_proof.rs` a draw's proof (each side's strategy that holds it), `graph.rs` the value of a position with few reachable positions outright,
//! `length.rs` (and `length/pn.rs`) the exact length and the proof's records,
//! `proof.rs` the proof file, `proof_writer.rs` its streaming writer, `check.rs` the
//! independent checker, `merge.rs` the merge of shards, `checkpoint.rs` the saved state,
//! `tt.rs` the bounded transposition table, `seen.rs` the set of written positions, and
//! `frame.rs` the magic, version and checksum the files share.

pub mod check;
pub mod checkpoint;
pub mod dfpn;
pub mod draw_proof;
pub mod draws;
pub mod frame;
pub mod graph;
pub mod instance;
pub mod jobtree;
pub mod length;
pub mod merge;
pub mod proof;
pub mod proof_writer;
pub mod seen;
mod solve;
pub mod tt;

pub use check::{check, check_shard, check_view, CheckReport};
pub use checkpoint::{Checkpoint, CheckpointError};
pub use instance::{Instance, MoveOf, ProverPosition, Quick, Step};
pub use merge::merge;
pub use proof::{Proof, ProofError, ProofFile, ProofView, Record, RecordKind, Verdict};
pub use proof_writer::{ProofSummary, ProofWriter};
pub use solve::*;
pub use tt::{Key, Table, TableTooLarge};
