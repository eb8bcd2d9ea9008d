//! The game-neutral core of quasar: the [`Game`] trait, sides and outcomes, the [`Oracle`]
//! trait that endgame knowledge implements, the [`Evaluation`] trait of heuristic knowledge, perft, an exact solver for tiny games, the
//! conformance suite every game runs, the one progress interface ([`progress`]), the one search budget ([`Limit`]), and the small shared tools (bit operations chosen at
//! run time, binomials and colex ranks, the mirror of a board held in a `u64`, SplitMix64, a cache prefetch).

pub mod bits;
pub mod combin;
pub mod conformance;
pub mod encode;
pub mod eval;
pub mod exact;
pub mod game;
pub mod grid;
pub mod limit;
pub mod measure;
pub mod memory;
pub mod oracle;
pub mod plan;
pub mod prefetch;
pub mod progress;
pub mod rng;
pub mod table;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod toy;

pub use encode::{Encode, Planes};
pub use eval::{
    win_chance, Evaluation, ForcedOnly, Verdict, Verdicts, EVAL_LIMIT, QUIESCENCE_PLIES,
};
pub use game::{perft, random_line, Detail, Game, GameResult, Outcome, ParseError, Side};
pub use limit::Limit;
pub use measure::cpu_seconds;
pub use oracle::{Chain, NoOracle, Oracle, ProvenOutcome};
pub use plan::{Plan, Selection, Shard};
pub use rng::{splitmix64, SplitMix64};
pub use table::EndgameTable;
