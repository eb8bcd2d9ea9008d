//! The two symmetries the tablebase needs: the left-right mirror and the colour flip.

use super::board::{Board, Move, Position};
use quasar_core::grid;

impl Board {
    /// The cell in the same row and the mirrored column. Depends only on the width, so it
    /// also serves cell numberings of part of the board (a tablebase region's rows).
    #[inline]
    pub fn mirror_square(&self, sq: u8) -> u8 {
        self.square(self.width() - 1 - self.col(sq), self.row(sq))
    }

    /// A move seen in the left-right mirror.
    #[inline]
    pub fn mirror_move(&self, mv: Move) -> Move {
        Move {
            from: self.mirror_square(mv.from),
            to: self.mirror_square(mv.to),
        }
    }

    /// A bitboard of this board with the columns of every row reversed.
    #[inline]
    pub fn mirror_bits(&self, bb: u64) -> u64 {
        grid::mirror_columns(bb, self.width(), self.height())
    }
}

/// Reverses the rows of a bitboard (row 1 becomes row `H`).
pub fn flip_rows(board: &Board, bb: u64) -> u64 {
    let (w, h) = (board.width(), board.height());
    let row_mask = board.first_row();
    let mut out = 0;
    for r in 0..h {
        out |= ((bb >> (r * w)) & row_mask) << ((h - 1 - r) * w);
    }
    out
}

impl Position {
    /// The left-right mirror image (same side to move).
    pub fn mirror(&self) -> Position {
        Position {
            board: self.board,
            white: self.board.mirror_bits(self.white),
            black: self.board.mirror_bits(self.black),
            side: self.side,
        }
    }

    /// Rows reversed, colours swapped and the side to move swapped: Black to move becomes
    /// the equivalent White-to-move position.
    pub fn flip_colours(&self) -> Position {
        Position {
            board: self.board,
            white: flip_rows(&self.board, self.black),
            black: flip_rows(&self.board, self.white),
            side: self.side.opponent(),
        }
    }

    /// A move of this position seen in the mirror image.
    pub fn mirror_move(&self, mv: Move) -> Move {
        self.board.mirror_move(mv)
    }

    /// A move of this position seen after [`Position::flip_colours`].
    pub fn flip_move(&self, mv: Move) -> Move {
        let f = |sq: u8| flip_rows(&self.board, 1u64 << sq).trailing_zeros() as u8;
        Move {
            from: f(mv.from),
            to: f(mv.to),
        }
    }
}
