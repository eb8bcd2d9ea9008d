//! Helpers the end-to-end tests share: running the binary, per-run scratch files and
//! folders, and reading a JSON Lines record. Each test file uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `quasar` with `args`: whether it succeeded, its standard output and error.
pub fn quasar(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("run quasar");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `quasar arena` between `players` into the folder `out`, without the progress bar,
/// with `extra` arguments (the game and size, games, budgets): whether it succeeded, its
/// standard output and error.
pub fn arena(players: [&str; 2], out: &Path, extra: &[&str]) -> (bool, String, String) {
    let out = out.to_str().expect("a UTF-8 path");
    let mut args = vec!["arena", "--player", players[0], "--player", players[1]];
    args.extend_from_slice(&["--no-progress", "--out", out]);
    args.extend_from_slice(extra);
    quasar(&args)
}

/// Builds the solved Woodpush width-7 table as the file `name` of [`temp`]`(tag, ..)`; its
/// path.
pub fn width_7_table(tag: &str, name: &str) -> String {
    let table = temp(tag, name).to_str().unwrap().to_string();
    let (ok, _, err) = quasar(&[
        "tablebase",
        "build",
        "--game",
        "woodpush",
        "--width",
        "7",
        "--quiet",
        "-o",
        &table,
    ]);
    assert!(ok, "{err}");
    table
}

/// Runs [`arena`] on Woodpush width 7, two games, with `extra` arguments.
pub fn width_7_arena(players: [&str; 2], out: &Path, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["--game", "woodpush", "--width", "7", "--games", "2"];
    args.extend_from_slice(extra);
    arena(players, out, &args)
}

/// A path named `name` in this test run's own folder for the test file `tag`.
pub fn temp(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-e2e-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A fresh, empty folder named `name` in this test run's own folder for the test file `tag`.
pub fn scratch(tag: &str, name: &str) -> PathBuf {
    let dir = temp(tag, name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The objects of a JSON Lines record (an arena's games), one a line.
pub fn json_lines(record: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}
