//! The tree-store abstraction: what the one search code (simulation, expansion, solver,
//! reuse, reporting) needs from a tree, implemented by the single-owner arena
//! ([`crate::tree::Tree`]) and the atomic shared tree ([`crate::shared::SharedTree`]).

use quasar_core::{GameResult, Outcome, Side};

/// What the MCTS-solver knows about a node, from the view of the side that made its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Proof {
    /// Not proven yet; statistics decide.
    Unknown,
    /// The node's move wins for its mover with best play.
    Win,
    /// The node's move loses for its mover with best play.
    Loss,
    /// The node's move draws with best play.
    Draw,
}

impl Proof {
    /// The proof for a proven game result seen by the node's mover.
    #[inline]
    pub fn from_result(r: GameResult) -> Proof {
        match r {
            GameResult::Win => Proof::Win,
            GameResult::Loss => Proof::Loss,
            GameResult::Draw => Proof::Draw,
        }
    }

    /// The proven result for the mover, `None` while unknown.
    #[inline]
    pub fn result(self) -> Option<GameResult> {
        match self {
            Proof::Unknown => None,
            Proof::Win => Some(GameResult::Win),
            Proof::Loss => Some(GameResult::Loss),
            Proof::Draw => Some(GameResult::Draw),
        }
    }

    /// The game outcome a node proven this way stands for, given its mover.
    #[inline]
    pub fn outcome(self, mover: Side) -> Option<Outcome> {
        self.result().map(|r| match r {
            GameResult::Win => Outcome::Win(mover),
            GameResult::Loss => Outcome::Win(mover.opponent()),
            GameResult::Draw => Outcome::Draw,
        })
    }
}

/// Twice the score `outcome` gives `mover` (win 2, draw 1, loss 0): scores are stored
/// doubled so that draws stay integral.
#[inline]
pub fn points(outcome: Outcome, mover: Side) -> u32 {
    match outcome.result_for(mover) {
        GameResult::Win => 2,
        GameResult::Draw => 1,
        GameResult::Loss => 0,
    }
}

/// The mean score in `[0, 1]` of `visits` simulations worth `score2` doubled points (1/2
/// before any visit).
#[inline]
pub fn mean(visits: u64, score2: u64) -> f64 {
    if visits == 0 {
        0.5
    } else {
        score2 as f64 / (2.0 * visits as f64)
    }
}

/// A minimax value of 1 (a sure win for the node's mover): values are winning chances in
/// `[0, 1]` kept in 16 bits, so that the arena's node stays 24 bytes.
pub const VALUE_ONE: u16 = u16::MAX;

/// The value of a node nothing is known about (an even chance).
pub const VALUE_HALF: u16 = u16::MAX / 2 + 1;

/// A winning chance in `[0, 1]` as a stored value.
#[inline]
pub fn to_value(chance: f64) -> u16 {
    (chance.clamp(0.0, 1.0) * VALUE_ONE as f64).round() as u16
}

/// A stored value as a winning chance in `[0, 1]`.
#[inline]
pub fn chance(value: u16) -> f64 {
    value as f64 / VALUE_ONE as f64
}

/// A new child as expansion describes it: its move, its proof with plies when the game
/// ends there or the oracle knows it, its heuristic value and its prior statistics.
#[derive(Clone, Copy, Debug)]
pub struct NewChild<M> {
    /// The move from the parent.
    pub mv: M,
    /// What is known at creation.
    pub proof: Proof,
    /// Plies to the end when proven.
    pub plies: u16,
    /// The evaluation's winning chance for the child's mover ([`VALUE_HALF`] without one).
    pub value: u16,
    /// Virtual visits the child starts with (node priors; 0 without).
    pub prior_visits: u32,
    /// The doubled score of those virtual visits.
    pub prior_score2: u32,
}

#[cfg(test)]
impl<M> NewChild<M> {
    /// A child with no heuristic value and no prior.
    pub fn new(mv: M, proof: Proof, plies: u16) -> Self {
        NewChild {
            mv,
            proof,
            plies,
            value: VALUE_HALF,
            prior_visits: 0,
            prior_score2: 0,
        }
    }
}

