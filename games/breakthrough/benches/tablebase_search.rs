//! MCTS simulations per second with and without a tablebase (the table consulted in
//! playouts every ply through the fast path, the same through the general path of
//! `explain` as before the answer cache, every 4 plies, or only at expansion), each as a
//! share of the rate without a table; then the probe's cost per playout ply, measured on
//! playouts alone.
//!
//! `cargo bench -p breakthrough --bench tablebase_search -- [FILE] [SECONDS] [REPEATS]`
//! (default: builds 6x6 with 4 rows in memory; 2 seconds a measurement; 1 repeat, the
//! settings alternating so that a noisy machine hurts them alike; the median is printed).
//! Positions: the start of the table's board and 8 positions 16 random plies in.

use breakthrough::tablebase::{generate, Limits as PieceLimits, Region, Tablebase};
use breakthrough::BreakthroughPolicy;
use breakthrough::{Board, Position};
use mcts::{Config, Limits, PlayoutContext, PlayoutPolicy, Searcher};
use quasar_core::{Game, GameResult, Oracle, ProvenOutcome};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Counts the playout plies at which the oracle is asked (every ply but the first).
struct Counting<'a> {
    inner: Option<&'a dyn Oracle<Position>>,
    asked: AtomicU64,
}

impl Oracle<Position> for Counting<'_> {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<breakthrough::Move>> {
        self.inner.and_then(|o| o.probe(pos))
    }
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        self.inner.and_then(|o| o.guess(pos))
    }
}

/// Nanoseconds per playout ply of the full policy from `positions` (`rounds` playouts each,
/// fixed seeds), with `oracle` asked at every ply.
fn ns_per_ply(positions: &[Position], oracle: Option<&dyn Oracle<Position>>, rounds: u32) -> f64 {
    let policy = BreakthroughPolicy::default();
    let run = |o: Option<&dyn Oracle<Position>>| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut moves = Vec::new();
        let t = Instant::now();
        for _ in 0..rounds {
            for p in positions {
                let mut ctx = PlayoutContext {
                    rng: &mut rng,
                    moves: &mut moves,
                    oracle: o,
                    oracle_every: 1,
                    max_plies: 1000,
                };
                let mut pos = *p;
                std::hint::black_box(policy.run(&mut pos, &mut ctx));
            }
        }
        t.elapsed().as_nanos() as f64
    };
    // The same playouts (same seeds, same answers) once more to count their plies.
    let counting = Counting {
        inner: oracle,
        asked: AtomicU64::new(0),
    };
    run(Some(&counting));
    let plies = counting.asked.load(Ordering::Relaxed) + (rounds as u64 * positions.len() as u64);
    let ns = match oracle {
        Some(o) => run(Some(o)),
        // No table: an oracle that knows nothing, so that the loop is the same one.
        None => run(Some(&quasar_core::NoOracle)),
    };
    ns / plies as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let repeats: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let open = || -> Tablebase {
        match args.first() {
            Some(f) => Tablebase::open(Path::new(f)).unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(1)
            }),
            None => {
                let region = Region::new(Board::new(6, 6).expect("6x6"), 4).expect("region");
                let g = generate(&region, PieceLimits::NONE, &breakthrough::tablebase::Silent)
                    .expect("build");
                Tablebase::from_generated(&g)
            }
        }
    };
    let fast = open();
    let board = fast.header().board;
    let tb: Arc<dyn Oracle<Position>> = Arc::new(fast);
    let slow: Arc<dyn Oracle<Position>> = Arc::new(open().with_slow_probes(true));
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
        "{board}, full playout policy, 1 thread, {secs} s per setting over {} positions, median of {repeats}",
        positions.len()
    );
    let settings = [
        ("no table", None, None),
        ("table, every ply", Some(&tb), NonZeroU32::new(1)),
        ("every ply, general path", Some(&slow), NonZeroU32::new(1)),
        ("table, every 4 plies", Some(&tb), NonZeroU32::new(4)),
        ("table, expansion only", Some(&tb), None),
    ];
    let mut rates = vec![Vec::new(); settings.len()];
    let mut proven = vec![0; settings.len()];
    for _ in 0..repeats {
        for (k, (_, oracle, every)) in settings.iter().enumerate() {
            let (mut sims, mut secs_used) = (0u64, 0.0);
            proven[k] = 0;
            for (i, pos) in positions.iter().enumerate() {
                let config = Config {
                    seed: i as u64 + 1,
                    oracle_in_playouts: *every,
                    ..Config::<BreakthroughPolicy>::default()
                };
                let mut s = match oracle {
                    Some(o) => Searcher::new(config, Arc::clone(o)),
                    None => Searcher::without_oracle(config),
                };
                let r = s.search(pos, Limits::Time(per_position));
                sims += r.simulations;
                secs_used += r.elapsed.as_secs_f64();
                proven[k] += r.proven.is_some() as u32;
            }
            rates[k].push(sims as f64 / secs_used);
        }
    }
    let base = median(&mut rates[0].clone());
    for (k, (label, _, _)) in settings.iter().enumerate() {
        let r = median(&mut rates[k]);
        println!(
            "{label:<26} {r:>10.0} simulations/s  {:>5.1}% of no table  ({} of {} roots proven)",
            100.0 * r / base,
            proven[k],
            positions.len()
        );
    }
    // Playouts alone: the probe's amortised cost per ply.
    let rounds = (secs * 20_000.0 / positions.len() as f64).max(100.0) as u32;
    let mut costs = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..repeats {
        costs[0].push(ns_per_ply(&positions, None, rounds));
        costs[1].push(ns_per_ply(&positions, Some(&*tb), rounds));
        costs[2].push(ns_per_ply(&positions, Some(&*slow), rounds));
    }
    let [none, with, general] = costs.map(|mut c| median(&mut c));
    println!(
        "playouts alone: {none:.1} ns/ply without a table, {with:.1} with it at every ply (+{:.1} ns), {general:.1} through the general path (+{:.1} ns)",
        with - none,
        general - none
    );
}
