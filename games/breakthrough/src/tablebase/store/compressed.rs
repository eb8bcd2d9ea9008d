//! A sliced table compressed: its slices' capped depths rewritten as entropy-coded
//! run-length blocks ([`retro::RunArray`], one code fitted to the whole table), in a
//! directory of its own (a `manifest` of kind `breakthrough-compressed` with the board, the
//! rows and the block size) with one file per Black pattern on row `H` (`b<pattern>.qtc`)
//! holding every stored slice with that pattern.
//!
//! **Don't-cares.** A configuration whose depth the prober settles without the table is
//! stored as whatever value lengthens the run it falls in, and read back by the same rule,
//! never from the runs: depth 2 (a White step onto row `H-1` that Black cannot undo, which
//! [`wins_at_depth_two`] reads from three row patterns; the side to move then stands one
//! step from its goal), and the configurations without a White piece (no move, no win:
//! the cap). The remaining depths `3..=cap` are stored as `depth - 3`, which fits the
//! coder's four values for a region whose lowest row is at most 5 (every four-row table
//! up to 8x8).
//!
//! A file is written whole or not at all (a temporary file renamed); its header and
//! directory carry CRC-32s, and each slice's runs their own, checked when they are first
//! read: a damaged slice is an error naming its file, never a value.
//!
//! **Residence.** A table no larger than the table cache (`--table-cache`, 256 MiB unless
//! set) is read whole, a file at a time as probes first need it. A larger one is read
//! through a [`BlockCache`] of that size shared by every thread probing it: a file's header
//! and directory are read on first use, and a probe whose slice is not held reads that
//! slice's runs alone (a positioned read, its CRC-32 checked), evicting others by the clock.
//! A slice is the unit of the cache because it is the unit the directory checksums: about
//! 1.2 KB on 6x6 (46,656 positions); an 8x8 slice holds 36 times as many positions.

use super::file::TableFileError;
use super::Corrupt;
use super::{Lookup, SliceDepths};
use crate::tablebase::key::ValueCodec;
use crate::tablebase::region::{wins_at_depth_two, Config, Region};
use crate::tablebase::slices::{Rows, SliceName, Slicing};
use crate::Board;
use quasar_core::progress::Progress;
use quasar_file::cache::{BlockCache, BlockFile, CacheStats, Residence, DEFAULT_CACHE_BYTES};
use quasar_file::frame::{put_u32, put_u64};
use quasar_file::slices::{Layout, Manifest, SliceDir};
use quasar_file::{self as file, Frame, Seal};
use retro::{RunArray, RunCode};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;

mod write;

pub use write::{compress, CompressError, Packed};

/// The first eight bytes of a compressed table's file.
pub const PACK_MAGIC: [u8; 8] = *b"QUASARBC";
/// The format version this code reads and writes.
pub const PACK_VERSION: u32 = 1;
/// Header bytes of a file.
pub const PACK_HEADER: usize = 64;
/// Positions a block by default: on 6x6 with 4 rows a read then decodes about 15 runs
/// (half as many table steps), twice a plain read's time, at 7.8 times smaller than the
/// plain table (4096: 9.4 times smaller, four times a plain read's time).
pub const DEFAULT_BLOCK: u64 = 1024;
/// Bytes of a slice's entry in a file's directory.
const ENTRY_BYTES: usize = 24;
/// Depths a file's histogram counts (as a slice header's: `0..=16`).
const HISTOGRAM: usize = 17;
/// The largest stored value: depths `3..=6` as `0..=3`.
const MAX_STORED_CAP: u8 = 6;

/// A compressed table as a slice directory: its manifest holds `board WxH`, `rows R` and
/// `block N`.
pub const LAYOUT: Layout = Layout {
    kind: "breakthrough-compressed",
    what: "compressed Breakthrough table",
    extension: "qtc",
    legacy: None,
    build: compress_command,
};

/// The compression that writes a directory with the parameters of `m`.
fn compress_command(m: &Manifest, dir: &Path) -> String {
    format!(
        "quasar tablebase compress --board {} SLICED-TABLE -o {} --block {}",
        m.get("board").unwrap_or("WxH"),
        dir.display(),
        m.get("block").unwrap_or("N")
    )
}

/// The manifest of the compressed table of `region` in blocks of `block` positions.
fn manifest_of(region: &Region, block: u64) -> Manifest {
    Manifest::new(LAYOUT.kind)
        .with("board", region.board())
        .with("rows", region.rows())
        .with("block", block)
}

