//! The alpha-beta player end to end: `bestmove --engine ab`, `ab` in the arena and GTP, and
//! its bad input.

mod common;
use common::{quasar, temp};

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
    assert!(out.contains("proven win within 1 ply for White"), "{out}");
    // A finished game has no move to search.
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--engine",
        "ab",
        "--position",
        "3W2/6/6/6/1B4/6 b",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("bestmove none (the game is over)"), "{out}");
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
fn each_game_has_its_default_engine_and_mcts_options_do_not_go_to_alpha_beta() {
    // Chinese Checkers plays alpha-beta by default (it won its matches), the others MCTS.
    for (game, word) in [
        ("chinese-checkers", "depth"),
        ("checkers", "simulations"),
        ("woodpush", "simulations"),
        ("breakthrough", "simulations"),
    ] {
        let (ok, out, err) = quasar(&["bestmove", "--game", game, "--time", "50ms"]);
        assert!(ok && out.contains(word), "{game}: {out}{err}");
    }
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--game",
        "chinese-checkers",
        "--engine",
        "mcts",
        "--time",
        "50ms",
    ]);
    assert!(ok && out.contains("simulations"), "{out}{err}");
    // An MCTS option with alpha-beta, chosen or by default, is refused by name.
    for args in [
        &["bestmove", "--game", "chinese-checkers", "--imb", "0.3"][..],
        &["bestmove", "--engine", "ab", "--prior", "5"][..],
    ] {
        let (ok, out, err) = quasar(args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("is an MCTS option"), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn the_arena_plays_ab_against_mcts() {
    let out_dir = temp("alphabeta", "arena");
    let (ok, out, err) = quasar(&[
        "arena",
        "--board",
        "5x5",
        "--sims",
        "300",
        "--games",
        "2",
        "--jobs",
        "1",
        "--no-progress",
        "--player",
        "ab:depth=3",
        "--player",
        "mcts",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("`ab:depth=3`"), "{out}");
    let record = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    assert_eq!(record.lines().count(), 2, "{record}");
}

#[test]
fn bad_alpha_beta_input_gets_one_clear_line() {
    let cases: [(&[&str], &str); 6] = [
        (&["bestmove", "--depth", "3"], "add --engine ab"),
        (&["bestmove", "--eval", "mcts"], "add --engine ab"),
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
