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
//!   ([`coded`]), about 60% of the bytes' size on the checkers databases.
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
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Values in runs of random lengths (some past 63 and past 64 + 127), a share of them
    /// don't-care.
    fn sample(rng: &mut Xoshiro256PlusPlus, len: u64, dont_care: f64) -> Vec<Option<u32>> {
        let mut out = Vec::new();
        while (out.len() as u64) < len {
            let v = rng.random_range(0..4u32);
            let n = match rng.random_range(0..4) {
                0 => rng.random_range(1..4),
                1 => rng.random_range(60..70),
                2 => rng.random_range(180..200),
                _ => rng.random_range(1..5000),
            };
            for _ in 0..n {
                out.push((!rng.random_bool(dont_care)).then_some(v));
            }
        }
        out.truncate(len as usize);
        out
    }

    #[test]
    fn every_cared_value_reads_back_and_the_parts_check() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for (len, block, dont_care) in [
            (0, 64, 0.0),
            (1, 64, 0.0),
            (64, 64, 0.5),
            (65, 64, 0.0),
            (100_000, 4096, 0.0),
            (100_001, 1024, 0.3),
            (50_000, 1 << 16, 0.9),
            (10_000, 64, 1.0),
        ] {
            let values = sample(&mut rng, len, dont_care);
            let a = RunArray::encode(len, block, |i| values[i as usize]).unwrap();
            assert_eq!(a.len(), len);
            for (i, v) in values.iter().enumerate() {
                if let Some(v) = v {
                    assert_eq!(a.get(i as u64), *v, "{len} {block} at {i}");
                }
            }
            let b = RunArray::from_parts(len, block, a.starts().to_vec(), a.bytes().to_vec(), None);
            assert_eq!(b.as_ref(), Ok(&a));
            let c = a.entropy_coded();
            for (i, v) in values.iter().enumerate() {
                if let Some(v) = v {
                    assert_eq!(c.get(i as u64,), *v, "coded: {len} {block} at {i}");
                }
            }
            let lengths = c.code_lengths().map(|l| l.to_vec());
            let d =
                RunArray::from_parts(len, block, c.starts().to_vec(), c.bytes().to_vec(), lengths);
            assert_eq!(d.as_ref(), Ok(&c));
        }
    }

    #[test]
    fn dont_cares_join_the_run_around_them() {
        // 1 1 ? ? 1 2 ? 2 in one block: two runs, two bytes.
        let values = [
            Some(1),
            Some(1),
            None,
            None,
            Some(1),
            Some(2),
            None,
            Some(2),
        ];
        let a = RunArray::encode(8, 64, |i| values[i as usize]).unwrap();
        assert_eq!(a.bytes(), &[1 << 6 | 4, 2 << 6 | 2]);
        // A block of don't-cares alone is one run: three full blocks of 64 (an escape and a
        // length byte each) and one of 8.
        let a = RunArray::encode(200, 64, |_| None).unwrap();
        assert_eq!(a.bytes().len(), 3 * 2 + 1);
        assert_eq!(a.stored_bytes(), 7 + 8 * 5);
    }

    #[test]
    fn unchecked_parts_check_each_block_on_demand() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (len, block) = (20_000u64, 1024u64);
        let values = sample(&mut rng, len, 0.0);
        let c = RunArray::encode(len, block, |i| values[i as usize])
            .unwrap()
            .entropy_coded();
        let code = RunCode::from_lengths(c.code_lengths().unwrap().to_vec()).unwrap();
        let parts = |bytes: Vec<u8>| {
            RunArray::from_coded_parts_unchecked(len, block, c.starts().to_vec(), bytes, &code)
        };
        let a = parts(c.bytes().to_vec()).unwrap();
        assert_eq!(a, c);
        assert!((0..a.blocks_count()).all(|b| a.check_block(b)));
        // Block 5's runs damaged: it alone fails its check; the others read right.
        let mut bytes = c.bytes().to_vec();
        let (lo, hi) = (c.starts()[5] as usize, c.starts()[6] as usize);
        bytes[lo..hi].fill(0xFF);
        let d = parts(bytes).unwrap();
        let bad: Vec<u64> = (0..d.blocks_count())
            .filter(|&b| !d.check_block(b))
            .collect();
        assert_eq!(bad, [5]);
        for i in (0..len).filter(|i| i / block != 5).step_by(7) {
            assert_eq!(Some(d.get(i)), values[i as usize]);
        }
        // The index is still checked whole.
        let mut starts = c.starts().to_vec();
        starts.swap(3, 4);
        let e = RunArray::from_coded_parts_unchecked(len, block, starts, c.bytes().to_vec(), &code);
        assert!(matches!(e, Err(RunsError::Index(_))));
    }

    #[test]
    fn damaged_parts_are_refused() {
        let values: Vec<Option<u32>> = (0..1000).map(|i| Some((i / 70) % 3)).collect();
        let a = RunArray::encode(1000, 256, |i| values[i as usize]).unwrap();
        let (starts, bytes) = (a.starts().to_vec(), a.bytes().to_vec());
        assert_eq!(
            RunArray::from_parts(1000, 100, starts.clone(), bytes.clone(), None),
            Err(RunsError::Block(100))
        );
        assert!(RunArray::from_parts(1001, 256, starts.clone(), bytes.clone(), None).is_err());
        assert!(RunArray::from_parts(2000, 256, starts.clone(), bytes.clone(), None).is_err());
        let mut cut = bytes.clone();
        cut.pop();
        assert!(RunArray::from_parts(1000, 256, starts.clone(), cut, None).is_err());
        let mut longer = bytes.clone();
        longer[0] = longer[0].wrapping_add(1);
        assert_eq!(
            RunArray::from_parts(1000, 256, starts.clone(), longer, None),
            Err(RunsError::Runs(0))
        );
        let mut swapped = starts.clone();
        swapped.swap(1, 2);
        assert!(RunArray::from_parts(1000, 256, swapped, bytes.clone(), None).is_err());
        // An endless length: every continuation bit set.
        let endless = vec![ESCAPE; 1]
            .into_iter()
            .chain([0xFF; 20])
            .collect::<Vec<u8>>();
        assert!(RunArray::from_parts(64, 64, vec![0, 21], endless, None).is_err());
    }

    #[test]
    fn coded_runs_are_smaller_and_damage_is_refused() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let values = sample(&mut rng, 200_000, 0.2);
        let a = RunArray::encode(200_000, 1024, |i| values[i as usize]).unwrap();
        let c = a.entropy_coded();
        assert!(c.bytes().len() < a.bytes().len());
        assert_eq!(c.entropy_coded(), c);
        let (starts, bytes) = (c.starts().to_vec(), c.bytes().to_vec());
        let lengths = c.code_lengths().unwrap().to_vec();
        let parts = |s: Vec<u64>, b: Vec<u8>, l: Vec<u8>| {
            RunArray::from_parts(200_000, 1024, s, b, Some(l))
        };
        assert!(parts(starts.clone(), bytes.clone(), lengths.clone()).is_ok());
        // Each block's end a byte early: its runs read past it.
        for b in 1..starts.len() - 1 {
            let mut s = starts.clone();
            s[b] -= 1;
            assert_eq!(
                parts(s, bytes.clone(), lengths.clone()),
                Err(RunsError::Runs(b as u64 - 1))
            );
        }
        // Lengths of another number of symbols, or of no prefix code.
        assert_eq!(
            parts(starts.clone(), bytes.clone(), lengths[1..].to_vec()),
            Err(RunsError::CodeSize(lengths.len() - 1))
        );
        let mut over = lengths.clone();
        over.iter_mut().for_each(|l| *l = 1);
        assert!(matches!(
            parts(starts.clone(), bytes.clone(), over),
            Err(RunsError::Code(_))
        ));
        // Runs as bytes read as a code, and a code cut short.
        assert!(parts(a.starts().to_vec(), a.bytes().to_vec(), lengths.clone()).is_err());
        let mut cut = bytes.clone();
        cut.pop();
        assert!(parts(starts, cut, lengths).is_err());
    }

    #[test]
    fn one_code_serves_many_arrays_and_is_shared() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let one = sample(&mut rng, 50_000, 0.0);
        let other = sample(&mut rng, 30_000, 0.5);
        let a = RunArray::encode(50_000, 256, |i| one[i as usize]).unwrap();
        let b = RunArray::encode(30_000, 512, |i| other[i as usize]).unwrap();
        // A code fitted to `a` alone codes `b` too, every value read back.
        let mut counts = RunCounts::default();
        counts.add(&a);
        let code = counts.code();
        let bc = b.entropy_coded_with(&code);
        for (i, v) in other.iter().enumerate() {
            if let Some(v) = v {
                assert_eq!(bc.get(i as u64), *v);
            }
        }
        // Counting a coded array counts its runs as the array in bytes.
        let mut again = RunCounts::default();
        again.add(&a.entropy_coded());
        assert_eq!(again.0, counts.0);
        // Arrays read back with the same lengths share one decoding table.
        let ac = a.entropy_coded_with(&code);
        let parts = |x: &RunArray, len, block| {
            let l = x.code_lengths().map(|l| l.to_vec());
            RunArray::from_parts(len, block, x.starts().to_vec(), x.bytes().to_vec(), l).unwrap()
        };
        let (x, y) = (parts(&ac, 50_000, 256), parts(&bc, 30_000, 512));
        assert!(Arc::ptr_eq(
            x.code.as_ref().unwrap(),
            y.code.as_ref().unwrap()
        ));
        assert_eq!(ac.entropy_coded_with(&code), ac);
    }

    #[test]
    fn a_block_read_apart_from_its_array_decodes_alike() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        let values = sample(&mut rng, 10_000, 0.3);
        let a = RunArray::encode(10_000, 512, |i| values[i as usize])
            .unwrap()
            .entropy_coded();
        let code = RunCode::from_lengths(a.code_lengths().unwrap().to_vec()).unwrap();
        for (b, w) in a.starts().windows(2).enumerate() {
            // The block's bytes alone, at an offset, with the pad after them.
            let mut alone = vec![0xA5u8; 3];
            alone.extend_from_slice(&a.bytes()[w[0] as usize..w[1] as usize]);
            let end = alone.len() as u64;
            alone.extend([0; RUN_PAD]);
            // The last block holds what is left.
            let n = 512.min(10_000 - b as u64 * 512);
            assert!(code.check_block(&alone, 3, end, n), "block {b}");
            assert!(!code.check_block(&alone, 3, end - 1, n), "block {b}");
            for left in 0..n {
                let i = b as u64 * 512 + left;
                assert_eq!(code.get(&alone, 3, left), a.get(i), "position {i}");
            }
        }
    }
}
