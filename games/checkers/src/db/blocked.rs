//! The compressed slice file, version 2: a slice's entropy-coded run-length blocks with a
//! CRC-32 for each 4 KiB of runs ([`quasar_file::blocks`]), so that a database larger
//! than memory is read a block at a time through the table cache: opening reads the
//! header and the index, and a probe that misses reads the 4 KiB holding its block with
//! one positioned read and checks it. Version 1 (a retrograde table file of layout 3, one
//! CRC-32 for the whole file) is still read, whole.
//!
//! A file is a sealed header (the slice, its positions, the block size, each side's runs'
//! length and counts, the index's CRC-32), the index (the code's lengths, then for each
//! side its block starts and its 4 KiB blocks' CRC-32s), then Black to move's runs and
//! White to move's. `docs/file-formats.md` lists the fields.

use super::{Counts, DbError};
use crate::slice::{Slice, SliceIndex};
use quasar_file::blocks::{checksum, first_damaged, BlockError, BlockWriter, BLOCK_BYTES};
use quasar_file::cache::{BlockCache, BlockFile, CacheStats};
use quasar_file::{FieldReader, FieldWriter, Frame, Seal};
use retro::{RunArray, RunCode, TableFileError, RUN_PAD};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The first eight bytes of a compressed slice file of version 2.
pub const MAGIC: [u8; 8] = *b"QUASARCB";
/// The version of the compressed slice format this code writes (version 1 is read too).
pub const VERSION: u32 = 2;
/// Header bytes, the seal included.
const HEADER_BYTES: usize = 128;
/// Bytes of runs a CRC-32 guards, and a miss reads.
const PAGE: u64 = BLOCK_BYTES as u64;
/// The most code lengths a header may announce: the code has 208 symbols.
const MAX_SYMBOLS: usize = 1 << 12;

/// The frame of a file: the header's own CRC-32 in its last four bytes.
pub const FRAME: Frame = Frame {
    magic: MAGIC,
    version: VERSION,
    older: &[],
    header_bytes: HEADER_BYTES,
    seal: Seal::HeaderEnd,
    what: "quasar compressed checkers slice",
    remedy: "compress the databases again (`quasar tablebase compress`)",
};

/// A file's header, read and checked.
#[derive(Clone, Debug)]
struct Head {
    slice: Slice,
    positions: u64,
    block: u64,
    symbols: usize,
    /// Each side's runs' bytes and counts.
    sides: [(u64, Counts); 2],
    index_crc: u32,
}

impl Head {
    /// Blocks of a side.
    fn blocks(&self) -> u64 {
        self.positions.div_ceil(self.block)
    }

    /// Bytes of the index: the code's lengths, then each side's starts and CRC-32s.
    fn index_len(&self) -> u64 {
        let side = |runs: u64| 4 * (self.blocks() + 1) + 4 * runs.div_ceil(PAGE);
        self.symbols as u64 + side(self.sides[0].0) + side(self.sides[1].0)
    }

    /// Bytes of the whole file.
    fn file_len(&self) -> u64 {
        HEADER_BYTES as u64 + self.index_len() + self.sides[0].0 + self.sides[1].0
    }
}

/// The error of a damaged or malformed file.
fn invalid(path: &Path, msg: impl Into<String>) -> DbError {
    DbError::File(TableFileError::Invalid {
        path: path.to_path_buf(),
        msg: msg.into(),
    })
}

