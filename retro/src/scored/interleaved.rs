//! The interleaved retrograde analysis of Cazenave and Nowakowski (their algorithm 4
//! and section 2.5): standard passes (a position whose children are all scored takes the
//! best) and loop-avoidance passes (a position with a child won for its mover takes the best
//! scored child) alternate until neither scores anything; the rest are draws (0); then every
//! unfinished position is re-evaluated from its children until nothing changes.

use crate::progress::ProgressFn;
use crate::space::{Child, RetroGame};
use quasar_core::Side;
use rayon::prelude::*;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use super::ScoreTable;

/// Not scored yet.
const UNKNOWN: i32 = i32::MIN;
/// Positions per parallel block.
const BLOCK: u64 = 1 << 12;
/// Re-evaluation gives up after this many passes (it need not settle on a cyclic graph).
const MAX_REEVAL_PASSES: u64 = 100_000;

/// What the interleaved analysis did and found.
#[derive(Clone, Debug, PartialEq)]
pub struct InterleavedReport {
    /// Positions in the index.
    pub positions: u64,
    /// Positions left unscored by the interleaving, scored 0 (draws).
    pub unscored: u64,
    /// Unscored positions per side to move (first, second).
    pub unscored_by_mover: [u64; 2],
    /// Positions won by the first player after re-evaluation.
    pub first_wins: u64,
    /// Positions won by the second player after re-evaluation.
    pub second_wins: u64,
    /// Standard passes (one pass: one side's positions).
    pub standard_passes: u64,
    /// Loop-avoidance passes.
    pub avoidance_passes: u64,
    /// Re-evaluation passes.
    pub reevaluation_passes: u64,
    /// Whether re-evaluation settled (else it stopped at its pass limit).
    pub reevaluation_settled: bool,
    /// Positions whose score re-evaluation changed.
    pub reevaluated: u64,
    /// Forward expansions (successor generations).
    pub forward_expansions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Standard,
    Avoidance,
    Reevaluation,
}

/// Runs the analysis; `parallel` sweeps in blocks (reproducible when the sides alternate,
/// since a pass then reads only the other side's scores).
pub fn solve_interleaved<G: RetroGame + ?Sized>(
    game: &G,
    parallel: bool,
    progress: ProgressFn<'_>,
) -> (ScoreTable, InterleavedReport) {
    let start = Instant::now();
    let n = game.size();
    let val: Vec<AtomicI32> = (0..n)
        .into_par_iter()
        .map(|p| AtomicI32::new(game.terminal(p).unwrap_or(UNKNOWN)))
        .collect();
    let terminal: Vec<bool> = (0..n)
        .into_par_iter()
        .map(|p| game.terminal(p).is_some())
        .collect();
    let expansions = AtomicU64::new(0);
    let passes: [AtomicU64; 3] = Default::default();
    let step = |pass: Pass, side: Side| -> u64 {
        passes[pass as usize].fetch_add(1, Relaxed);
        let found = sweep(n, parallel, |p, buf| {
            if terminal[p as usize] || game.mover(p) != side {
                return 0;
            }
            let old = val[p as usize].load(Relaxed);
            if pass != Pass::Reevaluation && old != UNKNOWN {
                return 0;
            }
            expansions.fetch_add(1, Relaxed);
            match best_child(game, &val, p, side, pass, buf) {
                Some(v) if v != old => {
                    val[p as usize].store(v, Relaxed);
                    1
                }
                _ => 0,
            }
        });
        crate::progress::report(
            progress,
            match pass {
                Pass::Standard => "standard pass",
                Pass::Avoidance => "loop-avoidance pass",
                Pass::Reevaluation => "re-evaluation pass",
            },
            passes[pass as usize].load(Relaxed),
            found,
            n,
        );
        found
    };
    // Algorithm 4 as written: the outer loop goes round again whenever either inner loop
    // scored something, so it ends with one round in which neither does.
    loop {
        let mut found = 0;
        loop {
            let f = step(Pass::Standard, Side::First) + step(Pass::Standard, Side::Second);
            found += f;
            if f == 0 {
                break;
            }
        }
        loop {
            let f = step(Pass::Avoidance, Side::First) + step(Pass::Avoidance, Side::Second);
            found += f;
            if f == 0 {
                break;
            }
        }
        if found == 0 {
            break;
        }
    }
    let mut unscored_by_mover = [0u64; 2];
    for (p, v) in val.iter().enumerate() {
        if v.load(Relaxed) == UNKNOWN {
            v.store(0, Relaxed);
            unscored_by_mover[game.mover(p as u64).index()] += 1;
        }
    }
    let before: Vec<i32> = val.iter().map(|v| v.load(Relaxed)).collect();
    let mut settled = false;
    while passes[Pass::Reevaluation as usize].load(Relaxed) < MAX_REEVAL_PASSES {
        if step(Pass::Reevaluation, Side::First) + step(Pass::Reevaluation, Side::Second) == 0 {
            settled = true;
            break;
        }
    }
    let scores: Vec<i32> = val.into_iter().map(AtomicI32::into_inner).collect();
    let reevaluated = scores.iter().zip(&before).filter(|(a, b)| a != b).count() as u64;
    let report = InterleavedReport {
        positions: n,
        unscored: unscored_by_mover.iter().sum(),
        unscored_by_mover,
        first_wins: scores.iter().filter(|&&s| s > 0).count() as u64,
        second_wins: scores.iter().filter(|&&s| s < 0).count() as u64,
        standard_passes: passes[Pass::Standard as usize].load(Relaxed),
        avoidance_passes: passes[Pass::Avoidance as usize].load(Relaxed),
        reevaluation_passes: passes[Pass::Reevaluation as usize].load(Relaxed),
        reevaluation_settled: settled,
        reevaluated,
        forward_expansions: expansions.into_inner(),
        seconds: start.elapsed().as_secs_f64(),
    };
    (ScoreTable::from_scores(&scores), report)
}

/// The score `p` takes in this pass, if the pass scores it: the best child for `side`.
#[inline]
fn best_child<G: RetroGame + ?Sized>(
    game: &G,
    val: &[AtomicI32],
    p: u64,
    side: Side,
    pass: Pass,
    buf: &mut Vec<Child>,
) -> Option<i32> {
    game.successors(p, buf);
    let max = side == Side::First;
    let mut best: Option<i32> = None;
    let mut unknown = false;
    let mut won = false;
    for c in buf.iter() {
        let v = match *c {
            Child::Pos(c) => val[c as usize].load(Relaxed),
            Child::Exit { score, .. } => score,
        };
        if v == UNKNOWN {
            unknown = true;
            continue;
        }
        won |= if max { v > 0 } else { v < 0 };
        best = Some(match best {
            None => v,
            Some(b) if max => b.max(v),
            Some(b) => b.min(v),
        });
    }
    match pass {
        Pass::Standard if unknown => None,
        // A position without moves that is not terminal is lost for its mover; it has no
        // score to take here, so it stays a draw.
        Pass::Avoidance if !won => None,
        _ => best,
    }
}

/// Sums `f` over every position below `n`, in parallel blocks when `parallel`.
fn sweep<F: Fn(u64, &mut Vec<Child>) -> u64 + Sync>(n: u64, parallel: bool, f: F) -> u64 {
    if !parallel {
        let mut buf = Vec::new();
        return (0..n).map(|p| f(p, &mut buf)).sum();
    }
    (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let mut buf = Vec::new();
            (b * BLOCK..((b + 1) * BLOCK).min(n))
                .map(|p| f(p, &mut buf))
                .sum::<u64>()
        })
        .sum()
}
