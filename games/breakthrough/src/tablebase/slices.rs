//! The sliced form of a whole table of 3 or 4 rows (no piece limits), for tables too large to
//! build at once (8x8 with 4 rows: 110 G configurations). A slice holds the configurations
//! with one White pattern on the region's lowest row `R` and one Black pattern on the top row
//! `H`: no move ever adds a piece to either row, and with at most 4 rows every White move
//! empties a cell of row `R` or lands on `H-1` (where Black must capture it from row `H` or
//! lose), so every configuration a successor needs lies in a slice with fewer pieces on those
//! two rows. Depths are capped at `R + 1` ("no win a sound probe can use"), which the
//! recurrence keeps exact below the cap (min, max and +1 are monotone), and packed several
//! to a byte in base `R`.

use crate::tablebase::region::{Config, Region, RegionError};
use quasar_core::plan::Plan;

/// A configuration as the row patterns that number it in a sliced table (columns as on the
/// board, column `a` the lowest bit): what a probe reads straight from a position's
/// bitboards, without assembling the local configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    /// White's pattern on row `R` (the slice number's low half).
    pub low: u32,
    /// With 4 rows, White's pattern on row `R + 1` and Black's above it (`white | black <<
    /// W`); 0 with 3 rows, which share no row.
    pub shared: u32,
    /// Black's pattern on row `H - 1` (the low digits of the index in the slice).
    pub pre_goal: u32,
    /// Black's pattern on row `H` (the slice number's high half).
    pub top: u32,
}

/// A slice as its file is named (`w80-b0f`, see [`Slicing::name`]): what messages about
/// a slice show, kept as its number and the board's width so that errors stay `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceName {
    /// The slice's number.
    pub id: u32,
    /// The board's width.
    pub width: u8,
}

impl std::fmt::Display for SliceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = (self.width as usize).div_ceil(4);
        let mask = (1u32 << self.width) - 1;
        write!(
            f,
            "w{:0digits$x}-b{:0digits$x}",
            self.id & mask,
            self.id >> self.width
        )
    }
}

/// The slices of one region and how configurations are numbered and packed within them.
#[derive(Clone, Debug)]
pub struct Slicing {
    region: Region,
    width: u32,
    rows: u32,
    /// `R + 1`: every depth at least this is stored as this.
    cap: u8,
    /// Depths `2..=cap` are the digits `0..states`.
    states: u32,
    /// Digits per byte (`states^per_byte <= 256`).
    per_byte: u32,
    /// Configurations per slice.
    per_slice: u64,
    /// The (White, Black) row patterns of each base-3 digit of a shared row.
    shared: Vec<(u32, u32)>,
    /// A row pattern with its columns reversed.
    reverse: Vec<u32>,
    /// `decode[byte][k]`: the `k`-th digit of a packed byte.
    decode: Vec<[u8; 8]>,
}

impl Slicing {
    /// The slicing of `region`: 3 or 4 rows, and a lowest row `R <= 16` so that a depth
    /// fits a 4-bit digit.
    pub fn new(region: &Region) -> Result<Slicing, RegionError> {
        let (w, n) = (region.width(), region.rows());
        if !(3..=4).contains(&n) {
            return Err(RegionError(format!(
                "a sliced build covers 3 or 4 rows (then every move leaves its slice); \
                 --rows {n} is built whole: drop --slice/--wave and the directory output"
            )));
        }
        let lowest = region.lowest_row();
        if lowest > 16 {
            return Err(RegionError(format!(
                "the region starts on row {lowest}: a sliced table stores depths up to 16"
            )));
        }
        let states = lowest;
        let mut per_byte = 1;
        while states.pow(per_byte + 1) <= 256 && per_byte < 8 {
            per_byte += 1;
        }
        let mut shared = vec![(0, 0); 3usize.pow(w)];
        for wb in 0..1u32 << w {
            for bb in 0..1u32 << w {
                if wb & bb == 0 {
                    let d = 2 * region.base3(wb as u64) + region.base3(bb as u64);
                    shared[d as usize] = (wb, bb);
                }
            }
        }
        let reverse = (0..1u32 << w)
            .map(|bits| (0..w).fold(0u32, |acc, c| acc | (((bits >> c) & 1) << (w - 1 - c))))
            .collect();
        let decode = (0..256u32)
            .map(|b| {
                let mut out = [0u8; 8];
                let mut x = b;
                for d in out.iter_mut().take(per_byte as usize) {
                    *d = (x % states) as u8;
                    x /= states;
                }
                out
            })
            .collect();
        Ok(Slicing {
            region: region.clone(),
            width: w,
            rows: n,
            cap: (lowest + 1) as u8,
            states,
            per_byte,
            per_slice: 3u64.pow(w * (n - 3)) << w,
            shared,
            reverse,
            decode,
        })
    }

    /// The region.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// `R + 1`: the stored depth of every configuration without a win in `R` moves.
    pub fn cap(&self) -> u8 {
        self.cap
    }

    /// Digits a byte holds.
    pub fn per_byte(&self) -> u32 {
        self.per_byte
    }

