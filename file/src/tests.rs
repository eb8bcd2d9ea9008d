//! Tests of the file layer: bounded reads, refused outputs, locks and atomic writes.

use super::*;

/// A fresh folder for one test, with a guard that runs the tests that write files one
/// at a time: `remove_temps` removes every temporary file of the process, so a test of
/// it must not run beside another test's write.
pub(crate) fn scratch(name: &str) -> (std::sync::MutexGuard<'static, ()>, PathBuf) {
    static SERIAL: Mutex<()> = Mutex::new(());
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = std::env::temp_dir().join(format!("quasar-core-file-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    (guard, d)
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn write_replaces_whole_and_leaves_nothing_beside() {
    let (_serial, d) = scratch("write");
    let p = d.join("out.bin");
    write(&p, b"first").unwrap();
    write(&p, b"second").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"second");
    assert_eq!(names(&d), ["out.bin"]);
    assert_eq!(read(&p, 6, "test file").unwrap(), b"second");
    let limit = |h: &[u8]| Ok(u64::from(h[0] - b'0'));
    write(&p, b"5abcdef").unwrap();
    let e = read_by_header(&p, 1, "test file", limit)
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("7 bytes, more than the 5 its header allows: damaged or not a test file"),
        "{e}"
    );
    write(&p, b"7seven!").unwrap();
    assert_eq!(
        read_by_header(&p, 1, "test file", limit).unwrap(),
        b"7seven!"
    );
    let e = read(&p, 5, "test file").unwrap_err().to_string();
    assert!(
        e.contains("is 7 bytes, more than the 5 bytes a test file can be"),
        "{e}"
    );
}

#[test]
fn failed_write_keeps_the_old_file_and_removes_its_temp() {
    let (_serial, d) = scratch("fail");
    let p = d.join("out.bin");
    write(&p, b"old").unwrap();
    let lock = OutputLock::acquire(&p).unwrap();
    let e = write_with(&p, &lock, |f| {
        f.write_all(b"half")?;
        Err(std::io::Error::other("disk on fire"))
    })
    .unwrap_err();
    assert!(e.to_string().contains("disk on fire"), "{e}");
    drop(lock);
    assert_eq!(std::fs::read(&p).unwrap(), b"old");
    assert_eq!(names(&d), ["out.bin"]);
}

#[test]
fn a_second_writer_is_refused_and_stale_temps_are_removed() {
    let (_serial, d) = scratch("lock");
    let p = d.join("out.bin");
    std::fs::write(d.join("out.bin.123.4.tmp"), b"stale").unwrap();
    std::fs::write(d.join("out.bin.tmp"), b"stale").unwrap();
    std::fs::write(d.join("out.bin.x.tmp"), b"not ours").unwrap();
    let held = OutputLock::acquire(&p).unwrap();
    assert_eq!(names(&d), ["out.bin.lock", "out.bin.x.tmp"]);
    let e = OutputLock::acquire(&p).unwrap_err().to_string();
    assert!(e.contains("out.bin is being written by another run"), "{e}");
    let w = AtomicWrite::create(&p, &held).unwrap();
    let tmp = w.temp_path().to_path_buf();
    assert!(tmp.exists());
    remove_temps();
    assert!(!tmp.exists());
    drop(w);
    drop(held);
    OutputLock::acquire(&p).unwrap();
}

#[test]
fn lines_are_bounded_and_long_ones_read_past() {
    // A line without an end is returned as soon as it passes the limit.
    let mut endless = std::io::Read::chain(&b"y"[..], std::io::repeat(b'x'));
    let mut endless = std::io::BufReader::new(&mut endless);
    let mut line = Vec::new();
    assert_eq!(
        read_line(&mut endless, &mut line, 10).unwrap(),
        Line::TooLong
    );
    assert_eq!(line, b"yxxxxxxxxx");

    let text = format!("ab\r\n{}\nlast", "x".repeat(100));
    let mut input = std::io::BufReader::with_capacity(7, text.as_bytes());
    let mut line = Vec::new();
    let mut got = Vec::new();
    loop {
        let r = read_line(&mut input, &mut line, 10).unwrap();
        got.push((r, String::from_utf8(line.clone()).unwrap()));
        if r == Line::TooLong {
            skip_line(&mut input).unwrap();
        }
        if r == Line::End {
            break;
        }
    }
    assert_eq!(
        got,
        [
            (Line::Whole, "ab".into()),
            (Line::TooLong, "x".repeat(10)),
            (Line::Whole, "last".into()),
            (Line::End, String::new()),
        ]
    );
    assert_eq!(shorten("abcdef", 3), "abc... (6 bytes)");
    assert_eq!(shorten("abc", 3), "abc");
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_folders_are_neither_read_nor_replaced() {
    let (_serial, d) = scratch("kinds");
    let fifo = d.join("fifo");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(ok.success());
    for (p, kind) in [
        (fifo.as_path(), "a FIFO (named pipe)"),
        (Path::new("/dev/zero"), "a character device"),
        (d.as_path(), "a directory"),
    ] {
        let e = read(p, 1 << 20, "test file").unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{} is {kind}, not a regular file: give the path of a file",
                p.display()
            )
        );
        let e = write(p, b"x").unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{} is {kind}: writing would replace it; give the path of a regular file",
                p.display()
            )
        );
    }
    // An output directory named by a file or a device.
    let file = d.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for (p, kind) in [
        (file.as_path(), "a regular file"),
        (Path::new("/dev/zero"), "a character device"),
    ] {
        let e = check_output_dir(p).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{} is {kind}, not a directory: give the path of a directory (new or existing)",
                p.display()
            )
        );
    }
    assert!(check_output_dir(&d).is_ok());
    let e = check_output(&d.join("no/such/out"))
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("no/such does not exist; create it first"),
        "{e}"
    );
}
