//! One pass over every position, in index order or in parallel blocks, with per-thread
//! scratch buffers and summed work counts.

use super::state::{Scratch, Work, RECENT};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

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
