//! Checkers as an instance of the generic prover, as checkers was solved: a forward search
//! whose leaves are the positions the endgame databases hold. [`Leafed`] is a position
//! whose game ends where it enters the databases, with their value (win, draw or loss for
//! the side to move) as its outcome, so the prover's searches, its proof file and the
//! independent checker all stop there alike; a proof's plies count to that end, not to the
//! end of play, and no distance is needed. Values are game-theoretic, as the databases':
//! endless play is a draw, and the draw rules of play (40 moves, the third repetition) do
//! not apply. Solved by [`prover::solve_with_draws`].

use crate::board::{Board, Move, JUMP, NEIGHBOUR, NONE};
use crate::db::{Database, Wdl};
use crate::notation::check_board;
use crate::position::Position;
use prover::{Instance, Key, ProverPosition};
use quasar_core::{Game, Outcome, ParseError, Side};

/// The first byte of a checkers proof's parameters, which no other game's uses.
pub const PROOF_TAG: u8 = b'K';

/// Jumps of the longest capture a move code holds: a longer one's code stands for its
/// first five jumps, which no legal move is, so a proof through one is refused.
pub const CODE_JUMPS: u8 = 5;

/// A position whose databases (when given) end the game: a position of at most their
/// pieces is finished, with their value.
#[derive(Clone, Copy, Debug)]
pub struct Leafed {
    /// The board and the side to move.
    pub pos: Position,
    /// The databases whose positions are leaves.
    db: Option<&'static Database>,
    /// The most pieces of a leaf (0: none); kept without `db` by a proof's root until its
    /// databases are given ([`Leafed::with_leaves`]).
    pieces: u8,
}

impl PartialEq for Leafed {
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos
    }
}

impl Eq for Leafed {}

impl Leafed {
    /// `pos` with `db`'s positions as leaves (none: the rules alone).
    pub fn new(pos: Position, db: Option<&'static Database>) -> Leafed {
        Leafed {
            pos,
            db,
            pieces: db.map_or(0, |d| d.max_pieces() as u8),
        }
    }

    /// The most pieces of a leaf: the databases' (0: none).
    pub fn leaf_pieces(&self) -> u32 {
        self.pieces as u32
    }

    /// True when the leaves' databases are wanted but not given (a proof's root).
    pub fn lacks_leaves(&self) -> bool {
        self.pieces > 0 && self.db.is_none()
    }

    /// This position with `db`'s positions as leaves, which must be of as many pieces as
    /// the leaves it was proven with.
    pub fn with_leaves(&self, db: &'static Database) -> Result<Leafed, String> {
        if db.max_pieces() != self.pieces as u32 {
            return Err(format!(
                "its leaves are the databases of {} pieces, these are of {}",
                self.pieces,
                db.max_pieces()
            ));
        }
        Ok(Leafed::new(self.pos, Some(db)))
    }

    /// The databases' value of this position, when it is a leaf.
    #[inline]
    pub fn leaf(&self) -> Option<Wdl> {
        let db = self.db?;
        let b = &self.pos.board;
        if (b.black | b.white).count_ones() > self.pieces as u32 {
            return None;
        }
        db.value(b, self.pos.side)
    }

    fn same_leaves(&self, pos: Position) -> Leafed {
        Leafed { pos, ..*self }
    }
}

