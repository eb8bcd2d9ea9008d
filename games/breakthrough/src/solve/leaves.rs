//! What the solver knows without searching: canonical keys (the left-right mirror), wins
//! in one, threats that must be captured, the fewest plies a win can take, table claims,
//! and the ordered move lists.

use super::tt::{Key, Table};
use crate::tablebase::Tablebase;
use crate::{Board, Move, Position};
use quasar_core::Side;

/// A verdict on an unfinished position from its last rows alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// The side to move has a piece one step from its goal: it wins with its next move.
    WinInOne,
    /// The opponent has two or more pieces one step from their goal and the side to move
    /// cannot win at once: it loses after its move, two plies.
    LossInTwo,
    /// The opponent has exactly one piece one step from its goal (the cell, a mask): every
    /// move but a capture of it loses in two plies.
    MustCapture(u64),
    /// Nothing forced.
    Open,
}

/// A child of a searched node: its position, the move to it, its table key and whether
/// the key is the mirror image's.
#[derive(Clone, Copy)]
pub struct Step {
    /// The child.
    pub pos: Position,
    /// The move that made it.
    pub mv: Move,
    /// Its table key.
    pub key: Key,
    /// The key is the mirror image's.
    pub mirrored: bool,
}

/// Board facts the solver consults at every node.
#[derive(Clone, Debug)]
pub struct Geometry {
    board: Board,
    /// Row `H-1` (White's last row before the goal) and row 2 (Black's).
    pre_goal: [u64; 2],
    /// `reverse[bits]`: a row's pattern with its columns reversed (boards up to 8 wide).
    reverse: Vec<u8>,
}

