//! The alpha-beta player end to end: `bestmove --engine ab`, `ab` in the arena and GTP, and
//! its bad input.

mod common;
use common::{ok_saying, quasar, temp};

#[test]
fn bestmove_with_alpha_beta_plays_a_win_in_one_and_says_it_is_proven() {
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--engine",
        "ab",
        "--position",
        "6/3W2/6/6/1B4/6 w",
        "--depth",
        "4",
    ]);
    assert!(ok, "{err}");
    assert!(out.starts_with("bestmove d5-"), "{out}");
    assert!(out.contains("proven win for White within 1 ply"), "{out}");
    // A finished game has no move to search.
    ok_saying(
        &[
            "bestmove",
            "--engine",
            "ab",
            "--position",
            "3W2/6/6/6/1B4/6 b",
        ],
        "bestmove none (the game is over)",
    );
}

#[test]
fn every_game_has_an_alpha_beta_player() {
    for game in ["breakthrough", "woodpush", "chinese-checkers", "checkers"] {
        let (ok, out, err) = quasar(&[
            "bestmove", "--game", game, "--engine", "ab", "--time", "50ms",
        ]);
        assert!(ok, "{game}: {err}");
        assert!(
            out.starts_with("bestmove ") && out.contains("depth"),
            "{game}: {out}"
        );
    }
}

#[test]
fn each_game_has_its_default_engine_and_options_select_their_own() {
    // Chinese Checkers, Woodpush and Breakthrough from 8 rows without a shipped model play
    // alpha-beta by default (it won their matches), the others MCTS.
    for (game, board, word) in [
        ("chinese-checkers", None, "depth"),
        ("checkers", None, "simulations"),
        ("woodpush", None, "depth"),
        ("breakthrough", Some("6x6"), "simulations"),
        ("breakthrough", Some("8x8"), "simulations"),
        ("breakthrough", Some("7x8"), "depth"),
    ] {
        let mut args = vec!["bestmove", "--game", game, "--time", "50ms", "--json"];
        args.extend(board.iter().flat_map(|b| ["--board", b]));
        let (ok, out, err) = quasar(&args);
        assert!(ok && out.contains(word), "{game} {board:?}: {out}{err}");
        let engine = if word == "depth" { "ab" } else { "mcts" };
        assert!(
            out.contains(&format!("\"engine\":\"{engine}\"")),
            "{game}: {out}"
        );
    }
    // 7x8's default alpha-beta searches with MCTS's evaluation, `--engine ab` with its own:
    // with White's home row empty and Black's full they value the position differently.
    let eval_at = |position: &[&str], extra: &[&str]| {
        let mut args = vec!["bestmove", "--depth", "2", "--json"];
        args.extend(position);
        args.extend(extra);
        let (ok, out, err) = quasar(&args);
        assert!(ok, "{extra:?}: {err}");
        let at = out.find("\"eval\":").expect("an eval key") + 7;
        out[at..].split([',', '}']).next().unwrap().to_string()
    };
    let white_off_home = ["--position", "BBBBBBB/BBBBBBB/7/7/7/7/WWWWWWW/7 w"];
    let eval_of = |extra: &[&str]| eval_at(&white_off_home, extra);
    assert_ne!(eval_of(&[]), eval_of(&["--engine", "ab"]));
    assert_eq!(eval_of(&[]), eval_of(&["--eval", "mcts"]));
    assert_eq!(eval_of(&["--engine", "ab"]), eval_of(&["--eval", "ab"]));
    // Checkers' alpha-beta, selected by an option of its own (`--depth`), searches with the
    // hand-written evaluation as `--engine ab` does; `--net builtin` gives it the model.
    let checkers = |extra: &[&str]| eval_at(&["--game", "checkers"], extra);
    let hand_written = checkers(&["--engine", "ab"]);
    assert_eq!(checkers(&[]), hand_written);
    assert_eq!(
        checkers(&["--net", "builtin"]),
        checkers(&["--engine", "ab", "--net", "builtin"])
    );
    assert_ne!(checkers(&["--net", "builtin"]), hand_written);
    assert_eq!(checkers(&["--eval", "ab"]), hand_written);
    assert_eq!(checkers(&["--net", "off"]), hand_written);
    // One engine's own options select it without --engine, whatever the default.
    for (args, word) in [
        (
            &["bestmove", "--game", "chinese-checkers", "--threads", "1"][..],
            "simulations",
        ),
        (
            &["bestmove", "--board", "8x8", "--imb", "0.3"][..],
            "simulations",
        ),
        (
            &["bestmove", "--board", "8x8", "--c", "0.5"][..],
            "simulations",
        ),
        (&["bestmove", "--board", "6x6", "--depth", "3"][..], "depth"),
        (
            &["bestmove", "--game", "woodpush", "--threads", "1"][..],
            "simulations",
        ),
    ] {
        let (ok, out, err) = quasar(&[args, &["--time", "50ms"]].concat());
        assert!(ok && out.contains(word), "{args:?}: {out}{err}");
    }
    // An option of the other engine than the one named, or options of both, are refused.
    for (args, want) in [
        (
            &[
                "bestmove",
                "--game",
                "chinese-checkers",
                "--engine",
                "ab",
                "--imb",
                "0.3",
            ][..],
            "--imb is an MCTS option",
        ),
        (
            &["bestmove", "--engine", "ab", "--threads", "2"][..],
            "--threads is an MCTS option",
        ),
        (
            &["bestmove", "--engine", "mcts", "--depth", "3"][..],
            "--depth is an alpha-beta option",
        ),
        (
            &["bestmove", "--prior", "5", "--hash", "8"][..],
            "leave one out",
        ),
    ] {
        let (ok, out, err) = quasar(args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn the_arena_plays_ab_against_mcts() {
    let out_dir = temp("alphabeta", "arena");
    ok_saying(
        &[
            "arena",
            "--board",
            "5x5",
            "--sims",
            "300",
            "--games",
            "2",
            "--jobs",
            "1",
            "--quiet",
            "--player",
            "ab:depth=3",
            "--player",
            "mcts",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        "`ab:depth=3`",
    );
    let record = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    assert_eq!(record.lines().count(), 2, "{record}");
}

#[test]
fn bad_alpha_beta_input_gets_one_clear_line() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["bestmove", "--engine", "mcts", "--depth", "3"],
            "add --engine ab",
        ),
        (
            &["bestmove", "--eval", "mcts", "--imb", "0.3"],
            "leave one out",
        ),
        (
            &["bestmove", "--engine", "ab", "--eval", "efms"],
            "invalid value 'efms'",
        ),
        (&["bestmove", "--engine", "ab", "--depth", "0"], "0"),
        (
            &["bestmove", "--engine", "ab", "--tb", "t.qtb", "--race"],
            "--rule is an MCTS option",
        ),
        (
            &["arena", "--player", "ab:c=0.4", "--player", "mcts"],
            "unknown key 'c'",
        ),
    ];
    for (args, want) in cases {
        let (ok, _, err) = quasar(args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
