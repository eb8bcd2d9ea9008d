//! The table file round-trips; a damaged header, size or block-CRC table is refused at
//! open; damaged body bytes are an error wherever a read meets them, never an answer; a
//! write never replaces a non-regular file and leaves no temporary file behind.

use breakthrough::tablebase::store::{Corrupt, Lookup};
use breakthrough::tablebase::{
    generate, Limits, Region, Silent, TableFile, TableFileError, Tablebase, Unknown,
};
use breakthrough::{Board, Position};
use quasar_core::Oracle;
use quasar_file::blocks::BlockError;
use quasar_file::FileError;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn tmp_of(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.tmp", path.display()))
}

fn region() -> Region {
    Region::new(Board::new(5, 5).unwrap(), 3).unwrap()
}

fn write_table(path: &Path) -> Vec<(u64, u32)> {
    let g = generate(&region(), Limits::NONE, &Silent).unwrap();
    TableFile::write(path, &region(), Limits::NONE, &g.codec, &g.entries).unwrap();
    g.entries
}

#[test]
fn round_trip_finds_every_entry_and_rejects_other_keys() {
    let path = temp("round.qtb");
    let entries = write_table(&path);
    let t = TableFile::open(&path).unwrap();
    assert_eq!(t.tree.len(), entries.len());
    for w in entries.windows(2) {
        assert_eq!(t.tree.get(w[0].0), Ok(Some(w[0].1)));
        assert_eq!(
            t.tree.as_static().unwrap().position(w[0].0),
            t.tree.as_static().unwrap().position_by_levels(w[0].0)
        );
        for k in w[0].0 + 1..w[1].0.min(w[0].0 + 4) {
            assert_eq!(t.tree.get(k), Ok(None));
            assert_eq!(t.tree.as_static().unwrap().position_by_levels(k), Ok(None));
        }
    }
    assert_eq!(t.tree.get(0), Ok(None));
    assert_eq!(t.tree.get(u64::MAX - 1), Ok(None));
    assert_eq!(t.verify_all(&Silent).map_err(|e| e.to_string()), Ok(()));
    let bytes = std::fs::metadata(&path).unwrap().len() as f64 / entries.len() as f64;
    assert!(bytes <= 10.5, "{bytes} bytes per entry");
    assert!(!tmp_of(&path).exists());
}

