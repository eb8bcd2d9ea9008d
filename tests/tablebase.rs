//! End-to-end: `quasar tablebase build | info | probe | verify` on small tables.

use std::path::PathBuf;
use std::process::Command;

fn quasar(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("run quasar");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-e2e-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn build_info_probe_verify() {
    let file = temp("t553.qtb");
    let f = file.to_str().unwrap();
    let (ok, out, err) = quasar(&[
        "tablebase",
        "build",
        "--board",
        "5x5",
        "--rows",
        "3",
        "--quiet",
        "-o",
        f,
    ]);
    assert!(ok, "{err}");
    // 2^(3*5) configurations, the spec's count for n = 3.
    assert!(out.contains("configurations examined: 32768"), "{out}");

    let (ok, out, err) = quasar(&["tablebase", "info", f]);
    assert!(ok, "{err}");
    assert!(out.contains("board: 5x5, rows: 3"), "{out}");
    assert!(out.contains("D =  2:"), "{out}");

    // A lone White piece on H-2 that nothing can capture: D = 2 (the spec's example);
    // the Black piece on a5 is on row R + 2 = 5 and far from White's goal side.
    let (ok, out, err) = quasar(&["tablebase", "probe", f, "--position", "B4/5/2W2/5/5 w"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("win in 2"), "{out}");

    // The same seen from Black: colours flipped, Black to move.
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "5/5/2B2/5/W4 b"]);
    assert!(ok);
    assert!(out.starts_with("win in 2"), "{out}");

    // A Black piece on row 2 may win first: unknown, and why.
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "B4/5/2W2/1B3/5 w"]);
    assert!(ok);
    assert!(
        out.starts_with("unknown: an opponent piece on row 2"),
        "{out}"
    );

    let (ok, out, err) = quasar(&["tablebase", "verify", f, "--samples", "300"]);
    assert!(ok, "{err}");
    assert!(out.contains("all agree"), "{out}");

    // A damaged file is refused with a clear error.
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let (ok, _, err) = quasar(&["tablebase", "info", f]);
    assert!(!ok);
    assert!(err.contains("checksum mismatch"), "{err}");
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    let (ok, _, err) = quasar(&["tablebase", "build", "--board", "5x5", "--rows", "5"]);
    assert!(!ok);
    assert!(err.contains("out of range"), "{err}");
    let (ok, _, err) = quasar(&["tablebase", "info", "/nonexistent/table.qtb"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/table.qtb"), "{err}");
}

#[test]
fn bestmove_with_a_table_proves_the_root_at_once() {
    let file = temp("t663-bestmove.qtb");
    let f = file.to_str().unwrap();
    let (ok, _, err) = quasar(&[
        "tablebase",
        "build",
        "--board",
        "6x6",
        "--rows",
        "3",
        "--quiet",
        "-o",
        f,
    ]);
    assert!(ok, "{err}");
    // White's c4 can step to row 5 where nothing captures it: D = 2, inside the sound rule.
    let fen = "B5/6/2W3/6/6/5W w";
    let base = ["bestmove", "--position", fen, "--sims", "1", "--seed", "3"];
    let (ok, with_tb, err) = quasar(&[&base[..], &["--tb", f]].concat());
    assert!(ok, "{err}");
    assert!(with_tb.contains("proven win for White"), "{with_tb}");
    let mv = with_tb.lines().next().unwrap();
    assert!(
        mv == "bestmove c4-c5" || mv == "bestmove c4-d5" || mv == "bestmove c4-b5",
        "{with_tb}"
    );
    // One simulation without the table proves nothing: the table did the proving.
    let (ok, without, err) = quasar(&base);
    assert!(ok, "{err}");
    assert!(without.contains("proven no"), "{without}");
    // A table for another board is refused with the reason.
    let (ok, _, err) = quasar(&["bestmove", "--board", "8x8", "--sims", "1", "--tb", f]);
    assert!(!ok);
    assert!(err.contains("6x6") && err.contains("8x8"), "{err}");
}
