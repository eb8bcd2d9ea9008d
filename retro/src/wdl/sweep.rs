//! One pass over every position, in index order or in parallel blocks, with per-thread
//! scratch buffers and summed work counts; a pass over a frontier; and the solvers'
//! iterations of passes with their progress reports.

use super::state::{Scratch, Work, RECENT, SOLVED};
use super::WdlOptions;
use crate::progress::ProgressFn;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// What every solver's run is given besides the game: the positions' state words, the
/// options, the positions decided before it starts and where its progress goes.
#[derive(Clone, Copy)]
pub(crate) struct Run<'a> {
    /// The state word of each position.
    pub st: &'a [AtomicU32],
    /// The solver's options.
    pub o: &'a WdlOptions,
    /// Positions decided before the run.
    pub decided: u64,
    /// Where the iterations are reported.
    pub progress: ProgressFn<'a>,
}

/// Positions per parallel block.
const BLOCK: u64 = 1 << 12;

/// Calls `f` on every position below `n`; in parallel blocks when `parallel`.
pub(crate) fn sweep<F>(n: u64, parallel: bool, f: F) -> Work
where
    F: Fn(u64, &mut Scratch) -> Work + Sync,
{
    if !parallel {
        let mut s = Scratch::default();
        return (0..n).fold(Work::default(), |acc, p| acc + f(p, &mut s));
    }
    (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let mut s = Scratch::default();
            (b * BLOCK..((b + 1) * BLOCK).min(n)).fold(Work::default(), |acc, p| acc + f(p, &mut s))
        })
        .reduce(Work::default, |a, b| a + b)
}

/// The solved positions below `n`, in index order: the first frontier of a search that
/// works outwards from them.
pub(crate) fn solved_positions(n: u64, st: &[AtomicU32]) -> Vec<u64> {
    (0..n)
        .into_par_iter()
        .filter(|&s| st[s as usize].load(Relaxed) & SOLVED != 0)
        .collect()
}

/// Calls `f` on the pieces of `frontier` (of `piece` positions, in parallel, when
/// `parallel`; else on the whole): their work summed and the positions they found, sorted.
pub(crate) fn over_frontier<F>(
    frontier: &[u64],
    parallel: bool,
    piece: usize,
    f: F,
) -> (Work, Vec<u64>)
where
    F: Fn(&[u64]) -> (Work, Vec<u64>) + Sync + Send,
{
    let parts: Vec<(Work, Vec<u64>)> = if parallel {
        frontier.par_chunks(piece).map(f).collect()
    } else {
        vec![f(frontier)]
    };
    let mut work = Work::default();
    let mut found = Vec::new();
    for (w, part) in parts {
        work = work + w;
        found.extend(part);
    }
    // Threads interleave their finds; sorting keeps every run's order the same.
    found.par_sort_unstable();
    (work, found)
}

/// Runs the iterations of `phase` over `n` positions: `iteration` (given its number, from 1)
/// returns its work and whether another is due. Each is reported to `run.progress` with
/// the positions decided so far, `run.decided` before the first. The work of all and their
/// number.
pub(crate) fn iterate(
    phase: &'static str,
    n: u64,
    run: Run<'_>,
    mut iteration: impl FnMut(u64) -> (Work, bool),
) -> (Work, u64) {
    let mut decided = run.decided;
    let mut total = Work::default();
    let mut iterations = 0;
    loop {
        iterations += 1;
        let (work, again) = iteration(iterations);
        total = total + work;
        decided += work.solved;
        crate::progress::report(run.progress, phase, iterations, decided, n);
        if !again {
            return (total, iterations);
        }
    }
}

/// Clears the recent mark of every position (the start of a layered iteration).
pub(crate) fn clear_recent(st: &[AtomicU32], parallel: bool) {
    if parallel {
        st.par_iter().for_each(|w| {
            w.fetch_and(!RECENT, Relaxed);
        });
    } else {
        for w in st {
            w.fetch_and(!RECENT, Relaxed);
        }
    }
}
