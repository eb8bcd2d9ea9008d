//! The shared tree of tree parallelism: one tree that every search thread grows together,
//! with atomic statistics, a virtual loss while a simulation is under way and a per-node
//! expansion flag. A `&SharedTree` is a [`Store`]: each thread holds its own reference.
//!
//! Each node's children live in one boxed block published through a `OnceLock`, so a
//! thread sees either no children or all of them, fully built. Visits are added on the way
//! down (the virtual loss: an unfinished simulation counts as a loss for every mover on its
//! path, steering the other threads elsewhere) and the score on the way up. Proofs are set
//! once, by compare-and-swap from unknown, with sequentially consistent accesses: of two
//! threads that prove sibling nodes at the same time, at least one sees both proofs and
//! carries them to the parent.

use crate::store::{points, NewChild, Proof, Refused, Store, VALUE_HALF};
use quasar_core::{Outcome, Side};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A proof and its plies packed in one word: the proof in the low byte.
fn pack(proof: Proof, plies: u16) -> u32 {
    proof as u32 | (plies as u32) << 8
}

/// The proof and plies of a packed word.
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
pub struct SharedNode<M> {
    mv: Option<M>,
    mover: Side,
    children: OnceLock<Box<[SharedNode<M>]>>,
    expanding: AtomicBool,
    visits: AtomicU32,
    score2: AtomicU32,
    proof: AtomicU32,
    value: AtomicU16,
}

impl<M> SharedNode<M> {
    /// A node with no statistics.
    fn new(mv: Option<M>, mover: Side, proof: Proof, plies: u16) -> Self {
        SharedNode {
            mv,
            mover,
            children: OnceLock::new(),
            expanding: AtomicBool::new(false),
            visits: AtomicU32::new(0),
            score2: AtomicU32::new(0),
            proof: AtomicU32::new(pack(proof, plies)),
            value: AtomicU16::new(VALUE_HALF),
        }
    }

    /// A new child as expansion describes it, with its value and prior.
    fn child(mover: Side, k: NewChild<M>) -> Self {
        let n = SharedNode::new(Some(k.mv), mover, k.proof, k.plies);
        n.value.store(k.value, Ordering::Relaxed);
        n.visits.store(k.prior_visits, Ordering::Relaxed);
        n.score2.store(k.prior_score2, Ordering::Relaxed);
        n
    }

    /// The children, once published.
    #[inline]
    fn kids(&self) -> &[SharedNode<M>] {
        self.children.get().map_or(&[], |b| &b[..])
    }

    /// Nodes in the subtree under (and including) this one.
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
pub struct SharedTree<M> {
    root: SharedNode<M>,
    nodes: AtomicUsize,
    budget: usize,
    budget_full: AtomicBool,
    /// Simulations claimed by the threads in this search (the limit is checked on it).
    claimed: AtomicU64,
    /// Simulations finished in this search.
    finished: AtomicU64,
}

impl<M: Copy> SharedTree<M> {
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

    /// Simulations finished in this search.
    pub fn simulations(&self) -> u64 {
        self.finished.load(Ordering::Relaxed)
    }

    /// Readies the tree for a new search (exclusive access): counters reset and the root's
    /// proof forgotten (the caller re-derives it from the children: an oracle's proof of
    /// the root names no move to play).
    pub fn reset_for_search(&mut self) {
        self.budget_full = AtomicBool::new(false);
        self.claimed = AtomicU64::new(0);
        self.finished = AtomicU64::new(0);
        self.root.proof = AtomicU32::new(pack(Proof::Unknown, 0));
    }

