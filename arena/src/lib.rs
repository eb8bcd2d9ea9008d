//! Matches between players of any game: players and their specs, one game, parallel
//! matches with resume, JSON Lines records, statistics and reports, and the GTP client.
//!
//! A game joins by implementing [`setup::GameSetup`] (its name, sizes, start, playout
//! policy and tables); nothing here names a game.

#![forbid(unsafe_code)]

pub mod ab_player;
pub mod engine;
pub mod factory;
pub mod game;
pub mod gtp_client;
pub mod html;
pub mod matchup;
pub mod mcts_player;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod random_player;
pub mod record;
pub mod report;
pub mod selfplay;
pub mod setup;
pub mod spec;
pub mod stats;
pub mod value_rules;
pub mod verify;
