//! `cargo bench -p checkers -- [build N] [probe [cache=MiB] DIR [[cache=MiB] DIR...]]
//! [children DIR] [mcts DIR PIECES [cache=MiB]] [runs DIR] [perft D]`: database build time by
//! piece count, probe time (random positions; the children of random positions one by one
//! against prefetched first; `cache=MiB` before a directory opens it with that table cache,
//! 0 whole), MCTS simulations a second with and without the prefetch (with `cache=`: whole
//! against through that cache), the databases' size as run-length blocks, and perft speed
//! (a plain `main`, figures to standard output).

use checkers::db::{build, Built, Database};
use checkers::{Checkers, Move, Position, Slice};
use mcts::{Config, Searcher, UniformPolicy};
use quasar_core::Limit;
use quasar_core::{perft, GameResult, Oracle, ProvenOutcome, Selection, Side, SplitMix64};
use quasar_file::cache::{format_cache_size, Residence};
use rand::Rng;
use std::sync::Arc;
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
    bench_probe(&[dir.to_string_lossy().into_owned()]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `n` random positions (either side to move) of the slices with `pieces` pieces, which
/// need not be in `db`.
fn random_positions(pieces: u32, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let slices: Vec<Slice> = Slice::all(pieces)
        .into_iter()
        .filter(|s| s.pieces() == pieces)
        .collect();
    let indexes: Vec<checkers::SliceIndex> = slices
        .iter()
        .map(|&s| checkers::SliceIndex::new(s))
        .collect();
    (0..n)
        .map(|_| {
            let ix = &indexes[(rng.next_u64() % indexes.len() as u64) as usize];
            let board = ix.board(rng.next_u64() % ix.size());
            let side = if rng.next_u64() & 1 == 0 {
                Side::First
            } else {
                Side::Second
            };
            Position { board, side }
        })
        .collect()
}

/// Random probes of the largest slices' positions in each directory (plain or compressed),
/// the directories taken in turn round after round so that a machine's load falls on each
/// alike; the fastest round of each is reported.
fn bench_probe(args: &[String]) {
    // Each directory with the table cache the argument before it names (the default else).
    let mut dirs = Vec::new();
    let mut dbs = Vec::new();
    let mut cache = None;
    for a in args {
        if let Some(mib) = a.strip_prefix("cache=") {
            cache = Some(quasar_file::cache::parse_cache_size(mib).unwrap());
            continue;
        }
        let bytes = cache
            .take()
            .unwrap_or(quasar_file::cache::DEFAULT_CACHE_BYTES);
        let db = Database::open_cached(std::path::Path::new(a), bytes).unwrap();
        dirs.push(match db.residence() {
            Residence::Cached(b) => format!("{a} (cache {} MiB)", format_cache_size(b)),
            Residence::Whole => a.clone(),
        });
        dbs.push(db);
    }
    // Random positions of the largest slices, drawn first so only the probe is timed.
    let positions = random_positions(dbs[0].max_pieces(), 1 << 16, 1);
    let mut best = vec![f64::INFINITY; dbs.len()];
    let mut wins = vec![0u64; dbs.len()];
    for _ in 0..10 {
        for (k, db) in dbs.iter().enumerate() {
            let start = Instant::now();
            let mut w = 0u64;
            for _ in 0..5 {
                for p in &positions {
                    w += (db.probe_position(p) == Some(checkers::Wdl::Win)) as u64;
                }
            }
            let ns = start.elapsed().as_secs_f64() * 1e9 / (5 * positions.len()) as f64;
            best[k] = best[k].min(ns);
            wins[k] = w;
        }
    }
    for (k, d) in dirs.iter().enumerate() {
        assert_eq!(wins[k], wins[0], "{d} answers as {}", dirs[0]);
        println!(
            "probe ({}-piece positions, random) {d}: {:.1} ns ({:.2}x the first)",
            dbs[0].max_pieces(),
            best[k],
            best[k] / best[0]
        );
        if let Some(st) = dbs[k].cache_stats() {
            // Every round probes the same positions: the misses are what the cache lacks.
            println!(
                "  cache: {} lookups, {} misses ({:.1}%), {} blocks held in {} bytes",
                st.hits + st.misses,
                st.misses,
                100.0 * st.misses as f64 / (st.hits + st.misses) as f64,
                st.blocks,
                st.bytes
            );
        }
    }
    // The same positions, the slice lookup and index only (no read of the values).
    let db = &dbs[0];
    let rounds = 50;
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

/// The databases as run-length blocks ([`retro::RunArray`]) of a few block sizes, with
/// and without "don't care" positions (a capture to make, or no move: a prober settles them
/// by the capture's children or the rules), the runs as bytes and entropy-coded: positions
/// a byte over all slices (counted as the files store them: 4 bytes a block start, 4 bits
/// a code length), and a random probe of a position that is not "don't care" against the
/// plain table's.
fn bench_runs(dir: &std::path::Path) {
    use retro::RunArray;
    let db = Database::open(dir).unwrap();
    let blocks = [1024u64, 2048, 4096, 16384];
    let file_bytes = |r: &RunArray| {
        r.bytes().len() as u64
            + 4 * r.starts().len() as u64
            + r.code_lengths().map_or(0, |l| l.len() as u64 / 2)
    };
    // By block size: bytes of runs as bytes and coded, with don't-cares; as bytes without.
    let mut bytes = vec![(0u64, 0u64, 0u64); blocks.len()];
    let (mut positions, mut dont_care) = (0u64, 0u64);
    // The largest slices as bytes (4096) and coded (2048, 4096) for the probes.
    let mut largest: Vec<(Slice, Side, [RunArray; 3])> = Vec::new();
    let t = Instant::now();
    for s in db.slices() {
        let table = db.table(s).unwrap();
        let ix = table.index();
        for side in [Side::First, Side::Second] {
            let mut dec = ix.decoder();
            let care: Vec<bool> = (0..ix.size())
                .map(|i| {
                    let b = dec.board(i);
                    !b.has_capture(side) && b.has_move(side)
                })
                .collect();
            positions += ix.size();
            dont_care += care.iter().filter(|&&c| !c).count() as u64;
            let mut kept = Vec::new();
            for (k, &block) in blocks.iter().enumerate() {
                let with = RunArray::encode(ix.size(), block, |i| {
                    care[i as usize].then(|| table.get(i, side).unwrap() as u32)
                })
                .unwrap();
                let coded = with.entropy_coded();
                let without = RunArray::encode(ix.size(), block, |i| {
                    Some(table.get(i, side).unwrap() as u32)
                })
                .unwrap();
                bytes[k].0 += file_bytes(&with);
                bytes[k].1 += file_bytes(&coded);
                bytes[k].2 += file_bytes(&without);
                if s.pieces() == db.max_pieces() {
                    match block {
                        2048 => kept.push(coded),
                        4096 => kept.extend([with, coded]),
                        _ => {}
                    }
                }
            }
            if let Ok(k) = <[RunArray; 3]>::try_from(kept) {
                largest.push((s, side, k));
            }
        }
    }
    println!(
        "{positions} positions (both sides to move), {dont_care} don't care ({:.1}%); plain: {} bytes, 4 a byte; encoded in {:.1} s",
        100.0 * dont_care as f64 / positions as f64,
        positions.div_ceil(4),
        t.elapsed().as_secs_f64()
    );
    let per = |b: u64| positions as f64 / b as f64;
    for (k, &block) in blocks.iter().enumerate() {
        let (with, coded, without) = bytes[k];
        println!(
            "blocks of {block}: runs as bytes {with} bytes, {:.1} positions a byte; coded {coded} bytes, {:.1} a byte; as bytes without don't-cares {without} bytes, {:.1} a byte",
            per(with),
            per(coded),
            per(without)
        );
    }
    // Random cared positions of the largest slices, probed each way.
    let mut rng = SplitMix64::new(3);
    let mut probes: Vec<(usize, u64)> = Vec::new();
    while probes.len() < 1 << 16 {
        let k = (rng.next_u64() % largest.len() as u64) as usize;
        let (s, side, _) = &largest[k];
        let ix = db.table(*s).unwrap().index();
        let i = rng.next_u64() % ix.size();
        let b = ix.board(i);
        if !b.has_capture(*side) && b.has_move(*side) {
            probes.push((k, i));
        }
    }
    let rounds = 20;
    let time = |f: &dyn Fn(usize, u64) -> u32| {
        let t = Instant::now();
        let mut sum = 0u64;
        for _ in 0..rounds {
            for &(k, i) in &probes {
                sum += f(k, i) as u64;
            }
        }
        (
            t.elapsed().as_secs_f64() * 1e9 / (rounds * probes.len()) as f64,
            sum,
        )
    };
    let (plain, want) = time(&|k, i| {
        let (s, side, _) = &largest[k];
        db.table(*s).unwrap().get(i, *side).unwrap() as u32
    });
    print!(
        "random probe of a {}-piece value: plain {plain:.1} ns",
        db.max_pieces()
    );
    for (j, what) in [
        "coded, blocks of 2048",
        "runs as bytes, 4096",
        "coded, 4096",
    ]
    .iter()
    .enumerate()
    {
        let (ns, got) = time(&|k, i| largest[k].2[j].get(i));
        assert_eq!(
            got, want,
            "{what}: the run-length blocks answer as the plain table"
        );
        print!("; {what} {ns:.1} ns ({:.2}x)", ns / plain);
    }
    println!();
}

/// The children of random positions of the largest slices, probed as MCTS probes them at
/// expansion: one by one, or each node's children prefetched first. Each round also times
/// making the children alone, which both ways include.
fn bench_children(dir: &std::path::Path) {
    let db = Database::open(dir).unwrap();
    let nodes: Vec<(Position, Vec<Move>)> = random_positions(db.max_pieces(), 1 << 16, 2)
        .into_iter()
        .map(|p| {
            let mut moves = Vec::new();
            p.board.moves(p.side, &mut moves);
            (p, moves)
        })
        .filter(|(_, m)| !m.is_empty())
        .collect();
    let children: usize = nodes.iter().map(|(_, m)| m.len()).sum();
    // How much of the values came on huge pages (a probe's TLB miss is cheaper there).
    if let Ok(s) = std::fs::read_to_string("/proc/self/smaps_rollup") {
        for l in s
            .lines()
            .filter(|l| l.starts_with("Rss") || l.starts_with("AnonHuge"))
        {
            println!("{l}");
        }
    }
    println!(
        "{} random {}-piece positions with moves, {:.1} children each",
        nodes.len(),
        db.max_pieces(),
        children as f64 / nodes.len() as f64
    );
    let cpu = || {
        let (user, system) = libc_time();
        user + system
    };
    for round in 0..5 {
        // Per way: CPU ns and wall ns a child, and a checksum that keeps the work.
        let mut out = [(0f64, 0f64, 0u64); 5];
        let mut located = Vec::new();
        for (way, o) in out.iter_mut().enumerate() {
            let (w0, c0) = (Instant::now(), cpu());
            for (p, moves) in &nodes {
                if way == 4 {
                    // What a hook that probes all the children at once could do: each
                    // index computed once, prefetched, then read.
                    located.clear();
                    for &mv in moves {
                        let c = p.after(mv);
                        if let Some(t) = db.table(Slice::of(&c.board)) {
                            let i = t.index().index(&c.board);
                            t.prefetch(i, c.side);
                            located.push((t, i, c.side));
                        }
                    }
                    for &(t, i, side) in &located {
                        o.2 += (t.get(i, side) == Some(checkers::Wdl::Win)) as u64;
                    }
                    continue;
                }
                if way == 2 {
                    db.prefetch_children(p, moves);
                }
                for &mv in moves {
                    let c = p.after(mv);
                    o.2 += if way == 0 {
                        c.board.black as u64 & 1
                    } else if way == 3 {
                        db.table(Slice::of(&c.board))
                            .map_or(0, |t| t.index().index(&c.board) & 1)
                    } else {
                        (db.probe_position(&c) == Some(checkers::Wdl::Win)) as u64
                    };
                }
            }
            o.0 = (cpu() - c0) * 1e9 / children as f64;
            o.1 = w0.elapsed().as_secs_f64() * 1e9 / children as f64;
        }
        let [made, one, pre, indexed, once] = out;
        println!(
            "round {round}, ns a child, CPU (wall): made {:.1} ({:.1}); made and indexed {:.1} \
             ({:.1}); made and probed one by one {:.1} ({:.1}); prefetched per node first {:.1} \
             ({:.1}); indexed once, prefetched, read {:.1} ({:.1}); so the probe alone {:.1} \
             against {:.1} (indexed once {:.1}) CPU ns [wins {} {} {}]",
            made.0,
            made.1,
            indexed.0,
            indexed.1,
            one.0,
            one.1,
            pre.0,
            pre.1,
            once.0,
            once.1,
            one.0 - made.0,
            pre.0 - made.0,
            once.0 - made.0,
            one.2,
            pre.2,
            once.2
        );
    }
}

/// User and system CPU seconds of this process so far.
fn libc_time() -> (f64, f64) {
    // SAFETY: `rusage` is plain integers, for which all zero bytes are a value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (s(u.ru_utime), s(u.ru_stime))
}

/// The databases with the prefetch hint switched off (every answer the same).
struct NoPrefetch(Arc<Database>);

impl Oracle<Checkers> for NoPrefetch {
    fn probe(&self, g: &Checkers) -> Option<ProvenOutcome<Move>> {
        Oracle::<Checkers>::probe(&*self.0, g)
    }
    fn guess(&self, g: &Checkers) -> Option<GameResult> {
        Oracle::<Checkers>::guess(&*self.0, g)
    }
    fn probe_root(&self, g: &Checkers) -> Option<ProvenOutcome<Move>> {
        Oracle::<Checkers>::probe_root(&*self.0, g)
    }
}

/// MCTS simulations a second from positions of random games when they first have
/// `pieces` pieces, with the databases as oracle, without and with the prefetch,
/// alternating.
fn bench_mcts(dir: &std::path::Path, pieces: u32, cache: Option<u64>) {
    use quasar_core::Game;
    let db = Arc::new(Database::open_cached(dir, 0).unwrap());
    let cached = cache.map(|bytes| Arc::new(Database::open_cached(dir, bytes).unwrap()));
    let mut rng = SplitMix64::new(3);
    let mut roots = Vec::new();
    let mut moves = Vec::new();
    while roots.len() < 40 {
        let mut g = Checkers::default();
        while g.outcome().is_none() && Slice::of(&g.pos.board).pieces() > pieces {
            g.legal_moves(&mut moves);
            g.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if g.outcome().is_none() {
            roots.push(g);
        }
    }
    let sims = 3000;
    for round in 0..3 {
        for prefetch in [false, true] {
            // With a cache: the databases whole (`prefetch false` names them), then through
            // the cache, both prefetching.
            let oracle: Arc<dyn Oracle<Checkers>> = match (&cached, prefetch) {
                (Some(c), true) => c.clone(),
                (Some(_), false) | (None, true) => db.clone(),
                (None, false) => Arc::new(NoPrefetch(db.clone())),
            };
            let mut searcher: Searcher<Checkers, UniformPolicy> =
                Searcher::new(Config::default(), oracle);
            let (w0, c0) = (Instant::now(), libc_time());
            let mut total = 0u64;
            for g in &roots {
                searcher.clear();
                total += searcher.search(g, Limit::Count(sims)).simulations;
            }
            let c1 = libc_time();
            let cpu = c1.0 - c0.0 + c1.1 - c0.1;
            let what = match (&cached, prefetch) {
                (Some(c), true) => match c.residence() {
                    Residence::Cached(b) => {
                        format!("through a cache of {} MiB", format_cache_size(b))
                    }
                    Residence::Whole => "whole (it fits the cache)".into(),
                },
                (Some(_), false) => "whole".into(),
                (None, _) => format!("prefetch {prefetch}"),
            };
            println!(
                "round {round}, {what}: {total} simulations from {} roots, {:.0} \
                 a CPU second ({:.2} s CPU, {:.2} s wall)",
                roots.len(),
                total as f64 / cpu,
                cpu,
                w0.elapsed().as_secs_f64()
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    match args.as_slice() {
        [cmd, n] if cmd == "build" => bench_build(n.parse().unwrap()),
        [cmd, dirs @ ..] if cmd == "probe" && !dirs.is_empty() => bench_probe(dirs),
        [cmd, dir, n, cache] if cmd == "mcts" => {
            let mib = cache.strip_prefix("cache=").expect("cache=MiB");
            let bytes = quasar_file::cache::parse_cache_size(mib).unwrap();
            bench_mcts(std::path::Path::new(dir), n.parse().unwrap(), Some(bytes))
        }
        [cmd, dir] if cmd == "children" => bench_children(std::path::Path::new(dir)),
        [cmd, dir] if cmd == "runs" => bench_runs(std::path::Path::new(dir)),
        [cmd, dir, n] if cmd == "mcts" => {
            bench_mcts(std::path::Path::new(dir), n.parse().unwrap(), None)
        }
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