    /// Makes the node reached from the root by the child positions `route` the root, keeping
    /// only its subtree; returns the number of nodes kept and the rest of the old tree (to
    /// be dropped off the clock: freeing a large tree takes milliseconds).
    pub fn reroot(&mut self, route: &[usize]) -> (usize, Option<SharedNode<M>>) {
        if route.is_empty() {
            return (self.nodes.load(Ordering::Relaxed), None);
        }
        let mut node = &mut self.root;
        for &i in route {
            match node.children.get_mut().and_then(|kids| kids.get_mut(i)) {
                Some(kid) => node = kid,
                None => return (self.nodes.load(Ordering::Relaxed), None),
            }
        }
        let mover = node.mover;
        let mut taken = std::mem::replace(node, SharedNode::new(None, mover, Proof::Unknown, 0));
        taken.mv = None;
        let old = std::mem::replace(&mut self.root, taken);
        let n = self.root.count();
        self.nodes = AtomicUsize::new(n);
        (n, Some(old))
    }
}

impl<'a, M: Copy> Store<M> for &'a SharedTree<M> {
    type Id = &'a SharedNode<M>;
    type Kids = std::slice::Iter<'a, SharedNode<M>>;

    #[inline]
    fn root(&self) -> Self::Id {
        &self.root
    }

    #[inline]
    fn mv(&self, id: Self::Id) -> Option<M> {
        id.mv
    }

    #[inline]
    fn mover(&self, id: Self::Id) -> Side {
        id.mover
    }

    #[inline]
    fn children(&self, id: Self::Id) -> Self::Kids {
        id.kids().iter()
    }

    #[inline]
    fn is_expanded(&self, id: Self::Id) -> bool {
        id.children.get().is_some()
    }

    /// Relaxed reads: selection only ranks children by them.
    #[inline]
    fn stats(&self, id: Self::Id) -> (u32, u32, Proof) {
        (
            id.visits.load(Ordering::Relaxed),
            id.score2.load(Ordering::Relaxed),
            unpack(id.proof.load(Ordering::Relaxed)).0,
        )
    }

    #[inline]
    fn proof(&self, id: Self::Id) -> (Proof, u16) {
        unpack(id.proof.load(Ordering::SeqCst))
    }

    #[inline]
    fn value(&self, id: Self::Id) -> u16 {
        id.value.load(Ordering::Relaxed)
    }

    /// Threads may back values up through one node at once: the last store wins, and the
    /// next backup through it mends any stale value.
    #[inline]
    fn set_value(&mut self, id: Self::Id, value: u16) {
        id.value.store(value, Ordering::Relaxed);
    }

    #[inline]
    fn len(&self) -> usize {
        self.nodes.load(Ordering::Relaxed)
    }

    #[inline]
    fn budget_full(&self) -> bool {
        self.budget_full.load(Ordering::Relaxed)
    }

    #[inline]
    fn enter(&mut self, id: Self::Id) -> u32 {
        id.visits.fetch_add(1, Ordering::Relaxed)
    }

    #[inline]
    fn backup(&mut self, id: Self::Id, outcome: Outcome) {
        // The visit was counted on the way down. Every loss adds nothing: skipping it
        // saves a locked instruction on half the path.
        let p = points(outcome, id.mover);
        if p > 0 {
            id.score2.fetch_add(p, Ordering::Relaxed);
        }
    }

