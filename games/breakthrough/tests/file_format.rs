//! The table file round-trips, and a damaged or truncated file is refused with a clear
//! error before any entry is read.

use breakthrough::tablebase::store::Lookup;
use breakthrough::tablebase::{generate, Limits, Region, Silent, TableFile, TableFileError};
use breakthrough::Board;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write_table(path: &Path) -> Vec<(u64, u32)> {
    let region = Region::new(Board::new(5, 5).unwrap(), 3).unwrap();
    let g = generate(&region, Limits::NONE, &Silent).unwrap();
    TableFile::write(path, &region, Limits::NONE, &g.codec, &g.entries).unwrap();
    g.entries
}

#[test]
fn round_trip_finds_every_entry_and_rejects_other_keys() {
    let path = temp("round.qtb");
    let entries = write_table(&path);
    let t = TableFile::open(&path).unwrap();
    assert_eq!(t.tree.len(), entries.len());
    for w in entries.windows(2) {
        assert_eq!(t.tree.get(w[0].0), Some(w[0].1));
        assert_eq!(t.tree.position(w[0].0), t.tree.position_by_levels(w[0].0));
        for k in w[0].0 + 1..w[1].0.min(w[0].0 + 4) {
            assert_eq!(t.tree.get(k), None);
            assert_eq!(t.tree.position_by_levels(k), None);
        }
    }
    assert_eq!(t.tree.get(0), None);
    assert_eq!(t.tree.get(u64::MAX - 1), None);
    let bytes = std::fs::metadata(&path).unwrap().len() as f64 / entries.len() as f64;
    assert!(bytes <= 10.5, "{bytes} bytes per entry");
    assert!(!PathBuf::from(format!("{}.tmp", path.display())).exists());
}

fn refused(path: &Path) -> String {
    match TableFile::open(path) {
        Ok(_) => panic!("a damaged file was accepted"),
        Err(e @ TableFileError::Invalid { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

#[test]
fn flipped_byte_anywhere_is_refused() {
    let path = temp("flip.qtb");
    write_table(&path);
    let good = std::fs::read(&path).unwrap();
    for at in [20usize, 33, 200, good.len() / 2, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        let msg = refused(&path);
        assert!(
            msg.contains("checksum") || msg.contains("header") || msg.contains("bytes"),
            "{msg}"
        );
    }
}

#[test]
fn truncated_and_foreign_files_are_refused() {
    let path = temp("trunc.qtb");
    write_table(&path);
    let good = std::fs::read(&path).unwrap();
    for len in [0usize, 10, 127, 128, good.len() - 8, good.len() - 1] {
        std::fs::write(&path, &good[..len]).unwrap();
        let msg = refused(&path);
        assert!(msg.contains("truncated"), "{len}: {msg}");
    }
    std::fs::write(&path, [b'x'; 300]).unwrap();
    assert!(refused(&path).contains("magic"));
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 8]);
    std::fs::write(&path, &longer).unwrap();
    refused(&path);
}

#[test]
fn static_btree_agrees_with_a_sorted_set_on_random_and_clustered_keys() {
    use breakthrough::tablebase::store::StaticBTree;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    for &n in &[0usize, 1, 31, 32, 33, 1000, 100_000] {
        for clustered in [false, true] {
            let mut set = std::collections::BTreeMap::new();
            while set.len() < n {
                let k = if clustered && rng.random_bool(0.9) {
                    rng.random_range(1_000_000..1_000_000 + 4 * n as u64)
                } else {
                    rng.random_range(0..1u64 << 50)
                };
                set.insert(k, rng.random_range(0..65_536u32));
            }
            let entries: Vec<(u64, u32)> = set.iter().map(|(&k, &v)| (k, v)).collect();
            let tree = StaticBTree::from_entries(&entries, 2);
            for &(k, v) in &entries {
                assert_eq!(tree.get(k), Some(v));
            }
            for _ in 0..20_000 {
                let k = if clustered {
                    rng.random_range(999_000..1_001_000 + 4 * n as u64)
                } else {
                    rng.random_range(0..1u64 << 51)
                };
                assert_eq!(tree.get(k), set.get(&k).copied(), "n={n} key {k}");
                assert_eq!(tree.position(k), tree.position_by_levels(k));
            }
        }
    }
}
