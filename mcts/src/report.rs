//! Reporting: the root statistics each thread hands in, the move pick, the root's proof,
//! the principal variation and the merged [`Report`].

use crate::stats::{ChildStats, Proven, Report};
use crate::store::{mean, Proof, Store};
use quasar_core::{Game, GameResult, Outcome};
use std::time::Instant;

/// The longest principal variation reported.
const PV_MAX: usize = 24;

/// One root child as a thread reports it: raw sums, so threads' trees can be merged.
#[derive(Clone, Copy, Debug)]
pub struct RootChild<M> {
    mv: M,
    visits: u64,
    score2: u64,
    proven: Option<Proven>,
}

/// What a thread reports about its part of a search.
#[derive(Clone, Debug)]
pub struct Snapshot<M> {
    /// The search this belongs to.
    pub job: u64,
    /// The root's children.
    children: Vec<RootChild<M>>,
    /// Simulations run.
    sims: u64,
    /// Nodes in the tree.
    tree_nodes: usize,
    /// Nodes kept by reuse.
    reused: usize,
    /// The node budget filled.
    budget_full: bool,
    /// The thread's part is over.
    pub done: bool,
}

impl<M> Default for Snapshot<M> {
    fn default() -> Self {
        Snapshot {
            job: 0,
            children: Vec::new(),
            sims: 0,
            tree_nodes: 0,
            reused: 0,
            budget_full: false,
            done: false,
        }
    }
}

impl<M> Snapshot<M> {
    /// Simulations run.
    pub(crate) fn simulations(&self) -> u64 {
        self.sims
    }
}

impl<M: Copy> Snapshot<M> {
    /// The root statistics of `store` in search `job`, after `sims` simulations, with
    /// `reused` nodes kept from the previous search.
    pub fn of<S: Store<M>>(store: &S, job: u64, sims: u64, reused: usize, done: bool) -> Self {
        let children = store
            .children(store.root())
            .map(|id| {
                let (visits, score2, _) = store.stats(id);
                RootChild {
                    mv: store.mv(id).expect("children have moves"),
                    visits: visits as u64,
                    score2: score2 as u64,
                    // The children's proofs count from their own position: one ply more
                    // from the root.
                    proven: child_stats(store, id, 1).proven,
                }
            })
            .collect();
        Snapshot {
            job,
            children,
            sims,
            tree_nodes: store.len(),
            reused,
            budget_full: store.budget_full(),
            done,
        }
    }
}

/// A node's statistics as reports and picks read them, with `extra` plies added to a proof
/// (1 at the root's children: their proofs count from the root).
pub fn child_stats<M: Copy, S: Store<M>>(store: &S, id: S::Id, extra: u32) -> ChildStats<S::Id> {
    let (visits, score2, _) = store.stats(id);
    let (proof, plies) = store.proof(id);
    ChildStats {
        mv: id,
        visits: visits as u64,
        value: mean(visits as u64, score2 as u64),
        proven: proof.result().map(|result| Proven {
            result,
            plies: plies as u32 + extra,
        }),
    }
}

/// The principal variation of `store` that starts with the root move `first`: from each
/// node the child [`pick`] plays, while it has been visited or proven.
pub fn pv<M: Copy + PartialEq, S: Store<M>>(store: &S, first: M) -> Vec<M> {
    let mut pv = vec![first];
    let mut node = store
        .children(store.root())
        .find(|&id| store.mv(id) == Some(first));
    while let Some(id) = node {
        if pv.len() >= PV_MAX {
            break;
        }
        let stats: Vec<ChildStats<S::Id>> = store
            .children(id)
            .map(|c| child_stats(store, c, 0))
            .collect();
        node = pick(&stats)
            .map(|k| stats[k].mv)
            .filter(|&c| store.stats(c).0 > 0 || store.proof(c).0 != Proof::Unknown);
        if let Some(c) = node {
            pv.push(store.mv(c).expect("children have moves"));
        }
    }
    pv
}

