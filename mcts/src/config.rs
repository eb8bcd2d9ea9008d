//! What shapes a search: the configuration, the parallel mode and each thread's share of
//! the limit, with the clock and overflow constants the simulation loop keeps.

use quasar_core::Limit;
use std::num::NonZeroU32;

/// Everything that shapes a search; `Default` gives a sensible player.
#[derive(Clone, Debug)]
pub struct Config<P> {
    /// The exploration constant `c` of formula 2.1.
    pub c: f64,
    /// The playout policy and its switches.
    pub playout: P,
    /// The most tree nodes, over all threads (a node takes 24 bytes for Breakthrough).
    pub node_budget: usize,
    /// Search threads; 0 counts as 1.
    pub threads: usize,
    /// How several threads share the work (no effect with one thread).
    pub parallelism: Parallelism,
    /// Consult the oracle's `guess` inside playouts at every this many turns of each side
    /// (`None`: never; 1: every ply).
    pub oracle_in_playouts: Option<NonZeroU32>,
    /// A leaf is expanded once it has had this many simulations (the root always is).
    pub expand_after: u32,
    /// When the oracle proves a new node's children (the root's are always proven at once).
    pub child_probes: ChildProbes,
    /// A playout longer than this many plies counts as a draw (for games that can cycle).
    pub max_playout_plies: u32,
    /// Seed of the random numbers; identical seeds and simulation counts give identical
    /// searches (with one thread).
    pub seed: u64,
    /// The weight `alpha` of implicit minimax backups (Lanctot et al. 2014): selection
    /// ranks a child by `(1 - alpha) * playout mean + alpha * minimax value`, the value
    /// backed up from the evaluation of the tree's leaves; 0 turns them off. Needs a
    /// searcher with an evaluation ([`crate::Searcher::with_evaluation`]).
    pub imb: f64,
    /// Where a node's minimax value gives one side at least this winning chance, its
    /// children are ranked by their minimax values alone (backups at 1 whatever `imb`):
    /// in a decided position the playouts' means all sit near 1 and no longer tell the
    /// moves that make progress from those that shuffle. `None`: `imb` everywhere. Needs
    /// `imb` above 0.
    pub imb_decided: Option<f64>,
    /// Node priors: every new child starts with this many virtual visits scored at the
    /// evaluation's winning chance for its mover; 0 turns them off. Needs an evaluation.
    pub prior: u32,
    /// Plies of alpha-beta over the evaluation behind each new child's value, for priors
    /// and implicit minimax backups (0: the child's evaluation alone); a forced result it
    /// finds proves the child.
    pub prior_depth: u32,
    /// The most plies a new child's value is searched past its horizon (`prior_depth`)
    /// through positions the evaluation calls not quiet ([`Evaluation::is_quiet`]), so that
    /// a capture about to be made counts (0: the value where the horizon falls).
    ///
    /// [`Evaluation::is_quiet`]: quasar_core::Evaluation::is_quiet
    pub quiescence: u32,
    /// What scores a simulation that ends at a leaf the solver has not proven.
    pub leaf: Leaf,
    /// A search for forced results from each node that reaches a number of visits (the
    /// minimax selection of Baier and Winands); `None` turns it off. Needs an evaluation
    /// (for its verdicts and move order).
    pub check: Option<Check>,
}

/// When a node is searched for a forced result, and how deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Real visits a node has when it is searched (once).
    pub after: u32,
    /// Plies of the search.
    pub depth: u32,
}

impl Check {
    /// The deepest search accepted.
    pub const MAX_DEPTH: u32 = 12;

    /// The most positions one search may visit: a few dozen for each of the node's
    /// visits, so that the searches never cost much more than the simulations (a search
    /// cut short proves nothing).
    #[inline]
    pub fn node_limit(self) -> u64 {
        64 * self.after as u64
    }
}

impl std::fmt::Display for Check {
    /// As a `check=` value: `VISITS/PLIES`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.after, self.depth)
    }
}

