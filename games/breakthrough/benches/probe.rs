//! Probe latency on positions from random games: all probes, hits and misses, compared
//! with the cost of a random playout step; with a file, also the time to open it (warm)
//! and the first pass over the positions, which checks each block on first use.
//!
//! A compressed table's reads are then timed through the block cache as well: whole, a
//! cache twice the table (every read a hit once warm), a quarter of it, and 64 KiB (nearly
//! every read a miss), with the cache's hit and miss counts.
//!
//! `cargo bench -p breakthrough --bench probe -- FILE [POSITIONS]` (default: builds 6x6
//! with 4 rows in memory when no file is given).

use breakthrough::tablebase::store::CompressedTable;
use breakthrough::tablebase::{generate, Limits, Region, Silent, Tablebase};
use breakthrough::{Board, Position};
use quasar_core::{Game, Oracle};
use quasar_file::cache::Residence;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let open = |f: &str| {
        Tablebase::open(Path::new(f)).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(1)
        })
    };
    let tb = match args.first() {
        Some(f) => {
            // Warm opens (the first one brings the header and block CRCs into the cache).
            let mut ms: Vec<f64> = (0..21)
                .map(|_| {
                    let t = Instant::now();
                    black_box(open(f));
                    t.elapsed().as_secs_f64() * 1e3
                })
                .skip(1)
                .collect();
            ms.sort_by(f64::total_cmp);
            let bytes = std::fs::metadata(f).map_or(0, |m| m.len());
            println!(
                "open {f} ({:.0} MB): median {:.3} ms, max {:.3} ms over {} warm opens",
                bytes as f64 / 1e6,
                ms[ms.len() / 2],
                ms[ms.len() - 1],
                ms.len()
            );
            open(f)
        }
        None => {
            let region = Region::new(Board::new(6, 6).expect("6x6"), 4).expect("region");
            Tablebase::from_generated(&generate(&region, Limits::NONE, &Silent).expect("build"))
        }
    };
    let want: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let board = tb.header().board;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut positions = Vec::with_capacity(want);
    let t = Instant::now();
    let mut steps = 0u64;
    while positions.len() < want {
        let mut pos = Position::start(board);
        while pos.outcome().is_none() && positions.len() < want {
            positions.push(pos);
            let mv = pos.random_move(&mut rng).expect("not over");
            pos.play(mv);
            steps += 1;
        }
    }
    let step_ns = t.elapsed().as_nanos() as f64 / steps as f64;
    let t = Instant::now();
    let (hits, misses): (Vec<Position>, Vec<Position>) =
        positions.iter().partition(|p| tb.probe(p).is_some());
    println!(
        "{board} {} rows: first pass (each block checked on first use): {:.1} ns/probe",
        tb.header().rows,
        t.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    for (name, set) in [("all", &positions), ("hits", &hits), ("misses", &misses)] {
        if set.is_empty() {
            continue;
        }
        let t = Instant::now();
        let mut n = 0u64;
        for p in set.iter() {
            n += black_box(tb.probe(p)).is_some() as u64;
        }
        let ns = t.elapsed().as_nanos() as f64 / set.len() as f64;
        println!(
            "{board} {} rows: {name:>6}: {:>8} positions, {ns:>6.1} ns/probe, {:.2} M probes/s ({n} wins)",
            tb.header().rows,
            set.len(),
            1e3 / ns
        );
    }
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for p in &misses {
        if let Err(why) = tb.explain(p) {
            let name = format!("{why:?}");
            let name = name.split([' ', '{', '(']).next().unwrap_or("").to_string();
            match reasons.iter_mut().find(|r| r.0 == name) {
                Some(r) => r.1 += 1,
                None => reasons.push((name, 1)),
            }
        }
    }
    println!("why the misses are unknown: {reasons:?}");
    // The engine's question at a playout ply (no best move), then the table's read alone
    // on random configurations of a sliced table: what its form costs (plain or compressed).
    let t = Instant::now();
    let mut n = 0u64;
    for p in &positions {
        n += black_box(tb.claim_depth(p)).is_some() as u64;
    }
    println!(
        "{board} {} rows: claim_depth over all positions: {:.1} ns/probe ({n} claims)",
        tb.header().rows,
        t.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    if let Some(sliced) = tb.table().tree.slices() {
        let s = sliced.slicing();
        let ids: Vec<u32> = (0..s.slices()).filter(|&id| s.is_canonical(id)).collect();
        let configs: Vec<_> = (0..want)
            .map(|_| {
                let id = ids[rng.random_range(0..ids.len())];
                s.config(id, rng.random_range(0..s.per_slice()))
            })
            .collect();
        for pass in ["first", "second"] {
            let t = Instant::now();
            let mut found = 0u64;
            for &c in &configs {
                found += black_box(tb.table_depth(c)).is_ok_and(|d| d.is_some()) as u64;
            }
            println!(
                "{board} {} rows: table_depth of random configurations ({pass} pass): {:.1} ns/read ({found} wins within the cap)",
                tb.header().rows,
                t.elapsed().as_nanos() as f64 / configs.len() as f64
            );
        }
        if tb.table().tree.as_compressed().is_some() {
            let mut t = CompressedTable::open(Path::new(&args[0])).expect("opened above");
            let bytes = t.file_bytes();
            for (name, r) in [
                ("whole", Residence::Whole),
                ("cache 2x the table", Residence::Cached(2 * bytes)),
                ("cache 1/4 of the table", Residence::Cached(bytes / 4)),
                ("cache 64 KiB", Residence::Cached(64 << 10)),
            ] {
                t.set_residence(r);
                let mut ns = 0.0;
                for _ in ["first", "second"] {
                    let start = Instant::now();
                    for &c in &configs {
                        black_box(t.depth(c)).expect("an intact table");
                    }
                    ns = start.elapsed().as_nanos() as f64 / configs.len() as f64;
                }
                let stats = t.cache_stats().unwrap_or_default();
                println!(
                    "compressed depth of random configurations, {name}: {ns:.1} ns/read (second pass); over both passes {} hits, {} misses, {} slices ({} bytes) held",
                    stats.hits, stats.misses, stats.blocks, stats.bytes
                );
            }
        }
    }
    println!("for scale: one random playout step (move + make) costs {step_ns:.1} ns here");
    if let Some(e) = tb.damage() {
        eprintln!("error: {e}");
        std::process::exit(1)
    }
}
