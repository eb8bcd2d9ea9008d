//! Other lookup backends, for the benchmark against the static B-tree: a hash map, a
//! pointer B-tree map, and an Eytzinger (breadth-first) layout with prefetch.

use super::{Corrupt, Lookup};
use quasar_core::prefetch::prefetch;

/// `hashbrown::HashMap` from key to value.
#[derive(Debug, Default)]
pub struct HashBackend(pub hashbrown::HashMap<u64, u32>);

impl HashBackend {
    /// Built from entries.
    pub fn from_entries(entries: &[(u64, u32)]) -> HashBackend {
        let mut m = hashbrown::HashMap::with_capacity(entries.len());
        m.extend(entries.iter().copied());
        HashBackend(m)
    }
}

impl Lookup for HashBackend {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        Ok(self.0.get(&key).copied())
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn bytes(&self) -> usize {
        // Buckets of (u64, u32) padded to 16 bytes plus one control byte each.
        self.0.capacity() * 17
    }
    fn name(&self) -> &'static str {
        "hashbrown"
    }
}

/// `btree_slab::BTreeMap` (a B-tree in a slab, like the thesis' Google B-tree).
#[derive(Default)]
pub struct SlabBTreeBackend(pub btree_slab::BTreeMap<u64, u32>);

impl std::fmt::Debug for SlabBTreeBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The map's own `Debug` would print every entry.
        write!(f, "SlabBTreeBackend({} entries)", self.0.len())
    }
}

impl SlabBTreeBackend {
    /// Built from entries.
    pub fn from_entries(entries: &[(u64, u32)]) -> SlabBTreeBackend {
        let mut m = btree_slab::BTreeMap::new();
        for &(k, v) in entries {
            m.insert(k, v);
        }
        SlabBTreeBackend(m)
    }
}

impl Lookup for SlabBTreeBackend {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        Ok(self.0.get(&key).copied())
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn bytes(&self) -> usize {
        0 // measured from the process' resident memory by the benchmark
    }
    fn name(&self) -> &'static str {
        "btree_slab"
    }
}

/// Keys in Eytzinger (breadth-first) order with a parallel value array: a branch-free
/// binary search whose next levels are prefetched together.
#[derive(Debug, Default)]
pub struct EytzingerBackend {
    keys: Vec<u64>,
    values: Vec<u16>,
}

impl EytzingerBackend {
    /// Built from sorted entries (values must fit 16 bits).
    pub fn from_entries(entries: &[(u64, u32)]) -> EytzingerBackend {
        let n = entries.len();
        let mut keys = vec![u64::MAX; n + 1];
        let mut values = vec![0u16; n + 1];
        fn fill(
            e: &[(u64, u32)],
            keys: &mut [u64],
            values: &mut [u16],
            next: &mut usize,
            k: usize,
        ) {
            // Iterative in-order walk of the implicit tree to avoid deep recursion.
            let mut stack = Vec::new();
            let mut node = k;
            loop {
                while node < keys.len() {
                    stack.push(node);
                    node *= 2;
                }
                let Some(top) = stack.pop() else { return };
                keys[top] = e[*next].0;
                values[top] = e[*next].1 as u16;
                *next += 1;
                node = top * 2 + 1;
            }
        }
        let mut next = 0;
        fill(entries, &mut keys, &mut values, &mut next, 1);
        EytzingerBackend { keys, values }
    }
}

impl Lookup for EytzingerBackend {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        let n = self.keys.len();
        let mut k = 1usize;
        while k < n {
            // Four levels ahead is one cache line of 8 keys: fetch it early.
            if let Some(ahead) = self.keys.get(16 * k) {
                prefetch(ahead);
            }
            k = 2 * k + (self.keys[k] < key) as usize;
        }
        // Undo the trailing right turns plus one left turn.
        k >>= k.trailing_ones() + 1;
        Ok((k != 0 && self.keys[k] == key).then(|| self.values[k] as u32))
    }
    fn len(&self) -> usize {
        self.keys.len() - 1
    }
    fn bytes(&self) -> usize {
        self.keys.len() * 10
    }
    fn name(&self) -> &'static str {
        "eytzinger"
    }
}
