//! The MCTS-solver: proven wins, losses and draws propagate from children to parents.

use super::tree::{NodeId, Proof, Tree};
use quasar_core::Side;

/// Re-derives the proof of `parent` from its children; returns true when `parent` became
/// proven by this call.
///
/// The children's proofs are from the view of the side to move at `parent`. That side wins
/// if some child wins; it loses if every child loses; when every child is proven and none
/// wins but one draws, it draws. The result is stored from the view of `parent`'s mover.
pub fn update<M: Copy>(tree: &mut Tree<M>, parent: NodeId) -> bool {
    let p = *tree.node(parent);
    if p.proof != Proof::Unknown || !p.is_expanded() {
        return false;
    }
    let derived = derive(
        p.mover,
        p.children().map(|c| {
            let n = tree.node(c);
            (n.mover, n.proof, n.proof_plies)
        }),
    );
    let Some((proof, plies)) = derived else {
        return false;
    };
    let node = tree.node_mut(parent);
    node.proof = proof;
    node.proof_plies = plies;
    true
}

/// The proof and plies of a parent whose mover is `parent_mover`, from its children's
/// `(mover, proof, plies)`; `None` while they do not settle it. Shared by the single-owner
/// tree and the shared tree of tree parallelism.
#[inline]
pub fn derive(
    parent_mover: Side,
    children: impl Iterator<Item = (Side, Proof, u16)>,
) -> Option<(Proof, u16)> {
    let mut best_win = u16::MAX;
    let mut all_proven = true;
    let mut any_draw = false;
    let mut draw_plies = 0u16;
    let mut loss_plies = 0u16;
    let mut stm = parent_mover.opponent();
    for (mover, proof, plies) in children {
        stm = mover;
        match proof {
            Proof::Win => best_win = best_win.min(plies),
            Proof::Loss => loss_plies = loss_plies.max(plies),
            Proof::Draw => {
                any_draw = true;
                draw_plies = draw_plies.max(plies);
            }
            Proof::Unknown => all_proven = false,
        }
    }
    // The result for the side to move at `parent`, and plies to the end.
    let (for_stm, plies) = if best_win != u16::MAX {
        (Proof::Win, best_win)
    } else if !all_proven {
        return None;
    } else if any_draw {
        (Proof::Draw, draw_plies)
    } else {
        (Proof::Loss, loss_plies)
    };
    let proof = if stm == parent_mover {
        for_stm
    } else {
        match for_stm {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            other => other,
        }
    };
    Some((proof, plies.saturating_add(1)))
}

/// After the last node of `path` was proven, carries the proof up as far as it goes.
pub fn propagate<M: Copy>(tree: &mut Tree<M>, path: &[NodeId]) {
    for w in path.windows(2).rev() {
        if tree.node(w[1]).proof == Proof::Unknown || !update(tree, w[0]) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Node;
    use quasar_core::Side;

    fn tree_with(proofs: &[(Proof, u16)]) -> Tree<u8> {
        let mut t: Tree<u8> = Tree::new(Side::First, 100);
        t.add_children(
            0,
            proofs.iter().enumerate().map(|(i, &(p, d))| {
                let mut n = Node::new(Some(i as u8), Side::First);
                n.proof = p;
                n.proof_plies = d;
                n
            }),
        );
        t
    }

    #[test]
    fn one_winning_child_wins_the_parent_for_the_side_to_move() {
        let mut t = tree_with(&[(Proof::Unknown, 0), (Proof::Win, 4), (Proof::Win, 2)]);
        assert!(update(&mut t, 0));
        // The root's mover is Black; White to move wins, so Black's move loses.
        assert_eq!(t.node(0).proof, Proof::Loss);
        assert_eq!(t.node(0).proof_plies, 3);
    }

    #[test]
    fn unknown_children_keep_a_parent_open_unless_one_wins() {
        let mut t = tree_with(&[(Proof::Loss, 3), (Proof::Unknown, 0), (Proof::Draw, 1)]);
        assert!(!update(&mut t, 0));
        assert_eq!(t.node(0).proof, Proof::Unknown);
    }

    #[test]
    fn all_children_lost_or_drawn() {
        let mut t = tree_with(&[(Proof::Loss, 3), (Proof::Loss, 5)]);
        assert!(update(&mut t, 0));
        assert_eq!(t.node(0).proof, Proof::Win);
        assert_eq!(t.node(0).proof_plies, 6);
        let mut t = tree_with(&[(Proof::Loss, 3), (Proof::Draw, 1)]);
        assert!(update(&mut t, 0));
        assert_eq!(t.node(0).proof, Proof::Draw);
    }
}
