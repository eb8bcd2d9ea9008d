//! `quasar perft`: leaf counts of the game tree, optionally divided by first move.

use super::{position_from, CliResult};
use engine::breakthrough::Board;
use engine::game::perft;
use engine::Game;
use std::time::Instant;

/// Count the leaves of the game tree to a depth; a finished game counts as one leaf.
#[derive(clap::Args)]
pub struct Args {
    /// Board size WxH: W columns, H rows (ignored when --position gives one)
    #[arg(long, default_value = "8x8")]
    board: Board,
    /// Plies to search
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Start from this position instead of the start (e.g. "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w")
    #[arg(long)]
    position: Option<String>,
    /// Also print the count under each first move
    #[arg(long)]
    divide: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let board = if args.position.is_some() {
        None
    } else {
        Some(args.board)
    };
    let pos = position_from(board, args.position.as_deref())?;
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut total = 0;
        for &mv in &moves {
            let mut child = pos;
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
    println!("perft {} depth {}: {total}", pos.board(), args.depth);
    eprintln!(
        "{:.3} s, {:.1} M leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
