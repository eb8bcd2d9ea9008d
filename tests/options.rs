//! One command line: engine options with the names of their `mcts:` keys, piece counts named
//! for what they count, the old names as hidden aliases, and another game's options refused
//! by name.

mod common;

use common::{quasar, temp};

/// The one error line of a failed run.
fn error(args: &[&str]) -> String {
    let (ok, out, err) = quasar(args);
    assert!(!ok, "{args:?} should fail: {out}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    err.trim().to_string()
}

#[test]
fn another_games_options_are_refused_by_name() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["bestmove", "--game", "woodpush", "--eval-after", "3"],
            "error: --eval-after is not an option of woodpush: its playouts take",
        ),
        (
            &["bestmove", "--game", "checkers", "--win-in-one", "off"],
            "error: --win-in-one is not an option of checkers: its playouts",
        ),
        (
            &["bestmove", "--width", "9"],
            "error: --width is not an option of breakthrough: its size is --board WxH",
        ),
        (
            &["perft", "--game", "checkers", "--pieces-per-side", "3"],
            "error: --pieces-per-side is not an option of checkers",
        ),
        (
            &["play", "--game", "chinese-checkers", "--board", "6x6"],
            "error: --board is not an option of chinese-checkers: it is played on 7x7",
        ),
        (
            &[
                "tablebase",
                "build",
                "--game",
                "checkers",
                "--max-pieces",
                "2",
                "--rows",
                "3",
            ],
            "error: --rows is not an option of checkers tables",
        ),
        (
            &["bestmove", "--engine", "ab", "--verdicts", "off"],
            "error: --verdicts is an MCTS option",
        ),
    ];
    for (args, want) in cases {
        let e = error(args);
        assert!(e.starts_with(want), "{args:?}: {e}");
    }
    let (ok, out, err) = quasar(&[
        "arena",
        "--game",
        "woodpush",
        "--player",
        "mcts:capture-weight=2",
        "--player",
        "random",
        "--games",
        "2",
        "--sims",
        "10",
        "--no-progress",
        "--out",
        temp("options", "arena").to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("capture-weight= is not an option of woodpush"),
        "{err}"
    );
}

#[test]
fn engine_flags_have_their_keys_names_and_the_old_names_still_work() {
    let base = ["bestmove", "--board", "5x5", "--sims", "300", "--seed", "4"];
    for (new, old) in [
        (&["--win-in-one", "off"][..], &["--no-win-in-one"][..]),
        (&["--verdicts", "off"], &["--no-verdicts"]),
        (&["--playout", "full"], &["--playout", "policy"]),
        (&["--stop-threats", "off"], &["--no-stop-threats"]),
    ] {
        let (ok, a, err) = quasar(&[&base[..], new].concat());
        assert!(ok, "{new:?}: {err}");
        let (ok, b, err) = quasar(&[&base[..], old].concat());
        assert!(ok, "{old:?}: {err}");
        // The same search: the same move, simulations and value.
        assert_eq!(a.lines().next(), b.lines().next(), "{new:?} {old:?}");
        assert_eq!(a.lines().nth(2), b.lines().nth(2), "{new:?} {old:?}");
    }
    let e = error(&["bestmove", "--every", "2"]);
    assert!(e.contains("--tb"), "{e}");
}

#[test]
fn piece_counts_are_named_for_what_they_count() {
    let per_side = |flag: &str| {
        let (ok, out, err) = quasar(&[
            "perft",
            "--game",
            "chinese-checkers",
            flag,
            "2",
            "--depth",
            "3",
        ]);
        assert!(ok, "{flag}: {err}");
        out
    };
    assert_eq!(per_side("--pieces-per-side"), per_side("--pieces"));
    let plan = |flag: &str| {
        let (ok, out, err) = quasar(&["tablebase", "plan", "--game", "checkers", flag, "2"]);
        assert!(ok, "{flag}: {err}");
        out
    };
    let lines = plan("--max-pieces");
    assert!(lines.lines().count() >= 2, "{lines}");
    assert_eq!(lines, plan("--pieces"));
    let e = error(&["tablebase", "plan", "--game", "checkers"]);
    assert!(e.contains("--max-pieces N"), "{e}");
    let e = error(&[
        "tablebase",
        "build",
        "--game",
        "woodpush",
        "--width",
        "9",
        "--pieces-per-side",
        "2",
    ]);
    assert!(
        e.contains("--pieces-per-side is not an option of woodpush tables"),
        "{e}"
    );
    let help = quasar(&["bestmove", "--help"]).1;
    assert!(help.contains("--pieces-per-side <K>"), "{help}");
    assert!(!help.contains("--pieces <"), "the old name is hidden");
    assert!(!help.contains("--oracle-every"), "the old name is hidden");
}
