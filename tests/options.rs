//! One command line: engine options with the names of their `mcts:` keys, piece counts named
//! for what they count, the old names as hidden aliases, and another game's options refused
//! by name.

mod common;

use common::{quasar, temp};

/// The one error line of a failed run.
fn error(args: &[&str]) -> String {
    let (ok, out, err) = quasar(args);
    assert!(!ok, "{args:?} should fail: {out}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    err.trim().to_string()
}

#[test]
fn another_games_options_are_refused_by_name() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["bestmove", "--game", "woodpush", "--eval-after", "3"],
            "error: --eval-after is not an option of woodpush: its playouts take",
        ),
        (
            &["bestmove", "--game", "checkers", "--win-in-one", "off"],
            "error: --win-in-one is not an option of checkers: its playouts",
        ),
        (
            &["bestmove", "--width", "9"],
            "error: --width is not an option of breakthrough: its size is --board WxH",
        ),
        (
            &["perft", "--game", "checkers", "--pieces-per-side", "3"],
            "error: --pieces-per-side is not an option of checkers",
        ),
        (
            &["play", "--game", "chinese-checkers", "--board", "6x6"],
            "error: --board is not an option of chinese-checkers: it is played on 7x7",
        ),
        (
            &[
                "tablebase",
                "build",
                "--game",
                "checkers",
                "--max-pieces",
                "2",
                "--rows",
                "3",
            ],
            "error: --rows is not an option of checkers tables",
        ),
        (
            &["bestmove", "--engine", "ab", "--verdicts", "off"],
            "error: --verdicts is an MCTS option",
        ),
    ];
    for (args, want) in cases {
        let e = error(args);
        assert!(e.starts_with(want), "{args:?}: {e}");
    }
    let (ok, out, err) = quasar(&[
        "arena",
        "--game",
        "woodpush",
        "--player",
        "mcts:capture-weight=2",
        "--player",
        "random",
        "--games",
        "2",
        "--sims",
        "10",
        "--quiet",
        "--out",
        temp("options", "arena").to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("capture-weight= is not an option of woodpush"),
        "{err}"
    );
}

#[test]
fn engine_flags_have_their_keys_names_and_the_old_names_still_work() {
    let base = ["bestmove", "--board", "5x5", "--sims", "300", "--seed", "4"];
    for (new, old) in [
        (&["--win-in-one", "off"][..], &["--no-win-in-one"][..]),
        (&["--verdicts", "off"], &["--no-verdicts"]),
        (&["--playout", "full"], &["--playout", "policy"]),
        (&["--stop-threats", "off"], &["--no-stop-threats"]),
    ] {
        let (ok, a, err) = quasar(&[&base[..], new].concat());
        assert!(ok, "{new:?}: {err}");
        let (ok, b, err) = quasar(&[&base[..], old].concat());
        assert!(ok, "{old:?}: {err}");
        // The same search: the same move, simulations and value.
        assert_eq!(a.lines().next(), b.lines().next(), "{new:?} {old:?}");
        assert_eq!(a.lines().nth(2), b.lines().nth(2), "{new:?} {old:?}");
    }
    let e = error(&["bestmove", "--every", "2"]);
    assert!(e.contains("--tb"), "{e}");
}

#[test]
fn the_exploration_constant_is_bounded_alike_as_a_flag_and_a_key() {
    let why = "the exploration constant must be a number from 0 to 100, such as 0.4";
    for c in ["1e300", "100.5", "-1", "NaN", "inf"] {
        let e = error(&["bestmove", "--board", "5x5", &format!("--c={c}")]);
        assert!(e.contains(&format!("'{c}' for '--c <C>': {why}")), "{e}");
        let spec = format!("mcts:c={c}");
        let e = error(&["arena", "--player", &spec, "--player", "random"]);
        assert!(e.contains(&format!("c={c}: {why}")), "{e}");
    }
    let (ok, out, err) = quasar(&["bestmove", "--board", "5x5", "--c", "100", "--sims", "10"]);
    assert!(ok && out.starts_with("bestmove "), "{err}");
}

