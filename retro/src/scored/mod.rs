//! Solving games whose ends carry a score (first player maximises, second minimises, endless
//! play scores 0): the interleaved passes of Cazenave and Nowakowski and an exact solver by
//! thresholds.

mod exact;
mod interleaved;

pub use exact::{solve_exact, ExactReport};
pub use interleaved::{solve_interleaved, InterleavedReport};

use crate::packed::{bits_for, PackedArray};

/// Scores per position, stored as offsets from the smallest in the fewest bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreTable {
    /// The smallest score; stored values are `score - offset`.
    pub offset: i32,
    /// The stored values.
    pub values: PackedArray,
}

impl ScoreTable {
    /// Packs `scores` (one per position).
    pub fn from_scores(scores: &[i32]) -> ScoreTable {
        let lo = scores.iter().copied().min().unwrap_or(0);
        let hi = scores.iter().copied().max().unwrap_or(0);
        let mut values = PackedArray::new(bits_for((hi - lo) as u64), scores.len() as u64);
        for (i, &s) in scores.iter().enumerate() {
            values.set(i as u64, (s - lo) as u32);
        }
        ScoreTable { offset: lo, values }
    }

    /// The score of position `pos` for the first player (0: a draw).
    #[inline]
    pub fn score(&self, pos: u64) -> i32 {
        self.values.get(pos) as i32 + self.offset
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.values.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}
