//! MCTS simulations per second with and without a tablebase (the table consulted in
//! playouts every ply through the fast path, the same through the general path of
//! `explain` as before the answer cache, every 4 plies, or only at expansion; a new node's
//! children probed at its expansion, at its next visit or each at its first visit), each as a
//! share of the rate without a table; then the probe's cost per playout ply, measured on
//! playouts alone.
//!
//! `cargo bench -p breakthrough --bench tablebase_search -- [FILE[,FILE...]] [SECONDS] [REPEATS]`
//! (default: builds 6x6 with 4 rows in memory; 2 seconds a measurement; 1 repeat, the
//! settings alternating so that a noisy machine hurts them alike; the median and the range
//! are printed; rates and costs are per second of the process' CPU time, so that a loaded
//! machine's waits do not count). Several tables of one board (e.g. a table file and the same table sliced)
//! are measured in the same run, each with its own settings; the general path only for
//! the first. "full probe" proves new nodes' children through `Oracle::probe` (with the
//! best move, as before `probe_value`), the rest through `probe_value`.
//! Positions: the start of the table's board and 8 positions 16 random plies in.
//! A sliced table with a block index (`blocks.qsi`) is also measured without it ("whole
//! slices": each slice checked whole on first use, as before the index), and the cost of a
//! probe's first use of a slice is timed on 1,000 random slices each way.
//! A table copied into memory (read without the answer cache) is also measured through the
//! cache ("answer cache").
//! `QUASAR_BENCH_ONLY=TEXT` measures only the searches whose label holds `TEXT` (`=TEXT`:
//! whose label is `TEXT`; several such patterns separated by `|`), and no playouts alone.

use breakthrough::tablebase::cache::DEFAULT_SLOTS_LOG2;
use breakthrough::tablebase::{generate, Limits as PieceLimits, Region, Tablebase};
use breakthrough::BreakthroughPolicy;
use breakthrough::{Board, Position};
use mcts::{ChildProbes, Config, PlayoutContext, PlayoutPolicy, Searcher};
use quasar_core::Limit;
use quasar_core::{Game, GameResult, Oracle, ProvenOutcome};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Counts the playout plies at which the oracle is asked (every ply but the first).
struct Counting<'a> {
    inner: Option<&'a dyn Oracle<Position>>,
    asked: AtomicU64,
}

impl Oracle<Position> for Counting<'_> {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<breakthrough::Move>> {
        self.inner.and_then(|o| o.probe(pos))
    }
    fn probe_value(&self, pos: &Position) -> Option<ProvenOutcome<breakthrough::Move>> {
        self.inner.and_then(|o| o.probe_value(pos))
    }
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        self.inner.and_then(|o| o.guess(pos))
    }
}

/// A table whose proofs at expansion go through the full probe with its best move (the
/// engine before `Oracle::probe_value`), for comparison in the same run.
struct FullProbe(Arc<dyn Oracle<Position>>);

impl Oracle<Position> for FullProbe {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<breakthrough::Move>> {
        self.0.probe(pos)
    }
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        self.0.guess(pos)
    }
}

