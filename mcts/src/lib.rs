//! Monte Carlo Tree Search in the style of Wanderer, for any [`quasar_core::Game`]: UCT
//! (formula 2.1 of the thesis), the MCTS-solver, an oracle hook for endgame knowledge,
//! playout policies with early termination, time or simulation limits, root-parallel
//! threads and tree reuse.
//!
//! # Using it
//!
//! The crate documentation of `breakthrough` shows a search of a Breakthrough position.
//!
//! - [`Config`] holds `c`, the playout policy (a game's own, such as Breakthrough's, or
//!   the generic [`UniformPolicy`]), the node budget, threads, how often playouts consult the
//!   oracle, the playout ply cap and the seed; `Config::default()` is a sensible player.
//! - [`Searcher::new`] takes the config and an `Arc<dyn Oracle<G>>` (a tablebase, the
//!   exact solver); [`Searcher::without_oracle`] takes none; [`Searcher::with_evaluation`]
//!   takes an optional oracle and an optional `Arc<dyn Evaluation<G>>`.
//! - With an evaluation, `Config::imb` (alpha) turns on implicit minimax backups (Lanctot,
//!   Winands, Pepels and Sturtevant 2014): every new child stores the evaluation's winning
//!   chance for its mover, each expanded node one less its best child's (backed up after
//!   each expansion, and to the root after each proof), and selection ranks children by
//!   `(1 - alpha) * mean + alpha * value` in place of the mean. `Config::prior` gives every
//!   new child that many virtual visits scored at the same chance (node priors); expansion
//!   and the oracle's lazy probes count real visits on top of them. Both work in either
//!   parallel mode (a shared tree's value backups may race: values only steer, and the
//!   next backup mends them).
//! - [`Searcher::search`] takes a position and [`quasar_core::Limit`] (`Time(Duration)` or
//!   `Count(n)` simulations) and returns a [`Report`]: best move, simulations, rate, value,
//!   PV, proven result, tree size, whether the node budget filled, and per-move statistics.
//!   The root is expanded before the first simulation, so `Count(0)` runs no playout and
//!   still reports every legal move.
//! - [`Searcher::search_with`] also reports to a [`quasar_core::progress::Watch`]: a
//!   progress line at most once per its interval (read where the threads publish, every
//!   256 simulations) and one at the end, and its stop flag ends the search early;
//!   [`Report::by_visits`] ranks the root moves for a multi-line analysis.
//! - The searcher keeps its tree: searching a position reached from the previous root
//!   within two plies reuses that subtree; [`Searcher::clear`] forgets it.
//! - Threads: [`Parallelism::Root`] (the default). The calling thread and `threads - 1`
//!   persistent helper threads each grow their own tree (each gets `node_budget / threads`
//!   nodes and its own seed); the root moves' statistics and proofs are merged. Helpers
//!   publish their root statistics every 256 simulations, so a time-limited search never
//!   waits long for a helper that lost its processor. With `Limit::Count` every
//!   thread runs its share exactly, so results are reproducible for a given seed and thread
//!   count.
//! - [`Parallelism::Tree`]: all threads grow one shared tree (the whole node budget) with
//!   atomic statistics, a virtual loss on the path of every unfinished simulation and a
//!   per-node expansion flag; proofs are set once by compare-and-swap. The simulation count
//!   is exact but the result is **not** reproducible with two or more threads (the threads'
//!   interleaving shapes the tree). With one thread both modes are the same search. Measured
//!   on 2 cores it runs fewer simulations per second than root parallelism (the threads
//!   contend for the cache lines of the nodes near the root) and plays no stronger, so it
//!   is not the default (see the `treepar` mode of `benches/search.rs`).
//! - Simulations per tree are capped near 2^31 (scores are stored doubled in `u32`).
//!
//! Proofs: a child whose move ends the game, or that the oracle's `probe` knows, is proven
//! at expansion and never gets a playout; proofs propagate to the root, and the final move
//! takes a proven win, avoids proven losses, else is the most visited. When the oracle's
//! `probe_root` proves the root itself and names a legal move (for a win, a draw or a
//! loss), that move is played without search.
//!
//! # Inside
//!
//! One search code serves both tree kinds: `store.rs` says what a tree must offer (the
//! `Store` trait), `tree.rs` is the single-owner arena (each thread of root parallelism has
//! one) and `shared.rs` the atomic shared tree of tree parallelism. Over any store,
//! `worker.rs` runs simulations and expands nodes, `solver.rs` proves, `uct.rs` selects,
//! `reuse.rs` finds the new root and `report.rs` reads the root statistics, the principal
//! variation and the move to play. `config.rs` holds the configuration and limits,
//! `root_parallel.rs` and `tree_parallel.rs` the helper threads of each mode, and
//! `searcher.rs` the [`Searcher`] that ties them together. Data flows one way: the stores
//! know nothing of the search, the search nothing of the threads.

#![forbid(unsafe_code)]

mod config;
mod debug;
mod playout;
mod report;
mod reuse;
mod root_parallel;
mod searcher;
mod shallow;
mod shared;
mod solver;
mod stats;
mod store;
mod tree;
mod tree_parallel;
mod uct;
mod worker;

#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod tests;

pub use config::{Check, ChildProbes, Config, Leaf, Parallelism};
pub use playout::{consult_due, play_out, PlayoutContext, PlayoutPolicy, UniformPolicy};
pub use searcher::Searcher;
pub use stats::{ChildStats, Proven, Report};
