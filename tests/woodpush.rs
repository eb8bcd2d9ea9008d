//! End-to-end Woodpush on the command line: `tablebase build | info | probe | verify` with the
//! paper's widths, endgame tables of few pieces, perft against the library, the size options
//! of each game, and tables as the engine's oracle in `bestmove` and the arena.

use quasar_core::{perft, Game};
use std::path::PathBuf;
use woodpush::Position;

mod common;

use common::{ok_saying, one_error_line, quasar};

/// A scratch path for this file's tests.
fn temp(name: &str) -> PathBuf {
    common::temp("wood", name)
}

/// Builds the table of `width` (and `extra` options) into `name`; its standard output.
fn build(width: u32, name: &str, extra: &[&str]) -> (PathBuf, String) {
    let file = temp(name);
    let w = width.to_string();
    let args = [&["--game", "woodpush", "--width", &w], extra].concat();
    let out = common::build_table(&args, file.to_str().unwrap());
    (file, out)
}

#[test]
fn width_7_is_a_win_for_right_by_4_with_no_draws() {
    let (file, out) = build(7, "w7.qrt", &[]);
    assert!(
        out.contains("start L.L.R.R L: Right wins by 4, the game ends in 25 plies"),
        "{out}"
    );
    assert!(
        out.contains("draws (no side can force an end): 0 with Left to move, 0 with Right to move"),
        "{out}"
    );
    assert!(out.contains("positions: 5270"), "{out}");
    assert!(out.contains("work: exact scores"), "{out}");
    assert!(out.contains("time: "), "{out}");
    assert!(file.is_file());
    // Nothing half-written is left next to it.
    assert!(!file.with_extension("tmp").exists());

    // The start: Left to move loses; the table knows a move that keeps the game longest.
    let f = file.to_str().unwrap();
    let out = ok_saying(
        &["tablebase", "probe", f, "--position", "L.L.R.R L"],
        "detail: score -4 (Right wins by 4)",
    );
    assert!(out.contains("Left to move: loss in 25 plies"), "{out}");
    assert!(out.contains("best move: "), "{out}");
    // A lone Left piece next to the far end steps off at once: Right wins by its pieces.
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "R.....L L"]);
    assert!(ok);
    assert!(out.contains("detail: score -1 (Right wins by 1)"), "{out}");
    assert!(out.contains("Left to move: loss in 1 ply"), "{out}");

    ok_saying(
        &["tablebase", "verify", f],
        "checked 5270 positions against their moves: 0 inconsistent",
    );
    // A table checked whole has no sample to choose: the options are refused, not ignored.
    for flag in ["--samples", "--seed"] {
        let e = one_error_line(&["tablebase", "verify", f, flag, "5"]);
        assert_eq!(
            e.trim_end(),
            format!(
                "error: {flag} chooses a sample, but a Woodpush table is checked whole: drop {flag}"
            )
        );
    }
}

#[test]
fn width_9_is_a_draw_with_933_draws_per_side() {
    let (file, out) = build(9, "w9.qrt", &[]);
    assert!(out.contains("start L.L...R.R L: a draw (score 0)"), "{out}");
    assert!(
        out.contains(
            "draws (no side can force an end): 933 with Left to move, 933 with Right to move"
        ),
        "{out}"
    );
    let f = file.to_str().unwrap();
    let out = ok_saying(
        &["tablebase", "info", f],
        "table: woodpush, width 9, every position",
    );
    assert!(out.contains("start: a draw (score 0)"), "{out}");
    assert!(out.contains("draws with Left to move: 933"), "{out}");
    let (ok, out, _) = quasar(&["tablebase", "probe", f, "--position", "L.L...R.R L"]);
    assert!(ok);
    assert!(
        out.contains("Left to move: draw\n") && out.contains("detail: score 0: play never ends"),
        "{out}"
    );

    // Probes the table cannot answer, each as one line.
    let e = one_error_line(&["tablebase", "probe", f, "--position", "L.L.R.R L"]);
    assert!(e.contains("width 7 but the table is for width 9"), "{e}");
    let e = one_error_line(&["tablebase", "probe", f, "--position", "L.X...R.R L"]);
    assert!(e.contains("bad cell"), "{e}");
}

