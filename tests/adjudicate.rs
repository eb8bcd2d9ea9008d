//! Adjudication end to end: `arena --adjudicate TABLE` ends each game as soon as the table
//! proves its result, and refuses a table it cannot use before any game.

mod common;
use common::{json_lines, quasar, temp};

/// Builds the solved Woodpush width-7 table as the temporary file `name`; its path.
fn width_7_table(name: &str) -> String {
    let table = temp("adjudicate", name).to_str().unwrap().to_string();
    let (ok, _, err) = quasar(&[
        "tablebase",
        "build",
        "--game",
        "woodpush",
        "--width",
        "7",
        "--quiet",
        "-o",
        &table,
    ]);
    assert!(ok, "{err}");
    table
}

#[test]
fn a_solved_woodpush_start_is_adjudicated_before_the_first_move() {
    let table = width_7_table("w7.qrt");
    let table = table.as_str();
    let out_dir = temp("adjudicate", "match");
    let (ok, out, err) = quasar(&[
        "arena",
        "--game",
        "woodpush",
        "--width",
        "7",
        "--player",
        "mcts",
        "--player",
        "random",
        "--games",
        "2",
        "--sims",
        "100",
        "--openings-plies",
        "0",
        "--adjudicate",
        table,
        "--no-progress",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
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
    let table = width_7_table("w7-bad.qrt");
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
        let (ok, out, err) = quasar(&[
            "arena",
            "--game",
            "woodpush",
            "--width",
            width,
            "--player",
            "mcts",
            "--player",
            "random",
            "--games",
            "2",
            "--adjudicate",
            table,
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert!(!ok && out.is_empty(), "{out}");
        assert!(err.contains(why), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out_dir.join("games.jsonl").exists());
    }
}
