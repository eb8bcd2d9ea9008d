//! `quasar bestmove`: search one position and print the move with the search statistics.

use super::engine_opts::{describe_engine_report, EngineArgs};
use super::{position_from, CliResult, SizeRule};
use crate::games::{with_game, CliGame, DefaultSize, GameArgs};
use arena::engine::Engine;

/// Search a position and print the best move and the statistics.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The position, e.g. "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w" (default: the start; its size
    /// wins over the size options)
    #[arg(long)]
    position: Option<String>,
    /// Also print every root move's visits, value and proof
    #[arg(long)]
    moves: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S, given => run_game::<S>(&args, given))
}

fn run_game<S: CliGame>(args: &Args, given: Option<S>) -> CliResult {
    let (setup, pos) = position_from::<S>(
        given,
        args.position.as_deref(),
        DefaultSize::Standard,
        SizeRule::PositionWins,
    )?;
    let mut engine = Engine::new(&setup, &args.engine.choice()?, 0)?;
    let report = engine.search(&pos, args.engine.limits());
    print!("{}", describe_engine_report(&pos, &report, args.moves));
    Ok(())
}
