//! End-to-end: `quasar solve --tree DIR ...`, a job-level proof search of 4x4 whose jobs
//! run as the shell lines `next` writes: the same winner as the plain solve, a merged proof
//! that `--check` accepts, jobs lost mid-batch issued again, and bad input as one error
//! line.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::quasar;

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
            "--job-nodes",
            "300",
            "--memory",
            "16",
        ],
    );
    assert!(out.contains("6 leaves, jobs of 300 nodes"), "{out}");
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
        assert!(lines
            .iter()
            .all(|l| l.contains("--memory 16 --stop-after 300")));
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
