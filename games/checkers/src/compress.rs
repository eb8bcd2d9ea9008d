//! Databases as run-length blocks: a directory's slices rewritten into another directory,
//! each slice's positions that the rules settle (a capture to make, no move) left free so
//! the runs grow long, and the runs of every slice entropy-coded with one code fitted to
//! them all (one decoding table for every probe). The output is a database directory like
//! any other: probes, builds of more pieces and `tablebase info` read it, and settle those
//! positions by the rules. Coded slices are written in the compressed slice format's
//! version 2, with a CRC-32 for each 4 KiB of runs, so that a database larger than memory
//! is read a block at a time; compressing a directory of version 1 again rewrites it so.
//!
//! Two passes, each resumable: every slice into blocks with the runs as bytes, their runs
//! counted (the slow one: each position's board is decoded to find the settled ones), then
//! each slice coded with one code fitted to all the counts. A stopped run redoes only what
//! it had not written.

use crate::db::{self, Database, DbError, SliceTable};
use crate::slice::Slice;
use rayon::prelude::*;
use retro::RunCounts;
use std::path::Path;
use std::sync::Mutex;

/// What compressing one slice did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compressed {
    /// The first pass wrote the slice's blocks, the runs as bytes, to be coded later.
    Blocked(Slice),
    /// The output already held the slice coded with the database's code (a resumed run).
    Kept(Slice),
    /// Coded and written now: the values' bytes plain and coded.
    Written {
        /// The slice.
        slice: Slice,
        /// Bytes of its plain values.
        plain: u64,
        /// Bytes of its blocks, their index and the code.
        runs: u64,
    },
}

/// Rewrites every slice of the databases in `from` into `to` as entropy-coded run-length
/// blocks of `block` positions (see the module's documentation), the slices spread over
/// rayon's threads (one slice in memory a thread), each file written whole or not at all.
/// `report` hears each slice of each pass that does something, in the order they finish.
/// `from` must be whole; it may itself be compressed.
pub fn compress(
    from: &Path,
    to: &Path,
    block: u64,
    report: &mut (dyn FnMut(&Compressed) + Send),
) -> Result<Vec<Compressed>, DbError> {
    let (pieces, slices) = Database::whole_slices(from)?;
    // The block size is checked before any file is written.
    retro::RunWriter::new(block)?;
    db::begin(to, pieces)?;
    let output = |s: Slice| {
        let path = db::slice_path(to, s);
        match path.is_file() {
            true => SliceTable::load(&path).ok(),
            false => None,
        }
    };
    let report = Mutex::new(report);
    let tell = |c: &Compressed| (report.lock().unwrap_or_else(|e| e.into_inner()))(c);
    // The largest slices first, so that no thread is left with one at the end.
    let mut by_size = slices.clone();
    by_size.sort_by_key(|s| std::cmp::Reverse(crate::slice::SliceIndex::new(*s).size()));
    // The first pass counts each slice's runs as it writes or finds them.
    let counts = by_size
        .par_iter()
        .map(|&s| {
            let table = match output(s).filter(|t| t.runs_block() == Some(block)) {
                Some(t) => t,
                None => {
                    let t = SliceTable::load(&db::slice_path(from, s))?.to_runs(block)?;
                    t.save(to)?;
                    tell(&Compressed::Blocked(s));
                    t
                }
            };
            let mut counts = RunCounts::default();
            for side in [quasar_core::Side::First, quasar_core::Side::Second] {
                counts.add(table.runs(side).expect("blocks written above"));
            }
            Ok::<_, DbError>(counts)
        })
        .try_reduce(RunCounts::default, |a, b| Ok(a.merge(&b)))?;
    let code = counts.code();
    let done = by_size
        .par_iter()
        .map(|&s| {
            let t = SliceTable::load(&db::slice_path(to, s))?;
            // A slice coded alike in the format before the blocks' checksums is rewritten.
            let current = t.format_version() == Some(db::COMPRESSED_VERSION);
            let step = if current && t.code_lengths() == Some(code.lengths()) {
                Compressed::Kept(s)
            } else {
                let coded = t.coded_with(&code)?;
                coded.save(to)?;
                Compressed::Written {
                    slice: s,
                    // Two bits a position, for each side to move.
                    plain: 2 * t.index().size().div_ceil(4),
                    runs: coded.value_bytes(),
                }
            };
            tell(&step);
            Ok(step)
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    Ok(done)
}