/// Reads and checks a header (the slice it names must be the file's).
fn read_head(path: &Path, bytes: &[u8]) -> Result<Head, DbError> {
    let f = FRAME.check(bytes, path).map_err(TableFileError::from)?;
    let mut r = FieldReader::header(f);
    let short = || invalid(path, "its header is cut short");
    let mut counts = [0u8; 4];
    for c in &mut counts {
        *c = r.u8().ok_or_else(short)?;
    }
    let [bm, bk, wm, wk] = counts;
    if counts.iter().any(|&c| c > 12) {
        return Err(DbError::Foreign(path.to_path_buf()));
    }
    let slice = Slice { bm, bk, wm, wk };
    let positions = r.u64().ok_or_else(short)?;
    let block = r.u32().ok_or_else(short)? as u64;
    let symbols = r.u32().ok_or_else(short)? as usize;
    let mut sides = [(0, Counts::default()); 2];
    for (runs, c) in &mut sides {
        *runs = r.u64().ok_or_else(short)?;
        c.wins = r.u64().ok_or_else(short)?;
        c.draws = r.u64().ok_or_else(short)?;
        c.losses = r.u64().ok_or_else(short)?;
        c.positions = positions;
    }
    let index_crc = r.u32().ok_or_else(short)?;
    if path.file_stem() != Some(slice.to_string().as_ref())
        || positions != SliceIndex::new(slice).size()
    {
        return Err(DbError::Foreign(path.to_path_buf()));
    }
    if !block.is_power_of_two() || !(64..=1 << 24).contains(&block) {
        return Err(invalid(path, format!("a block of {block} positions")));
    }
    if symbols > MAX_SYMBOLS {
        return Err(invalid(path, format!("{symbols} code lengths")));
    }
    for (runs, c) in &sides {
        if *runs > u32::MAX as u64 {
            return Err(invalid(path, "runs past 4 GiB"));
        }
        if c.wins
            .checked_add(c.draws)
            .and_then(|n| n.checked_add(c.losses))
            != Some(positions)
        {
            return Err(invalid(path, "its counts do not add up to its positions"));
        }
    }
    Ok(Head {
        slice,
        positions,
        block,
        symbols,
        sides,
        index_crc,
    })
}

/// One side's index: its block starts and its 4 KiB blocks' CRC-32s.
#[derive(Clone, Debug)]
struct SideIndex {
    starts: Box<[u32]>,
    crcs: Box<[u32]>,
}

/// Reads and checks the index (`bytes`: exactly its bytes).
fn read_index(
    path: &Path,
    head: &Head,
    bytes: &[u8],
) -> Result<(RunCode, [SideIndex; 2]), DbError> {
    if checksum(bytes) != head.index_crc {
        return Err(invalid(
            path,
            "checksum mismatch in its index: the file is damaged",
        ));
    }
    let mut r = FieldReader::new(bytes);
    let short = || invalid(path, "its index is cut short");
    let lengths = r.bytes(head.symbols).ok_or_else(short)?.to_vec();
    let code = RunCode::from_lengths(lengths).map_err(|e| invalid(path, e.to_string()))?;
    let mut side = |runs: u64| -> Result<SideIndex, DbError> {
        let mut words = |n: u64| -> Result<Box<[u32]>, DbError> {
            (0..n).map(|_| r.u32().ok_or_else(short)).collect()
        };
        let starts = words(head.blocks() + 1)?;
        let crcs = words(runs.div_ceil(PAGE))?;
        if starts.first() != Some(&0)
            || starts.last().map(|&e| e as u64) != Some(runs)
            || starts.windows(2).any(|w| w[0] > w[1])
        {
            return Err(invalid(path, "its block index does not match its runs"));
        }
        Ok(SideIndex { starts, crcs })
    };
    let black = side(head.sides[0].0)?;
    let white = side(head.sides[1].0)?;
    Ok((code, [black, white]))
}

/// The bytes of a slice's file: `runs` coded with one code, both sides.
pub(crate) fn to_bytes(index: &SliceIndex, runs: [&RunArray; 2], counts: [Counts; 2]) -> Vec<u8> {
    let lengths = runs[0].code_lengths().expect("coded runs");
    let mut idx = FieldWriter::new();
    idx.bytes(lengths);
    let mut body = Vec::new();
    for r in runs {
        debug_assert_eq!(r.code_lengths(), Some(lengths), "one code for both sides");
        let mut w = BlockWriter::new(Vec::new());
        w.write_all(r.bytes()).expect("writing to memory");
        let (bytes, crcs) = w.finish().expect("writing to memory");
        for &s in r.starts() {
            idx.u32(s as u32);
        }
        for c in crcs {
            idx.u32(c);
        }
        body.extend_from_slice(&bytes);
    }
    let idx = idx.into_bytes();
    let s = index.slice();
    let mut h = FieldWriter::header(&FRAME);
    h.u8(s.bm).u8(s.bk).u8(s.wm).u8(s.wk);
    h.u64(index.size())
        .u32(runs[0].block() as u32)
        .u32(lengths.len() as u32);
    for (r, c) in runs.iter().zip(counts) {
        h.u64(r.bytes().len() as u64)
            .u64(c.wins)
            .u64(c.draws)
            .u64(c.losses);
    }
    h.u32(checksum(&idx));
    let mut out = h.seal(&FRAME);
    out.extend_from_slice(&idx);
    out.extend_from_slice(&body);
    out
}

