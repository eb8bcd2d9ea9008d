//! Run-length blocks: an array of 2-bit values kept as runs, in blocks of a fixed number of
//! positions with an index of where each block's runs start, so that one lookup reads one
//! index entry and the start of one block. Positions marked "don't care" (a prober recovers
//! their value another way, by a search) take whatever value lengthens the run they fall
//! in, which is what makes the runs long.
//!
//! Runs are written in one of two codes:
//!
//! - bytes, as [`RunWriter`] streams them: a run is one byte, its value in the top two bits
//!   and its length less one in the low six (1 to 63); a low six of 63 is followed by the
//!   length less 64 as a LEB128 number;
//! - entropy-coded ([`RunArray::entropy_coded`]): a Huffman code fitted to the array's runs
//!   (`coded`), about 60% of the bytes' size on the checkers databases.
//!
//! Runs never cross a block's end.

mod coded;

use crate::huffman::CodeError;
use std::sync::Arc;

/// Why bytes are not the runs of an array.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RunsError {
    /// The block size is not a power of two of 64 to 2^24 positions.
    #[error("a block of {0} positions: blocks hold a power of two of 64 to 16777216")]
    Block(u64),
    /// The index does not match the array's length or the bytes.
    #[error("the block index does not match the array ({0})")]
    Index(&'static str),
    /// A block's runs do not add up to its positions.
    #[error("block {0}'s runs do not add up to its positions")]
    Runs(u64),
    /// The entropy code's lengths are no code.
    #[error("the runs' code: {0}")]
    Code(CodeError),
    /// The entropy code has another number of lengths than runs have symbols.
    #[error("the runs' code has {0} lengths, not one for each of the {n} symbols", n = coded::SYMBOLS)]
    CodeSize(usize),
}

/// An array of values 0 to 3 as run-length blocks; see the module's documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunArray {
    len: u64,
    shift: u32,
    /// Where each block's runs start in `bytes`, and one more entry: the end.
    starts: Vec<u64>,
    /// The runs; entropy-coded ones are followed by [`coded::PAD`] zero bytes.
    bytes: Vec<u8>,
    /// The entropy code; `None`: runs as bytes.
    code: Option<Arc<coded::Code>>,
}

/// Counts of runs of arrays, to fit one code to them all ([`RunCounts::code`]).
#[derive(Clone, Debug)]
pub struct RunCounts(Vec<u64>);

impl Default for RunCounts {
    fn default() -> Self {
        RunCounts(vec![0; coded::SYMBOLS])
    }
}

impl RunCounts {
    /// Adds the runs of `a` (either code).
    pub fn add(&mut self, a: &RunArray) {
        for runs in a.blocks() {
            coded::count(runs.into_iter(), &mut self.0);
        }
    }

    /// Adds the runs `other` counted (of arrays counted apart, by other threads).
    pub fn merge(mut self, other: &RunCounts) -> RunCounts {
        self.0.iter_mut().zip(&other.0).for_each(|(a, b)| *a += b);
        self
    }

    /// A code fitted to the runs counted, with a code for every run there can be (so it
    /// codes any array, best those counted).
    pub fn code(&self) -> RunCode {
        RunCode(Arc::new(coded::fit(&self.0)))
    }
}

/// An entropy code of runs; arrays coded with one code share one decoding table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCode(Arc<coded::Code>);

impl RunCode {
    /// Its code lengths, one a symbol, as files store them.
    pub fn lengths(&self) -> &[u8] {
        self.0.lengths()
    }

    /// The code of these lengths (as [`RunCode::lengths`] gives them), sharing its
    /// decoding table with every array of the process coded alike.
    pub fn from_lengths(lengths: Vec<u8>) -> Result<RunCode, RunsError> {
        Ok(RunCode(coded::shared(lengths)?))
    }

