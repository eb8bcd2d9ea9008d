//! The forward solver (Sturtevant and Saffidine, algorithm 4): sweeps over the unsolved positions, settling
//! each from its children, until a sweep settles nothing.

use super::state::{forward_check, quick_check, Work, SOLVED, TERMINAL};
use super::sweep::{clear_recent, iterate, sweep, Run};
use super::WdlOptions;
use crate::reverse::Preds;
use crate::space::RetroGame;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Runs the sweeps; returns the work and the number of iterations.
pub(crate) fn run<G: RetroGame + ?Sized>(
    game: &G,
    preds: Option<&Preds<'_, G>>,
    run: Run<'_>,
) -> (Work, u64) {
    let (st, o) = (run.st, run.o);
    let n = game.size();
    iterate("forward iteration", n, run, |iteration| {
        if o.layered {
            clear_recent(st, o.parallel);
        }
        let work = sweep_once(game, preds, st, o, iteration as u32);
        (work, work.solved != 0 || work.deferred != 0)
    })
}

/// One sweep: a forward check of every unsolved position (and, with `direct`, a quick check
/// of the parents of each one it solves).
pub(crate) fn sweep_once<G: RetroGame + ?Sized>(
    game: &G,
    preds: Option<&Preds<'_, G>>,
    st: &[AtomicU32],
    o: &WdlOptions,
    iteration: u32,
) -> Work {
    sweep(game.size(), o.parallel, |s, scratch| {
        let mut w = Work::default();
        if st[s as usize].load(Relaxed) & (SOLVED | TERMINAL) != 0 {
            return w;
        }
        w.forward += 1;
        if forward_check(
            game,
            st,
            s,
            o,
            iteration,
            &mut scratch.children,
            &mut w.deferred,
        ) {
            w.solved += 1;
            if let (true, Some(p)) = (o.direct, preds) {
                w.backward += 1;
                w.solved += quick_check(game, p, st, s, o, &mut scratch.preds, &mut scratch.fresh);
                scratch.fresh.clear();
            }
        }
        w
    })
}
