//! The MCTS-solver: proven wins, losses and draws propagate from children to parents, over
//! any [`Store`].

use crate::store::{Proof, Store};
use quasar_core::{ProvenOutcome, Side};

/// Re-derives the proof of `parent` from its children; returns true when `parent` became
/// proven by this call.
///
/// The children's proofs are from the view of the side to move at `parent`. That side wins
/// if some child wins; it loses if every child loses; when every child is proven and none
/// wins but one draws, it draws. The result is stored from the view of `parent`'s mover.
#[inline]
pub fn update<M: Copy, S: Store<M>>(store: &mut S, parent: S::Id) -> bool {
    if store.proof(parent).0 != Proof::Unknown || !store.is_expanded(parent) {
        return false;
    }
    let derived = derive(
        store.mover(parent),
        store.children(parent).map(|c| {
            let (proof, plies) = store.proof(c);
            (store.mover(c), proof, plies)
        }),
    );
    derived.is_some_and(|(proof, plies)| store.prove(parent, proof, plies))
}

/// After the last node of `path` (a root-to-leaf path) was proven, carries the proof up as
/// far as it goes.
#[inline]
pub fn propagate<M: Copy, S: Store<M>>(store: &mut S, path: &[S::Id]) {
    for w in path.windows(2).rev() {
        if store.proof(w[1]).0 == Proof::Unknown || !update(store, w[0]) {
            break;
        }
    }
}

/// The proof and plies of a parent whose mover is `parent_mover`, from its children's
/// `(mover, proof, plies)`; `None` while they do not settle it.
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

/// The oracle's plies as a tree stores them; a proof without a distance counts as the
/// longest (a win is then preferred last, a loss delayed most).
#[inline]
pub fn oracle_plies<M>(p: &ProvenOutcome<M>) -> u16 {
    p.plies
        .map_or(UNKNOWN_PLIES, |n| n.min(UNKNOWN_PLIES as u32 - 1) as u16)
}

/// The plies a proof counts for an oracle's answer without a distance: long (a win through
/// it is preferred last, a loss resisted longest) and far from overflowing as plies add up.
pub const UNKNOWN_PLIES: u16 = u16::MAX / 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::SharedTree;
    use crate::store::NewChild;
    use crate::tree::Tree;

    fn kids(proofs: &[(Proof, u16)]) -> impl Iterator<Item = NewChild<u8>> + '_ {
        proofs
            .iter()
            .enumerate()
            .map(|(i, &(proof, plies))| NewChild::new(i as u8, proof, plies))
    }

    /// The root's proof and plies after its children `proofs` are added and it is updated,
    /// in both stores (which must agree).
    fn root_after(proofs: &[(Proof, u16)]) -> (bool, Proof, u16) {
        let mut t: Tree<u8> = Tree::new(Side::First, 100);
        t.add_children(0, Side::First, proofs.len(), false, kids(proofs))
            .unwrap();
        let changed = update(&mut t, 0);
        let arena = (changed, t.proof(0).0, t.proof(0).1);
        let shared: SharedTree<u8> = SharedTree::new(Side::First, 100);
        let mut s = &shared;
        let root = s.root();
        s.add_children(root, Side::First, proofs.len(), false, kids(proofs))
            .unwrap();
        let changed = update(&mut s, root);
        assert_eq!(arena, (changed, s.proof(root).0, s.proof(root).1));
        arena
    }

    #[test]
    fn one_winning_child_wins_the_parent_for_the_side_to_move() {
        // The root's mover is Second; First to move wins, so Second's move loses.
        let r = root_after(&[(Proof::Unknown, 0), (Proof::Win, 4), (Proof::Win, 2)]);
        assert_eq!(r, (true, Proof::Loss, 3));
    }

    #[test]
    fn unknown_children_keep_a_parent_open_unless_one_wins() {
        let r = root_after(&[(Proof::Loss, 3), (Proof::Unknown, 0), (Proof::Draw, 1)]);
        assert_eq!(r, (false, Proof::Unknown, 0));
    }

    #[test]
    fn all_children_lost_or_drawn() {
        assert_eq!(
            root_after(&[(Proof::Loss, 3), (Proof::Loss, 5)]),
            (true, Proof::Win, 6)
        );
        assert_eq!(
            root_after(&[(Proof::Loss, 3), (Proof::Draw, 1)]),
            (true, Proof::Draw, 2)
        );
    }
}