    /// Whether bytes `start..end` of `bytes` are one block's runs in this code covering
    /// `positions` exactly (a block read apart from its array, say from a file a block at
    /// a time); `bytes` may end anywhere.
    pub fn check_block(&self, bytes: &[u8], start: u64, end: u64, positions: u64) -> bool {
        self.0.check_block(bytes, start, end, positions)
    }

    /// The value `left` positions into the block whose runs start at byte `start` of
    /// `bytes`, which [`RunCode::check_block`] accepted and which has [`RUN_PAD`] bytes
    /// after the block's end.
    #[inline]
    pub fn get(&self, bytes: &[u8], start: u64, left: u64) -> u32 {
        self.0.get(bytes, start, left)
    }
}

/// Bytes a reader of one coded block keeps after its end ([`RunCode::get`] reads eight
/// bytes at a time).
pub const RUN_PAD: usize = coded::PAD;

/// Positions a block by default: a lookup scans half a block's runs (a few dozen bytes
/// at the ratios tables reach), and the index costs 8 bytes a block.
pub const DEFAULT_BLOCK: u64 = 4096;

/// Low six bits that mean "the length follows".
const ESCAPE: u8 = 63;

impl RunArray {
    /// The array from its parts as stored (`code`: the entropy code's lengths, `None` for
    /// runs as bytes), each block's runs checked to add up to its positions (so that a
    /// lookup never reads past them).
    pub fn from_parts(
        len: u64,
        block: u64,
        starts: Vec<u64>,
        bytes: Vec<u8>,
        code: Option<Vec<u8>>,
    ) -> Result<RunArray, RunsError> {
        let code = code.map(coded::shared).transpose()?;
        let a = RunArray::indexed(len, block, starts, bytes, code)?;
        match (0..a.blocks_count()).find(|&b| !a.check_block(b)) {
            Some(b) => Err(RunsError::Runs(b)),
            None => Ok(a),
        }
    }

    /// The array from its parts as stored, entropy-coded with `code`, its index checked
    /// but not its blocks' runs: a reader that decodes few of many blocks checks each with
    /// [`RunArray::check_block`] before its first [`RunArray::get`] in it (a lookup in an
    /// unchecked block of malformed runs may panic).
    pub fn from_coded_parts_unchecked(
        len: u64,
        block: u64,
        starts: Vec<u64>,
        bytes: Vec<u8>,
        code: &RunCode,
    ) -> Result<RunArray, RunsError> {
        RunArray::indexed(len, block, starts, bytes, Some(code.0.clone()))
    }

    /// The array with its index checked (its length, its ends, each block's start at most
    /// its end), its blocks' runs not.
    fn indexed(
        len: u64,
        block: u64,
        starts: Vec<u64>,
        mut bytes: Vec<u8>,
        code: Option<Arc<coded::Code>>,
    ) -> Result<RunArray, RunsError> {
        let shift = block_shift(block)?;
        let blocks = len.div_ceil(block);
        if starts.len() as u64 != blocks + 1 {
            return Err(RunsError::Index("a block count of another length"));
        }
        if starts.first() != Some(&0) || starts.last() != Some(&(bytes.len() as u64)) {
            return Err(RunsError::Index("its ends are not those of the runs"));
        }
        if starts.windows(2).any(|w| w[0] > w[1]) {
            return Err(RunsError::Index("a block that starts after it ends"));
        }
        if code.is_some() {
            bytes.extend([0; coded::PAD]);
        }
        Ok(RunArray {
            len,
            shift,
            starts,
            bytes,
            code,
        })
    }

    /// Blocks of the array.
    pub fn blocks_count(&self) -> u64 {
        self.starts.len() as u64 - 1
    }

    /// Whether block `b`'s runs add up to its positions, so that a lookup in it reads
    /// only them.
    pub fn check_block(&self, b: u64) -> bool {
        let (start, end) = (self.starts[b as usize], self.starts[b as usize + 1]);
        let want = block_positions(self.len, self.shift, b);
        match &self.code {
            Some(c) => c.check_block(&self.bytes, start, end, want),
            None => total(&self.bytes[start as usize..end as usize]) == Some(want),
        }
    }

