//! Game rules, the [`Game`] trait, Monte Carlo Tree Search and the [`Oracle`] trait that
//! endgame knowledge implements.

pub mod bench;
pub mod breakthrough;
pub mod exact;
pub mod game;
pub mod mcts;
pub mod oracle;

pub use game::{Game, GameResult, Outcome, ParseError, Side};
pub use oracle::{NoOracle, Oracle, ProvenOutcome};
