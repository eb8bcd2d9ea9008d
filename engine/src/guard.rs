//! The blunder guard: MCTS chooses a move, then a short alpha-beta search of the position
//! after it vetoes a move that lets the opponent force a win. MCTS's averages miss narrow
//! traps a few plies deep that a full-width search sees at once (Baier and Winands,
//! "MCTS-Minimax Hybrids", 2015); the guard spends a share of the move's time on them.

use alphabeta::{AlphaBeta, Score};
use mcts::{Config, PlayoutPolicy, Proven, Report, Searcher};
use quasar_core::progress::Watch;
use quasar_core::Limit;
use quasar_core::{Game, GameResult};
use std::time::{Duration, Instant};

/// The most MCTS candidates the guard checks in one move, the most visited first.
const MAX_CANDIDATES: usize = 4;

/// A check shorter than this finds nothing an expansion's verdicts do not.
const MIN_CHECK: Duration = Duration::from_millis(2);

/// With a simulation limit each check searches this deep, so that the move stays
/// reproducible.
const CHECK_DEPTH: u32 = 6;

/// The guard's transposition table: its checks are short, and a player's memory is mostly
/// its tree.
pub const GUARD_TABLE_BYTES: usize = 16 << 20;

/// The limit of a guard search given `1/parts` of the time left before `deadline` (under a
/// simulation limit, the fixed depth); `None` when that share is too short to find anything.
fn check_limit(deadline: Option<Instant>, parts: u32) -> Option<alphabeta::Limit> {
    match deadline {
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            (left >= MIN_CHECK * parts).then(|| alphabeta::Limit::Time(left / parts))
        }
        None => Some(alphabeta::Limit::Depth(CHECK_DEPTH)),
    }
}

/// An alpha-beta searcher that checks MCTS's choices, and the share of time it takes.
#[derive(Debug)]
pub struct Guard<G: Game> {
    ab: AlphaBeta<G>,
    share: f64,
}

impl<G: Game> Guard<G> {
    /// A guard checking with `ab`, given `share` (in `(0, 1)`) of each move's time.
    pub fn new(ab: AlphaBeta<G>, share: f64) -> Guard<G> {
        Guard { ab, share }
    }

    /// A guard with the same searcher and share and nothing learnt (another player's).
    pub fn fresh(&self) -> Guard<G> {
        Guard {
            ab: self.ab.fresh(),
            share: self.share,
        }
    }

    /// Forgets the transposition table (a new game).
    pub fn clear(&mut self) {
        self.ab.clear();
    }

    /// Searches `pos` with `mcts` within `limits`, then plays a forced win alpha-beta finds,
    /// or else the most visited candidate the checks do not prove lost (MCTS's own choice
    /// when every candidate is).
    pub fn search<P: PlayoutPolicy<G>>(
        &mut self,
        mcts: &mut Searcher<G, P>,
        pos: &G,
        limits: Limit,
        watch: &mut Watch<'_, G::Move>,
    ) -> Report<G::Move> {
        let start = Instant::now();
        let deadline = limits.deadline(start);
        let mcts_limits = match limits {
            Limit::Time(t) => Limit::Time(t.mul_f64(1.0 - self.share)),
            Limit::Count(_) => limits,
        };
        let mut report = mcts.search_with(pos, mcts_limits, watch);
        if report.proven.is_some() || report.best_move.is_none() {
            return report;
        }
        // A forced win of our own first, with a third of the guard's time: MCTS's tree
        // proves only the wins it reaches, and a win found needs no check.
        let Some(root_limit) = check_limit(deadline, 3) else {
            return report;
        };
        if let Ok(r) = self.ab.search(pos, root_limit) {
            if let Score::Proven {
                result: GameResult::Win,
                plies,
            } = r.score
            {
                report.best_move = Some(r.best_move);
                report.value = 1.0;
                report.pv = r.pv;
                report.proven = Some(Proven {
                    result: GameResult::Win,
                    plies,
                });
                return report;
            }
        }
        let mut open: Vec<usize> = (0..report.children.len())
            .filter(|&k| report.children[k].proven.is_none())
            .collect();
        // MCTS's choice first, then the others as MCTS ranks them.
        let chosen = report.best_move;
        let c = &report.children;
        open.sort_by(|&a, &b| {
            (Some(c[b].mv) == chosen)
                .cmp(&(Some(c[a].mv) == chosen))
                .then(c[b].visits.cmp(&c[a].visits))
                .then(c[b].value.total_cmp(&c[a].value))
        });
        for &k in open.iter().take(MAX_CANDIDATES) {
            let mv = report.children[k].mv;
            let Some(limit) = check_limit(deadline, 1) else {
                break;
            };
            let mut child = pos.clone();
            child.play(mv);
            let refuted = match self.ab.search(&child, limit) {
                Ok(r) => matches!(
                    r.score,
                    Score::Proven {
                        result: GameResult::Win,
                        ..
                    }
                ),
                Err(_) => false,
            };
            if !refuted {
                if Some(mv) != chosen {
                    report.best_move = Some(mv);
                    report.value = report.children[k].value;
                    report.pv = vec![mv];
                }
                break;
            }
        }
        report
    }
}

/// An MCTS searcher with an optional guard: what every command that plays with MCTS holds.
#[derive(Debug)]
pub struct Guarded<G: Game, P: PlayoutPolicy<G>> {
    searcher: Searcher<G, P>,
    // Boxed: an alpha-beta searcher is large, and most players have no guard.
    guard: Option<Box<Guard<G>>>,
}

impl<G: Game, P: PlayoutPolicy<G>> Guarded<G, P> {
    /// `searcher`, its choices checked by `guard` when there is one.
    pub fn new(searcher: Searcher<G, P>, guard: Option<Guard<G>>) -> Self {
        Guarded {
            searcher,
            guard: guard.map(Box::new),
        }
    }

    /// Searches `pos` within `limits` (see [`Guard::search`]).
    pub fn search(&mut self, pos: &G, limits: Limit) -> Report<G::Move> {
        self.search_with(pos, limits, &mut Watch::none())
    }

    /// [`Guarded::search`], with MCTS's progress reported to `watch` and stopped by its
    /// flag (the guard's checks that follow are short and not watched).
    pub fn search_with(
        &mut self,
        pos: &G,
        limits: Limit,
        watch: &mut Watch<'_, G::Move>,
    ) -> Report<G::Move> {
        match &mut self.guard {
            Some(g) => g.search(&mut self.searcher, pos, limits, watch),
            None => self.searcher.search_with(pos, limits, watch),
        }
    }

    /// The principal variation after the root move `first` in the last search's tree.
    pub fn line(&self, first: G::Move) -> Vec<G::Move> {
        self.searcher.line(first)
    }

    /// The MCTS configuration.
    pub fn config(&self) -> &Config<P> {
        self.searcher.config()
    }

    /// The share of each move's time the guard takes (0: no guard).
    pub fn guard_share(&self) -> f64 {
        self.guard.as_ref().map_or(0.0, |g| g.share)
    }

    /// The first damage the table met in MCTS's probes or the guard's, if any.
    pub fn damage(&self) -> Option<String> {
        self.searcher
            .damage()
            .or_else(|| self.guard.as_ref().and_then(|g| g.ab.damage()))
    }

    /// Forgets the tree and the guard's table (a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
        if let Some(g) = &mut self.guard {
            g.clear();
        }
    }
}
