//! A compressed table read through a block cache far smaller than itself answers every
//! configuration exactly as its plain form, from several threads at once; a slice damaged
//! on disk is found when a probe first reads it, an error naming its file and never a
//! value, while the rest of the table still answers.

use breakthrough::tablebase::store::compressed::{self, dont_care, CompressedTable};
use breakthrough::tablebase::store::Corrupt;
use breakthrough::tablebase::{build_slices, Region, Silent, SlicedTable, Tablebase};
use breakthrough::Board;
use quasar_file::cache::Residence;
use std::path::{Path, PathBuf};

/// A scratch directory for `name`, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-blockcache-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The plain 4x6 four-row table built into `from` and its compressed form (blocks of 64
/// positions) in `to`.
fn tables(from: &Path, to: &Path) -> SlicedTable {
    let region = Region::new(Board::new(4, 6).unwrap(), 4).unwrap();
    let table = SlicedTable::create(from, &region).unwrap();
    let plan = table.slicing().plan();
    let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
    build_slices(&table, &names, &Silent, |_| {}).unwrap();
    compressed::compress(from, to, 64, &mut |_| {}).unwrap();
    SlicedTable::open(from).unwrap()
}

/// The compressed table in `dir` through a cache of a twentieth of its bytes.
fn small_cache(dir: &Path) -> (CompressedTable, u64) {
    let mut t = CompressedTable::open(dir).unwrap();
    let budget = t.file_bytes() / 20;
    t.set_residence(Residence::Cached(budget));
    assert_eq!(t.residence(), Residence::Cached(budget));
    (t, budget)
}

