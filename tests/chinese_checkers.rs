//! End-to-end Chinese Checkers on the command line: perft, `tablebase build | info | probe |
//! verify` for 2 pieces a side (the paper's counts), the paper's solvers by name, bad
//! options as one-line errors, and the table as the engine's oracle in `bestmove` and the
//! arena.

mod common;

use common::{ok_saying, quasar};

const START2: &str = "X/X./.../..../...../....../......./....../...../..../.../.O/O X";

#[test]
fn perft_from_the_start() {
    ok_saying(
        &[
            "perft",
            "--game",
            "chinese-checkers",
            "--pieces",
            "2",
            "--depth",
            "4",
        ],
        ": 1089",
    );
}

#[test]
fn the_two_piece_table_builds_probes_and_verifies() {
    let file = common::temp("cc", "k2.qrt");
    let f = file.to_str().unwrap();
    let out = common::build_table(&["--game", "chinese-checkers", "--pieces", "2"], f);
    assert!(out.contains("positions: 2542512"), "{out}");
    assert!(
        out.contains("first-player wins: 1271256, losses: 1271256, draws: 0"),
        "{out}"
    );
    assert!(out.contains("start: X to move wins in 33 plies"), "{out}");
    let (ok, out, err) = quasar(&["tablebase", "info", f]);
    assert!(ok && out.contains("2 pieces a side"), "{out}{err}");
    let (ok, out, err) = quasar(&["tablebase", "probe", f, "--position", START2]);
    assert!(
        ok && out.contains("X to move: win in 33 plies") && out.contains("best move"),
        "{out}{err}"
    );
    let (ok, out, err) = quasar(&["tablebase", "verify", f]);
    assert!(ok && out.contains("0 inconsistent"), "{out}{err}");
    assert!(
        out.contains("checked 2542512 positions (every position)"),
        "{out}"
    );
    // --samples checks that many at random, the same ones for the same --seed.
    let sample = |seed: &str| {
        ok_saying(
            &["tablebase", "verify", f, "--samples", "40", "--seed", seed],
            "checked 40 positions (a random sample) against their moves: 0 inconsistent",
        )
    };
    assert_eq!(sample("7"), sample("7"));
    // --seed alone would choose nothing: the whole table is checked, so it is refused.
    let (ok, _, err) = quasar(&["tablebase", "verify", f, "--seed", "7"]);
    assert!(!ok);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("--seed chooses a sample") && err.contains("give --samples"),
        "{err}"
    );
    // The table as an oracle: the engine plays a winning move at once.
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--game",
        "chinese-checkers",
        "--pieces",
        "2",
        "--tb",
        f,
        "--sims",
        "100",
    ]);
    assert!(ok && out.contains("bestmove"), "{out}{err}");
    let (ok, out, err) = quasar(&[
        "arena",
        "--game",
        "chinese-checkers",
        "--pieces",
        "2",
        "--player",
        &format!("mcts:tb={f}"),
        "--player",
        "mcts",
        "--games",
        "2",
        "--sims",
        "50",
        "--ply-cap",
        "200",
        "--quiet",
        "--out",
        common::temp("cc", "arena").to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("2 - 0"), "the table wins both games: {out}");
}

#[test]
fn the_papers_backward_solver_counts() {
    let file = common::temp("cc", "k2-backward.qrt");
    let out = common::build_table(
        &[
            "--game",
            "chinese-checkers",
            "--pieces",
            "2",
            "--solver",
            "backward",
            "--layered",
            "--no-dup",
            "--win-only",
            "--sequential",
        ],
        file.to_str().unwrap(),
    );
    assert!(
        out.contains("expansions: 3374445 forward, 1271256 backward"),
        "{out}"
    );
    assert!(out.contains("iterations: 38"), "{out}");
}

#[test]
fn bad_options_are_one_line_errors() {
    for args in [
        "tablebase build --game chinese-checkers --pieces 9 --quiet",
        "tablebase build --game chinese-checkers --pieces 2 --solver sideways",
        "tablebase build --game chinese-checkers --pieces 2 --win-only",
        "perft --game chinese-checkers --board 6x6",
        "perft --game chinese-checkers --pieces 2 --position X/X_X",
    ] {
        let args = common::words(args);
        let (ok, _, err) = quasar(&common::strs(&args));
        assert!(!ok, "{args:?}");
        assert!(
            err.starts_with("error: ") && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}
