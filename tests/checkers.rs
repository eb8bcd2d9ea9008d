//! End-to-end: checkers on the command line, its databases built by the cluster drivers
//! (GNU parallel, plain shell jobs, a Slurm script against a stand-in `sbatch`), and a game.

mod common;

use common::{ok_saying, quasar, scratch, temp};
use std::path::Path;
use std::process::Command;

/// The database files (`*.qrt`) of `dir`, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::files_ending(dir, "qrt")
}

/// Builds the checkers databases that `options` give (`--pieces N` or `--max-pieces N`
/// and any others) into `dir`, quietly: the build's standard output.
fn build_databases(dir: &str, options: &[&str]) -> String {
    common::build_table(&[&["--game", "checkers"], options].concat(), dir)
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
    let out = build_databases(whole.to_str().unwrap(), &["--pieces", "3"]);
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
    build_databases(dir_s, &["--pieces", "3", "--distance"]);
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
        build_databases(d, &["--max-pieces", n]);
    }
    let proof = dir.join("won.proof");
    let p = proof.to_str().unwrap();
    let won = "B:W18,K30:B14,K1";
    let solve = [
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
    ];
    let out = ok_saying(
        &[&solve[..], &["--out", p]].concat(),
        "winner: Black (the side to move); perfect play lasts 17 plies to a position of the databases",
    );
    assert!(out.contains("principal line: 14x23 30-25"), "{out}");
    ok_saying(
        &["solve", "--game", "checkers", "--check", p, "--tb", d2],
        "proof checked: Black wins from B:W18,K30:BK1,14 within 17 plies",
    );
    // The same proof by two jobs, merged, proves the same; one bound of the length alone.
    let pieces: Vec<String> = (1..=2)
        .map(|i| {
            let piece = dir.join(format!("won.{i}"));
            let shard = format!("{i}/2");
            let args = [
                &solve[..],
                &["--out", piece.to_str().unwrap(), "--shard", &shard],
            ]
            .concat();
            ok_saying(&args, &format!("proof piece {i}/2 (not a whole proof"));
            piece.to_str().unwrap().to_string()
        })
        .collect();
    let merged = dir.join("won.merged");
    let m = merged.to_str().unwrap();
    let merge = [
        "solve", "--game", "checkers", "--merge", &pieces[0], &pieces[1], "--out", m,
    ];
    ok_saying(&merge, "merged from 2 pieces");
    ok_saying(
        &["solve", "--game", "checkers", "--check", m, "--tb", d2],
        "proof checked: Black wins from B:W18,K30:BK1,14 within 17 plies",
    );
    for (plies, answer) in [("16", "no (perfect play lasts longer)"), ("17", "yes")] {
        ok_saying(
            &[&solve[..], &["--within", plies]].concat(),
            &format!("winner: Black (the side to move); wins within {plies} plies: {answer}"),
        );
    }
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

