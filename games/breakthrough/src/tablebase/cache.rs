//! A small direct-mapped cache of table answers (a configuration's depth, or "not
//! stored") in front of the table, so that playouts, which meet the same few region
//! configurations again and again, rarely pay a lookup in a file of hundreds of MB.

use crate::tablebase::region::{Config, Region};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the default cache: 2^16 (512 KiB, it stays in the second-level cache).
pub const DEFAULT_SLOTS_LOG2: u32 = 16;

/// The tag of a configuration the table does not hold.
const NOT_STORED: u64 = 0xFF;

/// Bits of a slot above the tag.
const KEY_BITS: u32 = 56;

/// Cached depths by region configuration. A slot is one `u64` (the packed configuration
/// above an 8-bit tag), read and written with relaxed atomics: threads share the cache
/// without locks and a slot is never torn, so every answer is exactly the table's.
pub struct DepthCache {
    slots: Box<[AtomicU64]>,
    /// `64 - log2(slots)`: the multiplicative hash keeps the top bits.
    shift: u32,
    width: u32,
    /// Bits of White's part of a packed configuration (`(n - 2) * W`).
    white_bits: u32,
}

impl fmt::Debug for DepthCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DepthCache({} slots)", self.slots.len())
    }
}

impl DepthCache {
    /// A cache of `2^slots_log2` slots for `region`, or `None` when a packed configuration
    /// (`(2n - 3) * W` bits) does not fit beside the tag.
    pub fn new(region: &Region, slots_log2: u32) -> Option<DepthCache> {
        let (n, w) = (region.rows(), region.width());
        if (2 * n - 3) * w > KEY_BITS || !(1..=30).contains(&slots_log2) {
            return None;
        }
        Some(DepthCache {
            slots: (0..1usize << slots_log2)
                .map(|_| AtomicU64::new(0))
                .collect(),
            shift: 64 - slots_log2,
            width: w,
            white_bits: (n - 2) * w,
        })
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when the cache has no slots (never: a cache has at least two).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The configuration as one exact integer: White's rows `R..H-3` below Black's rows
    /// `R+1..H`. `c` has no White piece on row `H-1` (those are wins in one, never looked
    /// up) and at least one White piece, so the result is never 0, the empty slot.
    #[inline]
    fn pack(&self, c: Config) -> u64 {
        debug_assert!(c.white >> self.white_bits == 0 && c.white != 0);
        c.white | ((c.black >> self.width) << self.white_bits)
    }

    #[inline]
    fn slot(&self, packed: u64) -> &AtomicU64 {
        let i = packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift;
        // The shift leaves at most log2(len) bits, so `i` is in range.
        &self.slots[i as usize]
    }

    /// The cached answer for `c`: `Some(Some(depth))`, `Some(None)` (not stored), or
    /// `None` when `c` is not in the cache.
    #[inline]
    pub fn get(&self, c: Config) -> Option<Option<u32>> {
        let packed = self.pack(c);
        let v = self.slot(packed).load(Ordering::Relaxed);
        if v >> 8 != packed {
            return None;
        }
        Some(match v & 0xFF {
            NOT_STORED => None,
            d => Some(d as u32),
        })
    }

    /// Remembers the table's answer for `c` (replacing whatever shared its slot).
    #[inline]
    pub fn put(&self, c: Config, depth: Option<u32>) {
        let tag = match depth {
            Some(d) if (d as u64) < NOT_STORED => d as u64,
            Some(_) => return,
            None => NOT_STORED,
        };
        let packed = self.pack(c);
        self.slot(packed)
            .store((packed << 8) | tag, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn answers_only_what_was_put_and_keeps_not_stored_apart() {
        let region = Region::new(Board::new(6, 6).unwrap(), 4).unwrap();
        // Tiny, so that configurations collide.
        let cache = DepthCache::new(&region, 2).unwrap();
        assert_eq!(cache.len(), 4);
        let a = Config {
            white: 0b1,
            black: 0b11 << 6,
        };
        let b = Config {
            white: 0b10,
            black: 0b11 << 6,
        };
        assert_eq!(cache.get(a), None);
        cache.put(a, Some(3));
        assert_eq!(cache.get(a), Some(Some(3)));
        assert_eq!(cache.get(b), None);
        cache.put(b, None);
        assert_eq!(cache.get(b), Some(None));
        // Every configuration of White on one cell and Black on another: each answer read
        // back is the one put for that configuration, or nothing after a collision.
        let mut configs = Vec::new();
        for wc in 0..12u32 {
            for bc in 6..24u32 {
                configs.push(Config {
                    white: 1 << wc,
                    black: 1 << bc,
                });
            }
        }
        for (i, &c) in configs.iter().enumerate() {
            cache.put(c, (i % 3 != 0).then_some(i as u32 % 7 + 1));
            for (j, &d) in configs[..=i].iter().enumerate() {
                if let Some(got) = cache.get(d) {
                    assert_eq!(got, (j % 3 != 0).then_some(j as u32 % 7 + 1));
                }
            }
        }
    }

    #[test]
    fn packs_only_when_the_configuration_fits_beside_the_tag() {
        let board = Board::new(8, 8).unwrap();
        // 8x8 with 4 rows: (2*4 - 3) * 8 = 40 bits; with 5 rows 56; 7x9 with 5 rows 49.
        assert!(DepthCache::new(&Region::new(board, 4).unwrap(), 16).is_some());
        assert!(DepthCache::new(&Region::new(board, 5).unwrap(), 16).is_some());
        let tall = Board::new(4, 16).unwrap();
        // 4 x 10 = 40 cells: (20 - 3) * 4 = 68 bits, too many.
        assert!(DepthCache::new(&Region::new(tall, 10).unwrap(), 16).is_none());
        assert!(DepthCache::new(&Region::new(board, 4).unwrap(), 0).is_none());
    }
}
