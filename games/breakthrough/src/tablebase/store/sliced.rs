//! A sliced table on disk: a directory with a `manifest` (board and rows) and one file per
//! finished slice (`<name>.qts`: a 192-byte header with the slice, its depth histogram and
//! CRC-32s, then its packed capped depths), each written to a temporary file and renamed when
//! complete, memory-mapped on first use. With the table's block index (`blocks.qsi`, see
//! [`super::slice_blocks`]) a slice's header is checked when it is opened and each 4 KiB
//! block of its depths the first time a read needs it; without one the whole slice is
//! checked when it is opened. Probes go through the same [`Lookup`] as a whole table: the
//! depth is read, the best move recomputed from the successors' depths (one slice read
//! each), in the spec's tie-break order.

use super::file::TableFileError;
use super::slice_blocks::{BlockIndex, IndexEntry, SLICE_BLOCK_BYTES};
use super::Corrupt;
use super::{Lookup, SliceDepths};
use crate::tablebase::key::ValueCodec;
use crate::tablebase::region::{Config, Region};
use crate::tablebase::slices::Slicing;
use crate::Board;
use quasar_file::frame::{put_u32, put_u64};
use quasar_file::slices::{self, Layout, Manifest, SliceDir};
use quasar_file::{self as file, Frame, OutputLock, Seal};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize};
use std::sync::OnceLock;

mod build;
mod check;

/// The first eight bytes of a slice file.
pub const SLICE_MAGIC: [u8; 8] = *b"QUASARSL";
/// The slice format this code reads and writes.
pub const SLICE_VERSION: u32 = 1;
/// Header bytes before a slice's packed depths.
pub const SLICE_HEADER: usize = 192;
/// The manifest's file name in a sliced table's directory.
pub const MANIFEST: &str = slices::MANIFEST;

/// A sliced table as a slice directory: its manifest holds `board WxH` and `rows R`; the
/// manifest of earlier versions (the same lines under `quasar sliced breakthrough table
/// v1`, without a checksum) is still read, and rewritten by the next build.
pub const LAYOUT: Layout = Layout {
    kind: "breakthrough-table",
    what: "sliced Breakthrough table",
    extension: "qts",
    legacy: Some("quasar sliced breakthrough table v1"),
    build: build_command,
};

/// The build of a sliced table's directory `dir` with the parameters of `m`.
fn build_command(m: &Manifest, dir: &Path) -> String {
    format!(
        "quasar tablebase build --board {} --rows {} -o {}",
        m.get("board").unwrap_or("WxH"),
        m.get("rows").unwrap_or("R"),
        dir.display()
    )
}

/// The manifest of the table of `region`.
fn manifest_of(region: &Region) -> Manifest {
    Manifest::new(LAYOUT.kind)
        .with("board", region.board())
        .with("rows", region.rows())
}

/// What a slice file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceHeader {
    /// The slice's number.
    pub slice: u32,
    /// Configurations in it.
    pub configs: u64,
    /// `histogram[d]`: configurations of capped depth `d`.
    pub histogram: [u64; 17],
    /// CRC-32 of the packed depths.
    pub crc: u32,
}

/// The frame of a slice file: the header's own CRC-32 in its last four bytes.
const SLICE_FRAME: Frame = Frame {
    magic: SLICE_MAGIC,
    version: SLICE_VERSION,
    older: &[],
    header_bytes: SLICE_HEADER,
    seal: Seal::HeaderEnd,
    what: "quasar table slice",
    remedy: "delete it and rerun the build",
};

impl SliceHeader {
    fn encode(&self, board: Board, rows: u32, states: u32) -> [u8; SLICE_HEADER] {
        let mut h = SLICE_FRAME.header();
        h[12] = board.width() as u8;
        h[13] = board.height() as u8;
        h[14] = rows as u8;
        h[15] = states as u8;
        put_u32(&mut h, 16, self.slice);
        put_u32(&mut h, 20, self.crc);
        put_u64(&mut h, 24, self.configs);
        for (i, &n) in self.histogram.iter().enumerate() {
            put_u64(&mut h, 32 + 8 * i, n);
        }
        SLICE_FRAME.seal(&mut h);
        h.try_into().expect("a whole header")
    }