impl Geometry {
    /// The facts of `board`.
    pub fn new(board: Board) -> Geometry {
        let w = board.width();
        let reverse = if w <= 8 {
            (0..1u32 << w)
                .map(|bits| (bits.reverse_bits() >> (32 - w)) as u8)
                .collect()
        } else {
            Vec::new()
        };
        Geometry {
            board,
            pre_goal: [board.row_mask(board.height() - 2), board.row_mask(1)],
            reverse,
        }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Reverses the columns of a bitboard (`None` on boards wider than 8).
    #[inline]
    fn mirror_bits(&self, bb: u64) -> Option<u64> {
        if self.reverse.is_empty() {
            return None;
        }
        let w = self.board.width();
        let row = self.board.first_row();
        let mut out = 0;
        for r in 0..self.board.height() {
            let bits = (bb >> (r * w)) & row;
            out |= (self.reverse[bits as usize] as u64) << (r * w);
        }
        Some(out)
    }

    /// The children of `pos` by `moves`, each with its key; every child's bucket in `tt`
    /// is asked for as it is made, so that the searches' probes of all the children, which
    /// come next, overlap their misses instead of waiting for them one by one.
    #[inline]
    pub fn steps<'s, V: Copy + Default>(
        &'s self,
        pos: &'s Position,
        moves: &'s [Move],
        tt: &'s Table<V>,
    ) -> impl Iterator<Item = Step> + 's {
        moves.iter().map(move |&mv| {
            let mut child = *pos;
            child.make_move(mv);
            let (key, mirrored) = self.key_mirrored(&child);
            tt.prefetch(&key);
            Step {
                pos: child,
                mv,
                key,
                mirrored,
            }
        })
    }

    /// The table key of `pos`: the smaller of it and its mirror image, which have equal
    /// values (the rules are symmetric left to right).
    #[inline]
    pub fn key(&self, pos: &Position) -> Key {
        self.key_mirrored(pos).0
    }

    /// The table key of `pos`, and whether it is the mirror image's.
    #[inline]
    pub fn key_mirrored(&self, pos: &Position) -> (Key, bool) {
        let side = pos.side() as u8;
        let (w, b) = (pos.white(), pos.black());
        match (self.mirror_bits(w), self.mirror_bits(b)) {
            (Some(mw), Some(mb)) if (mw, mb) < (w, b) => (Key { a: mw, b: mb, side }, true),
            _ => (Key { a: w, b, side }, false),
        }
    }

    /// A move seen in the mirror image.
    #[inline]
    pub fn mirror_move(&self, mv: Move) -> Move {
        let w = self.board.width() as u8;
        let m = |sq: u8| sq - sq % w + (w - 1 - sq % w);
        Move {
            from: m(mv.from),
            to: m(mv.to),
        }
    }

    /// True when the winner (to move in the unfinished `pos`) wins with its next move: a
    /// piece one step from its goal, or a capture of the loser's last piece.
    #[inline]
    pub fn wins_in_one(&self, pos: &Position) -> bool {
        let me = pos.side();
        if pos.pieces(me) & self.pre_goal[me.index()] != 0 {
            return true;
        }
        let theirs = pos.pieces(me.opponent());
        if theirs.count_ones() != 1 {
            return false;
        }
        let t = pos.targets();
        (t.left | t.right) & theirs != 0
    }

    /// The verdict of the last rows on an unfinished position. A piece one step from its
    /// goal always has a winning step (a diagonal onto the goal row is empty or an
    /// opponent's piece, and W >= 3), and no move of the other side can block it: only a
    /// capture stops it.
    #[inline]
    pub fn quick(&self, pos: &Position) -> Quick {
        let me = pos.side();
        if pos.pieces(me) & self.pre_goal[me.index()] != 0 {
            return Quick::WinInOne;
        }
        let them = me.opponent();
        let threats = pos.pieces(them) & self.pre_goal[them.index()];
        match threats.count_ones() {
            0 => Quick::Open,
            1 => Quick::MustCapture(threats),
            _ => Quick::LossInTwo,
        }
    }

    /// Rows from `side`'s most advanced piece to its goal row (`side` has a piece).
    #[inline]
    pub fn distance(&self, pos: &Position, side: Side) -> u32 {
        let w = self.board.width();
        let own = pos.pieces(side);
        match side {
            Side::First => self.board.height() - 1 - (63 - own.leading_zeros()) / w,
            Side::Second => own.trailing_zeros() / w,
        }
    }

    /// The fewest plies in which `winner` can still win from the unfinished `pos`: each of
    /// its moves advances one piece a row or captures one piece, and the loser always has
    /// a legal move (its most advanced piece can step diagonally), so it needs as many
    /// moves as the smaller of its best piece's distance and the loser's piece count.
    #[inline]
    pub fn min_plies(&self, pos: &Position, winner: Side) -> u32 {
        let dist = self.distance(pos, winner);
        let moves = dist.min(pos.pieces(winner.opponent()).count_ones());
        if pos.side() == winner {
            2 * moves - 1
        } else {
            2 * moves
        }
    }

    /// How many moves [`Geometry::moves`] lists for an unfinished `pos` whose verdict is
    /// `quick` (Open or MustCapture), counted on the bitboards without listing them.
    #[inline]
    pub fn replies(&self, pos: &Position, quick: Quick) -> u32 {
        let t = pos.targets();
        match quick {
            Quick::MustCapture(cell) => t.captures_onto(cell).count(),
            _ => t.count(),
        }
    }

    /// The moves worth searching, best first for the side to move (captures, then the
    /// most advanced pieces): only captures of the piece when one must be captured.
    #[inline]
    pub fn moves(&self, pos: &Position, quick: Quick, out: &mut Vec<Move>) {
        pos.generate_moves(out);
        if let Quick::MustCapture(cell) = quick {
            out.retain(|m| 1u64 << m.to == cell);
            return;
        }
        // generate_moves lists from-cells upward: White's most advanced pieces come last.
        if pos.side() == Side::First {
            out.reverse();
        }
        let all = pos.white() | pos.black();
        let mut captures = 0;
        for i in 0..out.len() {
            if all & (1u64 << out[i].to) != 0 {
                out[captures..=i].rotate_right(1);
                captures += 1;
            }
        }
    }

    /// A sound table claim for the side to move: a bound on the plies it needs to win
    /// ([`Tablebase::win_plies`]) and the table's move. A damaged block is no claim.
    #[inline]
    pub fn claim(&self, tb: Option<&Tablebase>, pos: &Position) -> Option<(u32, Move)> {
        // The fast path first: most probes claim nothing, and it answers those from the
        // table's answer cache without the colour flip.
        self.claim_plies(tb, pos)?;
        let tb = tb?;
        let win = tb.explain(pos).ok()?;
        Some((tb.win_plies(pos, win.depth), win.best_move))
    }

    /// The bound of [`Geometry::claim`] without the move, through the table's fast path
    /// ([`Tablebase::claim_depth`]): what the searches ask at their nodes.
    #[inline]
    pub fn claim_plies(&self, tb: Option<&Tablebase>, pos: &Position) -> Option<u32> {
        let tb = tb?;
        let depth = tb.claim_depth(pos)?;
        Some(tb.win_plies(pos, depth))
    }
}
