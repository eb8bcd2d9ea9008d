//! Openings files end to end: `arena --openings FILE` plays each position of the file with
//! both colours, in file order or shuffled by the seed, cycles through it for more games,
//! keeps the file's hash in the record (a changed file is another match), shards and merges,
//! reaches GTP engines through `setboard`, and refuses a bad file before any game.

mod common;
use common::{arena, json_lines, quasar, scratch};
use std::path::Path;

/// Three 5x5 positions (one with Black to move), with a comment and a blank line.
const FILE: &str = "# three 5x5 openings\n\
                    BBBBB/BBBBB/5/1W3/W1WWW b\n\
                    \n\
                    BBBBB/BB1BB/2B2/WWWWW/WWWWW w\n   \
                    BBBBB/B1BBB/1B3/4W/WWWW1 w\n";
const POSITIONS: [&str; 3] = [
    "BBBBB/BBBBB/5/1W3/W1WWW b",
    "BBBBB/BB1BB/2B2/WWWWW/WWWWW w",
    "BBBBB/B1BBB/1B3/4W/WWWW1 w",
];
const LINES: [u64; 3] = [2, 4, 5];

fn run(dir: &Path, extra: &[&str]) -> (bool, String, String) {
    let out = dir.join("m");
    let openings = dir.join("openings.txt");
    let mut args = vec!["--board", "5x5", "--jobs", "2"];
    args.extend_from_slice(&["--openings", openings.to_str().unwrap()]);
    args.extend_from_slice(extra);
    arena(["random", "random:seed=2"], &out, &args)
}

