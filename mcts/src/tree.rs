//! The single-owner node arena (root parallelism gives each thread one): every node in one
//! `Vec`, each node's children contiguous and addressed by `u32` indices, with the node
//! budget and subtree reuse.

use crate::store::{points, NewChild, Proof, Refused, Store, VALUE_HALF};
use quasar_core::{Outcome, Side};

/// Index of a node in the arena; the root is always node 0.
pub type NodeId = u32;

/// Marks a node whose children have not been created yet.
const NO_CHILDREN: NodeId = u32::MAX;

/// One node: the move that led here, its children, its statistics and its proof.
#[derive(Clone, Copy, Debug)]
pub struct Node<M> {
    /// The move from the parent (`None` only at the root).
    pub mv: Option<M>,
    /// Index of the first child, or `NO_CHILDREN` while unexpanded.
    first_child: NodeId,
    /// Number of children (0 while unexpanded); 16 bits leave room for `value` in 24
    /// bytes (a node's children are at most `u16::MAX`).
    num_children: u16,
    /// The minimax value for the mover (see [`Store::value`]).
    pub value: u16,
    /// Simulations that passed through this node.
    pub visits: u32,
    /// Twice the summed score for the mover (win 2, draw 1, loss 0), so draws stay integral.
    pub score2: u32,
    /// The side that made `mv` (at the root: the opponent of the side to move).
    pub mover: Side,
    /// What the solver knows, from the mover's view.
    pub proof: Proof,
    /// Plies from this node's position to the end of the game when proven (an upper bound
    /// when the proof came from an oracle).
    pub proof_plies: u16,
}

impl<M> Node<M> {
    /// A fresh node with no statistics.
    #[inline]
    pub fn new(mv: Option<M>, mover: Side) -> Node<M> {
        Node {
            mv,
            first_child: NO_CHILDREN,
            num_children: 0,
            value: VALUE_HALF,
            visits: 0,
            score2: 0,
            mover,
            proof: Proof::Unknown,
            proof_plies: 0,
        }
    }

    /// True once the children exist.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.first_child != NO_CHILDREN
    }

    /// The children's index range.
    #[inline]
    pub fn children(&self) -> std::ops::Range<NodeId> {
        if self.is_expanded() {
            self.first_child..self.first_child + self.num_children as NodeId
        } else {
            0..0
        }
    }
}

/// The arena of nodes; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node<M>>,
    budget: usize,
    full: bool,
}

impl<M: Copy> Tree<M> {
    /// A tree holding only a root whose side to move is `to_move`, capped at `budget` nodes.
    pub fn new(to_move: Side, budget: usize) -> Tree<M> {
        let budget = budget.max(1);
        // Reserving the whole budget costs only address space: pages are touched as used.
        let mut nodes = Vec::with_capacity(budget.min(1 << 26));
        nodes.push(Node::new(None, to_move.opponent()));
        Tree {
            nodes,
            budget,
            full: false,
        }
    }

    /// The most nodes the tree may hold.
    #[inline]
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// A node.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id as usize]
    }

    /// A node, mutably.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        &mut self.nodes[id as usize]
    }

    /// Readies the tree for a new search: the budget-full mark cleared and the root's proof
    /// forgotten (the caller re-derives it from the children: an oracle's proof of the
    /// root names no move to play).
    pub fn reset_for_search(&mut self) {
        self.full = false;
        let root = &mut self.nodes[0];
        root.proof = Proof::Unknown;
        root.proof_plies = 0;
    }

    /// Makes the node reached from the root by the child positions `route` the root,
    /// keeping only its subtree (copied breadth-first, so each node's children stay
    /// contiguous); returns the number of nodes kept.
    pub fn reroot(&mut self, route: &[usize]) -> usize {
        let mut new_root = 0;
        for &i in route {
            let kids = self.node(new_root).children();
            if i >= kids.len() {
                return self.nodes.len();
            }
            new_root = kids.start + i as NodeId;
        }
        if new_root == 0 {
            return self.nodes.len();
        }
        let old = std::mem::take(&mut self.nodes);
        let mut nodes = Vec::with_capacity(self.budget.min(1 << 26));
        let mut root = old[new_root as usize];
        root.mv = None;
        nodes.push(root);
        let mut i = 0;
        while i < nodes.len() {
            let n = nodes[i];
            if n.is_expanded() {
                let start = nodes.len() as NodeId;
                nodes.extend_from_slice(
                    &old[n.first_child as usize..n.first_child as usize + n.num_children as usize],
                );
                nodes[i].first_child = start;
            }
            i += 1;
        }
        self.nodes = nodes;
        self.nodes.len()
    }
}

impl<M: Copy> Store<M> for Tree<M> {
    type Id = NodeId;
    type Kids = std::ops::Range<NodeId>;

    #[inline]
    fn root(&self) -> NodeId {
        0
    }

    #[inline]
    fn mv(&self, id: NodeId) -> Option<M> {
        self.node(id).mv
    }

    #[inline]
    fn mover(&self, id: NodeId) -> Side {
        self.node(id).mover
    }

