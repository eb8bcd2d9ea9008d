//! Tree parallelism: one tree that every search thread grows together, with atomic
//! statistics, a virtual loss while a simulation is under way and a per-node expansion flag.
//!
//! Each node's children live in one boxed block published through a `OnceLock`, so a
//! thread sees either no children or all of them, fully built. Visits are added on the way
//! down (the virtual loss: an unfinished simulation counts as a loss for every mover on its
//! path, steering the other threads elsewhere) and the score on the way up. Proofs are set
//! once, by compare-and-swap from unknown, with sequentially consistent accesses: of two
//! threads that prove sibling nodes at the same time, at least one sees both proofs and
//! carries them to the parent.

use super::playout::{PlayoutContext, PlayoutPolicy};
use super::solver;
use super::stats::{ChildStats, Proven};
use super::tree::Proof;
use super::uct;
use quasar_core::Oracle;
use quasar_core::{Game, GameResult, Outcome, Side};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// A proof and its plies packed in one word: the proof in the low byte.
fn pack(proof: Proof, plies: u16) -> u32 {
    proof as u32 | (plies as u32) << 8
}

fn unpack(word: u32) -> (Proof, u16) {
    let proof = match word & 0xff {
        1 => Proof::Win,
        2 => Proof::Loss,
        3 => Proof::Draw,
        _ => Proof::Unknown,
    };
    (proof, (word >> 8) as u16)
}

/// One node of the shared tree.
pub(super) struct SharedNode<M> {
    mv: Option<M>,
    mover: Side,
    children: OnceLock<Box<[SharedNode<M>]>>,
    expanding: AtomicBool,
    visits: AtomicU32,
    score2: AtomicU32,
    proof: AtomicU32,
}

impl<M: Copy> SharedNode<M> {
    fn new(mv: Option<M>, mover: Side, proof: Proof, plies: u16) -> Self {
        SharedNode {
            mv,
            mover,
            children: OnceLock::new(),
            expanding: AtomicBool::new(false),
            visits: AtomicU32::new(0),
            score2: AtomicU32::new(0),
            proof: AtomicU32::new(pack(proof, plies)),
        }
    }

    /// The proof and plies.
    #[inline]
    fn proof(&self) -> (Proof, u16) {
        unpack(self.proof.load(Ordering::SeqCst))
    }

    /// The proof (a relaxed read: selection only ranks children by it).
    #[inline]
    fn proof_relaxed(&self) -> Proof {
        unpack(self.proof.load(Ordering::Relaxed)).0
    }

    /// The children, once published.
    #[inline]
    fn kids(&self) -> &[SharedNode<M>] {
        self.children.get().map_or(&[], |b| &b[..])
    }

