//! `quasar train` end to end: self-play shards are written whole, resumed by the ones
//! missing, and labelled consistently (outcomes flip between the two movers of a game,
//! exact values are the table's); a fit writes a model both engines search with, resumes
//! from its checkpoint, and models of another board or damaged ones are refused by name.

mod common;

use breakthrough::Position;
use common::{one_error_line, quasar, run_ok};
use quasar_core::Game;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    common::scratch("train", name)
}

/// The samples of a shard: position, outcome, search value and exact value as text.
fn samples(shard: &Path) -> Vec<(Position, f32, String, String)> {
    let text = std::fs::read_to_string(shard).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "# quasar samples v1 breakthrough 5x5"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l}");
            (
                Position::parse_position(f[0]).unwrap(),
                f[1].parse().unwrap(),
                f[2].to_string(),
                f[3].to_string(),
            )
        })
        .collect()
}

/// Whether `b` follows `a` by one legal move.
fn follows(a: &Position, b: &Position) -> bool {
    let mut moves = Vec::new();
    a.legal_moves(&mut moves);
    moves.iter().any(|&m| {
        let mut p = *a;
        p.play(m);
        p == *b
    })
}

/// Plays the self-play `shards` of 6 games at 60 simulations a move on 5x5 into `dir`,
/// with `extra` options; its standard output.
fn play_shards(dir: &Path, shards: &str, extra: &[&str]) -> String {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "train", "play", "--board", "5x5", "--sims", "60", "--games", "6", "--shards", shards,
        "--out", d, "--quiet",
    ];
    args.extend(extra);
    run_ok(&args).0
}

#[test]
fn shards_are_labelled_consistently_and_resumed_by_the_missing_ones() {
    let dir = scratch("play");
    play_shards(&dir, "0-1", &[]);
    let first = std::fs::read(dir.join("shard-00001.tsv")).unwrap();
    std::fs::remove_file(dir.join("shard-00000.tsv")).unwrap();
    let out = play_shards(&dir, "0-2", &[]);
    assert!(out.contains("2 shards (12 games"), "{out}");
    assert!(out.contains("1 were there already"), "{out}");
    // A shard's games depend on its number alone: the one kept is not played again, and
    // one played again is the same.
    assert_eq!(std::fs::read(dir.join("shard-00001.tsv")).unwrap(), first);
    let out = play_shards(&dir, "0-2", &[]);
    assert!(out.contains("nothing to play"), "{out}");

    let s = samples(&dir.join("shard-00002.tsv"));
    assert!(s.len() >= 6 * 3, "{} positions", s.len());
    let mut flips = 0;
    for w in s.windows(2) {
        let ((a, oa, va, _), (b, ob, _, _)) = (&w[0], &w[1]);
        assert!(*oa == 0.0 || *oa == 1.0, "Breakthrough has no draws");
        let v: f32 = va.parse().unwrap();
        assert!((0.0..=1.0).contains(&v));
        if follows(a, b) {
            assert_eq!(oa + ob, 1.0, "one game's two movers: one wins");
            flips += 1;
        }
    }
    assert!(flips >= s.len() / 2);
}

#[test]
fn exact_labels_are_the_tables() {
    let dir = scratch("exact");
    let table = dir.join("tb.d");
    let t = table.to_str().unwrap();
    common::build_table(&["--board", "5x5", "--rows", "3"], t);
    play_shards(&dir, "0", &["--exact", t]);
    let s = samples(&dir.join("shard-00000.tsv"));
    let labelled: Vec<_> = s.iter().filter(|x| x.3 != "-").collect();
    assert!(!labelled.is_empty(), "no position of 6 games in the table");
    for (pos, _, _, exact) in labelled.iter().take(5) {
        let text = pos.position_text();
        let (out, _) = run_ok(&["tablebase", "probe", t, "--position", &text]);
        let want = if exact.as_str() == "1.000" {
            "win"
        } else {
            "loss"
        };
        assert!(
            out.contains(want),
            "{exact} for {}: {out}",
            pos.position_text()
        );
    }
}

