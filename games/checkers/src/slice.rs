//! Database slices (the numbers of black men, black kings, white men and white kings), the
//! dependencies between them, their waves, and the perfect index of each slice: black men
//! on squares 1-28, white men on 5-32, kings anywhere free, every index one placement.

use crate::board::Board;
use quasar_core::combin::{self, binomial as binom};
use quasar_core::Plan;
use std::fmt;

/// Black's back row (squares 1-4): black men may stand there, white men may not.
const BLACK_BACK: u32 = 0x0000_000F;
/// Squares 5-28, open to the men of both sides.
const MIDDLE: u32 = 0x0FFF_FFF0;
/// Squares 5-32, the white men's squares.
const WHITE_MEN: u32 = 0xFFFF_FFF0;

/// The most pieces a database build takes (memory grows about 20-fold a piece).
pub const MAX_PIECES: u32 = 8;

/// A slice: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}k{}-w{}k{}", self.bm, self.bk, self.wm, self.wk)
    }
}

impl std::str::FromStr for Slice {
    type Err = String;

    /// Reads `b2k1-w1k0` (black 2 men 1 king, white 1 man no king).
    fn from_str(s: &str) -> Result<Slice, String> {
        let bad =
            || format!("{s:?} is not a slice: write b<men>k<kings>-w<men>k<kings>, e.g. b2k1-w1k0");
        let (b, w) = s.trim().split_once('-').ok_or_else(bad)?;
        let side = |t: &str, c: char| -> Option<(u8, u8)> {
            let (m, k) = t.strip_prefix(c)?.split_once('k')?;
            Some((m.parse().ok()?, k.parse().ok()?))
        };
        let ((bm, bk), (wm, wk)) = (side(b, 'b').ok_or_else(bad)?, side(w, 'w').ok_or_else(bad)?);
        let slice = Slice { bm, bk, wm, wk };
        if bm > 12 || wm > 12 || bm + bk > 12 || wm + wk > 12 || slice.pieces() == 0 {
            return Err(format!(
                "{s}: a side has at most 12 pieces, and a slice at least one piece"
            ));
        }
        Ok(slice)
    }
}

impl Slice {
    /// The slice of a board.
    #[inline]
    pub fn of(b: &Board) -> Slice {
        let bk = (b.black & b.kings).count_ones() as u8;
        let wk = (b.white & b.kings).count_ones() as u8;
        Slice {
            bm: b.black.count_ones() as u8 - bk,
            bk,
            wm: b.white.count_ones() as u8 - wk,
            wk,
        }
    }

    /// Pieces in all.
    pub fn pieces(&self) -> u32 {
        (self.bm + self.bk + self.wm + self.wk) as u32
    }

    /// The slice with colours exchanged.
    pub fn reversed(&self) -> Slice {
        Slice {
            bm: self.wm,
            bk: self.wk,
            wm: self.bm,
            wk: self.bk,
        }
    }

    /// A dense number for lookup tables: each count below 13.
    #[inline]
    pub fn key(&self) -> usize {
        ((self.bm as usize * 13 + self.bk as usize) * 13 + self.wm as usize) * 13 + self.wk as usize
    }

    /// Every slice of 1 to `n` pieces (a side at most 12).
    pub fn all(n: u32) -> Vec<Slice> {
        let mut out = Vec::new();
        let n = n.min(24) as u8;
        for bm in 0..=n.min(12) {
            for bk in 0..=(n - bm).min(12 - bm) {
                for wm in 0..=(n - bm - bk).min(12) {
                    for wk in 0..=(n - bm - bk - wm).min(12 - wm) {
                        let s = Slice { bm, bk, wm, wk };
                        if s.pieces() > 0 {
                            out.push(s);
                        }
                    }
                }
            }
        }
        out
    }

    /// The slices a move from this one can lead into, other than itself: a capture (of a
    /// man or a king, the capturer perhaps crowned) or a man's promotion. Longer captures
    /// lead further, into the dependencies of these.
    pub fn dependencies(&self) -> Vec<Slice> {
        let mut out = Vec::new();
        let s = *self;
        let mut push = |t: Slice| {
            if t.pieces() > 0 && !out.contains(&t) {
                out.push(t);
            }
        };
        // Black crowns a man, and black captures (perhaps crowned on the way).
        if s.bm > 0 {
            push(Slice {
                bm: s.bm - 1,
                bk: s.bk + 1,
                ..s
            });
        }
        if s.wm > 0 {
            push(Slice {
                wm: s.wm - 1,
                wk: s.wk + 1,
                ..s
            });
        }
        for crown in [false, true] {
            let b = if crown && s.bm > 0 {
                Slice {
                    bm: s.bm - 1,
                    bk: s.bk + 1,
                    ..s
                }
            } else if crown {
                continue;
            } else {
                s
            };
            if b.wm > 0 {
                push(Slice { wm: b.wm - 1, ..b });
            }
            if b.wk > 0 {
                push(Slice { wk: b.wk - 1, ..b });
            }
            let w = if crown && s.wm > 0 {
                Slice {
                    wm: s.wm - 1,
                    wk: s.wk + 1,
                    ..s
                }
            } else if crown {
                continue;
            } else {
                s
            };
            if w.bm > 0 {
                push(Slice { bm: w.bm - 1, ..w });
            }
            if w.bk > 0 {
                push(Slice { bk: w.bk - 1, ..w });
            }
        }
        out
    }