/// The frame of a file: the header's own CRC-32 in its last four bytes.
const PACK_FRAME: Frame = Frame {
    magic: PACK_MAGIC,
    version: PACK_VERSION,
    older: &[],
    header_bytes: PACK_HEADER,
    seal: Seal::HeaderEnd,
    what: "quasar compressed table file",
    remedy: "delete it and rerun `quasar tablebase compress` into its directory",
};

/// The file stem of the file holding slice `slice`: `b` and its Black pattern on row `H`.
pub fn pack_stem(slice: &SliceName) -> String {
    let digits = (slice.width as usize).div_ceil(4);
    format!("b{:0digits$x}", slice.id >> slice.width)
}

/// Whether the depth of the configuration with these row patterns is settled without the
/// table (see the module's documentation); `width` is the board's.
#[inline(always)]
pub fn dont_care(rows: Rows, four_rows: bool, width: u32) -> bool {
    let run = if four_rows {
        rows.shared & ((1 << width) - 1)
    } else {
        rows.low
    };
    (rows.low == 0 && run == 0) || wins_at_depth_two(run, rows.pre_goal, rows.top, width)
}

/// The capped depth of a don't-care configuration (see [`dont_care`]).
#[inline(always)]
fn settled(rows: Rows, four_rows: bool, width: u32, cap: u8) -> u8 {
    let run = if four_rows {
        rows.shared & ((1 << width) - 1)
    } else {
        rows.low
    };
    if rows.low == 0 && run == 0 {
        cap
    } else {
        2
    }
}

/// Whether the compressed form can hold `s`'s depths: the cap at most 6.
pub fn supports(s: &Slicing) -> bool {
    s.cap() <= MAX_STORED_CAP
}

/// One slice's entry in a file's directory.
#[derive(Clone, Copy, Debug)]
struct Entry {
    id: u32,
    /// Its plain slice's CRC-32.
    plain: u32,
    /// The CRC-32 of its runs.
    crc: u32,
    len: u32,
    /// Where its runs start, from the file's start.
    offset: u64,
}

/// A file's header and directory, as read and checked.
#[derive(Debug)]
struct Directory {
    block: u64,
    lengths: Vec<u8>,
    histogram: [u64; HISTOGRAM],
    /// Its slices, ascending.
    entries: Vec<Entry>,
}

/// The most code lengths a header may announce: the coder's symbols are far fewer.
const MAX_SYMBOLS: usize = 1 << 12;

