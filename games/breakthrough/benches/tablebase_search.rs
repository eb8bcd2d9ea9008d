//! MCTS simulations per second with and without a tablebase, the table consulted in
//! playouts every ply, every 4 plies, or only at expansion (the thesis found that a slow
//! probe cancels the table's benefit).
//!
//! `cargo bench -p breakthrough --bench tablebase_search -- [FILE] [SECONDS]` (default: builds 6x6 with 4
//! rows in memory; 2 seconds a measurement). Positions: the 6x6 start and 8 positions
//! 16 random plies in, searched in turn.

use breakthrough::tablebase::{generate, Limits as PieceLimits, Region, Tablebase};
use breakthrough::BreakthroughPolicy;
use breakthrough::{Board, Position};
use mcts::{Config, Limits, Searcher};
use quasar_core::{Game, Oracle};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let tb: Arc<dyn Oracle<Position>> = match args.first() {
        Some(f) => Arc::new(Tablebase::open(Path::new(f)).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(1)
        })),
        None => {
            let region = Region::new(Board::new(6, 6).expect("6x6"), 4).expect("region");
            let g = generate(&region, PieceLimits::NONE, &breakthrough::tablebase::Silent)
                .expect("build");
            Arc::new(Tablebase::from_generated(&g))
        }
    };
    let board = Board::new(6, 6).expect("6x6");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
    let mut positions = vec![Position::start(board)];
    while positions.len() < 9 {
        let mut p = Position::start(board);
        for _ in 0..16 {
            if let Some(mv) = p.random_move(&mut rng) {
                p.play(mv);
            }
        }
        if p.outcome().is_none() {
            positions.push(p);
        }
    }
    let per_position = Duration::from_secs_f64(secs / positions.len() as f64);
    println!(
        "6x6, full playout policy, 1 thread, {secs} s per setting over {} positions",
        positions.len()
    );
    for (label, oracle, every) in [
        ("no table", None, None),
        ("table, every ply", Some(&tb), NonZeroU32::new(1)),
        ("table, every 4 plies", Some(&tb), NonZeroU32::new(4)),
        ("table, expansion only", Some(&tb), None),
    ] {
        let (mut sims, mut secs_used, mut proven) = (0u64, 0.0, 0);
        for (i, pos) in positions.iter().enumerate() {
            let config = Config {
                seed: i as u64 + 1,
                oracle_in_playouts: every,
                ..Config::<BreakthroughPolicy>::default()
            };
            let mut s = match oracle {
                Some(o) => Searcher::new(config, Arc::clone(o)),
                None => Searcher::without_oracle(config),
            };
            let r = s.search(pos, Limits::Time(per_position));
            sims += r.simulations;
            secs_used += r.elapsed.as_secs_f64();
            proven += r.proven.is_some() as u32;
        }
        println!(
            "{label:<24} {:>10.0} simulations/s  ({proven} of {} roots proven)",
            sims as f64 / secs_used,
            positions.len()
        );
    }
}
