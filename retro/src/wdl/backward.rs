//! The backward solver (Sturtevant and Saffidine, algorithms 5 and 6): from the solved positions through
//! their predecessors, checking each parent, iteration after iteration until none is solved.

use super::state::{forward_check, quick_check, Scratch, Work, RECENT, SOLVED, VISITED, WIN};
use super::sweep::{clear_recent, iterate, over_frontier, solved_positions, sweep, Run};
use super::WdlOptions;
use crate::reverse::Preds;
use crate::space::RetroGame;
use quasar_core::Side;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Runs the iterations; returns the work and the number of iterations.
pub(crate) fn run<G: RetroGame + ?Sized>(
    game: &G,
    preds: &Preds<'_, G>,
    run: Run<'_>,
) -> (Work, u64) {
    let (st, o) = (run.st, run.o);
    let n = game.size();
    if o.no_dup && o.layered {
        return run_frontier(game, preds, run);
    }
    iterate("backward iteration", n, run, |_| {
        if o.layered {
            clear_recent(st, o.parallel);
        }
        let work = sweep(n, o.parallel, |s, scratch| {
            let w = st[s as usize].load(Relaxed);
            let due = w & SOLVED != 0
                && !(o.no_dup && w & VISITED != 0)
                && !(o.layered && w & RECENT != 0);
            if !due {
                return Work::default();
            }
            st[s as usize].fetch_or(VISITED, Relaxed);
            let w = backward_check(game, preds, st, s, o, scratch);
            scratch.fresh.clear();
            w
        });
        (work, work.solved != 0)
    })
}

/// The layered no-dup variant driven by a list of the positions solved in the previous
/// iteration (exactly those the sweep would find due), so an iteration costs its frontier
/// rather than a pass over every position.
fn run_frontier<G: RetroGame + ?Sized>(
    game: &G,
    preds: &Preds<'_, G>,
    run: Run<'_>,
) -> (Work, u64) {
    let (st, o) = (run.st, run.o);
    let n = game.size();
    let mut frontier = solved_positions(n, st);
    iterate("backward iteration", n, run, |_| {
        for &s in &frontier {
            st[s as usize].fetch_and(!RECENT, Relaxed);
        }
        let chunk = |part: &[u64]| {
            let mut scratch = Scratch::default();
            let mut work = Work::default();
            for &s in part {
                st[s as usize].fetch_or(VISITED, Relaxed);
                work = work + backward_check(game, preds, st, s, o, &mut scratch);
            }
            (work, scratch.fresh)
        };
        let (work, next) = over_frontier(&frontier, o.parallel, FRONTIER_CHUNK, chunk);
        frontier = next;
        (work, work.solved != 0)
    })
}

/// Frontier positions per parallel task.
const FRONTIER_CHUNK: usize = 1 << 10;

/// Tries to settle every unsolved parent of the solved `s` (algorithm 5).
fn backward_check<G: RetroGame + ?Sized>(
    game: &G,
    preds: &Preds<'_, G>,
    st: &[AtomicU32],
    s: u64,
    o: &WdlOptions,
    scratch: &mut Scratch,
) -> Work {
    let mut work = Work {
        backward: 1,
        ..Work::default()
    };
    let w = st[s as usize].load(Relaxed);
    let win = w & WIN != 0;
    preds.get(s, &mut scratch.preds);
    for k in 0..scratch.preds.len() {
        let p = scratch.preds[k];
        if st[p as usize].load(Relaxed) & SOLVED != 0 {
            continue;
        }
        let solved = if (game.mover(p) == Side::First) == (win || o.win_only) {
            // The parent's mover wins by moving to s.
            super::state::try_solve(st, p, win, super::state::plies(w) + 1)
        } else {
            work.forward += 1;
            forward_check(
                game,
                st,
                p,
                o,
                u32::MAX,
                &mut scratch.children,
                &mut work.deferred,
            )
        };
        if solved {
            work.solved += 1;
            scratch.fresh.push(p);
            if o.direct {
                work.backward += 1;
                work.solved += quick_check(
                    game,
                    preds,
                    st,
                    p,
                    o,
                    &mut scratch.preds2,
                    &mut scratch.fresh,
                );
            }
        }
    }
    work
}
