//! End-to-end: `quasar solve --tree DIR ...`, a job-level proof search of 4x4 whose jobs
//! run as the shell lines `next` writes: the same winner as the plain solve, a merged proof
//! that `--check` accepts, jobs lost mid-batch issued again, a stopped job resumed from its
//! checkpoint, stale checkpoints removed, mirror images sharing one job, an expanded
//! leaf's children starting from its job's numbers (the winner plain minimax finds, in
//! fewer runs than without), and bad input as one error line.

use breakthrough::{Board, Position};
use prover::{Key, ProverPosition};
use quasar_core::{Game, Outcome};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{crc32, quasar};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch("jobtree", name)
}

/// Runs `quasar solve --tree DIR` with `args`, which must succeed; its standard output.
fn tree(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["solve", "--tree", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let (ok, out, err) = quasar(&all);
    assert!(ok, "{all:?}: {err}");
    out
}

/// The job lines of the last `next`.
fn job_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("jobs.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs one job line as GNU parallel would, through the shell.
fn run_job(line: &str) {
    let status = Command::new("sh").arg("-c").arg(line).status().unwrap();
    assert!(status.success(), "{line}");
}

#[test]
fn a_job_tree_of_4x4_finds_the_winner_and_its_merged_proof_checks() {
    let dir = scratch("4x4");
    let d = dir.join("t");
    let out = tree(
        &d,
        &[
            "init",
            "--board",
            "4x4",
            "--no-tb",
            "--job-nodes",
            "300",
            "--memory",
            "16",
        ],
    );
    assert!(
        out.contains("6 leaves (3 positions up to the mirror), jobs of 300 nodes and up to 4 runs"),
        "{out}"
    );
    let mut rounds = 0;
    let mut lost = false;
    loop {
        let out = tree(&d, &["next", "--jobs", "3"]);
        let lines = job_lines(&d);
        if lines.is_empty() {
            assert!(out.contains("the root is settled"), "{out}");
            break;
        }
        rounds += 1;
        assert!(rounds < 100, "unsettled after 100 rounds");
        assert!(lines.iter().all(
            |l| l.contains("--memory 16 --no-tb --stop-after ") && l.contains(" --checkpoint ")
        ));
        if rounds == 2 && !lost {
            // A batch killed before any job ended: the next `next` issues its jobs again.
            lost = true;
            let again = tree(&d, &["next", "--jobs", "3"]);
            assert!(
                again.contains("3 jobs in") && again.contains("3 issued again, 0 new"),
                "{again}"
            );
            assert_eq!(job_lines(&d), lines);
        }
        for l in &lines {
            run_job(l);
        }
        let fed = tree(&d, &["feed"]);
        assert!(
            fed.contains(&format!("fed {} answers", lines.len())),
            "{fed}"
        );
        // Feeding twice takes nothing twice.
        assert!(tree(&d, &["feed"]).contains("fed 0 answers"));
    }
    assert!(
        lost,
        "the root was settled in the first round: the lost batch was not tried"
    );
    let status = tree(&d, &["status"]);
    assert!(
        status.contains("root settled: Black wins from BBBB/BBBB/WWWW/WWWW w within"),
        "{status}"
    );
    let proof = dir.join("whole.proof");
    let p = proof.to_str().unwrap();
    let out = tree(&d, &["proof", "--out", p]);
    assert!(out.contains("proof: "), "{out}");
    let (ok, out, err) = quasar(&["solve", "--check", p]);
    assert!(ok, "{err}");
    assert!(
        out.contains("proof checked: Black wins from BBBB/BBBB/WWWW/WWWW w within"),
        "{out}"
    );
}

#[test]
fn bad_tree_input_is_one_error_line() {
    let dir = scratch("bad");
    let d = dir.join("t");
    let ds = d.to_str().unwrap();
    let one_line = |args: &[&str], want: &str| {
        let (ok, out, err) = quasar(args);
        assert!(!ok, "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    one_line(&["solve", "--tree", ds, "status"], "holds no job tree");
    one_line(&["solve", "--tree", ds, "next"], "holds no job tree");
    one_line(&["solve", "--tree", ds], "ACTION");
    tree(&d, &["init", "--board", "4x4", "--job-nodes", "300"]);
    one_line(
        &["solve", "--tree", ds, "init", "--board", "4x4"],
        "holds a job tree already",
    );
    one_line(
        &["solve", "--tree", ds, "next", "--memory", "8"],
        "goes with `--tree DIR init`",
    );
    one_line(&["solve", "--tree", ds, "proof"], "--out FILE goes with");
    let p = dir.join("p.proof");
    one_line(
        &["solve", "--tree", ds, "proof", "--out", p.to_str().unwrap()],
        "the root is not settled yet",
    );
    one_line(
        &["solve", "--game", "woodpush", "--tree", ds, "status"],
        "--tree is for Breakthrough's solve only",
    );
    // A damaged tree file is refused, never half read.
    let file = d.join("tree");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    one_line(
        &["solve", "--tree", ds, "next"],
        "is not an intact job tree",
    );
    std::fs::write(&file, b"not a tree").unwrap();
    one_line(
        &["solve", "--tree", ds, "feed"],
        "is not an intact job tree",
    );
}

/// The JSON answer of a job of the tree in `dir` (node `node`).
fn answer(dir: &Path, node: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("jobs").join(format!("{node}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A tree of 4x4 without a table in `d` whose root alone is the leaf, its jobs of
/// `job_nodes` nodes with up to `job_runs` runs.
fn root_alone(d: &Path, job_nodes: u64, job_runs: u64) {
    let (nodes, runs) = (job_nodes.to_string(), job_runs.to_string());
    let init = ["init", "--board", "4x4", "--no-tb", "--expand-plies", "0"];
    tree(
        d,
        &[&init[..], &["--job-nodes", &nodes, "--job-runs", &runs]].concat(),
    );
}

/// The node of a job line (its proof file's name).
fn node_of(line: &str) -> String {
    let at = line.find(".proof'").expect("a proof file");
    let start = line[..at].rfind('/').unwrap() + 1;
    line[start..at].to_string()
}

#[test]
fn a_stopped_job_resumes_from_its_checkpoint_with_twice_the_nodes() {
    let dir = scratch("resume");
    let d = dir.join("t");
    // The root alone is the leaf: 4x4 without a table takes 1,861 nodes, so runs of 200,
    // 400, 800, ... nodes stop a few times first.
    root_alone(&d, 200, 8);
    let ckpt = d.join("jobs").join("0.ckpt");
    let mut budget = 200u64;
    let mut before = 0u64;
    let mut stops = 0;
    loop {
        let out = tree(&d, &["next", "--jobs", "1"]);
        let lines = job_lines(&d);
        assert_eq!(lines.len(), 1, "{out}");
        assert_eq!(node_of(&lines[0]), "0");
        assert!(
            lines[0].contains(&format!("--stop-after {budget} --checkpoint ")),
            "{}",
            lines[0]
        );
        assert_eq!(ckpt.exists(), stops > 0, "the checkpoint of the last run");
        run_job(&lines[0]);
        let a = answer(&d, "0");
        let nodes = a["nodes"].as_u64().unwrap();
        let fed = tree(&d, &["feed"]);
        if a["stopped"] == true {
            // The run went on from the last one's nodes and searched exactly its own.
            assert_eq!(nodes, before + budget, "{a}");
            assert!(fed.contains("1 run again from their checkpoints"), "{fed}");
            assert!(ckpt.exists());
            stops += 1;
            before = nodes;
            budget *= 2;
            continue;
        }
        assert!(nodes > before && nodes <= before + budget, "{a}");
        assert!(fed.contains("1 leaves solved"), "{fed}");
        // Settled: its checkpoint is of no more use.
        assert!(!ckpt.exists());
        // The same winner as a fresh solve of the same position.
        let fresh = dir.join("fresh.proof");
        let (ok, out, err) = quasar(&[
            "solve",
            "--board",
            "4x4",
            "--no-tb",
            "--winner-only",
            "--quiet",
            "--json",
            "--out",
            fresh.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        let f: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(a["winner"], f["winner"]);
        assert_eq!(a["winner"], "Black");
        break;
    }
    assert!(stops >= 2, "the job stopped {stops} times only");
    let status = tree(&d, &["status"]);
    assert!(
        status.contains(&format!(
            "{stops} stopped and run again with twice the nodes"
        )),
        "{status}"
    );
    let proof = dir.join("whole.proof");
    tree(&d, &["proof", "--out", proof.to_str().unwrap()]);
    let (ok, out, err) = quasar(&["solve", "--check", proof.to_str().unwrap()]);
    assert!(
        ok && out.contains("proof checked: Black wins"),
        "{out}{err}"
    );
}

#[test]
fn stale_checkpoints_are_removed_and_others_kept() {
    let dir = scratch("stale");
    let d = dir.join("t");
    // One run a job: a stopped job's leaf is expanded at once.
    root_alone(&d, 100, 1);
    tree(&d, &["next", "--jobs", "1"]);
    let lines = job_lines(&d);
    run_job(&lines[0]);
    let jobs = d.join("jobs");
    assert!(jobs.join("0.ckpt").exists());
    // A checkpoint of a node that runs no job, and files that are no checkpoint of ours.
    std::fs::copy(jobs.join("0.ckpt"), jobs.join("5.ckpt")).unwrap();
    for other in ["007.ckpt", "notes.ckpt", "5.ckpt.txt"] {
        std::fs::write(jobs.join(other), b"kept").unwrap();
    }
    let fed = tree(&d, &["feed"]);
    assert!(
        fed.contains("1 expanded into 6 children (")
            && fed.contains("; 2 checkpoints of settled or expanded leaves removed"),
        "{fed}"
    );
    assert!(!jobs.join("0.ckpt").exists() && !jobs.join("5.ckpt").exists());
    for other in ["007.ckpt", "notes.ckpt", "5.ckpt.txt"] {
        assert!(jobs.join(other).exists(), "{other}");
    }
}

#[test]
fn mirror_images_share_one_job_and_the_mirrored_proof_checks() {
    let dir = scratch("mirror");
    let d = dir.join("t");
    // 4x4's six first moves are three pairs of mirror images; White loses after each, so
    // the proof needs all six.
    let out = tree(
        &d,
        &["init", "--board", "4x4", "--no-tb", "--job-nodes", "100000"],
    );
    assert!(
        out.contains("6 leaves (3 positions up to the mirror)"),
        "{out}"
    );
    let out = tree(&d, &["next", "--jobs", "10"]);
    assert!(out.contains("3 jobs in"), "{out}");
    let lines = job_lines(&d);
    assert_eq!(lines.len(), 3);
    let position = |l: &str| {
        let at = l.find("--position '").unwrap() + 12;
        l[at..at + l[at..].find('\'').unwrap()].to_string()
    };
    let issued: Vec<String> = lines.iter().map(|l| position(l)).collect();
    for l in &lines {
        run_job(l);
    }
    let fed = tree(&d, &["feed"]);
    assert!(fed.contains("3 leaves solved"), "{fed}");
    // The three leaves not issued got their mirror images' answers.
    assert!(
        fed.contains("7 nodes (6 won and 1 lost for their side to move, 0 open, 0 running")
            && fed.contains("root settled: Black wins"),
        "{fed}"
    );
    // Each issued position's mirror image (its rows reversed) was not issued itself.
    let mirror = |fen: &str| {
        let (rows, side) = fen.split_once(' ').unwrap();
        let rows: Vec<String> = rows.split('/').map(|r| r.chars().rev().collect()).collect();
        format!("{} {side}", rows.join("/"))
    };
    let mirrored = issued
        .iter()
        .filter(|p| issued.contains(&mirror(p)))
        .count();
    let symmetric = issued.iter().filter(|p| mirror(p) == **p).count();
    assert_eq!(mirrored, symmetric, "{issued:?}");
    let proof = dir.join("whole.proof");
    let p = proof.to_str().unwrap();
    tree(&d, &["proof", "--out", p]);
    let (ok, out, err) = quasar(&["solve", "--check", p]);
    assert!(ok, "{err}");
    assert!(
        out.contains("proof checked: Black wins from BBBB/BBBB/WWWW/WWWW w within"),
        "{out}"
    );
    // The mirrored copies were made for the merge only.
    let left: Vec<String> = std::fs::read_dir(d.join("jobs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("mirror"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Whether the side to move in `pos` wins with perfect play: plain minimax over every line,
/// each position once (`memo`), an independent check of the trees' winners.
fn side_to_move_wins(pos: &Position, memo: &mut HashMap<Key, bool>) -> bool {
    if let Some(o) = pos.outcome() {
        return o == Outcome::Win(pos.side_to_move());
    }
    if let Some(&w) = memo.get(&pos.raw_key()) {
        return w;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let wins = moves.into_iter().any(|mv| {
        let mut child = *pos;
        child.play(mv);
        !side_to_move_wins(&child, memo)
    });
    memo.insert(pos.raw_key(), wins);
    wins
}

/// Runs a tree of 4x4 in `d` to the end with `init` options `options`, four jobs a batch;
/// the runs fed, the children seeded and the checked proof's output.
fn tree_to_the_end(d: &Path, options: &[&str]) -> (u64, u64, String) {
    let mut init = vec!["init", "--board", "4x4", "--no-tb", "--memory", "1"];
    init.extend_from_slice(options);
    tree(d, &init);
    let mut seeded = 0u64;
    let mut rounds = 0;
    loop {
        tree(d, &["next", "--jobs", "4"]);
        let lines = job_lines(d);
        if lines.is_empty() {
            break;
        }
        rounds += 1;
        assert!(rounds < 2000, "unsettled after 2000 rounds");
        for l in &lines {
            run_job(l);
        }
        let fed = tree(d, &["feed"]);
        // "... into N children (M starting from their parent's job's numbers, ..."
        let at = fed.find(" starting from their parent's job").expect(&fed);
        let from = fed[..at].rfind('(').unwrap() + 1;
        seeded += fed[from..at].parse::<u64>().unwrap();
    }
    let status = tree(d, &["status"]);
    let at = status.find("jobs: ").unwrap() + 6;
    let runs = status[at..].split(' ').next().unwrap().parse().unwrap();
    let proof = d.join("whole.proof");
    let p = proof.to_str().unwrap();
    tree(d, &["proof", "--out", p]);
    let (ok, out, err) = quasar(&["solve", "--check", p]);
    assert!(ok, "{err}");
    (runs, seeded, out)
}

#[test]
fn expanded_leaves_children_start_from_their_jobs_numbers_and_settle_sooner() {
    let dir = scratch("seeds");
    let start = Position::start(Board::new(4, 4).unwrap());
    let winner = match side_to_move_wins(&start, &mut HashMap::new()) {
        true => "White",
        false => "Black",
    };
    // Jobs of 50 nodes and one run: most stop and have their leaves expanded.
    let tiny = ["--job-nodes", "50", "--job-runs", "1"];
    let (seeded_runs, seeded, out) = tree_to_the_end(&dir.join("seeded"), &tiny);
    let want = format!("proof checked: {winner} wins from BBBB/BBBB/WWWW/WWWW w within");
    assert!(out.contains(&want), "{out}");
    let mut fresh_options = tiny.to_vec();
    fresh_options.push("--fresh-children");
    let (fresh_runs, none, out) = tree_to_the_end(&dir.join("fresh"), &fresh_options);
    assert!(out.contains(&want), "{out}");
    assert!(seeded > 0 && none == 0, "{seeded} {none}");
    assert!(
        seeded_runs < fresh_runs,
        "seeded {seeded_runs} runs, fresh {fresh_runs}"
    );
    eprintln!("seeded: {seeded_runs} runs ({seeded} children seeded); fresh: {fresh_runs} runs");
    // The option goes with init only.
    let ds = dir.join("seeded");
    let (ok, _, err) = quasar(&[
        "solve",
        "--tree",
        ds.to_str().unwrap(),
        "next",
        "--fresh-children",
    ]);
    assert!(!ok && err.contains("goes with `--tree DIR init`"), "{err}");
}

#[test]
fn a_tree_of_an_older_version_is_refused_in_one_line() {
    let dir = scratch("old");
    let d = dir.join("t");
    tree(&d, &["init", "--board", "4x4", "--job-nodes", "300"]);
    let file = d.join("tree");
    let mut bytes = std::fs::read(&file).unwrap();
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    // Version 2, intact: its nodes had no starting numbers.
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (ok, out, err) = quasar(&["solve", "--tree", d.to_str().unwrap(), "status"]);
    assert!(!ok, "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("format version 2") && err.contains("start the tree again with init"),
        "{err}"
    );
}