/// Bytes of a file's header and directory for group `top` of `s`, from its header;
/// `Err` says what is wrong.
fn head_len(s: &Slicing, top: u32, header: &[u8]) -> Result<usize, String> {
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
fn parse_dir(s: &Slicing, top: u32, head: &[u8], file_len: u64) -> Result<Directory, String> {
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
struct PackParts<'a> {
    block: u64,
    lengths: Vec<u8>,
    histogram: [u64; HISTOGRAM],
    /// Each slice: its number, its plain slice's CRC-32, and its runs (block starts, then
    /// the runs) when their CRC-32 matches (`None`: damaged).
    slices: Vec<(u32, u32, Option<&'a [u8]>)>,
}

/// The largest file of `slices` slices of `s` in blocks of `block` a reader accepts: a run
/// a position, none longer than its code's 35 bits (a symbol and a length's low bits).
fn pack_limit(s: &Slicing, block: u64, slices: usize) -> u64 {
    let blocks = s.per_slice().div_ceil(block);
    let slice = 4 * (blocks + 1) + (s.per_slice() * 35).div_ceil(8) + 8 * blocks;
    (PACK_HEADER + 256 + 8 * HISTOGRAM + ENTRY_BYTES * slices) as u64 + slices as u64 * slice
}

/// The stored slices with Black pattern `top` on row `H`, ascending.
fn group(s: &Slicing, top: u32) -> Vec<u32> {
    let w = s.region().width();
    (0..1u32 << w)
        .map(|low| low | (top << w))
        .filter(|&id| s.is_canonical(id))
        .collect()
}

/// Reads a whole file for group `top` of `s`, checking its header, directory and each
/// slice's CRC-32; `Err` says what is wrong.
fn parse_pack<'a>(s: &Slicing, top: u32, bytes: &'a [u8]) -> Result<PackParts<'a>, String> {
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
fn slice_runs(
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

/// One file of the table, once read.
enum Pack {
    /// Its slices (by their place in the group), each its runs or the error of reading it.
    Present {
        slices: Vec<Result<RunArray, Corrupt>>,
        histogram: [u64; HISTOGRAM],
    },
    Missing,
    Failed(Corrupt),
}

/// One file of a cached table: its header and directory, once read, and its code (held
/// here so that its decoding table outlives the slices the cache evicts).
enum PackDir {
    Present(Box<OpenPack>),
    Missing,
    Failed(Corrupt),
}

/// A file of a cached table that is there: open for positioned reads, its directory and
/// its code.
struct OpenPack {
    file: BlockFile,
    dir: Directory,
    code: RunCode,
}

/// A slice's runs as the cache holds them: each block's runs are checked the first time a
/// probe reads it, so that a miss decodes one block, not the slice's every block.
struct CachedRuns {
    runs: RunArray,
    shift: u32,
    /// Bit `b`: block `b`'s runs add up to its positions.
    checked: Vec<u64>,
}

impl CachedRuns {
    /// The value at `idx`; `None` when its block's runs do not decode.
    #[inline]
    fn get(&mut self, idx: u64) -> Option<u32> {
        let b = idx >> self.shift;
        let (word, bit) = ((b / 64) as usize, 1 << (b % 64));
        if self.checked[word] & bit == 0 {
            if !self.runs.check_block(b) {
                return None;
            }
            self.checked[word] |= bit;
        }
        Some(self.runs.get(idx))
    }
}

/// A table read through a block cache: each file's directory, the slices' runs held, and
/// the slices found damaged (never read again).
struct Cached {
    dirs: Box<[OnceLock<PackDir>]>,
    cache: BlockCache<CachedRuns>,
    /// By slice number: its runs failed their checks.
    bad: Box<[AtomicBool]>,
}

/// A compressed sliced table: its files, read and checked as probes first need them.
pub struct CompressedTable {
    files: Box<SliceDir>,
    slicing: Slicing,
    codec: ValueCodec,
    block: u64,
    four_rows: bool,
    width: u32,
    /// By Black pattern on row `H`: its file, read on first use.
    packs: Box<[OnceLock<Pack>]>,
    /// By slice number: its place in its file's group (`u32::MAX`: not a stored slice).
    place: Box<[u32]>,
    first_bad: OnceLock<Corrupt>,
    /// Read through a block cache (`None`: files read whole).
    cached: Option<Cached>,
}

impl fmt::Debug for CompressedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CompressedTable({}, {}, blocks of {}, {:?})",
            self.dir().display(),
            self.region().board(),
            self.block,
            self.residence()
        )
    }
}

impl CompressedTable {
    /// Opens the compressed table in `dir` (its manifest must exist); its files are read
    /// as probes need them, whole when the table fits the default cache size
    /// ([`DEFAULT_CACHE_BYTES`]), through a cache of that size otherwise.
    pub fn open(dir: &Path) -> Result<CompressedTable, TableFileError> {
        let files = SliceDir::open(dir, &LAYOUT)?;
        let m = files.manifest();
        let bad = |msg: String| TableFileError::Invalid {
            path: dir.join(super::sliced::MANIFEST),
            msg,
        };
        let board = m.get("board").and_then(|b| b.parse::<Board>().ok());
        let rows = m.get("rows").and_then(|r| r.parse::<u32>().ok());
        let block = m.get("block").and_then(|r| r.parse::<u64>().ok());
        let (Some(board), Some(rows), Some(block)) = (board, rows, block) else {
            return Err(bad(format!(
                "the manifest ({m}) lacks a valid `board`, `rows` or `block` line"
            )));
        };
        let region = Region::new(board, rows).map_err(|e| bad(e.to_string()))?;
        let slicing = Slicing::new(&region).map_err(|e| bad(e.to_string()))?;
        if !supports(&slicing) {
            return Err(bad(format!(
                "a table of {board} with {rows} rows has depths past {MAX_STORED_CAP}, which the compressed form does not hold"
            )));
        }
        let w = region.width();
        let mut place = vec![u32::MAX; slicing.slices() as usize];
        for top in 0..1u32 << w {
            for (k, id) in group(&slicing, top).into_iter().enumerate() {
                place[id as usize] = k as u32;
            }
        }
        let mut t = CompressedTable {
            files: Box::new(files),
            codec: ValueCodec::new(board),
            block,
            four_rows: rows == 4,
            width: w,
            packs: (0..1u32 << w).map(|_| OnceLock::new()).collect(),
            place: place.into_boxed_slice(),
            slicing,
            first_bad: OnceLock::new(),
            cached: None,
        };
        t.set_cache_bytes(DEFAULT_CACHE_BYTES);
        Ok(t)
    }

