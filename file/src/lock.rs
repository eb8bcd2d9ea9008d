//! Advisory locks on files, and the one lock of an output that a writer holds for a whole run.

use super::{
    check_output, check_output_dir, describe, register, remove_stale_temps, unregister,
    with_suffix, FileError,
};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// Takes an exclusive advisory lock on `file` without waiting: false when another open
/// file (of this or another process) holds it. The system drops it with the process, so a
/// killed run leaves no stale lock.
pub fn try_lock(file: &File) -> std::io::Result<bool> {
    lock(file, false)
}

/// Takes an exclusive advisory lock on `file`, waiting for it when `wait`; false when it
/// is held elsewhere and not `wait`.
fn lock(file: &File, wait: bool) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let op = if wait {
            libc::LOCK_EX
        } else {
            libc::LOCK_EX | libc::LOCK_NB
        };
        // SAFETY: flock on a descriptor this process owns and keeps open; no memory is involved.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::WouldBlock {
            Ok(false)
        } else {
            Err(e)
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, wait);
        Ok(true)
    }
}

/// The one lock of an output (a file or a directory): `<target>.lock` beside it, locked
/// while this value lives and removed when it drops, so that two runs never write one
/// output; holding it, the writer owns the output's temporary files, and the stale ones a
/// killed run left are removed when it is taken.
#[derive(Debug)]
pub struct OutputLock {
    target: PathBuf,
    path: PathBuf,
    _file: File,
}

impl OutputLock {
    /// Locks the output file `target` after [`check_output`].
    pub fn acquire(target: &Path) -> Result<OutputLock, FileError> {
        check_output(target)?;
        OutputLock::take(target, false)
    }

    /// Locks the output file `target` after [`check_output`], waiting while another run
    /// holds it: for the short writes of files that jobs in parallel share (a sliced
    /// table's manifest), where the later writer goes on after the earlier one.
    pub fn wait(target: &Path) -> Result<OutputLock, FileError> {
        check_output(target)?;
        OutputLock::take(target, true)
    }

    /// Locks the output directory `target` after [`check_output_dir`].
    pub fn acquire_dir(target: &Path) -> Result<OutputLock, FileError> {
        check_output_dir(target)?;
        OutputLock::take(target, false)
    }

    fn take(target: &Path, wait: bool) -> Result<OutputLock, FileError> {
        let path = with_suffix(target, ".lock");
        let busy = || FileError::Busy {
            path: target.to_path_buf(),
            lock: path.clone(),
        };
        match std::fs::symlink_metadata(&path) {
            Ok(m) if !m.is_file() => {
                return Err(FileError::WouldReplace {
                    path: path.clone(),
                    kind: describe(&m.file_type()),
                })
            }
            _ => {}
        }
        // A lock file the holder removes between our open and our lock is another file
        // than the one at the path now: take the lock again on the new one.
        for _ in 0..8 {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| FileError::io(&path, e))?;
            if !lock(&file, wait).map_err(|e| FileError::io(&path, e))? {
                return Err(busy());
            }
            if same_file(&file, &path) {
                register(&path);
                remove_stale_temps(target);
                return Ok(OutputLock {
                    target: target.to_path_buf(),
                    path,
                    _file: file,
                });
            }
        }
        Err(busy())
    }

    /// The output this lock holds.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still locked: a run that opened it before sees another file at
        // the path once it gets the lock, and takes the lock again.
        let _ = std::fs::remove_file(&self.path);
        unregister(&self.path);
    }
}

/// True when `file` is the file now at `path`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}
