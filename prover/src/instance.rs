//! What a game tells the prover beyond its rules: a compact key of each position for the
//! table and the files, a code of each move, and the optional knowledge that speeds the
//! searches (quick verdicts, a symmetry, an ordered move list, table claims).

use crate::tt::{Key, Table};
use quasar_core::{Game, Outcome};

/// The move type of an instance's game.
pub type MoveOf<I> = <<I as Instance>::Pos as Game>::Move;

/// A verdict on an unfinished position without a search, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// The side to move wins with its next move.
    WinInOne,
    /// The side to move cannot win at once and loses after any move, two plies.
    LossInTwo,
    /// Only the moves the game's mask picks need searching: every other one loses in two
    /// plies ([`Instance::moves`] lists those only).
    Narrow(u64),
    /// Nothing forced.
    Open,
}

/// A child of a searched node: its position, the move to it, its table key and whether
/// the key is the symmetric image's.
#[derive(Clone, Copy, Debug)]
pub struct Step<P: Game> {
    /// The child.
    pub pos: P,
    /// The move that made it.
    pub mv: P::Move,
    /// Its table key.
    pub key: Key,
    /// The key is the symmetric image's.
    pub mirrored: bool,
}

/// A position the prover can key, record and replay: what the proof checker, the proof
/// file and the checkpoint need of a game, besides its rules.
pub trait ProverPosition: Game + Copy {
    /// True when every finished game was won by the side that made the last move (no
    /// draws, no move that loses its own mover the game): the searches then take the
    /// shortcuts this allows (a win only on one's own move, distances of one parity).
    /// A game with draws or self-defeating moves sets it false.
    const LAST_MOVER_WINS: bool = true;

    /// The position as two words and the side to move, exactly (no symmetry): what the
    /// proof file records. Words of [`ProverPosition::key_bytes`] bytes at most.
    fn raw_key(&self) -> Key;

    /// The position of `key` in this position's game (its size), or why there is none.
    fn with_key(&self, key: &Key) -> Result<Self, String>;

    /// The bytes of each of a key's words in a file, for positions of this game.
    fn key_bytes(&self) -> usize {
        8
    }

    /// The position with the game's size, for messages.
    fn long_text(&self) -> String {
        self.position_text()
    }

    /// The game's size in a file's header (two bytes).
    fn params(&self) -> [u8; 2];

    /// Whether a file's size bytes are this game's (its tag, or a size only it has), so a
    /// file of another game is called that rather than damaged.
    fn owns_params(params: [u8; 2]) -> bool;

    /// The position of `key` in the game of size `params`, or why there is none.
    fn from_params(params: [u8; 2], key: &Key) -> Result<Self, String>;

    /// The move's code in a table and a file: never 0 (which stands for no move).
    fn move_code(mv: Self::Move) -> u16;

    /// The move of a code [`ProverPosition::move_code`] gave (any code but 0).
    fn code_move(code: u16) -> Self::Move;

    /// The position's mirror image, when the game has a symmetry that keeps values (the
    /// same winner within the same plies): the job tree gives both one job. `None` by
    /// default.
    fn mirrored(&self) -> Option<Self> {
        None
    }

    /// A move of this position seen in its [`ProverPosition::mirrored`] image.
    fn mirrored_move(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// True when the side to move wins with its next move, by the rules alone: what the
    /// proof checker asks. By default every move is tried.
    fn wins_at_once(&self) -> bool {
        let me = self.side_to_move();
        self.any_legal(|mv| {
            let mut child = *self;
            child.play(mv);
            child.outcome() == Some(Outcome::Win(me))
        })
    }

    /// True when `f` holds for some legal move, tried in the order of
    /// [`Game::legal_moves`] (the checker's loops).
    fn any_legal(&self, mut f: impl FnMut(Self::Move) -> bool) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.into_iter().any(&mut f)
    }
}

/// A game's instance of the prover: the knowledge its searches consult at every node.
/// Every method has a sound default from the rules, which a game overrides to be faster.
pub trait Instance: Sync {
    /// The game's positions (copied freely: the searches make children by copy).
    type Pos: ProverPosition;
    /// The game's table whose sound claims end a search early.
    type Table: Sync;

    /// The table key of `pos` and whether it is its symmetric image's: positions of one
    /// key must have one value. By default the raw key.
    #[inline]
    fn key_mirrored(&self, pos: &Self::Pos) -> (Key, bool) {
        (pos.raw_key(), false)
    }

