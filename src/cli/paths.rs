//! Checks of output paths made before long work, so that a bad path costs nothing.

use std::path::{Path, PathBuf};

/// Ok when the file `path` (named by `what` in the error, e.g. an option) can be written:
/// its folder exists and takes a new file (tried with a scratch file, removed at once),
/// and `path` is no folder itself.
pub fn writable(path: &Path, what: &str) -> Result<(), String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{what} {}: the folder {} does not exist; create it first",
            path.display(),
            folder.display()
        ));
    }
    if path.is_dir() {
        return Err(format!(
            "{what} {} is a folder: give a file name",
            path.display()
        ));
    }
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
