//! Databases as run-length blocks: a directory's slices rewritten into another directory,
//! each slice's positions that the rules settle (a capture to make, no move) left free so
//! the runs grow long, and the runs of every slice entropy-coded with one code fitted to
//! them all (one decoding table for every probe). The output is a database directory like
//! any other: probes, builds of more pieces and `tablebase info` read it, and settle those
//! positions by the rules.
//!
//! Three passes, each resumable: every slice into blocks with the runs as bytes (the slow
//! one: each position's board is decoded to find the settled ones), the runs of all of them
//! counted, then each slice coded. A stopped run redoes only what it had not written.

use crate::db::{self, Database, DbError, SliceTable};
use crate::slice::Slice;
use retro::RunCounts;
use std::path::Path;

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
/// blocks of `block` positions (see the module's documentation), one slice in memory at a
/// time, each file written whole or not at all. `report` hears each slice of each pass
/// that does something. `from` must be whole; it may itself be compressed.
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
    let output = |s: Slice| {
        let path = db::slice_path(to, s);
        match path.is_file() {
            true => SliceTable::load(&path).ok(),
            false => None,
        }
    };
    for &s in &slices {
        if output(s).is_some_and(|t| t.runs_block() == Some(block)) {
            continue;
        }
        SliceTable::load(&db::slice_path(from, s))?
            .to_runs(block)?
            .save(to)?;
        report(&Compressed::Blocked(s));
    }
    let mut counts = RunCounts::default();
    for &s in &slices {
        let t = SliceTable::load(&db::slice_path(to, s))?;
        for side in [quasar_core::Side::First, quasar_core::Side::Second] {
            counts.add(t.runs(side).expect("blocks written above"));
        }
    }
    let code = counts.code();
    let mut done = Vec::new();
    for s in slices {
        let t = SliceTable::load(&db::slice_path(to, s))?;
        let step = if t.code_lengths() == Some(code.lengths()) {
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
        report(&step);
        done.push(step);
    }
    Ok(done)
}
