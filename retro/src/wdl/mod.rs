//! Win/draw/loss solving with distance in plies: the forward and backward solvers of
//! Sturtevant and Saffidine, "A Study of Forward versus Backwards Endgame Solvers with
//! Results in Chinese Checkers" (2017), with their variants, their work counts, and the
//! solved table.

mod backward;
mod counters;
mod forward;
mod state;
mod sweep;

use crate::packed::{bits_for, PackedArray};
use crate::progress::ProgressFn;
use crate::reverse::Preds;
use crate::space::RetroGame;
use crate::SolveError;
use quasar_core::{GameResult, Side};
use rayon::prelude::*;
use state::{plies, SOLVED, TERMINAL, WIN};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// Which solver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Sweeps over the unsolved positions using successors (algorithm 4).
    Forward,
    /// From solved positions through predecessors (algorithm 6).
    Backward,
    /// From solved positions through predecessors with a count of unsettled children per
    /// position (the classical retrograde analysis): each move looked at once, plies exact.
    /// Needs a game without exits; `layered`, `direct` and `no_dup` do not apply.
    Counters,
}

/// The variants of Sturtevant and Saffidine's solvers; `WdlOptions::default()` is the exact-distance backward setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlOptions {
    /// Prove first-player wins only (1 bit of knowledge); losses and draws stay undecided.
    pub win_only: bool,
    /// Use only children solved in earlier iterations, so plies are exact distances.
    pub layered: bool,
    /// After solving a position, settle at once the parents that win by moving to it.
    pub direct: bool,
    /// Backward: expand each solved position's predecessors once only.
    pub no_dup: bool,
    /// Sweep in parallel blocks. Layered results are the same as sequential ones; other
    /// variants may settle positions in another order, and work counts vary slightly
    /// (two threads may check one parent at once).
    pub parallel: bool,
}

impl Default for WdlOptions {
    fn default() -> Self {
        WdlOptions {
            win_only: false,
            layered: true,
            direct: false,
            no_dup: true,
            parallel: true,
        }
    }
}

/// What a solve did and found, so its tables can be reproduced.
#[derive(Clone, Debug, PartialEq)]
pub struct WdlReport {
    /// The solver.
    pub method: Method,
    /// Its variant.
    pub options: WdlOptions,
    /// Positions in the index.
    pub positions: u64,
    /// Positions the first player wins.
    pub first_wins: u64,
    /// Positions the second player wins (`None` in win-only runs, which do not prove them).
    pub second_wins: Option<u64>,
    /// Positions neither side can force a win from (draws; in win-only runs, every position
    /// that is not a first-player win).
    pub undecided: u64,
    /// Forward expansions (successor generations) by the solver.
    pub forward_expansions: u64,
    /// Backward expansions (predecessor generations) by the solver.
    pub backward_expansions: u64,
    /// Forward expansions spent building the reverse graph (0 when the game has unmoves).
    pub reverse_build_expansions: u64,
    /// Iterations of the main loop.
    pub iterations: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The largest plies stored.
    pub max_plies: u32,
    /// Whether the plies are exact distances (layered, without direct propagation, and for
    /// the backward solver without exits).
    pub plies_exact: bool,
}

/// A solved position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlValue {
    /// Win, loss or draw for the side to move (in win-only tables, `Draw` means "not
    /// proven a first-player win").
    pub result: GameResult,
    /// Plies to the end with best play (0 for draws).
    pub plies: u32,
}

/// The solved values: 2 bits of result and the plies in the fewest bits, per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WdlTable {
    /// 0: undecided, 1: first player wins, 2: second player wins.
    pub results: PackedArray,
    /// Plies to the end.
    pub plies: PackedArray,
}

