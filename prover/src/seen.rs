//! The positions a proof writer has already written, as 64-bit hashes with the bound each
//! was written with: open addressing in 256 shards that grow one at a time, about 10-11
//! bytes a position, instead of a map of whole records.
//!
//! Two positions with the same hash look like one: the second is then never written, its
//! parent's check finds no record for it, and the checker refuses the proof. A collision
//! can cost a proof, never make a wrong one pass (at 300 M positions the chance is about
//! 1 in 400).

/// Bits of the hash that pick the shard (the rest are stored).
const SHARD_BITS: u32 = 8;
/// Slots of a new shard.
const MIN_SLOTS: usize = 64;

/// One shard: a slot holds `hash << SHARD_BITS | bound`, 0 when empty (bounds are >= 1).
#[derive(Default)]
struct Shard {
    slots: Vec<u64>,
    used: usize,
}

impl Shard {
    /// The slot holding `tag`, or the empty slot where it would go.
    #[inline]
    fn slot_of(&self, tag: u64) -> usize {
        let n = self.slots.len();
        let mut i = ((tag as u128 * n as u128) >> 64) as usize;
        loop {
            let s = self.slots[i];
            if s == 0 || s & !0xFF == tag {
                return i;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Grows to 5/4 of the slots (at least [`MIN_SLOTS`]), so the load stays in 0.64-0.8.
    fn grow(&mut self) {
        let n = (self.slots.len() + self.slots.len() / 4).max(MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![0; n]);
        for s in old.into_iter().filter(|&s| s != 0) {
            let i = self.slot_of(s & !0xFF);
            self.slots[i] = s;
        }
    }
}

/// A set of position hashes, each with the least bound it was written with.
pub struct Seen {
    shards: Vec<Shard>,
    len: u64,
}

impl std::fmt::Debug for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seen")
            .field("shards", &self.shards.len())
            .field("len", &self.len)
            .finish()
    }
}

impl Default for Seen {
    fn default() -> Self {
        Seen::new()
    }
}

impl Seen {
    /// An empty set.
    pub fn new() -> Seen {
        Seen {
            shards: (0..1 << SHARD_BITS).map(|_| Shard::default()).collect(),
            len: 0,
        }
    }

    /// The shard and tag of `hash`.
    #[inline]
    fn split(hash: u64) -> (usize, u64) {
        ((hash >> (64 - SHARD_BITS)) as usize, hash << SHARD_BITS)
    }

    /// The bound `hash` was stored with, if it was.
    #[inline]
    pub fn bound(&self, hash: u64) -> Option<u8> {
        let (s, tag) = Seen::split(hash);
        let shard = &self.shards[s];
        if shard.slots.is_empty() {
            return None;
        }
        let v = shard.slots[shard.slot_of(tag)];
        (v != 0).then_some(v as u8)
    }

    /// Stores `hash` with `bound` (at least 1), or lowers its stored bound to `bound`.
    pub fn set(&mut self, hash: u64, bound: u8) {
        let bound = bound.max(1);
        let (s, tag) = Seen::split(hash);
        let shard = &mut self.shards[s];
        if (shard.used + 1) * 5 > shard.slots.len() * 4 {
            shard.grow();
        }
        let i = shard.slot_of(tag);
        let v = shard.slots[i];
        if v == 0 {
            shard.used += 1;
            self.len += 1;
            shard.slots[i] = tag | bound as u64;
        } else if bound < v as u8 {
            shard.slots[i] = tag | bound as u64;
        }
    }

    /// Positions stored.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of the slots.
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.slots.len() * 8).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_lowers_and_grows_like_a_map() {
        let mut seen = Seen::new();
        let mut map = std::collections::HashMap::new();
        let mut keys = Vec::new();
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x ^ (x >> 29)
        };
        for i in 0..200_000u64 {
            let r = next();
            // Every fourth key repeats an earlier one, with a random bound.
            let h = if i % 4 == 3 {
                keys[r as usize % keys.len()]
            } else {
                r
            };
            keys.push(h);
            let b = (r >> 59) as u8 + 1;
            seen.set(h, b);
            let e = map.entry(h).or_insert(b);
            *e = (*e).min(b);
        }
        assert_eq!(seen.len(), map.len() as u64);
        for (&h, &b) in &map {
            assert_eq!(seen.bound(h), Some(b));
        }
        for _ in 0..1000 {
            let h = next();
            assert_eq!(seen.bound(h), map.get(&h).copied());
        }
        // Between 8 and 13 bytes a position once it is large.
        let per = seen.bytes() as f64 / seen.len() as f64;
        assert!((8.0..13.0).contains(&per), "{per}");
    }
}
