//! The searcher: one search of a position with the configured threads (root or tree
//! parallelism), the oracle's shortcut for a proven root, and the tree kept for reuse.

use crate::config::{Config, Parallelism};
use crate::playout::PlayoutPolicy;
use crate::report::{self, Snapshot};
use crate::root_parallel::{Helper, Job};
use crate::solver;
use crate::stats::Report;
use crate::tree_parallel::TreeParallel;
use crate::worker::{Settings, Stop, Worker};
use quasar_core::progress::Watch;
use quasar_core::Limit;
use quasar_core::{Evaluation, Game, Oracle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the searcher's threads are organised.
enum Threads<G: Game> {
    /// The calling thread's tree and the helpers' own trees (none with one thread).
    Root(Vec<Helper<G>>),
    /// One shared tree.
    Tree(TreeParallel<G>),
}

/// Monte Carlo Tree Search with UCT, the MCTS-solver and an optional oracle, keeping its
/// tree between calls to reuse the part that the game reached.
///
/// With `threads > 1` and [`Parallelism::Root`] the calling thread searches one tree and
/// persistent helper threads search their own; their root statistics are merged. With
/// [`Parallelism::Tree`] they all search one shared tree instead. Helpers publish
/// their root statistics as they go, so a time-limited search returns on time even when a
/// helper has lost its processor (it catches up before its next search).
pub struct Searcher<G: Game, P: PlayoutPolicy<G>> {
    config: Arc<Config<P>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The evaluation for implicit minimax backups and priors, if any.
    evaluation: Option<Arc<dyn Evaluation<G>>>,
    /// The calling thread's tree (root parallelism) and scratch (both modes).
    main: Worker<G>,
    threads: Threads<G>,
    /// The number of the current search, which helpers' snapshots carry.
    job: u64,
    /// Set by whichever thread ends the current search.
    stop: Arc<AtomicBool>,
}

impl<G: Game, P: PlayoutPolicy<G>> Drop for Searcher<G, P> {
    fn drop(&mut self) {
        // A helper still searching stops at its next clock reading; dropping the helpers
        // (next) then joins them.
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Searcher<G, P> {
    /// A searcher that consults `oracle` at expansion (and in playouts, per the config).
    pub fn new(config: Config<P>, oracle: Arc<dyn Oracle<G>>) -> Self {
        Self::with_evaluation(config, Some(oracle), None)
    }

    /// A searcher without endgame knowledge.
    pub fn without_oracle(config: Config<P>) -> Self {
        Self::with_evaluation(config, None, None)
    }

    /// A searcher with an optional oracle and an optional evaluation: the config's
    /// implicit minimax backups (`imb`) and node priors (`prior`) use the evaluation, and
    /// are off without one.
    pub fn with_evaluation(
        config: Config<P>,
        oracle: Option<Arc<dyn Oracle<G>>>,
        evaluation: Option<Arc<dyn Evaluation<G>>>,
    ) -> Self {
        let threads = config.thread_count();
        let config = Arc::new(config);
        let threads = if threads > 1 && config.parallelism == Parallelism::Tree {
            Threads::Tree(TreeParallel::new(threads, &config, &oracle, &evaluation))
        } else {
            Threads::Root(
                (1..threads)
                    .map(|i| Helper::spawn(i, config.clone(), oracle.clone(), evaluation.clone()))
                    .collect(),
            )
        };
        Searcher {
            main: Worker::new(config.seed, 0),
            config,
            oracle,
            evaluation,
            threads,
            job: 0,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config<P> {
        &self.config
    }

    /// The first damage the oracle's probes met, if any (see [`Oracle::damage`]).
    pub fn damage(&self) -> Option<String> {
        self.oracle.as_ref()?.damage()
    }

    /// Forgets the tree, so the next search starts afresh.
    pub fn clear(&mut self) {
        self.main.root = None;
        match &mut self.threads {
            Threads::Root(helpers) => helpers.iter().for_each(Helper::clear),
            Threads::Tree(tp) => tp.clear(),
        }
    }

    /// Searches `pos` within `limits` and reports the best move and the statistics. The
    /// subtree of a previous search that reaches `pos` (same position, or up to two plies
    /// later) is reused. `Limit::Count(n)` runs exactly `n` simulations over all threads
    /// (fewer only when the root is proven first).
    ///
    /// The root is expanded before any simulation (expansion is no simulation: it runs no
    /// playout), so even `Limit::Count(0)` reports every legal move, with the proofs found
    /// at expansion and the statistics kept by tree reuse; its best move is a proven win
    /// when expansion found one, else the most visited reused move, else the first legal
    /// move.
    pub fn search(&mut self, pos: &G, limits: Limit) -> Report<G::Move> {
        self.search_with(pos, limits, &mut Watch::none())
    }

    /// [`Searcher::search`], reporting to `watch` at most once per its interval while the
    /// search runs (read where the threads publish their statistics, every few hundred
    /// simulations) and once at the end, and stopping early when its flag is raised.
    pub fn search_with(
        &mut self,
        pos: &G,
        limits: Limit,
        watch: &mut Watch<'_, G::Move>,
    ) -> Report<G::Move> {
        let report = self.run(pos, limits, watch);
        if watch.observed() && report.best_move.is_some() {
            watch.report(&report.info());
        }
        report
    }

    /// The principal variation after the root move `first` in the tree the last search
    /// left (the calling thread's tree with root parallelism).
    pub fn line(&self, first: G::Move) -> Vec<G::Move> {
        match &self.threads {
            Threads::Tree(tp) => tp.pv(first),
            Threads::Root(_) => report::pv(&self.main.tree, first),
        }
    }

    fn run(&mut self, pos: &G, limits: Limit, watch: &mut Watch<'_, G::Move>) -> Report<G::Move> {
        let start = Instant::now();
        let threads = self.config.thread_count();
        if let Some(o) = pos.outcome() {
            return report::finished(pos, o, start, threads);
        }
        if let Some(r) = self.oracle_root(pos, start) {
            return r;
        }
        let deadline = limits.deadline(start);
        self.job += 1;
        self.stop = Arc::new(AtomicBool::new(false));
        let settings = Settings::new(
            &self.config,
            self.oracle.as_deref(),
            self.evaluation.as_deref(),
        );
        let job = self.job;
        let mut relay = Relay {
            next: start.checked_add(watch.interval),
            watch,
            stop: self.stop.clone(),
        };
        match &mut self.threads {
            Threads::Tree(tp) => {
                let snap = tp.search(
                    pos,
                    limits,
                    deadline,
                    &settings,
                    &mut self.main.scratch,
                    &self.stop,
                    job,
                    &mut |store, _| {
                        relay.tick(|| {
                            let snap = Snapshot::of(store, job, store.simulations(), 0, false);
                            report::merge(&[snap], start, threads, |mv| report::pv(store, mv))
                        })
                    },
                );
                report::merge(&[snap], start, threads, |mv| tp.pv(mv))
            }
            Threads::Root(helpers) => {
                let budget = (self.config.node_budget / threads).max(1);
                for (i, h) in helpers.iter().enumerate() {
                    h.send(Job {
                        id: self.job,
                        pos: pos.clone(),
                        deadline,
                        max_sims: crate::config::share(limits, i + 1, threads),
                        budget,
                        stop: self.stop.clone(),
                    });
                }
                let reused = self
                    .main
                    .prepare(pos, budget, settings.oracle, settings.heuristic);
                let stop = Stop {
                    flag: &self.stop,
                    deadline,
                    max_sims: crate::config::share(limits, 0, threads),
                };
                // Each helper's newest statistics seen by a progress line: a helper caught
                // publishing answers nothing, and a line must not count less than the last.
                let mut latest = vec![Snapshot::default(); helpers.len()];
                let sims = self.main.run(pos, &settings, &stop, &mut |tree, sims| {
                    relay.tick(|| {
                        let now = Limit::Time(Duration::ZERO);
                        for (h, l) in helpers.iter().zip(latest.iter_mut()) {
                            let s = h.collect(job, now);
                            if s.job == job && s.simulations() >= l.simulations() {
                                *l = s;
                            }
                        }
                        let mut snaps = vec![Snapshot::of(tree, job, sims, reused, false)];
                        snaps.extend(latest.iter().cloned());
                        report::merge(&snaps, start, threads, |mv| report::pv(tree, mv))
                    })
                });
                let mut snaps = vec![Snapshot::of(&self.main.tree, self.job, sims, reused, true)];
                if matches!(limits, Limit::Time(_)) {
                    self.stop.store(true, Ordering::Relaxed);
                }
                snaps.extend(helpers.iter().map(|h| h.collect(self.job, limits)));
                let tree = &self.main.tree;
                report::merge(&snaps, start, threads, |mv| report::pv(tree, mv))
            }
        }
    }

    /// When the oracle proves the root and names a legal move, that move is played at once:
    /// the oracle knows more than a search whose children it has all proven (it may, for
    /// one, choose among equal proofs by distance or by progress).
    fn oracle_root(&mut self, pos: &G, start: Instant) -> Option<Report<G::Move>> {
        let oracle = self.oracle.as_ref()?;
        let moves = &mut self.main.scratch.moves;
        pos.legal_moves(moves);
        let (p, mv) = oracle.root_move(pos, moves)?;
        let plies = solver::oracle_plies(&p) as u32;
        Some(report::oracle_move(
            mv,
            p.result,
            plies,
            start,
            self.config.thread_count(),
        ))
    }
}

/// What the threads' `publish` calls do for the caller's [`Watch`]: raise the search's own
/// stop flag when the caller's is raised, and report the search so far at most once per
/// interval.
struct Relay<'w, 'a, M> {
    watch: &'w mut Watch<'a, M>,
    /// The search's flag, which every thread reads.
    stop: Arc<AtomicBool>,
    /// When the next progress line is due (`None`: an interval too long to be reached).
    next: Option<Instant>,
}

impl<M: Copy> Relay<'_, '_, M> {
    /// Called every few hundred simulations: `report` builds the search's report so far
    /// (merging the threads' statistics), only when a line is due.
    fn tick(&mut self, report: impl FnOnce() -> Report<M>) {
        if self.watch.stopped() {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(due) = self.next.filter(|_| self.watch.observed()) {
            let now = Instant::now();
            if now >= due {
                self.next = now.checked_add(self.watch.interval);
                self.watch.report(&report().info());
            }
        }
    }
}
