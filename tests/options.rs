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
        "--quiet",
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
fn the_exploration_constant_is_bounded_alike_as_a_flag_and_a_key() {
    let why = "the exploration constant must be a number from 0 to 100, such as 0.4";
    for c in ["1e300", "100.5", "-1", "NaN", "inf"] {
        let e = error(&["bestmove", "--board", "5x5", &format!("--c={c}")]);
        assert!(e.contains(&format!("'{c}' for '--c <C>': {why}")), "{e}");
        let spec = format!("mcts:c={c}");
        let e = error(&["arena", "--player", &spec, "--player", "random"]);
        assert!(e.contains(&format!("c={c}: {why}")), "{e}");
    }
    let (ok, out, err) = quasar(&["bestmove", "--board", "5x5", "--c", "100", "--sims", "10"]);
    assert!(ok && out.starts_with("bestmove "), "{err}");
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

#[test]
fn every_help_screen_has_examples_and_the_top_one_names_the_games() {
    for cmd in [
        &[][..],
        &["perft"],
        &["show"],
        &["bench"],
        &["bestmove"],
        &["play"],
        &["gtp"],
        &["tablebase"],
        &["tablebase", "build"],
        &["tablebase", "plan"],
        &["tablebase", "info"],
        &["tablebase", "probe"],
        &["tablebase", "verify"],
        &["arena"],
        &["arena", "report"],
        &["replay"],
        &["solve"],
    ] {
        let (ok, out, err) = quasar(&[cmd, &["--help"]].concat());
        assert!(ok, "{cmd:?}: {err}");
        assert!(out.contains("\nExamples:\n  quasar "), "{cmd:?}: {out}");
    }
    let top = quasar(&["--help"]).1;
    for game in ["breakthrough", "woodpush", "chinese-checkers", "checkers"] {
        assert!(top.contains(game), "{game}: {top}");
    }
}

#[test]
fn each_game_has_one_default_size() {
    let size = |args: &[&str]| {
        let (ok, out, err) = quasar(&[args, &["--sims", "20", "--json"]].concat());
        assert!(ok, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["size"].as_str().unwrap().to_string()
    };
    assert_eq!(size(&["bestmove"]), "6x6");
    assert_eq!(size(&["bestmove", "--game", "woodpush"]), "width 7");
    assert_eq!(
        size(&["bestmove", "--game", "chinese-checkers", "--engine", "mcts"]),
        "7x7, 2 pieces a side"
    );
    let perft = |args: &[&str]| quasar(&[&["perft", "--depth", "1"], args].concat()).1;
    assert!(
        perft(&[]).starts_with("perft 6x6 depth 1"),
        "{}",
        perft(&[])
    );
    assert!(perft(&["--game", "woodpush"]).starts_with("perft width 7 depth 1"));
    let w = temp("options", "w-default.qrt");
    let out = common::build_table(&["--game", "woodpush"], w.to_str().unwrap());
    assert!(out.contains("woodpush width 7, every position"), "{out}");
    let (_, help, _) = quasar(&["solve", "--help"]);
    assert!(help.contains("[default: 5x5]"), "{help}");
    let _ = std::fs::remove_file(&w);
}

#[test]
fn a_bad_side_lists_the_games_own_sides() {
    for (game, sides) in [
        ("breakthrough", "give white, black, first or second"),
        ("woodpush", "give left, right, first or second"),
        ("chinese-checkers", "give x, o, first or second"),
        ("checkers", "give black, white, first or second"),
    ] {
        let e = error(&["play", "--game", game, "--human", "green"]);
        assert!(e.contains(sides), "{game}: {e}");
    }
}

#[test]
fn bench_prints_the_same_rates_for_every_game() {
    for (args, header, first) in [
        (&["--board", "5x5"][..], "breakthrough 5x5", "White"),
        (&["--game", "woodpush"], "woodpush width 7", "Left"),
        (
            &["--game", "chinese-checkers", "--pieces-per-side", "1"],
            "chinese-checkers 7x7, 1 pieces a side",
            "X",
        ),
        (&["--game", "checkers"], "checkers 8x8", "Black"),
    ] {
        let (ok, out, err) =
            quasar(&[&["bench", "--seconds", "0.05", "--seed", "5"], args].concat());
        assert!(ok, "{args:?}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], "seed 5, 0.05 s per measurement, single thread");
        assert_eq!(lines[1], header);
        assert!(lines[2].starts_with("  move generation: "), "{out}");
        assert!(lines[2].contains(" M perft leaves/s "), "{out}");
        assert!(lines[3].starts_with("  random playouts: "), "{out}");
        assert!(lines[3].contains(" plies/playout "), "{out}");
        assert!(lines[3].contains(&format!("({first} wins ")), "{out}");
    }
    let e = error(&["bench", "--game", "woodpush", "--plain"]);
    assert!(e.contains("--plain is not an option of woodpush"), "{e}");
    // A measurement's length has a range, said whole; a 300-digit duration is not one.
    for bad in ["1e-300", "0", "-1", "NaN", "inf", "3601", "0.009"] {
        assert_eq!(
            error(&["bench", &format!("--seconds={bad}")]),
            format!(
                "error: invalid value '{bad}' for '--seconds <SECONDS>': give 0.01 to 3600 \
                 seconds, not {bad} (see 'quasar --help')"
            )
        );
    }
}
