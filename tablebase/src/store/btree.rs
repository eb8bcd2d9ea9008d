//! The compact static B-tree: sorted keys in leaf blocks of [`LEAF`] keys, an index of
//! separator keys in nodes of [`FANOUT`], values in a parallel array; laid out as one
//! body of 64-bit words that is written to disk and memory-mapped as is.

use super::Lookup;

/// Keys per leaf block (4 cache lines); the separator index then costs 1/4 byte a key.
pub const LEAF: usize = 32;
/// Keys per index node (2 cache lines).
pub const FANOUT: usize = 16;

/// Where each part of a body lies, in 64-bit words from its start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Entries.
    pub len: u64,
    /// Bytes per value: 2 or 4.
    pub value_bytes: u32,
    /// Leaf keys, padded with `u64::MAX` to whole blocks.
    pub keys: (usize, usize),
    /// Values, padded to whole words.
    pub values: (usize, usize),
    /// Index levels from the leaves' separators upward, each padded to whole nodes.
    pub levels: Vec<(usize, usize)>,
    /// Total words.
    pub words: usize,
}

impl Layout {
    /// The layout of `len` entries with `value_bytes`-byte values.
    pub fn new(len: u64, value_bytes: u32) -> Layout {
        let n = len as usize;
        let blocks = n.div_ceil(LEAF).max(1);
        let mut at = 0;
        let keys = (at, blocks * LEAF);
        at += keys.1;
        let value_words = (n * value_bytes as usize).div_ceil(8);
        let values = (at, value_words);
        at += value_words;
        let mut levels = Vec::new();
        let mut count = blocks;
        loop {
            let padded = count.div_ceil(FANOUT) * FANOUT;
            levels.push((at, padded));
            at += padded;
            if count <= FANOUT {
                break;
            }
            count = count.div_ceil(FANOUT);
        }
        Layout {
            len,
            value_bytes,
            keys,
            values,
            levels,
            words: at,
        }
    }
}

/// Builds the body of sorted, unique `entries`.
pub fn build_body(entries: &[(u64, u32)], value_bytes: u32) -> Vec<u64> {
    let layout = Layout::new(entries.len() as u64, value_bytes);
    let mut body = vec![u64::MAX; layout.words];
    let (ko, kl) = layout.keys;
    for (i, e) in entries.iter().enumerate() {
        body[ko + i] = e.0;
    }
    let (vo, vl) = layout.values;
    {
        let bytes = words_as_bytes_mut(&mut body[vo..vo + vl]);
        bytes.fill(0);
        for (i, e) in entries.iter().enumerate() {
            let b = value_bytes as usize;
            bytes[i * b..(i + 1) * b].copy_from_slice(&e.1.to_le_bytes()[..b]);
        }
    }
    // Level 0 separates the leaf blocks: the first key of each.
    let mut below: Vec<u64> = (0..kl / LEAF).map(|b| body[ko + b * LEAF]).collect();
    for &(lo, _) in &layout.levels {
        for (i, &k) in below.iter().enumerate() {
            body[lo + i] = k;
        }
        below = below.chunks(FANOUT).map(|c| c[0]).collect();
    }
    body
}

fn words_as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has no alignment or validity requirements; the length covers the same bytes.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, words.len() * 8) }
}

/// The words of a body: a read-only memory map of a file or a vector.
#[derive(Debug)]
pub enum Backing {
    /// A mapped file and the word offset of the body in it.
    Map(memmap2::Mmap, usize),
    /// A body built in memory.
    Heap(Vec<u64>),
}

impl Backing {
    /// The body's words.
    #[inline]
    pub fn words(&self) -> &[u64] {
        match self {
            Backing::Map(m, start) => {
                // SAFETY: a map is page-aligned and the loader checked that its length is
                // the header plus a whole number of words; any bit pattern is a valid u64.
                let all =
                    unsafe { std::slice::from_raw_parts(m.as_ptr() as *const u64, m.len() / 8) };
                &all[*start..]
            }
            Backing::Heap(v) => v,
        }
    }
}

/// Most index levels a body may have (16^12 leaves is far beyond any table).
const MAX_LEVELS: usize = 12;

/// A static B-tree that owns its body (mapped or in memory).
#[derive(Debug)]
pub struct StaticBTree {
    backing: Backing,
    keys: usize,
    values: usize,
    value_bytes: usize,
    /// Index levels from the root down: (offset, words).
    levels: [(usize, usize); MAX_LEVELS],
    depth: usize,
    len: usize,
    words: usize,
}

impl StaticBTree {
    /// The tree in `backing`, whose body [`build_body`] made with `layout`; the caller
    /// checked the body's size against the layout.
    pub fn new(backing: Backing, layout: &Layout) -> Result<StaticBTree, String> {
        if backing.words().len() < layout.words {
            return Err(format!(
                "body has {} words, the layout needs {}",
                backing.words().len(),
                layout.words
            ));
        }
        if layout.levels.len() > MAX_LEVELS {
            return Err(format!(
                "{} index levels is more than the {MAX_LEVELS} supported",
                layout.levels.len()
            ));
        }
        let mut levels = [(0, 0); MAX_LEVELS];
        for (i, &l) in layout.levels.iter().rev().enumerate() {
            levels[i] = l;
        }
        Ok(StaticBTree {
            backing,
            keys: layout.keys.0,
            values: layout.values.0,
            value_bytes: layout.value_bytes as usize,
            levels,
            depth: layout.levels.len(),
            len: layout.len as usize,
            words: layout.words,
        })
    }

    /// A tree built in memory from sorted, unique entries.
    pub fn from_entries(entries: &[(u64, u32)], value_bytes: u32) -> StaticBTree {
        let layout = Layout::new(entries.len() as u64, value_bytes);
        let body = build_body(entries, value_bytes);
        StaticBTree::new(Backing::Heap(body), &layout).expect("a fresh body fits its layout")
    }

    /// The position of `key` among the sorted keys.
    #[inline]
    pub fn position(&self, key: u64) -> Option<usize> {
        let words = self.backing.words();
        // Top-down: in each node, the last separator <= key names the child.
        let mut node = 0usize;
        for &(off, _) in &self.levels[..self.depth] {
            let at = off + node * FANOUT;
            let keys = &words[at..at + FANOUT];
            let le = keys.iter().filter(|&&k| k <= key).count();
            if le == 0 {
                return None;
            }
            node = node * FANOUT + le - 1;
        }
        let at = self.keys + node * LEAF;
        let block = &words[at..at + LEAF];
        let lt = block.iter().filter(|&&k| k < key).count();
        let i = node * LEAF + lt;
        (lt < LEAF && block[lt] == key && i < self.len).then_some(i)
    }

    /// The value stored at a position.
    #[inline]
    pub fn value_at(&self, i: usize) -> u32 {
        let words = self.backing.words();
        let bit = i * self.value_bytes * 8;
        let word = words[self.values + bit / 64] >> (bit % 64);
        if self.value_bytes == 2 {
            word as u16 as u32
        } else {
            word as u32
        }
    }

    /// The key at a position.
    #[inline]
    pub fn key_at(&self, i: usize) -> u64 {
        self.backing.words()[self.keys + i]
    }

    /// Every (key, value) in key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        (0..self.len).map(|i| (self.key_at(i), self.value_at(i)))
    }
}

impl Lookup for StaticBTree {
    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        self.position(key).map(|i| self.value_at(i))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> usize {
        self.words * 8
    }

    fn name(&self) -> &'static str {
        "static-btree"
    }
}
