//! End-to-end: `quasar tablebase build | info | probe | verify` on small tables.

use std::path::PathBuf;
use std::process::Command;

mod common;

use common::{build_table, ok_saying, one_error_line, quasar, run_ok};

/// A scratch path for this file's tests.
fn temp(name: &str) -> PathBuf {
    common::temp("tb", name)
}

#[test]
fn build_info_probe_verify() {
    let file = temp("t553.qtb");
    let f = file.to_str().unwrap();
    let out = build_table(&["--board", "5x5", "--rows", "3"], f);
    // 2^(3*5) configurations, the spec's count for n = 3.
    assert!(out.contains("configurations examined: 32768"), "{out}");

    let out = ok_saying(&["tablebase", "info", f], "board: 5x5, rows: 3");
    assert!(out.contains("D =  2:"), "{out}");

    // A lone White piece on H-2 that nothing can capture: D = 2 (the spec's example);
    // the Black piece on a5 is on row R + 2 = 5 and far from White's goal side.
    let (ok, out, err) = quasar(&["tablebase", "probe", f, "--position", "B4/5/2W2/5/5 w"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("White to move: win within 3 plies"),
        "{out}"
    );

    // The same seen from Black: colours flipped, Black to move.
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "5/5/2B2/5/W4 b"]);
    assert!(ok);
    assert!(
        out.starts_with("Black to move: win within 3 plies"),
        "{out}"
    );

    // A Black piece on row 2 may win first: unknown, and why.
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "B4/5/2W2/1B3/5 w"]);
    assert!(ok);
    assert!(
        out.starts_with("White to move: unknown\nwhy: an opponent piece on row 2"),
        "{out}"
    );

    ok_saying(&["tablebase", "verify", f, "--samples", "300"], "all agree");

    // `--game breakthrough` is accepted by every subcommand (and is the default).
    ok_saying(
        &["tablebase", "info", "--game", "breakthrough", f],
        "board: 5x5, rows: 3",
    );
    let (ok, out, err) = quasar(&[
        "tablebase",
        "probe",
        "--game",
        "breakthrough",
        f,
        "--position",
        "B4/5/2W2/5/5 w",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("White to move: win within 3 plies"),
        "{out}"
    );
    ok_saying(
        &[
            "tablebase",
            "verify",
            "--game",
            "breakthrough",
            f,
            "--samples",
            "5",
        ],
        "all agree",
    );
    let (ok, _, err) = quasar(&["tablebase", "info", "--game", "chess", f]);
    assert!(!ok);
    assert!(err.contains("breakthrough"), "{err}");

    // A damaged body is refused by every command that reads it whole, with a clear error.
    let good = std::fs::read(&file).unwrap();
    let mut bytes = good.clone();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    for cmd in ["info", "verify"] {
        let (ok, _, err) = quasar(&["tablebase", cmd, f]);
        assert!(!ok, "{cmd}");
        assert!(err.contains("checksum mismatch"), "{cmd}: {err}");
    }
    // So is a damaged byte in the header's second half, at open.
    let mut bytes = good.clone();
    bytes[100] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let (ok, _, err) = quasar(&["tablebase", "probe", f, "--position", "B4/5/2W2/5/5 w"]);
    assert!(!ok);
    assert!(err.contains("header checksum mismatch"), "{err}");
}

