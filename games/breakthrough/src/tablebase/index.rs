//! Dense numbering of the region configurations within the limits, for the generator's
//! array: a mixed-radix rank over rows without limits, a combinatorial rank of each
//! colour's piece set under limits.

use crate::tablebase::region::{Config, Limits, Region, RegionError};
use quasar_core::combin::{binomial, colex_rank_in, colex_unrank_in};

/// The largest rank space the generator accepts (one byte per configuration).
pub const MAX_INDEX: u64 = 1 << 36;

/// Ranks of subsets of `cells` with at most `max` members: by size, then colex order.
#[derive(Clone, Debug)]
pub struct SubsetRank {
    cells: u64,
    /// Number of subsets with fewer than `k` members, for `k = 0..=max+1`.
    offset: Vec<u64>,
    max: u32,
}

impl SubsetRank {
    fn new(cells: u64, max: u32) -> SubsetRank {
        let n = cells.count_ones();
        let max = max.min(n);
        let mut offset = vec![0u64];
        for k in 0..=max {
            offset.push(offset[k as usize] + binomial(n, k));
        }
        SubsetRank { cells, offset, max }
    }

    fn len(&self) -> u64 {
        self.offset[self.max as usize + 1]
    }

    /// The rank of the members of `set` within `cells` (others are left out).
    #[inline]
    fn rank(&self, set: u64) -> u64 {
        let set = set & self.cells;
        self.offset[set.count_ones() as usize] + colex_rank_in(set, self.cells)
    }

    fn unrank(&self, r: u64) -> u64 {
        let mut k = 0;
        while self.offset[k + 1] <= r {
            k += 1;
        }
        colex_unrank_in(r - self.offset[k], k as u32, self.cells)
    }
}

/// A numbering of the configurations of one table, `0..len()`; some numbers may name no
/// valid configuration (then [`Indexer::unrank`] says `None`).
#[derive(Clone, Debug)]
pub enum Indexer {
    /// Mixed radix over rows: `2^W` for row `R`, `3^W` for the rows both colours share,
    /// `2^W` for rows `H-1` and `H`; exact for a table without limits.
    Dense {
        /// The region.
        region: Box<Region>,
        /// Limits still checked on unrank (when the dense space is the smaller one).
        limits: Limits,
        /// `radix` products, per local row.
        weight: Vec<u64>,
        /// The (White, Black) row patterns of each base-3 row digit.
        shared_rows: Vec<(u32, u32)>,
        /// Total.
        len: u64,
    },
    /// `rank(White set) * |Black sets| + rank(Black set)`, each set of at most the limit.
    Limited {
        /// The region.
        region: Box<Region>,
        /// The limits.
        limits: Limits,
        /// White sets.
        white: Box<SubsetRank>,
        /// Black sets.
        black: Box<SubsetRank>,
    },
}

impl Indexer {
    /// The smaller numbering of `region` under `limits`; an error if even that is too
    /// large to hold one byte per configuration.
    pub fn new(region: &Region, limits: Limits) -> Result<Indexer, RegionError> {
        let w = region.width();
        let n = region.rows();
        let dense_len = (1u128 << (3 * w)) * 3u128.pow(w * (n - 3));
        let cap = |v: Option<u32>| v.unwrap_or(64).min(limits.max_pieces.unwrap_or(64));
        let white = SubsetRank::new(region.white_cells(), cap(limits.max_white));
        let black = SubsetRank::new(region.black_cells(), cap(limits.max_black));
        let limited_len = white.len() as u128 * black.len() as u128;
        let len = dense_len.min(limited_len);
        if len > MAX_INDEX as u128 {
            return Err(RegionError(format!(
                "{} configurations to number (dense {dense_len}, piece-limited {limited_len}) exceed \
                 the generator's {MAX_INDEX}; set --max-white/--max-black/--max-pieces lower",
                len
            )));
        }
        if limits.is_none() || dense_len <= limited_len {
            let mut weight = Vec::new();
            let mut acc = 1u64;
            for j in 0..n {
                weight.push(acc);
                acc *= if j == 0 || j >= n - 2 {
                    1u64 << w
                } else {
                    3u64.pow(w)
                };
            }
            let mut shared_rows = vec![(0, 0); 3usize.pow(w)];
            for wb in 0..1u32 << w {
                for bb in 0..1u32 << w {
                    if wb & bb == 0 {
                        let d = 2 * region_base3(wb, w) + region_base3(bb, w);
                        shared_rows[d as usize] = (wb, bb);
                    }
                }
            }
            Ok(Indexer::Dense {
                region: Box::new(region.clone()),
                limits,
                weight,
                shared_rows,
                len: dense_len as u64,
            })
        } else {
            Ok(Indexer::Limited {
                region: Box::new(region.clone()),
                limits,
                white: Box::new(white),
                black: Box::new(black),
            })
        }
    }

    /// The size of the numbering.
    pub fn len(&self) -> u64 {
        match self {
            Indexer::Dense { len, .. } => *len,
            Indexer::Limited { white, black, .. } => white.len() * black.len(),
        }
    }

    /// True when the numbering is empty (never, for a valid region).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of a valid configuration within the limits.
    #[inline]
    pub fn rank(&self, c: Config) -> u64 {
        match self {
            Indexer::Dense { region, weight, .. } => {
                let n = region.rows();
                let mut r = region.row_bits(c.white, 0) * weight[0];
                for j in 1..n - 2 {
                    let d = 2 * region.base3(region.row_bits(c.white, j))
                        + region.base3(region.row_bits(c.black, j));
                    r += d * weight[j as usize];
                }
                r += region.row_bits(c.black, n - 2) * weight[n as usize - 2];
                r += region.row_bits(c.black, n - 1) * weight[n as usize - 1];
                r
            }
            Indexer::Limited { white, black, .. } => {
                white.rank(c.white) * black.len() + black.rank(c.black)
            }
        }
    }

    /// The configuration numbered `r`, or `None` if `r` names none within the limits.
    pub fn unrank(&self, mut r: u64) -> Option<Config> {
        let (c, limits) = match self {
            Indexer::Dense {
                region,
                limits,
                shared_rows,
                ..
            } => {
                let n = region.rows();
                let w = region.width();
                let mut c = Config { white: 0, black: 0 };
                for j in 0..n {
                    let shift = j * w;
                    if j == 0 {
                        c.white |= (r & ((1 << w) - 1)) << shift;
                        r >>= w;
                    } else if j >= n - 2 {
                        c.black |= (r & ((1 << w) - 1)) << shift;
                        r >>= w;
                    } else {
                        let radix = 3u64.pow(w);
                        let (wb, bb) = shared_rows[(r % radix) as usize];
                        r /= radix;
                        c.white |= (wb as u64) << shift;
                        c.black |= (bb as u64) << shift;
                    }
                }
                (c, limits)
            }
            Indexer::Limited {
                white,
                black,
                limits,
                ..
            } => {
                let nb = black.len();
                let c = Config {
                    white: white.unrank(r / nb),
                    black: black.unrank(r % nb),
                };
                if c.white & c.black != 0 {
                    return None;
                }
                (c, limits)
            }
        };
        limits
            .allows(c.white.count_ones(), c.black.count_ones())
            .then_some(c)
    }
}

/// Base-3 value of a row pattern (leftmost column most significant); a bijection of
/// disjoint pairs `2*w + b` onto `0..3^W`.
#[inline]
fn region_base3(bits: u32, w: u32) -> u64 {
    let mut acc = 0u64;
    for c in 0..w {
        acc = acc * 3 + ((bits >> c) & 1) as u64;
    }
    acc
}
