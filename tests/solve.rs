//! End-to-end: `quasar solve` on 4x4 (the published result), the proof file and its check,
//! a damaged proof, and bad input.

use std::path::PathBuf;

mod common;

use common::{crc32, fails_saying, ok_saying, quasar};

/// A scratch path for this file's tests.
fn temp(name: &str) -> PathBuf {
    common::temp("solve", name)
}

/// A scratch path for this file's tests with no file there: a checkpoint left by an earlier
/// run would be resumed.
fn fresh(name: &str) -> PathBuf {
    let file = temp(name);
    let _ = std::fs::remove_file(&file);
    file
}

/// Runs `quasar args --stop-after stop`, which must stop as asked and save checkpoint `f`,
/// then `quasar args` again, which must go on from it to print `want`.
fn stop_and_resume(args: &[&str], stop: &str, f: &str, want: &str) {
    let stopped = [args, &["--stop-after", stop]].concat();
    // A stop that was asked for is no error: status 0, and a line saying how to go on.
    let (out, _) = common::run_ok(&stopped);
    assert!(
        out.starts_with("stopped after ")
            && out.contains(&format!(
                " nodes as asked (--stop-after); checkpoint {f} saved: the same command goes on \
                 from it"
            )),
        "{out}"
    );
    ok_saying(args, want);
}

/// `quasar solve` of what `game` names (a board, a game and its size, their options) in
/// 16 MiB, saving its checkpoint to `f`.
fn checkpointed<'a>(game: &[&'a str], f: &'a str) -> Vec<&'a str> {
    [&["solve"][..], game, &["--memory", "16", "--checkpoint", f]].concat()
}

