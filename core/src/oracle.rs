//! The trait that endgame knowledge (a tablebase, an exact search) implements for MCTS.

use crate::game::{Game, GameResult};

/// A game-theoretic value that an oracle vouches for, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenOutcome<M> {
    /// Win, loss or draw for the side to move, with best play.
    pub result: GameResult,
    /// Plies (moves of both sides) until the game ends with best play, an upper bound for a
    /// win and a lower bound for a loss; `None` for knowledge without a distance (a
    /// win/draw/loss database).
    pub plies: Option<u32>,
    /// A move that achieves `result` (within `plies`), when the oracle knows one.
    pub best_move: Option<M>,
}

/// Endgame knowledge that MCTS consults at expansion and inside playouts.
///
/// `probe` must only answer what is certain: a hit makes a tree node proven for the
/// MCTS-solver. Heuristic knowledge belongs in a playout policy, not here.
pub trait Oracle<G: Game>: Send + Sync {
    /// The proven value of `pos` for its side to move, or `None` when unknown.
    fn probe(&self, pos: &G) -> Option<ProvenOutcome<G::Move>>;

    /// What `probe` answers, except that `best_move` may be left out: MCTS asks this for
    /// every child of a new node, where only the result and the plies are used, so an
    /// oracle that finds its best move slowly can skip it here.
    #[inline]
    fn probe_value(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        self.probe(pos)
    }

    /// A likely result for the side to move, used only to end playouts early and never as
    /// a proof; a heuristic rule (such as the thesis' race rule) overrides this.
    #[inline]
    fn guess(&self, pos: &G) -> Option<GameResult> {
        self.probe(pos).map(|p| p.result)
    }

    /// The proven value of `pos` with a move to play there, asked once for a search's root
    /// (never at expansion); by default `probe`. An oracle whose `probe` names no move, to
    /// stay cheap at expansion, can choose one here.
    #[inline]
    fn probe_root(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        self.probe(pos)
    }

    /// [`Oracle::probe_root`]'s proof with its move, where the move is among `legal`: what a
    /// search plays at once, whatever the search (a move not legal is the oracle's error,
    /// and the search then plays its own).
    fn root_move(&self, pos: &G, legal: &[G::Move]) -> Option<(ProvenOutcome<G::Move>, G::Move)> {
        let p = self.probe_root(pos)?;
        let mv = p.best_move.filter(|m| legal.contains(m))?;
        Some((p, mv))
    }

    /// A hint that the children of `pos` reached by `moves` are about to be probed (MCTS
    /// probes every child of a new node): an oracle whose answer is a random read into
    /// memory can start those reads now, so that they overlap instead of waiting on each
    /// other. Answers nothing and proves nothing; by default a no-op, which costs nothing.
    #[inline]
    fn prefetch_children(&self, _pos: &G, _moves: &[G::Move]) {}

    /// The first damage a probe met (stored data whose checksum failed), naming the file:
    /// such a probe answers nothing, so a search that used the oracle asks this afterwards
    /// to tell the user that its knowledge was incomplete. By default none.
    fn damage(&self) -> Option<String> {
        None
    }
}

/// Every oracle prints as `Oracle { .. }`, with or without a `Debug` of its own, so that
/// the types holding one derive `Debug`.
impl<G: Game> std::fmt::Debug for dyn Oracle<G> + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Oracle").finish_non_exhaustive()
    }
}

/// An oracle that knows nothing; searching with it is searching without an oracle.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOracle;

impl<G: Game> Oracle<G> for NoOracle {
    #[inline]
    fn probe(&self, _pos: &G) -> Option<ProvenOutcome<G::Move>> {
        None
    }
}

/// Two oracles asked in turn: the first's answer, else the second's (a table, then the
/// game's verdicts).
#[derive(Debug)]
pub struct Chain<G: Game> {
    first: std::sync::Arc<dyn Oracle<G>>,
    second: std::sync::Arc<dyn Oracle<G>>,
}

impl<G: Game> Chain<G> {
    /// `first`, falling back on `second`.
    pub fn new(
        first: std::sync::Arc<dyn Oracle<G>>,
        second: std::sync::Arc<dyn Oracle<G>>,
    ) -> Self {
        Chain { first, second }
    }
}

impl<G: Game> Oracle<G> for Chain<G> {
    #[inline]
    fn probe(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        self.first.probe(pos).or_else(|| self.second.probe(pos))
    }
    #[inline]
    fn probe_value(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        self.first
            .probe_value(pos)
            .or_else(|| self.second.probe_value(pos))
    }
    #[inline]
    fn guess(&self, pos: &G) -> Option<GameResult> {
        self.first.guess(pos).or_else(|| self.second.guess(pos))
    }
    #[inline]
    fn probe_root(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        self.first
            .probe_root(pos)
            .or_else(|| self.second.probe_root(pos))
    }
    #[inline]
    fn prefetch_children(&self, pos: &G, moves: &[G::Move]) {
        self.first.prefetch_children(pos, moves);
        self.second.prefetch_children(pos, moves);
    }
    fn damage(&self) -> Option<String> {
        self.first.damage().or_else(|| self.second.damage())
    }
}
