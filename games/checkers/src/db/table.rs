//! One slice's table: its values for both sides to move, plain, in run-length blocks, or
//! in run-length blocks read through the table cache; and its file.

use super::blocked::{self, CachedRuns, TableCache};
use super::{
    slice_of, slice_params, slice_path, write_atomically, DbError, Wdl, GAME, LAYOUT, LAYOUT_CODED,
    LAYOUT_RUNS,
};
use crate::board::Board;
use crate::slice::{Slice, SliceIndex};
use quasar_core::prefetch::prefetch;
use quasar_core::Side;
use retro::{PackedArray, RunArray, RunCode, Section, TableFile, TableFileError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One slice's values for both sides to move.
#[derive(Clone, Debug)]
pub struct SliceTable {
    index: SliceIndex,
    /// Black to move, then White to move.
    values: [Values; 2],
    /// The compressed format version of the file it was read from (`None`: not read from
    /// a compressed file).
    version: Option<u32>,
}

/// The stored values of a slice with one side to move.
#[derive(Clone, Debug)]
enum Values {
    /// Every position's value, 2 bits each.
    Plain(PackedArray),
    /// Run-length blocks in which the positions the rules settle ([`settled_by_rules`])
    /// hold whatever lengthens a run, with the counts taken before.
    Runs(RunArray, Counts),
    /// Entropy-coded run-length blocks read a 4 KiB block at a time through the table
    /// cache, as [`Values::Runs`] otherwise.
    Cached(CachedRuns, Counts),
}

/// Whether the rules give the value of a board with `side` to move from its children or
/// at once: a capture to make (captures are compulsory, and each leads to fewer pieces) or
/// no move at all (a loss). Run-length blocks store anything for these.
#[inline]
pub fn settled_by_rules(b: &Board, side: Side) -> bool {
    b.has_capture(side) || !b.has_step(side)
}

/// Positions, wins, draws and losses of one slice with one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions (placements).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
}

impl SliceTable {
    /// A table from each side's values (in index order).
    pub(crate) fn new(index: SliceIndex, values: [PackedArray; 2]) -> SliceTable {
        SliceTable {
            index,
            values: values.map(Values::Plain),
            version: None,
        }
    }

    /// Whether the values are run-length blocks, whose positions settled by the rules
    /// hold no value of their own ([`crate::db::Database::value`] settles them).
    pub fn is_runs(&self) -> bool {
        !matches!(self.values[0], Values::Plain(_))
    }

    /// Whether the values are read through the table cache, a block at a time.
    pub fn is_cached(&self) -> bool {
        matches!(self.values[0], Values::Cached(..))
    }

    /// The compressed format version of the file the table was read from: 1 (one
    /// checksum for the whole file, read whole) or 2 (one for each 4 KiB of runs, read
    /// whole or a block at a time); `None` for a table not read from a compressed file.
    pub fn format_version(&self) -> Option<u32> {
        self.version
    }

    /// Whether the values are entropy-coded run-length blocks of `block` positions.
    pub fn is_coded_with(&self, block: u64) -> bool {
        self.runs_block() == Some(block) && self.code_lengths().is_some()
    }

    /// The code of its run-length blocks, when they are coded (both sides share it, as
    /// [`SliceTable::coded_with`] writes them).
    pub fn code_lengths(&self) -> Option<&[u8]> {
        match &self.values[0] {
            Values::Runs(r, _) => r.code_lengths(),
            Values::Cached(r, _) => Some(r.code_lengths()),
            Values::Plain(_) => None,
        }
    }

    /// The positions a block of run-length blocks holds; `None` for plain values.
    pub fn runs_block(&self) -> Option<u64> {
        match &self.values[0] {
            Values::Runs(r, _) => Some(r.block()),
            Values::Cached(r, _) => Some(r.block()),
            Values::Plain(_) => None,
        }
    }

    /// Bytes the values take in memory (for a table read through the cache, its index).
    pub fn value_bytes(&self) -> u64 {
        self.values
            .iter()
            .map(|v| match v {
                Values::Plain(a) => 8 * a.words().len() as u64,
                Values::Runs(r, _) => r.stored_bytes(),
                Values::Cached(r, _) => r.index_bytes(),
            })
            .sum()
    }

    /// Checks every 4 KiB block of a table read through the cache against its CRC-32
    /// (reading the whole file once); a table held whole was checked when read.
    pub fn check_blocks(&self) -> Result<(), DbError> {
        for v in &self.values {
            if let Values::Cached(r, _) = v {
                r.check_all()?;
            }
        }
        Ok(())
    }

