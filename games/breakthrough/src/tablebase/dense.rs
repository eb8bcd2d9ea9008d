//! A small table's depths by the dense rank of every configuration, one byte each: a probe
//! reads one byte instead of searching the static B-tree (the exact solver probes at every
//! node; its 4-row 5x6 table has 8 M configurations, 8 MB).

use crate::tablebase::generate::Generated;
use crate::tablebase::index::Indexer;
use crate::tablebase::region::Config;
use std::fmt;

/// Tables with more configurations than this keep probing their tree (128 MiB).
pub const DENSE_MAX_LEN: u64 = 1 << 27;

/// The byte of a configuration the table does not hold (no forced win in the region).
const NOT_STORED: u8 = 0;

/// Every configuration's depth, by [`Indexer::rank`].
pub struct DenseDepths {
    index: Indexer,
    /// `D`, or [`NOT_STORED`] (a stored depth is at least 1).
    depths: Box<[u8]>,
}

impl fmt::Debug for DenseDepths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DenseDepths({} bytes)", self.depths.len())
    }
}

impl DenseDepths {
    /// The depths of a generated table, both members of each mirror pair, or `None` when
    /// it has more than [`DENSE_MAX_LEN`] configurations or a depth beyond a byte.
    pub fn build(g: &Generated) -> Option<DenseDepths> {
        let index = Indexer::new(&g.region, g.limits).ok()?;
        if index.len() > DENSE_MAX_LEN {
            return None;
        }
        let mut depths = vec![NOT_STORED; index.len() as usize].into_boxed_slice();
        for &(key, value) in &g.entries {
            let depth = u8::try_from(g.codec.decode(value).depth).ok()?;
            let c = g.region.config_of_key(key);
            depths[index.rank(c) as usize] = depth;
            depths[index.rank(g.region.mirror(c)) as usize] = depth;
        }
        Some(DenseDepths { index, depths })
    }

    /// The stored depth of `c` (a configuration within the table's limits, no White piece
    /// on row `H-1`), `None` when the table holds none.
    #[inline]
    pub fn depth(&self, c: Config) -> Option<u32> {
        match self.depths[self.index.rank(c) as usize] {
            NOT_STORED => None,
            d => Some(u32::from(d)),
        }
    }

    /// Bytes of the depths.
    pub fn bytes(&self) -> usize {
        self.depths.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::{generate, Limits, Region, Silent, Tablebase};
    use crate::Board;

    #[test]
    fn answers_what_the_tree_answers_for_every_configuration() {
        for (w, h, rows, limits) in [
            (4, 6, 4, Limits::NONE),
            (5, 5, 3, Limits::NONE),
            (
                5,
                6,
                3,
                Limits {
                    max_white: Some(2),
                    max_black: Some(3),
                    max_pieces: None,
                },
            ),
        ] {
            let region = Region::new(Board::new(w, h).unwrap(), rows).unwrap();
            let g = generate(&region, limits, &Silent).unwrap();
            let dense = DenseDepths::build(&g).expect("small enough");
            let tree = Tablebase::from_generated(&g);
            let index = Indexer::new(&region, limits).unwrap();
            let (mut stored, mut seen) = (0, 0);
            for r in 0..index.len() {
                let Some(c) = index.unrank(r) else { continue };
                seen += 1;
                let expected = tree.lookup(c).unwrap().map(|e| e.depth);
                assert_eq!(dense.depth(c), expected, "{w}x{h} rows {rows}: {c:?}");
                stored += expected.is_some() as usize;
            }
            // Every stored entry stands for itself and its mirror image.
            assert!(stored >= g.entries.len() && stored <= 2 * g.entries.len());
            assert!(seen > 0);
        }
    }
}
