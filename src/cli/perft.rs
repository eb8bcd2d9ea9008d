//! `quasar perft`: leaf counts of the game tree, optionally divided by first move.

use super::{position_from, CliResult, SizeRule};
use crate::games::{with_game, CliGame, GameArgs};
use quasar_core::perft;
use quasar_core::Game;
use std::time::Instant;

/// Count the leaves of the game tree to a depth; a finished game counts as one leaf.
#[derive(clap::Args)]
#[command(after_help = PERFT_HELP)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Plies to search
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Start from this position instead of the start position (the board size comes from it)
    #[arg(long, value_name = "FEN")]
    position: Option<String>,
    /// Also print the count under each first move
    #[arg(long)]
    divide: bool,
}

const PERFT_HELP: &str = "\
Breakthrough positions are written as in the spec: rows from the top (row H) down to row 1,
separated by '/', W and B for pieces, a number for a run of empty cells, then a space and the
side to move, w or b. The 6x6 start is BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w.

Examples:
  quasar perft --board 8x8 --depth 5            prints perft 8x8 depth 5: 6182818
  quasar perft --board 6x5 --depth 4 --divide   6 columns, 5 rows; count per first move
  quasar perft --position '5/1B3/5/W4/5 w' --depth 6
  quasar perft --game woodpush --width 9 --depth 8    Woodpush from L.L...R.R L";

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S, given => run_game::<S>(&args, given))
}

fn run_game<S: CliGame>(args: &Args, given: Option<S>) -> CliResult {
    let (setup, pos) = position_from::<S>(given, args.position.as_deref(), SizeRule::MustAgree)?;
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut total = 0;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let n = perft(&child, args.depth - 1);
            println!("{} {n}", pos.move_text(mv));
            total += n;
        }
        if moves.is_empty() {
            total = 1;
        }
        println!();
        total
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {} depth {}: {total}", setup.params(), args.depth);
    eprintln!(
        "{:.3} s, {:.1} M leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