#[test]
fn build_game_option_and_non_regular_paths() {
    let file = temp("t553-game.qtb");
    let f = file.to_str().unwrap();
    let build = [
        "tablebase",
        "build",
        "--board",
        "5x5",
        "--rows",
        "3",
        "--quiet",
    ];
    let (ok, _, err) = quasar(&[&build[..], &["--game", "breakthrough", "-o", f]].concat());
    assert!(ok, "{err}");
    assert!(file.is_file());

    // A device is refused before the build, and stays what it was.
    let (ok, _, err) = quasar(&[&build[..], &["-o", "/dev/full"]].concat());
    assert!(!ok);
    assert!(
        err.contains("/dev/full") && err.contains("character device"),
        "{err}"
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());

    // A FIFO is neither replaced by a build nor waited on by info.
    let fifo = temp("pipe.qtb");
    let _ = std::fs::remove_file(&fifo);
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches no memory of ours.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = fifo.to_str().unwrap();
    let (ok, _, err) = quasar(&[&build[..], &["-o", p]].concat());
    assert!(!ok);
    assert!(err.contains("FIFO"), "{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(["tablebase", "info", p])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("tablebase info hung on a FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("FIFO"), "{err}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// `quasar tablebase build` of 5x5 n=3 into `out` under a 4 KiB file size limit (the
/// table is ~140 KB, so the write phase fails), the signal ignored or not.
fn build_with_file_limit(out: &str, ignore_signal: bool) -> (bool, String) {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    let script = format!(
        "{trap}ulimit -f 8; exec \"$0\" tablebase build --board 5x5 --rows 3 --quiet -o \"$1\""
    );
    let o = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_quasar"), out])
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_failed_or_killed_write_leaves_no_temporary_file_for_long() {
    let file = temp("t553-limited.qtb");
    let f = file.to_str().unwrap();
    // The temporary files beside the table: `<table>.<pid>.<n>.tmp`.
    let temps = || -> Vec<PathBuf> {
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        std::fs::read_dir(file.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_str().unwrap();
                n.starts_with(&format!("{name}.")) && n.ends_with(".tmp")
            })
            .collect()
    };
    let _ = std::fs::remove_file(&file);
    // The write fails (EFBIG): an error, and nothing left behind.
    let (ok, err) = build_with_file_limit(f, true);
    assert!(!ok);
    assert!(err.contains("too large"), "{err}");
    assert!(!file.exists() && temps().is_empty(), "{err}");
    // Killed in the write phase (SIGXFSZ): the temporary file stays, no table appears...
    let (ok, _) = build_with_file_limit(f, false);
    assert!(!ok);
    assert!(!file.exists());
    assert!(
        temps().len() == 1,
        "the kill left no temporary file: the test proves nothing"
    );
    // ...and the next build cleans it up and writes the table.
    build_table(&["--board", "5x5", "--rows", "3"], f);
    assert!(file.is_file() && temps().is_empty());
    let (ok, _, err) = quasar(&["tablebase", "verify", f, "--samples", "3"]);
    assert!(ok, "{err}");
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    // Each a line naming the option, or the board, at fault.
    for (args, want) in [
        (
            &["tablebase", "build", "--board", "5x5", "--rows", "5"][..],
            "error: --rows: a table of 5x5 covers 3 to 4 rows, not 5",
        ),
        (
            &["tablebase", "build", "--board", "4x4", "--rows", "4"],
            "error: --rows: a table of 4x4 covers exactly 3 rows, not 4",
        ),
        (
            &["tablebase", "build", "--board", "3x3"],
            "error: a table covers 3 rows or more and leaves at least one row out, so 3x3 \
             (of 3 rows) is too small for one: give a board of 4 rows or more",
        ),
    ] {
        let (ok, _, err) = quasar(args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.trim(), want, "{args:?}");
    }
    let (ok, _, err) = quasar(&["tablebase", "info", "/nonexistent/table.qtb"]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/table.qtb"), "{err}");
}

#[test]
fn plan_and_build_refuse_the_options_they_would_ignore() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["plan", "--board", "4x5", "--max-white", "2"],
            "error: --max-white is not an option of a Breakthrough plan: a sliced table holds \
             every configuration of its rows",
        ),
        (
            &["plan", "--board", "4x5", "-o", "t.d"],
            "error: --out is not an option of tablebase plan: it prints the slices to build",
        ),
        (
            &[
                "plan",
                "--game",
                "checkers",
                "--max-pieces",
                "2",
                "--board",
                "4x4",
            ],
            "error: --board is not an option of checkers tables",
        ),
        (
            &["plan", "--game", "chinese-checkers"],
            "error: a chinese-checkers table is built whole: it has no slices",
        ),
        (
            &["build", "--game", "woodpush", "--wave", "0"],
            "error: a woodpush table is built whole: it has no slices",
        ),
        (
            &["build", "--board", "4x4", "--solver", "half"],
            "error: --solver is an option of chinese-checkers tables only",
        ),
        (
            &["build", "--game", "woodpush", "--checkpoint", "c"],
            "error: --checkpoint is an option of chinese-checkers tables only",
        ),
        (
            &["build", "--board", "4x4", "--distance"],
            "error: --distance is an option of checkers tables only",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["tablebase"];
        all.extend_from_slice(args);
        let (ok, out, err) = quasar(&all);
        assert!(!ok, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
    }
    // A checkers plan selects as a Breakthrough plan does: --wave, --shard, --slice.
    let plan = |extra: &[&str]| {
        let mut args = vec![
            "tablebase",
            "plan",
            "--game",
            "checkers",
            "--max-pieces",
            "3",
        ];
        args.extend_from_slice(extra);
        let (ok, out, err) = quasar(&args);
        assert!(ok, "{err}");
        out
    };
    let all = plan(&[]);
    let wave1: Vec<&str> = all.lines().filter(|l| l.starts_with("1\t")).collect();
    assert!(wave1.len() > 2, "{all}");
    assert_eq!(plan(&["--wave", "1"]).lines().collect::<Vec<_>>(), wave1);
    let first: Vec<&str> = wave1.iter().copied().step_by(3).collect();
    assert_eq!(
        plan(&["--wave", "1", "--shard", "1/3"])
            .lines()
            .collect::<Vec<_>>(),
        first
    );
    let name = wave1[0].split('\t').nth(1).unwrap();
    assert_eq!(plan(&["--slice", name]), format!("{}\n", wave1[0]));
}

#[test]
fn table_messages_name_the_file_and_what_to_give() {
    // A table without entries is its header alone, not "544.00 bytes/entry".
    let empty = temp("empty-4x4.qtb");
    let e = empty.to_str().unwrap();
    let out = build_table(
        &["--board", "4x4", "--max-white", "0", "--max-black", "0"],
        e,
    );
    assert!(
        out.contains(" bytes, no entries: the header alone, 2-byte values"),
        "{out}"
    );
    ok_saying(
        &["tablebase", "info", e],
        "entries: 0 (no entries: the header alone)",
    );
    // Only a sliced Breakthrough table has a block index to write.
    assert_eq!(
        one_error_line(&["tablebase", "verify", e, "--write-index"]),
        format!(
            "error: --write-index is for a sliced table's directory; {e} is a whole table, \
             checked whole: drop --write-index"
        )
    );
    let w = temp("w6.qrt");
    let w = w.to_str().unwrap();
    build_table(&["--game", "woodpush", "--width", "6"], w);
    let db = temp("db2");
    let d = db.to_str().unwrap();
    build_table(&["--game", "checkers", "--max-pieces", "2"], d);
    for (table, game) in [(w, "woodpush"), (d, "checkers")] {
        assert_eq!(
            one_error_line(&["tablebase", "verify", table, "--write-index"]),
            format!(
                "error: --write-index is for Breakthrough's sliced tables only, the one kind \
                 with a block index; {table} is a {game} table, checked whole: drop \
                 --write-index"
            )
        );
    }
    // One slice file is not the database: its folder is.
    let slice = db.join("b0k0-w0k1.qrt");
    let s = slice.to_str().unwrap();
    assert_eq!(
        one_error_line(&["bestmove", "--game", "checkers", "--tb", s, "--sims", "10"]),
        format!(
            "error: tablebase {s} is a file: a checkers database is the folder of its slice \
             files and manifest; give the folder"
        )
    );
    // Another game's table: the file, then what it is.
    assert_eq!(
        one_error_line(&[
            "bestmove",
            "--game",
            "chinese-checkers",
            "--tb",
            w,
            "--sims",
            "10"
        ]),
        format!("error: tablebase {w}: a table of woodpush, not of Chinese Checkers")
    );
    // Beyond the longest strip, a piece limit does not help.
    assert_eq!(
        one_error_line(&[
            "tablebase",
            "build",
            "--game",
            "woodpush",
            "--width",
            "32",
            "--max-pieces",
            "2",
        ]),
        "error: width 32: a Woodpush strip has 1 to 31 cells"
    );
    // A position with more pieces than any start of its width is named by its width.
    let (ok, out, err) = quasar(&[
        "perft",
        "--game",
        "woodpush",
        "--position",
        "LLLL..... L",
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "perft width 9 depth 1: 1");
    let _ = std::fs::remove_dir_all(&db);
}

#[test]
fn bestmove_with_a_table_proves_the_root_at_once() {
    let file = temp("t663-bestmove.qtb");
    let f = file.to_str().unwrap();
    build_table(&["--board", "6x6", "--rows", "3"], f);
    // White's c4 can step to row 5 where nothing captures it: D = 2, inside the sound rule.
    let fen = "B5/6/2W3/6/6/5W w";
    let base = ["bestmove", "--position", fen, "--sims", "1", "--seed", "3"];
    let with_tb = ok_saying(&[&base[..], &["--tb", f]].concat(), "proven win for White");
    let mv = with_tb.lines().next().unwrap();
    assert!(
        mv == "bestmove c4-c5" || mv == "bestmove c4-d5" || mv == "bestmove c4-b5",
        "{with_tb}"
    );
    // One simulation without the table (nor the game's verdicts, which see the threat
    // too) proves nothing: the table did the proving.
    ok_saying(&[&base[..], &["--no-verdicts"]].concat(), "proven no");
    // A table for another board is refused with the reason.
    let (ok, _, err) = quasar(&["bestmove", "--board", "8x8", "--sims", "1", "--tb", f]);
    assert!(!ok);
    assert!(err.contains("6x6") && err.contains("8x8"), "{err}");
}

/// The slice files (`*.qts`) of a sliced table's directory, by name, with their bytes.
fn slice_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    common::files_ending(dir, "qts")
}

/// A sliced build of 4x6 with 4 rows into `dir` (created first, so the build is sliced),
/// with extra arguments; its standard output.
fn sliced_build(dir: &std::path::Path, extra: &[&str]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    build_table(
        &[&["--board", "4x6", "--rows", "4"], extra].concat(),
        dir.to_str().unwrap(),
    )
}

#[test]
fn sliced_builds_by_shards_equal_one_build_byte_for_byte() {
    let (ok, plan, err) = quasar(&["tablebase", "plan", "--board", "4x6", "--rows", "4"]);
    assert!(ok, "{err}");
    // (2^8 + 2^4) / 2 slices up to mirror images, in 9 waves (0 to 8 pieces on rows R, H).
    assert_eq!(plan.lines().count(), 136, "{plan}");
    assert!(plan.starts_with("0\tw0-b0\n"), "{plan}");
    assert!(plan.ends_with("8\twf-bf\n"), "{plan}");

    let whole = temp("sliced-whole");
    let out = sliced_build(&whole, &[]);
    assert!(
        out.contains("slices built: 136, skipped (finished): 0"),
        "{out}"
    );
    let shards = temp("sliced-shards");
    for wave in 0..=8 {
        for shard in ["1/2", "2/2"] {
            sliced_build(&shards, &["--wave", &wave.to_string(), "--shard", shard]);
        }
    }
    let (a, b) = (slice_files(&whole), slice_files(&shards));
    assert_eq!(a.len(), 136);
    assert!(a == b, "two shards a wave differ from one whole build");

    // A wave whose inputs are missing is refused, naming the slice to build first.
    let early = temp("sliced-early");
    std::fs::create_dir_all(&early).unwrap();
    let e = early.to_str().unwrap();
    let (ok, _, err) = quasar(&[
        "tablebase",
        "build",
        "--board",
        "4x6",
        "--rows",
        "4",
        "-o",
        e,
        "--wave",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("is not built yet"), "{err}");

    // The directory answers probes, info and verify like a table file.
    let w = whole.to_str().unwrap();
    ok_saying(&["tablebase", "info", w], "slices finished: 136 of 136");
    // A lone White piece on row H-2 = 4 that nothing can capture: D = 2.
    ok_saying(
        &["tablebase", "probe", w, "--position", "B3/4/2W1/4/4/4 w"],
        "win within 3 plies",
    );
    ok_saying(&["tablebase", "verify", w, "--samples", "200"], "all agree");
    for d in [whole, shards, early] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_killed_sliced_build_resumes_skipping_finished_slices() {
    let whole = temp("resume-whole");
    sliced_build(&whole, &[]);
    let dir = temp("resume");
    for wave in 0..=3 {
        sliced_build(&dir, &["--wave", &wave.to_string()]);
    }
    let done = slice_files(&dir);
    // Waves 0-3 of the plan: 1 + 4 + 16 + 28 slices up to mirror images.
    assert_eq!(done.len(), 49);
    // What a kill leaves: a temporary file of the slice being written (never a file under
    // its final name); plus a damaged finished slice and a truncated one.
    std::fs::write(dir.join("w3-b3.qts.tmp"), b"half a slice").unwrap();
    let damaged = dir.join(&done[10].0);
    let mut bytes = std::fs::read(&damaged).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&damaged, bytes).unwrap();
    let truncated = dir.join(&done[20].0);
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let (ok, _, err) = quasar(&["tablebase", "verify", dir.to_str().unwrap()]);
    assert!(!ok, "verify must find the damaged slice");
    assert!(err.contains("fails its checksum"), "{err}");

    let out = sliced_build(&dir, &[]);
    assert!(
        out.contains("slices built: 89, skipped (finished): 47, damaged and rebuilt: 2"),
        "{out}"
    );
    assert!(
        slice_files(&whole) == slice_files(&dir),
        "a resumed build differs"
    );
    assert!(!dir.join("w3-b3.qts.tmp").exists());
    for d in [whole, dir] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn an_incomplete_or_damaged_sliced_table_is_named_by_every_command() {
    let dir = temp("incomplete");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    build_table(&["--board", "5x5", "--rows", "3"], d);
    // White on c3, Black on b4-d4 and none on row 5: slice w04-b00, where White wins at
    // depth 2 (c3xb4).
    let position = "5/1BBB1/2W2/5/5 w";
    ok_saying(
        &["tablebase", "probe", d, "--position", position],
        "win within 3 plies",
    );
    let slice = dir.join("w04-b00.qts");
    let whole = std::fs::read(&slice).unwrap();

    // The slice removed: info and verify fail naming it, probe names it instead of
    // answering "not stored".
    std::fs::remove_file(&slice).unwrap();
    let missing = "1 of its 544 slices are not built, the first w04-b00 (no file w04-b00.qts)";
    let (ok, out, err) = quasar(&["tablebase", "info", d]);
    assert!(!ok);
    assert!(out.contains("slices finished: 543 of 544"), "{out}");
    assert!(err.contains(missing) && err.contains("incomplete"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (ok, out, err) = quasar(&["tablebase", "info", d, "--json"]);
    assert!(!ok && !out.contains("slices_finished"), "{out}");
    assert!((out + &err).contains(missing), "{err}");
    let (ok, _, err) = quasar(&["tablebase", "verify", d]);
    assert!(!ok && err.contains(missing), "{err}");
    let (ok, _, err) = quasar(&["tablebase", "verify", d, "--write-index"]);
    assert!(!ok && err.contains(missing), "{err}");
    let (ok, out, err) = quasar(&["tablebase", "probe", d, "--position", position]);
    assert!(!ok, "{out}");
    assert!(!out.contains("not stored"), "{out}");
    assert!(
        err.contains("slice w04-b00 of the sliced table is not built (no file w04-b00.qts)"),
        "{err}"
    );
    // A search with the table says once which slice is missing.
    let warning =
        "warning: ".to_string() + d + ": the sliced Breakthrough table is incomplete: " + missing;
    let (ok, out, err) = search_5x5(position, d, "mcts", "200");
    assert!(ok, "{err}");
    assert!(out.starts_with("bestmove "), "{out}");
    assert!(err.starts_with(&warning), "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    let (ok, out, err) = quasar(&["solve", "--position", position, "--tb", d, "--memory", "64"]);
    assert!(ok, "{err}");
    assert!(out.contains("perfect play lasts 3 plies"), "{out}");
    assert!(err.starts_with(&warning), "{err}");
    let (ok, _, err) = common::with_input(
        &["play", "--board", "5x5", "--tb", d, "--sims", "200"],
        b"b2-b3\nc2-c3\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(err.starts_with(&warning), "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");

    // The slice cut short: named as damaged by info, verify and probe, and by a search's
    // warning.
    std::fs::write(&slice, &whole[..whole.len() / 2]).unwrap();
    let damaged = "slice w04-b00 of the sliced table (w04-b00.qts) fails its checksum or header";
    let (ok, _, err) = search_5x5(position, d, "mcts", "200");
    assert!(ok, "{err}");
    let cut = format!(
        "warning: {d}: slice file w04-b00.qts of the sliced Breakthrough table is damaged: \
         {} bytes, not the {} of a slice: cut short; delete it and run \
         `quasar tablebase build --board 5x5 --rows 3 -o {d}` to rebuild it",
        whole.len() / 2,
        whole.len()
    );
    assert!(err.starts_with(&cut), "{err}");
    for args in [
        &["tablebase", "info", d][..],
        &["tablebase", "verify", d],
        &["tablebase", "probe", d, "--position", position],
    ] {
        let (ok, out, err) = quasar(args);
        assert!(!ok, "{args:?}: {out}");
        assert!(err.contains(damaged), "{args:?}: {err}");
    }

    // Without its manifest the folder is named a Breakthrough one, whatever the game.
    std::fs::write(&slice, &whole).unwrap();
    let manifest = dir.join("manifest");
    std::fs::remove_file(&manifest).unwrap();
    let (ok, _, err) = quasar(&["tablebase", "info", d]);
    assert!(!ok);
    assert_eq!(
        err,
        format!(
            "error: {d} has no manifest (no file manifest in it): not the directory of a \
             sliced Breakthrough table, or its build never started; build one with \
             `quasar tablebase build --board WxH --rows R -o {d}`\n"
        )
    );
    let (ok, _, err) = quasar(&["tablebase", "info", "--game", "checkers", d]);
    assert!(!ok);
    assert!(
        err.contains("is a Breakthrough table, not a checkers one"),
        "{err}"
    );
    // The manifest of earlier versions (no kind, no checksum) is still read.
    std::fs::write(
        &manifest,
        "quasar sliced breakthrough table v1\nboard 5x5\nrows 3\n",
    )
    .unwrap();
    ok_saying(
        &["tablebase", "probe", d, "--position", position],
        "win within 3 plies",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_search_that_meets_a_damaged_block_says_so_once() {
    let file = temp("damaged-blocks.qtb");
    let f = file.to_str().unwrap();
    build_table(&["--board", "5x5", "--rows", "3"], f);
    let (info, _) = run_ok(&["tablebase", "info", f, "--json"]);
    let info: serde_json::Value = serde_json::from_str(&info).unwrap();
    let entries = info["positions"].as_u64().unwrap() as usize;
    // One byte of every 4 KiB block of entries (8 bytes each after the 128-byte header):
    // the file opens, and the first probe that reads a block meets the damage.
    let mut bytes = std::fs::read(&file).unwrap();
    for at in (128..128 + 8 * entries).step_by(512) {
        bytes[at] ^= 0x01;
    }
    std::fs::write(&file, &bytes).unwrap();
    // Both searches probe positions whose answers are in the table's blocks.
    let position = "BBBBB/5/5/WWWWW/5 w";
    for engine in ["mcts", "ab"] {
        let (ok, out, err) = search_5x5(position, f, engine, "300");
        assert!(ok, "{engine}: {err}");
        assert!(out.starts_with("bestmove "), "{engine}: {out}");
        let warning = format!("warning: {f}: checksum mismatch in block ");
        assert!(err.starts_with(&warning), "{engine}: {err}");
        assert!(
            err.contains("searches go on without the damaged part"),
            "{engine}: {err}"
        );
        assert_eq!(err.matches("warning:").count(), 1, "{engine}: {err}");
    }
    // An arena that adjudicates by the table says so too, once for the whole match.
    let out = temp("damaged-blocks-arena");
    let extra = [
        "--board",
        "5x5",
        "--games",
        "4",
        "--jobs",
        "1",
        "--adjudicate",
        f,
    ];
    let (_, err) = common::arena_ok(["random", "random:seed=2"], &out, &extra);
    assert!(
        err.contains("checksum mismatch in block")
            && err.contains("searches go on without the damaged part"),
        "{err}"
    );
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_file(&file).unwrap();
}

/// `quasar bestmove` on 5x5 from `position` with the table `tb`, the engine and its
/// simulations (MCTS) or nodes (alpha-beta): success, standard output and error.
fn search_5x5(position: &str, tb: &str, engine: &str, sims: &str) -> (bool, String, String) {
    quasar(&[
        "bestmove",
        "--board",
        "5x5",
        "--position",
        position,
        "--tb",
        tb,
        "--engine",
        engine,
        "--sims",
        sims,
    ])
}

/// The build of the 4x4 table of 3 rows.
const BUILD_4X4: &[&str] = &["tablebase", "build", "--board", "4x4", "--rows", "3"];

/// A Breakthrough table of every configuration of its rows is a directory of slices by
/// default; it is one B-tree file with --whole, an output named *.qtb or piece limits, and
/// both forms answer alike.
#[test]
fn the_default_form_is_slices_and_one_file_is_asked_for() {
    let dir = common::scratch("tb", "forms");
    let build = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_quasar"))
            .current_dir(&dir)
            .args(BUILD_4X4)
            .arg("--quiet")
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{extra:?}: {err}");
    };
    build(&[]);
    let sliced = dir.join("tb-4x4-r3.d");
    assert!(sliced.join("manifest").is_file());
    build(&["--whole"]);
    let whole = dir.join("tb-4x4-r3.qtb");
    assert!(whole.is_file());
    build(&["-o", "named.qtb"]);
    assert!(dir.join("named.qtb").is_file());
    build(&["--max-white", "2"]);
    assert!(dir.join("tb-4x4-r3-w2.qtb").is_file());
    for fen in [
        "B3/4/1W2/4 w",
        "1B2/4/W3/4 w",
        "B3/2W1/4/4 b",
        "4/B3/2W1/4 w",
    ] {
        let probe =
            |t: &PathBuf| quasar(&["tablebase", "probe", t.to_str().unwrap(), "--position", fen]);
        assert_eq!(probe(&sliced), probe(&whole), "{fen}");
    }
    // A bad combination of options: exit status 2 and one line.
    let out = common::output(&[BUILD_4X4, &["--whole", "--slice", "w0-b0"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("'--whole' cannot be used with '--slice"),
        "{err}"
    );
}

#[test]
fn a_compressed_sliced_table_is_read_by_every_command() {
    let plain = temp("compress-plain");
    let _ = std::fs::remove_dir_all(&plain);
    sliced_build(&plain, &[]);
    let runs = temp("compress-runs");
    let _ = std::fs::remove_dir_all(&runs);
    let (p, r) = (plain.to_str().unwrap(), runs.to_str().unwrap());
    let compress = ["tablebase", "compress", "--board", "4x6", p, "-o", r];
    let (out, err) = run_ok(&compress);
    assert!(
        out.contains("files written as coded blocks of 1024 positions, 0 kept"),
        "{out}"
    );
    assert!(out.contains("times smaller"), "{out}");
    assert!(err.contains("runs of 136 slices counted"), "{err}");
    assert!(err.contains(".qtc: ") && err.contains("coded"), "{err}");
    // A rerun keeps every file.
    let (out, err) = run_ok(&compress);
    assert!(
        out.contains(" 0 files written") && err.contains("coded already, kept"),
        "{out}"
    );
    // info says which form, the positions and their bytes, in text and JSON.
    let (out, _) = run_ok(&["tablebase", "info", r]);
    assert!(out.contains("form: compressed"), "{out}");
    assert!(
        out.contains("positions: 176256") && out.contains("positions a byte"),
        "{out}"
    );
    let (out, _) = run_ok(&["tablebase", "info", p]);
    assert!(
        out.contains("form: plain") && out.contains("positions a byte"),
        "{out}"
    );
    let (out, _) = run_ok(&["tablebase", "info", r, "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["positions"], 176256);
    assert_eq!(v["details"]["block"], 1024);
    // Probes answer as the plain table's, with the best move.
    for fen in [
        "B3/4/1W2/4/4/4 w",
        "1BB1/B3/1W1W/4/W3/4 w",
        "4/1B2/2W1/W3/4/3B b",
    ] {
        let (plain_out, _) = run_ok(&["tablebase", "probe", p, "--position", fen]);
        let (runs_out, _) = run_ok(&["tablebase", "probe", r, "--position", fen]);
        assert_eq!(plain_out, runs_out, "{fen}");
        // Through a cache of about 1 KB, far below the table's size: the same answer.
        let tiny = ["--table-cache", "0.001"];
        let (cached_out, _) =
            run_ok(&[&["tablebase", "probe", r, "--position", fen][..], &tiny].concat());
        assert_eq!(plain_out, cached_out, "{fen}");
    }
    let (out, _) = run_ok(&["tablebase", "verify", r, "--samples", "100"]);
    assert!(out.contains("all agree"), "{out}");
    let (out, _) = run_ok(&[
        "tablebase",
        "verify",
        r,
        "--samples",
        "100",
        "--table-cache",
        "0.001",
    ]);
    assert!(out.contains("all agree"), "{out}");
    let (ok, _, e) = quasar(&[
        "tablebase",
        "probe",
        r,
        "--position",
        "B3/4/1W2/4/4/4 w",
        "--table-cache",
        "lots",
    ]);
    assert!(!ok && e.contains("number of MiB"), "{e}");
    let e = one_error_line(&["tablebase", "verify", r, "--write-index"]);
    assert!(e.contains("compressed"), "{e}");
    // The search takes it as a table.
    let (out, _) = run_ok(&["bestmove", "--board", "4x6", "--sims", "200", "--tb", r]);
    assert!(out.starts_with("bestmove "), "{out}");
    let cached = ["--seed", "5", "--table-cache", "0.001"];
    let (out, _) = run_ok(
        &[
            &["bestmove", "--board", "4x6", "--sims", "300", "--tb", r][..],
            &cached,
        ]
        .concat(),
    );
    let (whole, _) = run_ok(&[
        "bestmove", "--board", "4x6", "--sims", "300", "--tb", r, "--seed", "5",
    ]);
    // The same search through the cache (all but the timing line).
    let search = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| !l.starts_with("simulations"))
            .map(String::from)
            .collect()
    };
    assert_eq!(search(&out), search(&whole), "{out}");
    // Another board, a checkers option and a damaged file are refused, naming the cause.
    let e = one_error_line(&["tablebase", "compress", "--board", "6x6", p, "-o", r]);
    assert!(e.contains("4x6") && e.contains("6x6"), "{e}");
    let file = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|f| f.extension().is_some_and(|x| x == "qtc"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x20;
    std::fs::write(&file, bytes).unwrap();
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let (ok, _, err) = quasar(&["tablebase", "verify", r]);
    assert!(!ok && err.contains(&name), "{err}");
    let (ok, _, err) = quasar(&["tablebase", "verify", r, "--table-cache", "0.001"]);
    assert!(!ok && err.contains(&name), "{err}");
    let (ok, _, err) = quasar(&["tablebase", "info", r]);
    assert!(!ok && err.contains(&name), "{err}");
    for d in [plain, runs] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
