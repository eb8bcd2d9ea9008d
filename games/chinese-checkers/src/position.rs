//! A position (each side's pieces as a set of cells, the side to move), its moves (one per
//! destination: a step, or the end of a hop chain), the win test, and the [`Game`]
//! implementation.

use crate::board::{
    self, cells, far_area, rotate, start_area, HOP, MAX_PIECES, NEIGHBOURS, NONE, STEP,
};
use crate::notation::{self, NotationError};
use quasar_core::{splitmix64, Detail, Game, Outcome, ParseError, Side};

/// One move: the piece on `from` ends on `to` (by a step or a hop chain; the chain taken does
/// not matter, so it is not part of the move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The cell the piece leaves.
    pub from: u8,
    /// The cell it ends on.
    pub to: u8,
}

/// A position: the cells of each side's pieces and the side to move. Both sides have the
/// same number of pieces `K` (1 to 6), which fixes the start and goal areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The first player's pieces (index 0) and the second's (index 1), as cell sets.
    pub pieces: [u64; 2],
    /// Whose turn it is.
    pub side: Side,
}

/// Why a number of pieces cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PiecesError {
    /// Outside 1 to 6.
    #[error("{0} pieces a side: give 1 to {MAX_PIECES} (2 and 3 are the paper's games)")]
    OutOfRange(u32),
}

impl Position {
    /// The start with `k` pieces a side: the first player on the first `k` cells from the top
    /// tip, the second on their half-turn image, the first player to move.
    pub fn start(k: u32) -> Result<Position, PiecesError> {
        if !(1..=MAX_PIECES).contains(&k) {
            return Err(PiecesError::OutOfRange(k));
        }
        Ok(Position {
            pieces: [start_area(k), far_area(k)],
            side: Side::First,
        })
    }

    /// Pieces a side.
    #[inline]
    pub fn k(&self) -> u32 {
        self.pieces[0].count_ones()
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The cells `side` must fill: the other side's start area.
    #[inline]
    pub fn goal(&self, side: Side) -> u64 {
        match side {
            Side::First => far_area(self.k()),
            Side::Second => start_area(self.k()),
        }
    }

    /// The spec's win test for `side`: every goal cell occupied, one of them by its own piece.
    #[inline]
    pub fn has_won(&self, side: Side) -> bool {
        let goal = self.goal(side);
        self.occupied() & goal == goal && self.pieces[side.index()] & goal != 0
    }

    /// The cells the piece on `from` can end on: empty neighbours, and every cell a chain
    /// of hops reaches (over a piece of either colour to the empty cell beyond), except
    /// `from` itself. The moving piece is lifted first, so chains may cross its own cell.
    #[inline]
    pub fn destinations(&self, from: usize) -> u64 {
        destinations(self.occupied() & !(1 << from), from)
    }

    /// Clears `out` and writes every legal move (none once the game is over).
    pub fn moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.has_won(self.side.opponent()) {
            return;
        }
        self.push_moves(out);
    }