fn refused(path: &Path) -> String {
    match TableFile::open(path) {
        Ok(_) => panic!("a damaged file was accepted"),
        Err(
            e @ (TableFileError::Invalid { .. } | TableFileError::File(FileError::Frame { .. })),
        ) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

#[test]
fn every_header_byte_is_checked_at_open() {
    let path = temp("header.qtb");
    write_table(&path);
    let good = std::fs::read(&path).unwrap();
    // All 128 bytes, the reserved 64..124 included: each flip is refused before any use.
    for at in 0..128 {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        let msg = refused(&path);
        assert!(
            msg.contains("header checksum") || msg.contains("magic"),
            "byte {at}: {msg}"
        );
        // A flipped version byte is damage, not a file of another version.
        if (8..12).contains(&at) {
            assert!(msg.contains("header checksum mismatch"), "byte {at}: {msg}");
        }
    }
}

#[test]
fn an_old_format_is_refused_with_what_to_do() {
    let path = temp("v1.qtb");
    write_table(&path);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let msg = refused(&path);
    assert!(
        msg.contains("format version 1") && msg.contains("rebuild"),
        "{msg}"
    );
}

/// Every stored entry and a band of absent keys, through a fresh open of `path`: each
/// answer is the true one or a checksum error, never a wrong answer; returns the errors.
fn answers_or_errors(path: &Path, entries: &[(u64, u32)]) -> usize {
    let t = TableFile::open(path).unwrap();
    let mut errors = 0;
    for &(k, v) in entries {
        for key in [k, k + 1] {
            let truth = if key == k {
                Some(v)
            } else {
                entries
                    .binary_search_by_key(&key, |e| e.0)
                    .ok()
                    .map(|i| entries[i].1)
            };
            match t.tree.get(key) {
                Ok(got) => assert_eq!(got, truth, "key {key} answered wrongly"),
                Err(Corrupt::Block(BlockError::Checksum { .. })) => errors += 1,
                Err(e) => panic!("key {key}: {e}"),
            }
        }
    }
    errors
}

#[test]
fn damaged_body_bytes_are_errors_where_read_and_never_answers() {
    let path = temp("body.qtb");
    let entries = write_table(&path);
    let good = std::fs::read(&path).unwrap();
    let len = good.len();
    // A key (start of the body), a value, the radix root near the body's end, and the
    // block CRC table at the file's end.
    let key_at = 128 + 8 * 40;
    let value_at = 128 + 8 * entries.len().div_ceil(32) * 32 + 10;
    // Those, and one byte in every block of the file.
    let every_block = (128..len).step_by(4093);
    for at in [key_at, value_at, len - 300, len - 3]
        .into_iter()
        .chain(every_block)
    {
        let mut bad = good.clone();
        bad[at] ^= 0x04;
        std::fs::write(&path, &bad).unwrap();
        let t = match TableFile::open(&path) {
            Ok(t) => t,
            // The block CRC table is checked as a whole at open, and the radix root's
            // first block is read (and so checked) there too.
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("block checksums") || msg.contains("checksum mismatch in block"),
                    "byte {at}: {msg}"
                );
                continue;
            }
        };
        // A full check finds it, naming the block.
        let whole = t.verify_all(&Silent).unwrap_err().to_string();
        assert!(whole.contains("checksum mismatch in block"), "{whole}");
        assert!(whole.contains("body.qtb"), "{whole}");
        drop(t);
        let errors = answers_or_errors(&path, &entries);
        if at == key_at || at == value_at {
            assert!(
                errors > 0,
                "byte {at}: the damaged block was never reported"
            );
        }
    }
}

#[test]
fn a_probe_on_a_damaged_block_is_an_error_and_the_oracle_claims_nothing() {
    let path = temp("probe.qtb");
    write_table(&path);
    // B4/5/2W2/5/5 w: a win in 2 stored in the table.
    let pos = Position::from_fen("B4/5/2W2/5/5 w").unwrap();
    let tb = Tablebase::open(&path).unwrap();
    assert_eq!(tb.explain(&pos).unwrap().depth, 2);
    let key = {
        let c = tb.region().config_of(&pos);
        let (k, m) = tb.region().key_pair(c);
        k.min(m)
    };
    let i = tb
        .table()
        .tree
        .as_static()
        .unwrap()
        .position(key)
        .unwrap()
        .unwrap();
    drop(tb);
    // Damage the key's 4 KiB block: a byte of the leaf it lies in.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[128 + 8 * (i / 32 * 32)] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::open(&path).unwrap();
    assert!(tb.damage().is_none());
    // The engine's probe reads a depth-2 win from the bitboards (a step onto row 4 that
    // no Black piece can capture): no block read, no damage met.
    assert_eq!(tb.claim_depth(&pos), Some(2));
    assert!(tb.damage().is_none());
    assert!(matches!(tb.explain(&pos), Err(Unknown::Damaged(_))));
    assert!(tb.probe(&pos).is_none());
    let damage = tb
        .damage()
        .expect("the probe's damage is remembered")
        .to_string();
    assert!(damage.contains("checksum mismatch"), "{damage}");
    // A failed block stays an error on every later read.
    assert!(matches!(tb.explain(&pos), Err(Unknown::Damaged(_))));

    // Every block damaged: a position whose answer needs the table (every step onto row 4
    // can be captured, Black far enough for a depth-3 claim) claims nothing.
    let pos = Position::from_fen("1BB2/5/2W2/5/5 w").unwrap();
    write_table(&path);
    let tb = Tablebase::open(&path).unwrap();
    assert_eq!(tb.claim_depth(&pos), None);
    assert!(tb.damage().is_none());
    let entries = tb.table().tree.len();
    drop(tb);
    let mut bytes = std::fs::read(&path).unwrap();
    for at in (128..128 + 8 * entries).step_by(512) {
        bytes[at] ^= 0x01;
    }
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::open(&path).unwrap();
    assert_eq!(tb.claim_depth(&pos), None);
    assert!(tb.guess(&pos).is_none());
    assert!(tb.damage().is_some(), "the fast probe read no block");
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

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches no memory of ours.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_fifo())
        .unwrap_or(false)
}

