//! `quasar arena` end to end: a small match runs, colours balance, records parse back, a
//! resumed match replays no finished game (also after a write cut short), and records of
//! other settings, damaged records and records in use are refused.

mod common;

use common::{arena_args, arena_ok, fails_saying, one_error_line, quasar, report, run_ok, strs};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("arena", name)
}

fn games(record: &Path) -> Vec<Value> {
    common::json_lines(record)
}

/// Plays `games` games of [`random_args`] on two threads.
fn random_match(dir: &Path, games: &str) -> (String, String) {
    run_ok(&strs(&random_args(dir, games, &["--jobs", "2"])))
}

/// Replays a record's moves with a deliberately plain rule check: each move is one row
/// forward for its colour, straight onto an empty cell or diagonally onto any cell not
/// holding its own colour, and the game ends when a piece reaches the far row.
fn replay_plain(opening: &[Value], moves: &[Value]) -> &'static str {
    let mut cells = [[b'.'; 6]; 6]; // [row][col], row 0 = rank 1
    cells[0] = [b'W'; 6];
    cells[1] = [b'W'; 6];
    cells[4] = [b'B'; 6];
    cells[5] = [b'B'; 6];
    let mut white = true;
    for m in opening.iter().chain(moves) {
        let m = m.as_str().unwrap().as_bytes();
        let (fc, fr, capture, tc, tr) = (
            (m[0] - b'a') as usize,
            (m[1] - b'1') as usize,
            m[2] == b'x',
            (m[3] - b'a') as usize,
            (m[4] - b'1') as usize,
        );
        let (me, dir) = if white { (b'W', 1i32) } else { (b'B', -1) };
        assert_eq!(cells[fr][fc], me, "{m:?}: no own piece there");
        assert_eq!(tr as i32 - fr as i32, dir, "{m:?}: not one row forward");
        assert!((tc as i32 - fc as i32).abs() <= 1);
        let target = cells[tr][tc];
        if tc == fc {
            assert_eq!(target, b'.', "straight moves need an empty cell");
        } else {
            assert_ne!(target, me);
        }
        assert_eq!(capture, target != b'.');
        cells[tr][tc] = me;
        cells[fr][fc] = b'.';
        white = !white;
    }
    if cells[5].contains(&b'W') || !cells.iter().flatten().any(|&c| c == b'B') {
        "white"
    } else if cells[0].contains(&b'B') || !cells.iter().flatten().any(|&c| c == b'W') {
        "black"
    } else {
        "no-moves-or-other"
    }
}

/// The record's name for the winner: White moves first in Breakthrough.
fn side_of(colour: &str) -> &'static str {
    match colour {
        "white" => "first",
        "black" => "second",
        other => panic!("no winner: {other}"),
    }
}

