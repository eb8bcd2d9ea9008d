//! Breakthrough's instance of the prover: what the solver knows without searching:
//! canonical keys (the left-right mirror), wins in one, threats that must be captured
//! (the prover's [`Quick::Narrow`], the cell as a mask), the fewest plies a win can take,
//! table claims, and the ordered move lists; and the position's compact key and move code
//! for the table and the files.

use crate::tablebase::Tablebase;
use crate::{Board, Move, Position};
use prover::{Instance, Key, ProverPosition};
use quasar_core::Side;

pub use prover::Quick;

/// Breakthrough's children of a searched node.
pub type Step = prover::Step<Position>;

/// Board facts the solver consults at every node.
#[derive(Clone, Debug)]
pub struct Geometry {
    board: Board,
    /// Row `H-1` (White's last row before the goal) and row 2 (Black's).
    pre_goal: [u64; 2],
}

impl Geometry {
    /// The facts of `board`.
    pub fn new(board: Board) -> Geometry {
        Geometry {
            board,
            pre_goal: [board.row_mask(board.height() - 2), board.row_mask(1)],
        }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Reverses the columns of a bitboard; `None` on boards wider than 8, whose keys stay
    /// unmirrored as they always were, so that keys already stored keep their meaning.
    #[inline]
    fn mirror_bits(&self, bb: u64) -> Option<u64> {
        (self.board.width() <= 8).then(|| self.board.mirror_bits(bb))
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
        self.board.mirror_move(mv)
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
            1 => Quick::Narrow(threats),
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
    /// `quick` (Open or Narrow), counted on the bitboards without listing them.
    #[inline]
    pub fn replies(&self, pos: &Position, quick: Quick) -> u32 {
        let t = pos.targets();
        match quick {
            Quick::Narrow(cell) => t.captures_onto(cell).count(),
            _ => t.count(),
        }
    }

    /// The moves worth searching, best first for the side to move (captures, then the
    /// most advanced pieces): only captures of the piece when one must be captured.
    #[inline]
    pub fn moves(&self, pos: &Position, quick: Quick, out: &mut Vec<Move>) {
        pos.generate_moves(out);
        if let Quick::Narrow(cell) = quick {
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

impl Instance for Geometry {
    type Pos = Position;
    type Table = Tablebase;

    #[inline]
    fn key_mirrored(&self, pos: &Position) -> (Key, bool) {
        Geometry::key_mirrored(self, pos)
    }

    #[inline]
    fn key(&self, pos: &Position) -> Key {
        Geometry::key(self, pos)
    }

    #[inline]
    fn mirror_move(&self, mv: Move) -> Move {
        Geometry::mirror_move(self, mv)
    }

    #[inline]
    fn quick(&self, pos: &Position) -> Quick {
        Geometry::quick(self, pos)
    }

    #[inline]
    fn wins_in_one(&self, pos: &Position) -> bool {
        Geometry::wins_in_one(self, pos)
    }

    #[inline]
    fn min_plies(&self, pos: &Position, winner: Side) -> u32 {
        Geometry::min_plies(self, pos, winner)
    }

    #[inline]
    fn distance(&self, pos: &Position, side: Side) -> u32 {
        Geometry::distance(self, pos, side)
    }

    #[inline]
    fn moves(&self, pos: &Position, quick: Quick, out: &mut Vec<Move>) {
        Geometry::moves(self, pos, quick, out)
    }

    #[inline]
    fn replies(&self, pos: &Position, quick: Quick) -> u32 {
        Geometry::replies(self, pos, quick)
    }

    /// The moves in the order of the move generator's targets, without a list.
    #[inline]
    fn any_move(&self, pos: &Position, quick: Quick, mut f: impl FnMut(Move) -> bool) -> bool {
        let t = pos.targets();
        (0..t.count()).any(|k| {
            let mv = pos.nth_move(&t, k);
            if let Quick::Narrow(cell) = quick {
                if 1u64 << mv.to != cell {
                    return false;
                }
            }
            f(mv)
        })
    }

    #[inline]
    fn claim(&self, tb: Option<&Tablebase>, pos: &Position) -> Option<(u32, Move)> {
        Geometry::claim(self, tb, pos)
    }

    #[inline]
    fn claim_plies(&self, tb: Option<&Tablebase>, pos: &Position) -> Option<u32> {
        Geometry::claim_plies(self, tb, pos)
    }

    fn table_fits(&self, tb: &Tablebase, root: &Position) -> Result<(), String> {
        let (table, board) = (tb.region().board(), root.board());
        if table == board {
            Ok(())
        } else {
            Err(format!(
                "the table is for {table}, but the position is on {board}; build one for {board} or drop --tb"
            ))
        }
    }
}

impl ProverPosition for Position {
    #[inline]
    fn raw_key(&self) -> Key {
        Key {
            a: self.white(),
            b: self.black(),
            side: self.side() as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Position, String> {
        let side = if key.side == 0 {
            Side::First
        } else {
            Side::Second
        };
        Position::from_parts(self.board(), key.a, key.b, side).map_err(|e| e.to_string())
    }

    /// The left-right mirror: the rules are symmetric left to right.
    fn mirrored(&self) -> Option<Position> {
        Some(self.mirror())
    }

    fn mirrored_move(&self, mv: Move) -> Move {
        self.mirror_move(mv)
    }

    /// One bit a cell.
    fn key_bytes(&self) -> usize {
        self.board().num_cells().div_ceil(8) as usize
    }

    fn long_text(&self) -> String {
        format!("{} on {}", self.to_fen(), self.board())
    }

    /// Width and height.
    fn params(&self) -> [u8; 2] {
        [self.board().width() as u8, self.board().height() as u8]
    }

    /// A board's width, at most 64, where the other games write a letter's byte.
    fn owns_params(params: [u8; 2]) -> bool {
        (1..=64).contains(&params[0])
    }

    fn from_params(params: [u8; 2], key: &Key) -> Result<Position, String> {
        let board = Board::new(params[0] as u32, params[1] as u32).map_err(|e| e.to_string())?;
        let side = if key.side == 0 {
            Side::First
        } else {
            Side::Second
        };
        Position::from_parts(board, key.a, key.b, side).map_err(|e| e.to_string())
    }

    /// The cell left in the low byte, the cell reached in the high one (never equal).
    #[inline]
    fn move_code(mv: Move) -> u16 {
        u16::from_le_bytes([mv.from, mv.to])
    }

    #[inline]
    fn code_move(code: u16) -> Move {
        let [from, to] = code.to_le_bytes();
        Move { from, to }
    }

    /// A step onto the goal row, the capture of the opponent's last piece, or a move that
    /// leaves the opponent none.
    fn wins_at_once(&self) -> bool {
        let board = self.board();
        let t = self.targets();
        let goal = match self.side() {
            Side::First => board.last_row(),
            Side::Second => board.first_row(),
        };
        if (t.left | t.straight | t.right) & goal != 0 {
            return true;
        }
        // One move takes at most three moves from the opponent (those of the piece it
        // captures, or the straight step onto the cell it enters): with four or more and
        // more than one piece left, no move here ends the game.
        let theirs = self.pieces(self.side().opponent());
        if theirs.count_ones() > 1 {
            let flipped =
                Position::from_parts(board, self.white(), self.black(), self.side().opponent());
            if flipped.is_ok_and(|f| f.targets().count() >= 4) {
                return false;
            }
        }
        wins_in_one_by_trying(self, &t)
    }

    /// In the order of the move generator's targets, without a list.
    #[inline]
    fn any_legal(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        let t = self.targets();
        (0..t.count()).any(|k| f(self.nth_move(&t, k)))
    }
}

/// [`ProverPosition::wins_at_once`] by playing every move.
#[doc(hidden)]
pub fn wins_in_one_by_trying(pos: &Position, t: &crate::Targets) -> bool {
    (0..t.count()).any(|k| {
        let mut child = *pos;
        child.make_move(pos.nth_move(t, k));
        child.result().is_some()
    })
}
