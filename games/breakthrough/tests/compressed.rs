//! A compressed sliced table answers exactly as its plain form: every configuration's
//! capped depth (the don't-cares by their rule), every probe of random games with its best
//! move; a damaged or missing file is an error naming it, never a value; a compression
//! resumed after a file is lost writes the same bytes.

use breakthrough::tablebase::store::compressed::{self, dont_care, CompressedTable, Packed};
use breakthrough::tablebase::store::Corrupt;
use breakthrough::tablebase::{build_slices, Region, Silent, SlicedTable, Tablebase};
use breakthrough::{Board, Position};
use quasar_core::{Game, Oracle};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// A scratch directory for `name`, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-compressed-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The plain sliced table of `w x h` with `n` rows, built whole into `dir`.
fn build(dir: &Path, w: u32, h: u32, n: u32) -> SlicedTable {
    let region = Region::new(Board::new(w, h).unwrap(), n).unwrap();
    let table = SlicedTable::create(dir, &region).unwrap();
    let plan = table.slicing().plan();
    let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
    build_slices(&table, &names, &Silent, |_| {}).unwrap();
    SlicedTable::open(dir).unwrap()
}

/// Compresses `from` into `to` in blocks of `block`, with what each file did.
fn compress(from: &Path, to: &Path, block: u64) -> (CompressedTable, Vec<Packed>) {
    let mut seen = Vec::new();
    let t = compressed::compress(from, to, block, &mut |p| seen.push(p.clone())).unwrap();
    (t, seen)
}

/// The compressed files of `dir` by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "qtc"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_configuration_reads_as_in_the_plain_table() {
    // 4x6 with 4 rows (depths 2 to 4) in small and large blocks, 6x6 with 3 rows (2 to 5:
    // three stored values).
    let four = scratch("all-4x6-r4-plain");
    let three = scratch("all-6x6-r3-plain");
    build(&four, 4, 6, 4);
    build(&three, 6, 6, 3);
    for (from, w, n, block) in [(&four, 4, 4, 64), (&four, 4, 4, 1024), (&three, 6, 3, 64)] {
        let name = format!("all-{w}-r{n}-{block}");
        let to = scratch(&name);
        let plain = SlicedTable::open(from).unwrap();
        let (packed, _) = compress(from, &to, block);
        let s = plain.slicing().clone();
        let four = n == 4;
        let (mut cared, mut free, mut two, mut empty) = (0u64, 0u64, 0u64, 0u64);
        for id in 0..s.slices() {
            for idx in 0..s.per_slice() {
                let c = s.config(id, idx);
                let want = plain.depth(c).unwrap();
                assert_eq!(packed.depth(c), Ok(want), "{name}: slice {id} index {idx}");
                if dont_care(s.rows_of(c), four, w) {
                    // Answered by the rule, never from the runs: it equals the plain value.
                    free += 1;
                    match want {
                        Some(2) => two += 1,
                        Some(d) if d == s.cap() => empty += 1,
                        other => panic!("{name}: a don't-care of depth {other:?}"),
                    }
                } else {
                    cared += 1;
                    assert!(want.is_some_and(|d| d >= 3), "{name}: {want:?}");
                }
            }
        }
        assert!(cared > 0 && two > 0 && empty > 0, "{name}: {cared} {free}");
        // Both forms open through the prober alike, and the compressed one is smaller.
        let (tp, tc) = (
            Tablebase::open(from).unwrap(),
            Tablebase::open(&to).unwrap(),
        );
        assert!(tc.table().tree.as_compressed().is_some());
        let slices = tc.table().tree.slices().unwrap();
        assert_eq!(slices.slicing().per_slice(), s.per_slice());
        assert!(packed.file_bytes() < plain_bytes(from), "{name}");
        assert_eq!(packed.verify_all(&Silent).map(|_| ()), Ok(()));
        assert!(tc.verify_all(&Silent).is_ok() && tc.incomplete().is_none());
        for id in (0..s.slices()).step_by(13) {
            for idx in (0..s.per_slice()).step_by(17) {
                let c = s.config(id, idx);
                assert_eq!(tc.table_depth(c), tp.table_depth(c), "{name}");
                assert_eq!(tc.lookup(c), tp.lookup(c), "{name}");
            }
        }
        std::fs::remove_dir_all(&to).unwrap();
    }
    std::fs::remove_dir_all(&four).unwrap();
    std::fs::remove_dir_all(&three).unwrap();
}

/// Bytes of the slice files of a plain table.
fn plain_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "qts"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum()
}

#[test]
fn probes_of_random_games_answer_as_the_plain_table() {
    let (from, to) = (scratch("games-plain"), scratch("games"));
    build(&from, 4, 6, 4);
    compress(&from, &to, 256);
    let (tp, tc) = (
        Tablebase::open(&from).unwrap(),
        Tablebase::open(&to).unwrap(),
    );
    let board = Board::new(4, 6).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let (mut positions, mut claims) = (0, 0);
    for _ in 0..200 {
        let mut pos = Position::start(board);
        while pos.outcome().is_none() {
            let want = tp.explain(&pos);
            assert_eq!(tc.explain(&pos), want, "{}", pos.position_text());
            assert_eq!(tc.claim_depth(&pos), tp.claim_depth(&pos));
            assert_eq!(tc.probe(&pos), tp.probe(&pos));
            positions += 1;
            claims += want.is_ok() as u32;
            let mv = pos.random_move(&mut rng).unwrap();
            pos.play(mv);
        }
    }
    assert!(positions > 2000 && claims > 200, "{positions} {claims}");
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}