#[test]
fn a_four_game_match_runs_balances_colours_and_records_parse_back() {
    let dir = scratch("four");
    let (stdout, stderr) = random_match(&dir, "4");
    assert!(stderr.contains("new games played: 4"), "{stderr}");
    let recs = games(&dir.join("games.jsonl"));
    assert_eq!(recs.len(), 4);
    let mut a_white = 0;
    let mut by_opening: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    let (mut a_wins, mut b_wins) = (0, 0);
    for r in &recs {
        assert_eq!(r["game"], "breakthrough");
        assert_eq!(r["params"], "6x6");
        assert_eq!(r["ply_cap"], 1000);
        assert_eq!(r["opening_moves"].as_array().unwrap().len(), 3);
        let number = r["number"].as_u64().unwrap();
        let a_is_white = r["first"] == "random";
        assert_eq!(a_is_white, number % 2 == 0);
        if a_is_white {
            a_white += 1;
            assert_eq!(r["second"], "random:seed=2");
        }
        let moves = r["moves"].as_array().unwrap();
        assert_eq!(r["times_ms"].as_array().unwrap().len(), moves.len());
        assert_eq!(r["reason"], "win", "{r}");
        let detail = r["detail"].as_str().unwrap();
        assert!(
            detail.ends_with("reached the far row") || detail.ends_with("lost its last piece"),
            "{r}"
        );
        let winner = replay_plain(r["opening_moves"].as_array().unwrap(), moves);
        assert_eq!(
            r["winner"],
            side_of(winner),
            "the record's winner follows from its moves"
        );
        if (winner == "white") == a_is_white {
            a_wins += 1;
        } else {
            b_wins += 1;
        }
        by_opening
            .entry(r["opening"].as_u64().unwrap())
            .or_default()
            .push(r);
    }
    assert_eq!(a_white, 2, "each player has White in half the games");
    assert_eq!(by_opening.len(), 2);
    for pair in by_opening.values() {
        assert_eq!(pair.len(), 2);
        assert_eq!(pair[0]["opening_moves"], pair[1]["opening_moves"]);
        assert_ne!(pair[0]["first"], pair[1]["first"]);
    }
    // The terminal table's totals agree with the record.
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| 1 |"))
        .unwrap_or_else(|| panic!("no table row in:\n{stdout}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(cells[6], format!("{a_wins} - {b_wins}"), "{row}");
    let csv = std::fs::read_to_string(dir.join("out/pairings.csv")).unwrap();
    let fields: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        (fields[9], fields[10]),
        (&*a_wins.to_string(), &*b_wins.to_string())
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/report.json")).unwrap())
            .unwrap();
    assert_eq!(json["pairings"][0]["total"]["wins"], a_wins);
    let svg = std::fs::read_to_string(dir.join("out/winrates.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("random vs random:seed=2"));
}

#[test]
fn a_resumed_match_replays_nothing() {
    let dir = scratch("resume");
    let record = dir.join("games.jsonl");
    random_match(&dir, "4");
    let first = std::fs::read_to_string(&record).unwrap();

    // Asking for 8: only the 4 missing games are played, the first 4 lines stay as they were.
    let (_, stderr) = random_match(&dir, "8");
    assert!(stderr.contains("new games played: 4;"), "{stderr}");
    assert!(stderr.contains(": 4 (finished games"), "{stderr}");
    let after = std::fs::read_to_string(&record).unwrap();
    assert!(after.starts_with(&first));
    let recs = games(&record);
    let numbers: BTreeSet<u64> = recs.iter().map(|r| r["number"].as_u64().unwrap()).collect();
    assert_eq!(recs.len(), 8);
    assert_eq!(numbers, (0..8).collect());

    // Asking again: nothing to play.
    let (_, stderr) = random_match(&dir, "8");
    assert!(stderr.contains("new games played: 0;"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), after);

    // Asking for fewer than the record holds: refused, naming its count, the record kept.
    let (ok, _, err) = quasar(&strs(&random_args(&dir, "2", &["--jobs", "2"])));
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "error: record {} holds 8 games a pairing, more than --games 2: a record is never \
             cut; give --games 8 or more to resume it (the report covers every game), or \
             another --out (or --record)",
            record.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), after);

    // A write cut short: half of the last line. That game alone is played again.
    let keep = after.trim_end().rfind('\n').unwrap() + 1;
    let last_len = after.len() - keep;
    std::fs::write(&record, &after[..keep + last_len / 2]).unwrap();
    let (_, stderr) = random_match(&dir, "8");
    assert!(
        stderr.contains("dropped an unfinished last line"),
        "{stderr}"
    );
    assert!(stderr.contains("new games played: 1;"), "{stderr}");
    let recs = games(&record);
    let numbers: BTreeSet<u64> = recs.iter().map(|r| r["number"].as_u64().unwrap()).collect();
    assert_eq!(recs.len(), 8);
    assert_eq!(numbers, (0..8).collect());
    // Random players with the same seeds replay the lost game identically (but for its times).
    let strip = |mut v: Vec<Value>| {
        for r in &mut v {
            r.as_object_mut().unwrap().remove("times_ms");
        }
        v
    };
    std::fs::write(dir.join("before.jsonl"), &after).unwrap();
    assert_eq!(strip(recs), strip(games(&dir.join("before.jsonl"))));
}

#[test]
fn a_record_of_other_settings_is_refused() {
    let dir = scratch("mismatch");
    random_match(&dir, "2");
    let record = dir.join("games.jsonl");
    let mut args = random_args(&dir, "2", &[]);
    set(&mut args, "--seed", "6");
    let e = fails_saying(&strs(&args), "with seed 5, but this match has 6");
    assert!(e.contains("another --record"), "{e}");

    // A record whose opening differs from the one the seed makes is refused too.
    let mut recs = games(&record);
    recs[0]["opening_moves"] = serde_json::json!(["a2-a3", "a5-a4", "b2-b3"]);
    let lines: Vec<String> = recs.iter().map(|r| r.to_string() + "\n").collect();
    std::fs::write(&record, lines.concat()).unwrap();
    fails_saying(
        &strs(&random_args(&dir, "2", &[])),
        "from the same seed; use another --record",
    );
}

#[test]
fn a_round_robin_gives_a_cross_table() {
    let dir = scratch("robin");
    let out = dir.join("out");
    let players = ["random", "random:seed=2", "random:seed=3"];
    let (stdout, _) = arena_ok(players, &out, &["--games", "2"]);
    assert!(stdout.contains("Cross table"), "{stdout}");
    let cross = std::fs::read_to_string(out.join("crosstable.csv")).unwrap();
    assert_eq!(cross.lines().count(), 4);
    // Three pairings of two games each: 6 games, in the default record under --out.
    assert_eq!(games(&out.join("games.jsonl")).len(), 6);

    // The rating list: the first player is 0, better scores rate higher (every pairing
    // played as often), and another anchor moves every rating by the same amount.
    assert!(stdout.contains("Ratings (maximum likelihood"), "{stdout}");
    let rows = |dir: &Path| -> Vec<(String, f64, f64)> {
        std::fs::read_to_string(dir.join("ratings.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (
                    f[1].to_string(),
                    f[2].parse().unwrap(),
                    f[6].parse().unwrap(),
                )
            })
            .collect()
    };
    let first = rows(&out);
    assert_eq!(first.len(), 3);
    let elo_of = |rows: &[(String, f64, f64)], p: &str| rows.iter().find(|r| r.0 == p).unwrap().1;
    assert_eq!(elo_of(&first, "random"), 0.0);
    assert!(
        first
            .windows(2)
            .all(|w| w[0].1 >= w[1].1 && w[0].2 >= w[1].2),
        "{first:?}"
    );
    let again = dir.join("again");
    report(
        &[&out.join("games.jsonl")],
        &again,
        &["--anchor", "random:seed=3"],
    );
    let second = rows(&again);
    let shift = elo_of(&first, "random:seed=3");
    for (p, elo, _) in &first {
        assert!(
            (elo_of(&second, p) - (elo - shift)).abs() < 0.15,
            "{first:?} {second:?}"
        );
    }
    let never = dir.join("never");
    let e = one_error_line(&arena_args(players, &never, &["--anchor", "mcts"]));
    assert!(
        e.contains("--anchor mcts: not a player of the match"),
        "{e}"
    );
    assert!(!dir.join("never").exists());
}

/// The player spec of a GTP engine, a script in `dir`, that answers every genmove with a
/// move off the board.
fn nonsense_engine(dir: &Path) -> String {
    let script = dir.join("nonsense.sh");
    std::fs::write(
        &script,
        "while read -r c rest; do case $c in genmove) printf '= z9z9\\n\\n';; quit) exit 0;; *) printf '=\\n\\n';; esac; done\n",
    )
    .unwrap();
    format!("gtp:sh {}", script.display())
}

#[test]
fn a_gtp_engine_that_answers_nonsense_loses_every_game() {
    let dir = scratch("gtp");
    let spec = nonsense_engine(&dir);
    let out = dir.join("out");
    arena_ok([&spec, "random"], &out, &["--games", "2"]);
    let recs = games(&out.join("games.jsonl"));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["reason"], "illegal");
        let gtp_first = r["first"] == spec.as_str();
        assert_eq!(r["winner"], if gtp_first { "second" } else { "first" });
        assert!(r["detail"].as_str().unwrap().contains("z9z9"));
    }
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let dir = scratch("sprt");
    let spec = nonsense_engine(&dir);
    let out = dir.join("out");
    let (_, stderr) = arena_ok(
        [&spec, "random"],
        &out,
        &["--games", "200", "--jobs", "1", "--sprt", "elo0=0,elo1=50"],
    );
    // Every game is lost; Python: the LLR of n straight losses, n (s1-s0)(-s0-s1) / (2 m (1-m))
    // with m = (s0+s1)/2, first falls below ln(0.05/0.95) at n = 20.
    assert!(stderr.contains("H0 accepted"), "{stderr}");
    assert_eq!(games(&out.join("games.jsonl")).len(), 20);
}