    /// `table[byte][k]`: the `k`-th capped depth a packed byte holds (already `+ 2`), so
    /// that a probe decodes a byte by one lookup instead of divisions.
    pub fn decode_table(&self) -> Box<[[u8; 8]; 256]> {
        let mut table = Box::new([[0u8; 8]; 256]);
        for (b, digits) in table.iter_mut().enumerate() {
            let mut x = b as u32;
            for d in digits.iter_mut().take(self.per_byte as usize) {
                *d = (x % self.states) as u8 + 2;
                x /= self.states;
            }
        }
        table
    }

    /// What bytes 12 to 15 of the header of each file of the table hold, so that a file of
    /// another table is refused: width, height, rows and [`Slicing::states`].
    pub fn header_id(&self) -> [u8; 4] {
        let r = self.region();
        [
            r.board().width() as u8,
            r.board().height() as u8,
            r.rows() as u8,
            self.states() as u8,
        ]
    }

    /// Distinct stored depths (`2..=cap`).
    pub fn states(&self) -> u32 {
        self.states
    }

    /// Slice numbers are `0..slices()`: White's row-`R` pattern plus Black's row-`H`
    /// pattern shifted by the width.
    pub fn slices(&self) -> u32 {
        1 << (2 * self.width)
    }

    /// Configurations in one slice.
    pub fn per_slice(&self) -> u64 {
        self.per_slice
    }

    /// Bytes of one slice's packed depths.
    pub fn bytes_per_slice(&self) -> usize {
        self.per_slice.div_ceil(self.per_byte as u64) as usize
    }

    /// The slice of a configuration.
    #[inline]
    pub fn slice_of(&self, c: Config) -> u32 {
        let r = &self.region;
        (r.row_bits(c.white, 0) | (r.row_bits(c.black, self.rows - 1) << self.width)) as u32
    }

    /// The slice holding the mirror images of slice `id`'s configurations.
    #[inline]
    pub fn mirror_slice(&self, id: u32) -> u32 {
        let mask = (1u32 << self.width) - 1;
        self.reverse[(id & mask) as usize]
            | (self.reverse[(id >> self.width) as usize] << self.width)
    }

    /// Whether slice `id` is the stored member of its mirror pair (the smaller number).
    #[inline]
    pub fn is_canonical(&self, id: u32) -> bool {
        id <= self.mirror_slice(id)
    }

    /// The wave of a slice: its pieces on rows `R` and `H` (every input has fewer).
    pub fn wave(&self, id: u32) -> usize {
        id.count_ones() as usize
    }

    /// A slice's name: `w` and White's row-`R` pattern, `-b` and Black's row-`H` pattern,
    /// in hexadecimal with column `a` the lowest bit (`w0f-b80`: White on a-d, Black on h).
    pub fn name(&self, id: u32) -> String {
        self.slice_name(id).to_string()
    }

    /// Slice `id`'s name as a value for errors.
    pub fn slice_name(&self, id: u32) -> SliceName {
        SliceName {
            id,
            width: self.width as u8,
        }
    }

    /// The slice of a name, if it names one of this slicing (stored member or not).
    pub fn parse(&self, name: &str) -> Option<u32> {
        let (w, b) = name.strip_prefix('w')?.split_once("-b")?;
        let (w, b) = (
            u32::from_str_radix(w, 16).ok()?,
            u32::from_str_radix(b, 16).ok()?,
        );
        let mask = (1u32 << self.width) - 1;
        (w <= mask && b <= mask).then_some(w | (b << self.width))
    }

    /// The stored slices in dependency waves, each wave in slice order.
    pub fn plan(&self) -> Plan {
        let mut waves = vec![Vec::new(); 2 * self.width as usize + 1];
        for id in (0..self.slices()).filter(|&id| self.is_canonical(id)) {
            waves[self.wave(id)].push(self.name(id));
        }
        Plan::new(waves)
    }