    /// The file a table read through the cache reads from.
    pub fn cached_path(&self) -> Option<&Path> {
        match &self.values[0] {
            Values::Cached(r, _) => Some(r.path()),
            _ => None,
        }
    }

    /// The same values as run-length blocks of `block` positions (a power of two of 64 to
    /// 2^24), the runs as bytes, the positions the rules settle left free; a table already
    /// in blocks of that size is returned as it is. [`SliceTable::coded_with`] then codes
    /// them.
    pub fn to_runs(&self, block: u64) -> Result<SliceTable, DbError> {
        if self.runs_block() == Some(block) {
            return Ok(self.clone());
        }
        self.in_memory()?;
        let mut values = Vec::with_capacity(2);
        for side in [Side::First, Side::Second] {
            let mut dec = self.index.decoder();
            let runs = RunArray::encode(self.index.size(), block, |i| {
                let b = dec.board(i);
                (!settled_by_rules(&b, side)).then(|| self.stored(i, side) as u32)
            })?;
            values.push(Values::Runs(runs, self.counts(side)));
        }
        self.with_values(values)
    }

    /// The same run-length blocks entropy-coded with `code` (runs coded with it already,
    /// and plain values, stay as they are).
    pub fn coded_with(&self, code: &RunCode) -> Result<SliceTable, DbError> {
        self.in_memory()?;
        let values = self
            .values
            .iter()
            .map(|v| match v {
                Values::Runs(r, c) => Values::Runs(r.entropy_coded_with(code), *c),
                v => v.clone(),
            })
            .collect();
        self.with_values(values)
    }

    /// Refuses a table read through the cache, whose runs are not in memory to rewrite.
    fn in_memory(&self) -> Result<(), DbError> {
        match self.is_cached() {
            true => Err(DbError::NotInMemory(self.slice())),
            false => Ok(()),
        }
    }

    /// This slice with other values, checked to fit a file.
    fn with_values(&self, values: Vec<Values>) -> Result<SliceTable, DbError> {
        for v in &values {
            // The file keeps block starts in 32 bits: 4 GiB of runs a side, where the
            // largest 7-piece slice's would take 2.5 GB at one byte a position.
            if let Values::Runs(r, _) = v {
                if r.bytes().len() as u64 > u32::MAX as u64 {
                    return Err(DbError::TooLarge(self.slice()));
                }
            }
        }
        let [black, white]: [Values; 2] = values.try_into().expect("two sides");
        Ok(SliceTable {
            index: self.index.clone(),
            values: [black, white],
            version: None,
        })
    }

    /// The run-length blocks of `side`'s values; `None` for plain values.
    pub fn runs(&self, side: Side) -> Option<&RunArray> {
        match &self.values[side.index()] {
            Values::Runs(r, _) => Some(r),
            _ => None,
        }
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.index.slice()
    }

    /// Its index.
    pub fn index(&self) -> &SliceIndex {
        &self.index
    }

    /// The value stored for the placement at `i` with `side` to move: in run-length
    /// blocks, anything for a position the rules settle ([`crate::db::Database::value`] settles it);
    /// `None` when the table is read through the cache and the block holding it cannot
    /// be read or is damaged (the cache keeps the first such damage).
    #[inline]
    pub fn get(&self, i: u64, side: Side) -> Option<Wdl> {
        Some(Wdl::from_code(match &self.values[side.index()] {
            Values::Plain(a) => a.get(i),
            Values::Runs(r, _) => r.get(i),
            Values::Cached(r, _) => r.get(i)?,
        }))
    }

    /// The value stored at `i` of a table held in memory (plain or run-length blocks).
    fn stored(&self, i: u64, side: Side) -> Wdl {
        Wdl::from_code(match &self.values[side.index()] {
            Values::Plain(a) => a.get(i),
            Values::Runs(r, _) => r.get(i),
            Values::Cached(..) => unreachable!("refused by in_memory"),
        })
    }

    /// Starts loading the value at `i` with `side` to move into the cache (a hint: the
    /// read a probe then makes overlaps with the other work, and with other prefetches).
    #[inline]
    pub fn prefetch(&self, i: u64, side: Side) {
        match &self.values[side.index()] {
            // 2 bits a value: 32 values a word.
            Values::Plain(a) => {
                if let Some(w) = a.words().get((i >> 5) as usize) {
                    prefetch(w);
                }
            }
            Values::Runs(r, _) => r.prefetch(i),
            // A cached block is behind a lock, read under it: nothing to start early.
            Values::Cached(..) => {}
        }
    }

