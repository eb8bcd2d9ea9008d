//! `quasar bestmove`: search one position and print the move with the search statistics.

use super::engine_opts::describe_report;
use super::engine_opts::EngineArgs;
use super::{position_from, CliResult};
use breakthrough::Board;

/// Search a position and print the best move and the statistics.
#[derive(clap::Args)]
pub struct Args {
    /// Board size WxH (ignored when --position gives one)
    #[arg(long, default_value = "8x8")]
    board: Board,
    /// The position, e.g. "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w" (default: the start)
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
    let board = args.position.is_none().then_some(args.board);
    let pos = position_from(board, args.position.as_deref())?;
    let mut searcher = args.engine.searcher(pos.board())?;
    let report = searcher.search(&pos, args.engine.limits());
    print!("{}", describe_report(&pos, &report, args.moves));
    Ok(())
}
