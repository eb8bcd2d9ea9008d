//! The compact static B-tree: sorted keys in leaf blocks of [`LEAF`] keys, an index of
//! separator keys in nodes of [`FANOUT`], values in a parallel array; laid out as one
//! body of 64-bit words, a radix root over the leaves at its end, that is written to disk
//! and memory-mapped as is.

use crate::blocks::{crc_words, BlockCheck, BlockError};
use quasar_core::prefetch::prefetch;
use quasar_core::progress::Progress;

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
    /// The radix root: `min_key`, `scale`, then one `u32` a bucket, two to a word.
    pub root: (usize, usize),
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
        let root = (at, 2 + (n.div_ceil(LEAF) + 2).div_ceil(2));
        at += root.1;
        Layout {
            len,
            value_bytes,
            keys,
            values,
            levels,
            root,
            words: at,
        }
    }
}

/// The radix root's words over leaf blocks whose first keys are `firsts`, `max_key` the
/// largest key: `min_key`, `scale`, then `root[b]`, the first leaf block whose first key
/// falls in bucket `b` or later, where buckets split `min_key..=max_key` evenly, one per
/// block (4 bytes per 32 entries, and it replaces the separator levels' dependent reads).
pub fn radix_root(firsts: &[u64], max_key: u64) -> Vec<u64> {
    let blocks = firsts.len();
    let mut root = vec![0u32; blocks + 2];
    let (mut min_key, mut scale) = (0, 0);
    if let Some(&first) = firsts.first() {
        min_key = first;
        let span = (max_key - min_key) as u128 + 1;
        // scale = blocks * 2^64 / span, so bucket(max_key) < blocks.
        scale = ((blocks as u128) << 64)
            .div_ceil(span)
            .min(u64::MAX as u128) as u64;
        let bucket = |k: u64| (((k - min_key) as u128 * scale as u128) >> 64) as usize;
        let mut b = 0usize;
        for (i, &s) in firsts.iter().enumerate() {
            let sb = bucket(s).min(blocks);
            while b <= sb {
                root[b] = i as u32;
                b += 1;
            }
        }
        root[b..].fill(blocks as u32);
    }
    let mut words = vec![min_key, scale];
    words.extend(
        root.chunks(2)
            .map(|p| p[0] as u64 | (p.get(1).copied().unwrap_or(0) as u64) << 32),
    );
    words
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
    let firsts: Vec<u64> = entries.iter().step_by(LEAF).map(|e| e.0).collect();
    let root = radix_root(&firsts, entries.last().map_or(0, |e| e.0));
    body[layout.root.0..layout.root.0 + layout.root.1].copy_from_slice(&root);
    body
}

fn words_as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has no alignment or validity requirements; the length covers the same bytes.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, words.len() * 8) }
}

/// The words of a body: a read-only memory map of a file or a vector.
#[derive(Debug)]
pub enum Backing {
    /// A mapped file and the word offset of the body in it (the body's block CRCs follow).
    Map(memmap2::Mmap, usize),
    /// A body built in memory.
    Heap(Vec<u64>),
}