#[test]
fn non_regular_files_are_refused_without_waiting() {
    let fifo = temp("pipe.qtb");
    mkfifo(&fifo);
    // Opening a FIFO for reading would wait for a writer: it must be refused at once.
    let (send, recv) = std::sync::mpsc::channel();
    let f = fifo.clone();
    std::thread::spawn(move || send.send(TableFile::open(&f).map(|_| ())).unwrap());
    let r = recv
        .recv_timeout(Duration::from_secs(20))
        .expect("opening a FIFO hung");
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("FIFO"), "{msg}");
    let msg = TableFile::open(Path::new("/dev/null"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("character device"), "{msg}");
    // A folder is read as a sliced table's directory, which needs its manifest.
    let msg = TableFile::open(&std::env::temp_dir())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("has no manifest"), "{msg}");
}

#[test]
fn a_write_never_replaces_what_is_not_a_regular_file() {
    let g = generate(&region(), Limits::NONE, &Silent).unwrap();
    let write = |p: &Path| TableFile::write(p, &region(), Limits::NONE, &g.codec, &g.entries);
    let fifo = temp("out-pipe.qtb");
    mkfifo(&fifo);
    let link = temp("out-link.qtb");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(temp("elsewhere.qtb"), &link).unwrap();
    for (p, what) in [
        (Path::new("/dev/full"), "character device"),
        (fifo.as_path(), "FIFO"),
        (link.as_path(), "symbolic link"),
    ] {
        let msg = TableFile::claim_output(p).unwrap_err().to_string();
        assert!(msg.contains(what), "{msg}");
        let msg = write(p).unwrap_err().to_string();
        assert!(msg.contains(what), "{msg}");
        assert!(!tmp_of(p).exists());
    }
    assert!(is_fifo(&fifo));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn a_stale_temporary_file_is_cleaned_and_a_busy_output_refused() {
    let g = generate(&region(), Limits::NONE, &Silent).unwrap();
    let write = |p: &Path| TableFile::write(p, &region(), Limits::NONE, &g.codec, &g.entries);
    let path = temp("stale.qtb");
    let tmp = tmp_of(&path);
    // A killed build's leftover is removed by the next build.
    std::fs::write(&tmp, vec![7u8; 1 << 20]).unwrap();
    write(&path).unwrap();
    assert!(!tmp.exists());
    let t = TableFile::open(&path).unwrap();
    assert_eq!(t.verify_all(&Silent).map_err(|e| e.to_string()), Ok(()));
    // Taking the output cleans a stale one before a build.
    std::fs::write(&tmp, b"junk").unwrap();
    let held = TableFile::claim_output(&path).unwrap();
    assert!(!tmp.exists());
    // A table another build holds is refused, before and at the write.
    let err = write(&path).unwrap_err();
    assert!(
        matches!(err, TableFileError::File(FileError::Busy { .. })),
        "{err}"
    );
    assert!(
        err.to_string().contains("being written by another run"),
        "{err}"
    );
    assert!(TableFile::claim_output(&path).is_err());
    drop(held);
    write(&path).unwrap();
    assert!(!tmp.exists());
}

#[test]
fn static_btree_agrees_with_a_sorted_set_on_random_and_clustered_keys() {
    use quasar_file::btree::StaticBTree;
    use rand::{RngExt, SeedableRng};
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
                assert_eq!(tree.get(k), Ok(Some(v)));
            }
            for _ in 0..20_000 {
                let k = if clustered {
                    rng.random_range(999_000..1_001_000 + 4 * n as u64)
                } else {
                    rng.random_range(0..1u64 << 51)
                };
                assert_eq!(tree.get(k), Ok(set.get(&k).copied()), "n={n} key {k}");
                assert_eq!(tree.position(k), tree.position_by_levels(k));
            }
        }
    }
}
