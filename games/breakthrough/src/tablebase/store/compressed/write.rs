//! Compressing a sliced table, in two passes over its slices: every slice's runs counted
//! (don't-cares joining the run around them) and one code fitted to them all, then each
//! file's slices coded with it and the file written whole. A file already there with the
//! same code, block size and plain slices (their CRC-32s) is kept, so a stopped run redoes
//! only the files it had not written (and the count, which reads every slice again).

use super::{
    group, manifest_of, pack_bytes, parse_pack, supports, CompressedTable, HISTOGRAM, LAYOUT,
};
use crate::tablebase::slices::Slicing;
use crate::tablebase::store::file::TableFileError;
use crate::tablebase::store::sliced::SliceState;
use crate::tablebase::store::SlicedTable;
use quasar_file::slices::SliceDir;
use quasar_file::{self as file, OutputLock};
use rayon::prelude::*;
use retro::{RunArray, RunCode, RunCounts, RunWriter, RunsError};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// Why a table cannot be compressed.
#[derive(Debug, thiserror::Error)]
pub enum CompressError {
    /// The table to compress, or the output, cannot be read or written.
    #[error(transparent)]
    Table(#[from] TableFileError),
    /// The block size is not one the coder takes.
    #[error("--block: {0}")]
    Block(#[from] RunsError),
    /// The table's depths do not fit the coder's four values.
    #[error("{dir}: a table with {states} stored depths (cap {cap}); the compressed form holds tables whose region starts at row 5 at most (every four-row table up to 8x8)")]
    Depths {
        /// The table.
        dir: String,
        /// Its stored depths.
        states: u32,
        /// Its cap.
        cap: u8,
    },
    /// A slice of the table is not built or is damaged.
    #[error("{dir}: slice {slice} {why}: compress a whole, intact table (rerun its build to finish or repair it)")]
    Slice {
        /// The table.
        dir: String,
        /// The slice.
        slice: String,
        /// What is wrong with it.
        why: String,
    },
}

/// What compressing one file did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packed {
    /// Every slice's runs counted, the code fitted.
    Counted {
        /// Slices counted.
        slices: usize,
        /// Bytes of their runs as bytes (before entropy coding).
        run_bytes: u64,
    },
    /// The output already held the file with this code (a resumed run).
    Kept(String),
    /// Coded and written now.
    Written {
        /// The file's name.
        file: String,
        /// Bytes of its slices' plain packed depths.
        plain: u64,
        /// Bytes of the file.
        coded: u64,
    },
}

/// The values of slice `id` (its packed depths `packed`) in order, each a stored value
/// (`depth - 3`) or `None` for a don't-care.
fn for_each_value(s: &Slicing, id: u32, packed: &[u8], mut f: impl FnMut(Option<u32>)) {
    let w = s.region().width();
    let mask = (1u64 << w) - 1;
    let four = s.region().rows() == 4;
    let decode = s.decode_table();
    let per_byte = s.per_byte() as u64;
    let mut rows = s.rows_of(s.config(id, 0));
    for idx in 0..s.per_slice() {
        if idx & mask == 0 {
            rows = s.rows_of(s.config(id, idx));
        }
        rows.pre_goal = (idx & mask) as u32;
        if super::dont_care(rows, four, w) {
            f(None);
        } else {
            let d = decode[packed[(idx / per_byte) as usize] as usize][(idx % per_byte) as usize];
            f(Some(u32::from(d) - 3));
        }
    }
}

/// The runs of slice `id` as bytes, in blocks of `block` positions.
fn slice_runs(s: &Slicing, id: u32, packed: &[u8], block: u64) -> Result<RunArray, RunsError> {
    let mut w = RunWriter::new(block)?;
    for_each_value(s, id, packed, |v| w.push(v));
    Ok(w.finish())
}

/// Compresses the whole sliced table in `from` into the directory `to` in blocks of
/// `block` positions (see the module's documentation), spreading slices and files over
/// rayon's threads; `report` hears the count, then each file, in the order they finish.
/// Returns the compressed table.
pub fn compress(
    from: &Path,
    to: &Path,
    block: u64,
    report: &mut (dyn FnMut(&Packed) + Send),
) -> Result<CompressedTable, CompressError> {
    RunWriter::new(block)?;
    let table = SlicedTable::open(from)?;
    let s = table.slicing().clone();
    let dir = || from.display().to_string();
    if !supports(&s) {
        return Err(CompressError::Depths {
            dir: dir(),
            states: s.states(),
            cap: s.cap(),
        });
    }
    let ids: Vec<u32> = (0..s.slices()).filter(|&id| s.is_canonical(id)).collect();
    // Every slice's header (its CRC and histogram), each file checked whole.
    let headers = ids
        .par_iter()
        .map(|&id| match table.state(id) {
            SliceState::Finished(h) => Ok((id, h)),
            SliceState::Missing => Err(CompressError::Slice {
                dir: dir(),
                slice: s.name(id),
                why: "is not built".into(),
            }),
            SliceState::Damaged(why) => Err(CompressError::Slice {
                dir: dir(),
                slice: s.name(id),
                why: format!("is damaged ({why})"),
            }),
        })
        .collect::<Result<std::collections::HashMap<_, _>, _>>()?;
    let region = s.region().clone();
    let wanted = manifest_of(&region, block);
    // An output of the same table in blocks of another size is rewritten file by file.
    let same_table = |m: &quasar_file::slices::Manifest| {
        m.get("board") == wanted.get("board") && m.get("rows") == wanted.get("rows")
    };
    SliceDir::create(to, &LAYOUT, &wanted, |found| {
        same_table(found).then(|| wanted.clone())
    })
    .map_err(TableFileError::from)?;
    let out = CompressedTable::open(to)?;
    let read = |id: u32| -> Result<&[u8], CompressError> {
        table
            .slice_bytes(id)
            .map_err(|c| CompressError::Slice {
                dir: dir(),
                slice: s.name(id),
                why: format!("is damaged ({c})"),
            })?
            .ok_or_else(|| CompressError::Slice {
                dir: dir(),
                slice: s.name(id),
                why: "is not built".into(),
            })
    };
    let report = Mutex::new(report);
    let tell = |p: &Packed| (report.lock().unwrap_or_else(|e| e.into_inner()))(p);
    // The first pass: every slice's runs counted, one slice in memory a thread.
    let (counts, run_bytes) = ids
        .par_iter()
        .map(|&id| {
            let runs = slice_runs(&s, id, read(id)?, block)?;
            let mut c = RunCounts::default();
            c.add(&runs);
            Ok::<_, CompressError>((c, runs.bytes().len() as u64))
        })
        .try_reduce(
            || (RunCounts::default(), 0),
            |a, b| Ok((a.0.merge(&b.0), a.1 + b.1)),
        )?;
    tell(&Packed::Counted {
        slices: ids.len(),
        run_bytes,
    });
    let code = counts.code();
    let w = region.width();
    (0..1u32 << w)
        .into_par_iter()
        .filter(|&top| !group(&s, top).is_empty())
        .try_for_each(|top| {
            let members = group(&s, top);
            let path = out.pack_path(top);
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if kept(&s, top, &path, block, &code, &members, &headers) {
                tell(&Packed::Kept(name));
                return Ok(());
            }
            let mut histogram = [0u64; HISTOGRAM];
            let mut slices = Vec::with_capacity(members.len());
            for &id in &members {
                let h = &headers[&id];
                for (x, y) in histogram.iter_mut().zip(h.histogram) {
                    *x += y;
                }
                let runs = slice_runs(&s, id, read(id)?, block)?.entropy_coded_with(&code);
                slices.push((id, h.crc, runs));
            }
            let bytes = pack_bytes(&s, top, block, code.lengths(), &histogram, &slices);
            let lock = OutputLock::wait(&path).map_err(TableFileError::from)?;
            file::write_with(&path, &lock, |f| f.write_all(&bytes))
                .map_err(TableFileError::from)?;
            tell(&Packed::Written {
                file: name,
                plain: (members.len() * s.bytes_per_slice()) as u64,
                coded: bytes.len() as u64,
            });
            Ok::<_, CompressError>(())
        })?;
    Ok(out)
}

/// Whether the file at `path` holds group `top` coded with `code` in blocks of `block`,
/// from the plain slices whose headers are `headers`, every slice intact.
fn kept(
    s: &Slicing,
    top: u32,
    path: &Path,
    block: u64,
    code: &RunCode,
    members: &[u32],
    headers: &std::collections::HashMap<u32, crate::tablebase::store::sliced::SliceHeader>,
) -> bool {
    let limit = super::pack_limit(s, block, members.len());
    let Ok(bytes) = file::read(path, limit, "compressed table file") else {
        return false;
    };
    let Ok(parts) = parse_pack(s, top, &bytes) else {
        return false;
    };
    parts.block == block
        && parts.lengths == code.lengths()
        && parts.slices.len() == members.len()
        && parts
            .slices
            .iter()
            .all(|&(id, plain, runs)| runs.is_some() && headers[&id].crc == plain)
}