#[cfg(test)]
impl<M> NewChild<M> {
    /// A child with nothing proven: what the stores' tests expand with.
    pub(crate) fn unknown(mv: M) -> Self {
        NewChild::new(mv, Proof::Unknown, 0)
    }
}

/// Why a store did not take a node's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The node budget is full (the store remembers it for the report).
    Full,
    /// Another thread is expanding the node.
    Busy,
}

/// A search tree as the one search code sees it. Reads take `&self`; writes take `&mut
/// self`, which is the single owner of an arena or one thread's handle on the shared tree
/// (whose writes are atomic).
pub trait Store<M: Copy> {
    /// A node's address: an arena index, or a reference into the shared tree.
    type Id: Copy;
    /// The children of a node, in move-generation order (borrowing nothing from the store,
    /// so the store can be written while they are walked).
    type Kids: Iterator<Item = Self::Id> + Clone;

    /// The root.
    fn root(&self) -> Self::Id;
    /// The move from the parent (`None` only at the root).
    fn mv(&self, id: Self::Id) -> Option<M>;
    /// The side that made the node's move (at the root: the opponent of the side to move).
    fn mover(&self, id: Self::Id) -> Side;
    /// The children (none while unexpanded).
    fn children(&self, id: Self::Id) -> Self::Kids;
    /// True once the children exist.
    fn is_expanded(&self, id: Self::Id) -> bool;
    /// Visits, doubled score and proof, as selection reads them (relaxed in a shared tree).
    fn stats(&self, id: Self::Id) -> (u32, u32, Proof);
    /// The proof and its plies (ordered with other threads' proofs in a shared tree).
    fn proof(&self, id: Self::Id) -> (Proof, u16);
    /// The node's minimax value: the winning chance for its mover that the evaluation
    /// gives, backed up from its children once it has them (implicit minimax backups).
    fn value(&self, id: Self::Id) -> u16;
    /// Sets the minimax value (a relaxed store in a shared tree: values only steer).
    fn set_value(&mut self, id: Self::Id, value: u16);
    /// Nodes in the tree.
    fn len(&self) -> usize;
    /// True when an expansion found the node budget full in this search.
    fn budget_full(&self) -> bool;

    /// A simulation enters the node; returns the node's visits before it. A shared tree
    /// counts the visit now (the virtual loss that steers other threads away until the
    /// score arrives); the arena counts it in [`Store::backup`].
    fn enter(&mut self, id: Self::Id) -> u32;
    /// A finished simulation that ended in `outcome` passes back through the node (which
    /// scores it for its mover with [`points`]).
    fn backup(&mut self, id: Self::Id, outcome: Outcome);
    /// Sets the proof unless one is set already; true when this call set it.
    fn prove(&mut self, id: Self::Id, proof: Proof, plies: u16) -> bool;
    /// Whether [`Store::add_children`] of `count` children would be taken now, asked before
    /// the children are built (each costs an evaluation); a refusal is recorded as
    /// `add_children`'s would be. A shared tree may still refuse the children afterwards.
    fn room_for(&mut self, id: Self::Id, count: usize, force: bool) -> Result<(), Refused>;
    /// Creates the `count` children of an unexpanded node at once, moved by `mover` (the
    /// side to move at the node; `kids` is consumed only when they are taken); `force`
    /// ignores the node budget (the root always expands).
    fn add_children(
        &mut self,
        id: Self::Id,
        mover: Side,
        count: usize,
        force: bool,
        kids: impl Iterator<Item = NewChild<M>>,
    ) -> Result<(), Refused>;

    /// Claims one more simulation of a search limited to `max`, this thread having run
    /// `sims`; a shared tree counts the claims of every thread.
    #[inline]
    fn claim(&mut self, sims: u64, max: u64) -> bool {
        sims < max
    }
    /// A claimed simulation has finished (a shared tree counts them for the report).
    #[inline]
    fn finished(&mut self) {}
}