    /// Encodes `len` values, `value(i)` each (`None`: don't care), in blocks of `block`
    /// positions (a power of two).
    pub fn encode(
        len: u64,
        block: u64,
        value: impl FnMut(u64) -> Option<u32>,
    ) -> Result<RunArray, RunsError> {
        let mut w = RunWriter::new(block)?;
        (0..len).map(value).for_each(|v| w.push(v));
        Ok(w.finish())
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the array holds no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Positions a block.
    pub fn block(&self) -> u64 {
        1 << self.shift
    }

    /// Where each block's runs start, and the end.
    pub fn starts(&self) -> &[u64] {
        &self.starts
    }

    /// The runs of every block, one after another.
    pub fn bytes(&self) -> &[u8] {
        match self.code {
            Some(_) => &self.bytes[..self.bytes.len() - coded::PAD],
            None => &self.bytes,
        }
    }

    /// The entropy code's lengths, one a symbol; `None` for runs as bytes.
    pub fn code_lengths(&self) -> Option<&[u8]> {
        self.code.as_ref().map(|c| c.lengths())
    }

    /// Bytes the array takes: the runs, the index and the code.
    pub fn stored_bytes(&self) -> u64 {
        self.bytes().len() as u64
            + 8 * self.starts.len() as u64
            + self.code_lengths().map_or(0, |l| l.len() as u64)
    }

    /// The same values with the runs entropy-coded by a code fitted to them alone.
    pub fn entropy_coded(&self) -> RunArray {
        let mut counts = RunCounts::default();
        counts.add(self);
        self.entropy_coded_with(&counts.code())
    }

    /// The same values with the runs entropy-coded by `code` (an array already coded with
    /// it is returned as it is).
    pub fn entropy_coded_with(&self, code: &RunCode) -> RunArray {
        if self.code_lengths() == Some(code.lengths()) {
            return self.clone();
        }
        let (starts, bytes) = coded::encode(self.blocks(), &code.0);
        RunArray {
            len: self.len,
            shift: self.shift,
            starts,
            bytes,
            code: Some(code.0.clone()),
        }
    }

    /// Each block's runs, a run's neighbours of other values.
    fn blocks(&self) -> impl Iterator<Item = Vec<(u32, u64)>> + '_ {
        self.starts.windows(2).enumerate().map(move |(b, w)| {
            let mut runs: Vec<(u32, u64)> = Vec::new();
            let mut push = |(v, n): (u32, u64)| match runs.last_mut() {
                Some((last, m)) if *last == v => *m += n,
                _ => runs.push((v, n)),
            };
            match &self.code {
                Some(c) => {
                    let positions = block_positions(self.len, self.shift, b as u64);
                    coded::runs(c, &self.bytes, w[0], positions).for_each(push);
                }
                None => {
                    let mut p = w[0] as usize;
                    while p < w[1] as usize {
                        push(read_run(&self.bytes, &mut p).expect("checked runs"));
                    }
                }
            }
            runs
        })
    }

    /// The value at `i` (below `len`); for a don't-care position, whatever its run holds.
    #[inline]
    pub fn get(&self, i: u64) -> u32 {
        let b = (i >> self.shift) as usize;
        let mut left = i & ((1 << self.shift) - 1);
        if let Some(c) = &self.code {
            return c.get(&self.bytes, self.starts[b], left);
        }
        let mut p = self.starts[b] as usize;
        loop {
            // Every block's runs were read through at construction.
            let (v, n) = read_run(&self.bytes, &mut p).expect("checked runs");
            if left < n {
                return v;
            }
            left -= n;
        }
    }

    /// Starts loading the block of `i` into the cache.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        if let Some(s) = self.starts.get((i >> self.shift) as usize) {
            if let Some(b) = self.bytes.get(*s as usize) {
                quasar_core::prefetch::prefetch(b);
            }
        }
    }
}

