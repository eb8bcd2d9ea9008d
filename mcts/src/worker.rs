//! The per-thread worker: one simulation (selection, expansion, playout, backpropagation,
//! proof propagation) and the simulation loop, written once over any [`Store`]; and the
//! worker that owns an arena (each thread of root parallelism, or the only one).

use crate::config::{
    Check, ChildProbes, Config, Leaf, CLOCK_EVERY, MAX_ROOT_VISITS, PUBLISH_EVERY,
};
use crate::playout::{PlayoutContext, PlayoutPolicy};
use crate::reuse;
use crate::shallow::{Shallow, ShallowValue};
use crate::solver;
use crate::store::{chance, to_value, NewChild, Proof, Store, VALUE_HALF, VALUE_ONE};
use crate::tree::{NodeId, Tree};
use crate::uct;
use quasar_core::{win_chance, Evaluation, Game, Oracle, Outcome, Side};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The settings every thread reads during a search.
pub struct Settings<'a, G: Game, P> {
    /// The configuration.
    pub config: &'a Config<P>,
    /// The exploration constant in the precision selection uses.
    pub c: f32,
    /// The oracle, if any.
    pub oracle: Option<&'a dyn Oracle<G>>,
    /// Consult the oracle in playouts at every this many turns of each side (0: never).
    pub oracle_every: u32,
    /// When a new node's children are probed.
    pub child_probes: ChildProbes,
    /// What the evaluation gives new children.
    pub heuristic: Heuristic<'a, G>,
    /// The weight of the minimax value in selection (0: implicit minimax backups off).
    pub alpha: f32,
    /// How far from even (`|2v - 1|`, `v` a node's value) a node's value must be for its
    /// children to be ranked by their minimax values alone; above 1: never.
    pub decided: f32,
    /// The forced-result checks and the evaluation whose verdicts and move order they
    /// search with (off without an evaluation).
    pub checks: Option<(Check, &'a dyn Evaluation<G>)>,
}

impl<'a, G: Game, P> Settings<'a, G, P> {
    /// The settings of `config` with `oracle` and `evaluation` (without an evaluation,
    /// implicit minimax backups and priors are off whatever the config says).
    pub fn new(
        config: &'a Config<P>,
        oracle: Option<&'a dyn Oracle<G>>,
        evaluation: Option<&'a dyn Evaluation<G>>,
    ) -> Self {
        let alpha = if evaluation.is_some() {
            config.imb.clamp(0.0, 1.0) as f32
        } else {
            0.0
        };
        let prior = if evaluation.is_some() {
            config.prior
        } else {
            0
        };
        // Only the features in use pay for the evaluation at expansion.
        let depth = config.prior_depth;
        let eval = evaluation.filter(|_| alpha > 0.0 || prior > 0 || depth > 0);
        Settings {
            config,
            c: config.c as f32,
            oracle,
            oracle_every: config.oracle_in_playouts.map_or(0, |k| k.get()),
            child_probes: config.child_probes,
            heuristic: Heuristic {
                eval,
                prior,
                depth,
                quiescence: config.quiescence,
            },
            alpha,
            decided: match config.imb_decided {
                Some(p) if alpha > 0.0 => (2.0 * p.clamp(0.5, 1.0) - 1.0) as f32,
                _ => 2.0,
            },
            checks: config.check.zip(evaluation),
        }
    }

    /// The weight of the minimax value in the selection among the children of a node
    /// whose value is `value`.
    #[inline(always)]
    pub fn alpha_at(&self, value: u16) -> f32 {
        let from_even = (2.0 * value as f32 / VALUE_ONE as f32 - 1.0).abs();
        if from_even >= self.decided {
            1.0
        } else {
            self.alpha
        }
    }
}

