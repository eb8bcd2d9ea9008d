//! Adjudication end to end: `arena --adjudicate TABLE` ends each game as soon as the table
//! proves its result, and refuses a table it cannot use before any game.

mod common;
use common::{json_lines, quasar, temp, width_7_arena, width_7_table};

#[test]
fn a_solved_woodpush_start_is_adjudicated_before_the_first_move() {
    let table = width_7_table("adjudicate", "w7.qrt");
    let table = table.as_str();
    let out_dir = temp("adjudicate", "match");
    let (ok, out, err) = width_7_arena(
        ["mcts", "random"],
        &out_dir,
        &[
            "--sims",
            "100",
            "--openings-plies",
            "0",
            "--adjudicate",
            table,
        ],
    );
    assert!(ok, "{out}{err}");
    let games = json_lines(&out_dir.join("games.jsonl"));
    assert_eq!(games.len(), 2);
    // The table's own answer for the start, to compare the adjudications with.
    let start = games[0]["start"].as_str().expect("the start position");
    let (ok, probe, err) = quasar(&["tablebase", "probe", table, "--position", start, "--json"]);
    assert!(ok, "{err}");
    let probe: serde_json::Value = serde_json::from_str(&probe).expect("one JSON object");
    let result = probe["result"].as_str().expect("a result");
    assert_eq!(probe["to_move"], "Left");
    for g in &games {
        assert_eq!(g["reason"], "adjudicated", "{g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 0, "{g}");
        // Left moves first from the start: the table's result for Left decides.
        let winner = match result {
            "win" => "first",
            "loss" => "second",
            _ => "draw",
        };
        assert_eq!(g["winner"], winner, "{g}");
        assert!(
            g["detail"].as_str().unwrap().contains("w7.qrt proves"),
            "{g}"
        );
    }
}

#[test]
fn a_table_that_does_not_fit_is_refused_before_any_game() {
    let table = width_7_table("adjudicate", "w7-bad.qrt");
    let table = table.as_str();
    let out_dir = temp("adjudicate", "refused");
    for (width, table, why) in [
        ("9", table, "width 7"),
        (
            "7",
            "/nonexistent/w7.qrt",
            "--adjudicate /nonexistent/w7.qrt",
        ),
    ] {
        let (ok, out, err) = common::arena(
            ["mcts", "random"],
            &out_dir,
            &[
                "--game",
                "woodpush",
                "--width",
                width,
                "--games",
                "2",
                "--adjudicate",
                table,
            ],
        );
        assert!(!ok && out.is_empty(), "{out}");
        assert!(err.contains(why), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out_dir.join("games.jsonl").exists());
    }
}

/// Each move's value in a record's game (`None` where the mover reported none).
fn values(g: &serde_json::Value) -> Vec<Option<f64>> {
    let search = g["search"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    (0..g["moves"].as_array().unwrap().len())
        .map(|i| search.get(i).and_then(|s| s["value"].as_f64()))
        .collect()
}

/// Checks each game against its first run of 4 plies that `run_at` finds in its values
/// (given the game, the values and the 1-based ply ending the run): an adjudicated game
/// ends at it and is checked by `check_adjudicated` with what was found there, any other
/// game has none. How many games were adjudicated.
fn check_first_runs<T>(
    games: &[serde_json::Value],
    run_at: impl Fn(&serde_json::Value, &[Option<f64>], usize) -> Option<T>,
    check_adjudicated: impl Fn(&serde_json::Value, T),
) -> usize {
    let mut adjudicated = 0;
    for g in games {
        let v = values(g);
        let first_run = (4..=v.len()).find_map(|end| run_at(g, &v, end).map(|x| (end, x)));
        if g["reason"] == "adjudicated" {
            adjudicated += 1;
            let (end, found) = first_run.expect("a run of agreeing values");
            assert_eq!(end, v.len(), "ended at the first run: {g}");
            check_adjudicated(g, found);
        } else {
            assert!(first_run.is_none(), "a run the rule missed: {g}");
        }
    }
    adjudicated
}

/// Plays a 5x5 match of `players` (2 games) with the extra options `rule`; its games.
fn rule_match(
    name: &str,
    players: [&str; 2],
    games: &str,
    rule: &[&str],
) -> Vec<serde_json::Value> {
    let out_dir = common::scratch("adjudicate", name);
    let mut args = vec!["--board", "5x5", "--games", games, "--jobs", "1"];
    args.extend_from_slice(rule);
    let (ok, out, err) = common::arena(players, &out_dir, &args);
    assert!(ok, "{out}{err}");
    let pgn = std::fs::read_to_string(out_dir.join("games.pgn")).unwrap();
    let games = json_lines(&out_dir.join("games.jsonl"));
    let adjudicated = games
        .iter()
        .filter(|g| g["reason"] == "adjudicated")
        .count();
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        adjudicated
    );
    games
}

#[test]
fn the_resign_rule_ends_a_game_at_the_first_run_of_agreeing_values() {
    // A strong player against a weak one: the weak side is soon lost by both searches.
    let games = rule_match(
        "resign",
        ["mcts:sims=2000", "mcts:sims=30,seed=2"],
        "4",
        &["--resign", "movecount=2,score=0.1"],
    );
    let adjudicated = check_first_runs(
        &games,
        |g, v, end| {
            // The side (0: first, 1: second) that the 4 plies ending at ply `end` (after the
            // players' first move, 1-based) call lost: by its own value at most 0.1, by the
            // other's at least 0.9.
            let first_mover = g["opening_moves"].as_array().unwrap().len() % 2;
            [0, 1].into_iter().find(|&side| {
                (end - 4..end).all(|i| {
                    let mover = (first_mover + i) % 2;
                    match v[i] {
                        Some(x) if mover == side => x <= 0.1,
                        Some(x) => x >= 0.9,
                        None => false,
                    }
                })
            })
        },
        |g, side| {
            // The record's sides are the game's: first is White.
            let (winner, loser) = if side == 0 {
                ("second", "White")
            } else {
                ("first", "Black")
            };
            assert_eq!(g["winner"], winner, "{g}");
            assert_eq!(
                g["detail"],
                format!(
                    "resign rule (movecount=2,score=0.1): both players' values gave {loser} an \
                     expected score of at most 0.1 for 2 moves each"
                ),
                "{g}"
            );
        },
    );
    assert!(adjudicated >= 2, "{games:?}");
}

#[test]
fn the_draw_rule_counts_after_its_move_number_and_a_player_without_values_never_resigns() {
    let games = rule_match(
        "draw",
        ["mcts:sims=200", "mcts:sims=200,seed=2"],
        "4",
        &["--draw", "movenumber=2,movecount=2,score=0.2"],
    );
    let drawn = check_first_runs(
        &games,
        |g, v, end| {
            let opening = g["opening_moves"].as_array().unwrap().len();
            // Ply i (0-based, after the opening) counts once the game is past move 2.
            let counts = |i: usize| opening + i + 1 > 4;
            (end - 4..end)
                .all(|i| counts(i) && v[i].is_some_and(|x| (x - 0.5).abs() <= 0.2 + 1e-9))
                .then_some(())
        },
        |g, ()| {
            assert_eq!(g["winner"], "draw", "{g}");
            assert!(
                g["detail"]
                    .as_str()
                    .unwrap()
                    .starts_with("draw rule (movenumber=2,movecount=2,score=0.2)"),
                "{g}"
            );
        },
    );
    assert!(drawn >= 1, "{games:?}");
    // Random reports no value: the rules never fire, every game ends by the rules.
    let games = rule_match(
        "no-values",
        ["mcts:sims=100", "random"],
        "2",
        &[
            "--resign",
            "movecount=1,score=0.45",
            "--draw",
            "movecount=1,score=0.45",
        ],
    );
    for g in &games {
        assert_eq!(g["reason"], "win", "{g}");
    }
}

#[test]
fn bad_resign_and_draw_rules_are_refused_with_their_form() {
    for (flag, value, want) in [
        (
            "--resign",
            "movecount=0,score=0.05",
            "movecount=0: give a whole number of moves from 1 to 10000",
        ),
        (
            "--resign",
            "movecount=3,score=0.5",
            "score=0.5: give an expected score from 0 to below 0.5",
        ),
        ("--resign", "movecount=3", "'score' is missing"),
        (
            "--resign",
            "movecount=3,score=0.1,twosided=true",
            "unknown key 'twosided' (keys: movecount, score)",
        ),
        (
            "--draw",
            "movenumber=-1,movecount=3,score=0.1",
            "movenumber=-1: give a whole number of moves from 0",
        ),
        ("--draw", "movecount=3,score=1e9", "score=1e9"),
    ] {
        let (ok, out, err) = quasar(&[
            "arena",
            "--player",
            "random",
            "--player",
            "random:seed=2",
            flag,
            value,
        ]);
        assert!(!ok && out.is_empty(), "{flag} {value}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(want) && err.contains("(write "),
            "{flag} {value}: {err}"
        );
    }
}

#[test]
fn adjudicate_players_uses_the_tables_the_players_name() {
    let table = width_7_table("adjudicate", "w7-players.qrt");
    let with_table = format!("mcts:tb={table}");
    let out_dir = temp("adjudicate", "players");
    let (ok, out, err) = width_7_arena(
        [with_table.as_str(), "random"],
        &out_dir,
        &[
            "--sims",
            "100",
            "--openings-plies",
            "0",
            "--adjudicate",
            "players",
        ],
    );
    assert!(ok, "{out}{err}");
    let games = json_lines(&out_dir.join("games.jsonl"));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["reason"], "adjudicated", "{g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 0, "{g}");
        assert!(
            g["detail"]
                .as_str()
                .unwrap()
                .contains("w7-players.qrt proves"),
            "{g}"
        );
    }
    // Without a player's table there is nothing to adjudicate by: refused before any game.
    let out_dir = temp("adjudicate", "players-none");
    let (ok, out, err) = width_7_arena(["mcts", "random"], &out_dir, &["--adjudicate", "players"]);
    assert!(!ok, "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no player names a table"), "{err}");
    assert!(!out_dir.join("games.jsonl").exists());
}