    /// Sets the proof unless one is already set; true when this call set it.
    fn prove(&self, proof: Proof, plies: u16) -> bool {
        self.proof
            .compare_exchange(
                pack(Proof::Unknown, 0),
                pack(proof, plies),
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
    }

    /// Re-derives this node's proof from its children; true when this call proved it.
    fn update(&self) -> bool {
        if self.proof().0 != Proof::Unknown || self.children.get().is_none() {
            return false;
        }
        let derived = solver::derive(
            self.mover,
            self.kids().iter().map(|k| {
                let (p, d) = k.proof();
                (k.mover, p, d)
            }),
        );
        derived.is_some_and(|(p, d)| self.prove(p, d))
    }

    /// The outcome a proven node stands for.
    fn proven_outcome(&self) -> Option<Outcome> {
        self.proof().0.result().map(|r| match r {
            GameResult::Win => Outcome::Win(self.mover),
            GameResult::Loss => Outcome::Win(self.mover.opponent()),
            GameResult::Draw => Outcome::Draw,
        })
    }

    /// Statistics as the report shows them; `plies_extra` is added to proven plies.
    fn stats(&self, plies_extra: u32) -> ChildStats<()> {
        let visits = self.visits.load(Ordering::Relaxed) as u64;
        let score2 = self.score2.load(Ordering::Relaxed) as u64;
        let (p, d) = self.proof();
        ChildStats {
            mv: (),
            visits,
            value: if visits == 0 {
                0.5
            } else {
                score2 as f64 / (2.0 * visits as f64)
            },
            proven: p.result().map(|result| Proven {
                result,
                plies: d as u32 + plies_extra,
            }),
        }
    }

    fn count(&self) -> usize {
        let mut n = 1;
        let mut stack = vec![self];
        while let Some(x) = stack.pop() {
            n += x.kids().len();
            stack.extend(x.kids().iter());
        }
        n
    }
}

/// The tree all threads search, with its node count and budget and the simulation counters
/// of the current search.
pub(super) struct SharedTree<M> {
    root: SharedNode<M>,
    nodes: AtomicUsize,
    budget: usize,
    budget_full: AtomicBool,
    /// Simulations claimed by the threads in this search (the limit is checked on it).
    claimed: AtomicU64,
    /// Simulations finished in this search.
    finished: AtomicU64,
}

/// One root move as the tree parallel search reports it: move, visits, twice the score and
/// its proof seen from the side to move at the root.
pub(super) type RootStats<M> = (M, u64, u64, Option<Proven>);

impl<M: Copy + PartialEq> SharedTree<M> {
    /// A tree holding only a root whose side to move is `to_move`, capped at `budget` nodes.
    pub fn new(to_move: Side, budget: usize) -> Self {
        SharedTree {
            root: SharedNode::new(None, to_move.opponent(), Proof::Unknown, 0),
            nodes: AtomicUsize::new(1),
            budget: budget.max(1),
            budget_full: AtomicBool::new(false),
            claimed: AtomicU64::new(0),
            finished: AtomicU64::new(0),
        }
    }

    /// The most nodes the tree may hold.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.load(Ordering::Relaxed)
    }

    /// True when an expansion found the budget full during this search.
    pub fn budget_full(&self) -> bool {
        self.budget_full.load(Ordering::Relaxed)
    }

    /// Simulations finished in this search.
    pub fn finished(&self) -> u64 {
        self.finished.load(Ordering::Relaxed)
    }

    /// True once the root is proven.
    pub fn root_proven(&self) -> bool {
        self.root.proof().0 != Proof::Unknown
    }

    /// Readies the tree for a new search (exclusive access): counters reset, the root's
    /// proof re-derived from its children (an oracle's proof names no move to play).
    pub fn reset_for_search(&mut self) {
        self.budget_full = AtomicBool::new(false);
        self.claimed = AtomicU64::new(0);
        self.finished = AtomicU64::new(0);
        self.root.proof = AtomicU32::new(pack(Proof::Unknown, 0));
        self.root.update();
    }

    /// Makes the node reached from the root by the child indices `path` the root, keeping
    /// only its subtree; returns the number of nodes kept and the rest of the old tree (to
    /// be dropped off the clock: freeing a large tree takes milliseconds).
    pub fn reroot(&mut self, path: &[usize]) -> (usize, Option<SharedNode<M>>) {
        if path.is_empty() {
            return (self.len(), None);
        }
        let mut node = &mut self.root;
        for &i in path {
            let Some(kids) = node.children.get_mut() else {
                return (self.len(), None);
            };
            node = &mut kids[i];
        }
        let mover = node.mover;
        let mut taken = std::mem::replace(node, SharedNode::new(None, mover, Proof::Unknown, 0));
        taken.mv = None;
        let old = std::mem::replace(&mut self.root, taken);
        let n = self.root.count();
        self.nodes = AtomicUsize::new(n);
        (n, Some(old))
    }

    /// The child indices leading from the root (at `prev`) to `pos`, up to two plies deep.
    pub fn find<G: Game<Move = M>>(&self, prev: &G, pos: &G) -> Option<Vec<usize>> {
        let target = pos.hash();
        if prev.hash() == target && prev == pos {
            return Some(Vec::new());
        }
        for (i, c) in self.root.kids().iter().enumerate() {
            let mut p1 = prev.clone();
            p1.play(c.mv?);
            if p1.hash() == target && p1 == *pos {
                return Some(vec![i]);
            }
            for (j, g) in c.kids().iter().enumerate() {
                let mut p2 = p1.clone();
                p2.play(g.mv?);
                if p2.hash() == target && p2 == *pos {
                    return Some(vec![i, j]);
                }
            }
        }
        None
    }

