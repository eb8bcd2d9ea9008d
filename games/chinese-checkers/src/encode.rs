//! Chinese Checkers' moves as numbers (`from * 49 + to`) and its positions as three planes
//! (X, O, empty) of the rhombus in axial coordinates: row `p`, column `q`.

use crate::board::{coords, CELLS, SIDE};
use crate::position::{Move, Position};
use quasar_core::{Encode, Planes};

const PLANES: &[&str] = &["X", "O", "empty"];

impl Encode for Position {
    fn action_count(&self) -> u64 {
        (CELLS * CELLS) as u64
    }

    fn action(&self, mv: Move) -> u64 {
        mv.from as u64 * CELLS as u64 + mv.to as u64
    }

    fn planes(&self) -> Planes {
        Planes {
            names: PLANES,
            rows: SIDE as usize,
            cols: SIDE as usize,
        }
    }

    fn observe(&self, out: &mut [f32]) {
        let planes = self.planes();
        for cell in 0..CELLS {
            let bit = 1u64 << cell;
            let plane = if self.pieces[0] & bit != 0 {
                0
            } else if self.pieces[1] & bit != 0 {
                1
            } else {
                2
            };
            let (p, q) = coords(cell);
            out[planes.at(plane, p as usize, q as usize)] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use quasar_core::encode::check_random_games;
    use quasar_core::Encode;

    #[test]
    fn moves_have_distinct_numbers_and_cells_one_plane() {
        for k in 1..=6 {
            check_random_games(&Position::start(k).unwrap(), 10, 5).unwrap();
        }
    }

    #[test]
    fn every_cell_of_the_rhombus_is_on_one_plane() {
        let pos = Position::start(6).unwrap();
        let mut out = vec![0.0; pos.planes().len()];
        pos.observe(&mut out);
        assert_eq!(out.iter().sum::<f32>(), 49.0);
        let p = pos.planes();
        let pieces: f32 = (0..2 * 49).map(|i| out[i]).sum();
        assert_eq!((pieces, p.rows, p.cols), (12.0, 7, 7));
    }
}