/// Whether a file's first bytes are a version-2 compressed slice's.
pub(crate) fn is_blocked(head: &[u8]) -> bool {
    head.starts_with(&MAGIC)
}

/// A whole file read and checked (header, index, every 4 KiB block, every block's runs):
/// its slice and each side's runs and counts.
pub(crate) fn load_whole(path: &Path) -> Result<(Slice, [(RunArray, Counts); 2]), DbError> {
    let bytes = quasar_file::read_by_header(path, HEADER_BYTES, FRAME.what, |h| {
        // The header is checked again below, with the file's name for its errors.
        read_head(path, h)
            .map(|h| h.file_len())
            .map_err(|e| super::why(&e))
    })
    .map_err(TableFileError::from)?;
    let head = read_head(path, &bytes)?;
    if bytes.len() as u64 != head.file_len() {
        return Err(invalid(path, "cut short: the file is damaged"));
    }
    let at = HEADER_BYTES + head.index_len() as usize;
    let (code, sides) = read_index(path, &head, &bytes[HEADER_BYTES..at])?;
    let mut from = at;
    let mut out = Vec::with_capacity(2);
    for (k, side) in sides.into_iter().enumerate() {
        let (len, counts) = head.sides[k];
        let runs = &bytes[from..from + len as usize];
        if let Some(b) = first_damaged(runs, &side.crcs) {
            let e = BlockError::Checksum {
                block: b as u64,
                offset: (from + b * BLOCK_BYTES) as u64,
            };
            return Err(invalid(path, e.to_string()));
        }
        let starts = side.starts.iter().map(|&s| s as u64).collect();
        let lengths = Some(code.lengths().to_vec());
        let a = RunArray::from_parts(head.positions, head.block, starts, runs.to_vec(), lengths)
            .map_err(|e| invalid(path, e.to_string()))?;
        out.push((a, counts));
        from += len as usize;
    }
    let [black, white]: [(RunArray, Counts); 2] = out.try_into().expect("two sides");
    Ok((head.slice, [black, white]))
}

/// The block cache a database's compressed slices share, with the first damage a probe
/// met.
pub struct TableCache {
    blocks: BlockCache<Page>,
    damage: OnceLock<String>,
}

impl std::fmt::Debug for TableCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableCache")
            .field("blocks", &self.blocks)
            .field("damage", &self.damage.get())
            .finish()
    }
}

impl TableCache {
    /// An empty cache of `bytes`.
    pub fn new(bytes: u64) -> TableCache {
        TableCache {
            blocks: BlockCache::new(bytes),
            damage: OnceLock::new(),
        }
    }

    /// Its budget in bytes.
    pub fn budget(&self) -> u64 {
        self.blocks.budget()
    }

    /// Its lookups and contents.
    pub fn stats(&self) -> CacheStats {
        self.blocks.stats()
    }

    /// The first damage a probe met, naming the file.
    pub fn damage(&self) -> Option<&str> {
        self.damage.get().map(String::as_str)
    }

    #[cold]
    fn note(&self, msg: impl FnOnce() -> String) {
        if self.damage.get().is_none() {
            let _ = self.damage.set(msg());
        }
    }
}

/// Runs as the cache holds them: the 4 KiB block of a side's runs holding the blocks that
/// start in it (or, for a block that runs into the next 4 KiB, that block alone), each
/// block's runs checked the first time a probe reads it.
pub(crate) struct Page {
    /// Where `bytes` start in the side's runs.
    base: u64,
    /// The first run-length block starting in it.
    first: u64,
    /// Bit `j`: block `first + j` checked.
    checked: Box<[u64]>,
    /// The runs, then [`RUN_PAD`] zeros; empty when the block failed its CRC-32.
    bytes: Box<[u8]>,
}