    /// The stored slices whose depths building slice `id` reads, ascending: one or two
    /// fewer White pieces on row `R` (White leaves it, Black captures there), one fewer
    /// Black piece on row `H` (Black leaves it), or one of each.
    pub fn inputs(&self, id: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mask = (1u32 << self.width) - 1;
        let (white, black) = (id & mask, id >> self.width);
        let bits = |m: u32| (0..self.width).filter(move |c| m & (1 << c) != 0);
        let mut push = |w: u32, b: u32| {
            let s = w | (b << self.width);
            out.push(s.min(self.mirror_slice(s)));
        };
        for x in bits(white) {
            push(white & !(1 << x), black);
            for z in bits(white & !(1 << x)) {
                push(white & !(1 << x) & !(1 << z), black);
            }
            for y in bits(black) {
                push(white & !(1 << x), black & !(1 << y));
            }
        }
        for y in bits(black) {
            push(white, black & !(1 << y));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The number of a configuration within its slice: the shared rows' base-3 digits,
    /// then Black's pattern on row `H-1`.
    #[inline]
    pub fn index(&self, c: Config) -> u64 {
        let r = &self.region;
        let mut idx = 0u64;
        for j in 1..self.rows - 2 {
            let d = 2 * r.base3(r.row_bits(c.white, j)) + r.base3(r.row_bits(c.black, j));
            idx = idx * 3u64.pow(self.width) + d;
        }
        (idx << self.width) | r.row_bits(c.black, self.rows - 2)
    }

    /// The configuration numbered `idx` in slice `id`.
    #[inline]
    pub fn config(&self, id: u32, idx: u64) -> Config {
        let w = self.width;
        let mask = (1u64 << w) - 1;
        let mut c = Config {
            white: id as u64 & mask,
            black: ((id as u64 >> w) << ((self.rows - 1) * w))
                | ((idx & mask) << ((self.rows - 2) * w)),
        };
        let mut rest = idx >> w;
        for j in (1..self.rows - 2).rev() {
            let radix = 3u64.pow(w);
            let (wb, bb) = self.shared[(rest % radix) as usize];
            rest /= radix;
            c.white |= (wb as u64) << (j * w);
            c.black |= (bb as u64) << (j * w);
        }
        c
    }

    /// The row patterns of `c` (see [`Rows`]).
    #[inline]
    pub fn rows_of(&self, c: Config) -> Rows {
        let r = &self.region;
        let n = self.rows;
        Rows {
            low: r.row_bits(c.white, 0) as u32,
            shared: if n == 4 {
                (r.row_bits(c.white, 1) | (r.row_bits(c.black, 1) << self.width)) as u32
            } else {
                0
            },
            pre_goal: r.row_bits(c.black, n - 2) as u32,
            top: r.row_bits(c.black, n - 1) as u32,
        }
    }

    /// The stored slice and index of a configuration: its own, or its mirror image's.
    #[inline]
    pub fn locate(&self, c: Config) -> (u32, u64) {
        let id = self.slice_of(c);
        if self.is_canonical(id) {
            (id, self.index(c))
        } else {
            (self.mirror_slice(id), self.index(self.region.mirror(c)))
        }
    }

    /// Digit `idx` of packed bytes, as a depth (`2..=cap`).
    #[inline]
    pub fn depth_at(&self, bytes: &[u8], idx: u64) -> u8 {
        let (byte, k) = (idx / self.per_byte as u64, idx % self.per_byte as u64);
        self.decode[bytes[byte as usize] as usize][k as usize] + 2
    }

    /// Packs depths (`2..=cap`, one per configuration) into bytes.
    pub fn pack(&self, depths: &[u8], out: &mut [u8]) {
        for (byte, group) in out.iter_mut().zip(depths.chunks(self.per_byte as usize)) {
            let mut v = 0u32;
            for &d in group.iter().rev() {
                v = v * self.states + (d - 2) as u32;
            }
            *byte = v as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    fn slicing(w: u32, h: u32, n: u32) -> Slicing {
        Slicing::new(&Region::new(Board::new(w, h).unwrap(), n).unwrap()).unwrap()
    }

    #[test]
    fn numbering_round_trips_and_counts_match_the_spec() {
        let s = slicing(4, 5, 4);
        // 2^(3W) 3^(W(n-3)) configurations in all.
        assert_eq!(s.slices() as u64 * s.per_slice(), (1 << 12) * 81);
        for id in [0, 5, 0x9a, 0xff] {
            for idx in 0..s.per_slice() {
                let c = s.config(id, idx);
                assert_eq!(c.white & c.black, 0);
                assert_eq!((s.slice_of(c), s.index(c)), (id, idx));
            }
        }
    }

    #[test]
    fn names_parse_back_and_the_plan_holds_each_mirror_pair_once() {
        let s = slicing(8, 8, 4);
        assert_eq!(s.name(0x80 | (0x0f << 8)), "w80-b0f");
        assert_eq!(s.parse("w80-b0f"), Some(0x80 | (0x0f << 8)));
        assert_eq!(s.parse("w180-b0f"), None);
        let plan = s.plan();
        let total: usize = plan.waves().iter().map(Vec::len).sum();
        // 2^16 slices, 2^8 of them their own mirror image: (65536 + 256) / 2.
        assert_eq!(total, 32896);
        assert_eq!(plan.waves().len(), 17);
        for (k, wave) in plan.waves().iter().enumerate() {
            for name in wave.iter().take(50) {
                let id = s.parse(name).unwrap();
                for input in s.inputs(id) {
                    assert!(s.wave(input) < k, "{name} reads {}", s.name(input));
                    assert!(s.is_canonical(input));
                }
            }
        }
    }

    #[test]
    fn packing_round_trips() {
        let s = slicing(8, 8, 4);
        assert_eq!((s.cap(), s.states(), s.per_byte()), (6, 5, 3));
        let depths: Vec<u8> = (0..100).map(|i| 2 + (i * 7 % 5) as u8).collect();
        let mut bytes = vec![0u8; depths.len().div_ceil(3)];
        s.pack(&depths, &mut bytes);
        for (i, &d) in depths.iter().enumerate() {
            assert_eq!(s.depth_at(&bytes, i as u64), d);
        }
    }
}