    /// This slice and every slice it depends on, directly or not, smallest first.
    pub fn closure(&self) -> Vec<Slice> {
        let mut seen = vec![*self];
        let mut k = 0;
        while k < seen.len() {
            for d in seen[k].dependencies() {
                if !seen.contains(&d) {
                    seen.push(d);
                }
            }
            k += 1;
        }
        seen.sort_by_key(|s| (s.pieces(), s.bm + s.wm));
        seen
    }

    /// The slices of 1 to `n` pieces in dependency waves: a slice's wave is one more than
    /// the latest of its dependencies'.
    pub fn plan(n: u32) -> Plan {
        let all = Slice::all(n);
        let mut wave = vec![usize::MAX; 13 * 13 * 13 * 13];
        // Fewer pieces first, then fewer men: every dependency comes before its dependant.
        let mut order = all.clone();
        order.sort_by_key(|s| (s.pieces(), s.bm + s.wm));
        let mut waves: Vec<Vec<String>> = Vec::new();
        for s in order {
            let w = s
                .dependencies()
                .iter()
                .map(|d| wave[d.key()] + 1)
                .max()
                .unwrap_or(0);
            wave[s.key()] = w;
            if waves.len() <= w {
                waves.resize(w + 1, Vec::new());
            }
            waves[w].push(s.to_string());
        }
        Plan::new(waves)
    }
}

/// Colex rank of the set `x` among the subsets of `domain` of its size.
#[inline]
fn rank(x: u32, domain: u32) -> u64 {
    combin::colex_rank_in(x.into(), domain.into())
}

/// The subset of `domain` with `k` members and colex rank `r`.
#[inline]
fn unrank(r: u64, k: u32, domain: u32) -> u32 {
    combin::colex_unrank_in(r, k, domain.into()) as u32
}

/// The perfect index of one slice: placements (without the side to move) to `0..size`.
#[derive(Clone, Debug)]
pub struct SliceIndex {
    slice: Slice,
    /// For each number `k` of black men on squares 1-4: the first index of that block.
    base: [u64; 5],
    /// The number of placements.
    size: u64,
}

impl SliceIndex {
    /// The index of a slice.
    pub fn new(slice: Slice) -> SliceIndex {
        let (bm, wm) = (slice.bm as u32, slice.wm as u32);
        let kings = binom(32 - bm - wm, slice.bk as u32)
            * binom(32 - bm - wm - slice.bk as u32, slice.wk as u32);
        let mut base = [0u64; 5];
        let mut total = 0;
        for (k, b) in base.iter_mut().enumerate() {
            *b = total;
            let k = k as u32;
            if k <= bm {
                total += binom(4, k) * binom(24, bm - k) * binom(28 - (bm - k), wm) * kings;
            }
        }
        SliceIndex {
            slice,
            base,
            size: total,
        }
    }

    /// The slice indexed.
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Placements in the slice.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a board of this slice.
    #[inline]
    pub fn index(&self, b: &Board) -> u64 {
        let s = self.slice;
        let (bm, wm, bk, wk) = (s.bm as u32, s.wm as u32, s.bk as u32, s.wk as u32);
        let bmen = b.black & !b.kings;
        let wmen = b.white & !b.kings;
        let top = bmen & BLACK_BACK;
        let k = top.count_ones();
        let mid = bm - k;
        let free = !(bmen | wmen);
        let bkings = b.black & b.kings;
        let mut i = rank(top, BLACK_BACK);
        i = i * binom(24, mid) + rank(bmen & MIDDLE, MIDDLE);
        i = i * binom(28 - mid, wm) + rank(wmen, WHITE_MEN & !bmen);
        i = i * binom(32 - bm - wm, bk) + rank(bkings, free);
        i = i * binom(32 - bm - wm - bk, wk) + rank(b.white & b.kings, free & !bkings);
        self.base[k as usize] + i
    }

    /// The board at an index below [`SliceIndex::size`].
    pub fn board(&self, i: u64) -> Board {
        self.decoder().board(i)
    }

    /// A decoder of this slice's indices that reuses work between nearby ones.
    pub fn decoder(&self) -> Decoder<'_> {
        let s = self.slice;
        let (bm, wm, bk, wk) = (s.bm as u32, s.wm as u32, s.bk as u32, s.wk as u32);
        Decoder {
            ix: self,
            cwk: binom(32 - bm - wm - bk, wk),
            cbk: binom(32 - bm - wm, bk),
            men_key: u64::MAX,
            men: (0, 0),
            bk_key: u64::MAX,
            bkings: 0,
        }
    }

    /// The men (black, white) of the placements whose index over `C(free, bk) * C(rest,
    /// wk)` is `q` (the index without its kings' parts).
    fn men(&self, q: u64, kings: u64) -> (u32, u32) {
        let s = self.slice;
        let (bm, wm) = (s.bm as u32, s.wm as u32);
        let k = (0..5)
            .rev()
            .find(|&k| self.base[k] / kings <= q && k as u32 <= bm)
            .expect("index in range") as u32;
        let mut i = q - self.base[k as usize] / kings;
        let mid = bm - k;
        let cw = binom(28 - mid, wm);
        let cmid = binom(24, mid);
        let r_wm = i % cw;
        i /= cw;
        let r_mid = i % cmid;
        let r_top = i / cmid;
        let bmen = unrank(r_top, k, BLACK_BACK) | unrank(r_mid, mid, MIDDLE);
        let wmen = unrank(r_wm, wm, WHITE_MEN & !bmen);
        (bmen, wmen)
    }
}