impl Backing {
    /// The body's words (and, in a file, the block CRCs after them), unchecked.
    #[inline]
    fn words(&self) -> &[u64] {
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

/// A static B-tree that owns its body (mapped or in memory); every word read from a
/// mapped body is first checked by its block's CRC (see [`BlockCheck`]).
#[derive(Debug)]
pub struct StaticBTree {
    backing: Backing,
    /// The lazy checker of a mapped body; `None` for a body built in memory.
    check: Option<BlockCheck>,
    /// Words of the body proper.
    body: usize,
    keys: usize,
    values: usize,
    value_bytes: usize,
    /// Index levels from the root down: (offset, words).
    levels: [(usize, usize); MAX_LEVELS],
    depth: usize,
    len: usize,
    /// Leaf blocks holding entries.
    blocks: usize,
    /// Word offset of the radix root's `u32` entries (`blocks + 2` of them).
    root: usize,
    min_key: u64,
    /// Bucket of a key: `((key - min_key) as u128 * scale) >> 64`.
    scale: u64,
}

impl StaticBTree {
    /// The tree in `backing`, whose body [`build_body`] made with `layout`, checked by
    /// `check` as it is read (a mapped file's words then hold the block CRCs after the
    /// body); the caller checked the backing's size against the layout.
    pub fn new(
        backing: Backing,
        layout: &Layout,
        check: Option<BlockCheck>,
    ) -> Result<StaticBTree, BlockError> {
        let crc_words = check.as_ref().map_or(0, |c| crc_words(c.blocks()));
        if backing.words().len() < layout.words + crc_words || layout.levels.len() > MAX_LEVELS {
            return Err(BlockError::Index);
        }
        let mut levels = [(0, 0); MAX_LEVELS];
        for (i, &l) in layout.levels.iter().rev().enumerate() {
            levels[i] = l;
        }
        let mut tree = StaticBTree {
            backing,
            check,
            body: layout.words,
            keys: layout.keys.0,
            values: layout.values.0,
            value_bytes: layout.value_bytes as usize,
            levels,
            depth: layout.levels.len(),
            len: layout.len as usize,
            blocks: (layout.len as usize).div_ceil(LEAF),
            root: layout.root.0 + 2,
            min_key: 0,
            scale: 0,
        };
        let head = tree.read(layout.root.0, 2)?;
        (tree.min_key, tree.scale) = (head[0], head[1]);
        Ok(tree)
    }

    /// A tree built in memory from sorted, unique entries.
    pub fn from_entries(entries: &[(u64, u32)], value_bytes: u32) -> StaticBTree {
        let layout = Layout::new(entries.len() as u64, value_bytes);
        let body = build_body(entries, value_bytes);
        StaticBTree::new(Backing::Heap(body), &layout, None)
            .expect("a body built in memory fits its layout and needs no check")
    }

    /// Words `at..at + n` of the body, once their blocks are known intact.
    #[inline]
    fn read(&self, at: usize, n: usize) -> Result<&[u64], BlockError> {
        let words = self.backing.words();
        let end = at
            .checked_add(n)
            .filter(|&e| e <= self.body)
            .ok_or(BlockError::Index)?;
        if let Some(c) = &self.check {
            c.check(words, at, end)?;
        }
        Ok(&words[at..end])
    }

    /// The radix root's entries `b` and `b + 1`.
    #[inline]
    fn root_pair(&self, b: usize) -> Result<(usize, usize), BlockError> {
        // An even `b` shares its word with `b + 1`; an odd one needs the next word too.
        let w = self.read(self.root + b / 2, 1 + b % 2)?;
        let entry = |j: usize| (w[j / 2 - b / 2] >> (32 * (j % 2))) as u32 as usize;
        Ok((entry(b), entry(b + 1)))
    }

    /// The position of `key` among the sorted keys, through the radix root.
    #[inline]
    pub fn position(&self, key: u64) -> Result<Option<usize>, BlockError> {
        if self.len == 0 || key < self.min_key {
            return Ok(None);
        }
        let b = (((key - self.min_key) as u128 * self.scale as u128) >> 64) as usize;
        if b + 1 >= self.blocks + 2 {
            return Ok(None);
        }
        let (first, next) = self.root_pair(b)?;
        // The key's block is the last one whose first key <= key: it starts at or before
        // the first block of the key's bucket (minus one) and before the next bucket's.
        let lo = first.saturating_sub(1);
        let hi = next.max(lo + 1);
        if hi > self.blocks {
            return Err(BlockError::Index);
        }
        if hi - lo <= 2 {
            // One or two candidate blocks: search them for the key itself without reading
            // a separator first; their loads do not depend on each other, so they overlap.
            let first = self.leaf_find(lo, key)?;
            return if hi - lo == 2 && first.is_none() {
                self.leaf_find(lo + 1, key)
            } else {
                Ok(first)
            };
        }
        // A crowded bucket: binary search over its separators.
        let seps = self.read(self.levels[self.depth - 1].0 + lo + 1, hi - lo - 1)?;
        let node = lo + seps.partition_point(|&s| s <= key);
        self.leaf_find(node, key)
    }

    /// The position of `key` in leaf block `node`, if it is there.
    #[inline]
    fn leaf_find(&self, node: usize, key: u64) -> Result<Option<usize>, BlockError> {
        let at = self.keys + node * LEAF;
        // The block's values share one or two cache lines: fetch them while the keys are
        // searched, so a hit costs no extra dependent miss.
        if let Some(v) = self
            .backing
            .words()
            .get(self.values + node * LEAF * self.value_bytes / 8)
        {
            prefetch(v);
        }
        let block: &[u64; LEAF] = self
            .read(at, LEAF)?
            .try_into()
            .map_err(|_| BlockError::Index)?;
        // A vectorised count of smaller keys: few instructions, so that the loads of
        // several probes can be in flight at once.
        let lt = block.iter().map(|&k| (k < key) as usize).sum::<usize>();
        let i = node * LEAF + lt;
        Ok((lt < LEAF && block[lt] == key && i < self.len).then_some(i))
    }

    /// The position of `key` among the sorted keys, through the separator levels (the
    /// classic B-tree descent; kept for comparison).
    #[inline]
    pub fn position_by_levels(&self, key: u64) -> Result<Option<usize>, BlockError> {
        if self.len == 0 {
            return Ok(None);
        }
        // Top-down: in each node, the last separator <= key names the child.
        let mut node = 0usize;
        for &(off, _) in &self.levels[..self.depth] {
            let keys = self.read(off + node * FANOUT, FANOUT)?;
            let le = keys.iter().filter(|&&k| k <= key).count();
            if le == 0 {
                return Ok(None);
            }
            node = node * FANOUT + le - 1;
        }
        self.leaf_find(node, key)
    }

    /// The value stored at a position.
    #[inline]
    pub fn value_at(&self, i: usize) -> Result<u32, BlockError> {
        if i >= self.len {
            return Err(BlockError::Index);
        }
        let bit = i * self.value_bytes * 8;
        let word = self.read(self.values + bit / 64, 1)?[0] >> (bit % 64);
        Ok(if self.value_bytes == 2 {
            word as u16 as u32
        } else {
            word as u32
        })
    }

    /// The key at a position.
    #[inline]
    pub fn key_at(&self, i: usize) -> Result<u64, BlockError> {
        if i >= self.len {
            return Err(BlockError::Index);
        }
        Ok(self.read(self.keys + i, 1)?[0])
    }

    /// Every (key, value) in key order; a damaged block ends the walk with its error.
    pub fn iter(&self) -> impl Iterator<Item = Result<(u64, u32), BlockError>> + '_ {
        (0..self.len).map(|i| Ok((self.key_at(i)?, self.value_at(i)?)))
    }

    /// Checks every block of a mapped body now (a body in memory needs none).
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<(), BlockError> {
        match &self.check {
            Some(c) => c.verify_all(self.backing.words(), progress),
            None => Ok(()),
        }
    }

    /// The first damaged block a read ran into, if any.
    pub fn first_damage(&self) -> Option<BlockError> {
        self.check.as_ref().and_then(BlockCheck::first_damage)
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the tree holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of the body proper.
    pub fn bytes(&self) -> usize {
        self.body * 8
    }

    /// Checked blocks of the body (0 for a body in memory).
    pub fn checked_blocks(&self) -> usize {
        self.check.as_ref().map_or(0, BlockCheck::blocks)
    }
}
