//! UCT selection by the thesis' formula 2.1, `w_i/n_i + c*sqrt(ln t / n_i)`, aware of proofs.

use super::tree::{NodeId, Proof, Tree, NO_CHILDREN};

/// Visit counts below this read `1/n`, `1/sqrt(n)` and `sqrt(ln n)` from tables: the loop
/// over children then has no division or square root on its critical path.
const TABLE: usize = 1024;

/// `1/n`, `1/sqrt(n)` and `sqrt(ln n)` for small `n`.
struct Tables {
    inv: [f32; TABLE],
    inv_sqrt: [f32; TABLE],
    sqrt_ln: [f32; TABLE],
}

fn tables() -> &'static Tables {
    static T: std::sync::OnceLock<Box<Tables>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new(Tables {
            inv: [0.0; TABLE],
            inv_sqrt: [0.0; TABLE],
            sqrt_ln: [0.0; TABLE],
        });
        for n in 1..TABLE {
            t.inv[n] = 1.0 / n as f32;
            t.inv_sqrt[n] = 1.0 / (n as f32).sqrt();
            t.sqrt_ln[n] = (n as f32).ln().sqrt();
        }
        t
    })
}

/// The child of `parent` (expanded and unproven) that formula 2.1 picks.
///
/// An unvisited child is taken first (its value is infinite), in move order. Children proven
/// lost for the side to move are never picked while another exists; a proven draw counts
/// 1/2. Single precision keeps the loop short; ranks are all that matter here.
#[inline]
pub fn select<M: Copy>(tree: &Tree<M>, parent: NodeId, c: f32) -> NodeId {
    let p = tree.node(parent);
    choose(p.visits, p.children(), c, |id| {
        let n = tree.node(id);
        (n.visits, n.score2, n.proof)
    })
}

/// Formula 2.1 over the children `ids` of a parent seen `parent_visits` times, reading each
/// child's `(visits, score2, proof)` through `stats`; the rules of [`select`]. Shared by the
/// single-owner tree and the shared tree of tree parallelism.
#[inline(always)]
pub fn choose(
    parent_visits: u32,
    ids: std::ops::Range<NodeId>,
    c: f32,
    stats: impl Fn(NodeId) -> (u32, u32, Proof),
) -> NodeId {
    let t = tables();
    let pv = parent_visits.max(1) as usize;
    let sqrt_ln = if pv < TABLE {
        t.sqrt_ln[pv]
    } else {
        (pv as f32).ln().sqrt()
    };
    let explore = c * sqrt_ln;
    let mut best = NO_CHILDREN;
    let mut best_value = f32::NEG_INFINITY;
    for id in ids {
        let (visits, score2, proof) = stats(id);
        let visits = visits as usize;
        let value = if proof == Proof::Unknown {
            if visits == 0 {
                return id;
            }
            let (inv, inv_sqrt) = if visits < TABLE {
                (t.inv[visits], t.inv_sqrt[visits])
            } else {
                let inv = 1.0 / visits as f32;
                (inv, inv.sqrt())
            };
            score2 as f32 * 0.5 * inv + explore * inv_sqrt
        } else {
            match proof {
                Proof::Win => return id,
                Proof::Loss => f32::MIN,
                _ => {
                    let v = visits.max(1) as f32;
                    0.5 + explore / v.sqrt()
                }
            }
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
    use crate::tree::Node;
    use quasar_core::Side;

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
