//! `quasar gtp`: speak GTP version 2 on standard input and output.

use super::engine_opts::EngineArgs;
use super::CliResult;
use crate::gtp::{serve, GtpEngine};
use breakthrough::Board;
use std::io;

/// Speak GTP version 2 on standard input and output (the board can also be set with
/// `boardsize`; the clock with `time_settings` and `time_left` overrides --time).
#[derive(clap::Args)]
pub struct Args {
    /// Board size WxH to start with
    #[arg(long, default_value = "8x8")]
    board: Board,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let searcher = args.engine.searcher(args.board)?;
    let mut engine = GtpEngine::new(args.board, searcher, args.engine.limits());
    serve(&mut engine, io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}
