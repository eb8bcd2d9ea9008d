//! Tree reuse: where the position to search sits in the tree of the previous search.

use crate::store::Store;
use quasar_core::Game;

/// The child positions leading from the root of `store` (whose position is `prev`) to the
/// node of `pos`, looking up to two plies deep; empty when `pos` is the root. A hash match
/// is confirmed with `==`: a 64-bit hash alone may collide. Two plies down, moves played in
/// another order can reach the same position: the most visited of those nodes is taken.
pub fn find<G: Game, S: Store<G::Move>>(store: &S, prev: &G, pos: &G) -> Option<Vec<usize>> {
    let target = pos.hash();
    if prev.hash() == target && prev == pos {
        return Some(Vec::new());
    }
    let mut best: Option<(u32, [usize; 2])> = None;
    for (i, c) in store.children(store.root()).enumerate() {
        let mut p1 = prev.clone();
        p1.play(store.mv(c)?);
        if p1.hash() == target && p1 == *pos {
            return Some(vec![i]);
        }
        for (j, g) in store.children(c).enumerate() {
            let mut p2 = p1.clone();
            p2.play(store.mv(g)?);
            let visits = store.stats(g).0;
            if p2.hash() == target && best.is_none_or(|(v, _)| visits > v) && p2 == *pos {
                best = Some((visits, [i, j]));
            }
        }
    }
    best.map(|(_, route)| route.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::NewChild;
    use crate::tree::Tree;
    use quasar_core::testing::Nim;
    use quasar_core::Side;

    /// A tree over `pos`: all root moves, and under two of them the replies.
    fn tree(pos: &Nim) -> Tree<u8> {
        let mut t = Tree::new(pos.side_to_move(), 1000);
        let kids = |p: &Nim| p.moves().into_iter().map(NewChild::unknown);
        let moves = pos.moves();
        t.add_children(0, Side::First, moves.len(), false, kids(pos))
            .unwrap();
        for c in [1, 5] {
            let p = pos.after(t.node(c).mv.unwrap());
            t.add_children(c, Side::Second, p.moves().len(), false, kids(&p))
                .unwrap();
        }
        t
    }

    #[test]
    fn finds_the_root_a_child_or_the_most_visited_transposition() {
        let pos = Nim::new([3, 3], 40);
        let mut t = tree(&pos);
        // Moves: 1 2 3 (pile 0), 5 6 7 (pile 1); nodes 1..=6.
        assert_eq!(find(&t, &pos, &pos), Some(vec![]));
        assert_eq!(find(&t, &pos, &pos.after(6)), Some(vec![4]));
        // Node 1 (move 1, piles 2 3) has the replies 1 2 5 6 7; node 5 (move 6, piles 3 1)
        // has 1 2 3 5. Piles 2 2 are reached only under node 1, by move 5.
        let target = pos.after(1).after(5);
        assert_eq!(find(&t, &pos, &target), Some(vec![0, 2]));
        // Piles 2 1: under node 1 by move 6, and under node 5 by move 1. Equally visited,
        // the first is taken; else the more visited.
        let target = pos.after(1).after(6);
        let under5 = t.node(5).children().start;
        assert_eq!(find(&t, &pos, &target), Some(vec![0, 3]));
        t.node_mut(under5).visits = 9;
        assert_eq!(find(&t, &pos, &target), Some(vec![4, 0]));
        // Out of reach, and a colliding hash that `==` refuses.
        assert_eq!(find(&t, &pos, &pos.after(3).after(7)), None);
        let weak = |p: &Nim| Nim {
            weak_hash: true,
            ..p.clone()
        };
        assert_eq!(find(&t, &weak(&pos), &weak(&pos.after(2))), Some(vec![1]));
        assert_eq!(find(&t, &weak(&pos), &weak(&Nim::new([1, 1], 40))), None);
    }
}
