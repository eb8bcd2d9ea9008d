//! The solver's transposition table, bounded in memory: full position keys (a hit is never
//! another position), two slots a bucket, the slot with less search behind it replaced.

/// A position as the table knows it: both piece sets and the side to move (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// 0 White to move, 1 Black to move; [`Key::EMPTY_SIDE`] marks an empty slot.
    pub side: u8,
}

impl Key {
    /// The side value of an empty slot.
    pub const EMPTY_SIDE: u8 = 2;

    /// A strong mix of the three fields.
    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .black
                .rotate_left(31)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (self.side as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }
}

#[derive(Clone, Copy)]
struct Slot<V> {
    key: Key,
    work: u32,
    value: V,
}

/// A fixed-size table from [`Key`] to `V`; storing never allocates.
pub struct Table<V> {
    slots: Vec<Slot<V>>,
    buckets_mask: usize,
    used: usize,
}

impl<V: Copy + Default> Table<V> {
    /// A table of at most `bytes` bytes (at least one bucket; a power of two of buckets).
    pub fn with_bytes(bytes: usize) -> Table<V> {
        let slot = std::mem::size_of::<Slot<V>>();
        let mut buckets = 1usize;
        while buckets * 2 * 2 * slot <= bytes {
            buckets *= 2;
        }
        let empty = Slot {
            key: Key {
                white: 0,
                black: 0,
                side: Key::EMPTY_SIDE,
            },
            work: 0,
            value: V::default(),
        };
        Table {
            slots: vec![empty; buckets * 2],
            buckets_mask: buckets - 1,
            used: 0,
        }
    }

    /// Bytes the slots occupy.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<V>>()
    }

    /// Slots in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The value stored for `key`.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<V> {
        let i = (key.hash() as usize & self.buckets_mask) * 2;
        self.slots[i..i + 2]
            .iter()
            .find(|s| s.key == *key)
            .map(|s| s.value)
    }

    /// Stores `value` for `key`; `work` (the nodes spent on it) decides which of a full
    /// bucket's two entries goes: the cheaper one to recompute.
    #[inline]
    pub fn put(&mut self, key: Key, value: V, work: u32) {
        let i = (key.hash() as usize & self.buckets_mask) * 2;
        let pair = &mut self.slots[i..i + 2];
        let j = if pair[0].key == key {
            0
        } else if pair[1].key == key {
            1
        } else if pair[0].key.side == Key::EMPTY_SIDE {
            self.used += 1;
            0
        } else if pair[1].key.side == Key::EMPTY_SIDE {
            self.used += 1;
            1
        } else if pair[0].work <= pair[1].work {
            0
        } else {
            1
        };
        let s = &mut pair[j];
        if s.key == key {
            s.work = s.work.max(work);
        } else {
            s.key = key;
            s.work = work;
        }
        s.value = value;
    }
}
