//! Clocks end to end: `arena --tc BASE+INC` gives each side a clock that the built-in
//! players budget from, records it after every move (JSON Lines, PGN `%clk`, the HTML
//! viewer), tells GTP engines with `time_settings` and `time_left`, and ends a game whose
//! clock runs out as a time forfeit.

mod common;
use common::{arena_games, arena_ok, quasar, scratch};

#[test]
fn both_built_in_players_keep_within_their_clocks_and_the_records_show_them() {
    let dir = scratch("clocks", "match");
    let out = dir.join("m");
    let (stdout, games) = arena_games(
        ["mcts", "ab"],
        &out,
        &[
            "--board", "5x5", "--tc", "1s+50ms", "--games", "2", "--jobs", "1",
        ],
    );
    assert!(stdout.contains("5x5, 1s+50ms clock, 2 games"), "{stdout}");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["first_budget"], "1s+50ms");
        assert_eq!(g["second_budget"], "1s+50ms");
        assert_eq!(g["reason"], "win", "no flag fell: {g}");
        let times = g["times_ms"].as_array().unwrap();
        let clocks = g["clocks_ms"].as_array().unwrap();
        assert_eq!(clocks.len(), times.len());
        // Each side's clock: 1000 ms, less each move's time, plus 50 ms a move.
        let mut left = [1000.0f64; 2];
        for (i, (t, c)) in times.iter().zip(clocks).enumerate() {
            let side = i % 2;
            left[side] = (left[side] - t.as_f64().unwrap()).max(0.0) + 50.0;
            let c = c.as_f64().unwrap();
            assert!(
                (c - left[side]).abs() <= 1.0,
                "move {i}: {c} against {}",
                left[side]
            );
            // The time manager spends about a 30th of the time left plus the increment.
            assert!(t.as_f64().unwrap() < 400.0, "move {i} took {t} ms");
        }
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"1+0.05\"]"), "{pgn}");
    let first_clock = games[0]["clocks_ms"][0].as_u64().unwrap();
    let clk = format!(
        "[%clk 0:00:0{}.{}]",
        first_clock / 1000,
        first_clock % 1000 / 100
    );
    assert!(pgn.contains(&clk), "{clk} in {pgn}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("\"clk\":[\"0:00:0"), "the viewer's clocks");
}

#[test]
fn a_gtp_engine_is_told_its_clock_and_loses_on_time_when_it_runs_out() {
    let dir = scratch("clocks", "gtp");
    // An engine that logs what it is told and takes 150 ms a move, a1-a2-like moves of
    // its own choosing aside: it always answers its first legal-looking pawn push.
    let log = dir.join("told.log");
    let script = dir.join("slow.sh");
    std::fs::write(
        &script,
        format!(
            "n=0; while read -r c rest; do echo \"$c $rest\" >> {}; case $c in \
             genmove) n=$((n+1)); sleep 0.15; printf '= %s\\n\\n' $(echo a2-a3 b2-b3 c2-c3 d2-d3 e2-e3 | cut -d' ' -f$n);; \
             quit) exit 0;; *) printf '=\\n\\n';; esac; done\n",
            log.display()
        ),
    )
    .unwrap();
    let spec = format!("gtp:sh {}", script.display());
    let out = dir.join("m");
    let (_, games) = arena_games(
        [&spec, "random"],
        &out,
        &[
            "--board",
            "5x5",
            "--tc",
            "400ms+10ms",
            "--tolerance",
            "20ms",
            "--openings-plies",
            "0",
            "--games",
            "2",
            "--jobs",
            "1",
        ],
    );
    let g = &games[0];
    // 150 ms a move on 400 ms with 10 ms back each move (260, then 120 ms left): two
    // moves, and the third runs out (on a loaded machine a move takes longer, and an
    // earlier one may): the move that loses took longer than the clock held.
    assert_eq!(g["reason"], "time", "{g}");
    assert_eq!(g["winner"], "second", "{g}");
    let detail = g["detail"].as_str().unwrap();
    let ms = |after: &str| -> f64 {
        let rest = &detail[detail.find(after).unwrap_or_else(|| panic!("{g}")) + after.len()..];
        rest.split(" ms").next().unwrap().parse().unwrap()
    };
    assert!(detail.starts_with("time forfeit: played "), "{g}");
    assert!(ms(" after ") > ms(" with "), "{g}");
    let moves = g["moves"].as_array().unwrap().len();
    assert!(moves <= 4, "{g}");
    let told = std::fs::read_to_string(&log).unwrap();
    // GTP has no increment: a byo-yomi period of one stone stands for it.
    assert!(told.contains("time_settings 0.4 0.01 1"), "{told}");
    assert!(told.contains("time_left w 0.4 0"), "{told}");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
}

