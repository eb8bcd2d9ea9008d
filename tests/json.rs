//! `--json` on `bestmove`, `tablebase probe`, `tablebase info` and `solve`: one object a run
//! with the keys docs/player.md, docs/tablebases.md and docs/solver.md list, and a JSON error
//! object with a non-zero exit when anything is wrong.

use serde_json::Value;
use std::process::Command;

mod common;

use common::{quasar, temp};

/// The one JSON object a successful `--json` run prints.
fn object(args: &[&str]) -> Value {
    let (ok, out, err) = quasar(args);
    assert!(ok, "{args:?}: {out}{err}");
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(&out).expect("JSON")
}

/// The error object and exit status of a failed `--json` run.
fn error(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON: {text}"));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["error"], "{v}");
    (
        v["error"].as_str().unwrap().to_string(),
        out.status.code().unwrap(),
    )
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn bestmove_prints_the_same_keys_for_both_searches() {
    let mcts = object(&[
        "bestmove",
        "--board",
        "5x5",
        "--position",
        "B4/5/2W2/5/5 w",
        "--sims",
        "200",
        "--json",
    ]);
    let ab = object(&[
        "bestmove",
        "--board",
        "5x5",
        "--position",
        "B4/5/2W2/5/5 w",
        "--engine",
        "ab",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(keys(&mcts), keys(&ab));
    for v in [&mcts, &ab] {
        assert_eq!(v["game"], "breakthrough");
        assert_eq!(v["size"], "5x5");
        assert_eq!(v["to_move"], "White");
        // Any move of the c3 piece wins on the next move: proven, and a bound.
        assert!(v["best_move"].as_str().unwrap().starts_with("c3-"), "{v}");
        assert_eq!(v["proven"]["result"], "win", "{v}");
        assert_eq!(v["proven"]["plies_exact"], false, "{v}");
    }
    assert_eq!(mcts["engine"], "mcts");
    assert!(mcts["simulations"].as_u64().unwrap() <= 200, "{mcts}");
    assert_eq!(ab["engine"], "ab");
    assert_eq!(ab["simulations"], Value::Null);
    assert_eq!(ab["proven"]["plies"], 3, "{ab}");
}

#[test]
fn probes_of_every_game_share_one_shape() {
    let tb = temp("json", "tb-5x5-r3.qtb");
    let f = tb.to_str().unwrap();
    common::build_table(&["--board", "5x5", "--rows", "3"], f);
    let win = object(&[
        "tablebase",
        "probe",
        f,
        "--position",
        "B4/5/2W2/5/5 w",
        "--json",
    ]);
    let want: Value = serde_json::json!({
        "game": "breakthrough",
        "position": "B4/5/2W2/5/5 w",
        "to_move": "White",
        "result": "win",
        "plies": 3,
        "plies_exact": false,
        "best_move": "c3-d4",
        "detail": "depth D = 2 (moves of the side to move, at most)",
    });
    assert_eq!(win, want);
    let unknown = object(&[
        "tablebase",
        "probe",
        f,
        "--position",
        "B4/5/2W2/1B3/5 w",
        "--json",
    ]);
    assert_eq!(unknown["result"], Value::Null);
    assert!(unknown["detail"].as_str().unwrap().contains("row 2"));

    let w = &common::width_7_table("json", "w7.qrt");
    let exact = object(&["tablebase", "probe", w, "--position", "L.L.R.R L", "--json"]);
    assert_eq!(keys(&exact), keys(&win));
    assert_eq!(exact["game"], "woodpush");
    assert_eq!(exact["result"], "loss");
    assert_eq!(exact["plies"], 25);
    assert_eq!(exact["plies_exact"], true);
    assert_eq!(exact["detail"], "score -4 (Right wins by 4)");

    // info: the common keys, and the game's own under details.
    let info = object(&["tablebase", "info", f, "--json"]);
    assert_eq!(info["game"], "breakthrough");
    assert_eq!(info["covers"], "5x5, 3 rows");
    assert_eq!(info["checksum_verified"], true);
    assert_eq!(info["details"]["rows"], 3);
    let winfo = object(&["tablebase", "info", w, "--json"]);
    assert_eq!(keys(&winfo), keys(&info));
    assert_eq!(winfo["game"], "woodpush");
    assert_eq!(winfo["details"]["start_score"], -4);
    let _ = std::fs::remove_file(&tb);
    let _ = std::fs::remove_file(w);
}

#[test]
fn solve_prints_the_winner_and_the_exact_length() {
    let v = object(&["solve", "--board", "4x4", "--quiet", "--json"]);
    assert_eq!(v["winner"], "Black");
    assert_eq!(v["winner_to_move"], false);
    assert_eq!(v["plies"], 14);
    assert_eq!(v["plies_exact"], true);
    assert_eq!(v["line"].as_array().unwrap().len(), 14);
    assert_eq!(v["proof"], Value::Null);
    let b = object(&[
        "solve", "--board", "4x4", "--within", "13", "--quiet", "--json",
    ]);
    assert_eq!((&b["within"], &b["holds"]), (&13.into(), &false.into()));
}

#[test]
fn errors_are_json_objects_with_a_non_zero_exit() {
    let (e, code) = error(&["bestmove", "--board", "9x9", "--json"]);
    assert!(e.contains("9x9"), "{e}");
    assert_ne!(code, 0);
    let (e, code) = error(&["bestmove", "--bogus", "--json"]);
    assert!(e.contains("--bogus"), "{e}");
    assert_eq!(code, 2);
    let (e, code) = error(&[
        "tablebase",
        "probe",
        "/nonexistent/t.qtb",
        "--position",
        "5/5/5/5/5 w",
        "--json",
    ]);
    assert!(e.contains("/nonexistent/t.qtb"), "{e}");
    assert_eq!(code, 1);
    let (e, _) = error(&["solve", "--game", "checkers", "--json"]);
    assert!(e.contains("give --position FEN"), "{e}");
}
