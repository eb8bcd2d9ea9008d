//! UCT selection by the thesis' formula 2.1, `w_i/n_i + c*sqrt(ln t / n_i)`, aware of proofs,
//! with the mean mixed with the minimax value under implicit minimax backups.

use crate::store::{Proof, Store, VALUE_ONE};

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

/// The child of `parent` (expanded and unproven) that formula 2.1 picks, in any store;
/// `None` only when it has no children.
///
/// An unvisited child is taken first (its value is infinite), in move order. Children proven
/// lost for the side to move are never picked while another exists; a proven draw counts
/// 1/2. With `alpha > 0` (implicit minimax backups) the mean `w_i/n_i` is replaced by
/// `(1 - alpha) * w_i/n_i + alpha * v_i`, `v_i` the child's minimax value. Single precision
/// keeps the loop short; ranks are all that matter here.
#[inline(always)]
pub fn select<M: Copy, S: Store<M>>(store: &S, parent: S::Id, c: f32, alpha: f32) -> Option<S::Id> {
    let t = tables();
    let pv = store.stats(parent).0.max(1) as usize;
    let sqrt_ln = if pv < TABLE {
        t.sqrt_ln[pv]
    } else {
        (pv as f32).ln().sqrt()
    };
    let explore = c * sqrt_ln;
    // With alpha 0 both weights make the plain mean exactly (a product with 1, a sum with
    // 0), so the search without backups is unchanged.
    let keep = 1.0 - alpha;
    let per_value = alpha / VALUE_ONE as f32;
    let kids = store.children(parent);
    // A plain id, not an `Option`, keeps the comparison in the loop to one register move.
    let mut best = kids.clone().next()?;
    let mut best_value = f32::NEG_INFINITY;
    for id in kids {
        let (visits, score2, proof) = store.stats(id);
        let visits = visits as usize;
        let value = if proof == Proof::Unknown {
            if visits == 0 {
                return Some(id);
            }
            let (inv, inv_sqrt) = if visits < TABLE {
                (t.inv[visits], t.inv_sqrt[visits])
            } else {
                let inv = 1.0 / visits as f32;
                (inv, inv.sqrt())
            };
            let mean = score2 as f32 * 0.5 * inv;
            let q = if alpha > 0.0 {
                keep * mean + per_value * store.value(id) as f32
            } else {
                mean
            };
            q + explore * inv_sqrt
        } else {
            match proof {
                Proof::Win => return Some(id),
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
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::SharedTree;
    use crate::store::NewChild;
    use crate::tree::Tree;
    use quasar_core::Side;

    /// Children `(wins, visits)` under a root seen 30 times, in both stores, with the
    /// index each picks for `c` (they must agree), the third child proven lost when
    /// `third_lost`.
    fn pick(children: &[(u32, u32)], c: f32, third_lost: bool) -> usize {
        let kids = || {
            children.iter().enumerate().map(|(i, _)| {
                let proof = if i == 2 && third_lost {
                    Proof::Loss
                } else {
                    Proof::Unknown
                };
                NewChild::new(i as u8, proof, 0)
            })
        };
        let n = children.len();
        let mut t: Tree<u8> = Tree::new(Side::First, 10);
        t.add_children(0, Side::First, n, false, kids()).unwrap();
        t.node_mut(0).visits = 30;
        for (i, &(w, v)) in children.iter().enumerate() {
            let node = t.node_mut(1 + i as u32);
            node.score2 = 2 * w;
            node.visits = v;
        }
        let a = select(&t, 0, c, 0.0).map(|id| t.mv(id).unwrap() as usize);
        let shared: SharedTree<u8> = SharedTree::new(Side::First, 10);
        let mut s = &shared;
        let root = s.root();
        s.add_children(root, Side::First, n, false, kids()).unwrap();
        for _ in 0..30 {
            s.enter(root);
        }
        // Children are moved by First: w wins and v - w losses.
        for (k, &(w, v)) in s.children(root).zip(children) {
            for i in 0..v {
                s.enter(k);
                let winner = if i < w { Side::First } else { Side::Second };
                s.backup(k, quasar_core::Outcome::Win(winner));
            }
        }
        let b = select(&s, root, c, 0.0).map(|id| s.mv(id).unwrap() as usize);
        assert_eq!(a, b);
        a.unwrap()
    }

    #[test]
    fn formula_2_1_by_hand() {
        // Parent seen 30 times; children (w, n) = (6, 10), (2, 4), (9, 16); c = 1.
        // 0.6 + sqrt(ln30/10) = 1.1832, 0.5 + sqrt(ln30/4) = 1.4221, 0.5625 + sqrt(ln30/16) = 1.0237
        let kids = [(6, 10), (2, 4), (9, 16)];
        assert_eq!(pick(&kids, 1.0, false), 1);
        // With c = 0 only the means count: 0.6 is best.
        assert_eq!(pick(&kids, 0.0, false), 0);
        // A lost child is not picked even when its value would be best.
        let kids = [(1, 10), (1, 10), (9, 10)];
        assert_eq!(pick(&kids, 0.0, false), 2);
        assert_ne!(pick(&kids, 0.0, true), 2);
    }
}
