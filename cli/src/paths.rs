//! Checks of output paths made before long work, so that a bad path costs nothing.

use std::path::{Path, PathBuf};

/// Ok when the file `path` (named by `what` in the error, e.g. an option) can be written:
/// it is a regular file or absent ([`quasar_file::check_output`]), and its folder
/// exists and takes a new file (tried with a scratch file, removed at once).
pub fn writable(path: &Path, what: &str) -> Result<(), String> {
    quasar_file::check_output(path).map_err(|e| format!("{what} {e}"))?;
    let mut probe = path.as_os_str().to_owned();
    probe.push(format!(".probe-{}", std::process::id()));
    let probe = PathBuf::from(probe);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("{what} {}: cannot write there: {e}", path.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
