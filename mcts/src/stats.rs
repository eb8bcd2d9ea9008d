//! What a search reports: the move, the statistics, the principal variation and the proof.

use quasar_core::progress::{RootMove, SearchInfo, SearchValue};
use quasar_core::GameResult;
use std::time::Duration;

/// A value the solver proved for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Win, loss or draw for the side to move, with best play.
    pub result: GameResult,
    /// Plies to the end of the game along the proof (an upper bound when an oracle
    /// contributed; the fastest proven win is preferred, the slowest loss).
    pub plies: u32,
}

impl Proven {
    /// `plies`, or `None` where an oracle without distances (a win/draw/loss database)
    /// proved the line and the count stands only for "unknown, long".
    pub fn known_plies(&self) -> Option<u32> {
        (self.plies < crate::solver::UNKNOWN_PLIES as u32).then_some(self.plies)
    }
}

/// One root move's statistics, merged over threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildStats<M> {
    /// The move.
    pub mv: M,
    /// Simulations through it.
    pub visits: u64,
    /// Mean score for the side to move at the root, in `[0, 1]`.
    pub value: f64,
    /// Its proven value for the side to move at the root, if any.
    pub proven: Option<Proven>,
}

/// The result of one [`super::Searcher::search`] call.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<M> {
    /// The move to play; `None` only when the game is already over.
    pub best_move: Option<M>,
    /// Simulations run by this search (all threads); expanding the root is none.
    pub simulations: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Simulations per second (all threads).
    pub sims_per_second: f64,
    /// Expected score of the best move for the side to move, in `[0, 1]` (1 = certain win).
    pub value: f64,
    /// The principal variation, starting with the best move (at most 24 moves; with root
    /// parallelism from the calling thread's tree, which may not hold a helper's proof).
    pub pv: Vec<M>,
    /// The root's proven value, when the solver (or the oracle) proved it.
    pub proven: Option<Proven>,
    /// Nodes in the tree(s) after the search.
    pub tree_nodes: usize,
    /// Nodes kept from the previous search by tree reuse.
    pub reused_nodes: usize,
    /// True when the node budget filled and the search went on from existing leaves.
    pub budget_full: bool,
    /// Threads used.
    pub threads: usize,
    /// Every root move, in move-generation order.
    pub children: Vec<ChildStats<M>>,
}

impl<M: Copy> Report<M> {
    /// The root moves, most visited first (ties: the higher value, then move order), as a
    /// multi-line analysis lists them.
    pub fn by_visits(&self) -> Vec<ChildStats<M>> {
        let mut moves = self.children.clone();
        // A stable sort keeps move-generation order among equals.
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        moves
    }

    /// The report as a progress line.
    pub fn info(&self) -> SearchInfo<M> {
        SearchInfo {
            depth: None,
            simulations: Some(self.simulations),
            nodes: self.tree_nodes as u64,
            elapsed: self.elapsed,
            value: match self.proven {
                Some(p) => SearchValue::Proven {
                    result: p.result,
                    plies: p.known_plies(),
                },
                None => SearchValue::Mean(self.value),
            },
            pv: self.pv.clone(),
            moves: self
                .by_visits()
                .into_iter()
                .map(|c| RootMove {
                    mv: c.mv,
                    visits: c.visits,
                    value: c.value,
                })
                .collect(),
        }
    }
}
