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
    /// The radix root, built on load: `root[b]` is the first leaf block whose first key
    /// falls in bucket `b` or later; buckets split `min_key..=max_key` evenly.
    root: Vec<u32>,
    min_key: u64,
    /// Bucket of a key: `((key - min_key) as u128 * scale) >> 64`.
    scale: u64,
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
        let mut tree = StaticBTree {
            backing,
            keys: layout.keys.0,
            values: layout.values.0,
            value_bytes: layout.value_bytes as usize,
            levels,
            depth: layout.levels.len(),
            len: layout.len as usize,
            words: layout.words,
            root: Vec::new(),
            min_key: 0,
            scale: 0,
        };
        tree.build_root(layout);
        Ok(tree)
    }

    /// Builds the radix root from the leaves' separators (one bucket per leaf block, so
    /// it costs 4 bytes per 32 entries and replaces the separator levels' dependent reads).
    fn build_root(&mut self, layout: &Layout) {
        if self.len == 0 {
            return;
        }
        let words = self.backing.words();
        let (sep_off, _) = layout.levels[0];
        let blocks = self.len.div_ceil(LEAF);
        let seps = &words[sep_off..sep_off + blocks];
        let min_key = words[self.keys];
        let max_key = words[self.keys + self.len - 1];
        let buckets = blocks as u64;
        let span = (max_key - min_key) as u128 + 1;
        // scale = buckets * 2^64 / span, so bucket(max_key) < buckets.
        let scale = ((buckets as u128) << 64)
            .div_ceil(span)
            .min(u64::MAX as u128) as u64;
        let bucket = |k: u64| (((k - min_key) as u128 * scale as u128) >> 64) as usize;
        let mut root = vec![0u32; blocks + 2];
        let mut b = 0usize;
        for (i, &s) in seps.iter().enumerate() {
            let sb = bucket(s).min(blocks);
            while b <= sb {
                root[b] = i as u32;
                b += 1;
            }
        }
        while b < root.len() {
            root[b] = blocks as u32;
            b += 1;
        }
        self.root = root;
        self.min_key = min_key;
        self.scale = scale;
    }

    /// A tree built in memory from sorted, unique entries.
    pub fn from_entries(entries: &[(u64, u32)], value_bytes: u32) -> StaticBTree {
        let layout = Layout::new(entries.len() as u64, value_bytes);
        let body = build_body(entries, value_bytes);
        StaticBTree::new(Backing::Heap(body), &layout).expect("a fresh body fits its layout")
    }

    /// The position of `key` among the sorted keys, through the radix root.
    #[inline]
    pub fn position(&self, key: u64) -> Option<usize> {
        if self.root.is_empty() || key < self.min_key {
            return None;
        }
        let words = self.backing.words();
        let b = (((key - self.min_key) as u128 * self.scale as u128) >> 64) as usize;
        if b + 1 >= self.root.len() {
            return None;
        }
        // The key's block is the last one whose first key <= key: it starts at or before
        // the first block of the key's bucket (minus one) and before the next bucket's.
        let lo = (self.root[b] as usize).saturating_sub(1);
        let hi = (self.root[b + 1] as usize).max(lo + 1);
        if hi - lo <= 2 {
            // One or two candidate blocks: search them for the key itself without reading
            // a separator first; their loads do not depend on each other, so they overlap.
            let first = self.leaf_find(lo, key);
            return if hi - lo == 2 {
                first.or_else(|| self.leaf_find(lo + 1, key))
            } else {
                first
            };
        }
        // A crowded bucket: binary search over its separators.
        let seps = &words[self.levels[self.depth - 1].0..];
        let node = lo + seps[lo + 1..hi].partition_point(|&s| s <= key);
        self.leaf_find(node, key)
    }

    /// The position of `key` in leaf block `node`, if it is there.
    #[inline]
    fn leaf_find(&self, node: usize, key: u64) -> Option<usize> {
        let words = self.backing.words();
        let at = self.keys + node * LEAF;
        #[cfg(target_arch = "x86_64")]
        {
            // The block's values share one or two cache lines: fetch them while the keys
            // are searched, so a hit costs no extra dependent miss.
            let v = self.values + node * LEAF * self.value_bytes / 8;
            if v < words.len() {
                // SAFETY: prefetching an in-bounds address has no side effect.
                unsafe {
                    core::arch::x86_64::_mm_prefetch(
                        words.as_ptr().add(v) as *const i8,
                        core::arch::x86_64::_MM_HINT_T0,
                    )
                };
            }
        }
        let block: &[u64; LEAF] = words.get(at..at + LEAF)?.try_into().ok()?;
        // A vectorised count of smaller keys: few instructions, so that the loads of
        // several probes can be in flight at once.
        let lt = block.iter().map(|&k| (k < key) as usize).sum::<usize>();
        let i = node * LEAF + lt;
        (lt < LEAF && block[lt] == key && i < self.len).then_some(i)
    }

    /// The position of `key` among the sorted keys, through the separator levels (the
    /// classic B-tree descent; kept for comparison).
    #[inline]
    pub fn position_by_levels(&self, key: u64) -> Option<usize> {
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
        self.leaf_find(node, key)
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
        self.words * 8 + self.root.len() * 4
    }

    fn name(&self) -> &'static str {
        "static-btree"
    }
}
