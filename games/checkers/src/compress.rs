//! Databases as run-length blocks: a directory's slices rewritten into another directory,
//! each slice's positions that the rules settle (a capture to make, no move) left free so
//! the runs grow long. The output is a database directory like any other: probes, builds
//! of more pieces and `tablebase info` read it, and settle those positions by the rules.

use crate::db::{self, Database, DbError, SliceTable};
use crate::slice::Slice;
use std::path::Path;

/// What compressing one slice did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compressed {
    /// The output already held the slice in blocks, checked: nothing to do (a resumed run).
    Kept(Slice),
    /// Written now: the values' bytes before and after.
    Written {
        /// The slice.
        slice: Slice,
        /// Bytes of its plain values.
        plain: u64,
        /// Bytes of its blocks and their index.
        runs: u64,
    },
}

/// Rewrites every slice of the databases in `from` into `to` as run-length blocks of
/// `block` positions, slice by slice (one in memory at a time), each file written whole or
/// not at all: a stopped run resumes where it stopped. `report` hears each slice. `from`
/// must be whole.
pub fn compress(
    from: &Path,
    to: &Path,
    block: u64,
    report: &mut dyn FnMut(&Compressed),
) -> Result<Vec<Compressed>, DbError> {
    let (pieces, slices) = Database::whole_slices(from)?;
    // The block size is checked before any file is written.
    retro::RunWriter::new(block)?;
    db::begin(to, pieces)?;
    let mut done = Vec::new();
    for s in slices {
        let path = db::slice_path(to, s);
        let kept = path.is_file() && SliceTable::load(&path).is_ok_and(|t| t.is_coded_with(block));
        let step = if kept {
            Compressed::Kept(s)
        } else {
            let table = SliceTable::load(&db::slice_path(from, s))?;
            let runs = table.to_runs(block)?;
            runs.save(to)?;
            Compressed::Written {
                slice: s,
                plain: table.value_bytes(),
                runs: runs.value_bytes(),
            }
        };
        report(&step);
        done.push(step);
    }
    Ok(done)
}