    fn decode(h: &[u8]) -> Result<(SliceHeader, Board, u32, u32), String> {
        let f = SLICE_FRAME.open(h).map_err(|e| e.to_string())?;
        let board = Board::new(f.u8(12) as u32, f.u8(13) as u32)
            .map_err(|e| format!("bad board in header: {e}"))?;
        let mut histogram = [0u64; 17];
        for (i, n) in histogram.iter_mut().enumerate() {
            *n = f.u64(32 + 8 * i);
        }
        let header = SliceHeader {
            slice: f.u32(16),
            crc: f.u32(20),
            configs: f.u64(24),
            histogram,
        };
        Ok((header, board, f.u8(14) as u32, f.u8(15) as u32))
    }
}

/// The state of one slice as found on disk.
#[derive(Debug)]
pub enum SliceState {
    /// Not built (no file).
    Missing,
    /// A file that fails its checks (a killed write leaves a `.tmp`, never this; a damaged
    /// or foreign file does): rebuild it.
    Damaged(String),
    /// Built and intact.
    Finished(SliceHeader),
}

/// Below this a configuration's byte is found by the reciprocal (exact, see `split`).
const RECIP_LIMIT: u64 = 1 << 24;

/// A slice's bytes once opened.
enum Slot {
    Present(Body),
    Missing,
    /// Damaged, or its file could not be mapped: the error every read of it gives.
    Failed(Corrupt),
}

/// An open slice's packed depths.
struct Body {
    payload: Payload,
    /// Its entry in the block index when its blocks are checked as they are read (`None`:
    /// checked whole on opening).
    entry: Option<IndexEntry>,
}

enum Payload {
    Map(memmap2::Mmap),
    Memory(Vec<u8>),
}

impl Payload {
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Payload::Map(m) => &m[SLICE_HEADER..],
            Payload::Memory(v) => v,
        }
    }
}

/// A sliced table: the finished slices of a directory, opened and mapped as probes need them.
pub struct SlicedTable {
    /// The directory and its manifest; boxed, as only the cold paths read it.
    files: Box<SliceDir>,
    slicing: Slicing,
    codec: ValueCodec,
    /// Indexed by slice number: no hashing and no lock.
    slots: Vec<OnceLock<Slot>>,
    /// Where each open slice's packed depths start (null: not opened yet, not built or
    /// damaged): a probe's first read is one word of this dense array, not the slot.
    starts: Box<[AtomicPtr<u8>]>,
    /// Bit `b % 64` of word `id * words + b / 64`: block `b` of slice `id` is checked
    /// (every bit of a slice checked whole is set when it is opened).
    checked: Box<[AtomicU64]>,
    /// Words of `checked` a slice.
    words: usize,
    /// Bytes of a slice's packed depths.
    slice_len: usize,
    /// Per-block CRCs of the finished slices (`None`: slices are checked whole); boxed, as
    /// only the cold paths read it.
    index: Option<Box<BlockIndex>>,
    /// `log2` of the bytes of a checked block.
    block_shift: u32,
    /// `decode[byte][k]`: the `k`-th capped depth of a packed byte (already `+ 2`).
    decode: Box<[[u8; 8]; 256]>,
    per_byte: u64,
    /// `ceil(2^40 / per_byte)`: `idx / per_byte` is `(idx * recip) >> 40` below
    /// [`RECIP_LIMIT`], which spares the hot path a division.
    recip: u64,
    /// Slice files opened so far (for benches: each first use costs system calls).
    opened: AtomicUsize,
    /// Stored entries (configurations with `2 <= D <= R`, both mirror members), summed
    /// from the slice headers on first request.
    entries: OnceLock<u64>,
    first_bad: OnceLock<Corrupt>,
}

impl fmt::Debug for SlicedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SlicedTable({}, {})",
            self.dir().display(),
            self.region().board()
        )
    }
}

impl SlicedTable {
    /// Opens the sliced table in `dir` (its manifest must exist); slices are read lazily.
    pub fn open(dir: &Path) -> Result<SlicedTable, TableFileError> {
        let files = SliceDir::open(dir, &LAYOUT)?;
        let m = files.manifest();
        let bad = |msg: String| TableFileError::Invalid {
            path: dir.join(MANIFEST),
            msg,
        };
        let board = m.get("board").and_then(|b| b.parse::<Board>().ok());
        let rows = m.get("rows").and_then(|r| r.parse::<u32>().ok());
        let (Some(board), Some(rows)) = (board, rows) else {
            return Err(bad(format!(
                "the manifest ({m}) lacks a valid `board` or `rows` line"
            )));
        };
        let region = Region::new(board, rows).map_err(|e| bad(e.to_string()))?;
        let mut table = SlicedTable::with_region(files, &region).map_err(|e| bad(e.to_string()))?;
        let index = BlockIndex::read(dir, &table.slicing)?;
        table.set_index(index.map(Box::new));
        Ok(table)
    }