#[test]
fn the_main_job_refuses_bad_arguments_before_it_builds_its_table() {
    let dir = scratch("main-job-bad");
    let cache = dir.join("tables");
    let missing = dir.join("no-openings.txt");
    let cases: [(&[&str], String); 5] = [
        (&["--games", "3"], "--games 3: give an even number".into()),
        (&["--jobs", "0"], "--jobs 0".into()),
        (
            &["--openings", missing.to_str().unwrap()],
            format!("openings file {}", missing.display()),
        ),
        (
            &["--openings", "/dev/zero"],
            "openings file /dev/zero is a character device".into(),
        ),
        (
            &["--record", "/dev/full"],
            "record /dev/full is a character device".into(),
        ),
    ];
    let out = dir.join("out");
    for (extra, want) in cases {
        let args = [
            &["arena", "--quiet", "--cache", cache.to_str().unwrap()][..],
            &["--out", out.to_str().unwrap()],
            extra,
        ]
        .concat();
        let (ok, _, err) = quasar(&args);
        assert!(!ok, "{extra:?}");
        assert!(
            err.starts_with(&format!("error: {want}")),
            "{extra:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        // Refused before the build: no table, not even its folder.
        assert!(!cache.exists(), "{extra:?} built the table first");
    }
}

#[test]
fn a_file_for_a_folder_and_a_ply_cap_of_0_are_refused_before_any_game() {
    let file = common::temp("arena", "a-file.txt");
    std::fs::write(&file, "keep me").unwrap();
    let f = file.to_str().unwrap();
    let want = |flag: &str, what: &str| {
        format!(
            "error: {flag} {f} is a regular file, not a folder: {flag} names the folder for \
             {what} (made when missing); give another"
        )
    };
    let players = [&RANDOM_PAIR[..], &["--games", "2"]].concat();
    for (extra, flag, what) in [
        (&["--out", f][..], "--out", "the report's files"),
        (&["--cache", f], "--cache", "the main job's tables"),
    ] {
        let args: Vec<&str> = if flag == "--cache" {
            [&["arena", "--quiet"][..], extra].concat()
        } else {
            [&players[..], extra].concat()
        };
        let (ok, _, err) = quasar(&args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.trim(), want(flag, what), "{args:?}");
    }
    let (_, _, err) = quasar(&["arena", "report", "x.jsonl", "--out", f]);
    assert_eq!(err.trim(), want("--out", "the report's files"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    // The header shows each player's own budget, not the match's default alone.
    let dir = scratch("own-budgets");
    let (out, _) = arena_ok(
        ["mcts:sims=20", "random"],
        &dir,
        &["--board", "4x4", "--games", "2", "--sims", "10"],
    );
    assert!(
        out.starts_with("4x4, per move: mcts:sims=20 20 sims, random 10 sims, 2 games"),
        "{out}"
    );
    let (ok, _, err) = quasar(&[&players[..], &["--ply-cap", "0"]].concat());
    assert!(!ok);
    assert!(
        err.starts_with("error: invalid value '0' for '--ply-cap <PLY_CAP>': 0 is not in 1.."),
        "{err}"
    );
}

#[test]
fn bad_requests_are_one_line_errors() {
    let two = "arena --player random --player random:seed=1";
    for (args, want) in [
        (
            "arena --player mcts:depth=3 --player random".to_string(),
            "unknown key 'depth'",
        ),
        (
            "arena --player mcts:tb=/nonexistent/t.qtb --player random".into(),
            "/nonexistent/t.qtb",
        ),
        (
            "arena --player random --player random".into(),
            "named twice",
        ),
        (format!("{two} --games 3"), "even"),
        ("arena --player random".into(), "at least two"),
        (
            "arena --board 5x5 --cache /tmp/quasar-arena-never-cache".into(),
            "the main job has its own",
        ),
        (format!("{two} --sims 0"), "at least one simulation"),
        (format!("{two} --game chess"), "chess"),
        (format!("{two} --sprt elo0=5,elo1=1"), "elo0 < elo1"),
        (
            "arena --player gtp:/nonexistent/engine --player random --games 2 --out \
             /tmp/quasar-arena-never"
                .into(),
            "cannot start GTP engine",
        ),
    ] {
        let args = common::words(&args);
        let (ok, _, e) = quasar(&strs(&args));
        assert!(!ok, "{args:?} should fail");
        assert!(e.contains(want), "{args:?}: '{e}' should mention '{want}'");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

#[test]
fn the_engine_beats_a_random_player_with_either_colour() {
    let dir = scratch("mcts");
    let out = dir.join("out");
    arena_ok(
        ["mcts:sims=400", "random"],
        &out,
        &["--games", "4", "--jobs", "2", "--seed", "3"],
    );
    let record = games(&out.join("games.jsonl"));
    assert_eq!(record.len(), 4);
    for r in &record {
        let winner = replay_plain(
            r["opening_moves"].as_array().unwrap(),
            r["moves"].as_array().unwrap(),
        );
        let engine_colour = if r["first"] == "mcts:sims=400" {
            "white"
        } else {
            "black"
        };
        assert_eq!(
            winner, engine_colour,
            "400 simulations a move lose to random play: {r}"
        );
    }
}

#[test]
fn the_main_job_builds_its_table_once_and_plays_with_and_without_it() {
    let dir = scratch("main-job");
    let cache = dir.join("cache");
    let out = dir.join("out");
    let args = [
        "arena",
        "--cache",
        cache.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "--time",
        "20ms",
        "--quiet",
    ];
    let (stdout, stderr) = run_ok(&args);
    assert!(
        stderr.contains("building the 6x6 4-row tablebase"),
        "{stderr}"
    );
    // The sliced form, complete: 25 MB where one B-tree file is 910 MB.
    let table = cache.join("6x6-r4.d");
    assert!(table.join("manifest").is_file());
    let slices = std::fs::read_dir(&table)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "qts")
        })
        .count();
    assert_eq!(slices, 2080);
    assert!(stdout.contains("mcts:tb="), "{stdout}");
    let record = games(&out.join("games.jsonl"));
    assert_eq!(record.len(), 2);
    // A second run reuses the table and, with the same record, replays nothing.
    let (_, stderr) = run_ok(&args);
    assert!(stderr.contains("reusing the tablebase"), "{stderr}");
    assert!(stderr.contains("new games played: 0"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Resuming the record in `dir` with [`random_args`] of `games` and `extra` fails in one
/// line that names `why` and asks for another record.
fn refused_resume(dir: &Path, games: &str, extra: &[&str], why: &str) {
    let e = one_error_line(&strs(&random_args(dir, games, extra)));
    assert!(e.contains(why) && e.contains("another --record"), "{e}");
}

/// An arena match of two random players, the second with its own seed.
const RANDOM_PAIR: [&str; 5] = ["arena", "--player", "random", "--player", "random:seed=2"];

/// The arguments of a match of two random players with fixed seeds, `games` games a
/// pairing from openings of 3 plies, into `dir/out` with the record `dir/games.jsonl`,
/// with `extra` options.
fn random_args<'a>(dir: &'a Path, games: &'a str, extra: &[&'a str]) -> Vec<String> {
    let fixed = [
        "--games",
        games,
        "--openings-plies",
        "3",
        "--seed",
        "5",
        "--quiet",
    ];
    let mut args: Vec<String> = [&RANDOM_PAIR[..], &fixed[..]]
        .concat()
        .into_iter()
        .map(String::from)
        .collect();
    args.extend(["--out".into(), dir.join("out").display().to_string()]);
    args.extend([
        "--record".into(),
        dir.join("games.jsonl").display().to_string(),
    ]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn a_record_that_the_runs_own_files_would_overwrite_is_refused_before_any_game() {
    let dir = scratch("record-taken");
    let out = dir.join("out");
    let elsewhere = dir.join("games.pgn");
    for record in [
        out.join("games.pgn"),
        out.join("report.json"),
        out.join("pairings.csv"),
        out.join("report.html"),
        out.join("winrates.svg"),
        out.join(".").join("crosstable.csv"),
        elsewhere.clone(),
    ] {
        let mut args = random_args(&dir, "2", &[]);
        set(&mut args, "--record", record.to_str().unwrap());
        let e = one_error_line(&strs(&args));
        assert!(
            e.starts_with(&format!("error: --record {}: ", record.display())) && e.contains("over"),
            "{e}"
        );
        assert!(!record.exists(), "{e}");
    }
    // The same names elsewhere than --out are records like any other.
    let mut args = random_args(&dir, "2", &[]);
    set(
        &mut args,
        "--record",
        dir.join("report.json").to_str().unwrap(),
    );
    run_ok(&strs(&args));
    assert_eq!(games(&dir.join("report.json")).len(), 2);
}

/// The detail of the game record `r`, which the GTP engine `spec` lost by a crash.
fn crash_detail<'a>(r: &'a serde_json::Value, spec: &str) -> &'a str {
    assert_eq!(r["reason"], "crash", "{r}");
    let engine_first = r["first"] == spec;
    assert_eq!(r["winner"], if engine_first { "second" } else { "first" });
    r["detail"].as_str().unwrap()
}

/// Sets the value of the option `flag` in `args`.
fn set(args: &mut [String], flag: &str, value: &str) {
    let at = args
        .iter()
        .position(|a| a == flag)
        .expect("the option is given");
    args[at + 1] = value.into();
}

#[test]
fn a_board_without_a_start_position_is_one_error_line() {
    let dir = scratch("no-start");
    let e = one_error_line(&strs(&random_args(&dir, "2", &["--board", "5x3"])));
    assert!(e.contains("no start position"), "{e}");
}

#[test]
fn a_gtp_engine_that_exits_loses_with_the_reason_and_the_match_goes_on() {
    let dir = scratch("exits");
    // Answers boardsize, then exits: the next write to it fails (EPIPE, once SIGPIPE).
    let script = dir.join("exits.sh");
    std::fs::write(&script, "read -r line; printf '=\\n\\n'; exit 0\n").unwrap();
    let spec = format!("gtp:sh {}", script.display());
    let out = dir.join("out");
    let (stdout, stderr) = arena_ok([&spec, "random"], &out, &["--games", "4", "--jobs", "1"]);
    assert!(stderr.contains("new games played: 4"), "{stderr}");
    assert!(stdout.contains("| 1 |"), "{stdout}");
    let recs = games(&out.join("games.jsonl"));
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let d = crash_detail(r, &spec);
        assert!(
            d.contains("exited") || d.contains("closed its input"),
            "{d}"
        );
    }
}

#[test]
fn a_gtp_engine_that_floods_its_reply_is_stopped_and_loses() {
    let dir = scratch("floods");
    for (name, flood, why) in [
        ("lines", "exec yes garbage", "more than 10000 lines"),
        ("blank", "exec yes ''", "more than 10000 lines"),
        (
            "endless-line",
            "printf '= '; exec cat /dev/zero",
            "a line longer than",
        ),
    ] {
        let script = dir.join(format!("{name}.sh"));
        std::fs::write(
            &script,
            format!(
                "while read -r c rest; do case $c in genmove) {flood};; quit) exit 0;; \
                 *) printf '=\\n\\n';; esac; done\n"
            ),
        )
        .unwrap();
        let spec = format!("gtp:sh {}", script.display());
        let out = dir.join(name);
        let args = arena_args([&spec, "random"], &out, &["--games", "2", "--jobs", "1"]);
        let run = common::output_within(&args, b"", 30);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let recs = games(&out.join("games.jsonl"));
        assert_eq!(recs.len(), 2);
        for r in &recs {
            let d = crash_detail(r, &spec);
            assert!(d.contains(why) && d.len() < 1000, "{d}");
        }
    }
    // An engine that floods from its first command cannot start a game.
    let script = dir.join("at-once.sh");
    std::fs::write(&script, "exec yes garbage\n").unwrap();
    let spec = format!("gtp:sh {}", script.display());
    let out = dir.join("at-once");
    let args = arena_args([&spec, "random"], &out, &["--games", "2"]);
    let e = common::one_error_line_within(&args, 30);
    assert!(
        e.contains("could not start a game") && e.contains("more than 10000 lines"),
        "{e}"
    );
}

#[test]
fn an_engine_that_cannot_start_a_game_stops_the_match_naming_it() {
    let dir = scratch("no-start");
    // One engine dies before its first answer; the other refuses the board size.
    let dies = dir.join("dies.sh");
    std::fs::write(&dies, "echo 'no weights file' >&2; exit 3\n").unwrap();
    let refuses = dir.join("refuses.sh");
    std::fs::write(
        &refuses,
        "while read -r c rest; do case $c in boardsize) printf '? unacceptable size\\n\\n';; \
         quit) exit 0;; *) printf '=\\n\\n';; esac; done\n",
    )
    .unwrap();
    for (script, why) in [
        (&dies, "no weights file"),
        (&refuses, "refused 'boardsize 6': unacceptable size"),
    ] {
        let spec = format!("gtp:sh {}", script.display());
        let out = dir.join("out");
        let e = one_error_line(&arena_args(
            ["random", &spec],
            &out,
            &["--games", "4", "--jobs", "1"],
        ));
        assert!(
            e.starts_with(&format!(
                "error: player '{spec}': could not start a game: GTP engine 'sh {}'",
                script.display()
            )) && e.contains(why),
            "{e}"
        );
        // No game was recorded as won or lost.
        let record = out.join("games.jsonl");
        assert!(!record.exists() || games(&record).is_empty(), "{e}");
    }
}

#[test]
fn a_resumed_match_refuses_a_changed_ply_cap() {
    let dir = scratch("ply-cap");
    run_ok(&strs(&random_args(&dir, "2", &[])));
    refused_resume(
        &dir,
        "2",
        &["--ply-cap", "500"],
        "with ply cap 1000, but this match has 500",
    );
}

#[test]
fn a_resumed_match_refuses_changed_resign_and_draw_rules() {
    let dir = scratch("value-rules");
    let resign = ["--resign", "movecount=2,score=0.1"];
    run_ok(&strs(&random_args(&dir, "2", &resign)));
    refused_resume(
        &dir,
        "4",
        &[],
        "with resign and draw rules resign movecount=2,score=0.1, but this match has none",
    );
    let draw = ["--draw", "movenumber=5,movecount=2,score=0.1"];
    let e = one_error_line(&strs(&random_args(
        &dir,
        "4",
        &[&resign[..], &draw].concat(),
    )));
    assert!(
        e.contains("but this match has resign movecount=2,score=0.1; draw movenumber=5,movecount=2,score=0.1"),
        "{e}"
    );
    // The same rules resume the record.
    run_ok(&strs(&random_args(&dir, "4", &resign)));
    assert_eq!(games(&dir.join("games.jsonl")).len(), 4);
}

#[test]
fn a_match_of_other_players_is_refused_before_it_plays() {
    let dir = scratch("other-players");
    run_ok(&strs(&random_args(&dir, "2", &[])));
    let before = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let report = std::fs::read_to_string(dir.join("out").join("report.json")).unwrap();
    // Another player, or one more: one error line naming the difference; nothing written.
    for extra in [&["--player", "random:seed=3"][..], &[][..]] {
        let mut args = random_args(&dir, "2", extra);
        if extra.is_empty() {
            let at = args.iter().position(|a| a == "random:seed=2").unwrap();
            args[at] = "random:seed=3".into();
        }
        let e = one_error_line(&strs(&args));
        let now = if extra.is_empty() {
            "random, random:seed=3"
        } else {
            "random, random:seed=2, random:seed=3"
        };
        assert!(
            e.contains(&format!(
                "with players random, random:seed=2, but this match has {now}: one record holds one match"
            )) && e.contains("another --out"),
            "{e}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("games.jsonl")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out").join("report.json")).unwrap(),
        report
    );
}

#[test]
fn a_record_with_a_game_twice_is_refused() {
    let dir = scratch("twice");
    run_ok(&strs(&random_args(&dir, "2", &[])));
    let record = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&record).unwrap();
    let first = text.lines().next().unwrap();
    std::fs::write(&record, format!("{text}{first}\n")).unwrap();
    let e = one_error_line(&strs(&random_args(&dir, "4", &[])));
    assert!(e.contains("twice (lines 1 and 3)"), "{e}");
}

