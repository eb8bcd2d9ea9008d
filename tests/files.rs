//! Files a hostile user names: devices, FIFOs and folders are refused at once by every
//! command that reads or writes them (never replaced, never read without end, never waited
//! on), and a signal leaves no temporary or lock file behind.
#![cfg(unix)]

mod common;

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn temp(name: &str) -> PathBuf {
    common::temp("files", name)
}

/// Starts `quasar` with `args`, input from nowhere.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run quasar")
}

/// Runs `quasar` with `args` and fails the test if it takes more than 30 s: its exit
/// code and standard error.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let mut child = spawn(args);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("quasar {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run`]s `quasar` with `args`, which must fail with exit code 1 and `want` in its error.
fn run_fails(args: &[&str], want: &str) {
    let (code, err) = run(args);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: {err}");
}

/// A FIFO at a fresh path.
fn fifo(name: &str) -> PathBuf {
    let p = temp(name);
    let _ = std::fs::remove_file(&p);
    assert!(Command::new("mkfifo").arg(&p).status().unwrap().success());
    p
}

fn is_fifo(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

/// The files of `dir` whose names end in `.tmp` or `.lock`.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.to_str().unwrap();
            n.ends_with(".tmp") || n.ends_with(".lock")
        })
        .collect()
}

/// The command line `args` (words apart) with `{}` replaced by `path` fails at once with
/// one error line naming `path` as `kind`, and leaves a FIFO a FIFO.
fn refused(args: &str, path: &Path, kind: &str) {
    let p = path.to_str().unwrap();
    let args: Vec<&str> = args
        .split(' ')
        .map(|a| if a == "{}" { p } else { a })
        .collect();
    let (code, err) = run(&args);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(&format!("{p} is {kind}")), "{args:?}: {err}");
    if kind.contains("FIFO") {
        assert!(is_fifo(path), "{args:?} replaced the FIFO");
    }
}

/// Each of the command lines `commands` is [`refused`] with a new FIFO named `name` in
/// place of `{}`, and with the character device `device`: the FIFO's path.
fn refused_for_a_fifo_and(name: &str, device: &str, commands: &[&str]) -> PathBuf {
    let pipe = fifo(name);
    for (p, kind) in [
        (pipe.as_path(), "a FIFO (named pipe)"),
        (Path::new(device), "a character device"),
    ] {
        for args in commands {
            refused(args, p, kind);
        }
    }
    pipe
}

#[test]
fn outputs_that_are_devices_or_fifos_are_refused_before_any_work() {
    let commands = [
        "tablebase build --game woodpush --width 3 -o {}",
        "tablebase build --game chinese-checkers --pieces 2 -o {}",
        "tablebase build --board 4x4 --rows 3 -o {}",
        "solve --board 4x4 --memory 16 --out {}",
        "solve --board 4x4 --memory 16 --checkpoint {}",
    ];
    let pipe = refused_for_a_fifo_and("out.pipe", "/dev/null", &commands);
    assert!(leftovers(pipe.parent().unwrap()).is_empty());
}

#[test]
fn inputs_that_are_devices_or_fifos_are_refused_without_waiting() {
    let commands = [
        "solve --check {}",
        "tablebase info {}",
        "tablebase info --game checkers {}",
        "tablebase info --game woodpush {}",
        "bestmove --game woodpush --width 6 --tb {} --sims 10",
        "bestmove --game chinese-checkers --pieces 2 --tb {}",
    ];
    refused_for_a_fifo_and("in.pipe", "/dev/zero", &commands);
}

#[test]
fn a_record_that_is_a_device_or_fifo_is_refused() {
    let pipe = fifo("record.pipe");
    let out = temp("record-out");
    for (p, kind) in [
        (pipe.as_path(), "a FIFO (named pipe)"),
        (Path::new("/dev/zero"), "a character device"),
    ] {
        let extra = [
            "--board",
            "4x4",
            "--games",
            "2",
            "--record",
            p.to_str().unwrap(),
        ];
        run_fails(
            &common::arena_args(["random", "random:seed=2"], &out, &extra),
            &format!("{} is {kind}", p.display()),
        );
    }
    assert!(is_fifo(&pipe));
}

#[test]
fn a_checkpoint_in_a_missing_folder_is_refused_before_the_solve() {
    let out = temp("k2-unused.qrt");
    let k2 = ["--game", "chinese-checkers", "--pieces", "2"];
    let ckpt = ["--checkpoint", "/nonexistent/folder/k2.ckpt"];
    let o = ["-o", out.to_str().unwrap()];
    let args = [&["tablebase", "build"], &k2[..], &ckpt, &o].concat();
    run_fails(
        &args,
        "/nonexistent/folder/k2.ckpt: the folder /nonexistent/folder does not exist",
    );
}

#[test]
fn two_writers_of_one_output_are_never_both_let_in() {
    let out = temp("busy.qrt");
    let lock = temp("busy.qrt.lock");
    // A lock another run holds: the file exists and is locked by a process of ours.
    let holder = std::fs::File::create(&lock).unwrap();
    assert!(quasar_file::try_lock(&holder).unwrap());
    let o = out.to_str().unwrap();
    let w3 = ["--game", "woodpush", "--width", "3"];
    run_fails(
        &[&["tablebase", "build"], &w3[..], &["-o", o]].concat(),
        &format!("{o} is being written by another run"),
    );
    assert!(!out.exists());
    drop(holder);
    common::build_table(&w3, o);
    assert!(out.is_file() && leftovers(out.parent().unwrap()).is_empty());
}

#[test]
fn sigint_and_sigterm_leave_no_temporary_or_lock_file() {
    for (signal, name) in [(libc::SIGINT, "int"), (libc::SIGTERM, "term")] {
        let dir = temp(&format!("signal-{name}"));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("t.qtb");
        let mut child = spawn(&[
            "tablebase",
            "build",
            "--board",
            "5x5",
            "--rows",
            "4",
            "--quiet",
            "-o",
            out.to_str().unwrap(),
        ]);
        // The lock is taken before the build: signal once it is there.
        let lock = dir.join("t.qtb.lock");
        let start = Instant::now();
        while !lock.exists() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(lock.exists(), "the build took no lock");
        // Well inside the build (it takes seconds).
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: a signal to a child process this test started and has not reaped.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "{status:?}");
        assert!(!out.exists());
        assert_eq!(leftovers(&dir), Vec::<PathBuf>::new());
    }
}
