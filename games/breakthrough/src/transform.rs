//! The two symmetries the tablebase needs: the left-right mirror and the colour flip.

use super::board::{Board, Move, Position};

/// Reverses the columns of every row of a bitboard.
pub fn mirror_bits(board: &Board, bb: u64) -> u64 {
    let w = board.width();
    let mut out = 0;
    let mut rest = bb;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let (col, row) = (sq % w, sq / w);
        out |= 1u64 << (row * w + (w - 1 - col));
    }
    out
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
            white: mirror_bits(&self.board, self.white),
            black: mirror_bits(&self.board, self.black),
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
        let m = |sq: u8| mirror_bits(&self.board, 1u64 << sq).trailing_zeros() as u8;
        Move {
            from: m(mv.from),
            to: m(mv.to),
        }
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