#[test]
fn four_by_four_solves_proves_and_checks() {
    let file = temp("4x4.proof");
    let f = file.to_str().unwrap();
    for extra in [&[][..], &["--no-tb"][..], &["--length-pn-from", "4"][..]] {
        let mut args = vec!["solve", "--board", "4x4", "--memory", "16", "--out", f];
        args.extend_from_slice(extra);
        let out = ok_saying(
            &args,
            "winner: Black (the side not to move); perfect play lasts 14 plies",
        );
        assert!(out.contains("principal line: "), "{out}");
        assert!(out.contains("proof: "), "{out}");
        ok_saying(
            &["solve", "--check", f],
            "proof checked: Black wins from BBBB/BBBB/WWWW/WWWW w within 14 plies",
        );
    }
    ok_saying(&["solve", "--check", f, "--threads", "1"], "on 1 thread)");
    // A job's share of the check says whose it is; a shard out of range is one line.
    ok_saying(
        &["solve", "--check", f, "--shard", "2/3"],
        "proof shard 2/3 checked (the proof holds when all 3 shards pass): Black wins",
    );
    fails_saying(
        &["solve", "--check", f, "--shard", "4/3"],
        "i must lie in 1..=N",
    );
    // The proof written by two jobs, merged, checks.
    let pieces: Vec<String> = (1..=2)
        .map(|i| {
            let piece = temp(&format!("4x4-piece-{i}.proof"));
            let p = piece.to_str().unwrap().to_string();
            let shard = format!("{i}/2");
            let args = ["solve", "--board", "4x4", "--out", &p, "--shard", &shard];
            ok_saying(&args, &format!("proof piece {i}/2 (not a whole proof"));
            p
        })
        .collect();
    let merged = temp("4x4-merged.proof");
    let m = merged.to_str().unwrap();
    ok_saying(
        &["solve", "--merge", &pieces[0], &pieces[1], "--out", m],
        "merged from 2 pieces",
    );
    ok_saying(&["solve", "--check", m], "proof checked: Black wins");
    fails_saying(
        &["solve", "--board", "4x4", "--shard", "1/2"],
        "a job's share of a --check or of a --out",
    );
    // One bound of the length search alone: 14 plies hold, 13 (and so 12) do not.
    for (plies, answer) in [("13", "no (perfect play lasts longer)"), ("14", "yes")] {
        let line =
            format!("winner: Black (the side not to move); wins within {plies} plies: {answer}");
        ok_saying(&["solve", "--board", "4x4", "--within", plies], &line);
    }
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

#[test]
fn bad_input_is_one_error_line() {
    for args in [
        &["solve", "--board", "5x"][..],
        &["solve", "--board", "4x4", "--position", "BBBB/BBBB/4 w"],
        &["solve", "--board", "4x4", "--tb", "/nonexistent.qtb"],
        &["solve", "--check", "/nonexistent.proof"],
        &["solve", "--board", "4x4", "--tb-rows", "9"],
        &["solve", "--board", "4x4", "--length-pn-from", "3"],
        &["solve", "--board", "4x4", "--memory", "0"],
        // Refused before the search, not after it.
        &[
            "solve",
            "--board",
            "4x4",
            "--out",
            "/nonexistent-folder/4x4.proof",
        ],
        &[
            "solve",
            "--board",
            "4x4",
            "--checkpoint",
            "/nonexistent-folder/4x4.ckpt",
        ],
    ] {
        let (ok, _, err) = quasar(args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // Each names the option at fault, in one line.
    let cases: [(&[&str], &str); 5] = [
        (
            &["solve", "--board", "4x4", "--tb-rows", "9"],
            "error: --tb-rows: a table of 4x4 covers exactly 3 rows, not 9",
        ),
        (
            &["solve", "--board", "4x6", "--tb-rows", "2"],
            "error: --tb-rows: a table of 4x6 covers 3 to 5 rows, not 2",
        ),
        // --check reads its board and position from the proof; it has no table to size.
        (
            &["solve", "--check", "x.proof", "--board", "4x4"],
            "error: the argument '--check <CHECK>' cannot be used with '--board <BOARD>'",
        ),
        (
            &["solve", "--check", "x.proof", "--memory", "16"],
            "error: the argument '--check <CHECK>' cannot be used with '--memory <MEMORY>'",
        ),
        (
            &["solve", "--check", "x.proof", "--length-pn-from", "6"],
            "error: the argument '--check <CHECK>' cannot be used with '--length-pn-from",
        ),
    ];
    for (args, want) in cases {
        let (ok, _, err) = quasar(args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
    }
    // Threads are 1 to the cores there are: more would only cost memory.
    let cores = std::thread::available_parallelism().unwrap().get();
    for n in ["0", "10000", &(cores + 1).to_string()] {
        let (ok, _, err) = quasar(&["solve", "--check", "x.proof", "--threads", n]);
        assert!(!ok);
        assert!(
            err.contains(&format!(
                "give 1 to {cores} (the cores of this machine), not {n}"
            )),
            "{err}"
        );
    }
    // More memory than any machine has: a warning that it is more than is free, then the
    // error, not an abort.
    let (ok, _, err) = quasar(&["solve", "--board", "4x4", "--memory", "1099511627776"]);
    assert!(!ok);
    let lines: Vec<_> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("warning: --memory"), "{err}");
    assert!(
        lines[1].contains("cannot give a transposition table"),
        "{err}"
    );
}

#[test]
fn a_stopped_solve_resumes_and_a_damaged_checkpoint_is_one_error_line() {
    let file = fresh("4x4.ckpt");
    let f = file.to_str().unwrap();
    let base = checkpointed(&["--board", "4x4", "--no-tb"], f);
    // 300 stops df-pn (948 nodes); 1,500 the length search by proof numbers (1,077 more).
    // Either resumes to the same answer.
    for (stop, pn_from) in [("300", "255"), ("1500", "4")] {
        let _ = std::fs::remove_file(&file);
        let with = [&base[..], &["--length-pn-from", pn_from]].concat();
        // The count is checked at the next node after `stop`.
        stop_and_resume(&with, stop, f, "perfect play lasts 14 plies");
    }
    // A cut file: an error naming it, never a panic.
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let err = fails_saying(&base, "not an intact quasar solve checkpoint");
    assert!(err.starts_with("error: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Runs `quasar args` until a line of its standard error contains `cue`, then sends it
/// `signal` and waits for it to end: its exit status and its whole standard error. Waits
/// for the cue rather than a fixed time, with minutes of slack, for a loaded machine.
#[cfg(unix)]
fn signalled(args: &[&str], cue: &str, signal: i32) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quasar");
    let stderr = child.stderr.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(600);
    let mut err = String::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                err.push_str(&line);
                err.push('\n');
                if line.contains(cue) {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("no line with {cue:?} before the end or the deadline: {err}");
            }
        }
    }
    // SAFETY: kill(2) on our own child's id, which it still holds: it has not been
    // waited for.
    let sent = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(sent, 0, "kill failed");
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            reader.join().expect("reader");
            err.extend(rx.try_iter().map(|l| l + "\n"));
            return (status.code(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("quasar did not stop within minutes of the signal: {err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(unix)]
#[test]
fn a_signal_saves_the_checkpoint_and_the_solve_resumes() {
    // 3x7 takes a few seconds in each phase (5x5 takes twice as long).
    let file = fresh("3x7-signal.ckpt");
    let f = file.to_str().unwrap();
    let plain = ["solve", "--board", "3x7", "--memory", "64"];
    let (ok, out, err) = quasar(&plain);
    assert!(ok, "{err}");
    let answer = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("winner: "))
            .unwrap_or_else(|| panic!("no winner line: {out}"))
            .to_string()
    };
    let expected = answer(&out);
    assert!(
        expected.contains("Black") && expected.contains("32 plies"),
        "{expected}"
    );
    let mut with = plain.to_vec();
    with.extend_from_slice(&["--checkpoint", f]);
    // Stopped in the length phase (df-pn is done), so the resumed run skips df-pn.
    let (code, err) = signalled(&with, "length:", libc::SIGTERM);
    assert_eq!(code, Some(75), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("stopped by SIGTERM; checkpoint {f} saved at "))
            && last.ends_with(" nodes; run the same command to resume"),
        "{err}"
    );
    let saved = breakthrough::solve::Checkpoint::read(&file)
        .expect("an intact checkpoint")
        .expect("a checkpoint file");
    assert!(
        matches!(
            saved.phase,
            breakthrough::solve::checkpoint::Phase::Length { .. }
        ),
        "{:?}",
        saved.phase
    );
    let (ok, out, err) = quasar(&with);
    assert!(ok, "{err}");
    assert_eq!(answer(&out), expected);
    // Without a checkpoint file: the conventional status, and a line saying so.
    let (code, err) = signalled(&plain, "winner:", libc::SIGINT);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("stopped by SIGINT (Ctrl-C) after ") && err.contains("nothing was saved"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_signal_in_the_proof_keeps_what_is_written_and_the_same_command_resumes_it() {
    // 3x7's proof has about 756 k records, 1.6 s of writing.
    let (ckpt, proof) = (fresh("3x7-proof.ckpt"), temp("3x7-resumed.proof"));
    let (c, p) = (ckpt.to_str().unwrap(), proof.to_str().unwrap());
    let args = [
        "solve",
        "--board",
        "3x7",
        "--memory",
        "64",
        "--checkpoint",
        c,
        "--out",
        p,
    ];
    // The first progress line of the proof comes after 65,536 of its positions.
    let (code, err) = signalled(&args, ", proof: ", libc::SIGTERM);
    assert_eq!(code, Some(75), "{err}");
    // The line places the writer in the tree: White, the loser, moves at the root.
    let line = err.lines().find(|l| l.contains(", proof: ")).unwrap();
    let place = line.split(", at the loser's replies ").nth(1).unwrap_or("");
    let (k, n) = place
        .split(" > ")
        .next()
        .and_then(|p| p.split_once('/'))
        .unwrap_or_else(|| panic!("{line}"));
    let (k, n): (u32, u32) = (k.parse().unwrap(), n.parse().unwrap());
    assert!(1 <= k && k <= n, "{line}");
    assert!(!proof.exists(), "{err}");
    let scratch = breakthrough::solve::proof_writer::scratch_folder(&proof);
    let kept = format!(
        "the proof written so far is kept in {}; ",
        scratch.display()
    );
    assert!(err.contains(&kept), "{err}");
    assert!(scratch.join("state").is_file(), "{err}");
    let out = ok_saying(&args, "lasts 32 plies");
    let line = out.lines().find(|l| l.starts_with("proof: ")).unwrap();
    let resumed: u64 = line
        .split(", resuming ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(resumed > 0, "{line}");
    assert!(!scratch.exists());
    let out = ok_saying(&["solve", "--check", p], "proof checked: Black wins from ");
    assert!(out.contains("within 32 plies"), "{out}");
}

#[test]
fn a_stop_without_a_checkpoint_says_how_to_keep_one() {
    let args = [
        "solve",
        "--board",
        "4x4",
        "--memory",
        "16",
        "--no-tb",
        "--stop-after",
        "100",
    ];
    let (ok, out, err) = quasar(&args);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("stopped after ")
            && out.trim_end().ends_with(
                "nodes as asked (--stop-after); nothing was saved: give --checkpoint FILE to \
                 be able to resume"
            ),
        "{out}"
    );
    let mut json = args.to_vec();
    json.push("--json");
    let (ok, out, err) = quasar(&json);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped"], true, "{out}");
    assert!(v["checkpoint"].is_null(), "{out}");
    assert!(v["nodes"].as_u64().unwrap() >= 100, "{out}");
}

#[test]
fn a_position_gives_the_board_its_size() {
    // The example of `solve --help`: a 4x5 position, and no --board.
    let fen = "BBBB/BBBB/4/WWWW/4 b";
    ok_saying(
        &["solve", "--position", fen, "--memory", "16", "--quiet"],
        "winner: Black (the side to move); perfect play lasts 7 plies",
    );
    // Its children too, and with a --board that agrees.
    let (ok, out, err) = quasar(&[
        "solve",
        "--position",
        fen,
        "--board",
        "4x5",
        "--list-children",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    // A --board that does not agree is refused.
    let (ok, _, err) = quasar(&["solve", "--position", fen, "--board", "5x5"]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "error: the size options give 5x5 but the position is 4x5"
    );
}

#[test]
fn a_finished_game_is_refused_with_its_winner() {
    // Black has no pieces left: White has won.
    let fen = "4/4/4/W3 w";
    for (extra, tail) in [
        (None, "nothing to solve"),
        (Some("--list-children"), "no move to list"),
        (Some("--within"), "nothing to solve"),
    ] {
        let mut args = vec!["solve", "--position", fen];
        args.extend(extra);
        if extra == Some("--within") {
            args.push("9");
        }
        let (ok, out, err) = quasar(&args);
        assert!(!ok, "{args:?}: {out}");
        assert_eq!(
            err.trim(),
            format!("error: {fen}: the game is over, White has won, so there is {tail}"),
            "{args:?}"
        );
    }
}

#[test]
fn the_root_follows_from_its_listed_children() {
    // The root split for a cluster: one job per child, combined by the rule in the README.
    let (ok, out, err) = quasar(&["solve", "--board", "4x4", "--list-children"]);
    assert!(ok, "{err}");
    let children: Vec<(&str, &str)> = out
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            // No table given, no child finished: every value is a job's to find.
            assert_eq!(fields.len(), 3, "MOVE<TAB>FEN<TAB>VALUE: {l}");
            assert_eq!(fields[2], "unknown", "{l}");
            (fields[0], fields[1])
        })
        .collect();
    // White's first moves on 4x4 are the 6 captures onto row 3; mirror pairs leave 3.
    let moves: Vec<&str> = children.iter().map(|c| c.0).collect();
    assert_eq!(moves, ["a2xb3", "b2xa3", "b2xc3"], "{out}");
    let mut mover_wins = Vec::new();
    let mut all = Vec::new();
    for (_, fen) in &children {
        let (ok, out, err) = quasar(&[
            "solve",
            "--board",
            "4x4",
            "--position",
            fen,
            "--memory",
            "16",
        ]);
        assert!(ok, "{err}");
        let line = out.lines().find(|l| l.starts_with("winner: ")).unwrap();
        let plies: u32 = line
            .rsplit("lasts ")
            .next()
            .and_then(|t| t.strip_suffix(" plies"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        // The child's side to move is Black; the root's mover (White) wins through a child
        // whose side to move loses.
        if line.contains("(the side not to move)") {
            mover_wins.push(plies);
        }
        all.push(plies);
    }
    let root = match mover_wins.iter().min() {
        Some(p) => ("White", 1 + p),
        None => ("Black", 1 + all.iter().max().unwrap()),
    };
    assert_eq!(root, ("Black", 14), "children {all:?}");
}

#[test]
fn a_checkpoint_of_one_table_resumes_with_another() {
    // Its entries are solved positions, facts of the game whatever table found them.
    let file = fresh("3x6-tables.ckpt");
    let f = file.to_str().unwrap();
    let base = checkpointed(&["--board", "3x6"], f);
    let mut first = base.to_vec();
    first.extend_from_slice(&["--tb-rows", "3", "--stop-after", "50000"]);
    ok_saying(&first, "stopped after 50000 nodes");
    let mut then = base.to_vec();
    then.extend_from_slice(&["--tb-rows", "4"]);
    ok_saying(
        &then,
        "winner: White (the side to move); perfect play lasts 23 plies",
    );
    // The same as a run from scratch with either table.
    for rows in ["3", "4"] {
        let args = [
            "solve",
            "--board",
            "3x6",
            "--memory",
            "16",
            "--tb-rows",
            rows,
        ];
        ok_saying(&args, "perfect play lasts 23 plies");
    }
}

#[test]
fn woodpush_and_chinese_checkers_solve_with_draws_proofs_and_checks() {
    let file = temp("w7.proof");
    let f = file.to_str().unwrap();
    let ckpt = temp("w7.ckpt");
    let c = ckpt.to_str().unwrap();
    let w7 = [
        "solve", "--game", "woodpush", "--width", "7", "--memory", "16", "--quiet",
    ];
    ok_saying(
        &[&w7[..], &["--out", f, "--checkpoint", c]].concat(),
        "winner: Right (the side not to move); perfect play lasts 25 plies",
    );
    ok_saying(
        &["solve", "--game", "woodpush", "--check", f],
        "proof checked: Right wins from L.L.R.R L within 25 plies",
    );
    // Another game's proof, a finished game, checkers without a position: one line each.
    fails_saying(
        &["solve", "--game", "chinese-checkers", "--check", f],
        "is the proof of another game; check it with the --game it was solved for",
    );
    // Another game's checkpoint is that, not damage to delete.
    fails_saying(
        &[
            "solve",
            "--game",
            "chinese-checkers",
            "--memory",
            "16",
            "--checkpoint",
            c,
        ],
        "is the checkpoint of another game's solve; give this solve another --checkpoint",
    );
    std::fs::remove_file(&ckpt).unwrap();
    fails_saying(
        &["solve", "--game", "woodpush", "--position", "L.L.... R"],
        "the game is over, Left has won, so there is nothing to solve",
    );
    fails_saying(&["solve", "--game", "checkers"], "give --position FEN");
    std::fs::remove_file(&file).unwrap();
    // A draw's proof: each side's holding moves, checked by the same command.
    let out = ok_saying(
        &[
            "solve", "--game", "woodpush", "--width", "9", "--memory", "16", "--quiet", "--out", f,
        ],
        "value: a draw (neither Left nor Right can force a win)",
    );
    assert!(
        out.contains("proof: ") && out.contains(" records: each side's moves"),
        "{out}"
    );
    ok_saying(
        &["solve", "--game", "woodpush", "--check", f, "--json"],
        "\"value\":\"draw\"",
    );
    ok_saying(
        &["solve", "--game", "woodpush", "--check", f],
        "proof checked: neither side can force a win from L.L...R.R L",
    );
    std::fs::remove_file(&file).unwrap();
    let cc = [
        "solve",
        "--game",
        "chinese-checkers",
        "--pieces-per-side",
        "1",
    ];
    ok_saying(
        &[&cc[..], &["--memory", "16", "--quiet"]].concat(),
        "winner: X (the side to move); perfect play lasts 25 plies",
    );
}

#[test]
fn a_stopped_solve_of_a_game_with_draws_resumes_from_its_checkpoint() {
    let file = fresh("w9.ckpt");
    let f = file.to_str().unwrap();
    let base = checkpointed(&["--game", "woodpush", "--width", "9", "--quiet"], f);
    // Width 9's two searches take about 6,600 nodes: 4,000 stops in the second.
    stop_and_resume(
        &base,
        "4000",
        f,
        "value: a draw (neither Left nor Right can force a win)",
    );
    // A damaged checkpoint: one line naming it.
    std::fs::write(&file, b"QSCHECK\0 cut").unwrap();
    let (ok, _, err) = quasar(&base);
    assert!(!ok && err.lines().count() == 1 && err.contains(f), "{err}");
    std::fs::remove_file(&file).unwrap();
}

/// The JSON answer of `quasar args --json --quiet`, which must succeed.
fn json_of(args: &[&str]) -> serde_json::Value {
    let all = [args, &["--json", "--quiet"]].concat();
    let (out, _) = common::run_ok(&all);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{all:?}: {e}: {out}"))
}

#[test]
fn every_game_writes_its_proof_in_pieces_that_merge_into_the_whole() {
    // A win of the side not to move (Woodpush width 7), a draw (width 9), a win of the side
    // to move (Chinese Checkers, one piece a side: the root's record in every piece).
    let cases: [(&str, &[&str]); 3] = [
        ("w7", &["--game", "woodpush", "--width", "7"]),
        ("w9", &["--game", "woodpush", "--width", "9"]),
        (
            "cc1",
            &["--game", "chinese-checkers", "--pieces-per-side", "1"],
        ),
    ];
    let mut first_pieces = Vec::new();
    for (name, game) in cases {
        let whole = temp(&format!("{name}.proof"));
        let w = whole.to_str().unwrap();
        let solve = [&["solve", "--memory", "16"][..], game].concat();
        let solved = json_of(&[&solve[..], &["--out", w]].concat());
        let pieces: Vec<String> = (1..=3)
            .map(|i| {
                let piece = temp(&format!("{name}.{i}"));
                let p = piece.to_str().unwrap().to_string();
                let shard = format!("{i}/3");
                let v = json_of(&[&solve[..], &["--out", &p, "--shard", &shard]].concat());
                assert_eq!(v["proof"]["whole"], false, "{v}");
                assert_eq!(
                    (&v["value"], &v["plies"]),
                    (&solved["value"], &solved["plies"])
                );
                p
            })
            .collect();
        // The first piece alone lacks the others' replies.
        let (ok, _, err) = quasar(&["solve", "--check", &pieces[0], game[0], game[1]]);
        assert!(
            !ok && err.contains("the proof does not hold"),
            "{name}: {err}"
        );
        let merged = temp(&format!("{name}.merged"));
        let m = merged.to_str().unwrap();
        let mut merge = vec!["solve", game[0], game[1], "--merge"];
        merge.extend(pieces.iter().map(String::as_str));
        merge.extend(["--out", m]);
        ok_saying(&merge, "merged from 3 pieces");
        // The merged proof proves what the unsharded solve found, as the whole proof does.
        for file in [w, m] {
            let checked = json_of(&["solve", game[0], game[1], "--check", file]);
            assert_eq!(checked["value"], solved["value"], "{name}: {checked}");
            assert_eq!(checked["plies"], solved["plies"], "{name}: {checked}");
            assert_eq!(checked["whole"], true, "{checked}");
        }
        first_pieces.push(pieces);
    }
    let (w7, w9) = (&first_pieces[0], &first_pieces[1]);
    assert_eq!(
        json_of(&["solve", "--game", "woodpush", "--width", "7"])["plies"],
        25
    );
    // Pieces of two proofs, a damaged piece, another game's piece: one line each.
    let out = temp("bad.merged");
    let o = out.to_str().unwrap();
    fails_saying(
        &[
            "solve", "--game", "woodpush", "--merge", &w7[0], &w9[1], "--out", o,
        ],
        "pieces of one proof only",
    );
    let mut bytes = std::fs::read(&w9[1]).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    let bad = temp("w9.bad");
    std::fs::write(&bad, &bytes).unwrap();
    let b = bad.to_str().unwrap();
    fails_saying(
        &[
            "solve", "--game", "woodpush", "--merge", &w9[0], b, &w9[2], "--out", o,
        ],
        "checksum",
    );
    fails_saying(
        &[
            "solve",
            "--game",
            "chinese-checkers",
            "--merge",
            &w7[0],
            "--out",
            o,
        ],
        "is the proof of another game",
    );
    assert!(!out.exists());
}

#[test]
fn every_game_answers_one_bound_of_its_length() {
    // Woodpush width 7 lasts 25 plies, Chinese Checkers with one piece a side 25 too.
    for game in [
        &["--game", "woodpush", "--width", "7"][..],
        &["--game", "chinese-checkers", "--pieces-per-side", "1"],
    ] {
        let solve = [&["solve", "--memory", "16"][..], game].concat();
        let plies = json_of(&solve)["plies"].as_u64().unwrap();
        for (bound, holds) in [(plies - 1, false), (plies, true)] {
            let b = bound.to_string();
            let v = json_of(&[&solve[..], &["--within", &b]].concat());
            assert_eq!(
                (v["within"].as_u64(), v["holds"].as_bool()),
                (Some(bound), Some(holds))
            );
        }
    }
    // The winner alone: a proof of a bound no smaller than the length, which checks.
    let loose = temp("w7-loose.proof");
    let l = loose.to_str().unwrap();
    let w7 = [
        "solve", "--game", "woodpush", "--width", "7", "--memory", "16",
    ];
    let v = json_of(&[&w7[..], &["--winner-only", "--out", l]].concat());
    assert_eq!(
        (&v["winner"], &v["plies_exact"]),
        (&"Right".into(), &false.into()),
        "{v}"
    );
    let checked = json_of(&["solve", "--game", "woodpush", "--check", l]);
    assert_eq!(checked["plies"], v["plies"], "{checked}");
    assert!(checked["plies"].as_u64().unwrap() >= 25, "{checked}");
    // A chosen bound: the exact length (25) holds and its proof checks within it; one ply
    // less fails with the advice to give more, and writes no proof.
    let tight = temp("w7-25.proof");
    let t = tight.to_str().unwrap();
    let v = json_of(&[&w7[..], &["--winner-only=25", "--out", t]].concat());
    assert_eq!(
        (&v["plies"], &v["plies_exact"]),
        (&25.into(), &false.into()),
        "{v}"
    );
    let checked = json_of(&["solve", "--game", "woodpush", "--check", t]);
    assert_eq!(checked["plies"], 25, "{checked}");
    let short = temp("w7-24.proof");
    let msg = common::fails_saying(
        &[
            &w7[..],
            &["--winner-only=24", "--out", short.to_str().unwrap()],
        ]
        .concat(),
        "no win within 24 plies, though the value's search found one: give a larger bound",
    );
    assert!(!short.exists(), "{msg}");
    // A draw has no bound: no side wins within any.
    let w9 = [
        "solve", "--game", "woodpush", "--width", "9", "--memory", "16",
    ];
    let v = json_of(&[&w9[..], &["--within", "200"]].concat());
    assert_eq!(
        (&v["value"], &v["holds"], &v["winner"]),
        (&"draw".into(), &false.into(), &serde_json::Value::Null)
    );
    ok_saying(
        &[&w9[..], &["--within", "200", "--quiet"]].concat(),
        "value: a draw (neither Left nor Right can force a win); no side wins within 200 plies",
    );
}

/// The value of a position, for its side to move, from a solve's JSON: 1 a win, 0 a draw,
/// -1 a loss, with the plies of a win or a loss.
fn value_for_mover(v: &serde_json::Value) -> (i32, Option<u64>) {
    match (v["value"].as_str(), v["winner_to_move"].as_bool()) {
        (Some("draw"), _) => (0, None),
        (_, Some(true)) => (1, v["plies"].as_u64()),
        _ => (-1, v["plies"].as_u64()),
    }
}

#[test]
fn the_listed_moves_values_are_their_childrens_and_give_the_roots() {
    // Woodpush width 7 with its retrograde table: every value known, each equal to the
    // prover's solve of the child without the table.
    let table = common::width_7_table("solve", "w7.table");
    for (width, tb) in [("7", Some(table.as_str())), ("9", None)] {
        let mut list = vec![
            "solve",
            "--game",
            "woodpush",
            "--width",
            width,
            "--list-children",
        ];
        list.extend(tb.map(|t| ["--tb", t]).into_iter().flatten());
        let (out, _) = common::run_ok(&list);
        let mut children = Vec::new();
        for line in out.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            let v = json_of(&[
                "solve",
                "--game",
                "woodpush",
                "--position",
                fields[1],
                "--memory",
                "16",
            ]);
            let (child, plies) = value_for_mover(&v);
            // The mover's value is the opposite of the child's side to move's.
            let want = match (tb, -child) {
                (None, _) => "unknown",
                (_, 1) => "wins",
                (_, 0) => "draws",
                _ => "loses",
            };
            assert_eq!(fields[2], want, "{line}");
            children.push((-child, plies));
        }
        // The root's value by the rule over its children: the best for the mover, a win as
        // fast and a loss as slow as can be.
        let best = children.iter().map(|c| c.0).max().unwrap();
        let plies = children
            .iter()
            .filter(|c| c.0 == best)
            .map(|c| c.1.unwrap_or(0));
        let plies = match best {
            1 => plies.min(),
            _ => plies.max(),
        };
        let root = json_of(&[
            "solve", "--game", "woodpush", "--width", width, "--memory", "16",
        ]);
        let (value, root_plies) = value_for_mover(&root);
        assert_eq!(value, best, "width {width}: {out}");
        assert_eq!(
            root_plies,
            (best != 0).then(|| plies.unwrap() + 1),
            "width {width}"
        );
    }
}
