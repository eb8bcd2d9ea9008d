//! The one way quasar reads and writes the files users name: reads refuse anything but a
//! regular file before reading (a FIFO would block, a device would never end) and are
//! bounded; writes go through [`OutputLock`] (one writer per output, held for a whole run)
//! and [`AtomicWrite`] (a temporary file of a unique name beside the target, synced and
//! renamed, removed on error, by [`remove_temps`] on a signal, and as stale by the next
//! writer); an existing output that is not a regular file is refused before any work.
//!
//! [`frame`] is the framed header every binary format shares (magic, version, parameters,
//! a CRC-32 checked before the version) and its little-endian field readers; [`slices`] is
//! a table kept as a directory of slice files under a checksummed `manifest`; [`blocks`]
//! checks a mapped body block by block, lazily, against the CRC-32s stored after it; and
//! [`btree`] is the compact static B-tree a table's sorted entries are kept and mapped in;
//! [`cache`] is the bounded block cache, shared by a search's threads, through which a
//! compressed table larger than memory is probed, and its checked positioned reads.
//! Of quasar's crates it depends on the core alone (progress and prefetches).

use std::fs::{File, FileType, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

pub mod blocks;
pub mod btree;
pub mod cache;
pub mod frame;
mod lock;
mod map;
pub mod slices;
#[cfg(test)]
mod tests;
pub use frame::{FieldReader, FieldWriter, Fields, Frame, FrameError, Seal};
pub use lock::{try_lock, OutputLock};
pub use map::map_read_only;

/// Why a file cannot be read or written; every variant names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The system refused an operation on the file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A file to be read is a device, a FIFO, a directory or a socket.
    #[error("{path} is {kind}, not a regular file: give the path of a file")]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// An output path names something a write would replace that is no regular file.
    #[error("{path} is {kind}: writing would replace it; give the path of a regular file")]
    WouldReplace {
        /// The output.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// An output directory's path names something that is no directory.
    #[error("{path} is {kind}, not a directory: give the path of a directory (new or existing)")]
    NotADirectory {
        /// The output directory.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// An output's folder is missing.
    #[error("{path}: the folder {folder} does not exist; create it first")]
    NoFolder {
        /// The output.
        path: PathBuf,
        /// Its missing folder.
        folder: PathBuf,
    },
    /// A file is larger than any valid file of its kind.
    #[error("{path} is {len} bytes, more than the {limit} bytes a {what} can be: not a {what}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        len: u64,
        /// The largest size accepted.
        limit: u64,
        /// What kind of file was expected.
        what: &'static str,
    },
    /// Another run holds the output's lock.
    #[error("{path} is being written by another run (it holds {lock}); wait for it to end or choose another output")]
    Busy {
        /// The output.
        path: PathBuf,
        /// The lock file held.
        lock: PathBuf,
    },
    /// A file's framed header fails its checks (see [`Frame`]).
    #[error("{path}: {source}; {remedy}")]
    Frame {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: FrameError,
        /// What to do about it.
        remedy: &'static str,
    },
    /// A file's header or contents fail their checks.
    #[error("{path}: {msg}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words a user can act on.
        msg: String,
    },
}

impl FileError {
    /// The error of a system call on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> FileError {
        FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// True when the file was not found (an absent optional file, such as a first checkpoint).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What a file that is not a regular file is, in words for messages.
pub fn describe(kind: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// The size in bytes of the file at `path` (links followed), or why it cannot be read.
pub fn size(path: &Path) -> Result<u64, FileError> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| FileError::io(path, e))
}

/// Opens `path` for reading when it is a regular file (links followed); anything else is
/// refused without blocking: on Unix the open itself does not wait (`O_NONBLOCK`, which
/// reads of a regular file ignore), and the opened file's type is checked.
pub fn open_read(path: &Path) -> Result<File, FileError> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(|e| FileError::io(path, e))?;
    let kind = file
        .metadata()
        .map_err(|e| FileError::io(path, e))?
        .file_type();
    if !kind.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: describe(&kind),
        });
    }
    Ok(file)
}

/// Opens `path` for reading (see [`open_read`]) and refuses it when larger than `limit`
/// bytes, the largest valid `what`; returns the file and its length.
pub fn open_bounded(path: &Path, limit: u64, what: &'static str) -> Result<(File, u64), FileError> {
    let file = open_read(path)?;
    let len = file.metadata().map_err(|e| FileError::io(path, e))?.len();
    if len > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            len,
            limit,
            what,
        });
    }
    Ok((file, len))
}