    fn push_moves(&self, out: &mut Vec<Move>) {
        for from in cells(self.pieces[self.side.index()]) {
            for to in cells(self.destinations(from)) {
                out.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }

    /// Whether the side to move has a move (always so with at most 3 pieces a side).
    fn can_move(&self) -> bool {
        cells(self.pieces[self.side.index()]).any(|c| self.destinations(c) != 0)
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let (f, t) = (mv.from as usize, mv.to as usize);
        f < board::CELLS
            && t < board::CELLS
            && self.outcome().is_none()
            && self.pieces[self.side.index()] >> f & 1 == 1
            && self.destinations(f) >> t & 1 == 1
    }

    /// The position after `mv` (a legal move).
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut p = *self;
        p.pieces[self.side.index()] ^= (1 << mv.from) | (1 << mv.to);
        p.side = self.side.opponent();
        p
    }

    /// The image under the half turn with the colours exchanged: the second player's view
    /// of the game as the first player's.
    pub fn flipped(&self) -> Position {
        Position {
            pieces: [rotate(self.pieces[1]), rotate(self.pieces[0])],
            side: self.side.opponent(),
        }
    }

    /// The image of a move under [`Position::flipped`].
    pub fn flip_move(_: &Position, mv: Move) -> Move {
        Move {
            from: 48 - mv.from,
            to: 48 - mv.to,
        }
    }

    /// The image under the mirror through the long diagonal (`(p, q)` to `(q, p)`), which
    /// keeps both start areas only for `K` of 1, 3 and 6: the reflection of each row.
    pub fn mirrored(&self) -> Position {
        Position {
            pieces: [mirror(self.pieces[0]), mirror(self.pieces[1])],
            side: self.side,
        }
    }

    /// The image of a move under [`Position::mirrored`].
    pub fn mirror_move(_: &Position, mv: Move) -> Move {
        Move {
            from: mirror_cell(mv.from as usize) as u8,
            to: mirror_cell(mv.to as usize) as u8,
        }
    }
}

/// The mirror image of a cell: `(p, q)` to `(q, p)`.
pub fn mirror_cell(c: usize) -> usize {
    let (p, q) = board::coords(c);
    board::index(q, p)
}

fn mirror(set: u64) -> u64 {
    cells(set).fold(0, |m, c| m | 1 << mirror_cell(c))
}

/// The destinations of a piece on `from` when `occ` holds every other piece.
#[inline]
pub fn destinations(occ: u64, from: usize) -> u64 {
    let steps = NEIGHBOURS[from] & !occ;
    let mut reached = 1u64 << from;
    let mut todo = reached;
    while todo != 0 {
        let c = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let over = &STEP[c];
        let land = &HOP[c];
        for d in 0..6 {
            let l = land[d];
            if l != NONE && occ >> over[d] & 1 == 1 {
                let bit = 1u64 << l;
                if (occ | reached) & bit == 0 {
                    reached |= bit;
                    todo |= bit;
                }
            }
        }
    }
    steps | (reached & !(1 << from))
}

impl Game for Position {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.moves_into(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        *self = self.after(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.side.opponent();
        if self.has_won(last) {
            return Some(Outcome::Win(last));
        }
        // With 4 or more pieces a side a side can be walled in: it has lost (normal play).
        (self.k() > 3 && !self.can_move()).then_some(Outcome::Win(last))
    }

    fn hash(&self) -> u64 {
        splitmix64(splitmix64(self.pieces[0] ^ (self.side as u64) << 63) ^ self.pieces[1])
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let mv = notation::parse_move(text).map_err(|e| ParseError::Move(Detail::new(e)))?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(ParseError::IllegalMove(Detail::new(
                NotationError::Illegal(text.trim().to_string()),
            )))
        }
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_text(mv)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    fn parse_position(text: &str) -> Result<Position, ParseError> {
        notation::parse_position(text).map_err(|e| ParseError::Position(Detail::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_five_moves_for_two_pieces() {
        let p = Position::start(2).unwrap();
        let mut m = Vec::new();
        p.moves_into(&mut m);
        assert_eq!(m.len(), 5, "{m:?}");
        assert!(Position::start(0).is_err());
        assert!(Position::start(7).is_err());
    }

    #[test]
    fn a_hop_chain_is_one_move_per_destination() {
        // X on 0 with pieces to hop over on (1,0) and (3,0): 0 -> (2,0) -> (4,0).
        let a = board::index(1, 0);
        let b = board::index(3, 0);
        let pos = Position {
            pieces: [1, (1 << a) | (1 << b)],
            side: Side::First,
        };
        let d = pos.destinations(0);
        assert!(d >> board::index(2, 0) & 1 == 1);
        assert!(d >> board::index(4, 0) & 1 == 1);
        assert!(d >> board::index(0, 1) & 1 == 1);
        assert_eq!(d.count_ones(), 3);
    }

    #[test]
    fn the_win_needs_a_full_goal_with_an_own_piece() {
        // K = 1: X on 48 wins once it has moved there.
        let pos = Position {
            pieces: [1 << 48, 1 << 3],
            side: Side::Second,
        };
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::First)));
        // The side to move is never judged.
        let pos = Position {
            side: Side::First,
            ..pos
        };
        assert_eq!(pos.outcome(), None);
        // K = 2: the goal full of O's own pieces is no win for X.
        let pos = Position {
            pieces: [0b11 << 20, (1 << 47) | (1 << 48)],
            side: Side::Second,
        };
        assert_eq!(pos.outcome(), None);
        let pos = Position {
            pieces: [(1 << 47) | 1 << 20, (1 << 48) | 1 << 3],
            side: Side::Second,
        };
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::First)));
    }
}
