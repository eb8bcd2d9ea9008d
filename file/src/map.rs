//! The one way quasar memory-maps a file: read-only, with the contract every caller keeps.

use std::fs::File;

/// A read-only memory map of the whole of `file`.
///
/// # Safety
///
/// The mapped bytes must not change while the map lives: no process may write to the file
/// or truncate it (a truncated map faults on access). quasar never modifies a finished file
/// in place: every writer writes a temporary file and renames it over the target
/// ([`crate::AtomicWrite`]), so a map of a file quasar wrote stays valid for as long as no
/// other program rewrites that file in place. Callers say in a `SAFETY` comment why their
/// file is one of these.
pub unsafe fn map_read_only(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the caller guarantees the file is not modified while the map lives.
    unsafe { memmap2::Mmap::map(file) }
}