    /// Opens the sliced table of `region` in `dir`, creating the directory and its manifest
    /// if needed; an existing manifest must name the same board and rows.
    pub fn create(dir: &Path, region: &Region) -> Result<SlicedTable, TableFileError> {
        let wanted = manifest_of(region);
        SliceDir::create(dir, &LAYOUT, &wanted, |found| {
            (found == &wanted).then(|| found.clone())
        })?;
        // Opened as a reader would, with the block index an earlier build may have left.
        SlicedTable::open(dir)
    }

    fn with_region(
        files: SliceDir,
        region: &Region,
    ) -> Result<SlicedTable, crate::tablebase::RegionError> {
        let slicing = Slicing::new(region)?;
        let per_byte = slicing.per_byte();
        let decode = slicing.decode_table();
        let mut table = SlicedTable {
            files: Box::new(files),
            codec: ValueCodec::new(region.board()),
            slots: Vec::new(),
            starts: Box::new([]),
            checked: Box::new([]),
            words: 0,
            slice_len: slicing.bytes_per_slice(),
            slicing,
            index: None,
            block_shift: 0,
            decode,
            per_byte: per_byte as u64,
            recip: (1u64 << 40).div_ceil(per_byte as u64),
            opened: AtomicUsize::new(0),
            entries: OnceLock::new(),
            first_bad: OnceLock::new(),
        };
        table.set_index(None);
        Ok(table)
    }

    /// Takes `index` as the block index (or none), every slice closed.
    fn set_index(&mut self, index: Option<Box<BlockIndex>>) {
        let n = self.slicing.slices() as usize;
        self.block_shift = index
            .as_ref()
            .map_or(SLICE_BLOCK_BYTES, |ix| ix.block_bytes())
            .trailing_zeros();
        let blocks = self
            .slicing
            .bytes_per_slice()
            .div_ceil(1 << self.block_shift);
        self.words = blocks.div_ceil(64);
        self.index = index;
        self.slots = (0..n).map(|_| OnceLock::new()).collect();
        self.starts = (0..n)
            .map(|_| AtomicPtr::new(std::ptr::null_mut()))
            .collect();
        self.checked = (0..n * self.words).map(|_| AtomicU64::new(0)).collect();
    }

    /// Forgets the block index, so that every slice is checked whole when first opened
    /// (the behaviour without one, for comparisons); slices opened so far are closed.
    pub fn drop_block_index(&mut self) {
        self.set_index(None);
    }

    /// The block index in use, if any.
    pub fn block_index(&self) -> Option<&BlockIndex> {
        self.index.as_deref()
    }