/// Decodes the indices of one slice, keeping the men and the black kings of the last
/// index: indices visited in increasing order mostly change only the kings' parts, and
/// decoding the men is most of the cost.
#[derive(Clone, Debug)]
pub struct Decoder<'a> {
    ix: &'a SliceIndex,
    /// Placements of the white kings (the lowest part of an index).
    cwk: u64,
    /// Placements of the black kings (the next part).
    cbk: u64,
    men_key: u64,
    men: (u32, u32),
    bk_key: u64,
    bkings: u32,
}

impl Decoder<'_> {
    /// The board at an index below [`SliceIndex::size`].
    #[inline]
    pub fn board(&mut self, i: u64) -> Board {
        let s = self.ix.slice;
        let q1 = i / self.cwk;
        let r_wk = i - q1 * self.cwk;
        if q1 != self.bk_key {
            let q2 = q1 / self.cbk;
            let r_bk = q1 - q2 * self.cbk;
            if q2 != self.men_key {
                self.men = self.ix.men(q2, self.cbk * self.cwk);
                self.men_key = q2;
            }
            self.bkings = unrank(r_bk, s.bk as u32, !(self.men.0 | self.men.1));
            self.bk_key = q1;
        }
        let (bmen, wmen) = self.men;
        let free = !(bmen | wmen | self.bkings);
        let wkings = unrank(r_wk, s.wk as u32, free);
        Board {
            black: bmen | self.bkings,
            white: wmen | wkings,
            kings: self.bkings | wkings,
        }
    }
}

/// Placements of `n` pieces in all, summed over the slices (the spec's table).
pub fn placements(n: u32) -> u64 {
    Slice::all(n)
        .iter()
        .filter(|s| s.pieces() == n)
        .map(|s| SliceIndex::new(*s).size())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of 1 to 10 pieces published with the 10-piece databases (Schaeffer et
    /// al., "Building the Checkers 10-piece Endgame Databases", 2003), which the slice
    /// indexes give by their own arithmetic.
    #[test]
    fn placement_counts_match_the_published_ones() {
        let spec = [
            120u64,
            6_972,
            261_224,
            7_092_774,
            148_688_232,
            2_503_611_964,
            34_779_531_480,
            406_309_208_481,
            4_048_627_642_976,
            34_778_882_769_216,
        ];
        for (n, &want) in spec.iter().enumerate() {
            assert_eq!(placements(n as u32 + 1), want, "{} pieces", n + 1);
        }
    }

    #[test]
    fn every_index_is_one_placement_up_to_three_pieces() {
        for s in Slice::all(3) {
            let ix = SliceIndex::new(s);
            let mut seen = std::collections::HashSet::new();
            for i in 0..ix.size() {
                let b = ix.board(i);
                assert_eq!(Slice::of(&b), s);
                assert_eq!(b.black & b.white, 0);
                assert_eq!(b.black & !b.kings & crate::board::BLACK_PROMOTION, 0);
                assert_eq!(b.white & !b.kings & crate::board::WHITE_PROMOTION, 0);
                assert_eq!(ix.index(&b), i, "{s} {b:?}");
                assert!(seen.insert(b));
            }
        }
    }

    #[test]
    fn a_decoder_reused_in_any_order_equals_a_fresh_decode() {
        for s in Slice::all(4).into_iter().filter(|s| s.pieces() >= 3) {
            let ix = SliceIndex::new(s);
            let mut dec = ix.decoder();
            // In order (the kings' parts change most), then jumping about.
            for i in (0..ix.size()).step_by(7) {
                assert_eq!(ix.index(&dec.board(i)), i, "{s} {i}");
            }
            let mut i = 12345 % ix.size();
            for _ in 0..2000 {
                assert_eq!(ix.index(&dec.board(i)), i, "{s} {i}");
                i = i
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
                    % ix.size();
            }
        }
    }

    #[test]
    fn names_read_back_and_waves_respect_dependencies() {
        let plan = Slice::plan(4);
        for (w, names) in plan.waves().iter().enumerate() {
            for name in names {
                let s: Slice = name.parse().unwrap();
                assert_eq!(s.to_string(), *name);
                for d in s.dependencies() {
                    assert!(plan.wave_of(&d.to_string()).unwrap() < w, "{d} before {s}");
                }
            }
        }
        assert!("b1k1-w0".parse::<Slice>().is_err());
        assert!("b0k0-w0k0".parse::<Slice>().is_err());
    }
}