impl WdlTable {
    /// The winner of position `pos` with best play, or `None` for a draw (undecided).
    #[inline]
    pub fn winner(&self, pos: u64) -> Option<Side> {
        match self.results.get(pos) {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// The value of `pos` for `mover`, its side to move.
    #[inline]
    pub fn value(&self, pos: u64, mover: Side) -> WdlValue {
        let result = match self.winner(pos) {
            Some(w) if w == mover => GameResult::Win,
            Some(_) => GameResult::Loss,
            None => GameResult::Draw,
        };
        WdlValue {
            result,
            plies: self.plies.get(pos),
        }
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.results.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }
}

/// Solves every position of `game` with `method` and `options`.
pub fn solve_wdl<G: RetroGame + ?Sized>(
    game: &G,
    method: Method,
    options: WdlOptions,
    progress: ProgressFn<'_>,
) -> Result<(WdlTable, WdlReport), SolveError> {
    let start = Instant::now();
    let n = game.size();
    let o = options;
    let st: Vec<AtomicU32> = (0..n)
        .into_par_iter()
        .map(|p| {
            AtomicU32::new(match game.terminal(p) {
                None => 0,
                Some(v) if v > 0 => TERMINAL | SOLVED | WIN,
                Some(v) if v < 0 && !o.win_only => TERMINAL | SOLVED,
                Some(_) => TERMINAL,
            })
        })
        .collect();
    let decided = st
        .par_iter()
        .filter(|w| w.load(Relaxed) & SOLVED != 0)
        .count() as u64;
    if method == Method::Counters && game.has_exits() {
        return Err(SolveError::Unsupported(
            "the counting solver needs a game without exits; use the backward solver",
        ));
    }
    let preds = if method == Method::Backward || o.direct {
        Some(Preds::for_game(game)?)
    } else {
        None
    };
    let reverse_build_expansions = preds.as_ref().map_or(0, |p| p.build_expansions());
    let run = sweep::Run {
        st: &st,
        o: &o,
        decided,
        progress,
    };
    let (work, iterations) = match (method, &preds) {
        (Method::Backward, Some(p)) => {
            // Positions settled by an exit (a child outside the index) have no solved child
            // to start from: one forward sweep finds them first.
            let (mut w, mut it) = (state::Work::default(), 0);
            if game.has_exits() {
                let once = WdlOptions { direct: false, ..o };
                let fw = forward::sweep_once(game, None, &st, &once, u32::MAX);
                w = fw;
                it = 1;
            }
            let run = sweep::Run {
                decided: decided + w.solved,
                ..run
            };
            let (bw, bit) = backward::run(game, p, run);
            (w + bw, it + bit)
        }
        (Method::Counters, _) => match Preds::for_game(game)? {
            Preds::Game(_) => counters::run(game, run),
            Preds::Graph(graph) => {
                let rev = crate::reverse::Reversed { game, graph };
                let (w, it) = counters::run(&rev, run);
                (
                    state::Work {
                        forward: w.forward + rev.graph.expansions,
                        ..w
                    },
                    it,
                )
            }
        },
        _ => forward::run(game, preds.as_ref(), run),
    };
    let max_plies = st
        .par_iter()
        .map(|w| plies(w.load(Relaxed)))
        .max()
        .unwrap_or(0);
    let mut results = PackedArray::new(2, n);
    let mut plies_arr = PackedArray::new(bits_for(max_plies as u64), n);
    let (mut first, mut second) = (0, 0);
    for (p, w) in st.iter().enumerate() {
        let w = w.load(Relaxed);
        if w & SOLVED != 0 {
            if w & WIN != 0 {
                first += 1;
                results.set(p as u64, 1);
            } else {
                second += 1;
                results.set(p as u64, 2);
            }
            plies_arr.set(p as u64, plies(w));
        }
    }
    let report = WdlReport {
        method,
        options: o,
        positions: n,
        first_wins: first,
        second_wins: (!o.win_only).then_some(second),
        undecided: n - first - second,
        forward_expansions: work.forward,
        backward_expansions: work.backward,
        reverse_build_expansions,
        iterations,
        seconds: start.elapsed().as_secs_f64(),
        max_plies,
        // Exits carry their own plies, which the backward layers do not order.
        plies_exact: method == Method::Counters
            || (o.layered && !o.direct && !(method == Method::Backward && game.has_exits())),
    };
    Ok((
        WdlTable {
            results,
            plies: plies_arr,
        },
        report,
    ))
}
