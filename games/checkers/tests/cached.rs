//! Compressed databases read a 4 KiB block at a time through the table cache: every
//! position of the slices checked answers as the plain databases do, from one thread and
//! from several, a block damaged on disk is caught when a probe reads it, and files of
//! the format before the blocks' checksums still read, whole.

use checkers::compress::compress;
use checkers::db::{build, slice_path, Database, SliceTable, TableCache, COMPRESSED_VERSION};
use checkers::Slice;
use quasar_core::{Selection, Side};
use quasar_file::cache::Residence;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("checkers-cached-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plain databases of up to `pieces` pieces and the same compressed in blocks of `block`.
fn plain_and_compressed(name: &str, pieces: u32, block: u64) -> (PathBuf, PathBuf) {
    let plain = temp(&format!("{name}-plain"));
    build(&plain, pieces, &Selection::All, &mut |_| {}).unwrap();
    let packed = temp(&format!("{name}-packed"));
    compress(&plain, &packed, block, &mut |_| {}).unwrap();
    (plain, packed)
}

/// Bytes of the slice files in `dir`.
fn slice_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "qrt"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum()
}

/// Every position of the slices of up to 3 pieces and of the three largest of 4, both
/// sides to move, in a fixed shuffle (so that consecutive probes fall in different
/// blocks): (slice, index, side).
fn positions(db: &Database) -> Vec<(Slice, u64, Side)> {
    let size = |s: &Slice| db.table(*s).unwrap().index().size();
    let mut four: Vec<Slice> = db
        .slices()
        .into_iter()
        .filter(|s| s.pieces() == 4)
        .collect();
    four.sort_by_key(|s| std::cmp::Reverse(size(s)));
    let chosen = (db.slices().into_iter())
        .filter(|s| s.pieces() <= 3)
        .chain(four.into_iter().take(3));
    let mut all = Vec::new();
    for s in chosen {
        for i in 0..size(&s) {
            for side in [Side::First, Side::Second] {
                all.push((s, i, side));
            }
        }
    }
    let len = all.len();
    (0..len).map(|k| all[(k * 7_919) % len]).collect()
}

/// Checks that each of `which` read through `cached`'s cache holds the value the same
/// files held in memory (`whole`) hold, settled positions included, and, with `plain`,
/// answers as the plain databases (settling by the rules what the runs leave free).
fn agree(
    which: &[(Slice, u64, Side)],
    whole: &Database,
    cached: &Database,
    plain: Option<&Database>,
) -> u64 {
    for &(s, i, side) in which {
        let (w, c) = (whole.table(s).unwrap(), cached.table(s).unwrap());
        assert!(c.is_cached() && !w.is_cached());
        assert_eq!(c.get(i, side), w.get(i, side), "{s} {i} {side:?}");
        assert!(c.get(i, side).is_some());
        if let Some(plain) = plain {
            let b = w.index().board(i);
            assert_eq!(
                cached.value(&b, side),
                plain.value(&b, side),
                "{s} {i} {side:?}"
            );
        }
    }
    which.len() as u64
}

