//! Lookup backends compared at 1e7 and 1e8 random entries: bytes per entry, build time,
//! hit and miss latency (dependent lookups: each key depends on the previous answer, as
//! in a playout), and independent-lookup throughput.
//!
//! `cargo bench -p breakthrough --features backends --bench backends [-- SIZES... [--skip-slab-above N] [--only static-btree]]`

use breakthrough::tablebase::store::backends::{EytzingerBackend, HashBackend, SlabBTreeBackend};
use breakthrough::tablebase::store::Lookup;
use quasar_core::SplitMix64;
use quasar_file::btree::StaticBTree;
use rand::Rng;
use std::hint::black_box;
use std::time::Instant;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// 8x8 with 4 rows has keys below 3^32.
const KEY_RANGE: u64 = 1_853_020_188_851_841;

fn measure(b: &dyn Lookup, hits: &[u64], misses: &[u64], build_s: f64, bytes: usize, n: usize) {
    let probes = hits.len();
    // Dependent chain: the next probe's index depends on the last answer.
    let t = Instant::now();
    let mut acc = 0u64;
    let mut i = 0usize;
    for _ in 0..probes {
        let v = b.get(hits[i]).ok().flatten().unwrap_or(0) as u64;
        acc = acc.wrapping_add(v);
        i = (i + 1 + (v as usize & 1)) % probes;
    }
    let hit_dep = t.elapsed().as_nanos() as f64 / probes as f64;
    let t = Instant::now();
    let mut i = 0usize;
    for _ in 0..probes {
        let v = b.get(misses[i]).ok().flatten().map_or(1, |x| x as u64);
        acc = acc.wrapping_add(v);
        i = (i + v as usize) % probes;
    }
    let miss_dep = t.elapsed().as_nanos() as f64 / probes as f64;
    let t = Instant::now();
    for &k in hits {
        acc = acc.wrapping_add(b.get(k).ok().flatten().unwrap_or(0) as u64);
    }
    let hit_ind = t.elapsed().as_nanos() as f64 / probes as f64;
    black_box(acc);
    println!(
        "{:>12} n={:>10} {:>6.2} B/entry  build {:>7.2} s  hit {:>6.1} ns  miss {:>6.1} ns  (independent hits {:>6.1} ns)",
        b.name(),
        n,
        bytes as f64 / n as f64,
        build_s,
        hit_dep,
        miss_dep,
        hit_ind
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut sizes = Vec::new();
    let mut slab_max = usize::MAX;
    let mut only: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--only" {
            only = it.next().cloned();
        } else if a == "--skip-slab-above" {
            slab_max = it.next().and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0) as usize;
        } else if let Ok(x) = a.parse::<f64>() {
            sizes.push(x as usize);
        }
    }
    if sizes.is_empty() {
        sizes = vec![10_000_000, 100_000_000];
    }
    for &n in &sizes {
        let mut rng = SplitMix64::new(n as u64);
        let mut entries: Vec<(u64, u32)> = (0..n)
            .map(|_| (rng.next_u64() % KEY_RANGE, (rng.next_u64() % 60_000) as u32))
            .collect();
        entries.sort_unstable_by_key(|e| e.0);
        entries.dedup_by_key(|e| e.0);
        let n = entries.len();
        let probes = 2_000_000.min(n);
        let hits: Vec<u64> = (0..probes)
            .map(|_| entries[rng.next_u64() as usize % n].0)
            .collect();
        let misses: Vec<u64> = (0..probes)
            .map(|_| loop {
                let k = rng.next_u64() % KEY_RANGE;
                if entries.binary_search_by_key(&k, |e| e.0).is_err() {
                    break k;
                }
            })
            .collect();

        let t = Instant::now();
        let tree = StaticBTree::from_entries(&entries, 2);
        let s = t.elapsed().as_secs_f64();
        measure(&tree, &hits, &misses, s, tree.bytes(), n);
        drop(tree);
        if only.as_deref() == Some("static-btree") {
            continue;
        }

        let t = Instant::now();
        let ey = EytzingerBackend::from_entries(&entries);
        let s = t.elapsed().as_secs_f64();
        measure(&ey, &hits, &misses, s, ey.bytes(), n);
        drop(ey);

        let before = rss_kib();
        let t = Instant::now();
        let hm = HashBackend::from_entries(&entries);
        let s = t.elapsed().as_secs_f64();
        let bytes = (rss_kib() - before) as usize * 1024;
        measure(&hm, &hits, &misses, s, bytes.max(hm.bytes()), n);
        drop(hm);

        if n <= slab_max {
            let before = rss_kib();
            let t = Instant::now();
            let sl = SlabBTreeBackend::from_entries(&entries);
            let s = t.elapsed().as_secs_f64();
            let bytes = (rss_kib().saturating_sub(before)) as usize * 1024;
            measure(&sl, &hits, &misses, s, bytes, n);
        } else {
            println!("  btree_slab n={n}: skipped (--skip-slab-above)");
        }
    }
}
