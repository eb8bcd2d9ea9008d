//! End-to-end tests of the `quasar` binary: perft, show and bench output, and bad input.
//! Expected counts come from the plain reference implementation of the engine's tests.

#[path = "../games/breakthrough/tests/reference/mod.rs"]
mod reference;

use reference::RefPos;
use std::process::{Command, Output};

fn quasar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("the quasar binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a command that must succeed and returns its standard output.
fn ok(args: &[&str]) -> String {
    let out = quasar(args);
    assert!(
        out.status.success(),
        "quasar {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

/// The total from perft's last line, `perft WxH depth D: N`.
fn perft_total(text: &str, board: &str, depth: u32) -> u64 {
    let last = text.lines().last().expect("perft prints a line");
    let prefix = format!("perft {board} depth {depth}: ");
    let n = last
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("unexpected perft line '{last}'"));
    n.parse().expect("a count")
}

#[test]
fn perft_counts_match_the_reference() {
    for (w, h, depth) in [(8, 8, 4), (6, 6, 5), (5, 5, 5), (6, 5, 4), (3, 7, 6)] {
        let board = format!("{w}x{h}");
        let text = ok(&["perft", "--board", &board, "--depth", &depth.to_string()]);
        let expected = RefPos::start(w, h).perft(depth);
        assert_eq!(perft_total(&text, &board, depth), expected, "{board}");
    }
    let fen = "5/1B3/5/W4/5 w";
    let text = ok(&["perft", "--position", fen, "--depth", "7"]);
    let expected = RefPos::from_fen(fen).unwrap().perft(7);
    assert_eq!(perft_total(&text, "5x5", 7), expected);
}

#[test]
fn divide_lists_every_first_move_and_sums_to_the_total() {
    let fen = "BBBBBB/BBBBBB/6/2W3/WW1WWW/WWWWWW b";
    let text = ok(&["perft", "--position", fen, "--depth", "4", "--divide"]);
    let refpos = RefPos::from_fen(fen).unwrap();
    let mut expected: Vec<(String, u64)> = refpos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = refpos.clone();
            child.play(m);
            (refpos.move_text(m), child.perft(3))
        })
        .collect();
    expected.sort();
    let mut listed: Vec<(String, u64)> = text
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (mv, n) = l.split_once(' ').expect("'move count'");
            (mv.to_string(), n.parse().expect("a count"))
        })
        .collect();
    listed.sort();
    assert_eq!(listed, expected);
    let sum: u64 = listed.iter().map(|(_, n)| n).sum();
    assert_eq!(perft_total(&text, "6x6", 4), sum);
    assert_eq!(sum, refpos.perft(4));
}

#[test]
fn game_breakthrough_is_the_default() {
    for args in [
        &["perft", "--board", "6x5", "--depth", "4"][..],
        &["show", "2B2/5/1W3/5/4W b"],
    ] {
        let plain = ok(args);
        let mut named = vec![args[0], "--game", "breakthrough"];
        named.extend_from_slice(&args[1..]);
        assert_eq!(ok(&named), plain, "{args:?}");
    }
}

#[test]
fn show_prints_the_diagram_of_the_position() {
    let fen = "2B2/5/1W3/5/4W b";
    let text = ok(&["show", fen]);
    let refpos = RefPos::from_fen(fen).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Rows 5 down to 1, each labelled, then the column letters.
    for (i, row) in (0..5).rev().enumerate() {
        let mut words = lines[i].split_whitespace();
        assert_eq!(words.next(), Some((row + 1).to_string().as_str()));
        let cells: String = words.collect();
        let expected: String = refpos.cells[row]
            .iter()
            .map(|c| match c {
                reference::Cell::White => 'W',
                reference::Cell::Black => 'B',
                reference::Cell::Empty => '.',
            })
            .collect();
        assert_eq!(cells, expected, "row {}", row + 1);
    }
    assert_eq!(lines[5].split_whitespace().collect::<String>(), "abcde");
    assert!(text.contains("Black to move"), "{text}");
    assert!(text.contains(fen), "{text}");
    // A finished game says so.
    let over = ok(&["show", "W2/3/1B1/3 b"]);
    assert!(over.contains("game over: White wins"), "{over}");
}

