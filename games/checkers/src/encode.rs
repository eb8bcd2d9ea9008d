//! Checkers' moves as numbers and its positions as five planes (Black's men and kings,
//! White's men and kings, empty) of the 8x8 board, row 0 holding squares 1-4.
//!
//! A step is `from * 32 + to`, below 1024; a capture is `1024 + from + 32 * path`, where
//! `path` is its jumps' directions, two bits each after a leading 1, so that two captures
//! from one square by different paths have different numbers.

use crate::board::{row_col, Move};
use crate::play::Checkers;
use quasar_core::{Encode, Planes};

const PLANES: &[&str] = &[
    "Black men",
    "Black kings",
    "White men",
    "White kings",
    "empty",
];

/// Most jumps one capture can make: one for each of the opponent's twelve pieces.
const MAX_JUMPS: u32 = 12;

impl Encode for Checkers {
    fn action_count(&self) -> u64 {
        1024 + 32 * (1u64 << (2 * MAX_JUMPS + 1))
    }

    fn action(&self, mv: Move) -> u64 {
        let from = mv.from as u64;
        if mv.jumps == 0 {
            return from * 32 + mv.to as u64;
        }
        let jumps = 2 * mv.jumps as u32;
        let path = 1u64 << jumps | (mv.dirs as u64 & ((1u64 << jumps) - 1));
        1024 + from + 32 * path
    }

    fn planes(&self) -> Planes {
        Planes {
            names: PLANES,
            rows: 8,
            cols: 8,
        }
    }

    fn observe(&self, out: &mut [f32]) {
        let planes = self.planes();
        let board = &self.pos.board;
        for sq in 0..32u8 {
            let bit = 1u32 << sq;
            let king = usize::from(board.kings & bit != 0);
            let plane = if board.black & bit != 0 {
                king
            } else if board.white & bit != 0 {
                2 + king
            } else {
                4
            };
            let (r, c) = row_col(sq);
            out[planes.at(plane, r as usize, c as usize)] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::play::Checkers;
    use quasar_core::encode::check_random_games;

    #[test]
    fn moves_have_distinct_numbers_and_cells_one_plane() {
        check_random_games(&Checkers::default(), 30, 3).unwrap();
    }
}