    /// Positions, wins, draws and losses with `side` to move (counted word by word).
    pub fn counts(&self, side: Side) -> Counts {
        let a = match &self.values[side.index()] {
            Values::Plain(a) => a,
            Values::Runs(_, counts) | Values::Cached(_, counts) => return *counts,
        };
        let (mut wins, mut losses) = (0u64, 0u64);
        const LOW: u64 = 0x5555_5555_5555_5555;
        for &w in a.words() {
            let (lo, hi) = (w & LOW, (w >> 1) & LOW);
            wins += (lo & !hi).count_ones() as u64;
            losses += (hi & !lo).count_ones() as u64;
        }
        Counts {
            positions: a.len(),
            wins,
            draws: a.len() - wins - losses,
            losses,
        }
    }

    fn to_file(&self) -> TableFile {
        let s = self.slice();
        let section = |tag: u32, values: PackedArray| Section {
            tag,
            offset: 0,
            values,
        };
        let mut sections = Vec::new();
        let mut counts = Vec::new();
        let mut block = 0;
        for (k, v) in self.values.iter().enumerate() {
            match v {
                Values::Plain(a) => sections.push(section(k as u32, a.clone())),
                Values::Runs(r, c) => {
                    block = r.block() as u32;
                    sections.push(section(2 + 2 * k as u32, packed(32, r.starts())));
                    let bytes: Vec<u64> = r.bytes().iter().map(|&b| b as u64).collect();
                    sections.push(section(3 + 2 * k as u32, packed(8, &bytes)));
                    if let Some(lengths) = r.code_lengths() {
                        let lengths: Vec<u64> = lengths.iter().map(|&l| l as u64).collect();
                        sections.push(section(7 + k as u32, packed(4, &lengths)));
                    }
                    counts.extend([c.wins, c.draws, c.losses]);
                }
                Values::Cached(..) => unreachable!("refused by in_memory"),
            }
        }
        if !counts.is_empty() {
            let halves: Vec<u64> = counts
                .iter()
                .flat_map(|&c| [c & 0xFFFF_FFFF, c >> 32])
                .collect();
            sections.push(section(6, packed(32, &halves)));
        }
        let layout = match self.runs(Side::First) {
            None => LAYOUT,
            Some(r) if r.code_lengths().is_some() => LAYOUT_CODED,
            Some(_) => LAYOUT_RUNS,
        };
        TableFile {
            game: GAME.into(),
            params: slice_params(s, layout, block),
            positions: self.index.size(),
            sections,
        }
    }

    /// The file's bytes: entropy-coded run-length blocks in the compressed format's
    /// version 2 (a checksum for each 4 KiB), plain values and runs as bytes in a
    /// retrograde table file.
    fn to_bytes(&self) -> Result<Vec<u8>, DbError> {
        self.in_memory()?;
        match (&self.values, self.code_lengths()) {
            ([Values::Runs(black, cb), Values::Runs(white, cw)], Some(_))
                if white.code_lengths() == black.code_lengths() =>
            {
                Ok(blocked::to_bytes(&self.index, [black, white], [*cb, *cw]))
            }
            _ => Ok(self.to_file().to_bytes()),
        }
    }

    /// Writes the slice to `dir` through a temporary file of this process, renamed into
    /// place when complete (a killed job leaves no partial slice file).
    pub fn save(&self, dir: &Path) -> Result<PathBuf, DbError> {
        let path = slice_path(dir, self.slice());
        write_atomically(&path, &self.to_bytes()?)?;
        Ok(path)
    }

    /// Opens a slice file for probes: a compressed file of version 2 through `cache`
    /// (its header and index read, its runs read as probes need them), any other whole,
    /// as [`SliceTable::load`].
    pub fn open(path: &Path, cache: &Arc<TableCache>) -> Result<SliceTable, DbError> {
        if !blocked::is_blocked(&first_bytes(path)?) {
            return SliceTable::load(path);
        }
        let (slice, [(black, cb), (white, cw)]) = blocked::open_cached(path, cache)?;
        Ok(SliceTable {
            index: SliceIndex::new(slice),
            values: [Values::Cached(black, cb), Values::Cached(white, cw)],
            version: Some(blocked::VERSION),
        })
    }

