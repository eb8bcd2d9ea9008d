//! Matches between players, with colours swapped and games in parallel, and the statistics
//! and reports of their results.

pub mod defaults;
pub mod game;
pub mod gtp_client;
pub mod matchup;
pub mod mcts_player;
pub mod player;
pub mod record;
pub mod report;
pub mod stats;
