//! Alpha-beta search for any [`quasar_core::Game`] with an [`quasar_core::Evaluation`]: the
//! classical reference player beside MCTS.
//!
//! # Using it
//!
//! - [`AlphaBeta::new`] takes a [`Config`] (transposition-table size, deepest iteration)
//!   and the game's evaluation; [`AlphaBeta::with_oracle`] adds endgame knowledge (a
//!   tablebase, a database) consulted at every node below the root, so a proven result ends
//!   a line.
//! - [`AlphaBeta::search`] takes a position and a [`Limit`] (time, depth or nodes) and
//!   returns a [`Report`]: the move, its [`Score`] (an evaluation, or a proven win or loss
//!   with its distance), the deepest finished iteration, nodes, time and the principal
//!   variation. A finished position is refused with [`SearchError::GameOver`].
//! - [`AlphaBeta::search_with`] also reports each finished depth to a
//!   [`quasar_core::progress::Watch`], stops when its flag is raised, and can leave root
//!   moves out (the second best line is the best of the others).
//! - A clock is turned into one move's time by whoever drives the search (the GTP engine's
//!   `time_settings`/`time_left`), the same for every engine.
//!
//! # Inside
//!
//! `search.rs` holds iterative deepening and the negamax principal-variation search:
//! outcomes, repetitions along the path (draws), the evaluation's sound verdicts and the
//! oracle end a line; the transposition table (`tt.rs`) gives cut-offs and the first move
//! to try; `ordering.rs` orders the rest (tactical moves, two killers a ply, history).
//! `score.rs` folds proven results and their distances into one integer. With a time
//! limit no iteration starts after half the budget, and the running one stops at the
//! budget, keeping the best root move it had searched fully.

#![forbid(unsafe_code)]

pub mod check;
mod limits;
mod ordering;
mod score;
mod search;
mod tt;

pub use limits::Limit;
pub use score::{Score, MATE, PROVEN};
pub use search::{AlphaBeta, Config, Report, SearchError};
pub use tt::TableTooLarge;

#[cfg(test)]
mod tests;