#[test]
fn a_cache_far_smaller_than_the_table_answers_every_configuration_from_many_threads() {
    let (from, to) = (scratch("all-plain"), scratch("all"));
    let plain = tables(&from, &to);
    let s = plain.slicing().clone();
    // Every configuration, slice by slice, as the plain table answers it.
    let want: Vec<Option<u8>> = (0..s.slices())
        .flat_map(|id| (0..s.per_slice()).map(move |idx| (id, idx)))
        .map(|(id, idx)| plain.depth(s.config(id, idx)).unwrap())
        .collect();
    let (t, budget) = small_cache(&to);
    let stored = (0..s.slices()).filter(|&id| s.is_canonical(id)).count() as u64;
    // One thread, position-major: consecutive probes fall in different slices, so every
    // slice is read again and again.
    for idx in 0..s.per_slice() {
        for id in 0..s.slices() {
            let c = s.config(id, idx);
            let k = (id as u64 * s.per_slice() + idx) as usize;
            assert_eq!(t.depth(c), Ok(want[k]), "slice {id} index {idx}");
        }
    }
    let one = t.cache_stats().unwrap();
    assert!(one.misses > 10 * stored, "{one:?}, {stored} slices stored");
    // At most the budget and one slice (the budget is below a shard's least, so one shard).
    let largest = t.file_bytes();
    assert!(one.bytes <= budget + largest / stored * 4, "{one:?}");
    assert!(one.blocks < stored / 5, "{one:?}");
    // Four threads, each through every configuration in its own order, sharing the cache.
    std::thread::scope(|scope| {
        for start in 0..4u64 {
            let (t, s, want) = (&t, &s, &want);
            scope.spawn(move || {
                let n = want.len() as u64;
                // A stride prime to n visits every configuration once.
                let stride = (0..)
                    .map(|k| 7919 + 2 * k)
                    .find(|&p| gcd(p, n) == 1)
                    .unwrap();
                let mut k = start * n / 4;
                for _ in 0..n {
                    let (id, idx) = ((k / s.per_slice()) as u32, k % s.per_slice());
                    assert_eq!(t.depth(s.config(id, idx)), Ok(want[k as usize]));
                    k = (k + stride) % n;
                }
            });
        }
    });
    let all = t.cache_stats().unwrap();
    assert!(all.misses > one.misses + stored, "{all:?}");
    assert_eq!(t.first_damage(), None);
    assert!(t.verify_all(&Silent).is_ok());
    // Through the prober, a cache the table fits in holds it whole; a small one caches it.
    let tb = Tablebase::open(&to).unwrap().with_table_cache(1 << 20);
    assert_eq!(
        tb.table().tree.as_compressed().unwrap().residence(),
        Residence::Whole
    );
    let tb = Tablebase::open(&to).unwrap().with_table_cache(budget);
    let tc = tb.table().tree.as_compressed().unwrap();
    assert_eq!(tc.residence(), Residence::Cached(budget));
    let tp = Tablebase::open(&from).unwrap();
    for id in (0..s.slices()).step_by(7) {
        for idx in (0..s.per_slice()).step_by(11) {
            let c = s.config(id, idx);
            assert_eq!(tb.table_depth(c), tp.table_depth(c));
            assert_eq!(tb.lookup(c), tp.lookup(c));
        }
    }
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn a_slice_damaged_on_disk_is_found_at_probe_time_and_the_rest_answers() {
    let (from, to) = (scratch("damage-plain"), scratch("damage"));
    let plain = tables(&from, &to);
    let s = plain.slicing().clone();
    // The largest file: one byte flipped near its end, in its last slice's runs.
    let (name, bytes) = std::fs::read_dir(&to)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "qtc"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .max_by_key(|f| f.1.len())
        .unwrap();
    let top = u32::from_str_radix(name.trim_start_matches('b').trim_end_matches(".qtc"), 16);
    let top = top.unwrap();
    let mut bad = bytes.clone();
    let at = bad.len() - 3;
    bad[at] ^= 0x10;
    std::fs::write(to.join(&name), &bad).unwrap();
    let (t, _) = small_cache(&to);
    assert_eq!(t.first_damage(), None, "opening reads no slice");
    let (mut errors, mut answers, mut settled) = (0, 0, 0);
    for id in 0..s.slices() {
        for idx in 0..s.per_slice() {
            let c = s.config(id, idx);
            match t.depth(c) {
                Ok(d) => {
                    assert_eq!(Ok(d), plain.depth(c), "slice {id} index {idx}");
                    answers += 1;
                }
                Err(e @ Corrupt::Compressed { .. }) => {
                    assert!(e.to_string().contains(&name), "{e}");
                    assert!(!dont_care(s.rows_of(c), true, 4));
                    errors += 1;
                }
                Err(e) => panic!("{e}"),
            }
            settled += dont_care(s.rows_of(c), true, 4) as u32;
        }
    }
    // One slice's runs are lost (and its mirror's), its settled configurations and every
    // other slice still answer.
    assert!(
        errors > 0 && answers > errors && settled > 0,
        "{errors} {answers}"
    );
    assert!(errors as u64 <= 2 * s.per_slice(), "{errors}");
    let first = t.first_damage().unwrap();
    assert!(first.to_string().contains(&name), "{first}");
    let e = t.verify_all(&Silent).unwrap_err();
    assert!(e.to_string().contains(&name), "{e}");
    // Through the prober: the damaged slice's configurations are errors, never values, and
    // the damage is reported naming the file and what to do.
    let tb = Tablebase::open(&to)
        .unwrap()
        .with_table_cache(t.file_bytes() / 20);
    let tp = Tablebase::open(&from).unwrap();
    let (mut unknown, mut known) = (0, 0);
    for id in (0..s.slices()).filter(|&id| id >> 4 == top) {
        for idx in 0..s.per_slice() {
            let c = s.config(id, idx);
            match tb.table_depth(c) {
                Ok(d) => {
                    assert_eq!(Ok(d), tp.table_depth(c));
                    known += 1;
                }
                Err(_) => unknown += 1,
            }
        }
    }
    assert!(unknown > 0 && known > 0, "{unknown} {known}");
    let d = tb.damage().unwrap().to_string();
    assert!(d.contains(&name) && d.contains("compress"), "{d}");
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}
