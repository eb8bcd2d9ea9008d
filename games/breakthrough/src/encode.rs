//! Breakthrough's moves as numbers (`from * cells + to`) and its positions as three planes
//! (White, Black, empty) of rows from White's home row up.

use crate::{Move, Position};
use quasar_core::{Encode, Planes};

const PLANES: &[&str] = &["White", "Black", "empty"];

impl Encode for Position {
    fn action_count(&self) -> u64 {
        let cells = self.board().num_cells() as u64;
        cells * cells
    }

    fn action(&self, mv: Move) -> u64 {
        mv.from as u64 * self.board().num_cells() as u64 + mv.to as u64
    }

    fn planes(&self) -> Planes {
        Planes {
            names: PLANES,
            rows: self.board().height() as usize,
            cols: self.board().width() as usize,
        }
    }

    fn observe(&self, out: &mut [f32]) {
        let planes = self.planes();
        let board = self.board();
        for sq in 0..board.num_cells() as u8 {
            let bit = 1u64 << sq;
            let plane = if self.white() & bit != 0 {
                0
            } else if self.black() & bit != 0 {
                1
            } else {
                2
            };
            out[planes.at(plane, board.row(sq) as usize, board.col(sq) as usize)] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Position};
    use quasar_core::encode::check_random_games;
    use quasar_core::{Encode, Game};

    #[test]
    fn moves_have_distinct_numbers_and_cells_one_plane() {
        for (w, h) in [(3, 4), (6, 6), (8, 8), (5, 7)] {
            let start = Position::start(Board::new(w, h).unwrap());
            check_random_games(&start, 20, 7).unwrap();
        }
    }

    #[test]
    fn the_start_has_two_rows_of_each_side() {
        let pos = Position::start(Board::new(6, 6).unwrap());
        let mut out = vec![0.0; pos.planes().len()];
        pos.observe(&mut out);
        let p = pos.planes();
        for c in 0..6 {
            for (r, plane) in [(0, 0), (1, 0), (2, 2), (3, 2), (4, 1), (5, 1)] {
                assert_eq!(out[p.at(plane, r, c)], 1.0, "row {r} col {c}");
            }
        }
        let b2a3 = pos.parse_move("b2-a3").unwrap();
        assert_eq!(pos.action(b2a3), 7 * 36 + 12);
    }
}