    #[inline]
    fn children(&self, id: NodeId) -> Self::Kids {
        self.node(id).children()
    }

    #[inline]
    fn is_expanded(&self, id: NodeId) -> bool {
        self.node(id).is_expanded()
    }

    #[inline]
    fn stats(&self, id: NodeId) -> (u32, u32, Proof) {
        let n = self.node(id);
        (n.visits, n.score2, n.proof)
    }

    #[inline]
    fn proof(&self, id: NodeId) -> (Proof, u16) {
        let n = self.node(id);
        (n.proof, n.proof_plies)
    }

    #[inline]
    fn value(&self, id: NodeId) -> u16 {
        self.node(id).value
    }

    #[inline]
    fn set_value(&mut self, id: NodeId, value: u16) {
        self.node_mut(id).value = value;
    }

    #[inline]
    fn len(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    fn budget_full(&self) -> bool {
        self.full
    }

    #[inline]
    fn enter(&mut self, id: NodeId) -> u32 {
        self.node(id).visits
    }

    #[inline]
    fn backup(&mut self, id: NodeId, outcome: Outcome) {
        let n = self.node_mut(id);
        n.visits += 1;
        n.score2 += points(outcome, n.mover);
    }

    #[inline]
    fn prove(&mut self, id: NodeId, proof: Proof, plies: u16) -> bool {
        let n = self.node_mut(id);
        if n.proof != Proof::Unknown {
            return false;
        }
        n.proof = proof;
        n.proof_plies = plies;
        true
    }

    #[inline]
    fn room_for(&mut self, _id: NodeId, count: usize, force: bool) -> Result<(), Refused> {
        if !force && self.nodes.len() + count > self.budget {
            self.full = true;
            return Err(Refused::Full);
        }
        Ok(())
    }

    #[inline]
    fn add_children(
        &mut self,
        id: NodeId,
        mover: Side,
        count: usize,
        force: bool,
        kids: impl Iterator<Item = NewChild<M>>,
    ) -> Result<(), Refused> {
        assert!(
            count <= u16::MAX as usize,
            "a node has at most {} children",
            u16::MAX
        );
        self.room_for(id, count, force)?;
        let first = self.nodes.len() as NodeId;
        self.nodes.extend(kids.map(|k| Node {
            proof: k.proof,
            proof_plies: k.plies,
            value: k.value,
            visits: k.prior_visits,
            score2: k.prior_score2,
            ..Node::new(Some(k.mv), mover)
        }));
        let n = (self.nodes.len() as u32 - first) as u16;
        let p = &mut self.nodes[id as usize];
        p.first_child = first;
        p.num_children = n;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_stays_24_bytes_with_its_minimax_value() {
        // Breakthrough's move is two bytes, as `u16` here: a dependent read per node is the
        // cost of selection, so the minimax value must not grow the node.
        assert_eq!(std::mem::size_of::<Node<u16>>(), 24);
    }

    #[test]
    fn reroot_keeps_the_subtree_with_contiguous_children() {
        let mut t: Tree<u8> = Tree::new(Side::First, 100);
        t.add_children(0, Side::First, 3, false, (0..3).map(NewChild::unknown))
            .unwrap();
        // Children of node 2 (move 1), then of node 4 (a grandchild).
        t.add_children(2, Side::Second, 2, false, (10..12).map(NewChild::unknown))
            .unwrap();
        t.add_children(5, Side::First, 2, false, (20..22).map(NewChild::unknown))
            .unwrap();
        t.node_mut(2).visits = 7;
        assert_eq!(t.len(), 8);
        let kept = t.reroot(&[1]);
        // Node 2, its two children and the two grandchildren under move 11.
        assert_eq!(kept, 5);
        assert_eq!(t.node(0).visits, 7);
        assert_eq!(t.node(0).mv, None);
        let moves_below = |n: NodeId| -> Vec<u8> {
            t.node(n)
                .children()
                .map(|c| t.node(c).mv.unwrap())
                .collect()
        };
        assert_eq!(moves_below(0), vec![10, 11]);
        assert_eq!(moves_below(2), vec![20, 21]);
        assert!(!t.node(1).is_expanded());
    }

    #[test]
    fn children_beyond_the_budget_are_refused_and_remembered() {
        let mut t: Tree<u8> = Tree::new(Side::First, 4);
        assert_eq!(
            t.add_children(0, Side::First, 3, false, (0..3).map(NewChild::unknown)),
            Ok(())
        );
        assert!(!t.budget_full());
        assert_eq!(
            t.add_children(1, Side::Second, 2, false, (0..2).map(NewChild::unknown)),
            Err(Refused::Full)
        );
        assert!(t.budget_full() && !t.is_expanded(1) && t.len() == 4);
        // The root (forced) always expands.
        assert_eq!(
            t.add_children(1, Side::Second, 2, true, (0..2).map(NewChild::unknown)),
            Ok(())
        );
        assert_eq!(t.mover(4), Side::Second);
        t.reset_for_search();
        assert!(!t.budget_full());
    }
}
