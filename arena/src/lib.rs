//! Matches between players of any game: one game with time control and adjudication,
//! parallel matches with resume, openings, JSON Lines records, statistics and reports, and
//! self-play shards for training.
//!
//! The players, their specs and [`engine::setup::GameSetup`] (what a game tells the arena)
//! are the `engine` crate's; nothing here names a game.

#![forbid(unsafe_code)]

pub mod game;
pub mod html;
pub mod matchup;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod record;
pub mod report;
pub mod selfplay;
pub mod stats;
pub mod value_rules;
pub mod verify;