/// The whole of the regular file `path`, refused when larger than `limit` bytes (the
/// largest valid `what`); never reads more than `limit` bytes even if the file grows.
pub fn read(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let (file, len) = open_bounded(path, limit, what)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    Ok(bytes)
}

/// The whole of the regular file `path`, bounded by what its own header states: the first
/// `header_bytes` are read, `limit_of` gives from them the largest size the file may have
/// (or says why the header is not one of a `what`: reported as damage), and a larger file
/// is refused before the rest is read.
pub fn read_by_header(
    path: &Path,
    header_bytes: usize,
    what: &'static str,
    limit_of: impl FnOnce(&[u8]) -> Result<u64, String>,
) -> Result<Vec<u8>, FileError> {
    let mut file = open_read(path)?;
    let len = file.metadata().map_err(|e| FileError::io(path, e))?.len();
    let damaged = |msg: String| FileError::Damaged {
        path: path.to_path_buf(),
        msg,
    };
    if len < header_bytes as u64 {
        return Err(damaged(format!(
            "{len} bytes, shorter than the {header_bytes}-byte header of a {what}: truncated or not a {what}"
        )));
    }
    let mut bytes = vec![0; header_bytes];
    file.read_exact(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    let limit = limit_of(&bytes).map_err(damaged)?;
    if len > limit {
        return Err(damaged(format!(
            "{len} bytes, more than the {limit} its header allows: damaged or not a {what}"
        )));
    }
    file.take(limit - header_bytes as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    Ok(bytes)
}

/// The whole of the regular text file `path` (see [`read`]); bytes that are not UTF-8
/// are reported as damage.
pub fn read_to_string(path: &Path, limit: u64, what: &'static str) -> Result<String, FileError> {
    String::from_utf8(read(path, limit, what)?).map_err(|e| FileError::Damaged {
        path: path.to_path_buf(),
        msg: format!(
            "not text (invalid UTF-8 at byte {}): not a {what}",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// Refuses an output `path` that exists but is not a regular file (a device, a FIFO, a
/// directory, a symbolic link: the final rename would replace it) or whose folder is
/// missing; call it before long work, so that a bad path costs nothing.
pub fn check_output(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(FileError::WouldReplace {
                path: path.to_path_buf(),
                kind: describe(&m.file_type()),
            })
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::io(path, e)),
    }
    check_folder(path)
}

/// Refuses an output directory `path` that exists and is no directory, or whose parent is
/// missing.
pub fn check_output_dir(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(FileError::NotADirectory {
            path: path.to_path_buf(),
            kind: describe(&m.file_type()),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => check_folder(path),
        Err(e) => Err(FileError::io(path, e)),
    }
}

/// The folder `path` lies in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn check_folder(path: &Path) -> Result<(), FileError> {
    let folder = folder_of(path);
    if folder.is_dir() {
        Ok(())
    } else {
        Err(FileError::NoFolder {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
        })
    }
}

/// `path` with `suffix` appended to its last component.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The temporary files and lock files this process has made and not yet removed, for
/// [`remove_temps`].
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn register(path: &Path) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(path.to_path_buf());
}

fn unregister(path: &Path) {
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = live.iter().position(|p| p == path) {
        live.swap_remove(i);
    }
}

/// Removes every temporary file and lock file this process has open, for a process about
/// to end on a signal (call it from a normal thread, not from a signal handler).
pub fn remove_temps() {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    for p in live.iter() {
        let _ = std::fs::remove_file(p);
    }
}

/// Removes the temporary files of `target` that earlier runs left: `<name>.<pid>.<n>.tmp`
/// and the older `<name>.tmp`. Only the holder of the output's lock calls it.
fn remove_stale_temps(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(folder_of(target)) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(file) = file.to_str() else { continue };
        let Some(middle) = file
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|r| r.strip_suffix("tmp"))
        else {
            continue;
        };
        let ours = middle.is_empty()
            || middle
                .strip_suffix('.')
                .is_some_and(|m| m.split('.').count() == 2 && m.split('.').all(is_number));
        if ours && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Numbers the temporary files of this process, so that each has a unique name.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// A file being written in place of `target`: `<target>.<pid>.<n>.tmp` beside it until
/// [`AtomicWrite::commit`] syncs it and renames it over the target, so a file at the
/// target's path is always complete; removed when dropped uncommitted. Created only under
/// the [`OutputLock`] of the target or of a directory holding it.
#[derive(Debug)]
pub struct AtomicWrite {
    target: PathBuf,
    path: PathBuf,
    file: File,
    committed: bool,
}

impl AtomicWrite {
    /// Starts a write of `target`, which `_lock` (of the target or of its directory)
    /// keeps to this run; refuses a target that is not a regular file.
    pub fn create(target: &Path, _lock: &OutputLock) -> Result<AtomicWrite, FileError> {
        check_output(target)?;
        remove_stale_temps(target);
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let path = with_suffix(target, &format!(".{}.{n}.tmp", std::process::id()));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| FileError::io(&path, e))?;
        register(&path);
        Ok(AtomicWrite {
            target: target.to_path_buf(),
            path,
            file,
            committed: false,
        })
    }

    /// The temporary file, to write (and seek) through; `&File` is `Write` and `Seek`.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The temporary file's path, for messages.
    pub fn temp_path(&self) -> &Path {
        &self.path
    }

    /// Makes the written file durable and gives it the target's name.
    pub fn commit(mut self) -> Result<(), FileError> {
        self.file
            .sync_all()
            .map_err(|e| FileError::io(&self.path, e))?;
        std::fs::rename(&self.path, &self.target).map_err(|e| FileError::io(&self.target, e))?;
        self.committed = true;
        unregister(&self.path);
        // The rename itself is durable once the folder is synced; a folder that cannot be
        // opened or synced (some file systems) keeps the file, only not yet its new name.
        if let Ok(dir) = File::open(folder_of(&self.target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicWrite {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicWrite {
    fn drop(&mut self) {
        if !self.committed {
            // Nothing more can be done about a failed removal while unwinding from an
            // earlier error; the next writer removes it as stale.
            let _ = std::fs::remove_file(&self.path);
            unregister(&self.path);
        }
    }
}

/// Writes `target` whole through `fill`, under a lock `lock` already held (of the target
/// or of its directory): a temporary file, synced and renamed when `fill` succeeds.
pub fn write_with(
    target: &Path,
    lock: &OutputLock,
    fill: impl FnOnce(&mut std::io::BufWriter<&File>) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let w = AtomicWrite::create(target, lock)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, w.file());
    fill(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| FileError::io(target, e))?;
    drop(out);
    w.commit()
}

/// Writes `bytes` to `target` atomically, taking and releasing the target's lock.
pub fn write(target: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let lock = OutputLock::acquire(target)?;
    write_with(target, &lock, |f| f.write_all(bytes))
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line (its end of line removed), or the last, unterminated one.
    Whole,
    /// A line longer than the limit: its first bytes are kept, the rest is left unread
    /// ([`skip_line`] reads past it once the line has been answered).
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of `input` into `line` (cleared first, without its `\n` or `\r\n`)
/// holding at most `limit` bytes of it. A longer line returns [`Line::TooLong`] as soon as
/// it passes the limit, with its first `limit` bytes, and the rest left unread: the caller
/// answers it at once (an input without line ends would otherwise never be answered) and
/// then reads past it with [`skip_line`]. Memory stays bounded either way.
pub fn read_line(
    input: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    line.clear();
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Whole
            });
        }
        let end = buf.iter().position(|&b| b == b'\n');
        let take = end.unwrap_or(buf.len());
        let room = limit.saturating_sub(line.len());
        if take > room {
            line.extend_from_slice(&buf[..room]);
            input.consume(room);
            return Ok(Line::TooLong);
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(end.map_or(take, |e| e + 1));
        if end.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Whole);
        }
    }
}

/// Reads past the rest of the current line of `input`, its `\n` included, holding none of
/// it; stops at the end of the input.
pub fn skip_line(input: &mut impl std::io::BufRead) -> std::io::Result<()> {
    input.skip_until(b'\n').map(drop)
}

/// `text` cut to at most `max` characters, with `...` and the length when cut: for errors
/// that quote what a user typed.
pub fn shorten(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((at, _)) => format!("{}... ({} bytes)", &text[..at], text.len()).into(),
    }
}
