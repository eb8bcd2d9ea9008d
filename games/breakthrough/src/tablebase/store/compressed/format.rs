//! The file format: a header (sealed by its own CRC-32), the code's lengths, the depth
//! histogram and a directory of the slices (each with its CRC-32s), then each slice's block
//! starts and runs. [`pack_bytes`] writes a file; [`parse_dir`] and [`parse_pack`] read and
//! check one.

use super::{PACK_HEADER, PACK_MAGIC, PACK_VERSION};
use crate::tablebase::slices::Slicing;
use quasar_file::frame::{put_u32, put_u64};
use quasar_file::{Frame, Seal};
use retro::RunArray;

/// Bytes of a slice's entry in a file's directory.
pub(super) const ENTRY_BYTES: usize = 24;
/// Depths a file's histogram counts (as a slice header's: `0..=16`).
pub(super) const HISTOGRAM: usize = 17;

/// The frame of a file: the header's own CRC-32 in its last four bytes.
pub(super) const PACK_FRAME: Frame = Frame {
    magic: PACK_MAGIC,
    version: PACK_VERSION,
    older: &[],
    header_bytes: PACK_HEADER,
    seal: Seal::HeaderEnd,
    what: "quasar compressed table file",
    remedy: "delete it and rerun `quasar tablebase compress` into its directory",
};

/// One slice's entry in a file's directory.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) id: u32,
    /// Its plain slice's CRC-32.
    pub(super) plain: u32,
    /// The CRC-32 of its runs.
    pub(super) crc: u32,
    pub(super) len: u32,
    /// Where its runs start, from the file's start.
    pub(super) offset: u64,
}

/// A file's header and directory, as read and checked.
#[derive(Debug)]
pub(super) struct Directory {
    pub(super) block: u64,
    pub(super) lengths: Vec<u8>,
    pub(super) histogram: [u64; HISTOGRAM],
    /// Its slices, ascending.
    pub(super) entries: Vec<Entry>,
}

/// The most code lengths a header may announce: the coder's symbols are far fewer.
const MAX_SYMBOLS: usize = 1 << 12;

/// Bytes of a file's header and directory for group `top` of `s`, from its header;
/// `Err` says what is wrong.
pub(super) fn head_len(s: &Slicing, top: u32, header: &[u8]) -> Result<usize, String> {
    let f = PACK_FRAME.open(header).map_err(|e| e.to_string())?;
    let ids = group(s, top);
    if [f.u8(12), f.u8(13), f.u8(14), f.u8(15)] != s.header_id()
        || f.u32(16) != top
        || f.u32(20) as usize != ids.len()
    {
        return Err("its header names another table or group of slices".into());
    }
    let symbols = f.u32(28) as usize;
    if symbols > MAX_SYMBOLS {
        return Err(format!("{symbols} code lengths in its header"));
    }
    Ok(PACK_HEADER + symbols + 8 * HISTOGRAM + ENTRY_BYTES * ids.len())
}

/// Reads a file's header and directory for group `top` of `s` from `head` (at least
/// [`head_len`] bytes), the file being `file_len` bytes, checking them; `Err` says what is
/// wrong.
pub(super) fn parse_dir(
    s: &Slicing,
    top: u32,
    head: &[u8],
    file_len: u64,
) -> Result<Directory, String> {
    let f = PACK_FRAME.open(head).map_err(|e| e.to_string())?;
    let dir_end = head_len(s, top, head)?;
    let ids = group(s, top);
    let (block, symbols) = (f.u32(24) as u64, f.u32(28) as usize);
    if !block.is_power_of_two() || !(64..=1 << 24).contains(&block) {
        return Err(format!("a block of {block} positions in its header"));
    }
    if head.len() < dir_end || file_len < dir_end as u64 {
        return Err("cut short in its directory".into());
    }
    let body = &head[PACK_HEADER..dir_end];
    if crc32fast::hash(body) != f.u32(32) {
        return Err("checksum mismatch in its directory: the file is damaged".into());
    }
    let b = quasar_file::frame::Fields(body);
    let mut histogram = [0u64; HISTOGRAM];
    for (d, n) in histogram.iter_mut().enumerate() {
        *n = b.u64(symbols + 8 * d);
    }
    let data_len = file_len - dir_end as u64;
    let mut entries = Vec::with_capacity(ids.len());
    let mut next = 0u64;
    for (k, &id) in ids.iter().enumerate() {
        let at = symbols + 8 * HISTOGRAM + ENTRY_BYTES * k;
        let e = Entry {
            id: b.u32(at),
            plain: b.u32(at + 4),
            crc: b.u32(at + 8),
            len: b.u32(at + 12),
            offset: b.u64(at + 16),
        };
        if e.id != id || e.offset != next || e.offset + e.len as u64 > data_len {
            return Err("its directory does not match its slices".into());
        }
        next = e.offset + e.len as u64;
        entries.push(Entry {
            offset: e.offset + dir_end as u64,
            ..e
        });
    }
    if next != data_len {
        return Err(format!(
            "{} bytes after its last slice: the file is damaged",
            data_len - next
        ));
    }
    Ok(Directory {
        block,
        lengths: body[..symbols].to_vec(),
        histogram,
        entries,
    })
}