/// The move to play: a proven win (the fastest), else the most visited move not proven
/// lost (ties: the higher value, then the first), else the slowest loss.
pub fn pick<M>(children: &[ChildStats<M>]) -> Option<usize> {
    let res = |c: &ChildStats<M>| c.proven.map(|p| p.result);
    if let Some(k) = (0..children.len())
        .filter(|&k| res(&children[k]) == Some(GameResult::Win))
        .min_by_key(|&k| children[k].proven.map_or(u32::MAX, |p| p.plies))
    {
        return Some(k);
    }
    let open = (0..children.len()).filter(|&k| res(&children[k]) != Some(GameResult::Loss));
    if let Some(k) = open.max_by(|&a, &b| {
        let (x, y) = (&children[a], &children[b]);
        x.visits
            .cmp(&y.visits)
            .then(x.value.total_cmp(&y.value))
            .then(b.cmp(&a))
    }) {
        return Some(k);
    }
    (0..children.len()).max_by_key(|&k| children[k].proven.map_or(0, |p| p.plies))
}

/// The root's proven value from its merged children, if they settle it.
fn root_proof<M>(children: &[ChildStats<M>]) -> Option<Proven> {
    let win = children
        .iter()
        .filter_map(|c| c.proven)
        .filter(|p| p.result == GameResult::Win)
        .min_by_key(|p| p.plies);
    if win.is_some() || children.is_empty() {
        return win;
    }
    let all: Option<Vec<Proven>> = children.iter().map(|c| c.proven).collect();
    let all = all?;
    if let Some(d) = all
        .iter()
        .filter(|p| p.result == GameResult::Draw)
        .max_by_key(|p| p.plies)
    {
        return Some(*d);
    }
    all.into_iter().max_by_key(|p| p.plies)
}

/// A report of no search (the game over, or the oracle's move), for `threads` threads.
fn bare<M>(start: Instant, threads: usize, proven: Proven) -> Report<M> {
    Report {
        best_move: None,
        simulations: 0,
        elapsed: start.elapsed(),
        sims_per_second: 0.0,
        value: proven.result.score(),
        pv: Vec::new(),
        proven: Some(proven),
        tree_nodes: 0,
        reused_nodes: 0,
        budget_full: false,
        threads,
        children: Vec::new(),
    }
}

/// The report for `pos`, whose game is over with `outcome`: no move.
pub fn finished<G: Game>(
    pos: &G,
    outcome: Outcome,
    start: Instant,
    threads: usize,
) -> Report<G::Move> {
    let result = outcome.result_for(pos.side_to_move());
    bare(start, threads, Proven { result, plies: 0 })
}

/// The report for a root the oracle proved (`result` in `plies`) with the legal move `mv`.
pub fn oracle_move<M: Copy>(
    mv: M,
    result: GameResult,
    plies: u32,
    start: Instant,
    threads: usize,
) -> Report<M> {
    let proven = Proven { result, plies };
    Report {
        best_move: Some(mv),
        pv: vec![mv],
        ..bare(start, threads, proven)
    }
}

