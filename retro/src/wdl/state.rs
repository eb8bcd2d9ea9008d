//! The solver's word per position (solved, first-player win, recent, visited, terminal,
//! plies) and the two checks both solvers share: the one-step forward check
//! (Sturtevant and Saffidine, algorithm 2) and the quick check of parents (algorithm 3).

use super::WdlOptions;
use crate::reverse::Preds;
use crate::space::{Child, RetroGame};
use quasar_core::Side;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

pub(crate) const SOLVED: u32 = 1;
pub(crate) const WIN: u32 = 2;
pub(crate) const RECENT: u32 = 4;
pub(crate) const VISITED: u32 = 8;
pub(crate) const TERMINAL: u32 = 16;
const DEPTH_SHIFT: u32 = 8;
/// The most plies a word holds (24 bits).
pub(crate) const MAX_PLIES: u32 = (1 << 24) - 1;

/// The plies stored in a word.
#[inline]
pub(crate) fn plies(w: u32) -> u32 {
    w >> DEPTH_SHIFT
}

/// Marks `s` solved (a first-player win when `win`) in `plies`, unless another check got
/// there first; one compare-and-swap keeps flags and plies consistent between threads.
#[inline]
pub(crate) fn try_solve(st: &[AtomicU32], s: u64, win: bool, plies: u32) -> bool {
    let cell = &st[s as usize];
    let mut old = cell.load(Relaxed);
    loop {
        if old & SOLVED != 0 {
            return false;
        }
        let new = (old & (VISITED | TERMINAL))
            | SOLVED
            | RECENT
            | if win { WIN } else { 0 }
            | plies.min(MAX_PLIES) << DEPTH_SHIFT;
        match cell.compare_exchange_weak(old, new, Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(now) => old = now,
        }
    }
}

/// Scratch buffers of one thread, so checks allocate nothing.
#[derive(Default)]
pub(crate) struct Scratch {
    pub children: Vec<Child>,
    pub preds: Vec<u64>,
    pub preds2: Vec<u64>,
    /// Positions this thread solved (collected only by the frontier-driven backward solver).
    pub fresh: Vec<u64>,
}

/// Work done, summed over threads.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Work {
    pub forward: u64,
    pub backward: u64,
    pub solved: u64,
    /// Checks that left an exit for a later layer (layered runs must not stop before it).
    pub deferred: u64,
}

impl std::ops::Add for Work {
    type Output = Work;
    fn add(self, o: Work) -> Work {
        Work {
            forward: self.forward + o.forward,
            backward: self.backward + o.backward,
            solved: self.solved + o.solved,
            deferred: self.deferred + o.deferred,
        }
    }
}

/// Tries to settle `s` from what is known of its children (algorithm 2); true when it did.
/// One forward expansion. `iteration` (from 1) is the layer being built.
#[inline]
pub(crate) fn forward_check<G: RetroGame + ?Sized>(
    game: &G,
    st: &[AtomicU32],
    s: u64,
    o: &WdlOptions,
    iteration: u32,
    buf: &mut Vec<Child>,
    deferred: &mut u64,
) -> bool {
    let max = game.mover(s) == Side::First;
    game.successors(s, buf);
    let mut d = 0u32;
    let mut open = false;
    for c in buf.iter() {
        let (solved, win, p) = match *c {
            Child::Pos(c) => {
                let w = st[c as usize].load(Relaxed);
                let usable = w & SOLVED != 0 && !(o.layered && w & RECENT != 0);
                (usable, w & WIN != 0, plies(w))
            }
            // A drawn exit is never solved; in win-only runs only first-player wins are; in
            // layered runs an exit counts from the iteration its plies say it was solved in.
            Child::Exit { score, plies } => {
                let known = score > 0 || (score < 0 && !o.win_only);
                let later = o.layered && plies >= iteration;
                *deferred += (known && later) as u64;
                (known && !later, score > 0, plies)
            }
        };
        if o.win_only && !solved && !max {
            return false;
        }
        if !solved {
            open = true;
        } else if (max && !win && !o.win_only) || (!max && win) {
            // A child lost for the mover: the slowest such loss bounds the distance.
            d = d.max(p + 1);
        } else {
            // A child won for the mover: the mover wins.
            return try_solve(st, s, max, p + 1);
        }
    }
    if !open && (!o.win_only || !max) {
        return try_solve(st, s, !max, d);
    }
    false
}

/// Settles the unsolved parents of the solved `s` whose mover wins by moving to `s`
/// (algorithm 3); returns how many. One backward expansion.
#[inline]
pub(crate) fn quick_check<G: RetroGame + ?Sized>(
    game: &G,
    preds: &Preds<'_, G>,
    st: &[AtomicU32],
    s: u64,
    o: &WdlOptions,
    out: &mut Vec<u64>,
    fresh: &mut Vec<u64>,
) -> u64 {
    let w = st[s as usize].load(Relaxed);
    let win = w & WIN != 0;
    preds.get(s, out);
    let mut solved = 0;
    for &p in out.iter() {
        if st[p as usize].load(Relaxed) & SOLVED == 0
            && (game.mover(p) == Side::First) == (o.win_only || win)
            && try_solve(st, p, win, plies(w) + 1)
        {
            solved += 1;
            fresh.push(p);
        }
    }
    solved
}
