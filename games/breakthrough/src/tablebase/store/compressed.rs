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
//! through a [`quasar_file::cache::BlockCache`] of that size shared by every thread probing it: a file's header
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
use quasar_file as file;
use quasar_file::cache::{CacheStats, Residence, DEFAULT_CACHE_BYTES};
use quasar_file::slices::{Layout, Manifest, SliceDir};
use retro::RunArray;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::OnceLock;

mod cache;
mod format;
mod write;

use cache::{Cached, PackDir};
use format::{group, pack_bytes, pack_limit, parse_pack, slice_runs, HISTOGRAM, PACK_FRAME};

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
            Residence::Cached(bytes) => {
                Some(Cached::new(1 << self.width, self.slicing.slices(), bytes))
            }
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