/// The evaluation's part in expansion: each new child gets its winning chance as value
/// and, with priors, `prior` virtual visits scored at it.
pub struct Heuristic<'a, G: Game> {
    /// The evaluation (`None`: values stay even and no prior is given).
    pub eval: Option<&'a dyn Evaluation<G>>,
    /// Virtual visits of every child an expansion creates (0 without an evaluation):
    /// a node's real visits are its visits less this.
    pub prior: u32,
    /// Plies of the shallow search behind each new child's value (0: its evaluation alone).
    pub depth: u32,
    /// Plies that search may go further through positions that are not quiet.
    pub quiescence: u32,
}

impl<G: Game> Clone for Heuristic<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Heuristic<'_, G> {}

/// What one search thread owns besides a tree: its random numbers and a move buffer, so
/// that simulations allocate nothing.
pub struct Scratch<G: Game> {
    /// The thread's random source.
    pub rng: Xoshiro256PlusPlus,
    /// The move buffer of expansion and playouts.
    pub moves: Vec<G::Move>,
    /// The buffers of the shallow searches behind new children's values.
    pub shallow: Shallow<G>,
    /// The children of the node being expanded, before the lost ones are left out.
    pub kids: Vec<NewChild<G::Move>>,
    /// The evaluations of those children, for their side to move.
    pub values: Vec<i32>,
}

impl<G: Game> Scratch<G> {
    /// The scratch of thread `index` of a search seeded with `seed` (each thread its own
    /// random stream).
    pub fn new(seed: u64, index: u64) -> Self {
        Scratch {
            rng: Xoshiro256PlusPlus::seed_from_u64(
                seed ^ index.wrapping_mul(quasar_core::rng::GOLDEN_GAMMA),
            ),
            moves: Vec::with_capacity(64),
            shallow: Shallow::default(),
            kids: Vec::with_capacity(64),
            values: Vec::with_capacity(64),
        }
    }
}

/// How one thread's simulation loop ends its part of a search.
pub struct Stop<'a> {
    /// Set by whichever thread ends the search (time up, root proven); read every
    /// [`CLOCK_EVERY`] simulations.
    pub flag: &'a AtomicBool,
    /// The time limit, if any.
    pub deadline: Option<Instant>,
    /// This thread's simulation limit (a shared tree counts all threads' claims against it).
    pub max_sims: u64,
}

