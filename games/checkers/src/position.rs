//! A position of the rules alone (the board and the side to move), as perft, the reference
//! checks and the endgame databases see it; [`crate::play::Checkers`] adds the draw rules
//! of play.

use crate::board::{Board, Move};
use crate::notation::{self, NotationError};
use quasar_core::{Detail, Game, Outcome, ParseError, Side};

/// The board and the side to move; no move counter or history (a game-theoretic position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Where the pieces stand.
    pub board: Board,
    /// Whose turn it is (`First` is Black).
    pub side: Side,
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl Position {
    /// The start: Black on 1-12, White on 21-32, Black to move.
    pub const START: Position = Position {
        board: Board::START,
        side: Side::First,
    };

    /// The position after `mv`.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        Position {
            board: self.board.after(self.side, mv),
            side: self.side.opponent(),
        }
    }

    /// The position with colours exchanged and the board turned half round.
    pub fn reversed(&self) -> Position {
        Position {
            board: self.board.reversed(),
            side: self.side.opponent(),
        }
    }

    /// A move of this position's image under [`Position::reversed`].
    pub fn reversed_move(&self, mv: Move) -> Move {
        Move {
            from: 31 - mv.from,
            to: 31 - mv.to,
            jumps: mv.jumps,
            // Each direction turns half round: (dr, dc) to (-dr, -dc), 0<->3, 1<->2.
            dirs: (0..mv.jumps).fold(0, |acc, k| acc | (3 - (mv.dirs >> (2 * k) & 3)) << (2 * k)),
            captured: mv.captured.reverse_bits(),
        }
    }

    /// Reads a FEN, with the notation's own error.
    pub fn from_fen(text: &str) -> Result<Position, NotationError> {
        let (board, side) = notation::parse_fen(text)?;
        Ok(Position { board, side })
    }

    /// The legal move a move text names: the landing squares in full, or from and to
    /// alone when one legal move fits.
    pub fn find_move(&self, text: &str) -> Result<Move, ParseError> {
        let (squares, capture) =
            notation::parse_move_squares(text).map_err(|e| ParseError::Move(Detail::new(e)))?;
        let mut moves = Vec::new();
        self.board.moves(self.side, &mut moves);
        let full: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                m.is_capture() == capture
                    && m.from == squares[0]
                    && m.landings().eq(squares[1..].iter().copied())
            })
            .collect();
        let short: Vec<Move> = if full.is_empty() && squares.len() == 2 {
            moves
                .iter()
                .copied()
                .filter(|m| m.is_capture() == capture && m.from == squares[0] && m.to == squares[1])
                .collect()
        } else {
            Vec::new()
        };
        match (full.as_slice(), short.as_slice()) {
            ([m], _) | ([], [m]) => Ok(*m),
            ([], [_, _, ..]) => Err(ParseError::IllegalMove(Detail::message(format!(
                "{text} fits several captures in {}: give every landing square, e.g. 1x10x19",
                self.position_text()
            )))),
            _ => Err(ParseError::IllegalMove(Detail::message(format!(
                "{text} is not legal in {}{}",
                self.position_text(),
                if self.board.has_capture(self.side) {
                    " (a capture is compulsory)"
                } else {
                    ""
                }
            )))),
        }
    }
}

impl Game for Position {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = ["Black", "White"];

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.board.pieces(self.side.opponent()) == 0 {
            moves.clear();
            return;
        }
        self.board.moves(self.side, moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        *self = self.after(mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if !self.board.has_move(self.side) {
            // No piece, or every piece blocked: the side to move loses.
            Some(Outcome::Win(self.side.opponent()))
        } else if self.board.pieces(self.side.opponent()) == 0 {
            // Only set up by hand (play ends when the last piece is taken).
            Some(Outcome::Win(self.side))
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        let b = self.board;
        mix(b.black as u64 | (b.white as u64) << 32)
            ^ mix(b.kings as u64 | (self.side as u64) << 32)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        if self.outcome().is_some() {
            return Err(ParseError::IllegalMove(Detail::message(format!(
                "the game is over in {}: no move is legal",
                self.position_text()
            ))));
        }
        self.find_move(text)
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_text(&mv)
    }

    fn position_text(&self) -> String {
        notation::fen(&self.board, self.side)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Position::from_fen(text).map_err(|e| ParseError::Position(Detail::new(e)))
    }
}

/// The splitmix64 finaliser: spreads every input bit over the whole word.
#[inline]
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
