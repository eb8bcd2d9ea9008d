//! The classical backward solver with counters: each unsolved position keeps the number of
//! its children not yet known to win for the opponent; layer by layer from the ends, a parent
//! whose mover wins by a move is settled at once, any other parent when its count runs out.
//! Every move is looked at once, and plies are exact.

use super::state::{plies, try_solve, Work, SOLVED, WIN};
use super::sweep::{iterate, over_frontier, solved_positions, Run};
use crate::space::RetroGame;
use quasar_core::Side;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Frontier positions per parallel task.
const CHUNK: usize = 1 << 10;

/// Runs the layers; returns the work and the number of layers.
pub(crate) fn run<G: RetroGame + ?Sized>(game: &G, run: Run<'_>) -> (Work, u64) {
    let (st, o) = (run.st, run.o);
    let n = game.size();
    let mut total = Work::default();
    let counts: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map_init(Vec::new, |buf, p| {
            AtomicU32::new(match game.child_count(p) {
                Some(k) => k,
                None => {
                    game.successors(p, buf);
                    buf.len() as u32
                }
            })
        })
        .collect();
    if n > 0 && game.child_count(0).is_none() {
        total.forward += n;
    }
    let mut frontier = solved_positions(n, st);
    if frontier.is_empty() {
        return (total, 0);
    }
    let (work, layers) = iterate("counter layer", n, run, |_| {
        let layer = |part: &[u64]| {
            let mut work = Work::default();
            let (mut buf, mut next) = (Vec::new(), Vec::new());
            for &s in part {
                work.backward += 1;
                let w = st[s as usize].load(Relaxed);
                let first_wins = w & WIN != 0;
                game.predecessors(s, &mut buf);
                for &p in &buf {
                    if st[p as usize].load(Relaxed) & SOLVED != 0 {
                        continue;
                    }
                    let mover_wins = (game.mover(p) == Side::First) == (first_wins || o.win_only);
                    // The last child to fall decides a loss, so it alone settles the parent.
                    let settle = mover_wins || counts[p as usize].fetch_sub(1, Relaxed) == 1;
                    if settle && try_solve(st, p, first_wins || o.win_only, plies(w) + 1) {
                        work.solved += 1;
                        next.push(p);
                    }
                }
            }
            (work, next)
        };
        let (work, next) = over_frontier(&frontier, o.parallel, CHUNK, layer);
        frontier = next;
        (work, !frontier.is_empty())
    });
    (total + work, layers)
}
