//! `quasar perft`: leaf counts of the game tree, optionally divided by first move.

use super::{position_from, CliResult};
use crate::games::{with_game, CliGame, GameArgs};
use quasar_cli::progress::Bars;
use quasar_core::perft;
use quasar_core::progress::Progress;
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
    #[arg(long)]
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
    let (setup, pos) = position_from::<S>(given, args.position.as_deref())?;
    let start = Instant::now();
    let bars = Bars::new(true);
    let total = if args.divide && args.depth > 0 {
        let mut first_moves = 0;
        let total = perft_shown(&pos, args.depth, &bars, |mv, n| {
            first_moves += 1;
            println!("{} {n}", pos.move_text(mv))
        });
        println!();
        // The root counts as one leaf when it has no move.
        if first_moves == 0 {
            1
        } else {
            total
        }
    } else {
        perft_shown(&pos, args.depth, &bars, |_, _| {})
    };
    bars.finish();
    let secs = start.elapsed().as_secs_f64();
    println!("perft {} depth {}: {total}", setup.params(), args.depth);
    eprintln!(
        "{:.3} s, {:.1} M leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// `perft(pos, depth)`, counted below each position two plies down so that a long count
/// shows where it stands (a unit each); `each` hears each first move's count.
fn perft_shown<G: Game>(
    pos: &G,
    depth: u32,
    progress: &dyn Progress,
    mut each: impl FnMut(G::Move, u64),
) -> u64 {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth == 0 || pos.outcome().is_some() {
        return perft(pos, depth);
    }
    let child = |mv| {
        let mut c = pos.clone();
        c.play(mv);
        c
    };
    if depth < 3 {
        return moves
            .iter()
            .map(|&mv| {
                let n = perft(&child(mv), depth - 1);
                each(mv, n);
                n
            })
            .sum();
    }
    let firsts: Vec<(G::Move, G)> = moves.iter().map(|&mv| (mv, child(mv))).collect();
    // A finished position, or one without a reply, is one unit; any other one a reply.
    let replies_of = |first: &G, replies: &mut Vec<G::Move>| {
        replies.clear();
        if first.outcome().is_none() {
            first.legal_moves(replies);
        }
    };
    let mut replies = Vec::new();
    let units: u64 = firsts
        .iter()
        .map(|(_, first)| {
            replies_of(first, &mut replies);
            replies.len().max(1) as u64
        })
        .sum();
    progress.begin("positions two plies down", units);
    let mut total = 0;
    for (mv, first) in &firsts {
        replies_of(first, &mut replies);
        let n = if replies.is_empty() {
            progress.advance(1);
            perft(first, depth - 1)
        } else {
            replies
                .iter()
                .map(|&reply| {
                    let mut second = first.clone();
                    second.play(reply);
                    let n = perft(&second, depth - 2);
                    progress.advance(1);
                    n
                })
                .sum()
        };
        each(*mv, n);
        total += n;
    }
    progress.end();
    total
}