#[test]
fn a_damaged_or_missing_file_is_an_error_naming_it() {
    let (from, to) = (scratch("damage-plain"), scratch("damage"));
    let plain = build(&from, 4, 6, 4);
    let (packed, _) = compress(&from, &to, 64);
    let s = plain.slicing().clone();
    // The largest file: one byte flipped near its end, in the last slice's runs.
    let (name, bytes) = files(&to).into_iter().max_by_key(|f| f.1.len()).unwrap();
    let path = to.join(&name);
    let top = u32::from_str_radix(name.trim_start_matches('b').trim_end_matches(".qtc"), 16);
    let top = top.unwrap();
    let mut bad = bytes.clone();
    let at = bad.len() - 3;
    bad[at] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    let t = CompressedTable::open(&to).unwrap();
    let (mut errors, mut answers) = (0, 0);
    for id in (0..s.slices()).filter(|&id| s.is_canonical(id) && id >> 4 == top) {
        for idx in 0..s.per_slice() {
            let c = s.config(id, idx);
            match t.depth(c) {
                Ok(d) => {
                    // Only what the slice's own runs hold is lost; everything else answers.
                    assert_eq!(Ok(d), plain.depth(c));
                    answers += 1;
                }
                Err(e @ Corrupt::Compressed { .. }) => {
                    assert!(e.to_string().contains(&name), "{e}");
                    errors += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(errors > 0 && answers > 0, "{errors} {answers}");
    assert!(t.first_damage().is_some());
    let e = t.verify_all(&Silent).unwrap_err();
    assert!(e.to_string().contains(&name), "{e}");
    // Through the prober: opening succeeds, the full check names the file, and a probe
    // that needs the slice is unknown for the damage, never a claim.
    let tb = Tablebase::open(&to).unwrap();
    let e = tb.verify_all(&Silent).unwrap_err().to_string();
    assert!(e.contains(&name) && e.contains("compress"), "{e}");

    // A damaged header or directory: every slice of the file is refused.
    let mut bad = bytes.clone();
    bad[70] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let t = CompressedTable::open(&to).unwrap();
    let id = (0..s.slices())
        .find(|&id| s.is_canonical(id) && id >> 4 == top)
        .unwrap();
    let c = (0..s.per_slice())
        .map(|idx| s.config(id, idx))
        .find(|&c| !dont_care(s.rows_of(c), true, 4))
        .unwrap();
    assert!(matches!(t.depth(c), Err(Corrupt::Compressed { .. })));
    // Cut short, then gone: the missing file is named with what to run.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let t = CompressedTable::open(&to).unwrap();
    assert!(matches!(t.depth(c), Err(Corrupt::Compressed { .. })));
    std::fs::remove_file(&path).unwrap();
    let t = CompressedTable::open(&to).unwrap();
    let missing = t.depth(c).unwrap_err();
    assert!(matches!(missing, Corrupt::CompressedMissing { .. }));
    assert!(missing.to_string().contains(&name), "{missing}");
    let e = t.completeness().unwrap_err().to_string();
    assert!(e.contains(&name), "{e}");
    let tb = Tablebase::open(&to).unwrap();
    assert!(tb.incomplete().is_some());
    assert_eq!(tb.table_depth(c), Err(missing));
    drop(packed);
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}

#[test]
fn a_resumed_compression_writes_the_same_files() {
    let (from, to) = (scratch("resume-plain"), scratch("resume"));
    build(&from, 4, 6, 4);
    let (_, first) = compress(&from, &to, 128);
    let before = files(&to);
    let written = first
        .iter()
        .filter(|p| matches!(p, Packed::Written { .. }))
        .count();
    assert_eq!(written, before.len());
    assert!(matches!(first[0], Packed::Counted { slices: 136, .. }));
    // One file lost (a run stopped before it), another damaged: both are written again,
    // the others kept, and every file ends as the first run wrote it.
    std::fs::remove_file(to.join(&before[0].0)).unwrap();
    let mut bad = before[1].1.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x01;
    std::fs::write(to.join(&before[1].0), &bad).unwrap();
    let (_, again) = compress(&from, &to, 128);
    let rewritten: Vec<&str> = again
        .iter()
        .filter_map(|p| match p {
            Packed::Written { file, .. } => Some(file.as_str()),
            _ => None,
        })
        .collect();
    let mut rewritten = rewritten;
    rewritten.sort();
    assert_eq!(rewritten, [before[0].0.as_str(), before[1].0.as_str()]);
    let kept = again
        .iter()
        .filter(|p| matches!(p, Packed::Kept(_)))
        .count();
    assert_eq!(kept, before.len() - 2);
    assert_eq!(files(&to), before);
    // Another block size rewrites every file; the table still answers as before.
    let (t, third) = compress(&from, &to, 256);
    assert!(third.iter().all(|p| !matches!(p, Packed::Kept(_))));
    assert!(t.verify_all(&Silent).is_ok());
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}