#[test]
fn every_position_through_a_cache_of_a_few_blocks_equals_the_plain_value() {
    // Blocks of 64 positions: many blocks in each 4 KiB, and some that run on into the
    // next 4 KiB (a 4-piece slice's runs take tens of 4 KiB a side).
    let (plain_dir, packed) = plain_and_compressed("all", 4, 64);
    let plain = Database::open(&plain_dir).unwrap();
    let whole = Database::open_cached(&packed, 0).unwrap();
    assert_eq!(whole.residence(), Residence::Whole);
    // Four 4 KiB blocks' worth, against hundreds of them on disk.
    let budget = 16 << 10;
    let on_disk = slice_bytes(&packed);
    assert!(on_disk > 100 * budget, "{on_disk}");
    let cached = Database::open_cached(&packed, budget).unwrap();
    assert_eq!(cached.residence(), Residence::Cached(budget));
    for s in cached.slices() {
        let t = cached.table(s).unwrap();
        assert!(t.is_cached(), "{s}");
        assert_eq!(t.format_version(), Some(COMPRESSED_VERSION));
        for side in [Side::First, Side::Second] {
            assert_eq!(t.counts(side), plain.table(s).unwrap().counts(side));
        }
    }
    let all = positions(&whole);
    // 2 x (120 + 6,972 + 261,224) positions of up to 3 pieces, and the 4-piece ones.
    assert!(all.len() > 536_632 + 1_000_000, "{}", all.len());
    assert_eq!(agree(&all, &whole, &cached, Some(&plain)), all.len() as u64);
    let st = cached.cache_stats().unwrap();
    assert!(st.misses > 100_000, "{st:?}");
    // At most the budget and one block a shard (of a few 4 KiB and its bookkeeping).
    assert!(st.bytes <= budget + (17 << 10), "{st:?}");
    assert_eq!(cached.damage(), None);
    cached.check_blocks(&quasar_core::progress::Silent).unwrap();
    // Four threads sharing one cache, each over every fourth position of the shuffle.
    let shared = Database::open_cached(&packed, budget).unwrap();
    let checked: u64 = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let mine: Vec<_> = all.iter().skip(t).step_by(4).copied().collect();
                let (whole, shared) = (&whole, &shared);
                sc.spawn(move || agree(&mine, whole, shared, None))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(checked, all.len() as u64);
    let st = shared.cache_stats().unwrap();
    assert!(st.bytes <= budget + (17 << 10), "{st:?}");
    assert_eq!(shared.damage(), None);

    // A flipped byte on disk. The largest slice: its last bytes are White's last runs.
    let victim = Slice::all(4)
        .into_iter()
        .max_by_key(|&s| std::fs::metadata(slice_path(&packed, s)).unwrap().len())
        .unwrap();
    let path = slice_path(&packed, victim);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    // Opening reads the header and index only: the damage is not seen yet.
    let db = Database::open_cached(&packed, budget).unwrap();
    assert!(db.table(victim).unwrap().is_cached());
    assert_eq!(db.damage(), None);
    let t = db.table(victim).unwrap();
    let (mut unknown, mut known) = (0u64, 0u64);
    for i in 0..t.index().size() {
        match t.get(i, Side::Second) {
            None => unknown += 1,
            Some(v) => {
                assert_eq!(Some(v), whole.table(victim).unwrap().get(i, Side::Second));
                known += 1;
            }
        }
        assert!(t.get(i, Side::First).is_some(), "Black's runs are intact");
    }
    // The blocks starting in the damaged 4 KiB answer nothing; the rest answer.
    assert!(
        unknown >= 64 && known > 10 * unknown,
        "{unknown} unknown, {known} known"
    );
    let damage = db.damage().expect("the damage is kept");
    assert!(
        damage.contains("checksum mismatch") && damage.contains(&victim.to_string()),
        "{damage}"
    );
    // A full check names the slice; read whole, the file is refused.
    let e = db.check_blocks(&quasar_core::progress::Silent).unwrap_err();
    assert!(e.to_string().contains(&victim.to_string()), "{e}");
    let e = SliceTable::load(&path).unwrap_err();
    assert!(e.to_string().contains("checksum mismatch"), "{e}");
    // A file cut short is refused at opening, naming itself.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let cache = Arc::new(TableCache::new(budget));
    let e = SliceTable::open(&path, &cache).unwrap_err();
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    std::fs::remove_dir_all(&plain_dir).unwrap();
    std::fs::remove_dir_all(&packed).unwrap();
}

#[test]
fn files_of_the_format_before_the_block_checksums_still_read_whole() {
    // Compressed by the version before (one checksum for the whole file), in blocks of
    // 4,096, up to 3 pieces.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/coded-v1");
    let plain_dir = temp("old-plain");
    build(&plain_dir, 3, &Selection::All, &mut |_| {}).unwrap();
    let plain = Database::open(&plain_dir).unwrap();
    // Even under a cache far smaller than the files, they are held whole.
    let old = Database::open_cached(&fixture, 1024).unwrap();
    let cache = Arc::new(TableCache::new(1024));
    let mut checked = 0u64;
    for s in Slice::all(3) {
        let t = old.table(s).unwrap();
        assert!(!t.is_cached() && t.is_coded_with(4096), "{s}");
        assert_eq!(t.format_version(), Some(1));
        let alone = SliceTable::open(&slice_path(&fixture, s), &cache).unwrap();
        assert!(!alone.is_cached());
        let p = plain.table(s).unwrap();
        for i in 0..p.index().size() {
            let b = p.index().board(i);
            for side in [Side::First, Side::Second] {
                assert_eq!(old.value(&b, side), plain.value(&b, side), "{s} {i}");
                assert_eq!(alone.get(i, side), t.get(i, side));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * (120 + 6_972 + 261_224));
    // Compressing them again writes the current version, with the same values.
    let again = temp("old-again");
    compress(&fixture, &again, 4096, &mut |_| {}).unwrap();
    let new = Database::open_cached(&again, 1024).unwrap();
    for s in Slice::all(3) {
        let t = new.table(s).unwrap();
        assert_eq!(t.format_version(), Some(COMPRESSED_VERSION));
        assert!(t.is_cached());
        let o = old.table(s).unwrap();
        for i in 0..o.index().size() {
            for side in [Side::First, Side::Second] {
                assert_eq!(t.get(i, side), o.get(i, side));
            }
        }
    }
    std::fs::remove_dir_all(&plain_dir).unwrap();
    std::fs::remove_dir_all(&again).unwrap();
}
