//! End-to-end: checkers on the command line, its databases built by the cluster drivers
//! (GNU parallel, plain shell jobs, a Slurm script against a stand-in `sbatch`), and a game.

mod common;

use common::{quasar, scratch, temp};
use std::path::Path;
use std::process::Command;

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "qrt"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn driver(script: &str, args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let out = Command::new("sh")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scripts")
                .join(script),
        )
        .args(args)
        .env("QUASAR", env!("CARGO_BIN_EXE_quasar"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn drivers_build_the_same_databases_as_one_build() {
    let whole = temp("checkers", "whole");
    let (ok, out, err) = quasar(&[
        "tablebase",
        "build",
        "--game",
        "checkers",
        "--pieces",
        "3",
        "-o",
        whole.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("34 slices built"), "{out}");
    let reference = files(&whole);
    assert_eq!(reference.len(), 34);
    // Plain shell jobs, 2 a wave.
    let looped = temp("checkers", "loop");
    let (ok, log) = driver(
        "checkers-tablebase-parallel.sh",
        &["3", looped.to_str().unwrap(), "2"],
        &[("LOOP", "1")],
    );
    assert!(ok, "{log}");
    assert!(files(&looped) == reference, "shell-loop build differs");
    // GNU parallel, 2 jobs a wave, where it is installed.
    if Command::new("parallel").arg("--version").output().is_ok() {
        let par = temp("checkers", "parallel");
        let (ok, log) = driver(
            "checkers-tablebase-parallel.sh",
            &["3", par.to_str().unwrap(), "2"],
            &[],
        );
        assert!(ok, "{log}");
        assert!(files(&par) == reference, "parallel build differs");
    } else {
        println!("GNU parallel is not installed here (apt-get install parallel): its run is skipped; the same waves ran as shell jobs");
    }
    // info and probe read the directory.
    let (ok, out, _) = quasar(&["tablebase", "info", whole.to_str().unwrap()]);
    assert!(ok && out.contains("b0k1-w0k1\tBlack\t992\t"), "{out}");
    let (ok, out, _) = quasar(&[
        "tablebase",
        "probe",
        whole.to_str().unwrap(),
        "--position",
        "B:WK14:BK1,K32",
    ]);
    assert!(
        ok && out.starts_with("Black to move: win\nbest move: ")
            && out.contains("\ndetail: slice b0k2-w0k1\n"),
        "{out}"
    );
}

#[test]
fn the_slurm_script_submits_one_array_a_wave_after_the_one_before() {
    let bin = temp("checkers", "fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = bin.join("sbatch.log");
    let fake = bin.join("sbatch");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$@\" >> {}\nn=$(wc -l < {})\necho $((1000 + n))\n",
            log.display(),
            log.display()
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let dir = temp("checkers", "slurm");
    let (ok, out) = driver(
        "checkers-tablebase-slurm.sh",
        &["3", dir.to_str().unwrap(), "4"],
        &[("PATH", &path)],
    );
    assert!(ok, "{out}");
    let (_, plan, _) = quasar(&["tablebase", "plan", "--game", "checkers", "--pieces", "3"]);
    let waves = plan
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let calls: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(calls.len(), waves);
    assert!(!calls[0].contains("--dependency"));
    for (k, c) in calls.iter().enumerate().skip(1) {
        assert!(
            c.contains(&format!("--dependency=afterok:{}", 1000 + k)),
            "{c}"
        );
        assert!(
            c.contains(&format!("--wave {k} --shard ${{SLURM_ARRAY_TASK_ID}}/")),
            "{c}"
        );
    }
}

#[test]
fn checkers_plays_on_the_command_line() {
    let (ok, out, err) = quasar(&["perft", "--game", "checkers", "--depth", "5"]);
    assert!(ok && out.contains("7361"), "{out}{err}");
    let (ok, out, err) = quasar(&[
        "bestmove",
        "--game",
        "checkers",
        "--position",
        "B:W9,14:B1,K32",
        "--sims",
        "200",
    ]);
    assert!(ok, "{out}{err}");
    let (ok, _, err) = quasar(&["tablebase", "plan", "--game", "checkers"]);
    assert!(!ok && err.contains("--max-pieces"), "{err}");
}

#[test]
fn distance_files_beside_the_databases_choose_the_engines_move_in_a_won_ending() {
    use checkers::endgame::{choose, Distance};
    use checkers::{notation::move_text, Checkers, Database};
    use quasar_core::Game;
    let dir = temp("checkers-distance", "db3");
    let plain = temp("checkers-distance", "db3-plain");
    let dir_s = dir.to_str().unwrap();
    let (ok, out, err) = quasar(&[
        "tablebase",
        "build",
        "--game",
        "checkers",
        "--pieces",
        "3",
        "-o",
        dir_s,
        "--distance",
        "--quiet",
    ]);
    assert!(ok, "{out}{err}");
    // The same slices without their distance files.
    std::fs::create_dir_all(&plain).unwrap();
    for (name, bytes) in files(&dir) {
        std::fs::write(plain.join(name), bytes).unwrap();
    }
    // Two kings against one, White to move: the distances and the search pick different
    // winning moves here.
    let fen = "W:WK14,K19:BK1";
    let g = Checkers::parse_position(fen).unwrap();
    let mut db = Database::open(&dir).unwrap();
    let searched = choose(&db, None, &g).unwrap().1;
    db.load_distances(&dir).unwrap();
    let shortest = choose(&db, Some(&db as &dyn Distance), &g).unwrap().1;
    assert_ne!(searched, shortest);
    for (tb, want) in [(&dir, shortest), (&plain, searched)] {
        let (ok, out, err) = quasar(&[
            "bestmove",
            "--game",
            "checkers",
            "--position",
            fen,
            "--tb",
            tb.to_str().unwrap(),
            "--sims",
            "10",
        ]);
        let line = format!("bestmove {}", move_text(&want));
        assert!(ok && out.lines().any(|l| l == line), "{line}: {out}{err}");
    }
    // `tablebase probe` prints each distance the files hold, and none without them.
    let probe = |tb: &Path| {
        let (ok, out, err) = quasar(&[
            "tablebase",
            "probe",
            "--game",
            "checkers",
            "--position",
            fen,
            tb.to_str().unwrap(),
        ]);
        assert!(ok, "{out}{err}");
        out
    };
    let d = db.distance(&g.pos.board, g.pos.side).unwrap();
    let out = probe(&dir);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "White to move: win", "{out}");
    assert!(lines[1].starts_with("best move: "), "{out}");
    assert!(
        lines[2].starts_with("detail: slice ")
            && lines[2].ends_with(&format!(", converts in {d} plies")),
        "{out}"
    );
    let shortest_line = format!(
        "  {}: loss for the opponent, converts in {} plies",
        move_text(&shortest),
        d - 1
    );
    assert!(
        out.lines().any(|l| l == shortest_line),
        "{shortest_line}: {out}"
    );
    let out = probe(&plain);
    assert!(
        out.starts_with("White to move: win\n") && !out.contains("converts"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&plain).unwrap();
}

#[test]
fn solve_proves_positions_over_the_databases_and_checks_the_proof_with_them() {
    let dir = scratch("checkers", "solve");
    let (db1, db2) = (dir.join("db1"), dir.join("db2"));
    let (d1, d2) = (db1.to_str().unwrap(), db2.to_str().unwrap());
    for (n, d) in [("1", d1), ("2", d2)] {
        let (ok, _, err) = quasar(&[
            "tablebase",
            "build",
            "--game",
            "checkers",
            "--max-pieces",
            n,
            "-o",
            d,
            "--quiet",
        ]);
        assert!(ok, "{err}");
    }
    let proof = dir.join("won.proof");
    let p = proof.to_str().unwrap();
    let won = "B:W18,K30:B14,K1";
    let (ok, out, err) = quasar(&[
        "solve",
        "--game",
        "checkers",
        "--position",
        won,
        "--tb",
        d2,
        "--memory",
        "16",
        "--quiet",
        "--proof",
        p,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("winner: Black (the side to move); perfect play lasts 17 plies to a position of the databases"),
        "{out}"
    );
    assert!(out.contains("principal line: 14x23 30-25"), "{out}");
    let (ok, out, err) = quasar(&["solve", "--game", "checkers", "--check", p, "--tb", d2]);
    assert!(ok, "{err}");
    assert!(
        out.contains("proof checked: Black wins from B:W18,K30:BK1,14 within 17 plies"),
        "{out}"
    );
    // Two kings that cannot catch each other: a draw, both sides' values.
    let (ok, out, err) = quasar(&[
        "solve",
        "--game",
        "checkers",
        "--position",
        "B:WK30:BK1",
        "--tb",
        d1,
        "--json",
        "--quiet",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], "draw", "{out}");
    // The proof without its databases or with others, a position the databases hold, an
    // impossible position, no position, --tb with another game's check: one line each.
    for (args, want) in [
        (
            vec!["--check", p],
            "its leaves are the databases of 2 pieces: give them with --tb DIR",
        ),
        (
            vec!["--check", p, "--tb", d1],
            "its leaves are the databases of 2 pieces, these are of 1",
        ),
        (
            vec!["--position", "B:W18:B14", "--tb", d2],
            "the databases hold this position (a win for the side to move)",
        ),
        (vec!["--position", "B:W1:B14"], "stands on its own far row"),
        (vec!["--tb", d2], "give --position FEN"),
        (vec!["--position", won, "--tb", p], "give the folder"),
    ] {
        let mut all = vec!["solve", "--game", "checkers"];
        all.extend(args);
        let (ok, out, err) = quasar(&all);
        assert!(!ok && out.is_empty(), "{all:?}: {out}");
        assert!(
            err.contains(want) && err.lines().count() == 1,
            "{all:?}: {err}"
        );
    }
    let (ok, _, err) = quasar(&["solve", "--game", "woodpush", "--check", p, "--tb", d2]);
    assert!(
        !ok && err.contains("--tb goes with --check for checkers' proofs only"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
