//! Runs entropy-coded: each run is one Huffman symbol (the array's own code) for its value
//! and its length, then the length's low bits where the symbol stands for a range.
//!
//! A run's value is coded as its rank among the values other than the run before it (runs
//! in a block alternate, so three values cost one bit of choice); a block's first run codes
//! its value itself. Lengths 1 to 32 are symbols of their own; a longer length `n` is the
//! symbol of `floor(log2 n)` followed by the bits of `n` below its top one. Each block
//! starts on a byte, most significant bit first.

use super::RunsError;
use crate::huffman::{self, MAX_LEN};
use std::sync::{Arc, Mutex, Weak};

/// Lengths with a symbol of their own.
const DIRECT: u64 = 32;
/// Length symbols: 32 direct ones, then one for each power of two from 2^5 to 2^24.
const LENGTHS: u32 = 32 + 20;
/// Ranks: a block's first value (0 to 3), or the rank among the other three (0 to 2).
const RANKS: u32 = 4;
/// Symbols of a code: a rank and a length symbol each.
pub(super) const SYMBOLS: usize = (RANKS * LENGTHS) as usize;
/// The rank "before" a block's first run: every rank reads as the value itself.
const FIRST: u32 = 4;
/// Zero bytes after the last block, so that a decoder reads eight bytes at any byte.
pub(super) const PAD: usize = 8;

/// An array's code: its lengths as stored, and the tables that decode them.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Code {
    lengths: Vec<u8>,
    /// For each pattern of the longest code's bits, the run it starts ([`Entry`]; 0 where
    /// no code starts it).
    table: Box<[u32]>,
    /// The same patterns read as up to two runs: where a run of a direct length is
    /// followed within the pattern by a whole code of another, both at once (about five
    /// bits a run, so most lookups read two, halving the chain of dependent steps a probe
    /// walks). [`Code::get`] reads these; the check reads `table`, one run at a time.
    pairs: Box<[u32]>,
}

/// A decoding table's entry, packed in 32 bits: the first run's code length (0: no code),
/// the number of its length's low bits, its rank and its direct length (0 for a range);
/// a second run's rank and direct length (0: none); the bits the entry's runs take.
#[derive(Clone, Copy)]
struct Entry(u32);

impl Entry {
    fn new(len: u32, extra: u32, rank: u32, direct: u32, bits: u32) -> Entry {
        Entry(len | extra << 4 | rank << 9 | direct << 11 | bits << 25)
    }

    /// The same entry with a second run of a direct length after it, taking `bits` more.
    fn with_second(self, rank: u32, direct: u32, bits: u32) -> Entry {
        let first = self.0 & ((1 << 17) - 1);
        Entry(first | rank << 17 | direct << 19 | (self.bits() + bits) << 25)
    }

    #[inline(always)]
    fn len(self) -> u32 {
        self.0 & 15
    }

    #[inline(always)]
    fn extra(self) -> u32 {
        (self.0 >> 4) & 31
    }

    #[inline(always)]
    fn rank(self) -> u32 {
        (self.0 >> 9) & 3
    }

    #[inline(always)]
    fn direct(self) -> u64 {
        ((self.0 >> 11) & 63) as u64
    }

    #[inline(always)]
    fn second(self) -> (u32, u64) {
        ((self.0 >> 17) & 3, ((self.0 >> 19) & 63) as u64)
    }

    #[inline(always)]
    fn bits(self) -> u32 {
        self.0 >> 25
    }

    /// The first run's length, its low bits read from `w` (the bits from the run's code on,
    /// most significant first): a shift of 63 and one more, so that no low bits read as 0.
    #[inline(always)]
    fn length(self, w: u64) -> u64 {
        let (len, extra) = (self.len(), self.extra());
        let low = ((w << len) >> (63 - extra)) >> 1;
        self.direct() + ((1u64 << extra) | low) - (extra == 0) as u64
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The table follows from the lengths.
        f.debug_struct("Code")
            .field("lengths", &self.lengths)
            .finish()
    }
}

/// A run's symbol and the low bits that follow it (their number, their value).
#[inline]
fn symbol(rank: u32, n: u64) -> (usize, u32, u64) {
    debug_assert!((1..=1 << 24).contains(&n) && rank < RANKS);
    if n <= DIRECT {
        ((rank * LENGTHS) as usize + (n - 1) as usize, 0, 0)
    } else {
        let k = 63 - n.leading_zeros();
        let s = DIRECT as u32 + k - 5;
        ((rank * LENGTHS + s) as usize, k, n - (1 << k))
    }
}