    /// Holds the table whole when it fits `bytes` (or `bytes` is 0), else through a block
    /// cache of `bytes` (see [`Residence::choose`]); what was read so far is dropped.
    pub fn set_cache_bytes(&mut self, bytes: u64) {
        self.set_residence(Residence::choose(self.file_bytes(), bytes));
    }

    /// Holds the table as `r` says; what was read so far is dropped.
    pub fn set_residence(&mut self, r: Residence) {
        self.packs = (0..1u32 << self.width).map(|_| OnceLock::new()).collect();
        self.cached = match r {
            Residence::Whole => None,
            Residence::Cached(bytes) => Some(Cached {
                dirs: (0..1u32 << self.width).map(|_| OnceLock::new()).collect(),
                cache: BlockCache::new(bytes),
                bad: (0..self.slicing.slices())
                    .map(|_| AtomicBool::new(false))
                    .collect(),
            }),
        };
    }

    /// How the table is held.
    pub fn residence(&self) -> Residence {
        match &self.cached {
            None => Residence::Whole,
            Some(c) => Residence::Cached(c.cache.budget()),
        }
    }

    /// The block cache's lookups and contents (`None`: the table is held whole).
    pub fn cache_stats(&self) -> Option<CacheStats> {
        self.cached.as_ref().map(|c| c.cache.stats())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }

    /// The directory as a slice directory: its manifest and layout.
    pub fn files(&self) -> &SliceDir {
        &self.files
    }

    /// The slicing.
    pub fn slicing(&self) -> &Slicing {
        &self.slicing
    }

    /// The region.
    pub fn region(&self) -> &Region {
        self.slicing.region()
    }

    /// Positions a block of runs.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The file holding the stored slices whose Black pattern on row `H` is `top`.
    pub fn pack_path(&self, top: u32) -> PathBuf {
        let id = top << self.width;
        self.files
            .slice_path(&pack_stem(&self.slicing.slice_name(id)))
    }

    /// The Black patterns on row `H` of the table's files (those with a stored slice).
    pub fn groups(&self) -> Vec<u32> {
        (0..1u32 << self.width)
            .filter(|&top| !group(&self.slicing, top).is_empty())
            .collect()
    }

    /// File `top`, read and checked on first use.
    #[inline]
    fn pack(&self, top: u32) -> &Pack {
        self.packs[top as usize].get_or_init(|| self.read_pack(top))
    }