    /// The root moves' statistics, from the side to move at the root.
    pub fn root_stats(&self) -> Vec<RootStats<M>> {
        self.root
            .kids()
            .iter()
            .map(|k| {
                let s = k.stats(1);
                (
                    k.mv.expect("children have moves"),
                    s.visits,
                    k.score2.load(Ordering::Relaxed) as u64,
                    s.proven,
                )
            })
            .collect()
    }

    /// The principal variation after the root move `first`, following `pick`.
    pub fn pv(&self, first: M, pick: impl Fn(&[ChildStats<()>]) -> Option<usize>) -> Vec<M> {
        let mut pv = vec![first];
        let mut node = self.root.kids().iter().find(|k| k.mv == Some(first));
        while let Some(n) = node {
            if pv.len() >= 24 {
                break;
            }
            let kids = n.kids();
            let stats: Vec<ChildStats<()>> = kids.iter().map(|k| k.stats(0)).collect();
            node = pick(&stats)
                .map(|i| &kids[i])
                .filter(|k| k.visits.load(Ordering::Relaxed) > 0 || k.proof().0 != Proof::Unknown);
            if let Some(k) = node {
                pv.push(k.mv.expect("children have moves"));
            }
        }
        pv
    }
}

/// What one thread needs for its part of a tree-parallel search.
pub(super) struct Run<'a, G: Game, P> {
    /// The shared tree.
    pub tree: &'a SharedTree<G::Move>,
    /// The root position.
    pub root: &'a G,
    /// The playout policy.
    pub playout: &'a P,
    /// The exploration constant.
    pub c: f32,
    /// The oracle, if any.
    pub oracle: Option<&'a dyn Oracle<G>>,
    /// Consult the oracle in playouts every this many plies (0: never).
    pub oracle_every: u32,
    /// The playout ply cap.
    pub max_plies: u32,
    /// Simulations before a leaf is expanded.
    pub expand_after: u32,
    /// Set by whichever thread ends the search.
    pub stop: &'a AtomicBool,
    /// The time limit, if any.
    pub deadline: Option<Instant>,
    /// The simulation limit over all threads.
    pub max_sims: u64,
    /// The most visits the root may hold.
    pub max_root_visits: u32,
    /// How often the clock is read.
    pub clock_every: u64,
}

