//! Players of any game built from settings, for every command that searches (`bestmove`,
//! `play`, `gtp`, the arena) and for Python: [`setup::GameSetup`], what a game tells them
//! beyond its rules; the [`player::Player`] trait and its kinds (MCTS, alpha-beta, random,
//! an external engine over GTP) with their specs and factory; [`engine::Engine`], quasar's
//! own searchers for one game at a time; the engine settings and their keys, learned-model
//! specs, clocks and the time manager, and the blunder guard.
//!
//! Nothing here names a game or plays a match: matches are the arena's.

#![forbid(unsafe_code)]

pub mod ab_player;
pub mod clock;
pub mod duration;
pub mod engine;
pub mod factory;
pub mod gtp_client;
pub mod guard;
pub mod mcts_player;
pub mod net;
pub mod player;
pub mod random_player;
pub mod settings;
pub mod setup;
pub mod spec;
pub mod warn;
