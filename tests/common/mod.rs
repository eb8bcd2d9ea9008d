//! Helpers the end-to-end tests share: running the binary (an arena match, a report, a
//! table build), per-run scratch files and folders, and reading a JSON Lines record. Each test file uses some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The words of the command line `line`; `_` stands for a space inside a word (a position
/// such as `L.L.R.R_L`).
pub fn words(line: &str) -> Vec<String> {
    line.split(' ').map(|w| w.replace('_', " ")).collect()
}

/// The strings of `v` as `&str`, for the runners.
pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Runs `quasar` with `args`: its exit status and output.
pub fn output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("run quasar")
}

/// Runs `quasar` with `args`: whether it succeeded, its standard output and error.
pub fn quasar(args: &[&str]) -> (bool, String, String) {
    let out = output(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Starts `quasar` with `args`, its standard input and output piped to the test and its
/// standard error where `stderr` says.
pub fn spawn(args: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("run quasar")
}

/// Runs `quasar` with `args`, `input` on its standard input: whether it succeeded, its
/// standard output and error.
pub fn with_input(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut child = spawn(args, Stdio::piped());
    child
        .stdin
        .take()
        .expect("its standard input")
        .write_all(input)
        .expect("write its input");
    let out = child.wait_with_output().expect("quasar ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `quasar` with `args`, `input` on its standard input, and kills it when it has not
/// ended within `secs` seconds, failing the test: a hang is a failure, not a stuck run.
pub fn output_within(args: &[&str], input: &[u8], secs: u64) -> Output {
    let mut child = spawn(args, Stdio::piped());
    let mut stdin = child.stdin.take().expect("its standard input");
    let input = input.to_vec();
    // A child that stops reading must not block the test on a full pipe.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let pipe = |p: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = p {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = pipe(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = pipe(child.stderr.take().map(|p| Box::new(p) as _));
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for quasar") {
            break status;
        }
        if std::time::Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("quasar {args:?} did not end within {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let _ = feeder.join();
    Output {
        status,
        stdout: stdout.join().expect("its output"),
        stderr: stderr.join().expect("its errors"),
    }
}

/// Runs `quasar` with `args` on an endless standard input without a line end (`x` after
/// `x`) and kills it once its standard output holds `want`; fails the test when it does
/// not within `secs` seconds. What it printed.
pub fn answers_endless_line(args: &[&str], want: &str, secs: u64) -> String {
    use std::io::Read;
    let mut child = spawn(args, Stdio::null());
    let mut stdin = child.stdin.take().expect("its standard input");
    // Ends when the child is killed and the pipe breaks.
    std::thread::spawn(move || {
        let chunk = vec![b'x'; 64 << 10];
        while stdin.write_all(&chunk).is_ok() {}
    });
    let mut stdout = child.stdout.take().expect("its standard output");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = stdout.read(&mut buf) {
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let mut seen = Vec::new();
    while !String::from_utf8_lossy(&seen).contains(want) {
        let left = until.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => seen.extend(bytes),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let seen = String::from_utf8_lossy(&seen).into_owned();
    assert!(
        seen.contains(want),
        "quasar {args:?} did not print {want:?} within {secs} s on an endless line: {seen:.300}"
    );
    seen
}

/// [`one_error_line`] of a run that must end within `secs` seconds.
pub fn one_error_line_within(args: &[&str], secs: u64) -> String {
    error_line_of(args, &output_within(args, b"", secs))
}

/// The one line of error, `error: ...`, of `out`, the output of a run of `quasar args`
/// that must fail with exit status 1 without a panic.
fn error_line_of(args: &[&str], out: &Output) -> String {
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {e}");
    assert!(lines[0].starts_with("error: "), "{args:?}: {e}");
    lines[0].to_string()
}

/// Runs `quasar` with `args`, which must succeed: its standard output and error.
pub fn run_ok(args: &[&str]) -> (String, String) {
    let (ok, out, err) = quasar(args);
    assert!(ok, "quasar {args:?} failed:\n{err}\n{out}");
    (out, err)
}

/// Runs `quasar` with `args`, which must succeed and print `want`: its standard output.
pub fn ok_saying(args: &[&str], want: &str) -> String {
    let (out, _) = run_ok(args);
    assert!(
        out.contains(want),
        "quasar {args:?} did not print {want:?}:\n{out}"
    );
    out
}

/// Runs `quasar` with `args`, which must fail with `want` in its standard error: that error.
pub fn fails_saying(args: &[&str], want: &str) -> String {
    let (ok, out, err) = quasar(args);
    assert!(!ok, "quasar {args:?} succeeded:\n{out}");
    assert!(
        err.contains(want),
        "quasar {args:?} did not say {want:?}:\n{err}"
    );
    err
}

/// Runs `quasar` with `args`, which must fail with exit status 1 and one line of error,
/// `error: ...`, without a panic: that line.
pub fn one_error_line(args: &[&str]) -> String {
    error_line_of(args, &output(args))
}

/// The arguments of `quasar arena` between `players` into the folder `out`, without the
/// progress bar, with `extra` arguments (the game and size, games, budgets).
pub fn arena_args<'a, const N: usize>(
    players: [&'a str; N],
    out: &'a Path,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["arena"];
    for p in players {
        args.extend_from_slice(&["--player", p]);
    }
    args.extend_from_slice(&["--quiet", "--out", out.to_str().expect("a UTF-8 path")]);
    args.extend_from_slice(extra);
    args
}

/// Runs `quasar arena` with [`arena_args`]: whether it succeeded, its standard output and
/// error.
pub fn arena<const N: usize>(
    players: [&str; N],
    out: &Path,
    extra: &[&str],
) -> (bool, String, String) {
    quasar(&arena_args(players, out, extra))
}

/// Runs `quasar arena` with [`arena_args`], which must succeed: its standard output and
/// error.
pub fn arena_ok<const N: usize>(
    players: [&str; N],
    out: &Path,
    extra: &[&str],
) -> (String, String) {
    run_ok(&arena_args(players, out, extra))
}

/// Runs `quasar arena` with [`arena_args`], which must succeed: its standard output and
/// the games of its JSON Lines record.
pub fn arena_games<const N: usize>(
    players: [&str; N],
    out: &Path,
    extra: &[&str],
) -> (String, Vec<serde_json::Value>) {
    let (stdout, _) = arena_ok(players, out, extra);
    (stdout, json_lines(&out.join("games.jsonl")))
}

/// Runs `quasar arena report` of `records` into the folder `out` with `extra` arguments,
/// which must succeed: its standard output and error.
pub fn report(records: &[&Path], out: &Path, extra: &[&str]) -> (String, String) {
    let mut args = vec!["arena", "report"];
    args.extend(records.iter().map(|r| r.to_str().expect("a UTF-8 path")));
    args.extend_from_slice(&["--out", out.to_str().expect("a UTF-8 path")]);
    args.extend_from_slice(extra);
    run_ok(&args)
}

/// Runs `quasar tablebase build` with `args` (the game, size and options) quietly into
/// `out`, which must succeed: its standard output.
pub fn build_table(args: &[&str], out: &str) -> String {
    let mut all = vec!["tablebase", "build", "--quiet", "-o", out];
    all.extend_from_slice(args);
    run_ok(&all).0
}

/// Builds the solved Woodpush width-7 table as the file `name` of [`temp`]`(tag, ..)`; its
/// path.
pub fn width_7_table(tag: &str, name: &str) -> String {
    let table = temp(tag, name).to_str().unwrap().to_string();
    build_table(&["--game", "woodpush", "--width", "7"], &table);
    table
}

/// Runs [`arena`] on Woodpush width 7, two games, with `extra` arguments.
pub fn width_7_arena(players: [&str; 2], out: &Path, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["--game", "woodpush", "--width", "7", "--games", "2"];
    args.extend_from_slice(extra);
    arena(players, out, &args)
}

/// A path named `name` in this test run's own folder for the test file `tag`. The folder
/// is emptied the first time this process asks for it: a process id is reused, and a
/// folder left by an earlier run of the same id must not hold files a test expects absent.
pub fn temp(tag: &str, name: &str) -> PathBuf {
    static EMPTIED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let dir = std::env::temp_dir().join(format!("quasar-e2e-{tag}-{}", std::process::id()));
    let mut emptied = EMPTIED.lock().unwrap_or_else(|e| e.into_inner());
    if !emptied.iter().any(|t| t == tag) {
        let _ = std::fs::remove_dir_all(&dir);
        emptied.push(tag.to_string());
    }
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

/// The files of `dir` with the extension `ext`, by name, with their bytes: what two builds
/// of one table are compared by.
pub fn files_ending(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The objects of a JSON Lines record (an arena's games), one a line.
pub fn json_lines(record: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

/// CRC-32 (IEEE), bit by bit and independent of the project's checksum code: the
/// checksum of the file formats, for hand-made files.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}