    #[inline]
    fn prove(&mut self, id: Self::Id, proof: Proof, plies: u16) -> bool {
        id.proof
            .compare_exchange(
                pack(Proof::Unknown, 0),
                pack(proof, plies),
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
    }

    fn room_for(&mut self, id: Self::Id, count: usize, force: bool) -> Result<(), Refused> {
        if id.expanding.load(Ordering::Relaxed) {
            return Err(Refused::Busy);
        }
        if !force && self.nodes.load(Ordering::Relaxed) + count > self.budget {
            self.budget_full.store(true, Ordering::Relaxed);
            return Err(Refused::Full);
        }
        Ok(())
    }

    fn add_children(
        &mut self,
        id: Self::Id,
        mover: Side,
        count: usize,
        force: bool,
        kids: impl Iterator<Item = NewChild<M>>,
    ) -> Result<(), Refused> {
        if id.expanding.swap(true, Ordering::Acquire) {
            return Err(Refused::Busy);
        }
        let before = self.nodes.fetch_add(count, Ordering::Relaxed);
        if !force && before + count > self.budget {
            self.nodes.fetch_sub(count, Ordering::Relaxed);
            self.budget_full.store(true, Ordering::Relaxed);
            id.expanding.store(false, Ordering::Release);
            return Err(Refused::Full);
        }
        let block: Box<[SharedNode<M>]> = kids.map(|k| SharedNode::child(mover, k)).collect();
        // Only the thread holding the expansion flag sets the children.
        let _ = id.children.set(block);
        Ok(())
    }

    #[inline]
    fn claim(&mut self, _sims: u64, max: u64) -> bool {
        self.claimed.fetch_add(1, Ordering::Relaxed) < max
    }

    #[inline]
    fn finished(&mut self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_is_claimed_once_and_the_budget_is_kept() {
        let tree: SharedTree<u8> = SharedTree::new(Side::First, 4);
        let mut a = &tree;
        let mut b = &tree;
        let root = a.root();
        a.add_children(root, Side::First, 3, false, (0..3).map(NewChild::unknown))
            .unwrap();
        assert_eq!(
            b.add_children(root, Side::First, 3, false, (0..3).map(NewChild::unknown)),
            Err(Refused::Busy)
        );
        let first = a.children(root).next().unwrap();
        assert_eq!(
            b.add_children(first, Side::Second, 2, false, (0..2).map(NewChild::unknown)),
            Err(Refused::Full)
        );
        assert!(a.budget_full() && a.len() == 4 && !a.is_expanded(first));
        // A refused expansion leaves the node free for a later one.
        assert_eq!(
            b.add_children(first, Side::Second, 2, true, (0..2).map(NewChild::unknown)),
            Ok(())
        );
        assert_eq!(a.len(), 6);
    }

    #[test]
    fn virtual_loss_counts_the_visit_on_the_way_down() {
        let tree: SharedTree<u8> = SharedTree::new(Side::First, 4);
        let mut s = &tree;
        let root = s.root();
        assert_eq!(s.enter(root), 0);
        assert_eq!(s.stats(root), (1, 0, Proof::Unknown));
        // The root's mover is Second: a win for Second scores 2.
        s.backup(root, Outcome::Win(Side::Second));
        assert_eq!(s.stats(root), (1, 2, Proof::Unknown));
        s.enter(root);
        s.backup(root, Outcome::Win(Side::First));
        assert_eq!(s.stats(root), (2, 2, Proof::Unknown));
        assert!(s.prove(root, Proof::Win, 3));
        assert!(!s.prove(root, Proof::Loss, 1));
        assert_eq!(s.proof(root), (Proof::Win, 3));
    }

    #[test]
    fn reroot_keeps_the_subtree_and_counts_it() {
        let mut tree: SharedTree<u8> = SharedTree::new(Side::First, 100);
        {
            let mut s = &tree;
            let root = s.root();
            s.add_children(root, Side::First, 3, false, (0..3).map(NewChild::unknown))
                .unwrap();
            let second = s.children(root).nth(1).unwrap();
            s.add_children(
                second,
                Side::Second,
                2,
                false,
                (10..12).map(NewChild::unknown),
            )
            .unwrap();
        }
        let (kept, rest) = tree.reroot(&[1]);
        assert_eq!(kept, 3);
        assert!(rest.is_some());
        let s = &tree;
        assert_eq!(s.mv(s.root()), None);
        let moves: Vec<u8> = s.children(s.root()).map(|k| k.mv.unwrap()).collect();
        assert_eq!(moves, vec![10, 11]);
        // A route that leads nowhere keeps the tree.
        assert_eq!(tree.reroot(&[5]).0, 3);
    }
}
