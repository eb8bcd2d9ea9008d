//! Game records end to end: the arena writes a PGN-style file (PDN for checkers) beside its
//! JSON Lines with the start position and each move's search information, `play --out`
//! writes the same format, and `replay` prints the same boards from either record.

mod common;

use common::{arena_ok, one_error_line, report};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `quasar` with `args`, which must succeed: its standard output.
fn run_ok(args: &[&str]) -> String {
    common::run_ok(args).0
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("records", name)
}

fn games(record: &Path) -> Vec<Value> {
    common::json_lines(record)
}

/// The value of tag `name` in the `n`-th game (from 0) of a PGN-style text.
fn tag(pgn: &str, n: usize, name: &str) -> Option<String> {
    let game = pgn.split("\n\n[").nth(n)?;
    let prefix = format!("[{name} \"");
    game.lines()
        .map(|l| l.trim_start_matches('['))
        .find_map(|l| l.strip_prefix(&prefix[1..]))
        .map(|v| v.trim_end_matches("\"]").to_string())
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn a_match_writes_pgn_with_search_information_and_replay_reads_both_records() {
    let dir = scratch("bt");
    let out = dir.join("out");
    arena_ok(
        ["mcts", "ab"],
        &out,
        &[
            "--board", "5x5", "--games", "2", "--sims", "100", "--jobs", "2",
        ],
    );
    let record = out.join("games.jsonl");
    let jsonl = games(&record);
    assert_eq!(jsonl.len(), 2);
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    for g in &jsonl {
        // The PGN holds the games in the order of their numbers.
        let n = g["number"].as_u64().unwrap() as usize;
        // The record gains the start (after the 2-ply opening) and one search entry a move.
        let moves = g["moves"].as_array().unwrap();
        let search = g["search"].as_array().unwrap();
        assert_eq!(search.len(), moves.len());
        let first_is_mcts = s(&g["first"]) == "mcts";
        for (i, info) in search.iter().enumerate() {
            let mcts_moved = (i % 2 == 0) == first_is_mcts;
            let v = info["value"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{info}");
            assert_eq!(info.get("sims").is_some(), mcts_moved, "{info}");
            assert_eq!(info.get("depth").is_some(), !mcts_moved, "{info}");
        }
        let start = s(&g["start"]);
        assert_ne!(
            start, "BBBBB/BBBBB/5/WWWWW/WWWWW w",
            "the opening moved the start"
        );
        // The PGN's tags say the same as the JSON line.
        assert_eq!(tag(&pgn, n, "FEN").as_deref(), Some(start));
        assert_eq!(tag(&pgn, n, "SetUp").as_deref(), Some("1"));
        assert_eq!(tag(&pgn, n, "White").as_deref(), Some(s(&g["first"])));
        assert_eq!(tag(&pgn, n, "Black").as_deref(), Some(s(&g["second"])));
        assert_eq!(tag(&pgn, n, "Game").as_deref(), Some("breakthrough"));
        assert_eq!(tag(&pgn, n, "Parameters").as_deref(), Some("5x5"));
        assert_eq!(
            tag(&pgn, n, "TimeControl").as_deref(),
            Some("100 sims/move")
        );
        assert_eq!(tag(&pgn, n, "Round"), Some(format!("1.{}", n + 1)));
        assert_eq!(tag(&pgn, n, "PlyCount"), Some(moves.len().to_string()));
        let result = match s(&g["winner"]) {
            "first" => "1-0",
            "second" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(tag(&pgn, n, "Result").as_deref(), Some(result));
        assert_eq!(tag(&pgn, n, "Termination").as_deref(), Some("normal"));
        assert_eq!(
            tag(&pgn, n, "TerminationDetails").as_deref(),
            g["detail"].as_str()
        );
    }
    assert!(pgn.contains("1. ") && pgn.contains(" sims, ") && pgn.contains(", depth "));
    assert!(pgn.lines().all(|l| l.len() <= 79), "{pgn}");

    // The same boards and comments from either record.
    for (line, g) in jsonl.iter().enumerate() {
        let n = (line + 1).to_string();
        let in_pgn = (g["number"].as_u64().unwrap() + 1).to_string();
        let from_json = run_ok(&["replay", record.to_str().unwrap(), "--index", &n]);
        let from_pgn = run_ok(&[
            "replay",
            out.join("games.pgn").to_str().unwrap(),
            "--index",
            &in_pgn,
        ]);
        assert_eq!(
            from_json.split_once('\n').unwrap().1,
            from_pgn.split_once('\n').unwrap().1
        );
        let last = g["moves"].as_array().unwrap().len();
        let last_move = s(g["moves"].as_array().unwrap().last().unwrap());
        assert!(
            from_json.contains(&format!("\n{last}. ")) && from_json.contains(last_move),
            "{from_json}"
        );
        assert!(
            from_json.starts_with(&format!("game {n} of 2: ")),
            "{from_json}"
        );
    }

    // `arena report` writes the same record, and the HTML page, into its --out.
    let merged = dir.join("merged");
    report(&[&record], &merged, &[]);
    assert_eq!(
        std::fs::read_to_string(merged.join("games.pgn")).unwrap(),
        pgn
    );
    assert!(std::fs::read_to_string(merged.join("report.html"))
        .unwrap()
        .contains("id=\"board\""));

    // Replays of the record with more arguments, which succeed or fail in one line.
    let r = record.to_str().unwrap();
    let replay = |extra: &[&str]| run_ok(&[&["replay", r], extra].concat());
    let refused = |extra: &[&str]| one_error_line(&[&["replay", r], extra].concat());
    let e = refused(&["--index", "3"]);
    assert!(
        e.starts_with("error: --index 3: ") && e.contains("holds 2 game(s)"),
        "{e}"
    );
    // --game names the game, as in every other command; a number is still the index, said
    // on standard error.
    let second = replay(&["--index", "2"]);
    let (ok, old, note) = common::quasar(&["replay", r, "--game", "2"]);
    assert!(ok && old == second, "{note}");
    assert!(
        note.starts_with("note: --game 2 is read as --index 2"),
        "{note}"
    );
    let named = replay(&["--game", "breakthrough", "--index", "2"]);
    assert_eq!(named, second);
    let e = refused(&["--game", "woodpush"]);
    assert!(
        e.contains("--game woodpush: game 1 of ") && e.ends_with("is of breakthrough"),
        "{e}"
    );
    let e = refused(&["--game", "go"]);
    assert!(
        e.contains("the game's number in the record is --index N"),
        "{e}"
    );
    let e = refused(&["--game", "2", "--index", "1"]);
    assert!(e.contains("--game names the game"), "{e}");
    // A PGN file that names no game is read as the game --game names.
    let untagged = dir.join("untagged.pgn");
    std::fs::write(&untagged, "[Event \"x\"]\n1. a2-a3 *\n").unwrap();
    let e = one_error_line(&["replay", untagged.to_str().unwrap()]);
    assert!(e.contains("give it with --game NAME"), "{e}");
    let shown = run_ok(&[
        "replay",
        untagged.to_str().unwrap(),
        "--game",
        "breakthrough",
    ]);
    assert!(shown.contains("1. White plays a2-a3"), "{shown}");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n[Game \"breakthrough\"]\n1. a2-a4 *\n").unwrap();
    let e = one_error_line(&["replay", bad.to_str().unwrap()]);
    assert!(e.contains("move 1 (a2-a4)"), "{e}");
    std::fs::write(&bad, "[Event \"x\"]\n1. a2-a3 {open\n").unwrap();
    let e = one_error_line(&["replay", bad.to_str().unwrap()]);
    assert!(e.contains("never closed"), "{e}");
    let e = one_error_line(&["replay", dir.to_str().unwrap()]);
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn a_stray_closing_brace_or_bracket_is_an_error_not_a_hang() {
    let dir = scratch("stray");
    let bad = dir.join("stray.pdn");
    let out = dir.join("out");
    for (text, line, found) in [
        (
            "[GameType \"21\"]\n\n1. 11-15 {a {nested} comment} 23-19 *\n",
            3,
            '}',
        ),
        ("[GameType \"21\"]\n1. 11-15 {x}} *\n", 2, '}'),
        ("[GameType \"21\"]\n1. 11-15 ] *\n", 2, ']'),
    ] {
        std::fs::write(&bad, text).unwrap();
        let bad = bad.to_str().unwrap();
        let want = format!("line {line}: unexpected '{found}'");
        let e = common::one_error_line_within(&["replay", bad], 10);
        assert!(e.contains(&want), "{text:?}: {e}");
        let args = ["arena", "report", bad, "--out", out.to_str().unwrap()];
        let e = common::one_error_line_within(&args, 10);
        assert!(e.contains(&want), "{text:?}: {e}");
    }
}

#[test]
fn every_game_records_in_its_notation_and_replays() {
    let cases: [(&[&str], &str); 4] = [
        (&["--board", "4x5"], "pgn"),
        (&["--game", "woodpush", "--width", "7"], "pgn"),
        (
            &["--game", "chinese-checkers", "--pieces-per-side", "1"],
            "pgn",
        ),
        (&["--game", "checkers"], "pdn"),
    ];
    for (i, (size, ext)) in cases.iter().enumerate() {
        let dir = scratch(&format!("every-{i}"));
        let out = dir.join("out");
        let extra = [&["--games", "2", "--ply-cap", "80"], *size].concat();
        arena_ok(["random", "random:seed=2"], &out, &extra);
        let file = out.join(format!("games.{ext}"));
        let pgn = std::fs::read_to_string(&file).unwrap();
        // Random players finish their games in order of length: compare game 0 of each.
        let jsonl = games(&out.join("games.jsonl"));
        let line = jsonl.iter().position(|g| g["number"] == 0).unwrap() + 1;
        let from_json = run_ok(&[
            "replay",
            out.join("games.jsonl").to_str().unwrap(),
            "--index",
            &line.to_string(),
        ]);
        let from_pgn = run_ok(&["replay", file.to_str().unwrap()]);
        assert_eq!(
            from_json.split_once('\n').unwrap().1,
            from_pgn.split_once('\n').unwrap().1,
            "{size:?}"
        );
        assert!(tag(&pgn, 0, "FEN").is_some(), "{size:?}: {pgn}");
        if *ext == "pdn" {
            // What checkers programs read: GameType 21, the side to move and squares.
            assert_eq!(tag(&pgn, 0, "GameType").as_deref(), Some("21"));
            assert!(tag(&pgn, 0, "FEN").unwrap().starts_with("B:W"), "{pgn}");
            assert!(tag(&pgn, 0, "Black").is_some() && tag(&pgn, 0, "White").is_some());
            // Without the Game tag, GameType alone names the game.
            let bare: String = pgn
                .lines()
                .filter(|l| !l.starts_with("[Game \"") && !l.starts_with("[Parameters"))
                .map(|l| format!("{l}\n"))
                .collect();
            let other = dir.join("other.pdn");
            std::fs::write(&other, bare).unwrap();
            assert_eq!(run_ok(&["replay", other.to_str().unwrap()]), from_pgn);
        }
    }
}

/// The arguments of `quasar play` on 5x5, 50 simulations a move, that saves its game to
/// `path`.
fn play_saving(path: &str) -> [&str; 7] {
    ["play", "--board", "5x5", "--sims", "50", "--out", path]
}

/// The input of a `quasar play` in which White plays one move and leaves.
const ONE_MOVE: &[u8] = b"a2-a3\nquit\n";

#[test]
fn play_saves_its_game_in_the_same_format() {
    let dir = scratch("play");
    let saved = dir.join("game.pgn");
    let (ok, _, err) = common::with_input(&play_saving(saved.to_str().unwrap()), ONE_MOVE);
    assert!(ok, "{err}");
    let pgn = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(tag(&pgn, 0, "White").as_deref(), Some("human"));
    assert_eq!(tag(&pgn, 0, "Result").as_deref(), Some("0-1"));
    assert_eq!(tag(&pgn, 0, "WhiteTimeControl").as_deref(), Some("-"));
    assert_eq!(
        tag(&pgn, 0, "BlackTimeControl").as_deref(),
        Some("50 sims/move")
    );
    assert_eq!(tag(&pgn, 0, "FEN"), None, "the standard start needs no FEN");
    assert!(pgn.contains("1. a2-a3 {"), "{pgn}");
    assert!(pgn.contains(", 50 sims, "), "{pgn}");
    let replay = run_ok(&["replay", saved.to_str().unwrap()]);
    assert!(replay.contains("1. White plays a2-a3") && replay.contains("2. Black plays"));
}

#[test]
fn play_refuses_a_save_path_it_cannot_write_before_the_game() {
    let dir = scratch("play-unwritable");
    let missing = dir.join("no-such-folder").join("game.pgn");
    // A folder that takes no new file, even for root.
    let unwritable = std::path::Path::new("/proc/quasar-play-save.pgn");
    for (path, why) in [
        (missing.as_path(), "folder"),
        (unwritable, "cannot write there"),
    ] {
        let out = common::output_within(&play_saving(path.to_str().unwrap()), ONE_MOVE, 30);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.starts_with("error: --out ") && err.contains(why) && err.lines().count() == 1,
            "{err}"
        );
        assert!(out.stdout.is_empty(), "a game was played: {err}");
    }
}

#[test]
fn arena_report_reads_the_pgn_records_back_with_their_clocks() {
    let dir = scratch("report-pgn");
    let out = dir.join("m");
    // A round robin of three under clocks, one of them a clock of its own.
    arena_ok(
        ["mcts", "ab:tc=2s+20ms", "random"],
        &out,
        &["--board", "5x5", "--tc", "1s+10ms", "--games", "2"],
    );
    let pgn_path = out.join("games.pgn");
    let rep = dir.join("from-pgn");
    let (stdout, _) = report(&[&pgn_path], &rep, &[]);
    assert!(
        stdout.starts_with(
            "5x5, budgets: mcts 1s+10ms clock, ab:tc=2s+20ms 2s+20ms clock, random 1s+10ms \
             clock, 2 games per pairing, openings of 2 random plies (seed 1)"
        ),
        "{stdout}"
    );
    // The same tables as the match's, and the same PGN written again from what was read:
    // tags, moves, each move's search information, time and clock.
    for file in ["crosstable.csv", "ratings.csv", "games.pgn"] {
        let a = std::fs::read_to_string(out.join(file)).unwrap();
        let b = std::fs::read_to_string(rep.join(file)).unwrap();
        assert_eq!(a, b, "{file}");
    }
    // The pairings' results alike; their move times (the last four columns) from the PGN's
    // milliseconds.
    let columns = |dir: &Path| -> Vec<Vec<String>> {
        std::fs::read_to_string(dir.join("pairings.csv"))
            .unwrap()
            .lines()
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect()
    };
    let (a, b) = (columns(&out), columns(&rep));
    assert_eq!(a.len(), 4);
    for (x, y) in a.iter().zip(&b) {
        let n = x.len();
        assert_eq!(x[..n - 4], y[..n - 4]);
        for (p, q) in x[n - 4..].iter().zip(&y[n - 4..]) {
            if let (Ok(p), Ok(q)) = (p.parse::<f64>(), q.parse::<f64>()) {
                assert!((p - q).abs() < 1.0, "{x:?} {y:?}");
            }
        }
    }
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(pgn.contains("[%clk 0:00:0"), "{pgn}");
    // The viewer's clocks come from the %clk comments, to the tenth of a second.
    let html = std::fs::read_to_string(rep.join("report.html")).unwrap();
    assert!(html.contains("\"clk\":[\"0:00:0"), "the viewer's clocks");
    // A PGN that is not an arena's is refused, naming the game and what it lacks.
    let other = dir.join("other.pgn");
    std::fs::write(
        &other,
        "[Event \"x\"]\n[Game \"breakthrough\"]\n\n1. a2-a3 *\n",
    )
    .unwrap();
    let e = one_error_line(&[
        "arena",
        "report",
        other.to_str().unwrap(),
        "--out",
        rep.to_str().unwrap(),
    ]);
    assert!(
        e.contains("other.pgn, game 1: it has no Player1 and Player2 tag: not a game of a quasar arena match"),
        "{e}"
    );
}

/// `record`'s JSON Lines with `edit` applied to its line `n` (from 1), written to `to`.
fn edited(record: &Path, n: usize, to: &Path, edit: impl Fn(&mut Value)) {
    let mut lines: Vec<Value> = games(record);
    edit(&mut lines[n - 1]);
    let text: String = lines.iter().map(|g| format!("{g}\n")).collect();
    std::fs::write(to, text).unwrap();
}

#[test]
fn records_whose_moves_contradict_them_are_refused_with_their_line() {
    let dir = scratch("contradict");
    let out = dir.join("out");
    let players = ["random", "random:seed=2"];
    let extra = ["--board", "5x5", "--games", "2", "--jobs", "1"];
    arena_ok(players, &out, &extra);
    let record = out.join("games.jsonl");
    let recs = games(&record);
    assert!(recs.iter().all(|r| r["reason"] == "win"), "{recs:?}");
    let flip = |g: &mut Value| {
        g["winner"] = if g["winner"] == "first" {
            "second"
        } else {
            "first"
        }
        .into();
    };
    let illegal = |g: &mut Value| g["moves"][1] = "z9-z8".into();
    let negative = |g: &mut Value| g["times_ms"][1] = (-5.0).into();
    let huge = |g: &mut Value| g["times_ms"][0] = 1e308.into();
    let size = |g: &mut Value| g["params"] = "99x99".into();
    for (name, edit, why) in [
        (
            "flipped",
            &flip as &dyn Fn(&mut Value),
            "contradicts its moves",
        ),
        ("illegal", &illegal, "move 2 (z9-z8)"),
        ("negative", &negative, "move 2's time -5 ms is not a time"),
        ("huge", &huge, "move 1's time 1e308 ms is not a time"),
        ("size", &size, "board 99x99 has 9801 cells"),
    ] {
        let bad = dir.join(format!("{name}.jsonl"));
        edited(&record, 2, &bad, edit);
        let b = bad.to_str().unwrap();
        let want = format!("{b}, line 2: ");
        let e = one_error_line(&[
            "arena",
            "report",
            b,
            "--out",
            dir.join("r").to_str().unwrap(),
        ]);
        assert!(e.contains(&want) && e.contains(why), "{e}");
        let e = one_error_line(&["replay", b, "--index", "2"]);
        assert!(e.contains("line 2: ") && e.contains(why), "{e}");
        // A resumed match counts no game it cannot replay.
        let mut args = common::arena_args(players, &out, &extra);
        args.extend_from_slice(&["--record", b]);
        let e = one_error_line(&args);
        // A record of another size is another match to a resume, before its games are read.
        let refused = match name {
            "size" => e.contains("with parameters 99x99, but this match has 5x5"),
            _ => e.contains(&want) && e.contains(why),
        };
        assert!(refused, "{e}");
    }
    // The same in the PGN-style record: its first game's result flipped.
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let first = pgn.split("\n\n[").next().unwrap();
    let (won, lost) = match tag(&pgn, 0, "Result").as_deref() {
        Some("1-0") => ("1-0", "0-1"),
        _ => ("0-1", "1-0"),
    };
    let flipped = first.replace(won, lost) + &pgn[first.len()..];
    let bad = dir.join("flipped.pgn");
    std::fs::write(&bad, flipped).unwrap();
    let b = bad.to_str().unwrap();
    let e = one_error_line(&[
        "arena",
        "report",
        b,
        "--out",
        dir.join("r").to_str().unwrap(),
    ]);
    assert!(
        e.contains(&format!("{b}, line 1: ")) && e.contains("contradicts"),
        "{e}"
    );
    let e = one_error_line(&["replay", b]);
    assert!(e.contains("line 1: ") && e.contains("contradicts"), "{e}");
}