#[test]
fn damaged_or_foreign_files_are_one_error_line() {
    let (file, _) = build(8, "w8.qrt", &[]);
    let f = file.to_str().unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x40;
    let damaged = temp("w8-damaged.qrt");
    std::fs::write(&damaged, &bytes).unwrap();
    for cmd in ["info", "verify"] {
        let e = one_error_line(&["tablebase", cmd, damaged.to_str().unwrap()]);
        assert!(e.contains("w8-damaged.qrt"), "{e}");
    }
    let e = one_error_line(&[
        "tablebase",
        "probe",
        damaged.to_str().unwrap(),
        "--position",
        "L.L..R.R L",
    ]);
    assert!(e.contains("w8-damaged.qrt"), "{e}");

    // A Woodpush table given as Breakthrough's, and the other way round.
    let e = one_error_line(&["tablebase", "info", "--game", "breakthrough", f]);
    assert!(
        e.contains("is a Woodpush table, not a Breakthrough one"),
        "{e}"
    );
    let bt = temp("bt443.qtb");
    common::build_table(&["--board", "4x4", "--rows", "3"], bt.to_str().unwrap());
    let e = one_error_line(&[
        "tablebase",
        "verify",
        "--game",
        "woodpush",
        bt.to_str().unwrap(),
    ]);
    assert!(
        e.contains("is a Breakthrough table, not a Woodpush one"),
        "{e}"
    );
    // Without --game the file's own kind decides.
    ok_saying(&["tablebase", "info", bt.to_str().unwrap()], "board: 4x4");
    let e = one_error_line(&[
        "tablebase",
        "info",
        "--game",
        "woodpush",
        "/nonexistent.qrt",
    ]);
    assert!(e.contains("/nonexistent.qrt"), "{e}");
}

#[test]
fn an_endgame_table_of_few_pieces_on_a_wide_strip() {
    let (file, out) = build(18, "w18-p3.qrt", &["--max-pieces", "3"]);
    assert!(
        out.contains("woodpush width 18, the positions of at most 3 pieces"),
        "{out}"
    );
    assert!(out.contains("start: not in the table"), "{out}");
    let f = file.to_str().unwrap();
    ok_saying(&["tablebase", "verify", f], "0 inconsistent");
    let (ok, out, _) = quasar(&[
        "tablebase",
        "probe",
        f,
        "--position",
        "L................R R",
    ]);
    assert!(ok);
    assert!(out.contains("detail: score "), "{out}");
    let e = one_error_line(&[
        "tablebase",
        "probe",
        f,
        "--position",
        "L.L............R.R R",
    ]);
    assert!(e.contains("at most 3 pieces; this one has 4"), "{e}");
    // Too wide to index whole without a piece limit: said before any work.
    let e = one_error_line(&[
        "tablebase",
        "build",
        "--game",
        "woodpush",
        "--width",
        "18",
        "-o",
        temp("never.qrt").to_str().unwrap(),
    ]);
    assert!(e.contains("limit the pieces"), "{e}");
    assert!(!temp("never.qrt").exists());
}

#[test]
fn perft_counts_are_the_librarys() {
    for (width, depth) in [(7, 8), (9, 6), (12, 5)] {
        let pos = Position::start(width).unwrap();
        let expected = perft(&pos, depth);
        let (w, d) = (width.to_string(), depth.to_string());
        ok_saying(
            &["perft", "--game", "woodpush", "--width", &w, "--depth", &d],
            &format!("perft width {width} depth {depth}: {expected}"),
        );
    }
    // From a position with a ko, divided by first move.
    let text = "L.RL....R R L..RL...R";
    let pos = Position::parse_position(text).unwrap();
    let out = ok_saying(
        &[
            "perft",
            "--game",
            "woodpush",
            "--position",
            text,
            "--depth",
            "4",
            "--divide",
        ],
        &format!("perft width 9 depth 4: {}", perft(&pos, 4)),
    );
    assert!(
        !out.contains("\n8>"),
        "the ko forbids Right's push 8>: {out}"
    );
}

