//! Search rates and time-budget keeping, printed (not asserted).
//!
//! `cargo bench -p engine --bench search [SECONDS]` prints simulations per second (wall
//! clock and per CPU-second, which is the fair per-core figure on a shared machine) from
//! the 6x6 and 8x8 starts, uniform playouts to the end and the full policy, one and two
//! threads, searching SECONDS (default 1) each.
//! `cargo bench -p engine --bench search -- budget [MOVES] [MS]` plays MOVES moves (default
//! 1000) at MS milliseconds each (default 100) and reports how often and by how much the
//! budget was exceeded.

use engine::breakthrough::{Board, Position};
use engine::mcts::{BreakthroughPolicy, Config, Limits, Searcher};
use engine::Game;
use std::time::{Duration, Instant};

/// Raw uniform playouts from the start, no tree: the reference the search rate is read against.
fn playout_rate(w: u32, h: u32, secs: f64) -> f64 {
    use rand::SeedableRng;
    let start = Position::start(Board::new(w, h).expect("valid board"));
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..1000 {
            let mut p = start;
            std::hint::black_box(p.random_playout(&mut rng));
        }
        n += 1000;
    }
    n as f64 / t.elapsed().as_secs_f64()
}

/// CPU seconds this process has used (all threads), from `/proc/self/stat`; the machine
/// is shared, so rates per CPU-second are the fair "per core" figure.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the ")" that ends the command name: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn rates(secs: f64) {
    for (w, h) in [(6, 6), (8, 8)] {
        println!(
            "raw uniform playouts {w}x{h} (no tree): {:.0}/s",
            playout_rate(w, h, 1.0)
        );
    }
    println!("board  playout  threads  sims/s(wall) sims/CPU-s  sims        tree nodes  full");
    for (w, h) in [(6, 6), (8, 8)] {
        let pos = Position::start(Board::new(w, h).expect("valid board"));
        for (name, policy) in [
            ("uniform", BreakthroughPolicy::uniform()),
            ("policy", BreakthroughPolicy::default()),
        ] {
            for threads in [1, 2] {
                let config = Config {
                    playout: policy,
                    threads,
                    ..Config::default()
                };
                let mut s = Searcher::without_oracle(config);
                let cpu0 = cpu_seconds();
                let r = s.search(&pos, Limits::Time(Duration::from_secs_f64(secs)));
                let per_cpu = match (cpu0, cpu_seconds()) {
                    (Some(a), Some(b)) if b > a => r.simulations as f64 / (b - a),
                    _ => f64::NAN,
                };
                println!(
                    "{w}x{h}    {name:<8} {threads}        {:<12.0} {:<11.0} {:<11} {:<11} {}",
                    r.sims_per_second,
                    per_cpu,
                    r.simulations,
                    r.tree_nodes,
                    if r.budget_full { "yes" } else { "no" }
                );
            }
        }
    }
}

fn budget(moves: usize, ms: u64, threads: usize) {
    let limit = Duration::from_millis(ms);
    let mut over = Vec::new();
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut played = 0;
    let mut game = 0u64;
    while played < moves {
        let config = Config {
            threads,
            seed: game,
            ..Config::<BreakthroughPolicy>::default()
        };
        let mut s = Searcher::without_oracle(config);
        let mut pos = Position::start(Board::new(8, 8).expect("valid board"));
        while pos.outcome().is_none() && played < moves {
            let t = Instant::now();
            let r = s.search(&pos, Limits::Time(limit));
            let took = t.elapsed();
            total += took;
            worst = worst.max(took);
            if took > limit {
                over.push(took - limit);
                if took > limit + Duration::from_millis(5) {
                    println!(
                        "  over by {:?}: search says {:?}, {} sims, {} nodes ({} reused)",
                        took - limit,
                        r.elapsed,
                        r.simulations,
                        r.tree_nodes,
                        r.reused_nodes
                    );
                }
            }
            pos.play(r.best_move.expect("the game is not over"));
            played += 1;
        }
        game += 1;
    }
    let mean_over = if over.is_empty() {
        Duration::ZERO
    } else {
        over.iter().sum::<Duration>() / over.len() as u32
    };
    println!(
        "{played} moves at {ms} ms ({threads} thread(s), 8x8, {game} games): exceeded {} times; \
         mean excess {:?}, largest move time {:?}, mean move time {:?}",
        over.len(),
        mean_over,
        worst,
        total / played as u32
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("budget") => {
            let moves = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
            let ms = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
            let threads = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
            budget(moves, ms, threads);
        }
        _ => {
            // One second keeps the default node budget from filling (a full tree stops
            // expanding and would flatter the rate).
            let secs = args.first().and_then(|a| a.parse().ok()).unwrap_or(1.0);
            rates(secs);
        }
    }
}