#[test]
fn each_position_is_played_with_both_colours_in_file_order_and_cycles() {
    let dir = scratch("openings", "sequential");
    std::fs::write(dir.join("openings.txt"), FILE).unwrap();
    let (ok, out, err) = run(&dir, &["--games", "8"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("openings from file "), "{out}");
    let games = json_lines(&dir.join("m/games.jsonl"));
    assert_eq!(games.len(), 8);
    let hash = games[0]["openings_file"].as_str().unwrap().to_string();
    assert!(
        hash.starts_with("file ") && hash.ends_with(", sequential"),
        "{hash}"
    );
    for g in &games {
        let n = g["number"].as_u64().unwrap() as usize;
        // Eight games are four openings: the file's three, then its first again.
        let at = (n / 2) % 3;
        assert_eq!(g["start"], POSITIONS[at], "{g}");
        assert_eq!(g["opening_line"], LINES[at], "{g}");
        assert_eq!(g["opening_plies"], 0);
        assert_eq!(g["opening_moves"].as_array().unwrap().len(), 0);
        assert_eq!(g["openings_file"], hash.as_str());
        let a_white = n.is_multiple_of(2);
        assert_eq!(g["first"], if a_white { "random" } else { "random:seed=2" });
    }
    let pgn = std::fs::read_to_string(dir.join("m/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 8, "{pgn}");
    assert!(
        pgn.contains(&format!("[FEN \"{}\"]", POSITIONS[0])),
        "{pgn}"
    );
    // Black moves first in the first position: its movetext starts with `1...`.
    assert!(pgn.contains("\n1... "), "{pgn}");

    // The same run resumes; comments and spacing are not the file's content.
    std::fs::write(dir.join("openings.txt"), format!("# edited\n{FILE}\n\n")).unwrap();
    let (ok, _, err) = run(&dir, &["--games", "8"]);
    assert!(ok, "{err}");
    assert!(err.contains("new games played: 0"), "{err}");
    // Another position is another match: refused before any game, naming the openings.
    std::fs::write(
        dir.join("openings.txt"),
        FILE.replace("1W3/W1WWW b", "W4/1WWWW b"),
    )
    .unwrap();
    let (ok, _, err) = run(&dir, &["--games", "8"]);
    assert!(!ok);
    assert!(err.contains("with openings file "), "{err}");
    assert_eq!(json_lines(&dir.join("m/games.jsonl")).len(), 8);
    // So is another order of the same file.
    std::fs::write(dir.join("openings.txt"), FILE).unwrap();
    let (ok, _, err) = run(&dir, &["--games", "8", "--openings-order", "random"]);
    assert!(!ok);
    assert!(
        err.contains("sequential") && err.contains("random"),
        "{err}"
    );
}

#[test]
fn the_random_order_shuffles_each_pass_by_the_seed() {
    let dir = scratch("openings", "random");
    std::fs::write(dir.join("openings.txt"), FILE).unwrap();
    let order = |dir: &Path, seed: &str| {
        let _ = std::fs::remove_dir_all(dir.join("m"));
        let (ok, out, err) = run(
            dir,
            &[
                "--games",
                "12",
                "--openings-order",
                "random",
                "--seed",
                seed,
            ],
        );
        assert!(ok, "{out}{err}");
        let games = json_lines(&dir.join("m/games.jsonl"));
        let mut starts = vec![String::new(); 6];
        for g in &games {
            let n = g["number"].as_u64().unwrap() as usize;
            let s = g["start"].as_str().unwrap().to_string();
            assert!(
                starts[n / 2].is_empty() || starts[n / 2] == s,
                "both colours of an opening start alike"
            );
            starts[n / 2] = s;
        }
        starts
    };
    let one = order(&dir, "1");
    for pass in one.chunks(3) {
        let mut p = pass.to_vec();
        p.sort();
        let mut all: Vec<String> = POSITIONS.iter().map(|s| s.to_string()).collect();
        all.sort();
        assert_eq!(p, all, "each pass plays every position once: {one:?}");
    }
    assert_eq!(order(&dir, "1"), one, "the seed repeats the order");
    let others: Vec<Vec<String>> = (2..6).map(|s| order(&dir, &s.to_string())).collect();
    assert!(
        others.iter().any(|o| *o != one),
        "other seeds shuffle otherwise"
    );
}

#[test]
fn shards_of_an_openings_match_merge_into_the_whole() {
    let dir = scratch("openings", "shards");
    std::fs::write(dir.join("openings.txt"), FILE).unwrap();
    for shard in ["1/2", "2/2"] {
        let (ok, out, err) = run(&dir, &["--games", "6", "--shard", shard]);
        assert!(ok, "{out}{err}");
    }
    let m = dir.join("m");
    let shards = [1, 2].map(|i| m.join(format!("games-shard-{i}-of-2.jsonl")));
    let (out, err) = common::report(&[&shards[0], &shards[1]], &m, &[]);
    assert!(err.contains("merged 6 games from 2 records"), "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert!(out.contains("openings from file "), "{out}");
    // A shard of the same match with other openings does not merge.
    let other = dir.join("other.txt");
    std::fs::write(&other, "BBBBB/BBBBB/5/4W/WWWW1 b\n").unwrap();
    let o = dir.join("o");
    let other = ["--openings", other.to_str().unwrap()];
    let shard = ["--board", "5x5", "--games", "6", "--shard", "2/2"];
    common::arena_ok(
        ["random", "random:seed=2"],
        &o,
        &[&other[..], &shard].concat(),
    );
    let (ok, _, err) = quasar(&[
        "arena",
        "report",
        shards[0].to_str().unwrap(),
        o.join("games-shard-2-of-2.jsonl").to_str().unwrap(),
        "--out",
        o.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("openings"), "{err}");
}

#[test]
fn a_gtp_engine_is_given_the_position_by_setboard() {
    let dir = scratch("openings", "gtp");
    std::fs::write(dir.join("openings.txt"), FILE).unwrap();
    let engine = format!(
        "gtp:{} gtp --board 5x5 --sims 50",
        env!("CARGO_BIN_EXE_quasar")
    );
    let out = dir.join("m");
    let openings = dir.join("openings.txt");
    let openings = ["--openings", openings.to_str().unwrap()];
    let extra = ["--board", "5x5", "--games", "6", "--sims", "50"];
    common::arena_ok([&engine, "random"], &out, &[&openings[..], &extra].concat());
    for g in json_lines(&out.join("games.jsonl")) {
        // Every move was legal from the file's position: none lost as illegal or crashed.
        assert!(g["reason"] == "win", "{g}");
    }
}

#[test]
fn a_bad_openings_file_is_one_error_line_before_any_game() {
    let dir = scratch("openings", "bad");
    let cases: [(&str, &str); 5] = [
        (
            "# ok\nBBBBB/BBBBB/5/5/WWWWW w\nBBBBB/BB/5/5/WWWWW w\n",
            "openings.txt, line 3: 'BBBBB/BB/5/5/WWWWW w' is not a breakthrough position",
        ),
        (
            "BBBBB/BBBBB/5/5/WWWWW w\nBBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w\n",
            "line 2: the position is 6x6, but the match is on 5x5",
        ),
        (
            "BBBBW/BBBB1/5/5/WWWWW b\n",
            "line 1: the game is already over",
        ),
        ("# nothing\n\n", "no positions"),
        ("\u{0}\u{ff}\u{fe}", "not text"),
    ];
    for (text, want) in cases {
        let file = dir.join("openings.txt");
        if text.starts_with('\u{0}') {
            std::fs::write(&file, [0u8, 0xff, 0xfe]).unwrap();
        } else {
            std::fs::write(&file, text).unwrap();
        }
        let (ok, out, err) = run(&dir, &["--games", "2"]);
        assert!(!ok, "{want}: {out}");
        assert!(err.contains(want), "{want}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            !dir.join("m/games.jsonl").exists(),
            "{want}: no game played"
        );
    }
    std::fs::remove_file(dir.join("openings.txt")).unwrap();
    let (ok, _, err) = run(&dir, &["--games", "2"]);
    assert!(
        !ok && err.contains("openings file") && err.contains("openings.txt"),
        "{err}"
    );
    let (ok, _, err) = run(&dir, &["--openings-plies", "3"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    let (ok, _, err) = quasar(&[
        "arena",
        "--player",
        "random",
        "--player",
        "random:seed=2",
        "--openings-order",
        "random",
    ]);
    assert!(!ok && err.contains("--openings <FILE>"), "{err}");
}

#[test]
fn the_bundled_openings_are_distinct_positions_three_plies_in() {
    for (board, plies) in [("6x6", 80), ("8x8", 80)] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("openings")
            .join(format!("breakthrough-{board}.txt"));
        let dir = scratch("openings", &format!("bundled-{board}"));
        let out = dir.join("m");
        let games = plies.to_string();
        let extra = ["--board", board, "--games", &games];
        let openings = ["--openings", file.to_str().unwrap()];
        common::arena_ok(
            ["random", "random:seed=2"],
            &out,
            &[&extra[..], &openings].concat(),
        );
        let records = json_lines(&out.join("games.jsonl"));
        let mut starts: Vec<&str> = records
            .iter()
            .map(|g| g["start"].as_str().unwrap())
            .collect();
        starts.sort();
        starts.dedup();
        assert_eq!(starts.len(), 40, "{board}: forty openings, each twice");
        for s in starts {
            // Three plies from the start: Black to move, with one of its pieces moved.
            assert!(s.ends_with(" b"), "{s}");
        }
    }
}

/// A byte-order mark before the first line is read past; a long bad line is quoted cut,
/// and a NUL in it escaped, in one line of error.
#[test]
fn a_byte_order_mark_is_skipped_and_a_bad_line_is_quoted_short_and_printable() {
    let dir = scratch("openings", "bom");
    std::fs::write(dir.join("openings.txt"), format!("\u{feff}{FILE}")).unwrap();
    let (ok, out, err) = run(&dir, &["--games", "2"]);
    assert!(ok, "{out}{err}");
    let games = json_lines(&dir.join("m/games.jsonl"));
    assert_eq!(games[0]["start"], POSITIONS[0]);
    let same = scratch("openings", "no-bom");
    std::fs::write(same.join("openings.txt"), FILE).unwrap();
    assert!(run(&same, &["--games", "2"]).0);
    assert_eq!(
        json_lines(&same.join("m/games.jsonl"))[0]["openings_file"],
        games[0]["openings_file"],
        "the same positions, the same file hash"
    );

    let long = format!("BBBBB/BBBBB/5/1W3/W1WWW\0{} b\n", "x".repeat(100_000));
    std::fs::write(dir.join("openings.txt"), long).unwrap();
    let (ok, _, err) = run(&dir, &["--games", "2"]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 2000, "{} bytes", err.len());
    assert!(!err.contains('\0') && err.contains("\\0"), "{err}");
    assert!(
        err.contains("line 1: 'BBBBB/BBBBB/5/1W3/W1WWW\\0xxx"),
        "{err}"
    );
}
