//! A Woodpush position (strip, side to move, the push the direct ko forbids), its moves, and
//! the [`Game`] implementation.

use crate::board::{bits, Board, Kind, MAX_WIDTH};
use crate::notation;
use quasar_core::Detail;
use quasar_core::{Game, Outcome, ParseError, Side};

/// One move: the piece on a cell (bit index, cell `cell + 1`) moves forward or pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Bit index of the moving piece (cell number minus one).
    pub cell: u8,
    /// Forward or push.
    pub kind: Kind,
}

/// A position: the strip, the side to move and, when the direct ko applies, the bit index of
/// the mover's piece whose push would recreate the position before the opponent's last move.
///
/// The ko is kept only when that push is legal, so equal futures compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The strip.
    pub board: Board,
    /// Whose turn it is (Left is `First`).
    pub side: Side,
    /// The mover's piece whose push the direct ko forbids.
    pub ko: Option<u8>,
}

/// Why a width cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WidthError {
    /// Outside 6 to [`MAX_WIDTH`] (the start needs 6 cells).
    #[error("width {0} is not supported: the start position needs 6 to {MAX_WIDTH} cells")]
    OutOfRange(u32),
    /// A start with no pieces or more than 8 a side.
    #[error("{0} pieces a side: give 1 to 8")]
    Pieces(u32),
    /// A start with `pieces` a side that does not fit on `width` cells.
    #[error("a start with {pieces} pieces a side needs a strip of {} to {MAX_WIDTH} cells, not {width}", 4 * pieces - 2)]
    TooNarrow {
        /// The strip width asked for.
        width: u32,
        /// The pieces a side asked for.
        pieces: u32,
    },
}

impl Position {
    /// The usual start of the paper: Left on cells 1 and 3, Right on `w - 2` and `w`, Left to
    /// move (`w` at least 6 so the pieces do not overlap).
    pub fn start(width: u32) -> Result<Position, WidthError> {
        if !(6..=MAX_WIDTH).contains(&width) {
            return Err(WidthError::OutOfRange(width));
        }
        let w = width;
        Ok(Position {
            board: Board {
                left: 0b101,
                right: (0b101) << (w - 3),
                width: w,
            },
            side: Side::First,
            ko: None,
        })
    }

    /// The start with `pieces` a side on every other cell from each end: Left on cells 1, 3,
    /// ..., `2 * pieces - 1`, Right on the mirror cells, Left to move (`start` is 2 a side).
    pub fn start_with(width: u32, pieces: u32) -> Result<Position, WidthError> {
        if !(1..=8).contains(&pieces) {
            return Err(WidthError::Pieces(pieces));
        }
        if !(4 * pieces - 2..=MAX_WIDTH).contains(&width) {
            return Err(WidthError::TooNarrow { width, pieces });
        }
        let left = (0..pieces).fold(0u32, |m, k| m | 1 << (2 * k));
        let board = Board {
            left,
            right: 0,
            width,
        }
        .mirror();
        Ok(Position::new(
            Board {
                left,
                right: board.right,
                width,
            },
            Side::First,
        ))
    }

    /// A position with no ko from a strip and a side to move.
    pub fn new(board: Board, side: Side) -> Position {
        Position {
            board,
            side,
            ko: None,
        }
    }

    /// Writes the legal moves into `out` (cleared first): each piece from the lowest cell,
    /// forward then push; none when the game is over.
    #[inline]
    pub fn moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.board.is_over() {
            return;
        }
        for i in bits(self.board.pieces(self.side)) {
            out.push(Move {
                cell: i as u8,
                kind: Kind::Forward,
            });
            if self.board.can_push(self.side, i) && self.ko != Some(i as u8) {
                out.push(Move {
                    cell: i as u8,
                    kind: Kind::Push,
                });
            }
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let i = mv.cell as u32;
        !self.board.is_over()
            && i < self.board.width
            && self.board.pieces(self.side) & (1 << i) != 0
            && match mv.kind {
                Kind::Forward => true,
                Kind::Push => self.board.can_push(self.side, i) && self.ko != Some(mv.cell),
            }
    }

    /// The position after `mv` (legal), with the opponent's ko set when one of its pushes
    /// would recreate this strip.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let board = self.board.apply(self.side, mv.cell as u32, mv.kind);
        let side = self.side.opponent();
        let ko = if mv.kind == Kind::Push {
            undoing_push(board, side, self.board)
        } else {
            // A forward move cannot be undone: pushes move the opponent's pieces only away.
            None
        };
        Position { board, side, ko }
    }

    /// The score of a finished game (see [`Board::score`]); `None` while it goes on.
    pub fn score(&self) -> Option<i32> {
        self.board.is_over().then(|| self.board.score())
    }

    /// The strip the ko forbids recreating, when one applies.
    pub fn forbidden(&self) -> Option<Board> {
        self.ko
            .map(|q| self.board.apply(self.side, q as u32, Kind::Push))
    }
}

/// The piece of `side` whose push turns `board` into `target`, if any.
#[inline]
pub fn undoing_push(board: Board, side: Side, target: Board) -> Option<u8> {
    bits(board.pieces(side))
        .find(|&q| board.can_push(side, q) && board.apply(side, q, Kind::Push) == target)
        .map(|q| q as u8)
}

/// Whether a ko on the piece `q` of `side` (to move) is one that play can produce: its push
/// is legal and leads to a strip from which an opponent's push leads back here, so that
/// strip can have stood before the opponent's last move.
#[inline]
pub fn ko_possible(board: Board, side: Side, q: u32) -> bool {
    board.can_push(side, q)
        && undoing_push(board.apply(side, q, Kind::Push), side.opponent(), board).is_some()
}

impl Game for Position {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = ["Left", "Right"];

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.moves_into(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        *self = self.after(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let b = self.board;
        match (b.left == 0, b.right == 0) {
            (false, false) => None,
            (false, true) => Some(Outcome::Win(Side::First)),
            (true, false) => Some(Outcome::Win(Side::Second)),
            (true, true) => Some(Outcome::Draw),
        }
    }

    fn hash(&self) -> u64 {
        // A mix of every field; the searcher confirms matches with ==.
        let cells = self.board.left as u64 | (self.board.right as u64) << 32;
        let rest = self.board.width as u64
            | (self.side as u64) << 8
            | self.ko.map_or(0, |q| q as u64 + 1) << 16;
        mix(cells ^ mix(rest))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let mv =
            notation::parse_move(text, self.side).map_err(|e| ParseError::Move(Detail::new(e)))?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(ParseError::IllegalMove(Detail::message(format!(
                "{text} is not legal in {}",
                self.position_text()
            ))))
        }
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_text(mv, self.side)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        notation::parse_position(text).map_err(|e| ParseError::Position(Detail::new(e)))
    }
}

/// The splitmix64 finaliser: spreads every input bit over the whole word.
#[inline]
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