/// The positions of block `b` of an array of `len` in blocks of `1 << shift` (the last
/// one holds what is left).
fn block_positions(len: u64, shift: u32, b: u64) -> u64 {
    (1u64 << shift).min(len - (b << shift))
}

/// The shift of a block size, checked.
fn block_shift(block: u64) -> Result<u32, RunsError> {
    if block.is_power_of_two() && (64..=1 << 24).contains(&block) {
        Ok(block.trailing_zeros())
    } else {
        Err(RunsError::Block(block))
    }
}

/// The run at `p` and `p` moved past it; `None` when it does not read (cut short, or a
/// length past 2^63).
#[inline]
fn read_run(bytes: &[u8], p: &mut usize) -> Option<(u32, u64)> {
    let byte = *bytes.get(*p)?;
    *p += 1;
    let low = byte & 63;
    let n = if low == ESCAPE {
        let (mut n, mut shift) = (0u64, 0u32);
        loop {
            let b = *bytes.get(*p)?;
            *p += 1;
            if shift > 56 {
                return None;
            }
            n |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        n.checked_add(64)?
    } else {
        low as u64 + 1
    };
    Some(((byte >> 6) as u32, n))
}

/// The positions a block's runs cover; `None` when they do not read.
fn total(runs: &[u8]) -> Option<u64> {
    let (mut p, mut sum) = (0usize, 0u64);
    while p < runs.len() {
        sum = sum.checked_add(read_run(runs, &mut p)?.1)?;
    }
    Some(sum)
}

/// Builds a [`RunArray`] one value at a time (a table of any size streams through it).
#[derive(Debug)]
pub struct RunWriter {
    shift: u32,
    len: u64,
    starts: Vec<u64>,
    bytes: Vec<u8>,
    /// The open run: its value (none yet while only don't-cares came) and length.
    run: Option<u32>,
    count: u64,
}

impl RunWriter {
    /// A writer of blocks of `block` positions (a power of two of 64 to 2^24).
    pub fn new(block: u64) -> Result<RunWriter, RunsError> {
        Ok(RunWriter {
            shift: block_shift(block)?,
            len: 0,
            starts: vec![0],
            bytes: Vec::new(),
            run: None,
            count: 0,
        })
    }

    /// Appends the next value (0 to 3; `None`: don't care).
    #[inline]
    pub fn push(&mut self, value: Option<u32>) {
        match (value, self.run) {
            (Some(v), Some(r)) if v != r => {
                self.close_run();
                self.run = Some(v);
            }
            (Some(v), None) => self.run = Some(v),
            _ => {}
        }
        self.count += 1;
        self.len += 1;
        if self.len & ((1 << self.shift) - 1) == 0 {
            self.close_block();
        }
    }

    /// Writes the open run (its length at least 1).
    fn close_run(&mut self) {
        let v = (self.run.unwrap_or(0) as u8 & 3) << 6;
        let n = self.count;
        if n < 64 {
            self.bytes.push(v | (n - 1) as u8);
        } else {
            self.bytes.push(v | ESCAPE);
            let mut rest = n - 64;
            loop {
                let b = (rest & 0x7F) as u8;
                rest >>= 7;
                if rest == 0 {
                    self.bytes.push(b);
                    break;
                }
                self.bytes.push(b | 0x80);
            }
        }
        self.run = None;
        self.count = 0;
    }

    fn close_block(&mut self) {
        if self.count > 0 {
            self.close_run();
        }
        self.starts.push(self.bytes.len() as u64);
    }

    /// The array of the values pushed.
    pub fn finish(mut self) -> RunArray {
        if self.len & ((1 << self.shift) - 1) != 0 {
            self.close_block();
        }
        RunArray {
            len: self.len,
            shift: self.shift,
            starts: self.starts,
            bytes: self.bytes,
            code: None,
        }
    }
}

#[cfg(test)]
mod tests;
