//! The stored value of thesis eq. 4.2: the best move's coordinates and the depth `k`
//! packed into one integer, with a wider field per coordinate on boards beyond 8x8.

use crate::{Board, Move};

/// How a table packs a move and its depth into one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueCodec {
    /// Bits per coordinate field: 3 (eq. 4.2 exactly) on boards of at most 8x8, else 5.
    pub field_bits: u32,
    board: Board,
}

/// A decoded table value: depth and best move on the real board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The effective depth `D`.
    pub depth: u32,
    /// The best move, White to move, in board cells.
    pub best_move: Move,
}

impl ValueCodec {
    /// The codec of `board`.
    pub fn new(board: Board) -> ValueCodec {
        let field_bits = if board.width() <= 8 && board.height() <= 8 {
            3
        } else {
            5
        };
        ValueCodec { field_bits, board }
    }

    /// `toRow + toCol * 8 + fromRow * 8^2 + fromCol * 8^3 + depth * 8^4` (with 8 replaced
    /// by `2^field_bits` on large boards).
    #[inline]
    pub fn encode(&self, depth: u32, mv: Move) -> u32 {
        let b = self.field_bits;
        let (fc, fr) = (self.board.col(mv.from), self.board.row(mv.from));
        let (tc, tr) = (self.board.col(mv.to), self.board.row(mv.to));
        tr | (tc << b) | (fr << (2 * b)) | (fc << (3 * b)) | (depth << (4 * b))
    }

    /// The inverse of [`ValueCodec::encode`].
    #[inline]
    pub fn decode(&self, value: u32) -> Entry {
        let b = self.field_bits;
        let mask = (1u32 << b) - 1;
        let field = |i: u32| (value >> (i * b)) & mask;
        let from = self.board.square(field(3), field(2));
        let to = self.board.square(field(1), field(0));
        Entry {
            depth: value >> (4 * b),
            best_move: Move { from, to },
        }
    }

    /// The largest value of any entry with depth at most `max_depth`.
    pub fn max_value(&self, max_depth: u32) -> u64 {
        ((max_depth as u64 + 1) << (4 * self.field_bits)) - 1
    }
}
