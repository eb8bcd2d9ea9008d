//! Woodpush's moves as numbers (`2 * cell`, plus one for a push) and its positions as three
//! planes (Left, Right, empty) of one row of cells from cell 1.

use crate::board::Kind;
use crate::position::{Move, Position};
use quasar_core::{Encode, Planes};

const PLANES: &[&str] = &["Left", "Right", "empty"];

impl Encode for Position {
    fn action_count(&self) -> u64 {
        2 * self.board.width as u64
    }

    fn action(&self, mv: Move) -> u64 {
        2 * mv.cell as u64 + u64::from(mv.kind == Kind::Push)
    }

    fn planes(&self) -> Planes {
        Planes {
            names: PLANES,
            rows: 1,
            cols: self.board.width as usize,
        }
    }

    fn observe(&self, out: &mut [f32]) {
        let planes = self.planes();
        for cell in 0..self.board.width {
            let bit = 1u32 << cell;
            let plane = if self.board.left & bit != 0 {
                0
            } else if self.board.right & bit != 0 {
                1
            } else {
                2
            };
            out[planes.at(plane, 0, cell as usize)] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use quasar_core::encode::check_random_games;

    #[test]
    fn moves_have_distinct_numbers_and_cells_one_plane() {
        for (width, pieces) in [(6, 1), (10, 2), (20, 3)] {
            let start = Position::start_with(width, pieces).unwrap();
            check_random_games(&start, 20, 11).unwrap();
        }
    }
}