    #[cold]
    #[inline(never)]
    fn read_pack(&self, top: u32) -> Pack {
        let s = &self.slicing;
        let first = s.slice_name(group(s, top)[0]);
        let failed = |c: Corrupt| {
            let _ = self.first_bad.set(c);
            Pack::Failed(c)
        };
        let path = self.pack_path(top);
        let limit = pack_limit(s, self.block, group(s, top).len());
        let bytes = match file::read(&path, limit, PACK_FRAME.what) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => return Pack::Missing,
            Err(_) => return failed(Corrupt::Compressed { slice: first }),
        };
        let Ok(parts) = parse_pack(s, top, &bytes) else {
            return failed(Corrupt::Compressed { slice: first });
        };
        if parts.block != self.block {
            return failed(Corrupt::Compressed { slice: first });
        }
        let slices = parts
            .slices
            .iter()
            .map(|&(id, _, runs)| {
                let damaged = Corrupt::Compressed {
                    slice: s.slice_name(id),
                };
                let runs = runs.ok_or(damaged)?;
                slice_runs(s, parts.block, &parts.lengths, runs).map_err(|_| damaged)
            })
            .collect::<Vec<_>>();
        if let Some(Err(c)) = slices.iter().find(|r| r.is_err()) {
            let _ = self.first_bad.set(*c);
        }
        Pack::Present {
            slices,
            histogram: parts.histogram,
        }
    }

    /// The runs of stored slice `id`.
    #[inline]
    fn runs(&self, id: u32) -> Result<&RunArray, Corrupt> {
        match self.pack(id >> self.width) {
            Pack::Present { slices, .. } => match &slices[self.place[id as usize] as usize] {
                Ok(r) => Ok(r),
                Err(c) => Err(*c),
            },
            Pack::Missing => Err(Corrupt::CompressedMissing {
                slice: self.slicing.slice_name(id),
            }),
            Pack::Failed(c) => Err(*c),
        }
    }

    /// `min(D(c), R+1)` of a configuration (White to move, no White piece on `H-1`), as
    /// the plain table answers it: a don't-care by its rule, the others from the runs; a
    /// file missing or damaged is an error.
    #[inline]
    pub fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt> {
        let rows = self.slicing.rows_of(c);
        if dont_care(rows, self.four_rows, self.width) {
            let cap = self.slicing.cap();
            return Ok(Some(settled(rows, self.four_rows, self.width, cap)));
        }
        let (id, idx) = self.slicing.locate(c);
        Ok(Some(self.value(id, idx)? as u8 + 3))
    }

    /// The stored value at `idx` of stored slice `id`.
    #[inline]
    fn value(&self, id: u32, idx: u64) -> Result<u32, Corrupt> {
        let Some(c) = &self.cached else {
            return Ok(self.runs(id)?.get(idx));
        };
        if !c.bad[id as usize].load(Relaxed) {
            let v = c
                .cache
                .with(id as u64, || self.load_slice(c, id), |r| r.get(idx))?;
            if let Some(v) = v {
                return Ok(v);
            }
            self.damaged_slice(c, id);
        }
        Err(Corrupt::Compressed {
            slice: self.slicing.slice_name(id),
        })
    }

    /// Marks stored slice `id` of a cached table damaged (never read again) and remembers
    /// the first damage.
    #[cold]
    fn damaged_slice(&self, c: &Cached, id: u32) -> Corrupt {
        let damaged = Corrupt::Compressed {
            slice: self.slicing.slice_name(id),
        };
        c.bad[id as usize].store(true, Relaxed);
        let _ = self.first_bad.set(damaged);
        damaged
    }

    /// The directory of file `top` of a cached table, read and checked on first use.
    fn pack_dir<'a>(&self, c: &'a Cached, top: u32) -> &'a PackDir {
        c.dirs[top as usize].get_or_init(|| self.read_dir(top))
    }

    #[cold]
    #[inline(never)]
    fn read_dir(&self, top: u32) -> PackDir {
        let s = &self.slicing;
        let ids = group(s, top);
        let failed = |c: Corrupt| {
            let _ = self.first_bad.set(c);
            PackDir::Failed(c)
        };
        let damaged = Corrupt::Compressed {
            slice: s.slice_name(ids[0]),
        };
        let file = match BlockFile::open(&self.pack_path(top)) {
            Ok(f) => f,
            Err(e) if e.is_not_found() => return PackDir::Missing,
            Err(_) => return failed(damaged),
        };
        if file.len() > pack_limit(s, self.block, ids.len()) || file.len() < PACK_HEADER as u64 {
            return failed(damaged);
        }
        let mut head = vec![0u8; PACK_HEADER];
        if file.read_at(0, &mut head).is_err() {
            return failed(damaged);
        }
        let Ok(len) = head_len(s, top, &head) else {
            return failed(damaged);
        };
        if len as u64 > file.len() {
            return failed(damaged);
        }
        head.resize(len, 0);
        if file.read_at(0, &mut head).is_err() {
            return failed(damaged);
        }
        match parse_dir(s, top, &head, file.len()) {
            Ok(dir) if dir.block == self.block => {
                match RunCode::from_lengths(dir.lengths.clone()) {
                    Ok(code) => PackDir::Present(Box::new(OpenPack { file, dir, code })),
                    Err(_) => failed(damaged),
                }
            }
            _ => failed(damaged),
        }
    }

    /// Reads stored slice `id`'s runs from its file for the cache (a positioned read, its
    /// CRC-32 checked, its block index checked and its blocks left to the probes that read
    /// them), with the bytes they take; a damaged slice is marked, never read again.
    #[cold]
    #[inline(never)]
    fn load_slice(&self, c: &Cached, id: u32) -> Result<(CachedRuns, usize), Corrupt> {
        let s = &self.slicing;
        let (file, dir, code) = match self.pack_dir(c, id >> self.width) {
            PackDir::Present(p) => (&p.file, &p.dir, &p.code),
            PackDir::Missing => {
                return Err(Corrupt::CompressedMissing {
                    slice: s.slice_name(id),
                })
            }
            PackDir::Failed(e) => return Err(*e),
        };
        let e = dir.entries[self.place[id as usize] as usize];
        let mut bytes = vec![0u8; e.len as usize];
        let blocks = s.per_slice().div_ceil(dir.block);
        let index = 4 * (blocks as usize + 1);
        if file.read_checked(e.offset, &mut bytes, e.crc).is_err() || bytes.len() < index {
            return Err(self.damaged_slice(c, id));
        }
        let starts = bytes[..index]
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")) as u64)
            .collect();
        bytes.drain(..index);
        match RunArray::from_coded_parts_unchecked(s.per_slice(), dir.block, starts, bytes, code) {
            Ok(runs) => {
                let weight = runs.stored_bytes() as usize + blocks.div_ceil(64) as usize * 8;
                let runs = CachedRuns {
                    shift: dir.block.trailing_zeros(),
                    checked: vec![0; blocks.div_ceil(64) as usize],
                    runs,
                };
                Ok((runs, weight + std::mem::size_of::<CachedRuns>()))
            }
            Err(_) => Err(self.damaged_slice(c, id)),
        }
    }

    /// Whether stored slice `id` can be read (its file present and its runs intact).
    pub fn has(&self, id: u32) -> bool {
        self.value(id, 0).is_ok()
    }

    /// The first damaged file or slice a read ran into, if any.
    pub fn first_damage(&self) -> Option<Corrupt> {
        self.first_bad.get().copied()
    }

    /// The capped depth histogram of the stored slices (as their plain headers count them,
    /// both mirror members of a slice once), reading and checking every file (on all
    /// cores), reporting files done to `progress`: the first missing or damaged file or
    /// slice is the error.
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<[u64; HISTOGRAM], Corrupt> {
        use rayon::prelude::*;
        let groups = self.groups();
        progress.begin("files", groups.len() as u64);
        let done = groups
            .par_iter()
            .map(|&top| {
                // A cached table's files are read whole for the check and dropped after.
                let read;
                let pack = match self.cached {
                    None => self.pack(top),
                    Some(_) => {
                        read = self.read_pack(top);
                        &read
                    }
                };
                progress.advance(1);
                match pack {
                    Pack::Present { slices, histogram } => {
                        match slices.iter().find_map(|r| r.as_ref().err()) {
                            Some(c) => Err(*c),
                            None => Ok(*histogram),
                        }
                    }
                    Pack::Missing => Err(Corrupt::CompressedMissing {
                        slice: self.slicing.slice_name(group(&self.slicing, top)[0]),
                    }),
                    Pack::Failed(c) => Err(*c),
                }
            })
            .collect::<Vec<_>>();
        progress.end();
        let mut histogram = [0u64; HISTOGRAM];
        for h in done {
            for (x, y) in histogram.iter_mut().zip(h?) {
                *x += y;
            }
        }
        Ok(histogram)
    }

    /// The error naming the first file not there, when the table is incomplete (one
    /// listing of the directory; no file is read).
    pub fn completeness(&self) -> Result<(), TableFileError> {
        let missing: Vec<u32> = self
            .groups()
            .into_iter()
            .filter(|&top| !self.pack_path(top).is_file())
            .collect();
        match missing.first() {
            None => Ok(()),
            Some(&top) => Err(TableFileError::Damaged {
                path: self.dir().to_path_buf(),
                source: Corrupt::CompressedMissing {
                    slice: self.slicing.slice_name(group(&self.slicing, top)[0]),
                },
            }),
        }
    }

    /// Bytes of the table's files.
    pub fn file_bytes(&self) -> u64 {
        self.groups()
            .into_iter()
            .filter_map(|top| std::fs::metadata(self.pack_path(top)).ok())
            .map(|m| m.len())
            .sum()
    }
}

impl Lookup for CompressedTable {
    /// The packed value (eq. 4.2) of a key with `2 <= D <= R`; `None` for a deeper or
    /// drawn-out configuration; a file missing or damaged is an error.
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        self.packed_value(&self.codec, key)
    }

    /// Entries with `2 <= D <= R` (stored members), from the files' histograms; 0 when a
    /// file cannot be read.
    fn len(&self) -> usize {
        let cap = self.slicing.cap() as usize;
        self.groups()
            .into_iter()
            .map(|top| match &self.cached {
                None => match self.pack(top) {
                    Pack::Present { histogram, .. } => histogram[2..cap].iter().sum::<u64>(),
                    _ => 0,
                },
                Some(c) => match self.pack_dir(c, top) {
                    PackDir::Present(p) => p.dir.histogram[2..cap].iter().sum::<u64>(),
                    _ => 0,
                },
            })
            .sum::<u64>() as usize
    }

    fn bytes(&self) -> usize {
        self.file_bytes() as usize
    }

    fn name(&self) -> &'static str {
        "compressed"
    }
}

/// A file's bytes: header, code lengths, histogram, directory, then each slice's block
/// starts and runs.
fn pack_bytes(
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