    /// Reads and checks a slice file of any layout (checksum, game, slice, sizes) whole.
    pub fn load(path: &Path) -> Result<SliceTable, DbError> {
        if blocked::is_blocked(&first_bytes(path)?) {
            let (slice, [(black, cb), (white, cw)]) = blocked::load_whole(path)?;
            return Ok(SliceTable {
                index: SliceIndex::new(slice),
                values: [Values::Runs(black, cb), Values::Runs(white, cw)],
                version: Some(blocked::VERSION),
            });
        }
        let f = TableFile::load(path)?;
        let foreign = || DbError::Foreign(path.to_path_buf());
        let (slice, index) = slice_of(&f, GAME, LAYOUT)
            .or_else(|| slice_of(&f, GAME, LAYOUT_RUNS))
            .or_else(|| slice_of(&f, GAME, LAYOUT_CODED))
            .ok_or_else(foreign)?;
        if f.positions != index.size() || path.file_stem() != Some(slice.to_string().as_ref()) {
            return Err(foreign());
        }
        let values = match f.params[4] {
            LAYOUT => {
                let section = |tag| {
                    f.section(tag)
                        .filter(|s| s.values.len() == index.size() && s.values.bits() == 2)
                        .and_then(|s| on_huge_pages(&s.values))
                        .map(Values::Plain)
                        .ok_or_else(foreign)
                };
                [section(0)?, section(1)?]
            }
            _ => {
                let damaged = |msg: String| {
                    DbError::File(TableFileError::Invalid {
                        path: path.to_path_buf(),
                        msg,
                    })
                };
                let all = |tag: u32, bits: u32| -> Result<Vec<u64>, DbError> {
                    let s = f
                        .section(tag)
                        .filter(|s| s.values.bits() == bits)
                        .ok_or_else(|| damaged(format!("section {tag} is missing")))?;
                    Ok((0..s.values.len())
                        .map(|i| s.values.get(i) as u64)
                        .collect())
                };
                let counts = all(6, 32)?;
                if counts.len() != 12 {
                    return Err(damaged("the counts section holds another length".into()));
                }
                let count = |k: usize| counts[2 * k] | counts[2 * k + 1] << 32;
                let mut values = Vec::with_capacity(2);
                for k in 0..2 {
                    let bytes: Vec<u8> = all(3 + 2 * k as u32, 8)?
                        .into_iter()
                        .map(|b| b as u8)
                        .collect();
                    let code = if f.params[4] == LAYOUT_CODED {
                        let lengths = all(7 + k as u32, 4)?;
                        Some(lengths.into_iter().map(|l| l as u8).collect())
                    } else {
                        None
                    };
                    let runs = RunArray::from_parts(
                        index.size(),
                        f.params[5] as u64,
                        all(2 + 2 * k as u32, 32)?,
                        bytes,
                        code,
                    )
                    .map_err(|e| damaged(e.to_string()))?;
                    let (wins, draws, losses) = (count(3 * k), count(3 * k + 1), count(3 * k + 2));
                    if wins.checked_add(draws).and_then(|n| n.checked_add(losses))
                        != Some(index.size())
                    {
                        return Err(damaged("its counts do not add up to its positions".into()));
                    }
                    let counts = Counts {
                        positions: index.size(),
                        wins,
                        draws,
                        losses,
                    };
                    values.push(Values::Runs(runs, counts));
                }
                let [black, white]: [Values; 2] = values.try_into().expect("two sides");
                [black, white]
            }
        };
        let version = (f.params[4] == LAYOUT_CODED).then_some(1);
        Ok(SliceTable {
            index,
            values,
            version,
        })
    }
}

/// The first bytes of a file (as many as it has, up to eight), to tell its format.
fn first_bytes(path: &Path) -> Result<Vec<u8>, DbError> {
    use std::io::Read;
    let file = quasar_file::open_read(path).map_err(TableFileError::from)?;
    let mut head = Vec::with_capacity(8);
    file.take(8)
        .read_to_end(&mut head)
        .map_err(|e| DbError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
    Ok(head)
}

/// `values` (each below 2^bits) as a packed array.
fn packed(bits: u32, values: &[u64]) -> PackedArray {
    let mut a = PackedArray::new(bits, values.len() as u64);
    for (i, &v) in values.iter().enumerate() {
        a.set(i as u64, v as u32);
    }
    a
}

/// A copy of `a` in memory Linux is asked to back with huge pages (before it is first
/// touched, so the pages come huge at once): a probe is one random read, and on a 5- or
/// 6-piece database most of its cost is the TLB miss and page walk.
fn on_huge_pages(a: &PackedArray) -> Option<PackedArray> {
    let mut words: Vec<u64> = vec![0; a.words().len()];
    quasar_core::memory::advise_huge_pages(words.as_ptr(), words.len());
    words.copy_from_slice(a.words());
    PackedArray::from_words(a.bits(), a.len(), words)
}