/// Runs simulations of `root` in `store` until the limit, the deadline, a proof of the root
/// or the stop flag; calls `publish` every [`PUBLISH_EVERY`] simulations; returns this
/// thread's count.
pub fn run<G: Game, P: PlayoutPolicy<G>, S: Store<G::Move>>(
    store: &mut S,
    path: &mut Vec<S::Id>,
    scratch: &mut Scratch<G>,
    root: &G,
    settings: &Settings<'_, G, P>,
    stop: &Stop<'_>,
    publish: &mut dyn FnMut(&S, u64),
) -> u64 {
    let mut sims = 0;
    loop {
        let root_id = store.root();
        if store.proof(root_id).0 != Proof::Unknown {
            stop.flag.store(true, Ordering::Relaxed);
            break;
        }
        if !store.claim(sims, stop.max_sims) {
            break;
        }
        simulate(store, path, scratch, root, settings);
        store.finished();
        sims += 1;
        if sims % PUBLISH_EVERY == 0 {
            publish(store, sims);
        }
        if sims % CLOCK_EVERY == 0 {
            // Scores are stored doubled in `u32`s: stop before the root's could overflow.
            if stop.flag.load(Ordering::Relaxed) || store.stats(root_id).0 >= MAX_ROOT_VISITS {
                break;
            }
            if stop.deadline.is_some_and(|d| Instant::now() >= d) {
                stop.flag.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
    sims
}

/// One simulation: selection, expansion, playout (or a proven value), backpropagation and
/// proof propagation.
#[inline]
pub fn simulate<G: Game, P: PlayoutPolicy<G>, S: Store<G::Move>>(
    store: &mut S,
    path: &mut Vec<S::Id>,
    scratch: &mut Scratch<G>,
    root: &G,
    settings: &Settings<'_, G, P>,
) {
    let mut pos = root.clone();
    let mut id = store.root();
    path.clear();
    store.enter(id);
    path.push(id);
    let mut before = u32::MAX;
    // Nodes start with `prior` virtual visits: the expansion and probe thresholds count
    // real visits on top of them.
    let prior = settings.heuristic.prior;
    let expand_after = settings.config.expand_after + prior;
    let lazy = settings.child_probes != ChildProbes::Expansion;
    loop {
        if store.stats(id).2 != Proof::Unknown {
            break;
        }
        let is_root = path.len() == 1;
        if !store.is_expanded(id) {
            if !is_root && before < expand_after {
                break;
            }
            // Lazily, the children are proven later (below), the root's at once.
            let oracle = if is_root || !lazy {
                settings.oracle
            } else {
                None
            };
            let expanded = expand(
                store,
                id,
                &pos,
                is_root,
                oracle,
                settings.heuristic,
                scratch,
            );
            if expanded && settings.alpha > 0.0 {
                back_up_values(store, path, true);
            }
            if !expanded || store.proof(id).0 != Proof::Unknown {
                break;
            }
        } else if settings.child_probes == ChildProbes::NextVisit
            && !is_root
            && before == expand_after + 1
        {
            // The visit after the expanding one: the children not visited yet are probed
            // now (an expansion refused at first, in a full or shared tree, leaves them to
            // the playouts: knowledge lost, never a wrong proof).
            if let Some(o) = settings.oracle {
                probe_unvisited(store, id, &pos, o, prior, &mut scratch.moves);
                if solver::update(store, id) {
                    break;
                }
            }
        }
        let Some(child) = uct::select(store, id, settings.c, settings.alpha_at(store.value(id)))
        else {
            break;
        };
        let mover = pos.side_to_move();
        let parent_before = before;
        pos.play(store.mv(child).expect("children have moves"));
        before = store.enter(child);
        path.push(child);
        id = child;
        if let Some((check, e)) = settings.checks {
            if before.checked_sub(prior) == Some(check.after)
                && store.stats(child).2 == Proof::Unknown
                && pos.outcome().is_none()
            {
                // A forced result for the child's side to move (the child's mover's
                // opponent) proves the child: the simulation ends there.
                if let Some((r, plies)) =
                    scratch
                        .shallow
                        .forced(e, &pos, check.depth, check.node_limit())
                {
                    let proof = Proof::from_result(r.flip());
                    store.prove(child, proof, plies.min(u16::MAX as u32) as u16);
                    break;
                }
            }
        }
        let first_visit_probe = match settings.child_probes {
            ChildProbes::Expansion => false,
            ChildProbes::NextVisit => parent_before == expand_after,
            ChildProbes::FirstVisit => true,
        };
        if before == prior && first_visit_probe && path.len() > 2 {
            // The first visit of a child its parent's expansion did not probe (a shared
            // tree counts the visit in `enter`, so one thread probes it).
            if let Some(o) = settings.oracle {
                if store.stats(child).2 == Proof::Unknown && pos.outcome().is_none() {
                    if let Some((proof, plies)) = oracle_proof(o, &pos, mover) {
                        store.prove(child, proof, plies);
                    }
                }
            }
        }
    }
    let proven = store.proof(id).0.outcome(store.mover(id));
    let outcome = match proven {
        Some(o) => o,
        None if settings.config.leaf == Leaf::Evaluation
            && settings.heuristic.eval.is_some()
            && path.len() > 1 =>
        {
            sampled_outcome(chance(store.value(id)), store.mover(id), &mut scratch.rng)
        }
        None => {
            let mut ctx = PlayoutContext {
                rng: &mut scratch.rng,
                moves: &mut scratch.moves,
                oracle: settings.oracle,
                oracle_every: settings.oracle_every,
                max_plies: settings.config.max_playout_plies,
            };
            settings.config.playout.run(&mut pos, &mut ctx)
        }
    };
    for &n in path.iter() {
        store.backup(n, outcome);
    }
    if proven.is_some() {
        solver::propagate(store, path);
        if settings.alpha > 0.0 {
            back_up_values(store, path, false);
        }
    }
}

/// A win, draw or loss for `mover` whose expected score is `p`: a draw or the nearer end,
/// so that the score's spread is the least a half-point score allows.
#[inline]
pub(crate) fn sampled_outcome(p: f64, mover: Side, rng: &mut Xoshiro256PlusPlus) -> Outcome {
    let r: f64 = rng.random();
    if p >= 0.5 {
        if r < 2.0 * p - 1.0 {
            Outcome::Win(mover)
        } else {
            Outcome::Draw
        }
    } else if r < 2.0 * p {
        Outcome::Draw
    } else {
        Outcome::Win(mover.opponent())
    }
}

/// The value a child counts for in its parent's minimax: its proof when it has one, else
/// its backed-up value.
#[inline]
fn child_value<M: Copy, S: Store<M>>(store: &S, c: S::Id) -> u16 {
    match store.stats(c).2 {
        Proof::Unknown => store.value(c),
        Proof::Win => VALUE_ONE,
        Proof::Loss => 0,
        Proof::Draw => VALUE_HALF,
    }
}

/// Implicit minimax backups along `path` (root to leaf): each expanded node's value
/// becomes one less the best of its children's (their mover is its opponent), from the
/// deepest up. After an expansion only values changed (`early`): the backup stops at the
/// first ancestor whose value stays (those above it were computed from it). After proofs,
/// which change what children count for without changing their values, it runs to the
/// root.
pub fn back_up_values<M: Copy, S: Store<M>>(store: &mut S, path: &[S::Id], early: bool) {
    let mut first = true;
    for &n in path.iter().rev() {
        let Some(best) = store.children(n).map(|c| child_value(store, c)).max() else {
            continue;
        };
        let v = VALUE_ONE - best;
        if early && !first && v == store.value(n) {
            return;
        }
        first = false;
        store.set_value(n, v);
    }
}

/// Creates every child of `id` at once, proving those that end the game or that the oracle
/// knows, with the heuristic's values and priors; false when the store refused (node
/// budget full, or another thread expanding it: the leaf then gets a playout). `force`
/// ignores the budget (the root).
pub fn expand<G: Game, S: Store<G::Move>>(
    store: &mut S,
    id: S::Id,
    pos: &G,
    force: bool,
    oracle: Option<&dyn Oracle<G>>,
    heuristic: Heuristic<'_, G>,
    scratch: &mut Scratch<G>,
) -> bool {
    let Scratch {
        moves,
        shallow,
        kids: all,
        values,
        ..
    } = scratch;
    pos.legal_moves(moves);
    if moves.is_empty() {
        // Only a game that forgot to report its end has no moves; call it a draw.
        store.prove(id, Proof::Draw, 0);
        return true;
    }
    // The children are built (probed, evaluated) and pruned before the store takes them:
    // ask first, so that a full tree does not pay for children it refuses.
    if store.room_for(id, moves.len(), force).is_err() {
        return false;
    }
    let mover = pos.side_to_move();
    if let Some(o) = oracle {
        o.prefetch_children(pos, moves);
    }
    // Where the evaluation alone scores the children and knows a faster way than each
    // child alone (an incremental model reads a child from its parent's work), it scores
    // them all at once.
    let at_once = heuristic.depth == 0
        && heuristic
            .eval
            .is_some_and(|e| e.evaluate_children(pos, moves, values));
    let kids = moves.iter().enumerate().map(|(k, &mv)| {
        let mut child = pos.clone();
        child.play(mv);
        let (mut proof, mut plies) = if let Some(o) = child.outcome() {
            (Proof::from_result(o.result_for(mover)), 0)
        } else {
            oracle
                .and_then(|o| oracle_proof(o, &child, mover))
                .unwrap_or((Proof::Unknown, 0))
        };
        let value = match (proof, heuristic.eval) {
            (Proof::Unknown, Some(e)) => {
                // The evaluation is for the child's side to move, the mover's opponent.
                // A child with a capture still to make is searched past it.
                let searched =
                    heuristic.depth > 0 || (heuristic.quiescence > 0 && !e.is_quiet(&child));
                let v = if searched {
                    shallow.value(e, &child, heuristic.depth, heuristic.quiescence)
                } else if at_once {
                    ShallowValue::Eval(values[k])
                } else {
                    ShallowValue::Eval(e.evaluate(&child))
                };
                match v {
                    ShallowValue::Eval(v) => to_value(1.0 - win_chance(v, e.scale())),
                    ShallowValue::Proven(r, p) => {
                        proof = Proof::from_result(r.flip());
                        plies = p.min(u16::MAX as u32) as u16;
                        child_value_of_proof(proof)
                    }
                }
            }
            (Proof::Unknown, None) => VALUE_HALF,
            _ => child_value_of_proof(proof),
        };
        let prior = heuristic.prior;
        NewChild {
            mv,
            proof,
            plies,
            value,
            prior_visits: prior,
            prior_score2: (2.0 * prior as f64 * chance(value)).round() as u32,
        }
    });
    all.clear();
    all.extend(kids);
    if !force {
        keep_one_loss(all);
    }
    if store
        .add_children(id, mover, all.len(), force, all.drain(..))
        .is_err()
    {
        return false;
    }
    solver::update(store, id);
    true
}

/// Leaves out of `kids` every child proven lost for its mover but the longest loss (the
/// first of equals). Selection never picks a lost child while another exists, yet scans
/// it on every visit: with a table proving many children at expansion, more than half of
/// the children scanned were lost. The longest loss keeps the parent's proof and plies
/// what they would be with all of them (a parent all of whose moves lose loses in the
/// longest line). The root keeps every move; a node that becomes the root when the tree is
/// reused keeps only its children, so its report lists no more than one lost move.
fn keep_one_loss<M>(kids: &mut Vec<NewChild<M>>) {
    let longest = kids
        .iter()
        .enumerate()
        .filter(|(_, k)| k.proof == Proof::Loss)
        .max_by_key(|&(i, k)| (k.plies, std::cmp::Reverse(i)))
        .map(|(i, _)| i);
    if let Some(keep) = longest {
        let mut i = 0;
        kids.retain(|k| {
            let kept = k.proof != Proof::Loss || i == keep;
            i += 1;
            kept
        });
    }
}

/// The value of a child proven at creation.
#[inline]
fn child_value_of_proof(proof: Proof) -> u16 {
    match proof {
        Proof::Win => VALUE_ONE,
        Proof::Loss => 0,
        Proof::Draw | Proof::Unknown => VALUE_HALF,
    }
}

/// Probes the children of `id` (expanded, at `pos`) not visited (beyond their `prior`
/// virtual visits) and not proven yet.
fn probe_unvisited<G: Game, S: Store<G::Move>>(
    store: &mut S,
    id: S::Id,
    pos: &G,
    oracle: &dyn Oracle<G>,
    prior: u32,
    moves: &mut Vec<G::Move>,
) {
    probe_children_where(store, id, pos, oracle, moves, |store, c| {
        let (visits, _, proof) = store.stats(c);
        visits == prior && proof == Proof::Unknown
    });
}

/// Probes the children `c` of `id` (expanded, at `pos`) for which `open(store, c)`, their
/// reads prefetched together first.
fn probe_children_where<G: Game, S: Store<G::Move>>(
    store: &mut S,
    id: S::Id,
    pos: &G,
    oracle: &dyn Oracle<G>,
    moves: &mut Vec<G::Move>,
    open: impl Fn(&S, S::Id) -> bool,
) {
    moves.clear();
    for c in store.children(id) {
        if open(store, c) {
            moves.extend(store.mv(c));
        }
    }
    oracle.prefetch_children(pos, moves);
    let mover = pos.side_to_move();
    for c in store.children(id) {
        if !open(store, c) {
            continue;
        }
        let Some(mv) = store.mv(c) else { continue };
        let mut child = pos.clone();
        child.play(mv);
        if child.outcome().is_none() {
            if let Some((proof, plies)) = oracle_proof(oracle, &child, mover) {
                store.prove(c, proof, plies);
            }
        }
    }
}

/// The oracle's proof of `child` (a position not over) from the view of `mover`, the side
/// that moved into it, with its plies.
#[inline]
fn oracle_proof<G: Game>(oracle: &dyn Oracle<G>, child: &G, mover: Side) -> Option<(Proof, u16)> {
    let p = oracle.probe_value(child)?;
    let r = if child.side_to_move() == mover {
        p.result
    } else {
        p.result.flip()
    };
    Some((Proof::from_result(r), solver::oracle_plies(&p)))
}

/// Readies `store` (reset for the search, rooted at `pos`) for a search: the root's proof
/// re-derived from its children, and the root expanded if it is not yet, so that the
/// simulations, and a report of none, find its children.
pub fn ready_root<G: Game, S: Store<G::Move>>(
    store: &mut S,
    pos: &G,
    oracle: Option<&dyn Oracle<G>>,
    heuristic: Heuristic<'_, G>,
    scratch: &mut Scratch<G>,
) {
    let root = store.root();
    if let (Some(o), true) = (oracle, store.is_expanded(root)) {
        // A reused root may have been expanded lazily, below a root: its children not
        // probed yet are probed now, as a new root's would be.
        probe_children_where(store, root, pos, o, &mut scratch.moves, |store, c| {
            store.proof(c).0 == Proof::Unknown
        });
    }
    solver::update(store, root);
    if !store.is_expanded(root)
        && store.proof(root).0 == Proof::Unknown
        && expand(store, root, pos, true, oracle, heuristic, scratch)
    {
        back_up_values(store, &[root], true);
    }
}

/// A thread with its own tree (root parallelism, or a single thread), kept between
/// searches for reuse.
pub struct Worker<G: Game> {
    /// The tree.
    pub tree: Tree<G::Move>,
    /// The position at the tree's root, `None` when there is nothing to reuse.
    pub root: Option<G>,
    /// Random numbers and the move buffer.
    pub scratch: Scratch<G>,
    /// The path of the current simulation.
    path: Vec<NodeId>,
}

impl<G: Game> Worker<G> {
    /// Thread `index` of a search seeded with `seed`, with an empty tree.
    pub fn new(seed: u64, index: u64) -> Self {
        Worker {
            tree: Tree::new(quasar_core::Side::First, 1),
            root: None,
            scratch: Scratch::new(seed, index),
            path: Vec::with_capacity(128),
        }
    }

    /// Sets the tree up for a search of `pos` with `budget` nodes, reusing the matching
    /// subtree and expanding the root; returns the number of nodes kept.
    pub fn prepare(
        &mut self,
        pos: &G,
        budget: usize,
        oracle: Option<&dyn Oracle<G>>,
        heuristic: Heuristic<'_, G>,
    ) -> usize {
        let route = match &self.root {
            Some(prev) if self.tree.budget() == budget => reuse::find(&self.tree, prev, pos),
            _ => None,
        };
        let kept = match route {
            Some(route) => self.tree.reroot(&route),
            None => {
                self.tree = Tree::new(pos.side_to_move(), budget);
                0
            }
        };
        self.root = Some(pos.clone());
        self.tree.reset_for_search();
        ready_root(&mut self.tree, pos, oracle, heuristic, &mut self.scratch);
        kept
    }

    /// Runs the simulations of a search of `pos` (after [`Worker::prepare`]).
    pub fn run<P: PlayoutPolicy<G>>(
        &mut self,
        pos: &G,
        settings: &Settings<'_, G, P>,
        stop: &Stop<'_>,
        publish: &mut dyn FnMut(&Tree<G::Move>, u64),
    ) -> u64 {
        run(
            &mut self.tree,
            &mut self.path,
            &mut self.scratch,
            pos,
            settings,
            stop,
            publish,
        )
    }
}

#[cfg(test)]
mod tests;
