//! Streaming analysis: `bestmove --info` progress lines of both engines, as text and JSON
//! Lines, `--multipv` (N legal moves, MCTS's most visited first), and `--infinite` stopped
//! by SIGINT with the best move so far.

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

use common::run_ok;

/// The value after `key` on a line of words.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let words: Vec<&str> = line.split_whitespace().collect();
    let k = words
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    words[k + 1]
}

/// The lines of `out` that start with `prefix`.
fn lines_of<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// The root moves of the start of 6x6 Breakthrough, as `--moves` lists them.
fn root_moves() -> Vec<String> {
    let (out, _) = run_ok(&["bestmove", "--board", "6x6", "--sims", "10", "--moves"]);
    out.lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn alpha_beta_prints_one_line_per_depth() {
    let (out, _) = run_ok(&[
        "bestmove", "--board", "6x6", "--engine", "ab", "--depth", "5", "--info",
    ]);
    let info = lines_of(&out, "info ");
    let depths: Vec<u32> = info
        .iter()
        .map(|l| field(l, "depth").parse().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "{out}");
    let nodes: Vec<u64> = info
        .iter()
        .map(|l| field(l, "nodes").parse().unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{out}");
    // The last line agrees with the report; every line has its figures.
    let last = info.last().unwrap();
    let best = field(&out, "bestmove");
    assert_eq!(field(last, "pv"), best, "{out}");
    for l in &info {
        for key in ["value", "rate", "time"] {
            field(l, key);
        }
    }
    assert!(out.find("info ").unwrap() < out.find("bestmove").unwrap());
}

#[test]
fn mcts_ends_with_a_line_of_every_simulation() {
    let (out, _) = run_ok(&["bestmove", "--board", "6x6", "--sims", "2000", "--info"]);
    let info = lines_of(&out, "info ");
    assert!(!info.is_empty(), "{out}");
    assert_eq!(field(info.last().unwrap(), "simulations"), "2000", "{out}");
    let value: f64 = field(info.last().unwrap(), "value").parse().unwrap();
    assert!((0.0..=1.0).contains(&value), "{out}");
}

#[test]
fn info_lines_are_json_lines_with_json() {
    for engine in [&["--sims", "500"][..], &["--engine", "ab", "--depth", "3"]] {
        let mut args = vec!["bestmove", "--board", "6x6", "--info", "--json"];
        args.extend(engine);
        let (out, _) = run_ok(&args);
        let objects: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let (answer, info) = objects.split_last().unwrap();
        assert!(!info.is_empty(), "{out}");
        assert!(answer.get("info").is_none() && answer["best_move"].is_string());
        for i in info {
            assert_eq!(i["info"], "info", "{i}");
            assert!(i["nodes"].is_u64() && i["rate"].is_number() && i["pv"].is_array());
        }
        let last = info.last().unwrap();
        if engine[0] == "--sims" {
            assert_eq!(last["simulations"], 500, "{out}");
            assert!(last["value"].is_number());
        } else {
            assert_eq!(last["depth"], 3, "{out}");
            assert!(last["eval"].is_i64());
        }
    }
}

#[test]
fn multipv_lists_the_most_visited_legal_moves_first() {
    let legal = root_moves();
    let (out, _) = run_ok(&[
        "bestmove",
        "--board",
        "6x6",
        "--sims",
        "3000",
        "--multipv",
        "4",
    ]);
    let lines = lines_of(&out, "multipv ");
    assert_eq!(lines.len(), 4, "{out}");
    let mut seen = Vec::new();
    let mut visits = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[1], (k + 1).to_string(), "{l}");
        assert!(legal.iter().any(|m| m == words[2]), "{l} among {legal:?}");
        assert!(!seen.contains(&words[2]), "{out}");
        seen.push(words[2]);
        assert_eq!(field(l, "pv"), words[2], "{l}");
        visits.push(field(l, "visits").parse::<u64>().unwrap());
    }
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{out}");
    assert_eq!(seen[0], field(&out, "bestmove"), "{out}");
}

#[test]
fn alpha_beta_multipv_searches_the_rest_to_the_same_depth() {
    let legal = root_moves();
    let (out, _) = run_ok(&[
        "bestmove",
        "--board",
        "6x6",
        "--engine",
        "ab",
        "--depth",
        "3",
        "--multipv",
        "3",
        "--json",
    ]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    assert_eq!(lines[0]["move"], v["best_move"], "{v}");
    let mut moves: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert!(moves.iter().all(|m| legal.iter().any(|l| l == m)), "{v}");
    for l in lines {
        assert_eq!(l["depth"], 3, "{v}");
    }
    // Each is the best of the moves the earlier ones left: no better than those.
    let evals: Vec<i64> = lines.iter().map(|l| l["eval"].as_i64().unwrap()).collect();
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{v}");
    moves.dedup();
    assert_eq!(moves.len(), 3, "{v}");
}

/// Starts `quasar` with `args`, sends SIGINT once it has printed its first progress line
/// (so the search is running) and waits for it to end, within a generous bound: its exit
/// code and standard output.
fn interrupted(args: &[&str]) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run quasar");
    let mut stdout = BufReader::new(child.stdout.take().expect("its output"));
    let mut out = String::new();
    while !out.contains("info ") {
        if stdout.read_line(&mut out).expect("read its output") == 0 {
            break;
        }
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    // A watchdog: the test fails rather than hangs if the signal is not heeded.
    let pid = child.id();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if wait.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    });
    stdout.read_to_string(&mut out).expect("read its output");
    let status = child.wait().expect("wait for quasar");
    let _ = done.send(());
    watchdog.join().unwrap();
    (status.code(), out)
}

#[test]
fn infinite_searches_until_sigint_and_prints_the_best_move() {
    for engine in ["mcts", "ab"] {
        let (code, out) = interrupted(&[
            "bestmove",
            "--board",
            "8x8",
            "--engine",
            engine,
            "--infinite",
            "--info",
        ]);
        assert_eq!(code, Some(0), "{engine}: {out}");
        let best = field(&out, "bestmove");
        assert!(best.contains('-') || best.contains('x'), "{engine}: {out}");
        assert!(!lines_of(&out, "info ").is_empty(), "{engine}: {out}");
    }
}

#[test]
fn play_prints_the_lines_before_the_engines_move() {
    let (ok, out, err) = common::with_input(
        &[
            "play", "--board", "6x6", "--human", "black", "--engine", "ab", "--depth", "3",
            "--info",
        ],
        b"quit\n",
    );
    assert!(ok, "{err}");
    let info = lines_of(&out, "info depth ");
    assert_eq!(info.len(), 3, "{out}");
    assert!(out.find("info depth 3").unwrap() < out.find("quasar plays").unwrap());
}
