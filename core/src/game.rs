//! The [`Game`] trait every game implements, and the small types it speaks in.

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

/// One of the two players. `First` moves first (White in Breakthrough, Black in checkers);
/// each game names its sides for display with [`Game::side_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that moves first from the start position.
    First,
    /// The side that moves second from the start position.
    Second,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`, for indexing per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side to move after `plies` plies from the start, in a game whose sides alternate.
    #[inline]
    pub fn after_plies(plies: u32) -> Side {
        if plies % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// How a finished game ended, independent of any point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The named side won.
    Win(Side),
    /// Neither side won.
    Draw,
}

impl Outcome {
    /// The outcome as seen by `side`.
    #[inline]
    pub fn result_for(self, side: Side) -> GameResult {
        match self {
            Outcome::Win(w) if w == side => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
            Outcome::Draw => GameResult::Draw,
        }
    }
}

/// A finished game's result from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// That side won.
    Win,
    /// That side lost.
    Loss,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// The score MCTS backs up: 1 for a win, 1/2 for a draw, 0 for a loss.
    #[inline]
    pub fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The same result seen by the opponent.
    #[inline]
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
        }
    }
}

/// Bad input to a game, by kind, so that a caller can tell a bad board from a bad position
/// or a bad move; the message (the game's own typed error, see [`ParseError::detail`]) says
/// what is wrong and what to write instead. Errors compare equal by kind and message.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ParseError {
    /// A board size (or other game parameter) the game cannot read or does not support.
    #[error("{0}")]
    Board(Detail),
    /// Text that does not describe a position of the game.
    #[error("{0}")]
    Position(Detail),
    /// Text that does not name a move.
    #[error("{0}")]
    Move(Detail),
    /// A well-formed move the position does not allow (any move, once the game is over).
    #[error("{0}")]
    IllegalMove(Detail),
}

impl ParseError {
    /// The game's own error, whatever the kind.
    pub fn detail(&self) -> &Detail {
        match self {
            ParseError::Board(d)
            | ParseError::Position(d)
            | ParseError::Move(d)
            | ParseError::IllegalMove(d) => d,
        }
    }

    /// The game's own error as its type `E`, when it is one.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.detail().downcast_ref()
    }
}

impl PartialEq for ParseError {
    fn eq(&self, other: &Self) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.to_string() == other.to_string()
    }
}

impl Eq for ParseError {}

/// A game's own description of bad input, kept as its typed error.
#[derive(Clone, Debug)]
pub struct Detail(Arc<dyn std::error::Error + Send + Sync + 'static>);

impl Detail {
    /// Wraps the game's error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Detail {
        Detail(Arc::new(error))
    }

    /// A plain message, for a game without error types of its own.
    pub fn message(text: impl Into<String>) -> Detail {
        Detail::new(Message(text.into()))
    }

    /// The error as its type `E`, when it is one.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The error behind [`Detail::message`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Message(String);

/// A two-player game with perfect information, as MCTS, the oracles and the arena see it.
///
/// Positions carry everything that decides the legal moves, so history rules (a ko rule, a
/// forbidden repetition) live inside the position. Games that can cycle rely on the
/// searcher's ply limits; games with draws report [`Outcome::Draw`].
///
/// Equality compares everything that decides the future of the game: tree reuse and the
/// exact solver confirm a 64-bit [`Game::hash`] match with `==` before they trust it.
pub trait Game: Clone + Eq + Send + Sync + fmt::Debug + 'static {
    /// One move; small and cheap to copy.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// The game's names for its sides, the first side's first, for people ("White",
    /// "Left"); records and protocols say `first`/`second`.
    const SIDE_NAMES: [&'static str; 2] = ["first", "second"];

    /// The game's name for a side (see [`Game::SIDE_NAMES`]).
    fn side_name(side: Side) -> &'static str {
        Self::SIDE_NAMES[side.index()]
    }

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Clears `moves` and writes every legal move into it (empty when the game is over).
    /// Reusing one buffer keeps the call free of allocation.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a move that `legal_moves` produced.
    fn play(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of everything that decides the future of the game.
    fn hash(&self) -> u64;

    /// Parses a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// The move in the game's notation (needs the position, for example to mark captures).
    fn move_text(&self, mv: Self::Move) -> String;

    /// The position in the game's text notation, which [`Game::parse_position`] reads back.
    fn position_text(&self) -> String;

    /// Reads a position in the game's text notation.
    fn parse_position(text: &str) -> Result<Self, ParseError>;

    /// Plays uniformly random moves until the game ends or `max_plies` are played: the
    /// outcome (`None` when cut off) and the plies played. `moves` is the buffer of this
    /// plain loop; a game with a faster loop of its own overrides it.
    fn random_playout(
        &mut self,
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
        moves: &mut Vec<Self::Move>,
        max_plies: u32,
    ) -> (Option<Outcome>, u32) {
        use rand::RngExt;
        for plies in 0..max_plies {
            if let Some(o) = self.outcome() {
                return (Some(o), plies);
            }
            self.legal_moves(moves);
            let mv = moves[rng.random_range(0..moves.len())];
            self.play(mv);
        }
        (self.outcome(), max_plies)
    }
}

/// The positions of a game from `start` whose every move `rng` draws uniformly, until it
/// ends (the finished position left out) or `max` are listed: the play that tests of a
/// search sample their positions from.
pub fn random_line<G: Game>(start: &G, max: usize, rng: &mut crate::SplitMix64) -> Vec<G> {
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut p = start.clone();
    while line.len() < max && p.outcome().is_none() {
        line.push(p.clone());
        p.legal_moves(&mut moves);
        p.play(moves[rng.below(moves.len())]);
    }
    line
}

/// Counts the leaves of the game tree `depth` plies deep; a finished game is one leaf.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    // One move buffer per ply actually reached, not per ply asked for: a depth far beyond
    // the end of every game (`u32::MAX`) must not allocate for plies never played.
    let mut buffers: Vec<Vec<G::Move>> = Vec::new();
    perft_inner(pos, depth, 0, &mut buffers)
}

fn perft_inner<G: Game>(pos: &G, depth: u32, ply: usize, buffers: &mut Vec<Vec<G::Move>>) -> u64 {
    if depth == 0 || pos.outcome().is_some() {
        return 1;
    }
    if buffers.len() <= ply {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[ply]);
    pos.legal_moves(&mut moves);
    let total = if depth == 1 {
        moves.len() as u64
    } else {
        let mut total = 0;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            total += perft_inner(&child, depth - 1, ply + 1, buffers);
        }
        total
    };
    buffers[ply] = moves;
    total
}
