//! One module per subcommand: each parses its options and prints what the library computes.

pub mod arena;
pub mod bench;
pub mod bestmove;
pub mod engine_opts;
pub mod examples;
pub mod gtp;
pub mod output;
pub mod perft;
pub mod play;
pub mod replay;
pub mod show;
pub mod solve;
pub mod tablebase;
pub mod train;

pub use crate::CliResult;
pub use quasar_cli::position_from;
