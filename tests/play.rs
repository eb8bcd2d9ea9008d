//! End-to-end runs of `quasar bestmove` and `quasar play` with piped input.

mod common;

fn quasar(args: &[&str], input: &str) -> (bool, String, String) {
    common::with_input(args, input.as_bytes())
}

#[test]
fn bestmove_takes_the_win_and_prints_statistics() {
    // White's b3 piece reaches row 4 of the 4x4 board in one move (b3-a4, b3-b4 or b3-c4).
    let (out, _) = common::run_ok(&[
        "bestmove",
        "--position",
        "4/1W2/B3/4 w",
        "--sims",
        "100",
        "--seed",
        "1",
    ]);
    let mv = out.lines().next().unwrap();
    assert!(
        ["bestmove b3-a4", "bestmove b3-b4", "bestmove b3-c4"].contains(&mv),
        "{out}"
    );
    for field in [
        "simulations ",
        "value ",
        "pv ",
        "proven win for White within 1 ply",
        "tree ",
    ] {
        assert!(out.contains(field), "{field} missing: {out}");
    }
}

#[test]
fn bestmove_is_reproducible_with_seed_and_sims() {
    let args = [
        "bestmove", "--board", "6x6", "--sims", "5000", "--seed", "9",
    ];
    let a = quasar(&args, "").1;
    let b = quasar(&args, "").1;
    let first = |s: &str| s.lines().next().unwrap().to_string();
    assert_eq!(first(&a), first(&b));
    let pv = |s: &str| s.lines().find(|l| l.starts_with("pv")).unwrap().to_string();
    assert_eq!(pv(&a), pv(&b));
}

#[test]
fn bestmove_reports_bad_options() {
    let (ok, _, err) = quasar(&["bestmove", "--time", "fast"], "");
    assert!(!ok && err.contains("bad duration 'fast'"), "{err}");
    let (ok, _, err) = quasar(&["bestmove", "--sims", "0"], "");
    assert!(!ok && err.contains("at least one simulation"), "{err}");
    let (ok, _, err) = quasar(&["bestmove", "--game", "go"], "");
    assert!(
        !ok && err.contains("'go'") && err.contains("breakthrough"),
        "{err}"
    );
    let (ok, _, err) = quasar(
        &["bestmove", "--board", "6x6", "--position", "4/4/4/4 w"],
        "",
    );
    assert!(!ok && err.contains("error:"), "{err}");
}

#[test]
fn play_reads_moves_from_a_pipe() {
    let (ok, out, err) = quasar(
        &["play", "--board", "5x5", "--sims", "300"],
        "b2-b3\nzz\nmoves\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("your move (White): b2-b3"), "{out}");
    assert!(out.contains("quasar plays "), "{out}");
    assert!(out.contains("error: bad move 'zz'"), "{out}");
    assert!(out.contains("legal moves: "), "{out}");
    assert!(out.contains("you resign; Black wins"), "{out}");
}

#[test]
fn play_as_black_until_input_ends() {
    let (out, _) = common::run_ok(&[
        "play", "--board", "4x4", "--human", "black", "--sims", "200",
    ]);
    assert!(out.starts_with(" 4  B B B B"), "{out}");
    assert!(out.contains("quasar plays "), "{out}");
    assert!(out.contains("end of input: game abandoned"), "{out}");
}

#[test]
fn durations_read_alike_everywhere() {
    // The arena always took 900us; bestmove refused it before durations had one reader.
    let (out, _) = common::run_ok(&["bestmove", "--board", "6x6", "--time", "900us"]);
    assert!(out.starts_with("bestmove "), "{out}");
    let (out, _) = common::run_ok(&[
        "bestmove",
        "--game",
        "breakthrough",
        "--board",
        "5x5",
        "--time",
        "0.05s",
    ]);
    assert!(out.starts_with("bestmove "), "{out}");
}

#[test]
fn play_accepts_the_games_side_names() {
    let (out, _) = common::run_ok(&[
        "play", "--board", "4x4", "--human", "second", "--sims", "50",
    ]);
    assert!(out.contains("quasar plays "), "{out}");
    let (ok, _, err) = quasar(&["play", "--human", "green"], "");
    assert!(
        !ok && err.contains("--human green: give white, black, first or second"),
        "{err}"
    );
}

#[test]
fn play_answers_an_endless_line_without_waiting_for_its_end() {
    common::answers_endless_line(
        &["play", "--board", "5x5", "--sims", "100"],
        "that line is longer than 16384 bytes; type a move",
        10,
    );
}

#[test]
fn play_answers_a_line_too_long_or_not_text_and_goes_on() {
    let mut input = vec![b'x'; 1 << 20];
    input.extend_from_slice(b"\n\xff\xfe b2-b3\nb2-b3\nquit\n");
    let (ok, out, err) = common::with_input(&["play", "--board", "5x5", "--sims", "100"], &input);
    assert!(ok, "{err}");
    assert!(
        out.contains("that line is longer than 16384 bytes; type a move"),
        "{out}"
    );
    assert!(
        out.contains("that line is not text (invalid UTF-8); type a move"),
        "{out}"
    );
    assert!(out.contains("quasar plays "), "{out}");
    assert!(out.len() < 10_000, "the long line is not echoed");
}
