//! The game-neutral core of quasar: the [`Game`] trait, sides and outcomes, the [`Oracle`]
//! trait that endgame knowledge implements, perft and an exact solver for tiny games.

pub mod exact;
pub mod game;
pub mod oracle;

pub use game::{perft, Game, GameResult, Outcome, ParseError, Side};
pub use oracle::{NoOracle, Oracle, ProvenOutcome};
