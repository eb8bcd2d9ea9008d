//! Warnings a search's tables give once per process, on standard error.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Says once per process and table, on standard error, why the table at `path` is not
/// whole (slices not built or damaged, named by `why`): a search uses it where it is.
pub fn warn_incomplete(path: &Path, why: &dyn std::fmt::Display) {
    static WARNED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    // A poisoned lock only means another warning's print panicked: the list is still sound.
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if !warned.iter().any(|p| p == path) {
        warned.push(path.to_path_buf());
        eprintln!("warning: {why}; positions in those slices are searched without the table");
    }
}