#[test]
fn a_record_in_use_by_another_run_is_refused() {
    let dir = scratch("in-use");
    let record = dir.join("games.jsonl");
    // Another run holds the record: here the test takes the same lock a run takes.
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&record)
        .unwrap();
    held.try_lock().unwrap();
    let e = one_error_line(&strs(&random_args(&dir, "2", &[])));
    assert!(e.contains("in use by another quasar arena run"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        "",
        "nothing written"
    );
    drop(held);
    run_ok(&strs(&random_args(&dir, "2", &[])));
    assert_eq!(games(&record).len(), 2);
}

#[test]
fn a_time_in_microseconds_is_accepted_as_everywhere() {
    let dir = scratch("micro");
    let (stdout, _) = run_ok(&strs(&random_args(&dir, "2", &["--time", "900us"])));
    assert!(stdout.starts_with("6x6, 900us per move"), "{stdout}");
}

/// The options of a small deterministic round robin (random players with fixed seeds and
/// MCTS with a fixed number of simulations), sharded when `shard` is given.
fn robin_args(out: &Path, shard: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = [
        "arena",
        "--player",
        "random",
        "--player",
        "random:seed=2",
        "--player",
        "mcts:sims=20",
        "--games",
        "4",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--quiet",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(out.display().to_string());
    if let Some(s) = shard {
        args.extend(["--shard".to_string(), s.to_string()]);
    }
    args
}

/// A record's games without their move times (the only thing a replay changes), in the
/// order of pairing and number.
fn timeless(mut recs: Vec<Value>) -> Vec<Value> {
    for r in &mut recs {
        r.as_object_mut().unwrap().remove("times_ms");
    }
    recs.sort_by_key(|r| {
        (
            r["player_a"].as_str().unwrap().to_string(),
            r["player_b"].as_str().unwrap().to_string(),
            r["number"].as_u64().unwrap(),
        )
    });
    recs
}

/// The report's tables after its first line, without the time a move (the same games
/// played in another run took other times), and its closing sentence without the report's
/// path.
fn table(stdout: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    let mut timing = false;
    for line in stdout.lines().skip(1) {
        let line = line.split_once("eport is ").map_or(line, |(said, _)| said);
        if line.starts_with("Time per move") {
            timing = true;
        } else if timing && !line.is_empty() && !line.starts_with('|') {
            timing = false;
        }
        if !timing {
            lines.push(line);
        }
    }
    lines.join("\n")
}

#[test]
fn two_shards_merged_equal_one_whole_run() {
    let dir = scratch("shards");
    let (whole_out, _) = run_ok(&strs(&robin_args(&dir.join("whole"), None)));
    let shards = dir.join("shards");
    let mut share_sizes = Vec::new();
    for s in ["1/2", "2/2"] {
        let (_, e) = run_ok(&strs(&robin_args(&shards, Some(s))));
        assert!(e.contains(&format!("shard {s}: this job's share")), "{e}");
        share_sizes.push(games(&shards.join(format!("games-shard-{}-of-2.jsonl", &s[..1]))).len());
    }
    // Three pairings of two openings: units 0, 2, 4 and 1, 3, 5, two games each.
    assert_eq!(share_sizes, [6, 6]);
    assert!(
        !shards.join("pairings.csv").exists(),
        "a shard writes no report"
    );
    // A rerun of a finished shard plays nothing.
    let (_, e) = run_ok(&strs(&robin_args(&shards, Some("2/2"))));
    assert!(e.contains("new games played: 0;"), "{e}");

    let mut merged = games(&shards.join("games-shard-1-of-2.jsonl"));
    merged.extend(games(&shards.join("games-shard-2-of-2.jsonl")));
    let whole = games(&dir.join("whole/games.jsonl"));
    assert_eq!(whole.len(), 12);
    assert_eq!(timeless(merged), timeless(whole));

    let rep = dir.join("report");
    let shard = |i: usize| shards.join(format!("games-shard-{i}-of-2.jsonl"));
    let (report_out, e) = report(&[&shard(2), &shard(1)], &rep, &[]);
    assert!(e.contains("merged 12 games from 2 records"), "{e}");
    assert!(!e.contains("warning"), "{e}");
    assert_eq!(table(&report_out), table(&whole_out));
    assert!(
        report_out.starts_with("6x6, per move: random 100ms, random:seed=2 100ms, mcts:sims=20 20 sims, 4 games per pairing, openings of 2 random plies (seed 5)"),
        "{report_out}"
    );
    for f in [
        "pairings.csv",
        "crosstable.csv",
        "winrates.svg",
        "report.json",
    ] {
        assert!(rep.join(f).is_file(), "{f} written");
    }
    let csv = |d: &Path| {
        // The columns before the move times.
        std::fs::read_to_string(d.join("pairings.csv"))
            .unwrap()
            .lines()
            .map(|l| l.split(',').take(19).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    assert_eq!(csv(&rep), csv(&dir.join("whole")));

    // One shard alone: the report says which games are missing.
    let (_, e) = report(&[&shard(1)], &rep, &[]);
    assert!(
        e.contains(
            "warning: 6 of the match's 12 games are in no record (random vs random:seed=2: 2, 3;"
        ),
        "{e}"
    );
}

#[test]
fn reports_refuse_records_of_other_matches_and_games_twice() {
    let dir = scratch("report-refuse");
    let a = dir.join("a");
    run_ok(&strs(&robin_args(&a, Some("1/2"))));
    let first = a.join("games-shard-1-of-2.jsonl");
    let first = first.to_str().unwrap();
    let out = dir.join("rep");
    let out = out.to_str().unwrap();

    let e = one_error_line(&["arena", "report", first, first, "--out", out]);
    assert!(
        e.contains("game 0 of random vs random:seed=2 is in ")
            && e.contains("was one record given twice"),
        "{e}"
    );

    // Shard 2 of the same players under another seed.
    let b = dir.join("b");
    let mut args = robin_args(&b, Some("2/2"));
    set(&mut args, "--seed", "6");
    run_ok(&strs(&args));
    let second = b.join("games-shard-2-of-2.jsonl");
    let e = one_error_line(&[
        "arena",
        "report",
        first,
        second.to_str().unwrap(),
        "--out",
        out,
    ]);
    assert!(
        e.contains("(game 2 of random vs random:seed=2) has seed 6, but ")
            && e.contains("has 5: the records are of different matches"),
        "{e}"
    );

    let e = one_error_line(&["arena", "report", "/nonexistent/games.jsonl"]);
    assert!(e.contains("does not exist"), "{e}");

    // A shard's record given to another shard is refused, and nothing is played.
    let mut other = robin_args(&a, Some("2/2"));
    other.extend(["--record".into(), first.into()]);
    let e = one_error_line(&strs(&other));
    assert!(
        e.contains("which is not in shard 2/2's share; give each shard its own --record"),
        "{e}"
    );
    assert_eq!(games(Path::new(first)).len(), 6);

    let mut sprt = robin_args(&a, Some("1/2"));
    sprt.extend(["--sprt".into(), "elo0=0,elo1=50".into()]);
    let out = common::output(&strs(&sprt));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--shard"), "{err}");
}

/// The repository's `scripts/` folder.
fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts")
}

/// The whole-match record of a 2-player random match of 8 games, without times, for the
/// drivers' tests to compare with.
fn driver_whole(dir: &Path) -> Vec<Value> {
    let mut args = random_args(dir, "8", &[]);
    args.extend(["--jobs".into(), "1".into()]);
    run_ok(&strs(&args));
    timeless(games(&dir.join("games.jsonl")))
}

/// Runs a driver script under bash with QUASAR set to the test's binary.
fn bash(script: &Path, args: &[&str], path: Option<&Path>) -> (String, String) {
    let mut cmd = Command::new("bash");
    cmd.arg(script)
        .args(args)
        .env("QUASAR", env!("CARGO_BIN_EXE_quasar"));
    if let Some(p) = path {
        let old = std::env::var("PATH").unwrap_or_default();
        cmd.env("PATH", format!("{}:{old}", p.display()));
    }
    let out = cmd.output().expect("bash runs");
    let (so, se) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{script:?} {args:?}:\n{se}\n{so}");
    (so, se)
}

/// The match options the drivers' tests pass through (those of `random_args`).
const DRIVER_MATCH: [&str; 12] = [
    "--player",
    "random",
    "--player",
    "random:seed=2",
    "--games",
    "8",
    "--openings-plies",
    "3",
    "--seed",
    "5",
    "--jobs",
    "1",
];

#[test]
fn the_gnu_parallel_driver_plays_two_shards_and_reports_the_whole_match() {
    let dir = scratch("parallel");
    let whole = driver_whole(&dir.join("whole"));
    let out = dir.join("out");
    let mut args = vec!["2", out.to_str().unwrap()];
    args.extend(DRIVER_MATCH);
    let have_parallel = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let stdout = if have_parallel {
        bash(&scripts().join("arena-parallel.sh"), &args, None).0
    } else {
        // Without GNU parallel: the same two jobs as background shell jobs.
        eprintln!("GNU parallel is not installed: two background shell jobs instead");
        let q = env!("CARGO_BIN_EXE_quasar");
        let o = out.display();
        let opts = DRIVER_MATCH.join(" ");
        let line = format!(
            "set -e; for i in 1 2; do {q} arena {opts} --quiet --out {o} --shard $i/2 & done; wait; \
             {q} arena report {o}/games-shard-1-of-2.jsonl {o}/games-shard-2-of-2.jsonl --out {o}"
        );
        let r = Command::new("bash").arg("-c").arg(line).output().unwrap();
        assert!(r.status.success(), "{}", text(&r.stderr));
        text(&r.stdout)
    };
    assert!(
        stdout.contains("| 1 | `random` | `random:seed=2` |"),
        "{stdout}"
    );
    let mut merged = games(&out.join("games-shard-1-of-2.jsonl"));
    assert_eq!(merged.len(), 4);
    merged.extend(games(&out.join("games-shard-2-of-2.jsonl")));
    assert_eq!(timeless(merged), whole);
    assert!(out.join("pairings.csv").is_file());
}

#[test]
fn the_slurm_driver_submits_an_array_and_a_dependent_report() {
    let dir = scratch("slurm");
    let whole = driver_whole(&dir.join("whole"));
    // A stand-in sbatch: logs its options and runs the job at once (each array task with
    // its SLURM_ARRAY_TASK_ID), printing a job id as --parsable does.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("sbatch.log");
    std::fs::write(
        bin.join("sbatch"),
        format!(
            "#!/usr/bin/env bash\nlog={log}\narray=\necho \"$*\" >> $log\n\
             while [ $# -gt 0 ]; do case $1 in --array=*) array=${{1#--array=1-}};; -*) ;; *) break;; esac; shift; done\n\
             if [ -n \"$array\" ]; then for i in $(seq 1 $array); do SLURM_ARRAY_TASK_ID=$i bash \"$@\" >> $log.out 2>&1 || exit 1; done\n\
             else bash \"$@\" >> $log.out 2>&1 || exit 1; fi\necho 4242\n",
            log = log.display()
        ),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", bin.join("sbatch").to_str().unwrap()])
        .status()
        .unwrap();
    let out = dir.join("out");
    let mut args = vec!["2", out.to_str().unwrap()];
    args.extend(DRIVER_MATCH);
    let (stdout, _) = bash(&scripts().join("arena-slurm.sh"), &args, Some(&bin));
    assert!(
        stdout.contains("submitted array 4242 (tasks 1-2) and report 4242"),
        "{stdout}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(
        calls[0].contains("--array=1-2") && calls[0].contains("--task 2"),
        "{calls:?}"
    );
    assert!(
        calls[1].contains("--dependency=afterok:4242") && calls[1].contains("--report 2"),
        "{calls:?}"
    );
    let mut merged = games(&out.join("games-shard-1-of-2.jsonl"));
    merged.extend(games(&out.join("games-shard-2-of-2.jsonl")));
    assert_eq!(timeless(merged), whole);
    let job_out = std::fs::read_to_string(dir.join("sbatch.log.out")).unwrap();
    assert!(
        job_out.contains("merged 8 games from 2 records"),
        "{job_out}"
    );
    assert!(out.join("report.json").is_file());
}

/// A match ends with one sentence: player A's score and Elo and where the report is; a
/// rerun that finds every game in its record plays nothing, says so and how to start
/// afresh.
#[test]
fn a_match_ends_with_its_result_in_one_sentence() {
    let out = scratch("sentence");
    let (stdout, _) = arena_ok(
        ["random", "random:seed=7"],
        &out,
        &["--board", "4x4", "--games", "4"],
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let p = &report["pairings"][0];
    let (wins, losses) = (
        p["total"]["wins"].as_u64().unwrap(),
        p["total"]["losses"].as_u64().unwrap(),
    );
    let last = stdout.lines().last().unwrap();
    let page = out.join("report.html");
    let want = format!(
        "random scored {:.1}% ({wins} wins, {losses} losses in 4 games) against random:seed=7: Elo ",
        100.0 * p["score"].as_f64().unwrap()
    );
    assert!(last.starts_with(&want), "{last}\nwant {want}");
    assert!(
        last.ends_with(&format!("; the report is {}", page.display())),
        "{last}"
    );
    let (again, err) = arena_ok(
        ["random", "random:seed=7"],
        &out,
        &["--board", "4x4", "--games", "4"],
    );
    assert!(
        err.contains("new games played: 0;")
            && err.contains("nothing left to play: the record ")
            && err.contains("to play the match afresh, delete the record or give another --out"),
        "{err}"
    );
    assert_eq!(again.lines().last(), Some(last));
}