impl Code {
    /// The code of these lengths, one a symbol.
    pub(super) fn new(lengths: Vec<u8>) -> Result<Code, RunsError> {
        if lengths.len() != SYMBOLS {
            return Err(RunsError::CodeSize(lengths.len()));
        }
        let table = huffman::decode_table(&lengths)
            .map_err(RunsError::Code)?
            .into_iter()
            .map(|e| match e {
                None => 0,
                Some((sym, len)) => {
                    let (len, rank, s) = (len as u32, sym as u32 / LENGTHS, sym as u32 % LENGTHS);
                    let (extra, direct) = if (s as u64) < DIRECT {
                        (0, s + 1)
                    } else {
                        (s - DIRECT as u32 + 5, 0)
                    };
                    Entry::new(len, extra, rank, direct, len + extra).0
                }
            })
            .collect::<Box<[u32]>>();
        let mask = (1u32 << MAX_LEN) - 1;
        let pairs = (0..1u32 << MAX_LEN)
            .map(|p| {
                let e = Entry(table[p as usize]);
                let f = Entry(table[((p << e.len()) & mask) as usize]);
                let fits = e.len() > 0 && e.extra() == 0 && f.len() > 0 && f.extra() == 0;
                if fits && e.len() + f.len() <= MAX_LEN {
                    e.with_second(f.rank(), f.direct() as u32, f.len()).0
                } else {
                    e.0
                }
            })
            .collect();
        Ok(Code {
            lengths,
            table,
            pairs,
        })
    }

    /// The code lengths, one a symbol, as stored.
    pub(super) fn lengths(&self) -> &[u8] {
        &self.lengths
    }

    /// The run at bit `at` after a run of value `prev`: its value, its length and the bits
    /// it takes; `None` for a pattern no code starts. `bytes` has [`PAD`] bytes past `at`.
    #[inline(always)]
    fn run(&self, bytes: &[u8], at: u64, prev: u32) -> Option<(u32, u64, u64)> {
        let byte = (at >> 3) as usize;
        let window: [u8; 8] = bytes.get(byte..byte + 8)?.try_into().ok()?;
        let w = u64::from_be_bytes(window) << (at & 7);
        let e = Entry(self.table[(w >> (64 - MAX_LEN)) as usize]);
        if e.len() == 0 {
            return None;
        }
        let v = e.rank() + (e.rank() >= prev) as u32;
        Some((v, e.length(w), e.bits() as u64))
    }

    /// The value at `left` positions into the block whose runs start at byte `start`;
    /// the block was checked by [`Code::check_block`].
    #[inline]
    pub(super) fn get(&self, bytes: &[u8], start: u64, mut left: u64) -> u32 {
        // The bits ahead are kept in a register, topped up when fewer than a run's most
        // remain: a run's step is then one table lookup and a shift.
        const MOST: u32 = MAX_LEN + 24;
        let load = |at: u64| {
            let byte = (at >> 3) as usize;
            let window: [u8; 8] = bytes[byte..byte + 8].try_into().expect("eight bytes");
            (u64::from_be_bytes(window) << (at & 7), 64 - (at & 7) as u32)
        };
        let mut at = start * 8;
        let (mut buf, mut ahead) = load(at);
        let mut prev = FIRST;
        loop {
            if ahead < MOST {
                (buf, ahead) = load(at);
            }
            let e = Entry(self.pairs[(buf >> (64 - MAX_LEN)) as usize]);
            let n = e.length(buf);
            let v = e.rank() + (e.rank() >= prev) as u32;
            if left < n {
                return v;
            }
            left -= n;
            // The second run, where the pattern holds one (a length of 0 where not).
            let (rank, n) = e.second();
            let w = if n > 0 { rank + (rank >= v) as u32 } else { v };
            if left < n {
                return w;
            }
            left -= n;
            prev = w;
            let bits = e.bits();
            buf <<= bits;
            ahead -= bits;
            at += bits as u64;
        }
    }

    /// Whether the bytes `start..end` (of `bytes`, padded) decode to runs of values 0 to 3,
    /// a value never repeated, covering `positions` exactly and ending in the last byte.
    pub(super) fn check_block(&self, bytes: &[u8], start: u64, end: u64, positions: u64) -> bool {
        let (mut at, mut prev, mut sum) = (start * 8, FIRST, 0u64);
        while sum < positions {
            let Some((v, n, bits)) = self.run(bytes, at, prev) else {
                return false;
            };
            if v > 3 || v == prev {
                return false;
            }
            sum += n;
            at += bits;
            prev = v;
            if at > end * 8 {
                return false;
            }
        }
        sum == positions && at.div_ceil(8) == end
    }
}

