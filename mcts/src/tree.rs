//! The node arena: every node of the search tree in one `Vec`, each node's children stored
//! contiguously and addressed by `u32` indices, with the node budget and subtree reuse.

use quasar_core::{GameResult, Outcome, Side};

/// Index of a node in the arena; the root is always node 0.
pub type NodeId = u32;

/// Marks a node whose children have not been created yet.
pub const NO_CHILDREN: NodeId = u32::MAX;

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
}

/// One node: the move that led here, its children, its statistics and its proof.
#[derive(Clone, Copy, Debug)]
pub struct Node<M> {
    /// The move from the parent (`None` only at the root).
    pub mv: Option<M>,
    /// Index of the first child, or [`NO_CHILDREN`] while unexpanded.
    pub first_child: NodeId,
    /// Number of children (0 while unexpanded).
    pub num_children: u32,
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
            self.first_child..self.first_child + self.num_children
        } else {
            0..0
        }
    }

    /// Mean score for the mover in `[0, 1]` (1/2 before any visit).
    #[inline]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.score2 as f64 / (2.0 * self.visits as f64)
        }
    }

    /// Adds one simulation's outcome.
    #[inline]
    pub fn record(&mut self, outcome: Outcome) {
        self.visits += 1;
        self.score2 += match outcome.result_for(self.mover) {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        };
    }

    /// The outcome a proven node stands for, `None` while unknown.
    #[inline]
    pub fn proven_outcome(&self) -> Option<Outcome> {
        self.proof.result().map(|r| match r {
            GameResult::Win => Outcome::Win(self.mover),
            GameResult::Loss => Outcome::Win(self.mover.opponent()),
            GameResult::Draw => Outcome::Draw,
        })
    }
}

/// The arena of nodes; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node<M>>,
    budget: usize,
}

impl<M: Copy> Tree<M> {
    /// A tree holding only a root whose side to move is `to_move`, capped at `budget` nodes.
    pub fn new(to_move: Side, budget: usize) -> Tree<M> {
        let budget = budget.max(1);
        // Reserving the whole budget costs only address space: pages are touched as used.
        let mut nodes = Vec::with_capacity(budget.min(1 << 26));
        nodes.push(Node::new(None, to_move.opponent()));
        Tree { nodes, budget }
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has at least its root.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The most nodes the tree may hold.
    #[inline]
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// True when `extra` more nodes fit the budget.
    #[inline]
    pub fn has_room(&self, extra: usize) -> bool {
        self.nodes.len() + extra <= self.budget
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

    /// Appends the children of `parent` (which must be unexpanded) as one contiguous block;
    /// the caller checks [`Tree::has_room`] first.
    #[inline]
    pub fn add_children(&mut self, parent: NodeId, children: impl Iterator<Item = Node<M>>) {
        let first = self.nodes.len() as NodeId;
        self.nodes.extend(children);
        let n = self.nodes.len() as u32 - first;
        let p = &mut self.nodes[parent as usize];
        p.first_child = first;
        p.num_children = n;
    }

    /// Makes `new_root` the root, keeping only its subtree (copied breadth-first, so each
    /// node's children stay contiguous); returns the number of nodes kept.
    pub fn reroot(&mut self, new_root: NodeId) -> usize {
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
                    &old[n.first_child as usize..(n.first_child + n.num_children) as usize],
                );
                nodes[i].first_child = start;
            }
            i += 1;
        }
        self.nodes = nodes;
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_keeps_the_subtree_with_contiguous_children() {
        let mut t: Tree<u8> = Tree::new(Side::First, 100);
        t.add_children(0, (0..3).map(|m| Node::new(Some(m), Side::First)));
        // Children of node 2 (move 1), then of node 4 (a grandchild).
        t.add_children(2, (10..12).map(|m| Node::new(Some(m), Side::Second)));
        t.add_children(5, (20..22).map(|m| Node::new(Some(m), Side::First)));
        t.node_mut(2).visits = 7;
        assert_eq!(t.len(), 8);
        let kept = t.reroot(2);
        // Node 2, its two children and the two grandchildren under move 11.
        assert_eq!(kept, 5);
        assert_eq!(t.node(0).visits, 7);
        assert_eq!(t.node(0).mv, None);
        let kids: Vec<u8> = t
            .node(0)
            .children()
            .map(|c| t.node(c).mv.unwrap())
            .collect();
        assert_eq!(kids, vec![10, 11]);
        let gk: Vec<u8> = t
            .node(2)
            .children()
            .map(|c| t.node(c).mv.unwrap())
            .collect();
        assert_eq!(gk, vec![20, 21]);
        assert!(!t.node(1).is_expanded());
    }
}