/// Fits a 5x5 model to the shards in `data` for `epochs` epochs, which must succeed.
fn fit(data: &Path, model: &str, epochs: &str, extra: &[&str]) -> (String, String) {
    let d = data.to_str().unwrap();
    let mut args = vec![
        "train", "fit", "--board", "5x5", d, "-o", model, "--epochs", epochs,
    ];
    args.extend(extra);
    run_ok(&args)
}

#[test]
fn a_fit_writes_a_model_both_engines_use_and_resumes() {
    let dir = scratch("fit");
    let data = dir.join("data");
    play_shards(&data, "0-3", &[]);
    let model = dir.join("m.qsrmodel");
    let m = model.to_str().unwrap();
    let (out, _) = fit(&data, m, "2", &["--quiet"]);
    assert!(out.contains("written: held-out loss"), "{out}");
    let (_, err) = fit(&data, m, "3", &[]);
    assert!(err.contains("epoch 3/3"), "{err}");
    assert!(
        !err.contains("epoch 1/3"),
        "the fit resumed after epoch 2: {err}"
    );
    for engine in ["mcts", "ab"] {
        let (out, _) = run_ok(&[
            "bestmove", "--board", "5x5", "--engine", engine, "--net", m, "--sims", "300",
        ]);
        assert!(out.contains("best"), "{out}");
    }
    run_ok(&[
        "arena",
        "--board",
        "5x5",
        "--games",
        "2",
        "--sims",
        "100",
        "--quiet",
        "--out",
        dir.join("match").to_str().unwrap(),
        "--player",
        &format!("mcts:net={m}"),
        "--player",
        &format!("ab:net={m}"),
    ]);

    // Another board's model, a damaged one, and a file that is no model.
    let e = one_error_line(&["bestmove", "--board", "6x6", "--net", m, "--sims", "10"]);
    assert!(
        e.contains("breakthrough 5x5") && e.contains("not for breakthrough 6x6"),
        "{e}"
    );
    let mut bytes = std::fs::read(&model).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    let bad = dir.join("bad.qsrmodel");
    std::fs::write(&bad, &bytes).unwrap();
    let e = one_error_line(&[
        "bestmove",
        "--board",
        "5x5",
        "--net",
        bad.to_str().unwrap(),
        "--sims",
        "10",
    ]);
    assert!(
        e.contains("checksum") && e.contains("quasar train fit"),
        "{e}"
    );
    let e = one_error_line(&[
        "bestmove",
        "--board",
        "5x5",
        "--net",
        data.join("shard-00000.tsv").to_str().unwrap(),
        "--sims",
        "10",
    ]);
    assert!(e.contains("not a quasar model"), "{e}");
    let e = one_error_line(&[
        "bestmove", "--board", "5x5", "--net", m, "--imb", "0", "--prior", "0", "--sims", "10",
    ]);
    assert!(e.contains("needs imb=, prior= or prior-depth="), "{e}");
    let e = one_error_line(&[
        "bestmove", "--board", "5x5", "--leaf", "eval", "--imb", "0", "--prior", "0", "--sims",
        "10",
    ]);
    assert!(e.contains("leaf=eval needs imb= or prior="), "{e}");
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let dir = scratch("bad");
    for (args, says) in [
        (vec!["--shards", "5-2"], "empty range"),
        (vec!["--shards", "x"], "not a whole number"),
        (vec!["--random-plies", "300"], "from 0 to 200"),
        (vec!["--exact", "/nonexistent/tb"], "/nonexistent/tb"),
    ] {
        let mut a = vec![
            "train",
            "play",
            "--board",
            "5x5",
            "--out",
            dir.to_str().unwrap(),
        ];
        a.extend(args);
        let (ok, _, err) = quasar(&a);
        assert!(!ok && err.contains(says), "{a:?}: {err}");
    }
    let e = one_error_line(&[
        "train",
        "fit",
        "--board",
        "5x5",
        dir.to_str().unwrap(),
        "-o",
        dir.join("m").to_str().unwrap(),
    ]);
    assert!(e.contains("no shard-*.tsv files"), "{e}");
}
