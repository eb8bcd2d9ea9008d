//! `cargo bench -p checkers -- [build N] [probe DIR] [perft D]`: database build time by
//! piece count, probe time, and perft speed (a plain `main`, figures to standard output).

use checkers::db::{build, Built, Database};
use checkers::{Position, Slice};
use quasar_core::{perft, Selection, SplitMix64};
use rand::Rng;
use std::time::Instant;

fn bench_build(n: u32) {
    let dir = std::env::temp_dir().join(format!("checkers-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut per = vec![(0f64, 0u64, 0u32); n as usize + 1];
    let start = Instant::now();
    build(&dir, n, &Selection::All, &mut |b| {
        if let Built::Built(s, r) = b {
            let e = &mut per[s.pieces() as usize];
            e.0 += r.seconds;
            e.1 += r.positions;
            e.2 = e.2.max(r.passes);
        }
    })
    .unwrap();
    for (k, (s, p, passes)) in per.iter().enumerate().skip(1) {
        println!(
            "{k} pieces: {p} positions in {s:.2} s ({:.0} ns a position), at most {passes} levels",
            s * 1e9 / *p as f64
        );
    }
    println!(
        "all to {n} pieces: {:.2} s on {} threads",
        start.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    bench_probe(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

fn bench_probe(dir: &std::path::Path) {
    let db = Database::open(dir).unwrap();
    let slices = db.slices();
    let mut rng = SplitMix64::new(1);
    // Random positions of the largest slices, drawn first so only the probe is timed.
    let big: Vec<Slice> = slices
        .iter()
        .copied()
        .filter(|s| s.pieces() == db.max_pieces())
        .collect();
    let positions: Vec<Position> = (0..1 << 16)
        .map(|_| {
            let s = big[(rng.next_u64() % big.len() as u64) as usize];
            let t = db.table(s).unwrap();
            let b = t.index().board(rng.next_u64() % t.index().size());
            let side = if rng.next_u64() & 1 == 0 {
                quasar_core::Side::First
            } else {
                quasar_core::Side::Second
            };
            Position { board: b, side }
        })
        .collect();
    let rounds = 50;
    let start = Instant::now();
    let mut wins = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            wins += (db.probe_position(p) == Some(checkers::Wdl::Win)) as u64;
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * positions.len()) as f64;
    println!(
        "probe ({}-piece positions, random): {ns:.1} ns ({wins} wins)",
        db.max_pieces()
    );
    // The same positions, the slice lookup and index only (no read of the values).
    let start = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        for p in &positions {
            let t = db.table(Slice::of(&p.board)).unwrap();
            sum = sum.wrapping_add(t.index().index(&p.board));
        }
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (rounds * positions.len()) as f64;
    println!("  of which slice lookup and index: {ns:.1} ns ({sum})");
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    match args.as_slice() {
        [cmd, n] if cmd == "build" => bench_build(n.parse().unwrap()),
        [cmd, dir] if cmd == "probe" => bench_probe(std::path::Path::new(dir)),
        [cmd, d] if cmd == "perft" => {
            for depth in 1..=d.parse().unwrap() {
                let t = Instant::now();
                let n = perft(&Position::START, depth);
                let s = t.elapsed().as_secs_f64();
                println!(
                    "perft {depth}: {n} in {s:.2} s ({:.1} M leaves/s)",
                    n as f64 / s / 1e6
                );
            }
        }
        _ => bench_build(4),
    }
}