impl<G: Game, P: PlayoutPolicy<G>> Run<'_, G, P> {
    /// Expands the root if it is not yet, before the threads start, so that none of them
    /// finds it being expanded and spends its simulation on the root alone.
    pub fn expand_root(&self, moves: &mut Vec<G::Move>) {
        let root = &self.tree.root;
        if root.children.get().is_none() && root.proof().0 == Proof::Unknown {
            self.expand(root, self.root, true, moves);
        }
    }

    /// Runs simulations until the shared limit, the deadline, a proof of the root or `stop`;
    /// returns this thread's count.
    pub fn run(&self, rng: &mut Xoshiro256PlusPlus, moves: &mut Vec<G::Move>) -> u64 {
        let t = self.tree;
        let mut path: Vec<&SharedNode<G::Move>> = Vec::with_capacity(128);
        let mut sims = 0;
        loop {
            if t.root_proven() {
                self.stop.store(true, Ordering::Relaxed);
                break;
            }
            if self.stop.load(Ordering::Relaxed)
                || t.claimed.fetch_add(1, Ordering::Relaxed) >= self.max_sims
            {
                break;
            }
            self.simulate(&mut path, rng, moves);
            t.finished.fetch_add(1, Ordering::Relaxed);
            sims += 1;
            if sims % self.clock_every == 0 {
                if t.root.visits.load(Ordering::Relaxed) >= self.max_root_visits {
                    self.stop.store(true, Ordering::Relaxed);
                    break;
                }
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    self.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        sims
    }

    /// One simulation: selection with virtual loss, expansion, playout (or a proven value),
    /// backpropagation and proof propagation.
    fn simulate<'t>(
        &'t self,
        path: &mut Vec<&'t SharedNode<G::Move>>,
        rng: &mut Xoshiro256PlusPlus,
        moves: &mut Vec<G::Move>,
    ) {
        let mut pos = self.root.clone();
        path.clear();
        let mut node = &self.tree.root;
        node.visits.fetch_add(1, Ordering::Relaxed);
        path.push(node);
        let mut before = u32::MAX;
        loop {
            if node.proof_relaxed() != Proof::Unknown {
                break;
            }
            if node.children.get().is_none() {
                let is_root = path.len() == 1;
                if !is_root && before < self.expand_after {
                    break;
                }
                if !self.expand(node, &pos, is_root, moves) || node.proof().0 != Proof::Unknown {
                    break;
                }
            }
            let kids = node.kids();
            let i = uct::choose(
                node.visits.load(Ordering::Relaxed),
                0..kids.len() as u32,
                self.c,
                |i| {
                    let k = &kids[i as usize];
                    (
                        k.visits.load(Ordering::Relaxed),
                        k.score2.load(Ordering::Relaxed),
                        k.proof_relaxed(),
                    )
                },
            );
            let child = &kids[i as usize];
            pos.play(child.mv.expect("children have moves"));
            before = child.visits.fetch_add(1, Ordering::Relaxed);
            path.push(child);
            node = child;
        }
        let proven = node.proven_outcome();
        let outcome = match proven {
            Some(o) => o,
            None => {
                let mut ctx = PlayoutContext {
                    rng,
                    moves,
                    oracle: self.oracle,
                    oracle_every: self.oracle_every,
                    max_plies: self.max_plies,
                };
                self.playout.run(&mut pos, &mut ctx)
            }
        };
        for n in path.iter() {
            let points = match outcome.result_for(n.mover) {
                GameResult::Win => 2,
                GameResult::Draw => 1,
                GameResult::Loss => 0,
            };
            if points > 0 {
                n.score2.fetch_add(points, Ordering::Relaxed);
            }
        }
        if proven.is_some() {
            for w in path.windows(2).rev() {
                if w[1].proof().0 == Proof::Unknown || !w[0].update() {
                    break;
                }
            }
        }
    }

    /// Creates every child of `node` at once, proving those that end the game or that the
    /// oracle knows; false when another thread is expanding it or the node budget is full
    /// (the leaf then gets a playout).
    fn expand(
        &self,
        node: &SharedNode<G::Move>,
        pos: &G,
        is_root: bool,
        moves: &mut Vec<G::Move>,
    ) -> bool {
        if node.expanding.swap(true, Ordering::Acquire) {
            return false;
        }
        pos.legal_moves(moves);
        if moves.is_empty() {
            // Only a game that forgot to report its end has no moves; call it a draw.
            node.prove(Proof::Draw, 0);
            return true;
        }
        let t = self.tree;
        let n = moves.len();
        let before = t.nodes.fetch_add(n, Ordering::Relaxed);
        if !is_root && before + n > t.budget {
            t.nodes.fetch_sub(n, Ordering::Relaxed);
            t.budget_full.store(true, Ordering::Relaxed);
            node.expanding.store(false, Ordering::Release);
            return false;
        }
        let mover = pos.side_to_move();
        let kids: Box<[SharedNode<G::Move>]> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                let (mut proof, mut plies) = (Proof::Unknown, 0);
                if let Some(o) = child.outcome() {
                    proof = Proof::from_result(o.result_for(mover));
                } else if let Some(p) = self.oracle.and_then(|o| o.probe(&child)) {
                    let r = if child.side_to_move() == mover {
                        p.result
                    } else {
                        p.result.flip()
                    };
                    proof = Proof::from_result(r);
                    plies = super::search::oracle_plies(&p);
                }
                SharedNode::new(Some(mv), mover, proof, plies)
            })
            .collect();
        // Only the thread holding the expansion flag sets the children.
        let _ = node.children.set(kids);
        node.update();
        true
    }
}
