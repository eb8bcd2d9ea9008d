//! UCT selection by the thesis' formula 2.1, `w_i/n_i + c*sqrt(ln t / n_i)`, aware of proofs.

use super::tree::{NodeId, Proof, Tree, NO_CHILDREN};

/// The child of `parent` (expanded and unproven) that formula 2.1 picks.
///
/// An unvisited child is taken first (its value is infinite), in move order. Children proven
/// lost for the side to move are never picked while another exists; a proven draw counts
/// 1/2. Single precision keeps the loop short; ranks are all that matter here.
#[inline]
pub fn select<M: Copy>(tree: &Tree<M>, parent: NodeId, c: f32) -> NodeId {
    let p = tree.node(parent);
    let explore = c * (p.visits.max(1) as f32).ln().sqrt();
    let mut best = NO_CHILDREN;
    let mut best_value = f32::NEG_INFINITY;
    for id in p.children() {
        let n = tree.node(id);
        let value = match n.proof {
            Proof::Unknown | Proof::Draw => {
                if n.visits == 0 {
                    return id;
                }
                let inv = 1.0 / n.visits as f32;
                let mean = if n.proof == Proof::Draw {
                    0.5
                } else {
                    n.score2 as f32 * 0.5 * inv
                };
                mean + explore * inv.sqrt()
            }
            Proof::Win => return id,
            Proof::Loss => f32::MIN,
        };
        if value > best_value {
            best_value = value;
            best = id;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::mcts::tree::Node;

    #[test]
    fn formula_2_1_by_hand() {
        // Parent seen 30 times; children (w, n) = (6, 10), (2, 4), (9, 16); c = 1.
        // 0.6 + sqrt(ln30/10) = 1.1832, 0.5 + sqrt(ln30/4) = 1.4221, 0.5625 + sqrt(ln30/16) = 1.0237
        let mut t: Tree<u8> = Tree::new(Side::First, 10);
        t.node_mut(0).visits = 30;
        t.add_children(
            0,
            [(6, 10), (2, 4), (9, 16)].iter().map(|&(w, n)| {
                let mut node = Node::new(Some(0), Side::First);
                node.score2 = 2 * w;
                node.visits = n;
                node
            }),
        );
        assert_eq!(select(&t, 0, 1.0), 2);
        // With c = 0 only the means count: 0.6 is best.
        assert_eq!(select(&t, 0, 0.0), 1);
        t.node_mut(2).proof = Proof::Loss;
        assert_ne!(select(&t, 0, 1.0), 2);
    }
}