#[test]
fn piece_counts_are_named_for_what_they_count() {
    let per_side = |flag: &str| {
        let (ok, out, err) = quasar(&[
            "perft",
            "--game",
            "chinese-checkers",
            flag,
            "2",
            "--depth",
            "3",
        ]);
        assert!(ok, "{flag}: {err}");
        out
    };
    assert_eq!(per_side("--pieces-per-side"), per_side("--pieces"));
    let plan = |flag: &str| {
        let (ok, out, err) = quasar(&["tablebase", "plan", "--game", "checkers", flag, "2"]);
        assert!(ok, "{flag}: {err}");
        out
    };
    let lines = plan("--max-pieces");
    assert!(lines.lines().count() >= 2, "{lines}");
    assert_eq!(lines, plan("--pieces"));
    let e = error(&["tablebase", "plan", "--game", "checkers"]);
    assert!(e.contains("--max-pieces N"), "{e}");
    let e = error(&[
        "tablebase",
        "build",
        "--game",
        "woodpush",
        "--width",
        "9",
        "--pieces-per-side",
        "2",
    ]);
    assert!(
        e.contains("--pieces-per-side is not an option of woodpush tables"),
        "{e}"
    );
    let help = quasar(&["bestmove", "--help"]).1;
    assert!(help.contains("--pieces-per-side <K>"), "{help}");
    assert!(!help.contains("--pieces <"), "the old name is hidden");
    assert!(!help.contains("--oracle-every"), "the old name is hidden");
}

#[test]
fn every_help_screen_has_examples_and_the_top_one_names_the_games() {
    for cmd in [
        &[][..],
        &["perft"],
        &["show"],
        &["bench"],
        &["bestmove"],
        &["play"],
        &["gtp"],
        &["tablebase"],
        &["tablebase", "build"],
        &["tablebase", "plan"],
        &["tablebase", "info"],
        &["tablebase", "probe"],
        &["tablebase", "verify"],
        &["arena"],
        &["arena", "report"],
        &["replay"],
        &["solve"],
    ] {
        let (ok, out, err) = quasar(&[cmd, &["--help"]].concat());
        assert!(ok, "{cmd:?}: {err}");
        assert!(out.contains("\nExamples:\n  quasar "), "{cmd:?}: {out}");
    }
    let top = quasar(&["--help"]).1;
    for game in ["breakthrough", "woodpush", "chinese-checkers", "checkers"] {
        assert!(top.contains(game), "{game}: {top}");
    }
}

#[test]
fn each_game_has_one_default_size() {
    let size = |args: &[&str]| {
        let (ok, out, err) = quasar(&[args, &["--sims", "20", "--json"]].concat());
        assert!(ok, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["size"].as_str().unwrap().to_string()
    };
    assert_eq!(size(&["bestmove"]), "6x6");
    assert_eq!(size(&["bestmove", "--game", "woodpush"]), "width 7");
    assert_eq!(
        size(&["bestmove", "--game", "chinese-checkers", "--engine", "mcts"]),
        "7x7, 2 pieces a side"
    );
    let perft = |args: &[&str]| quasar(&[&["perft", "--depth", "1"], args].concat()).1;
    assert!(
        perft(&[]).starts_with("perft 6x6 depth 1"),
        "{}",
        perft(&[])
    );
    assert!(perft(&["--game", "woodpush"]).starts_with("perft width 7 depth 1"));
    let w = temp("options", "w-default.qrt");
    let out = common::build_table(&["--game", "woodpush"], w.to_str().unwrap());
    assert!(out.contains("woodpush width 7, every position"), "{out}");
    let (_, help, _) = quasar(&["solve", "--help"]);
    assert!(help.contains("[default: 5x5]"), "{help}");
    let _ = std::fs::remove_file(&w);
}

#[test]
fn a_bad_side_lists_the_games_own_sides() {
    for (game, sides) in [
        ("breakthrough", "give white, black, first or second"),
        ("woodpush", "give left, right, first or second"),
        ("chinese-checkers", "give x, o, first or second"),
        ("checkers", "give black, white, first or second"),
    ] {
        let e = error(&["play", "--game", game, "--human", "green"]);
        assert!(e.contains(sides), "{game}: {e}");
    }
}

#[test]
fn bench_prints_the_same_rates_for_every_game() {
    for (args, header, first) in [
        (&["--board", "5x5"][..], "breakthrough 5x5", "White"),
        (&["--game", "woodpush"], "woodpush width 7", "Left"),
        (
            &["--game", "chinese-checkers", "--pieces-per-side", "1"],
            "chinese-checkers 7x7, 1 pieces a side",
            "X",
        ),
        (&["--game", "checkers"], "checkers 8x8", "Black"),
    ] {
        let (ok, out, err) =
            quasar(&[&["bench", "--seconds", "0.05", "--seed", "5"], args].concat());
        assert!(ok, "{args:?}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], "seed 5, 0.05 s per measurement, single thread");
        assert_eq!(lines[1], header);
        assert!(lines[2].starts_with("  move generation: "), "{out}");
        assert!(lines[2].contains(" M perft leaves/s "), "{out}");
        assert!(lines[3].starts_with("  random playouts: "), "{out}");
        assert!(lines[3].contains(" plies/playout "), "{out}");
        assert!(lines[3].contains(&format!("({first} wins ")), "{out}");
    }
    let e = error(&["bench", "--game", "woodpush", "--plain"]);
    assert!(e.contains("--plain is not an option of woodpush"), "{e}");
    // A measurement's length has a range, said whole; a 300-digit duration is not one.
    for bad in ["1e-300", "0", "-1", "NaN", "inf", "3601", "0.009"] {
        assert_eq!(
            error(&["bench", &format!("--seconds={bad}")]),
            format!(
                "error: invalid value '{bad}' for '--seconds <SECONDS>': give 0.01 to 3600 \
                 seconds, not {bad} (see 'quasar --help')"
            )
        );
    }
}

#[test]
fn a_misspelt_option_gets_a_did_you_mean() {
    assert_eq!(
        error(&["bestmove", "--sim", "100"]),
        "error: unexpected argument '--sim' found; did you mean '--sims'? (see 'quasar --help')"
    );
    let e = error(&["bestmove", "--engine", "mtcs"]);
    assert!(e.contains("did you mean 'mcts'?"), "{e}");
    let e = error(&["arena", "--quit"]);
    assert!(e.contains("did you mean '--quiet'?"), "{e}");
    // No suggestion where none is near.
    let e = error(&["bestmove", "--zzzzzz"]);
    assert!(!e.contains("did you mean"), "{e}");
}

#[test]
fn a_size_that_disagrees_with_the_position_is_refused_by_every_command() {
    let six = "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w";
    for cmd in [
        &["bestmove", "--sims", "10"][..],
        &["play"],
        &["perft", "--depth", "1"],
        &["solve"],
    ] {
        let e = error(&[cmd, &["--board", "5x5", "--position", six]].concat());
        assert!(
            e.contains("the size options give 5x5 but the position is 6x6"),
            "{cmd:?}: {e}"
        );
    }
    let e = error(&[
        "bestmove",
        "--game",
        "woodpush",
        "--width",
        "9",
        "--position",
        "L.L.R.R L",
    ]);
    assert!(
        e.contains("the size options give width 9 but the position is width 7"),
        "{e}"
    );
    // Agreeing, or left out, the position's size is the board.
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--board",
        "6x6",
        "--position",
        six,
        "--sims",
        "10",
    ]);
    assert!(ok && out.starts_with("bestmove "), "{err}");
}