/// A file's parts, as read and checked.
pub(super) struct PackParts<'a> {
    pub(super) block: u64,
    pub(super) lengths: Vec<u8>,
    pub(super) histogram: [u64; HISTOGRAM],
    /// Each slice: its number, its plain slice's CRC-32, and its runs (block starts, then
    /// the runs) when their CRC-32 matches (`None`: damaged).
    pub(super) slices: Vec<(u32, u32, Option<&'a [u8]>)>,
}

/// The largest file of `slices` slices of `s` in blocks of `block` a reader accepts: a run
/// a position, none longer than its code's 35 bits (a symbol and a length's low bits).
pub(super) fn pack_limit(s: &Slicing, block: u64, slices: usize) -> u64 {
    let blocks = s.per_slice().div_ceil(block);
    let slice = 4 * (blocks + 1) + (s.per_slice() * 35).div_ceil(8) + 8 * blocks;
    (PACK_HEADER + 256 + 8 * HISTOGRAM + ENTRY_BYTES * slices) as u64 + slices as u64 * slice
}

/// The stored slices with Black pattern `top` on row `H`, ascending.
pub(super) fn group(s: &Slicing, top: u32) -> Vec<u32> {
    let w = s.region().width();
    (0..1u32 << w)
        .map(|low| low | (top << w))
        .filter(|&id| s.is_canonical(id))
        .collect()
}

/// Reads a whole file for group `top` of `s`, checking its header, directory and each
/// slice's CRC-32; `Err` says what is wrong.
pub(super) fn parse_pack<'a>(
    s: &Slicing,
    top: u32,
    bytes: &'a [u8],
) -> Result<PackParts<'a>, String> {
    let d = parse_dir(s, top, bytes, bytes.len() as u64)?;
    let slices = d
        .entries
        .iter()
        .map(|e| {
            let runs = &bytes[e.offset as usize..(e.offset + e.len as u64) as usize];
            (
                e.id,
                e.plain,
                (crc32fast::hash(runs) == e.crc).then_some(runs),
            )
        })
        .collect();
    Ok(PackParts {
        block: d.block,
        lengths: d.lengths,
        histogram: d.histogram,
        slices,
    })
}

/// The run array of one slice's stored runs (block starts as 32-bit offsets, then the
/// runs), each block checked to decode to its positions.
pub(super) fn slice_runs(
    s: &Slicing,
    block: u64,
    lengths: &[u8],
    runs: &[u8],
) -> Result<RunArray, &'static str> {
    let blocks = s.per_slice().div_ceil(block) as usize;
    let index = 4 * (blocks + 1);
    if runs.len() < index {
        return Err("its block index is cut short");
    }
    let starts = runs[..index]
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")) as u64)
        .collect();
    RunArray::from_parts(
        s.per_slice(),
        block,
        starts,
        runs[index..].to_vec(),
        Some(lengths.to_vec()),
    )
    .map_err(|_| "its runs do not decode to the slice's configurations")
}

/// A file's bytes: header, code lengths, histogram, directory, then each slice's block
/// starts and runs.
pub(super) fn pack_bytes(
    s: &Slicing,
    top: u32,
    block: u64,
    lengths: &[u8],
    histogram: &[u64; HISTOGRAM],
    slices: &[(u32, u32, RunArray)],
) -> Vec<u8> {
    let mut dir = Vec::with_capacity(lengths.len() + 8 * HISTOGRAM + ENTRY_BYTES * slices.len());
    dir.extend_from_slice(lengths);
    for n in histogram {
        dir.extend_from_slice(&n.to_le_bytes());
    }
    let mut data = Vec::new();
    for &(id, plain, ref runs) in slices {
        let start = data.len() as u64;
        for &b in runs.starts() {
            data.extend_from_slice(&(b as u32).to_le_bytes());
        }
        data.extend_from_slice(runs.bytes());
        let mut e = [0u8; ENTRY_BYTES];
        put_u32(&mut e, 0, id);
        put_u32(&mut e, 4, plain);
        put_u32(&mut e, 8, crc32fast::hash(&data[start as usize..]));
        put_u32(&mut e, 12, (data.len() as u64 - start) as u32);
        put_u64(&mut e, 16, start);
        dir.extend_from_slice(&e);
    }
    let mut out = PACK_FRAME.header();
    out[12..16].copy_from_slice(&s.header_id());
    put_u32(&mut out, 16, top);
    put_u32(&mut out, 20, slices.len() as u32);
    put_u32(&mut out, 24, block as u32);
    put_u32(&mut out, 28, lengths.len() as u32);
    put_u32(&mut out, 32, crc32fast::hash(&dir));
    PACK_FRAME.seal(&mut out);
    out.extend_from_slice(&dir);
    out.extend_from_slice(&data);
    out
}