/// Nanoseconds per playout ply of the full policy from `positions` (`rounds` playouts each,
/// fixed seeds), with `oracle` asked at every ply.
fn ns_per_ply(positions: &[Position], oracle: Option<&dyn Oracle<Position>>, rounds: u32) -> f64 {
    let policy = BreakthroughPolicy::default();
    let run = |o: Option<&dyn Oracle<Position>>| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut moves = Vec::new();
        let t = cpu_seconds();
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
        (cpu_seconds() - t) * 1e9
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

/// Seconds of CPU this process has used: on a shared machine the wall clock counts the time
/// other jobs hold the cores, so the rates divide by this instead.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Times a probe's first use of a slice: `n` random stored slices, one configuration read in
/// each, by a freshly opened table with its block index and by one checking slices whole
/// (different slices each way, so that neither warms the page cache for the other), then the
/// same reads again by fresh tables (the slices' pages now cached).
fn first_use(dir: &Path, n: usize) {
    let open = |index: bool| {
        let tb = Tablebase::open(dir).expect("opened above");
        if index {
            tb
        } else {
            tb.without_block_index()
        }
    };
    let probe = open(true);
    let s = probe
        .table()
        .tree
        .as_sliced()
        .expect("sliced")
        .slicing()
        .clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut ids: Vec<u32> = (0..s.slices()).filter(|&id| s.is_canonical(id)).collect();
    // A random sample: a partial Fisher-Yates shuffle.
    for i in 0..2 * n {
        let j = rng.random_range(i..ids.len());
        ids.swap(i, j);
    }
    let reads: Vec<(u32, u64)> = ids[..2 * n]
        .iter()
        .map(|&id| (id, rng.random_range(0..s.per_slice())))
        .collect();
    for pass in ["first pass", "second pass, page cache warm"] {
        for (index, part) in [(true, &reads[..n]), (false, &reads[n..])] {
            let tb = open(index);
            let t = tb.table().tree.as_sliced().expect("sliced");
            let (cpu, wall) = (cpu_seconds(), std::time::Instant::now());
            let mut found = 0;
            for &(id, idx) in part {
                found += t.depth(s.config(id, idx)).is_ok_and(|d| d.is_some()) as usize;
            }
            let (cpu, wall) = (cpu_seconds() - cpu, wall.elapsed().as_secs_f64());
            println!(
                "first use of a slice, {}, {pass}: {:.1} us CPU, {:.1} us wall a slice ({found} of {} read)",
                if index { "block index" } else { "whole slices" },
                cpu * 1e6 / part.len() as f64,
                wall * 1e6 / part.len() as f64,
                part.len()
            );
        }
    }
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
    let open = |f: Option<&str>| -> Tablebase {
        match f {
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
    let files: Vec<Option<&str>> = match args.first() {
        Some(list) => list.split(',').map(Some).collect(),
        None => vec![None],
    };
    type Shared = Arc<dyn Oracle<Position>>;
    struct Measured {
        name: String,
        tb: Shared,
        full: Shared,
        uncached: Shared,
        /// A table copied into memory, read through the answer cache as well.
        cached: Option<Shared>,
        from_files: Shared,
        /// A sliced table with a block index, without it.
        whole: Option<Shared>,
        /// The tables whose opened slices are counted: with and without the index.
        counted: Vec<Arc<Tablebase>>,
    }
    let tables: Vec<Measured> = files
        .iter()
        .map(|&f| {
            let tb = Arc::new(open(f));
            let indexed = tb
                .table()
                .tree
                .as_sliced()
                .is_some_and(|s| s.block_index().is_some());
            let name = match tb.table().tree.as_sliced() {
                Some(_) if indexed => format!("{} (sliced, block index)", f.unwrap_or("")),
                Some(_) => format!("{} (sliced)", f.unwrap_or("")),
                None => f.unwrap_or("6x6 r4 in memory").to_string(),
            };
            let mut counted = vec![Arc::clone(&tb)];
            let whole = indexed.then(|| {
                let w = Arc::new(open(f).without_block_index());
                counted.push(Arc::clone(&w));
                w as Shared
            });
            let resident = tb.resident_bytes();
            let tb: Shared = tb;
            Measured {
                name,
                full: Arc::new(FullProbe(Arc::clone(&tb))),
                uncached: Arc::new(open(f).with_cache_slots(0)),
                cached: (resident > 0)
                    .then(|| Arc::new(open(f).with_cache_slots(DEFAULT_SLOTS_LOG2)) as Shared),
                from_files: Arc::new(
                    open(f)
                        .with_resident(false)
                        .with_cache_slots(DEFAULT_SLOTS_LOG2),
                ),
                tb,
                whole,
                counted,
            }
        })
        .collect();
    for (k, f) in files.iter().enumerate() {
        if tables[k].whole.is_some() {
            first_use(Path::new(f.expect("a sliced table is a directory")), 1000);
        }
    }
    let first = open(files[0]);
    let board = first.header().board;
    let slow: Arc<dyn Oracle<Position>> = Arc::new(first.with_slow_probes(true));
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
        "{board}, full playout policy, 1 thread, {secs} s per setting over {} positions, median [min-max] of {repeats}; rates per second of process CPU time",
        positions.len()
    );
    /// A setting: its label, the table (none: no table), how often playouts ask it, and
    /// when a new node's children are probed.
    type Setting<'a> = (String, Option<&'a Shared>, Option<NonZeroU32>, ChildProbes);
    let (exp, next, first) = (
        ChildProbes::Expansion,
        ChildProbes::NextVisit,
        ChildProbes::FirstVisit,
    );
    let mut settings: Vec<Setting> = vec![("no table".into(), None, None, exp)];
    for (k, m) in tables.iter().enumerate() {
        let (name, tb, full, from_files) = (&m.name, &m.tb, &m.full, &m.from_files);
        let tag = if tables.len() > 1 {
            format!("[{}] ", k + 1)
        } else {
            String::new()
        };
        println!("[{}] {name}", k + 1);
        let every = |n| NonZeroU32::new(n);
        let mut rows: Vec<(&str, &Shared, Option<NonZeroU32>, ChildProbes)> =
            vec![("every ply", tb, every(1), exp)];
        if let Some(whole) = &m.whole {
            rows.push(("every ply, whole slices", whole, every(1), exp));
            rows.push(("every 4 plies, whole slices", whole, every(4), exp));
            rows.push(("expansion only, whole slices", whole, None, exp));
        } else if name.ends_with("(sliced)") {
            rows.push(("every ply, files", from_files, every(1), exp));
        }
        if let Some(cached) = &m.cached {
            rows.push(("every ply, answer cache", cached, every(1), exp));
        }
        rows.extend([
            ("every ply, full probe", full, every(1), exp),
            ("every ply, next-visit", tb, every(1), next),
            ("every ply, first-visit", tb, every(1), first),
            ("every 4 plies", tb, every(4), exp),
            ("expansion only", tb, None, exp),
            ("exp. only, next-visit", tb, None, next),
            ("exp. only, first-visit", tb, None, first),
        ]);
        if k == 0 {
            rows.push(("every ply, general path", &slow, every(1), exp));
        }
        for (label, o, e, when) in rows {
            settings.push((format!("{tag}{label}"), Some(o), e, when));
        }
    }
    // `QUASAR_BENCH_ONLY=TEXT` keeps the settings whose label holds it (`=TEXT`: is it;
    // `A|B`: either), and no table, so that a profiler sees one setting.
    if let Ok(only) = std::env::var("QUASAR_BENCH_ONLY") {
        let keep = |label: &str| {
            only.split('|').any(|only| match only.strip_prefix('=') {
                Some(exact) => label == exact,
                None => label.contains(only),
            })
        };
        settings.retain(|(label, o, ..)| o.is_none() || keep(label));
    }
    let mut rates = vec![Vec::new(); settings.len()];
    // The start alone and the other positions alone: a table costs most where few of the
    // playouts' positions are in it.
    let mut parts = vec![[Vec::new(), Vec::new()]; settings.len()];
    let mut proven = vec![0; settings.len()];
    for _ in 0..repeats {
        for (k, (_, oracle, every, when)) in settings.iter().enumerate() {
            let (mut sims, cpu) = (0u64, cpu_seconds());
            let mut part = [(0u64, 0f64); 2];
            proven[k] = 0;
            for (i, pos) in positions.iter().enumerate() {
                let at = cpu_seconds();
                let config = Config {
                    seed: i as u64 + 1,
                    oracle_in_playouts: *every,
                    child_probes: *when,
                    ..Config::<BreakthroughPolicy>::default()
                };
                let mut s = match oracle {
                    Some(o) => Searcher::new(config, Arc::clone(o)),
                    None => Searcher::without_oracle(config),
                };
                let r = s.search(pos, Limit::Time(per_position));
                sims += r.simulations;
                proven[k] += r.proven.is_some() as u32;
                let p = &mut part[(i > 0) as usize];
                p.0 += r.simulations;
                p.1 += cpu_seconds() - at;
            }
            rates[k].push(sims as f64 / (cpu_seconds() - cpu));
            for (j, (n, t)) in part.into_iter().enumerate() {
                parts[k][j].push(n as f64 / t);
            }
        }
    }
    let part_base = [
        median(&mut parts[0][0].clone()),
        median(&mut parts[0][1].clone()),
    ];
    let base = median(&mut rates[0].clone());
    for (k, (label, ..)) in settings.iter().enumerate() {
        let r = median(&mut rates[k]);
        let (lo, hi) = (rates[k][0], rates[k][rates[k].len() - 1]);
        println!(
            "{label:<30} {r:>10.0} simulations/s [{lo:.0}-{hi:.0}]  {:>5.1}% of no table [{:.1}-{:.1}]  (start {:.1}%, others {:.1}%; {} of {} roots proven)",
            100.0 * r / base,
            100.0 * lo / base,
            100.0 * hi / base,
            100.0 * median(&mut parts[k][0]) / part_base[0],
            100.0 * median(&mut parts[k][1]) / part_base[1],
            proven[k],
            positions.len()
        );
    }
    if std::env::var_os("QUASAR_BENCH_ONLY").is_some() {
        return;
    }
    // Playouts alone: the probe's amortised cost per ply.
    let rounds = (secs * 20_000.0 / positions.len() as f64).max(100.0) as u32;
    for m in &tables {
        let opened: Vec<usize> = m
            .counted
            .iter()
            .filter_map(|t| t.table().tree.as_sliced().map(|s| s.opened_slices()))
            .collect();
        if !opened.is_empty() {
            println!(
                "{}: slice files opened by the searches: {opened:?} (with the index, without)",
                m.name
            );
        }
    }
    let mut oracles: Vec<(String, Option<&dyn Oracle<Position>>)> = vec![("no table".into(), None)];
    for (k, m) in tables.iter().enumerate() {
        oracles.push((format!("[{}] every ply", k + 1), Some(&*m.tb)));
        oracles.push((format!("[{}] no answer cache", k + 1), Some(&*m.uncached)));
        if let Some(cached) = &m.cached {
            oracles.push((format!("[{}] answer cache", k + 1), Some(&**cached)));
        }
        if let Some(whole) = &m.whole {
            oracles.push((format!("[{}] whole slices", k + 1), Some(&**whole)));
        } else if m.name.ends_with("(sliced)") {
            oracles.push((format!("[{}] from the files", k + 1), Some(&*m.from_files)));
        }
    }
    oracles.push(("[1] general path".into(), Some(&*slow)));
    let mut costs = vec![Vec::new(); oracles.len()];
    for _ in 0..repeats {
        for (k, (_, o)) in oracles.iter().enumerate() {
            costs[k].push(ns_per_ply(&positions, *o, rounds));
        }
    }
    let none = median(&mut costs[0].clone());
    print!("playouts alone, ns/ply: {none:.1} without a table");
    for (k, (label, _)) in oracles.iter().enumerate().skip(1) {
        let c = median(&mut costs[k]);
        let (lo, hi) = (costs[k][0], costs[k][costs[k].len() - 1]);
        print!(
            "; {label} {c:.1} (+{:.1} ns, range {lo:.1}-{hi:.1})",
            c - none
        );
    }
    println!();
}
