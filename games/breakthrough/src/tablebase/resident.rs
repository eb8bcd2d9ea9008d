//! A small sliced table's packed depths copied into one block of memory, asked for in huge
//! pages: a probe then reads one byte at an offset. Through the slice files a probe follows
//! the slice's lazily opened map (a few dependent reads) into one of thousands of 4 KiB
//! pages (6x6 with 4 rows: 2,081 slices, 19 MB), so nearly every read also misses the TLB.

use crate::tablebase::region::{wins_at_depth_two, Config};
use crate::tablebase::slices::{Rows, Slicing};
use crate::tablebase::store::{Corrupt, SlicedTable};
use std::fmt;

/// Tables whose stored slices take more than this stay in their files (8x8 with 4 rows
/// takes 18 GB).
pub const RESIDENT_MAX_BYTES: usize = 256 << 20;

/// Huge pages are 2 MiB: the copy starts on such a boundary.
const HUGE_PAGE: usize = 2 << 20;

/// Configurations a slice may hold here: below `2^24` the reciprocal division is exact
/// and its product fits 64 bits (8x8 with 4 rows has 1.7 M a slice).
const MAX_INDEX: u64 = 1 << 24;

/// Offset of a slice not built.
const MISSING: u32 = u32::MAX;
/// Offset of a damaged slice.
const DAMAGED: u32 = u32::MAX - 1;
/// Set in a slot when its slice is the mirror image of the stored one (offsets stay below
/// [`RESIDENT_MAX_BYTES`], far below this bit, so a mirrored slot is never taken for
/// [`MISSING`] or [`DAMAGED`]).
const MIRRORED: u32 = 1 << 31;

/// The packed depths of every stored slice, one after the other.
pub struct Resident {
    slicing: Slicing,
    memory: memmap2::MmapMut,
    /// Where the first slice starts in `memory` (the first huge-page boundary).
    base: usize,
    /// Bytes of the copied depths.
    len: usize,
    /// By slice number, stored member or not: the byte offset from `base` of the stored
    /// member's depths, with [`MIRRORED`] when the slice is the mirror image of it (so a
    /// probe finds both with one read and no canonical test), or [`MISSING`] or
    /// [`DAMAGED`].
    slots: Box<[u32]>,
    /// By shared row pair (`white | black << W`): its base-3 digit, and in the high half
    /// its mirror image's (a table of one 0 with 3 rows).
    pairs: Box<[u32]>,
    /// A row pattern with its columns reversed.
    reverse: Box<[u8]>,
    width: u32,
    /// One bit a configuration (see [`bits_suffice`]) instead of the packed digits.
    bits: bool,
    /// `decode[byte][k]`: the `k`-th depth of a packed byte (already `+ 2`).
    decode: Box<[[u8; 8]; 256]>,
    per_byte: u32,
    /// `ceil(2^40 / per_byte)`: `idx / per_byte` is `(idx * recip) >> 40` for every index
    /// below [`MAX_INDEX`].
    recip: u64,
}

impl fmt::Debug for Resident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resident({} bytes)", self.memory.len() - self.base)
    }
}

/// Whether one bit a configuration holds what a probe needs of `s`'s depths: with the
/// region's lowest row `R = 3` a sound claim is of depth at most 3, depth 2 is read from the
/// rows (`wins_at_depth_two`), and all deeper wins are stored as the cap, so "depth at most
/// 3" tells the three stored values apart (6x6 with 4 rows: 12.1 MB instead of 19.4).
pub fn bits_suffice(s: &Slicing) -> bool {
    s.states() == 3
}

/// Bytes of one slice in the copy.
pub fn copied_bytes_per_slice(s: &Slicing) -> usize {
    if bits_suffice(s) {
        s.per_slice().div_ceil(8) as usize
    } else {
        s.bytes_per_slice()
    }
}