    /// The table key of `pos`.
    #[inline]
    fn key(&self, pos: &Self::Pos) -> Key {
        self.key_mirrored(pos).0
    }

    /// A move seen in the symmetric image (its own inverse).
    #[inline]
    fn mirror_move(&self, mv: MoveOf<Self>) -> MoveOf<Self> {
        mv
    }

    /// The verdict on the unfinished `pos` without a search.
    #[inline]
    fn quick(&self, pos: &Self::Pos) -> Quick {
        let _ = pos;
        Quick::Open
    }

    /// True when the side to move in the unfinished `pos` (the winner) wins with its next
    /// move.
    #[inline]
    fn wins_in_one(&self, pos: &Self::Pos) -> bool {
        pos.wins_at_once()
    }

    /// The fewest plies in which `winner` can still win from the unfinished `pos`.
    #[inline]
    fn min_plies(&self, pos: &Self::Pos, winner: quasar_core::Side) -> u32 {
        if pos.side_to_move() == winner || !<Self::Pos as ProverPosition>::LAST_MOVER_WINS {
            1
        } else {
            2
        }
    }

    /// Rows (or any measure) `side` is from its goal, for df-pn's race start numbers.
    #[inline]
    fn distance(&self, pos: &Self::Pos, side: quasar_core::Side) -> u32 {
        let _ = (pos, side);
        0
    }

    /// The moves worth searching in the unfinished `pos` whose verdict is `quick`, best
    /// first for the side to move.
    #[inline]
    fn moves(&self, pos: &Self::Pos, quick: Quick, out: &mut Vec<MoveOf<Self>>) {
        let _ = quick;
        pos.legal_moves(out);
    }

    /// How many moves [`Instance::moves`] lists.
    #[inline]
    fn replies(&self, pos: &Self::Pos, quick: Quick) -> u32 {
        let mut out = Vec::new();
        self.moves(pos, quick, &mut out);
        out.len() as u32
    }

    /// True when `f` holds for one of the moves [`Instance::moves`] lists (in any order).
    #[inline]
    fn any_move(
        &self,
        pos: &Self::Pos,
        quick: Quick,
        mut f: impl FnMut(MoveOf<Self>) -> bool,
    ) -> bool {
        let mut out = Vec::new();
        self.moves(pos, quick, &mut out);
        out.into_iter().any(&mut f)
    }

    /// A sound table claim for the side to move in `pos`: a bound on the plies it needs to
    /// win and the table's move.
    #[inline]
    fn claim(&self, tb: Option<&Self::Table>, pos: &Self::Pos) -> Option<(u32, MoveOf<Self>)> {
        let _ = (tb, pos);
        None
    }

    /// The bound of [`Instance::claim`] without the move (what the searches ask).
    #[inline]
    fn claim_plies(&self, tb: Option<&Self::Table>, pos: &Self::Pos) -> Option<u32> {
        self.claim(tb, pos).map(|c| c.0)
    }

    /// The table's result for the side to move in `pos` (win, draw or loss), for the
    /// searches that prove draws; by default a win where [`Instance::claim_plies`] claims
    /// one.
    #[inline]
    fn table_result(
        &self,
        tb: Option<&Self::Table>,
        pos: &Self::Pos,
    ) -> Option<quasar_core::GameResult> {
        self.claim_plies(tb, pos)
            .map(|_| quasar_core::GameResult::Win)
    }

    /// Games that may draw: a `root` with at most this many positions reachable before a
    /// settled one is valued outright ([`crate::graph::value`]), not by df-pn's two
    /// searches, which search again every result that leaned on a repetition. By default
    /// none.
    fn graph_limit(&self, root: &Self::Pos) -> usize {
        let _ = root;
        0
    }

    /// Why `tb` cannot serve `root` (another size), if it cannot.
    fn table_fits(&self, tb: &Self::Table, root: &Self::Pos) -> Result<(), String> {
        let _ = (tb, root);
        Ok(())
    }

    /// The children of `pos` by `moves`, each with its key; every child's bucket in `tt`
    /// is asked for as it is made, so that the probes of all the children, which come
    /// next, overlap their misses instead of waiting for them one by one.
    #[inline]
    fn steps<'s, V: Copy + Default>(
        &'s self,
        pos: &'s Self::Pos,
        moves: &'s [MoveOf<Self>],
        tt: &'s Table<V>,
    ) -> impl Iterator<Item = Step<Self::Pos>> + 's {
        moves.iter().map(move |&mv| {
            let mut child = *pos;
            child.play(mv);
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
}