impl Page {
    /// The value `left` positions into block `b` (its runs at `start..end` of the side's
    /// runs, `positions` long); `None` when the page is damaged or the block's runs do
    /// not decode.
    #[inline]
    fn value(
        &mut self,
        code: &RunCode,
        b: u64,
        start: u64,
        end: u64,
        left: u64,
        positions: u64,
    ) -> Option<u32> {
        if self.bytes.is_empty() {
            return None;
        }
        let (start, end) = (start - self.base, end - self.base);
        let j = (b - self.first) as usize;
        let (w, bit) = (j / 64, 1u64 << (j % 64));
        if self.checked[w] & bit == 0 {
            if !code.check_block(&self.bytes, start, end, positions) {
                return None;
            }
            self.checked[w] |= bit;
        }
        Some(code.get(&self.bytes, start, left))
    }

    /// A page whose read failed: every probe of it answers `None`.
    fn damaged() -> Page {
        Page {
            base: 0,
            first: 0,
            checked: Box::new([]),
            bytes: Box::new([]),
        }
    }
}

/// One side of a slice read through the table cache: its index in memory, its runs in
/// the file.
#[derive(Clone)]
pub(crate) struct CachedRuns {
    len: u64,
    shift: u32,
    starts: Box<[u32]>,
    crcs: Box<[u32]>,
    /// Where the runs start in the file, and their bytes.
    offset: u64,
    bytes: u64,
    /// The slice and side, in the high bits of the cache's keys.
    key: u64,
    file: Arc<BlockFile>,
    cache: Arc<TableCache>,
    code: RunCode,
}

impl std::fmt::Debug for CachedRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedRuns")
            .field("file", &self.file.path())
            .field("offset", &self.offset)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

/// Opens a file for reads through `cache`: reads and checks its header and index; its
/// runs are read as probes need them. Its slice and each side's runs and counts.
pub(crate) fn open_cached(
    path: &Path,
    cache: &Arc<TableCache>,
) -> Result<(Slice, [(CachedRuns, Counts); 2]), DbError> {
    let file = BlockFile::open(path).map_err(TableFileError::from)?;
    let mut header = [0u8; HEADER_BYTES];
    read(&file, 0, &mut header)?;
    let head = read_head(path, &header)?;
    if file.len() != head.file_len() {
        return Err(invalid(
            path,
            format!(
                "{} bytes where its header says {}: the file is damaged",
                file.len(),
                head.file_len()
            ),
        ));
    }
    let mut index = vec![0u8; head.index_len() as usize];
    read(&file, HEADER_BYTES as u64, &mut index)?;
    let (code, sides) = read_index(path, &head, &index)?;
    let file = Arc::new(file);
    let mut offset = HEADER_BYTES as u64 + head.index_len();
    let mut out = Vec::with_capacity(2);
    for (k, side) in sides.into_iter().enumerate() {
        let (bytes, counts) = head.sides[k];
        let runs = CachedRuns {
            len: head.positions,
            shift: head.block.trailing_zeros(),
            starts: side.starts,
            crcs: side.crcs,
            offset,
            bytes,
            key: (head.slice.key() as u64 * 2 + k as u64) << 33,
            file: Arc::clone(&file),
            cache: Arc::clone(cache),
            code: code.clone(),
        };
        out.push((runs, counts));
        offset += bytes;
    }
    let [black, white]: [(CachedRuns, Counts); 2] = out.try_into().expect("two sides");
    Ok((head.slice, [black, white]))
}

/// Fills `buf` from byte `at` of `file`.
fn read(file: &BlockFile, at: u64, buf: &mut [u8]) -> Result<(), DbError> {
    file.read_at(at, buf)
        .map_err(|e| DbError::File(TableFileError::from(e)))
}

impl CachedRuns {
    /// The value at `i` (below the slice's positions); `None` when its block cannot be
    /// read or is damaged (the first such damage is kept in the cache, for the search to
    /// report).
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<u32> {
        let b = i >> self.shift;
        let start = self.starts[b as usize] as u64;
        let end = self.starts[b as usize + 1] as u64;
        let k = start / PAGE;
        // The block that runs past its 4 KiB is held apart, read with the blocks it
        // reaches into.
        let apart = end > (k + 1) * PAGE;
        let key = self.key | (apart as u64) << 32 | k;
        let left = i & ((1 << self.shift) - 1);
        let positions = (1u64 << self.shift).min(self.len - (b << self.shift));
        let v = self.cache.blocks.with(
            key,
            || Ok::<_, std::convert::Infallible>(self.load(b, k, apart)),
            |p| p.value(&self.code, b, start, end, left, positions),
        );
        match v {
            Ok(Some(v)) => Some(v),
            Ok(None) => {
                self.cache.note(|| {
                    format!(
                        "{}: block {b}'s runs do not decode: the file is malformed; {}",
                        self.file.path().display(),
                        FRAME.remedy
                    )
                });
                None
            }
            Err(never) => match never {},
        }
    }

