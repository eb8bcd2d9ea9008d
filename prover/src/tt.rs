//! The solver's transposition table, bounded in memory: full position keys (a hit is never
//! another position), two slots in a 64-byte bucket (one cache line, one miss a probe), the
//! slot with less search behind it replaced, on huge pages where the system allows.

/// The system would not give the memory asked for a table.
#[derive(Debug, thiserror::Error)]
#[error("the system cannot give a transposition table of {mib} MiB; ask for less (--memory)")]
pub struct TableTooLarge {
    /// The size asked for.
    pub mib: usize,
}

/// A position as the table and the files know it: two words the game packs the position
/// into ([`crate::ProverPosition::raw_key`]) and the side to move (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The position's first word.
    pub a: u64,
    /// The position's second word.
    pub b: u64,
    /// 0 the first side to move, 1 the second.
    pub side: u8,
}

impl Key {
    /// A strong mix of the three fields.
    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.a.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.b.rotate_left(31).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (self.side as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }
}

/// The hasher of maps keyed by [`Key`] (a search's path, a listing's index): the key's
/// words are already well mixed positions, so a multiply and a shift spread them enough,
/// at a fraction of the default hasher's cost.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BuildMix;

/// The state of [`BuildMix`]'s hasher.
#[derive(Default)]
pub(crate) struct Mix(u64);

impl std::hash::BuildHasher for BuildMix {
    type Hasher = Mix;
    fn build_hasher(&self) -> Mix {
        Mix(0)
    }
}

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(23) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
}

/// `meta`'s top two bits: 0 an empty slot, 1 the first side to move, 2 the second.
const SIDE_SHIFT: u32 = 30;
/// `meta`'s low 30 bits: the work behind the entry, saturated.
const WORK_MASK: u32 = (1 << SIDE_SHIFT) - 1;

#[derive(Clone, Copy)]
struct Slot<V> {
    a: u64,
    b: u64,
    meta: u32,
    value: V,
}

impl<V> Slot<V> {
    #[inline]
    fn holds(&self, key: &Key) -> bool {
        self.a == key.a && self.b == key.b && self.meta >> SIDE_SHIFT == key.side as u32 + 1
    }

    #[inline]
    fn work(&self) -> u32 {
        self.meta & WORK_MASK
    }

    #[inline]
    fn key(&self) -> Option<Key> {
        match self.meta >> SIDE_SHIFT {
            0 => None,
            s => Some(Key {
                a: self.a,
                b: self.b,
                side: (s - 1) as u8,
            }),
        }
    }
}

/// Two slots on one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket<V> {
    slots: [Slot<V>; 2],
}

/// A fixed-size table from [`Key`] to `V`; storing never allocates.
pub struct Table<V> {
    buckets: Vec<Bucket<V>>,
    /// `len - 1` when the bucket count is a power of two (a mask then picks the bucket,
    /// as it always did), else 0.
    mask: usize,
    used: usize,
}

impl<V> std::fmt::Debug for Table<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("buckets", &self.buckets.len())
            .field("used", &self.used)
            .finish_non_exhaustive()
    }
}