#[test]
fn size_options_belong_to_their_game() {
    for (args, want) in [
        (
            "perft --game woodpush --board 6x6",
            "--board is not an option of woodpush: its size is --width N",
        ),
        (
            "bestmove --width 9",
            "--width is not an option of breakthrough: its size is --board WxH",
        ),
        (
            "perft --game woodpush --width 5",
            "needs a strip of 6 to 31 cells, not 5",
        ),
        (
            "perft --game woodpush --width 9 --pieces 3",
            "3 pieces a side",
        ),
        (
            "perft --game woodpush --width 7 --position L.L...R.R_L",
            "width 7 but the position is width 9",
        ),
        (
            "tablebase build --game woodpush --width 7 --rows 3",
            "--rows is not an option of woodpush tables",
        ),
    ] {
        let args = common::words(args);
        let e = one_error_line(&common::strs(&args));
        assert!(e.contains(want), "{args:?}: {e}");
    }
}

#[test]
fn show_play_and_gtp_speak_woodpush() {
    let (ok, out, err) = quasar(&["show", "--game", "woodpush", "L.RL....R R L..RL...R"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("L . R L . . . . R\n1 2 3 4 5 6 7 8 9\n"),
        "{out}"
    );
    assert!(
        out.contains("the ko forbids pushing back to L..RL...R"),
        "{out}"
    );

    let (_, out, _) = common::with_input(
        &["gtp", "--game", "woodpush", "--width", "8", "--sims", "200"],
        b"showboard\nplay left 1>\ngenmove right\nboardsize 5\nquit\n",
    );
    assert!(out.contains("L . L . . R . R"), "{out}");
    assert!(out.contains("= \n\n= ") || out.contains("=\n\n= "), "{out}");
    assert!(
        out.contains("needs a strip of 6 to 31 cells, not 5"),
        "{out}"
    );
}

#[test]
fn a_table_proves_the_start_and_plays_in_the_arena() {
    let (file, _) = build(7, "w7-oracle.qrt", &[]);
    let f = file.to_str().unwrap();
    ok_saying(
        &[
            "bestmove", "--game", "woodpush", "--width", "7", "--sims", "500", "--tb", f,
        ],
        "proven loss for Left within 25 plies",
    );
    let e = one_error_line(&[
        "bestmove", "--game", "woodpush", "--width", "9", "--sims", "50", "--tb", f,
    ]);
    assert!(
        e.contains("is for width 7, but the game is on width 9"),
        "{e}"
    );

    let out_dir = temp("arena");
    let spec = format!("mcts:tb={f}");
    let (ok, out, err) = quasar(&[
        "arena",
        "--game",
        "woodpush",
        "--width",
        "7",
        "--player",
        &spec,
        "--player",
        "mcts",
        "--games",
        "4",
        "--sims",
        "200",
        "--jobs",
        "1",
        "--ply-cap",
        "60",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("width 7, 200 sims per move, 4 games"),
        "{out}"
    );
    let record = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    assert_eq!(record.lines().count(), 4);
    assert!(record.contains(r#""game":"woodpush""#), "{record}");
}

#[test]
fn a_fifo_is_not_waited_on() {
    let fifo = temp("pipe.qrt");
    let _ = std::fs::remove_file(&fifo);
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches no memory of ours.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let e = one_error_line(&[
        "tablebase",
        "info",
        "--game",
        "woodpush",
        fifo.to_str().unwrap(),
    ]);
    assert!(e.contains("not a regular file"), "{e}");
}
