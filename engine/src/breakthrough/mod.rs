//! Breakthrough on any board `W x H` with `W, H >= 3` and `W * H <= 64`, on bitboards.
//!
//! Cells are numbered row-major from `a1 = 0`; White (the [`Side::First`]) starts on rows
//! 1-2 and moves up, Black on the top two rows and moves down.

mod board;
mod movegen;
mod notation;
mod transform;

pub use board::{Board, Move, Position, BLACK, WHITE};
pub use movegen::{select_bit_mask, Targets};

use crate::game::{Game, Outcome, ParseError, Side};

impl Game for Position {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.make_move(mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.zobrist()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.parse_move_text(text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.format_move(mv)
    }

    fn position_text(&self) -> String {
        self.to_fen()
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Position::from_fen(text)
    }
}