impl<V: Copy + Default> Table<V> {
    /// A table of at most `bytes` bytes (at least one bucket). Any bucket count works (a
    /// count that is no power of two maps the hash by a multiply), so all of `--memory`
    /// is used. An error, not an abort, when the system cannot give them.
    pub fn with_bytes(bytes: usize) -> Result<Table<V>, TableTooLarge> {
        let size = std::mem::size_of::<Bucket<V>>();
        let n = (bytes / size).max(1);
        let empty = Slot {
            a: 0,
            b: 0,
            meta: 0,
            value: V::default(),
        };
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| TableTooLarge {
            mib: (n * size) >> 20,
        })?;
        quasar_core::memory::advise_huge_pages(buckets.as_ptr(), n);
        buckets.resize(n, Bucket { slots: [empty; 2] });
        let mask = if n.is_power_of_two() { n - 1 } else { 0 };
        Ok(Table {
            buckets,
            mask,
            used: 0,
        })
    }

    /// Bytes the slots occupy.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket<V>>()
    }

    /// Slots in use.
    pub fn used(&self) -> usize {
        self.used
    }

    #[inline]
    fn bucket_of(&self, key: &Key) -> usize {
        let h = key.hash();
        if self.mask != 0 || self.buckets.len() == 1 {
            h as usize & self.mask
        } else {
            // The high half of hash * n is uniform on 0..n (Lemire's multiply-shift).
            ((h as u128 * self.buckets.len() as u128) >> 64) as usize
        }
    }

    /// Asks the processor to fetch `key`'s bucket, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, key: &Key) {
        quasar_core::prefetch::prefetch(&self.buckets[self.bucket_of(key)]);
    }

    /// The value stored for `key`.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<V> {
        let b = &self.buckets[self.bucket_of(key)];
        b.slots.iter().find(|s| s.holds(key)).map(|s| s.value)
    }

    /// Stores `value` for `key`; `work` (the nodes spent on it) decides which of a full
    /// bucket's two entries goes: the cheaper one to recompute. A stored key keeps the
    /// larger of its old and new work.
    #[inline]
    pub fn put(&mut self, key: Key, value: V, work: u32) {
        self.store(key, work, false, |_| value);
    }

    /// Stores `value` for `key` as [`Table::put`] does, but a stored key adds `work` to
    /// its old work: for a search that visits a position many times (df-pn), each visit
    /// reporting only its own nodes.
    #[inline]
    pub fn add(&mut self, key: Key, value: V, work: u32) {
        self.store(key, work, true, |_| value);
    }

    /// [`Table::add`] of the value `update` makes from the one stored now (None when the
    /// key is not stored): for a search whose entry may have changed since it read it,
    /// at no extra probe.
    #[inline]
    pub fn add_with(&mut self, key: Key, work: u32, update: impl FnOnce(Option<V>) -> V) {
        self.store(key, work, true, update);
    }

    #[inline]
    fn store(&mut self, key: Key, work: u32, add: bool, update: impl FnOnce(Option<V>) -> V) {
        let i = self.bucket_of(&key);
        let pair = &mut self.buckets[i].slots;
        let j = if pair[0].holds(&key) {
            0
        } else if pair[1].holds(&key) {
            1
        } else if pair[0].meta == 0 {
            self.used += 1;
            0
        } else if pair[1].meta == 0 {
            self.used += 1;
            1
        } else if pair[0].work() <= pair[1].work() {
            0
        } else {
            1
        };
        let s = &mut pair[j];
        let work = work.min(WORK_MASK);
        let work = if s.holds(&key) && add {
            s.work().saturating_add(work).min(WORK_MASK)
        } else if s.holds(&key) {
            s.work().max(work)
        } else {
            work
        };
        s.value = update(s.holds(&key).then_some(s.value));
        s.a = key.a;
        s.b = key.b;
        s.meta = (key.side as u32 + 1) << SIDE_SHIFT | work;
    }

    /// Empties every slot whose value `keep` refuses.
    pub fn retain(&mut self, keep: impl Fn(&V) -> bool) {
        for s in self.buckets.iter_mut().flat_map(|b| b.slots.iter_mut()) {
            if s.meta != 0 && !keep(&s.value) {
                s.meta = 0;
                self.used -= 1;
            }
        }
    }

    /// Every entry with the work behind it, in table order.
    pub fn entries_with_work(&self) -> impl Iterator<Item = (Key, V, u32)> + '_ {
        self.buckets
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter_map(|s| s.key().map(|k| (k, s.value, s.work())))
    }

    /// Every entry, in table order.
    pub fn entries(&self) -> impl Iterator<Item = (Key, V)> + '_ {
        self.buckets
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter_map(|s| s.key().map(|k| (k, s.value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_finds_and_replaces_the_cheaper_entry() {
        let mut t: Table<u32> = Table::with_bytes(128).unwrap();
        assert_eq!(t.bytes(), 128);
        let k = |w: u64| Key {
            a: w,
            b: 1,
            side: 0,
        };
        t.put(k(5), 7, 10);
        assert_eq!(t.get(&k(5)), Some(7));
        assert_eq!(t.get(&Key { side: 1, ..k(5) }), None);
        // Fill both buckets' slots, then one more: the cheapest of its bucket goes.
        let mut keys = vec![k(5)];
        let mut w = 6;
        while t.used() < 4 {
            t.put(k(w), w as u32, 100 + w as u32);
            keys.push(k(w));
            w += 1;
        }
        assert!(keys.iter().all(|key| t.get(key).is_some()));
        assert_eq!(t.entries().count(), 4);
        let bucket_of_5 = t.bucket_of(&k(5));
        let mut other = w;
        while t.bucket_of(&k(other)) != bucket_of_5 {
            other += 1;
        }
        t.put(k(other), 1, 50);
        assert_eq!(
            t.get(&k(5)),
            None,
            "the entry of work 10 was the cheaper one"
        );
        assert_eq!(t.get(&k(other)), Some(1));
        assert_eq!(t.used(), 4);
    }

    #[test]
    fn any_size_is_used_whole_and_add_totals_the_work() {
        // Three buckets: not a power of two, every one reachable.
        let mut t: Table<u32> = Table::with_bytes(3 * 64 + 10).unwrap();
        assert_eq!(t.bytes(), 3 * 64);
        let k = |w: u64| Key {
            a: w,
            b: 1 << 40,
            side: 1,
        };
        let mut seen = [false; 3];
        for w in 0..200 {
            seen[t.bucket_of(&k(w))] = true;
        }
        assert_eq!(seen, [true; 3]);
        // put keeps the larger work of two visits, add their total.
        t.put(k(1), 0, 30);
        t.put(k(1), 0, 20);
        t.add(k(2), 0, 30);
        t.add(k(2), 0, 20);
        let work = |key: Key| {
            t.entries_with_work()
                .find(|e| e.0 == key)
                .map(|e| e.2)
                .unwrap()
        };
        assert_eq!(work(k(1)), 30);
        assert_eq!(work(k(2)), 50);
    }

    #[test]
    fn retain_empties_exactly_the_refused_slots() {
        let mut t: Table<u32> = Table::with_bytes(64 << 10).unwrap();
        let k = |w: u64| Key {
            a: w,
            b: 7,
            side: (w % 2) as u8,
        };
        for w in 0..300 {
            t.put(k(w), w as u32, 1);
        }
        let kept: Vec<u64> = (0..300).filter(|w| t.get(&k(*w)).is_some()).collect();
        t.retain(|v| v % 3 == 0);
        for w in 0..300 {
            let want = kept.contains(&w) && w % 3 == 0;
            assert_eq!(t.get(&k(w)).is_some(), want, "key {w}");
        }
        assert_eq!(t.used(), t.entries().count());
        assert_eq!(t.used(), kept.iter().filter(|w| *w % 3 == 0).count());
        // An emptied slot takes a new entry.
        t.put(k(1), 1, 1);
        assert_eq!(t.get(&k(1)), Some(1));
    }
}