/// Writes runs as bits, most significant first.
struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    bits: u32,
}

impl BitWriter {
    fn put(&mut self, value: u64, n: u32) {
        debug_assert!(n <= 32);
        if n == 0 {
            return;
        }
        self.acc = self.acc << n | value;
        self.bits += n;
        while self.bits >= 8 {
            self.bits -= 8;
            self.bytes.push((self.acc >> self.bits) as u8);
        }
        self.acc &= (1 << self.bits) - 1;
    }

    /// Pads the last byte with zero bits.
    fn align(&mut self) {
        if self.bits > 0 {
            self.bytes.push((self.acc << (8 - self.bits)) as u8);
            self.acc = 0;
            self.bits = 0;
        }
    }
}

/// Counts of each symbol in `runs` (a block's runs, values alternating) added to `counts`.
pub(super) fn count(runs: impl Iterator<Item = (u32, u64)>, counts: &mut [u64]) {
    let mut prev = FIRST;
    for (v, n) in runs {
        counts[symbol(rank(v, prev), n).0] += 1;
        prev = v;
    }
}

/// The code for symbol counts: every symbol gets a code, the unseen ones as if seen once,
/// so that one code serves arrays it was not fitted to.
pub(super) fn fit(counts: &[u64]) -> Code {
    let counts: Vec<u64> = counts.iter().map(|&c| c.saturating_add(1)).collect();
    Code::new(huffman::lengths(&counts)).expect("a fitted code")
}

/// The blocks of runs (each block a list of (value, length), values alternating) coded
/// with `code` (which has a code for every symbol): the block starts and the bytes
/// (padded).
pub(super) fn encode<B>(blocks: B, code: &Code) -> (Vec<u64>, Vec<u8>)
where
    B: Iterator<Item = Vec<(u32, u64)>>,
{
    let codes = huffman::codes(code.lengths()).expect("a checked code");
    let mut w = BitWriter {
        bytes: Vec::new(),
        acc: 0,
        bits: 0,
    };
    let mut starts = vec![0u64];
    for runs in blocks {
        let mut prev = FIRST;
        for (v, n) in runs {
            let (sym, extra, low) = symbol(rank(v, prev), n);
            let (c, len) = codes[sym];
            debug_assert!(len > 0, "a code for every symbol");
            w.put(c as u64, len as u32);
            w.put(low, extra);
            prev = v;
        }
        w.align();
        starts.push(w.bytes.len() as u64);
    }
    w.bytes.extend([0; PAD]);
    (starts, w.bytes)
}

/// The code of these lengths, the same one (and so the same decoding table) for every
/// array of the process that carries them: a probe then finds one table in the cache
/// instead of one a file, each of whose lookups would be a miss.
pub(super) fn shared(lengths: Vec<u8>) -> Result<Arc<Code>, RunsError> {
    static CODES: Mutex<Vec<Weak<Code>>> = Mutex::new(Vec::new());
    let mut codes = CODES.lock().unwrap_or_else(|e| e.into_inner());
    codes.retain(|c| c.strong_count() > 0);
    if let Some(c) = codes
        .iter()
        .filter_map(Weak::upgrade)
        .find(|c| c.lengths == lengths)
    {
        return Ok(c);
    }
    let c = Arc::new(Code::new(lengths)?);
    codes.push(Arc::downgrade(&c));
    Ok(c)
}

/// The runs of the block at `start..end` (checked), one after another.
pub(super) fn runs<'a>(
    code: &'a Code,
    bytes: &'a [u8],
    start: u64,
    positions: u64,
) -> impl Iterator<Item = (u32, u64)> + 'a {
    let (mut at, mut prev, mut sum) = (start * 8, FIRST, 0u64);
    std::iter::from_fn(move || {
        if sum >= positions {
            return None;
        }
        let (v, n, bits) = code.run(bytes, at, prev).expect("checked runs");
        at += bits;
        prev = v;
        sum += n;
        Some((v, n))
    })
}

/// The rank that codes `v` after a run of `prev`.
#[inline]
fn rank(v: u32, prev: u32) -> u32 {
    v - (v > prev) as u32
}