#[test]
fn an_incomplete_or_damaged_database_is_named_by_every_command() {
    let dir = scratch("checkers", "incomplete");
    let d = dir.to_str().unwrap();
    build_databases(d, &["--max-pieces", "3", "--distance"]);
    let manifest = std::fs::read_to_string(dir.join("manifest")).unwrap();
    assert!(
        manifest.starts_with("quasar slice directory v1\nkind checkers\nmax-pieces 3\ncrc "),
        "{manifest}"
    );
    // Black's man on 14 against White's on 18, Black to move: slice b1k0-w1k0.
    let position = "B:W18:B14";
    let (ok, out, err) = quasar(&["tablebase", "probe", d, "--position", position]);
    assert!(ok && err.is_empty(), "{err}");
    assert!(out.contains("slice b1k0-w1k0"), "{out}");
    let slice = dir.join("b1k0-w1k0.qrt");
    let whole = std::fs::read(&slice).unwrap();

    // The slice deleted: info and verify fail naming it, probe names it, searches warn once.
    std::fs::remove_file(&slice).unwrap();
    let build = format!("quasar tablebase build --game checkers --max-pieces 3 -o {d}");
    let incomplete = format!(
        "{d}: the checkers database is incomplete: 1 of its 34 slices are not built, the \
         first b1k0-w1k0 (no file b1k0-w1k0.qrt); run `{build}` to finish it"
    );
    for args in [["tablebase", "info", d], ["tablebase", "verify", d]] {
        let line = common::one_error_line(&args);
        assert_eq!(line, format!("error: {incomplete}"), "{args:?}");
    }
    let line = common::one_error_line(&["tablebase", "probe", d, "--position", position]);
    assert_eq!(
        line,
        format!(
            "error: {d}: slice b1k0-w1k0 of the checkers database is not built (no file \
             b1k0-w1k0.qrt): the checkers database is incomplete; run `{build}` to finish it"
        )
    );
    // A position of a slice that is there answers; its moves into the missing slice say so.
    let (ok, out, err) = quasar(&["tablebase", "probe", d, "--position", "W:W18:B14,15"]);
    assert!(ok, "{err}");
    assert_eq!(err, format!("warning: {incomplete}\n"));
    assert!(out.contains("slice b1k0-w1k0 is not built"), "{out}");
    assert!(!out.contains("not in the databases"), "{out}");
    let warning = format!(
        "warning: {incomplete}; positions in those slices are searched without the table\n"
    );
    let tb = ["--game", "checkers", "--tb", d, "--sims", "200"];
    let (ok, out, err) = quasar(&[&["bestmove", "--position", "B:W18,22:B14"][..], &tb].concat());
    assert!(ok, "{err}");
    assert!(out.starts_with("bestmove "), "{out}");
    assert_eq!(err, warning);
    let (ok, _, err) = common::with_input(&[&["play"][..], &tb].concat(), b"quit\n");
    assert!(ok, "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    assert!(err.starts_with(&warning), "{err}");
    let (ok, _, err) = common::with_input(
        &[&["gtp"][..], &tb].concat(),
        b"clear_board\ngenmove b\ngenmove w\nquit\n",
    );
    assert!(ok, "{err}");
    assert_eq!(err, warning);
    // The solver takes only whole databases, and names the missing slice.
    let line = common::one_error_line(&[
        "solve",
        "--game",
        "checkers",
        "--position",
        "B:W18,22:B14,10",
        "--tb",
        d,
    ]);
    assert_eq!(line, format!("error: {incomplete}"));

    // A damaged slice or distance file fails info and verify, naming the file.
    std::fs::write(&slice, &whole).unwrap();
    let distance = dir.join("b1k0-w1k0.qdc");
    let good = std::fs::read(&distance).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&distance, &bad).unwrap();
    for args in [["tablebase", "info", d], ["tablebase", "verify", d]] {
        let line = common::one_error_line(&args);
        assert!(
            line.starts_with(&format!(
                "error: {d}: slice file b1k0-w1k0.qdc of the checkers database is damaged: "
            )),
            "{line}"
        );
        assert!(
            line.ends_with(&format!("run `{build} --distance` to rebuild it")),
            "{line}"
        );
    }
    std::fs::write(&distance, &good).unwrap();
    std::fs::write(&slice, &whole[..whole.len() - 1]).unwrap();
    let line = common::one_error_line(&["tablebase", "info", d]);
    assert!(
        line.starts_with(&format!(
            "error: {d}: slice file b1k0-w1k0.qrt of the checkers database is damaged: "
        )),
        "{line}"
    );

    // A directory an earlier version built, without a manifest, is read up to the most
    // pieces of its files, and checked against every slice of as many.
    std::fs::write(&slice, &whole).unwrap();
    std::fs::remove_file(dir.join("manifest")).unwrap();
    let out = ok_saying(&["tablebase", "info", d], "table: checkers, up to 3 pieces");
    assert!(out.contains("\nslices: 34\n"), "{out}");
    std::fs::remove_file(&slice).unwrap();
    let line = common::one_error_line(&["tablebase", "verify", d]);
    assert_eq!(line, format!("error: {incomplete}"));
    // Its next build writes the manifest and finishes it.
    build_databases(d, &["--max-pieces", "2"]);
    let manifest = std::fs::read_to_string(dir.join("manifest")).unwrap();
    assert!(manifest.contains("\nmax-pieces 3\n"), "{manifest}");
    let (ok, out, err) = quasar(&["tablebase", "verify", d]);
    assert!(ok && out.contains("all agree"), "{err}{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compressed_databases_answer_as_the_plain_ones_and_verify() {
    let dir = scratch("checkers", "compress");
    let (plain, runs) = (dir.join("plain"), dir.join("runs"));
    let (p, r) = (plain.to_str().unwrap(), runs.to_str().unwrap());
    build_databases(p, &["--max-pieces", "3"]);
    let (out, _) = common::run_ok(&["tablebase", "compress", p, "-o", r, "--block", "256"]);
    assert!(
        out.contains("34 slices written as coded blocks of 256 positions, 0 kept"),
        "{out}"
    );
    let (out, _) = common::run_ok(&["tablebase", "compress", p, "-o", r, "--block", "256", "-q"]);
    assert!(
        out.contains("0 slices written as coded blocks of 256 positions, 34 kept"),
        "{out}"
    );
    // The same counts, and the form said.
    let (a, _) = common::run_ok(&["tablebase", "info", p]);
    let (b, _) = common::run_ok(&["tablebase", "info", r]);
    assert!(a.contains("\nform: plain\n"), "{a}");
    assert!(
        b.contains(
            "\nform: entropy-coded run-length blocks of 256 positions, format version 2 \
             (a checksum a 4 KiB block), read whole\n"
        ),
        "{b}"
    );
    // Only the lines of the bytes on disk and the form differ.
    let counts = |out: &str| -> Vec<String> {
        let differ = ["file: ", "form: ", "positions: "];
        (out.lines())
            .filter(|l| !differ.iter().any(|d| l.starts_with(d)))
            .map(String::from)
            .collect()
    };
    assert_eq!(counts(&a), counts(&b));
    // A position with a capture to make, whose value the blocks do not hold, and one
    // without: the same answers.
    // Through a table cache of about 1 KB, far below the files' size, too.
    let tiny = ["--table-cache", "0.001"];
    for fen in ["B:W18:B14,K1", "W:WK14,K19:BK1", "W:W18,K30:B14"] {
        let (a, _) = common::run_ok(&["tablebase", "probe", p, "--position", fen]);
        let (b, _) = common::run_ok(&["tablebase", "probe", r, "--position", fen]);
        assert_eq!(a, b, "{fen}");
        let probe = ["tablebase", "probe", r, "--position", fen];
        let (c, _) = common::run_ok(&[&probe[..], &tiny].concat());
        assert_eq!(a, c, "{fen} through the cache");
    }
    let (out, _) = common::run_ok(&["tablebase", "verify", r]);
    assert!(out.contains("all agree"), "{out}");
    let (out, _) = common::run_ok(&[&["tablebase", "verify", r][..], &tiny].concat());
    assert!(out.contains("all agree"), "{out}");
    // A byte flipped in the runs of the largest file: verify names its slice, through the
    // cache as whole.
    let largest = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|x| x == "qrt"))
        .max_by_key(|f| std::fs::metadata(f).unwrap().len())
        .unwrap();
    let mut bytes = std::fs::read(&largest).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x20;
    std::fs::write(&largest, &bytes).unwrap();
    let slice = largest.file_stem().unwrap().to_string_lossy().into_owned();
    for cache in [&[][..], &tiny] {
        let (ok, _, err) = common::quasar(&[&["tablebase", "verify", r][..], cache].concat());
        assert!(
            !ok && err.contains(&slice) && err.contains("checksum"),
            "{err}"
        );
    }
    bytes[at] ^= 0x20;
    std::fs::write(&largest, &bytes).unwrap();
    let e = common::one_error_line(&["tablebase", "compress", p, "-o", r, "--block", "100"]);
    assert!(e.contains("--block 100: a block of 100 positions"), "{e}");
    let missing = dir.join("none");
    let e = common::one_error_line(&["tablebase", "compress", missing.to_str().unwrap(), "-o", r]);
    assert!(e.ends_with("none: no such directory"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
