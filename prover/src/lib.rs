//! The exact prover of quasar, for any game: df-pn finds the winner, a bounded search then
//! proves the exact length, with proof files that an independent checker replays,
//! checkpoints, shards and merges. A game takes part through a small trait of its own
//! knowledge: a compact position key for the transposition table and the files, quick
//! verdicts and a symmetry, all optional but the key.
//!
//! # Inside
//!
//! `tt.rs` is the bounded transposition table (full keys, two slots a cache line), `seen.rs`
//! the proof writer's set of written positions, `frame.rs` the magic, version and checksum
//! that the proof and checkpoint files share.

pub mod frame;
pub mod seen;
pub mod tt;

pub use tt::{Key, Table, TableTooLarge};