    /// Reads the 4 KiB block `k` of the runs (`apart`: the blocks from `k` that run-length
    /// block `b` spans, keeping its runs alone), checking each CRC-32: the page and the
    /// bytes it counts for in the cache.
    #[cold]
    #[inline(never)]
    fn load(&self, b: u64, k: u64, apart: bool) -> (Page, usize) {
        let lo = k * PAGE;
        let end = self.starts[b as usize + 1] as u64;
        let hi = match apart {
            false => (lo + PAGE).min(self.bytes),
            true => end.next_multiple_of(PAGE).min(self.bytes),
        };
        let mut buf = vec![0u8; (hi - lo) as usize + RUN_PAD];
        let n = (hi - lo) as usize;
        let first_crc = k as usize;
        let crcs =
            &self.crcs[first_crc..(first_crc + n.div_ceil(BLOCK_BYTES)).min(self.crcs.len())];
        let failed = match self.file.read_at(self.offset + lo, &mut buf[..n]) {
            Err(e) => Some(e.to_string()),
            Ok(()) => first_damaged(&buf[..n], crcs).map(|d| {
                let e = BlockError::Checksum {
                    block: k + d as u64,
                    offset: self.offset + lo + d as u64 * PAGE,
                };
                format!("{}: {e}", self.file.path().display())
            }),
        };
        if let Some(msg) = failed {
            self.cache.note(|| msg);
            return (Page::damaged(), std::mem::size_of::<Page>());
        }
        let page = if apart {
            let start = self.starts[b as usize] as u64;
            let mut bytes = buf[(start - lo) as usize..(end - lo) as usize].to_vec();
            bytes.extend([0; RUN_PAD]);
            Page {
                base: start,
                first: b,
                checked: Box::new([0]),
                bytes: bytes.into_boxed_slice(),
            }
        } else {
            let first = self.starts.partition_point(|&s| (s as u64) < lo) as u64;
            let last = self.starts.partition_point(|&s| (s as u64) < lo + PAGE) as u64;
            Page {
                base: lo,
                first,
                checked: vec![0; (last - first).div_ceil(64) as usize].into_boxed_slice(),
                bytes: buf.into_boxed_slice(),
            }
        };
        let weight = page.bytes.len() + 8 * page.checked.len() + std::mem::size_of::<Page>();
        (page, weight)
    }

    /// Reads every 4 KiB block of the runs and checks its CRC-32 (a megabyte at a time);
    /// the first damaged one is the error.
    pub(crate) fn check_all(&self) -> Result<(), DbError> {
        const CHUNK: u64 = 256 * PAGE;
        let mut buf = vec![0u8; CHUNK.min(self.bytes) as usize];
        let mut lo = 0;
        while lo < self.bytes {
            let n = (self.bytes - lo).min(CHUNK) as usize;
            let k = (lo / PAGE) as usize;
            read(&self.file, self.offset + lo, &mut buf[..n])?;
            if let Some(d) = first_damaged(&buf[..n], &self.crcs[k..k + n.div_ceil(BLOCK_BYTES)]) {
                let e = BlockError::Checksum {
                    block: (k + d) as u64,
                    offset: self.offset + lo + d as u64 * PAGE,
                };
                return Err(invalid(self.file.path(), e.to_string()));
            }
            lo += n as u64;
        }
        Ok(())
    }

    /// Positions a block.
    pub(crate) fn block(&self) -> u64 {
        1 << self.shift
    }

    /// The code's lengths.
    pub(crate) fn code_lengths(&self) -> &[u8] {
        self.code.lengths()
    }

    /// Bytes its index takes in memory.
    pub(crate) fn index_bytes(&self) -> u64 {
        4 * (self.starts.len() + self.crcs.len()) as u64
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        self.file.path()
    }
}
