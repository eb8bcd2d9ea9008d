//! End-to-end: `quasar solve` on 4x4 (the published result), the proof file and its check,
//! a damaged proof, and bad input.

use std::path::PathBuf;

mod common;

use common::quasar;

/// A scratch path for this file's tests.
fn temp(name: &str) -> PathBuf {
    common::temp("solve", name)
}

#[test]
fn four_by_four_solves_proves_and_checks() {
    let file = temp("4x4.proof");
    let f = file.to_str().unwrap();
    for extra in [&[][..], &["--no-tb"][..]] {
        let mut args = vec!["solve", "--board", "4x4", "--memory", "16", "--proof", f];
        args.extend_from_slice(extra);
        let (ok, out, err) = quasar(&args);
        assert!(ok, "{err}");
        assert!(
            out.contains("winner: Black (the side not to move); perfect play lasts 14 plies"),
            "{out}"
        );
        assert!(out.contains("principal line: "), "{out}");
        assert!(out.contains("proof: "), "{out}");
        let (ok, out, err) = quasar(&["solve", "--check", f]);
        assert!(ok, "{err}");
        assert!(
            out.contains("proof checked: Black wins from BBBB/BBBB/WWWW/WWWW w within 14 plies"),
            "{out}"
        );
    }
    let (ok, out, err) = quasar(&["solve", "--check", f, "--threads", "1"]);
    assert!(ok, "{err}");
    assert!(out.contains("on 1 threads"), "{out}");
    // One flipped byte, a cut file, a file of the first format: an error naming the file,
    // never a panic.
    let bytes = std::fs::read(&file).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    let mut old = bytes[..48].to_vec();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32(&old);
    old.extend_from_slice(&crc.to_le_bytes());
    for (damaged, why) in [
        (flipped, "checksum"),
        (bytes[..bytes.len() - 100].to_vec(), "checksum"),
        (bytes[..20].to_vec(), "header"),
        (old, "format version 1"),
    ] {
        let bad = temp("bad.proof");
        std::fs::write(&bad, &damaged).unwrap();
        let (ok, _, err) = quasar(&["solve", "--check", bad.to_str().unwrap()]);
        assert!(!ok);
        assert!(
            err.starts_with("error: ") && err.contains("not an intact") && err.contains(why),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// CRC-32 (IEEE), bit by bit: the proof file's checksum, for a hand-made file.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn bad_input_is_one_error_line() {
    for args in [
        &["solve", "--board", "5x"][..],
        &["solve", "--board", "4x4", "--position", "BBBB/BBBB/4 w"],
        &["solve", "--board", "4x4", "--tb", "/nonexistent.qtb"],
        &["solve", "--check", "/nonexistent.proof"],
        &["solve", "--board", "4x4", "--tb-rows", "9"],
    ] {
        let (ok, _, err) = quasar(args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_stopped_solve_resumes_and_a_damaged_checkpoint_is_one_error_line() {
    let file = temp("4x4.ckpt");
    let _ = std::fs::remove_file(&file);
    let f = file.to_str().unwrap();
    let base = [
        "solve",
        "--board",
        "4x4",
        "--memory",
        "16",
        "--no-tb",
        "--checkpoint",
        f,
    ];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--stop-after", "300"]);
    let (ok, _, err) = quasar(&args);
    assert!(!ok);
    assert!(err.contains("stopped after 300 nodes"), "{err}");
    let (ok, out, err) = quasar(&base);
    assert!(ok, "{err}");
    assert!(out.contains("perfect play lasts 14 plies"), "{out}");
    // A cut file: an error naming it, never a panic.
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let (ok, _, err) = quasar(&base);
    assert!(!ok);
    assert!(
        err.starts_with("error: ") && err.contains("not an intact quasar solve checkpoint"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