#[test]
fn a_bad_time_control_is_one_error_line() {
    for (args, want) in [
        (
            vec!["--tc", "+"],
            "time control '+': the base time is missing",
        ),
        (vec!["--tc", "10s+-1s"], "the increment"),
        (vec!["--tc", "1000h"], "over a day"),
        (
            vec!["--tc", "10s+1s", "--time", "1s"],
            "cannot be used with",
        ),
        (
            vec!["--tc", "10s+1s", "--sims", "100"],
            "cannot be used with",
        ),
    ] {
        let mut all = vec![
            "arena",
            "--player",
            "random",
            "--player",
            "random:seed=2",
            "--quiet",
        ];
        all.extend(&args);
        let (ok, _, err) = quasar(&all);
        assert!(!ok, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn a_players_own_tc_key_gives_it_a_clock_of_its_own() {
    let dir = scratch("clocks", "own");
    let out = dir.join("m");
    // The MCTS player has a clock of 2 s + 20 ms; alpha-beta follows --time, 30 ms a move.
    let (stdout, games) = arena_games(
        ["mcts:tc=2s+20ms", "ab"],
        &out,
        &[
            "--board", "5x5", "--time", "30ms", "--games", "2", "--jobs", "1",
        ],
    );
    assert!(
        stdout.contains("5x5, budgets: mcts:tc=2s+20ms 2s+20ms clock, ab 30ms, 2 games"),
        "{stdout}"
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        let mcts_first = g["first"] == "mcts:tc=2s+20ms";
        let (mcts_side, budgets) = match mcts_first {
            true => (0, ["2s+20ms", "30ms"]),
            false => (1, ["30ms", "2s+20ms"]),
        };
        assert_eq!([&g["first_budget"], &g["second_budget"]], budgets, "{g}");
        assert_eq!(g["reason"], "win", "{g}");
        let times = g["times_ms"].as_array().unwrap();
        let clocks = g["clocks_ms"].as_array().unwrap();
        let mut left = 2000.0f64;
        for (i, (t, c)) in times.iter().zip(clocks).enumerate() {
            let t = t.as_f64().unwrap();
            if i % 2 == mcts_side {
                left = (left - t).max(0.0) + 20.0;
                let c = c.as_f64().expect("the clock's side has a clock");
                assert!((c - left).abs() <= 1.0, "move {i}: {c} against {left}");
                // The time manager: a 30th of at most 2.02 s plus 20 ms.
                assert!(t < 130.0, "move {i} took {t} ms");
            } else {
                assert!(c.is_null(), "move {i}: no clock for a time a move: {g}");
                assert!(t < 80.0, "move {i} took {t} ms against 30 ms");
            }
        }
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains("[WhiteTimeControl \"2+0.02\"]"), "{pgn}");
    assert!(pgn.contains("[BlackTimeControl \"2+0.02\"]"), "{pgn}");
    // Under --tc, a player's own tc= still wins over the match's clock.
    let out = dir.join("m2");
    let (stdout, games) = arena_games(
        ["ab:tc=3s", "random"],
        &out,
        &["--board", "5x5", "--tc", "1s+10ms", "--games", "2"],
    );
    let g = games.iter().find(|g| g["number"] == 0).unwrap();
    assert_eq!(
        [&g["first_budget"], &g["second_budget"]],
        ["3s+0s", "1s+10ms"],
        "{g}"
    );
    assert!(
        stdout.contains("budgets: ab:tc=3s+0s 3s+0s clock, random 1s+10ms clock"),
        "{stdout}"
    );
}

#[test]
fn a_bad_tc_key_is_one_error_line() {
    for (spec, want) in [
        (
            "mcts:tc=+",
            "tc: time control '+': the base time is missing",
        ),
        (
            "mcts:tc=1s,time=1s",
            "'time=1s' conflicts with the limit already given (1s+0s clock)",
        ),
        (
            "mcts:sims=10,tc=1s",
            "'tc=1s' conflicts with the limit already given (10 sims)",
        ),
        ("mcts:tc=1s,tc=2s", "'tc=2s' conflicts"),
        ("ab:tc=1s,time=1s", "time= and tc= conflict"),
        (
            "ab:tc=2d",
            "tc: time control '2d': the base time is over a day",
        ),
    ] {
        let (ok, _, err) = quasar(&["arena", "--player", spec, "--player", "random"]);
        assert!(!ok, "{spec}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{spec}: {err}");
    }
}

/// cutechess-cli's moves per period: `--tc 2/0.3` gives each side 0.3 s for every two of
/// its moves, the base time added again after its second; GTP engines are told the period
/// as Canadian byo-yomi (`time_settings 0 0.3 2`) and the stones left before each move;
/// `--tc inf` is no clock.
#[test]
fn moves_per_period_refill_the_clock_and_inf_is_no_clock() {
    let dir = scratch("clocks", "periods");
    let out = dir.join("m");
    let (stdout, games) = arena_games(
        ["random", "random:seed=2"],
        &out,
        &[
            "--board",
            "5x5",
            "--tc",
            "2/0.3",
            "--games",
            "2",
            "--openings-plies",
            "0",
        ],
    );
    assert!(
        stdout.contains("5x5, 2/300ms+0s clock, 2 games"),
        "{stdout}"
    );
    let clocks: Vec<f64> = games[0]["clocks_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect();
    let times: Vec<f64> = games[0]["times_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert!(clocks.len() >= 4, "{clocks:?}");
    // White's clock after its first move (0, a period's first), its second (2, the period's
    // last: 300 ms more) and its third (4, the next period's first).
    let after_first = 300.0 - times[0];
    let after_second = after_first - times[2] + 300.0;
    assert!((clocks[0] - after_first).abs() <= 1.0, "{clocks:?}");
    assert!((clocks[2] - after_second).abs() <= 1.0, "{clocks:?}");
    assert!(clocks[2] > 500.0, "{clocks:?}");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"2/0.3+0\"]"), "{pgn}");
    // The PGN's tag reads back as the same control.
    let merged = dir.join("merged");
    let (_, rep_out, err) = quasar(&[
        "arena",
        "report",
        out.join("games.pgn").to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(rep_out.contains("2/300ms+0s clock"), "{rep_out}{err}");

    // A GTP engine hears the period and the stones left.
    let log = dir.join("told.log");
    let script = dir.join("log.sh");
    std::fs::write(
        &script,
        format!(
            "while read -r c rest; do echo \"$c $rest\" >> {}; case $c in \
             genmove) printf '= resign\\n\\n';; quit) exit 0;; *) printf '=\\n\\n';; esac; \
             done\n",
            log.display()
        ),
    )
    .unwrap();
    let spec = format!("gtp:sh {}", script.display());
    arena_ok(
        [&spec, "random"],
        &dir.join("g"),
        &["--board", "5x5", "--tc", "40/60+0.5", "--games", "2"],
    );
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("time_settings 0 60 40"), "{told}");
    assert!(told.contains("time_left w 60 40"), "{told}");

    let (stdout, _) = arena_ok(
        ["random", "random:seed=2"],
        &dir.join("inf"),
        &["--board", "5x5", "--tc", "inf", "--games", "2"],
    );
    assert!(stdout.contains("5x5, 100ms per move, 2 games"), "{stdout}");
}