    /// Slice files opened so far (each once, on first use).
    pub fn opened_slices(&self) -> usize {
        self.opened.load(Relaxed)
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

    /// The file of slice `id`.
    pub fn slice_path(&self, id: u32) -> PathBuf {
        self.files.slice_path(&self.slicing.name(id).to_string())
    }

    /// The bytes of slice `id`'s file (a regular file of at most a slice's size).
    fn read_slice(&self, id: u32) -> Result<Vec<u8>, file::FileError> {
        let limit = (SLICE_HEADER + self.slice_len) as u64;
        file::read(&self.slice_path(id), limit, "table slice")
    }

    /// Reads slice `id`'s file now, checking its header and checksum (nothing is cached).
    pub fn state(&self, id: u32) -> SliceState {
        match self.read_slice(id) {
            Err(e) if e.is_not_found() => SliceState::Missing,
            Err(e) => SliceState::Damaged(e.to_string()),
            Ok(bytes) => match self.check(id, &bytes) {
                Ok(h) => SliceState::Finished(h),
                Err(why) => SliceState::Damaged(why),
            },
        }
    }

    /// The header of a slice file's bytes, when they are intact and of this table.
    fn check(&self, id: u32, bytes: &[u8]) -> Result<SliceHeader, String> {
        let h = self.check_header(id, bytes)?;
        if crc32fast::hash(&bytes[SLICE_HEADER..]) != h.crc {
            return Err("checksum mismatch: the file is damaged".into());
        }
        Ok(h)
    }

    /// The header of a slice file's bytes when it is intact and of this table and the
    /// length is right (the packed depths are not checked).
    fn check_header(&self, id: u32, bytes: &[u8]) -> Result<SliceHeader, String> {
        let s = &self.slicing;
        let (h, board, rows, states) = SliceHeader::decode(bytes)?;
        if board != s.region().board()
            || rows != s.region().rows()
            || states != s.states()
            || h.slice != id
            || h.configs != s.per_slice()
        {
            return Err(format!(
                "its header names another table or slice ({board}, {rows} rows, slice {})",
                s.name(h.slice)
            ));
        }
        if bytes.len() != SLICE_HEADER + s.bytes_per_slice() {
            return Err(format!(
                "{} bytes, expected {}: truncated",
                bytes.len(),
                SLICE_HEADER + s.bytes_per_slice()
            ));
        }
        Ok(h)
    }

    /// Slice `id`, opened (mapped, its header checked, then either the whole slice or
    /// nothing yet) on first use.
    #[inline]
    fn slot(&self, id: u32) -> &Slot {
        let slot = self.slots[id as usize].get_or_init(|| self.open_slot(id));
        if let Slot::Present(body) = slot {
            // Published after the slot is set: the bytes live as long as the slot.
            let bytes = body.payload.bytes();
            if bytes.len() == self.slice_len {
                self.starts[id as usize].store(bytes.as_ptr().cast_mut(), Release);
            }
        }
        slot
    }

    /// Marks every block of slice `id` checked.
    fn mark_checked(&self, id: u32) {
        for w in &self.checked[id as usize * self.words..(id as usize + 1) * self.words] {
            w.store(u64::MAX, Relaxed);
        }
    }

    /// Opens slice `id`: maps its file and checks its header, then either takes the block
    /// index's entry for it (when the index holds this file's checksum: its blocks are
    /// checked as reads need them) or checks the whole slice now.
    #[cold]
    #[inline(never)]
    fn open_slot(&self, id: u32) -> Slot {
        self.opened.fetch_add(1, Relaxed);
        let failed = |c: Corrupt| {
            let _ = self.first_bad.set(c);
            Slot::Failed(c)
        };
        let slice = self.slicing.slice_name(id);
        let damaged = || failed(Corrupt::Slice { slice });
        let f = match file::open_read(&self.slice_path(id)) {
            Ok(f) => f,
            Err(e) if e.is_not_found() => return Slot::Missing,
            Err(_) => return damaged(),
        };
        // SAFETY: a finished slice; slices are written to a temporary file and renamed,
        // never modified in place.
        let Ok(map) = (unsafe { quasar_file::map_read_only(&f) }) else {
            return failed(Corrupt::Unmapped { slice });
        };
        let Ok(header) = self.check_header(id, &map) else {
            return damaged();
        };
        let entry = self
            .index
            .as_ref()
            .and_then(|ix| ix.get(id))
            .filter(|e| e.slice_crc == header.crc);
        let entry = match entry {
            Some(entry) => Some(entry),
            None if crc32fast::hash(&map[SLICE_HEADER..]) == header.crc => {
                self.mark_checked(id);
                None
            }
            None => return damaged(),
        };
        Slot::Present(Body {
            payload: Payload::Map(map),
            entry,
        })
    }

    /// Byte and digit of configuration number `idx` in a slice's packed depths.
    #[inline]
    fn split(&self, idx: u64) -> (usize, usize) {
        let byte = if idx < RECIP_LIMIT {
            (idx * self.recip) >> 40
        } else {
            idx / self.per_byte
        };
        (byte as usize, (idx - byte * self.per_byte) as usize)
    }

    /// The capped depth of configuration `idx` of open slice `id` (its packed depths
    /// `bytes`); a block not checked yet is checked first.
    #[inline]
    fn read(&self, id: u32, bytes: &[u8], idx: u64) -> Result<u8, Corrupt> {
        let (byte, digit) = self.split(idx);
        let b = byte >> self.block_shift;
        // Relaxed is enough: the bit publishes no data, the bytes it vouches for are
        // read-only file contents, the same for every thread.
        if self.checked[id as usize * self.words + b / 64].load(Relaxed) & (1 << (b % 64)) == 0 {
            self.verify_block(id, bytes, b)?;
        }
        Ok(self.decode[bytes[byte] as usize][digit])
    }

    /// Checks block `b` of open slice `id` against the block index and remembers it if good.
    #[cold]
    #[inline(never)]
    fn verify_block(&self, id: u32, bytes: &[u8], b: usize) -> Result<(), Corrupt> {
        let index = self
            .index
            .as_ref()
            .expect("only an indexed slice has blocks not checked");
        let entry = index.get(id).expect("an indexed slice has an entry");
        let size = index.block_bytes();
        let block = &bytes[b * size..((b + 1) * size).min(bytes.len())];
        if crc32fast::hash(block) == index.block_crc(entry, b) {
            self.checked[id as usize * self.words + b / 64].fetch_or(1 << (b % 64), Relaxed);
            Ok(())
        } else {
            let c = Corrupt::SliceBlock {
                slice: self.slicing.slice_name(id),
                block: b as u32,
            };
            let _ = self.first_bad.set(c);
            Err(c)
        }
    }

    /// Checks every block of open slice `id` not checked yet.
    fn verify_body(&self, id: u32, body: &Body) -> Result<(), Corrupt> {
        if let (Some(_), Some(index)) = (&body.entry, &self.index) {
            for b in 0..index.blocks() {
                let w = self.checked[id as usize * self.words + b / 64].load(Relaxed);
                if w & (1 << (b % 64)) == 0 {
                    self.verify_block(id, body.payload.bytes(), b)?;
                }
            }
        }
        Ok(())
    }

    /// Puts a slice held in memory in place (for tests and in-memory builds).
    pub fn insert(&self, id: u32, packed: Vec<u8>) {
        let set = self.slots[id as usize].set(Slot::Present(Body {
            payload: Payload::Memory(packed),
            entry: None,
        }));
        if set.is_ok() {
            self.mark_checked(id);
        }
    }

    /// Whether slice `id` can be read (finished and intact).
    pub fn has(&self, id: u32) -> bool {
        matches!(self.slot(id), Slot::Present(_))
    }

    /// `min(D(c), R+1)` of a stored configuration (White to move, no White piece on
    /// `H-1`); a slice not built ([`Corrupt::MissingSlice`]) or damaged is an error, never
    /// "not stored".
    #[inline]
    pub fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt> {
        let (id, idx) = self.slicing.locate(c);
        let start = self.starts[id as usize].load(Acquire);
        if !start.is_null() {
            // SAFETY: a non-null start is that of slice `id`'s packed depths, published by
            // `slot` from a slot that lives as long as `self` (slots are replaced only
            // through `&mut self`, with the starts).
            let bytes = unsafe { std::slice::from_raw_parts(start, self.slice_len) };
            return self.read(id, bytes, idx).map(Some);
        }
        match self.slot(id) {
            Slot::Present(body) => self.read(id, body.payload.bytes(), idx).map(Some),
            Slot::Missing => Err(Corrupt::MissingSlice {
                slice: self.slicing.slice_name(id),
            }),
            Slot::Failed(c) => Err(*c),
        }
    }

    /// The packed depths of stored slice `id` (opened on first use, every block checked),
    /// `None` when it is not built: what a probe reads, for copies kept in memory.
    pub fn slice_bytes(&self, id: u32) -> Result<Option<&[u8]>, Corrupt> {
        match self.slot(id) {
            Slot::Present(body) => {
                self.verify_body(id, body)?;
                Ok(Some(body.payload.bytes()))
            }
            Slot::Missing => Ok(None),
            Slot::Failed(c) => Err(*c),
        }
    }
}

impl Lookup for SlicedTable {
    /// The packed value (eq. 4.2) of a key with `2 <= D <= R`; `None` for a deeper or
    /// drawn-out configuration; a slice not built is an error.
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        self.packed_value(&self.codec, key)
    }

    fn len(&self) -> usize {
        *self.entries.get_or_init(|| {
            let cap = self.slicing.cap() as usize;
            (0..self.slicing.slices())
                .filter(|&id| self.slicing.is_canonical(id))
                .filter_map(|id| match self.state(id) {
                    SliceState::Finished(h) => Some(h.histogram[2..cap].iter().sum::<u64>()),
                    _ => None,
                })
                .sum()
        }) as usize
    }

    fn bytes(&self) -> usize {
        (0..self.slicing.slices())
            .filter_map(|id| std::fs::metadata(self.slice_path(id)).ok())
            .map(|m| m.len() as usize)
            .sum()
    }

    fn name(&self) -> &'static str {
        "sliced"
    }
}

/// Writes `parts` to `path` atomically under its own lock (see [`quasar_file`]):
/// shards of one build share the directory and write different slices, so a writer of
/// one file waits only for another writer of that file.
fn write_atomic(path: &Path, parts: &[&[u8]]) -> Result<(), TableFileError> {
    let lock = OutputLock::wait(path)?;
    Ok(file::write_with(path, &lock, |f| {
        parts.iter().try_for_each(|p| f.write_all(p))
    })?)
}