/// What scores a simulation at an unproven leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leaf {
    /// A playout of the policy from the leaf.
    #[default]
    Playout,
    /// The evaluation's winning chance of the leaf, which its parent's expansion already
    /// computed, backed up as a win, a draw or a loss drawn with that mean (a sampled
    /// score keeps the statistics in half points, and costs no playout). Needs an
    /// evaluation in use (priors or implicit minimax backups); without one a playout.
    Evaluation,
}

impl<P: Default> Default for Config<P> {
    fn default() -> Self {
        Config {
            c: 0.7,
            playout: P::default(),
            node_budget: 1 << 23,
            threads: 1,
            parallelism: Parallelism::Root,
            oracle_in_playouts: NonZeroU32::new(1),
            expand_after: 1,
            child_probes: ChildProbes::Expansion,
            max_playout_plies: 1000,
            seed: 1,
            imb: 0.0,
            imb_decided: None,
            prior: 0,
            prior_depth: 0,
            quiescence: quasar_core::QUIESCENCE_PLIES,
            leaf: Leaf::Playout,
            check: None,
        }
    }
}

impl<P> Config<P> {
    /// Threads, at least one.
    pub fn thread_count(&self) -> usize {
        self.threads.max(1)
    }
}

/// When the oracle is asked about a new node's children. A probe may be a memory read
/// and most children of a deep node are never visited; but a child proven lost is never
/// visited, and a node whose every child is proven lost is proven at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChildProbes {
    /// Every child when the node is expanded.
    #[default]
    Expansion,
    /// The child the expanding simulation visits, at that visit; the others at the
    /// node's next visit (so a node visited once after its expansion pays one probe).
    NextVisit,
    /// Each child at its first visit (a node whose every move loses is then proven only
    /// after a visit to each: on 6x6 with the 4-row table it lost 17-83 to `Expansion`).
    FirstVisit,
}

/// How a search with several threads divides the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallelism {
    /// Each thread grows its own tree (with `node_budget / threads` nodes and its own seed);
    /// the root moves' statistics and proofs are merged. Reproducible with
    /// `Limit::Count`.
    #[default]
    Root,
    /// All threads grow one shared tree (the whole node budget), with atomic statistics and
    /// a virtual loss. Not reproducible: the threads' interleaving decides the tree.
    Tree,
}

/// The simulations thread `index` of `threads` runs: an even share of a simulation
/// limit (the first threads take the remainder), unlimited with a time limit.
pub(crate) fn share(limit: Limit, index: usize, threads: usize) -> u64 {
    match limit {
        Limit::Count(n) => {
            let t = threads.max(1) as u64;
            n / t + u64::from((index as u64) < n % t)
        }
        Limit::Time(_) => u64::MAX,
    }
}

/// The simulations of all threads together (unlimited with a time limit).
pub(crate) fn total(limit: Limit) -> u64 {
    match limit {
        Limit::Count(n) => n,
        Limit::Time(_) => u64::MAX,
    }
}

/// How often (in simulations) a thread reads the clock and the stop flag.
pub(crate) const CLOCK_EVERY: u64 = 8;

/// How often (in simulations) root-parallel helper threads publish their root statistics.
pub(crate) const PUBLISH_EVERY: u64 = 256;

/// The most simulations a root may accumulate (over searches, with reuse): twice this
/// still fits the `u32` score.
pub(crate) const MAX_ROOT_VISITS: u32 = u32::MAX / 2 - 2 * CLOCK_EVERY as u32;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn shares_add_up_to_the_limit_and_zero_stays_zero() {
        for (n, threads) in [(0, 1), (0, 3), (1, 2), (10, 3), (7, 1)] {
            let l = Limit::Count(n);
            let shares: Vec<u64> = (0..threads).map(|i| share(l, i, threads)).collect();
            assert_eq!(shares.iter().sum::<u64>(), n, "{n} over {threads}");
            assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
        }
        assert_eq!(share(Limit::Time(Duration::from_millis(5)), 0, 2), u64::MAX);
    }
}