impl Game for Leafed {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = Position::SIDE_NAMES;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.pos.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.leaf().is_some() {
            moves.clear();
        } else {
            self.pos.legal_moves(moves);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.pos.play(mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        let me = self.pos.side;
        match self.leaf() {
            Some(Wdl::Win) => Some(Outcome::Win(me)),
            Some(Wdl::Loss) => Some(Outcome::Win(me.opponent())),
            Some(Wdl::Draw) => Some(Outcome::Draw),
            None => self.pos.outcome(),
        }
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.pos.parse_move(text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.pos.move_text(mv)
    }

    fn position_text(&self) -> String {
        self.pos.position_text()
    }

    fn parse_position(text: &str) -> Result<Leafed, ParseError> {
        Ok(Leafed::new(Position::parse_position(text)?, None))
    }
}

/// Checkers' knowledge for the prover: none beyond the rules, whose leaves are the
/// databases' positions ([`Leafed`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckersProver;

/// Positions reachable before a leaf up to which a value is found outright: king endings
/// cycle so much that df-pn's searches, which search again every result that leaned on a
/// repetition, grow exponentially on them (a few hundred thousand positions a second).
/// About 140 bytes a position listed.
pub const GRAPH_LIMIT: usize = 1 << 21;

/// The same for a position of one piece more than the leaves, whose reachable positions
/// are those of its own few slices: drawn 5-piece king endings over the 4-piece databases
/// reach 8 to 10 million (2.3 GB at this limit). Further from the leaves a listing this
/// long would mostly be given up, its time and memory lost.
pub const GRAPH_LIMIT_NEXT_TO_LEAVES: usize = 1 << 24;

impl Instance for CheckersProver {
    type Pos = Leafed;
    /// The databases are in the positions themselves.
    type Table = ();

    fn graph_limit(&self, root: &Leafed) -> usize {
        if root.pieces > 0 && root.pos.board.occupied().count_ones() <= root.pieces as u32 + 1 {
            GRAPH_LIMIT_NEXT_TO_LEAVES
        } else {
            GRAPH_LIMIT
        }
    }
}

impl ProverPosition for Leafed {
    const LAST_MOVER_WINS: bool = false;

    /// Black's squares in the low half of `a`, White's in the high; the kings in `b`.
    fn raw_key(&self) -> Key {
        let b = &self.pos.board;
        Key {
            a: b.black as u64 | (b.white as u64) << 32,
            b: b.kings as u64,
            side: self.pos.side as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Leafed, String> {
        Ok(self.same_leaves(position_of(key)?))
    }

    /// The most pieces of a leaf in the second byte.
    fn params(&self) -> [u8; 2] {
        [PROOF_TAG, self.pieces]
    }

    fn owns_params(params: [u8; 2]) -> bool {
        params[0] == PROOF_TAG
    }

    /// A root without its databases, which [`Leafed::with_leaves`] gives it.
    fn from_params(params: [u8; 2], key: &Key) -> Result<Leafed, String> {
        if params[0] != PROOF_TAG {
            return Err("not a proof of checkers".into());
        }
        Ok(Leafed {
            pos: position_of(key)?,
            db: None,
            pieces: params[1],
        })
    }

    /// One more than the square left plus 32 times the path: a step's direction (0-3),
    /// or a capture's directions after a leading 1 (two bits a jump, at most
    /// [`CODE_JUMPS`]).
    fn move_code(mv: Move) -> u16 {
        let path = if mv.jumps == 0 {
            (0..4)
                .find(|&d| NEIGHBOUR[mv.from as usize][d] == mv.to)
                .unwrap_or(0) as u32
        } else {
            let k = mv.jumps.min(CODE_JUMPS) as u32;
            1 << (2 * k) | (mv.dirs & ((1 << (2 * k)) - 1))
        };
        // No legal move reaches the wrap to 0 (five jumps towards one side is ten rows).
        (mv.from as u32 + 32 * path).wrapping_add(1) as u16
    }

    fn code_move(code: u16) -> Move {
        let c = code.wrapping_sub(1) as u32;
        let from = (c % 32) as u8;
        let path = c / 32;
        // What no position allows: a step that stays (for codes no move has).
        let none = Move {
            from,
            to: from,
            jumps: 0,
            dirs: 0,
            captured: 0,
        };
        if path < 4 {
            let to = NEIGHBOUR[from as usize][path as usize];
            return if to == NONE {
                none
            } else {
                Move { to, ..none }
            };
        }
        let k = path.ilog2() / 2;
        let dirs = path & ((1 << (2 * k)) - 1);
        let (mut at, mut captured) = (from, 0u32);
        for j in 0..k {
            let d = (dirs >> (2 * j) & 3) as usize;
            let (over, land) = (NEIGHBOUR[at as usize][d], JUMP[at as usize][d]);
            if land == NONE {
                return none;
            }
            captured |= 1 << over;
            at = land;
        }
        Move {
            from,
            to: at,
            jumps: k as u8,
            dirs,
            captured,
        }
    }
}

/// The position of `key`, or why no game reaches it.
fn position_of(key: &Key) -> Result<Position, String> {
    let board = Board {
        black: key.a as u32,
        white: (key.a >> 32) as u32,
        kings: key.b as u32,
    };
    if key.b >> 32 != 0 || board.kings & !(board.black | board.white) != 0 {
        return Err("a king on an empty square".into());
    }
    if key.side > 1 {
        return Err("no side to move".into());
    }
    check_board(&board).map_err(|e| e.to_string())?;
    Ok(Position {
        board,
        side: if key.side == 0 {
            Side::First
        } else {
            Side::Second
        },
    })
}