#[test]
fn bench_prints_the_seed_and_rates() {
    let text = ok(&[
        "bench",
        "--board",
        "5x5",
        "--seconds",
        "0.05",
        "--seed",
        "7",
    ]);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("seed 7"), "{text}");
    assert!(text.contains("\nbreakthrough 5x5\n"), "{text}");
    assert!(text.contains("leaves/s"), "{text}");
    assert!(text.contains("playouts/s"), "{text}");
    assert!(text.contains("plies/playout"), "{text}");
    assert!(
        !text.contains("6x6"),
        "--board restricts the boards: {text}"
    );
}

#[test]
fn help_teaches_with_examples() {
    for cmd in ["perft", "show", "bench"] {
        let text = ok(&[cmd, "--help"]);
        assert!(text.contains("Examples:"), "{cmd} --help: {text}");
    }
}

#[test]
fn perft_to_the_largest_depth_ends_with_the_games() {
    // Every game on these boards ends within a few plies, so a depth of u32::MAX counts the
    // whole game tree at once instead of reserving memory for four billion plies.
    let depth = u32::MAX.to_string();
    let over = "W2/3/3/3/3 b";
    let text = ok(&["perft", "--position", over, "--depth", &depth]);
    assert_eq!(perft_total(&text, "3x5", u32::MAX), 1);
    let tiny = "1B1/3/1W1 w";
    let text = ok(&["perft", "--position", tiny, "--depth", &depth]);
    let whole_tree = RefPos::from_fen(tiny).unwrap().perft(64);
    assert_eq!(perft_total(&text, "3x3", u32::MAX), whole_tree);
    assert!(whole_tree > 1);
}

#[test]
fn bad_input_is_a_one_line_error() {
    let cases: &[&[&str]] = &[
        &["perft", "--board", "9x9"],
        &["perft", "--board", "2x5"],
        &["perft", "--board", "8"],
        &["perft", "--board", "3x1431655766"],
        &["perft", "--board", "3x3"],
        &["perft", "--depth", "x"],
        &["perft", "--depth", "-1"],
        &["perft", "--depth"],
        &["perft", "--frobnicate"],
        &["perft", "--position", "BBB/BB/WWW w"],
        &[
            "perft",
            "--position",
            "BBBBBBBBB/BBBBBBBBB/9/9/9/9/WWWWWWWWW/WWWWWWWWW w",
        ],
        &[
            "perft",
            "--position",
            "BBB/BBB/3/WWW/WWW w",
            "--board",
            "4x4",
        ],
        &["show"],
        &["show", ""],
        &["show", "BBB/BBB/3/WWW/WWW"],
        &["show", "BBB/BBB/3/WWQ/WWW w"],
        &["show", "BBB/BBB/3/WWW/WWW x"],
        &["show", "W2/3/3/3/B2 w"],
        &["show", "a", "b"],
        &["bench", "--seconds", "0"],
        &["bench", "--seconds", "soon"],
        &["bench", "--board", "5x3"],
        &["bench", "--seed", "-3"],
        &["nosuchcommand"],
        &["perft", "--game", "chess"],
        &["show", "--game", "woodpush", "W2/3/3/3 w"],
        &["bestmove", "--board", "3x3"],
        &["bestmove", "--sims", "0"],
        &["bestmove", "--time", "5"],
        &["play", "--board", "5x3"],
        &["gtp", "--board", "3x3"],
        &[
            "arena", "--board", "5x3", "--player", "random", "--player", "mcts",
        ],
    ];
    for &args in cases {
        let out = quasar(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "quasar {args:?} succeeded");
        assert!(!err.contains("panicked"), "quasar {args:?} panicked: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "quasar {args:?} printed: {err}");
        assert!(lines[0].starts_with("error: "), "quasar {args:?}: {err}");
        assert!(
            lines[0].len() > "error: ".len() + 10,
            "quasar {args:?}: {err}"
        );
        assert!(stdout(&out).is_empty(), "quasar {args:?} printed to stdout");
    }
}