impl Resident {
    /// A copy of `table`'s built slices (each opened and checked now; a damaged one is
    /// remembered as such), or `None` when they would take more than
    /// [`RESIDENT_MAX_BYTES`] or the memory cannot be had.
    pub fn load(table: &SlicedTable) -> Option<Resident> {
        let s = table.slicing();
        let per_slice = copied_bytes_per_slice(s);
        let bits = bits_suffice(s);
        let stored: Vec<u32> = (0..s.slices()).filter(|&id| s.is_canonical(id)).collect();
        if stored.len().checked_mul(per_slice)? > RESIDENT_MAX_BYTES || s.per_slice() > MAX_INDEX {
            return None;
        }
        let mut slots = vec![MISSING; s.slices() as usize].into_boxed_slice();
        let mut present = Vec::new();
        for &id in &stored {
            match table.slice_bytes(id) {
                Ok(Some(bytes)) => present.push((id, bytes)),
                Ok(None) => {}
                Err(_) => slots[id as usize] = DAMAGED,
            }
        }
        let len = present.len() * per_slice;
        let mut memory = memmap2::MmapMut::map_anon(len + HUGE_PAGE).ok()?;
        let base = memory.as_ptr().align_offset(HUGE_PAGE).min(HUGE_PAGE);
        #[cfg(target_os = "linux")]
        {
            // A hint only: without huge pages the copy still answers, a little slower.
            let _ = memory.advise_range(memmap2::Advice::HugePage, base, len);
        }
        let decode = s.decode_table();
        let within: Vec<u8> = decode
            .iter()
            .map(|digits| {
                let set = digits.iter().take(s.per_byte() as usize).enumerate();
                set.fold(0, |m, (k, &d)| m | (u8::from(d <= 3) << k))
            })
            .collect();
        for (k, (id, bytes)) in present.into_iter().enumerate() {
            let at = k * per_slice;
            let out = &mut memory[base + at..base + at + per_slice];
            if bits {
                // Bit `idx` set when the depth is at most 3 (2 or 3, the rows tell which):
                // each packed byte's digits become `per_byte` bits, by a table.
                let per_byte = s.per_byte();
                let (mut acc, mut held, mut next) = (0u64, 0, 0);
                for &b in bytes {
                    acc |= u64::from(within[b as usize]) << held;
                    held += per_byte;
                    while held >= 8 {
                        out[next] = acc as u8;
                        (acc, held, next) = (acc >> 8, held - 8, next + 1);
                    }
                }
                if next < out.len() {
                    // The last byte's bits beyond the slice's configurations stay 0.
                    out[next] = acc as u8 & ((1u16 << (s.per_slice() % 8)) - 1) as u8;
                }
            } else {
                out.copy_from_slice(bytes);
            }
            slots[id as usize] = at as u32;
        }
        // The other member of each pair points at the stored one's depths, mirrored.
        for id in (0..s.slices()).filter(|&id| !s.is_canonical(id)) {
            slots[id as usize] = match slots[s.mirror_slice(id) as usize] {
                at @ (MISSING | DAMAGED) => at,
                at => at | MIRRORED,
            };
        }
        let w = s.region().width();
        let reverse: Box<[u8]> = (0..1u32 << w)
            .map(|bits| (0..w).fold(0, |acc, c| acc | (((bits >> c) & 1) << (w - 1 - c))) as u8)
            .collect();
        let pairs = if s.region().rows() == 4 {
            let r = s.region();
            let digit =
                |white: u32, black: u32| (2 * r.base3(white as u64) + r.base3(black as u64)) as u32;
            (0..1u32 << (2 * w))
                .map(|pair| {
                    let (white, black) = (pair & ((1 << w) - 1), pair >> w);
                    let (wm, bm) = (reverse[white as usize], reverse[black as usize]);
                    digit(white, black) | (digit(wm.into(), bm.into()) << 16)
                })
                .collect()
        } else {
            vec![0].into_boxed_slice()
        };
        let per_byte = s.per_byte();
        Some(Resident {
            slicing: s.clone(),
            memory,
            base,
            len,
            slots,
            pairs,
            reverse,
            width: w,
            bits,
            decode,
            per_byte,
            recip: (1u64 << 40).div_ceil(per_byte as u64),
        })
    }

    /// Bytes of the copied depths.
    pub fn bytes(&self) -> usize {
        self.len
    }

    /// The stored depth of every configuration without a win a sound probe can use.
    #[inline]
    pub fn cap(&self) -> u8 {
        self.slicing.cap()
    }

    /// What [`SlicedTable::depth`] answers for `c`: its capped depth, `None` when its
    /// slice is not built, an error when it is damaged.
    #[inline]
    pub fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt> {
        self.depth_of(self.slicing.rows_of(c))
    }

    /// [`Resident::depth`] of the configuration with these row patterns.
    #[inline]
    pub fn depth_of(&self, rows: Rows) -> Result<Option<u8>, Corrupt> {
        let two = || {
            let run = match self.slicing.region().rows() {
                4 => rows.shared & ((1 << self.width) - 1),
                _ => rows.low,
            };
            wins_at_depth_two(run, rows.pre_goal, rows.top, self.width)
        };
        Ok(self
            .depth_beyond_two(rows)?
            .map(|d| if d == 3 && two() { 2 } else { d }))
    }

    /// [`Resident::depth_of`] of a configuration whose depth is not 2 (what a probe asks
    /// once the bitboards have ruled 2 out): one bit read when [`bits_suffice`].
    #[inline]
    pub fn depth_beyond_two(&self, rows: Rows) -> Result<Option<u8>, Corrupt> {
        Ok(self.place(rows)?.map(|(at, k)| {
            let b = self.memory[at];
            if self.bits {
                if (b >> k) & 1 != 0 {
                    3
                } else {
                    self.slicing.cap()
                }
            } else {
                self.decode[b as usize][k]
            }
        }))
    }

