//! An advisory lock on a file, so that two processes never write one table build or one
//! proof at once (`flock`, which the system drops with the process, so a killed run
//! leaves no stale lock).

use std::fs::File;

/// Takes an exclusive lock on `file` without waiting: false when another process holds it.
#[cfg(unix)]
pub(crate) fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a descriptor this process owns and keeps open; no memory is involved.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::WouldBlock {
        Ok(false)
    } else {
        Err(e)
    }
}

/// Without `flock` there is no lock: it is always granted.
#[cfg(not(unix))]
pub(crate) fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}
