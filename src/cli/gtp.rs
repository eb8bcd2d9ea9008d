//! `quasar gtp`: speak GTP version 2 on standard input and output.

use super::engine_opts::EngineArgs;
use super::CliResult;
use crate::games::{with_game, CliGame, GameArgs};
use crate::gtp::{serve, GtpEngine};
use std::io;

/// Speak GTP version 2 on standard input and output (the board can also be set with
/// `boardsize`; the clock with `time_settings` and `time_left` overrides --time).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S, given => run_game::<S>(&args, given))
}

fn run_game<S: CliGame>(args: &Args, given: Option<S>) -> CliResult {
    let setup = given.unwrap_or_else(|| S::default_size());
    let choice = args.engine.choice(&setup)?;
    let mut engine = GtpEngine::new(setup, choice)?;
    // The reading thread owns its buffer: a lock of standard input cannot move to it.
    let input = io::BufReader::new(io::stdin());
    serve(&mut engine, input, io::stdout().lock())?;
    Ok(())
}