#[test]
fn show_takes_the_position_as_every_command_does_and_bare() {
    let pos = "2B2/5/1W3/5/5 b";
    let (ok, named, err) = quasar(&["show", "--position", pos]);
    assert!(ok && named.ends_with(&format!("{pos}\n")), "{err}");
    let (ok, bare, err) = quasar(&["show", pos]);
    assert!(ok && bare == named, "{err}");
    assert!(error(&["show"]).contains("--position POSITION"));
    assert!(error(&["show", pos, "--position", pos]).contains("cannot be used with"));
}

/// The help's stated defaults are what the commands do: each game's default engine.
#[test]
fn bestmove_help_states_each_games_default_engine() {
    let help = quasar(&["bestmove", "--help"]).1;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let engine = |args: &[&str]| {
        let (ok, out, err) = quasar(&[&["bestmove", "--sims", "20", "--json"], args].concat());
        assert!(ok, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["engine"].as_str().unwrap().to_string()
    };
    for (game, said, args, want) in [
        (
            "breakthrough",
            "breakthrough: mcts, but ab with --eval mcts from 8 rows on boards without a shipped model (8x8 has one);",
            &["--board", "6x7"][..],
            "mcts",
        ),
        ("breakthrough", "8x8 has one", &["--board", "8x8"], "mcts"),
        ("breakthrough", "from 8 rows", &["--board", "3x8"], "ab"),
        ("woodpush", "woodpush: ab;", &[], "ab"),
        ("chinese-checkers", "chinese-checkers: ab;", &[], "ab"),
        (
            "checkers",
            "checkers: mcts with its shipped model]",
            &[],
            "mcts",
        ),
    ] {
        assert!(flat.contains(said), "{game}: {flat}");
        assert_eq!(
            engine(&[&["--game", game], args].concat()),
            want,
            "{game} {args:?}"
        );
    }
}

/// The help's list of the files `--out` receives is the list the arena writes.
#[test]
fn arena_help_lists_every_file_its_out_folder_receives() {
    let help = quasar(&["arena", "--help"]).1;
    let out_help = help
        .split("\n  -o, --out <OUT>")
        .nth(1)
        .and_then(|rest| rest.split("\n      --").next())
        .unwrap_or_else(|| panic!("--out in {help}"));
    for file in arena::report::FILES
        .iter()
        .chain(&["games.jsonl", "games.pgn", "games.pdn"])
    {
        assert!(out_help.contains(file), "{file}: {out_help}");
    }
    let report_help = quasar(&["arena", "report", "--help"]).1;
    for file in arena::report::FILES
        .iter()
        .chain(&["games.pgn", "games.pdn"])
    {
        assert!(report_help.contains(file), "{file}: {report_help}");
    }
    // And a round robin writes each of them, with its record and the PGN copy.
    let dir = temp("options", "files");
    let players = ["random", "random:seed=2", "random:seed=3"];
    common::arena_ok(players, &dir, &["--board", "4x4", "--games", "2"]);
    for file in arena::report::FILES
        .iter()
        .chain(&["games.jsonl", "games.pgn"])
    {
        assert!(dir.join(file).is_file(), "{file}");
    }
}

#[test]
fn the_old_option_names_still_work_hidden() {
    let dir = temp("options", "old-names");
    let (table, proof, saved) = (
        dir.join("t.qrt"),
        dir.join("4x4.proof"),
        dir.join("game.pgn"),
    );
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let (d, t, p, s) = (path(&dir), path(&table), path(&proof), path(&saved));
    let arena = "arena --board 4x4 --player random --player random:seed=2 --games 2";
    // Each old name on its command, what it must write, and the command's input.
    let runs = [
        (format!("{arena} --no-progress --out"), &d, &dir, ""),
        (
            "tablebase build --game woodpush --width 6 --quiet --output".into(),
            &t,
            &table,
            "",
        ),
        ("solve --board 4x4 --quiet --proof".into(), &p, &proof, ""),
        (
            "play --board 4x4 --sims 10 --save".into(),
            &s,
            &saved,
            "quit\n",
        ),
    ];
    for (line, out, written, input) in runs {
        let args = [line.split(' ').collect(), vec![out.as_str()]].concat();
        let (ok, _, err) = common::with_input(&args, input.as_bytes());
        assert!(ok && written.exists(), "{args:?}: {err}");
    }
    let (ok, _, err) = quasar(&["solve", "--check", &p, "--quiet"]);
    assert!(ok, "{err}");
    for (cmd, old) in [
        (&["arena"][..], "--no-progress"),
        (&["tablebase", "build"], "--output"),
        (&["solve"], "--proof"),
        (&["play"], "--save"),
    ] {
        let help = quasar(&[cmd, &["--help"]].concat()).1;
        assert!(!help.contains(old), "{cmd:?} shows {old}");
        assert!(help.contains("-o, --out <"), "{cmd:?}: {help}");
    }
}

#[test]
fn a_small_solve_allocates_a_small_table() {
    // The peak memory a solve with `extra` options reports, where the system tells it.
    let peak_mib = |extra: &[&str]| {
        let (ok, out, err) = quasar(&[&["solve", "--board", "4x4", "--quiet"], extra].concat());
        assert!(ok, "{err}");
        let line = out.lines().find(|l| l.starts_with("peak memory: "))?;
        let mib: f64 = line["peak memory: ".len()..]
            .trim_end_matches(" MiB")
            .parse()
            .unwrap();
        Some(mib)
    };
    // 512 MiB, the default of larger boards, would show here as over 500 MiB.
    if let Some(mib) = peak_mib(&[]) {
        assert!(mib < 200.0, "peak memory: {mib} MiB");
    }
    if let Some(mib) = peak_mib(&["--memory", "300"]) {
        assert!(mib > 300.0, "--memory is still obeyed: {mib} MiB");
    }
}

#[test]
fn a_stop_after_no_node_is_refused() {
    let e = error(&["solve", "--board", "4x4", "--stop-after", "0"]);
    assert!(
        e.starts_with("error: invalid value '0' for '--stop-after <NODES>'"),
        "{e}"
    );
}

#[test]
fn a_table_build_takes_as_many_threads_as_it_is_given() {
    let dir = common::scratch("options", "threads");
    let table = dir.join("w6.qrt");
    let out = common::build_table(
        &["--game", "woodpush", "--width", "6", "--threads", "1"],
        table.to_str().unwrap(),
    );
    assert!(out.contains(" on 1 threads"), "{out}");
    let help = quasar(&["tablebase", "build", "--help"]).1;
    assert!(
        help.contains("--threads <THREADS>") && help.contains("[default: every core]"),
        "{help}"
    );
    let e = error(&["tablebase", "build", "--threads", "0"]);
    assert!(e.contains("'0' for '--threads <THREADS>'"), "{e}");
}