/// Merges the threads' root statistics (the first snapshot's moves are the root's), picks
/// the move and takes its principal variation from `pv`.
pub fn merge<M: Copy + PartialEq>(
    snaps: &[Snapshot<M>],
    start: Instant,
    threads: usize,
    pv: impl FnOnce(M) -> Vec<M>,
) -> Report<M> {
    let elapsed = start.elapsed();
    let first = snaps.first().map_or(&[][..], |s| &s.children[..]);
    let mut children: Vec<ChildStats<M>> = first
        .iter()
        .map(|c| ChildStats {
            mv: c.mv,
            visits: 0,
            value: 0.5,
            proven: None,
        })
        .collect();
    let mut score2 = vec![0u64; children.len()];
    for snap in snaps {
        for (k, c) in snap.children.iter().enumerate() {
            // Threads list the root's moves in the same order, but a root reused from below
            // an earlier root lacks the lost moves `worker::expand` left out: a move out of
            // place is looked up, one the first thread lacks is left out.
            let k = if children.get(k).is_some_and(|x| x.mv == c.mv) {
                k
            } else if let Some(k) = children.iter().position(|x| x.mv == c.mv) {
                k
            } else {
                continue;
            };
            children[k].visits += c.visits;
            score2[k] += c.score2;
            if c.proven.is_some() {
                children[k].proven = c.proven;
            }
        }
    }
    for (c, &s) in children.iter_mut().zip(&score2) {
        c.value = match c.proven {
            Some(p) => p.result.score(),
            None => mean(c.visits, s),
        };
    }
    let best = pick(&children);
    let proven = root_proof(&children);
    let best_move = best.map(|k| children[k].mv);
    let value = match (proven, best) {
        (Some(p), _) => p.result.score(),
        (None, Some(k)) => children[k].value,
        (None, None) => 0.5,
    };
    let simulations: u64 = snaps.iter().map(|s| s.sims).sum();
    let secs = elapsed.as_secs_f64();
    Report {
        best_move,
        simulations,
        elapsed,
        sims_per_second: if secs > 0.0 {
            simulations as f64 / secs
        } else {
            0.0
        },
        value,
        pv: best_move.map_or_else(Vec::new, pv),
        proven,
        tree_nodes: snaps.iter().map(|s| s.tree_nodes).sum(),
        reused_nodes: snaps.iter().map(|s| s.reused).sum(),
        budget_full: snaps.iter().any(|s| s.budget_full),
        threads,
        children,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(visits: u64, value: f64, proven: Option<(GameResult, u32)>) -> ChildStats<()> {
        ChildStats {
            mv: (),
            visits,
            value,
            proven: proven.map(|(result, plies)| Proven { result, plies }),
        }
    }

    #[test]
    fn pick_prefers_the_fastest_win_then_visits_then_the_slowest_loss() {
        use GameResult::*;
        let kids = [
            child(90, 0.9, None),
            child(3, 1.0, Some((Win, 5))),
            child(1, 1.0, Some((Win, 3))),
        ];
        assert_eq!(pick(&kids), Some(2));
        let kids = [
            child(90, 0.0, Some((Loss, 2))),
            child(10, 0.4, None),
            child(10, 0.6, None),
        ];
        assert_eq!(pick(&kids), Some(2));
        let kids = [
            child(5, 0.0, Some((Loss, 2))),
            child(1, 0.0, Some((Loss, 6))),
        ];
        assert_eq!(pick(&kids), Some(1));
        // Ties go to the first move: a search of no simulations plays the first.
        let kids = [child(0, 0.5, None), child(0, 0.5, None)];
        assert_eq!(pick(&kids), Some(0));
        assert_eq!(pick::<()>(&[]), None);
    }

    #[test]
    fn the_root_is_proven_by_one_win_or_by_every_child() {
        use GameResult::*;
        let p = |kids: &[ChildStats<()>]| root_proof(kids).map(|p| (p.result, p.plies));
        assert_eq!(
            p(&[child(1, 0.5, None), child(1, 1.0, Some((Win, 3)))]),
            Some((Win, 3))
        );
        assert_eq!(
            p(&[child(1, 0.5, None), child(1, 0.0, Some((Loss, 3)))]),
            None
        );
        assert_eq!(
            p(&[
                child(1, 0.0, Some((Loss, 3))),
                child(1, 0.5, Some((Draw, 2)))
            ]),
            Some((Draw, 2))
        );
        assert_eq!(
            p(&[
                child(1, 0.0, Some((Loss, 3))),
                child(1, 0.0, Some((Loss, 7)))
            ]),
            Some((Loss, 7))
        );
    }

    #[test]
    fn merge_adds_each_threads_visits_to_the_same_move_and_skips_moves_the_first_lacks() {
        let root = |kids: &[(u8, u64)]| Snapshot {
            children: kids
                .iter()
                .map(|&(mv, visits)| RootChild {
                    mv,
                    visits,
                    score2: visits,
                    proven: None,
                })
                .collect(),
            sims: kids.iter().map(|k| k.1).sum(),
            ..Snapshot::default()
        };
        // The second thread's root kept every move, the third's lacks move 2 (a proven loss
        // left out below an earlier root): the moves after it are out of place.
        let snaps = [
            root(&[(1, 10), (3, 20)]),
            root(&[(1, 1), (2, 5), (3, 2)]),
            root(&[(3, 7), (1, 4)]),
        ];
        let r = merge(&snaps, Instant::now(), 3, |mv| vec![mv]);
        let visits: Vec<(u8, u64)> = r.children.iter().map(|c| (c.mv, c.visits)).collect();
        assert_eq!(visits, vec![(1, 15), (3, 29)]);
        assert_eq!(r.best_move, Some(3));
        assert_eq!(r.simulations, 49);
    }
}