    /// Where the depth of the configuration with these row patterns lies: its byte in
    /// `memory` and its digit there. Its slice's slot gives the stored member's depths and
    /// whether to read the mirror image, whose index comes from the same row tables (no
    /// canonical test, no mirrored configuration).
    #[inline(always)]
    fn place(&self, rows: Rows) -> Result<Option<(usize, usize)>, Corrupt> {
        let id = rows.low | (rows.top << self.width);
        let slot = self.slots[id as usize];
        if slot >= DAMAGED {
            let slice = self
                .slicing
                .slice_name(id.min(self.slicing.mirror_slice(id)));
            return match slot {
                MISSING => Err(Corrupt::MissingSlice { slice }),
                _ => Err(Corrupt::Slice { slice }),
            };
        }
        let pair = self.pairs[rows.shared as usize];
        let (digit, pre_goal) = if slot & MIRRORED == 0 {
            (pair & 0xFFFF, rows.pre_goal)
        } else {
            (pair >> 16, self.reverse[rows.pre_goal as usize].into())
        };
        let idx = (u64::from(digit) << self.width) | u64::from(pre_goal);
        let (byte, k) = if self.bits {
            (idx >> 3, idx & 7)
        } else {
            let byte = (idx * self.recip) >> 40;
            (byte, idx - byte * u64::from(self.per_byte))
        };
        let at = self.base + (slot & !MIRRORED) as usize + byte as usize;
        Ok(Some((at, k as usize)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::{build_slices, Region, Silent};
    use crate::Board;

    #[test]
    fn the_reciprocal_divides_exactly_below_the_index_limit() {
        for d in 1..=8u64 {
            let recip = (1u64 << 40).div_ceil(d);
            let edge = (MAX_INDEX - 5000..MAX_INDEX).chain(0..5000);
            for idx in edge.chain((0..MAX_INDEX).step_by(997)) {
                assert_eq!((idx * recip) >> 40, idx / d, "{idx} / {d}");
            }
        }
    }

    #[test]
    fn every_configuration_reads_as_from_the_slice_files() {
        // 4x6 with 4 rows packs 5 depths a byte, 6x6 with 3 rows 4.
        for (w, h, n) in [(4, 6, 4), (6, 6, 3)] {
            let region = Region::new(Board::new(w, h).unwrap(), n).unwrap();
            let dir = std::env::temp_dir().join(format!(
                "quasar-resident-{}-{w}x{h}-r{n}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let table = SlicedTable::create(&dir, &region).unwrap();
            let s = table.slicing().clone();
            let plan = s.plan();
            let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
            // All but the last slice built: that one reads as missing.
            build_slices(&table, &names[..names.len() - 1], &Silent, |_| {}).unwrap();
            let table = SlicedTable::open(&dir).unwrap();
            let resident = Resident::load(&table).unwrap();
            assert_eq!(
                resident.bytes(),
                (names.len() - 1) * copied_bytes_per_slice(&s)
            );
            // 4 rows with `R = 3` keep one bit a configuration, 6x6 with 3 rows (`R = 4`)
            // the packed digits.
            assert_eq!(bits_suffice(&s), n == 4);
            let mut seen = [0u64; 17];
            for id in 0..s.slices() {
                for idx in 0..s.per_slice() {
                    let c = s.config(id, idx);
                    if c.white == 0 {
                        continue;
                    }
                    // The missing slice is named by both, never read as "not stored".
                    let want = table.depth(c);
                    assert_eq!(resident.depth(c), want, "{id} {idx}");
                    if want != Ok(Some(2)) {
                        let rows = s.rows_of(c);
                        assert_eq!(resident.depth_beyond_two(rows), want);
                    }
                    match want {
                        Ok(Some(d)) => seen[d as usize] += 1,
                        Err(Corrupt::MissingSlice { slice }) => {
                            assert_eq!(slice.to_string(), names[names.len() - 1]);
                            seen[0] += 1
                        }
                        other => panic!("{id} {idx}: {other:?}"),
                    }
                }
            }
            // The missing slice, depth 2 and the cap were read; with 4 rows every depth
            // between (3 rows hold White on row `R` only: depth 2 or none).
            let cap = s.cap() as usize;
            let between = if n == 4 { 2..=cap } else { cap..=cap };
            assert!(seen[0] > 0 && seen[2] > 0, "{seen:?}");
            assert!(seen[between].iter().all(|&k| k > 0), "{seen:?}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
