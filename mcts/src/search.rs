//! The searcher: configuration, limits (time or simulations), threads (root or tree
//! parallelism) and tree reuse between moves.

use super::playout::{PlayoutContext, PlayoutPolicy};
use super::shared::{Run, SharedTree};
use super::solver;
use super::stats::{ChildStats, Proven, Report};
use super::tree::{Node, NodeId, Proof, Tree};
use super::uct;
use quasar_core::{Game, GameResult, Outcome};
use quasar_core::{Oracle, ProvenOutcome};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Everything that shapes a search; `Default` gives a sensible player.
#[derive(Clone, Debug)]
pub struct Config<P> {
    /// The exploration constant `c` of formula 2.1.
    pub c: f64,
    /// The playout policy and its switches.
    pub playout: P,
    /// The most tree nodes, over all threads (a node takes 24 bytes for Breakthrough).
    pub node_budget: usize,
    /// Search threads; 0 counts as 1.
    pub threads: usize,
    /// How several threads share the work (no effect with one thread).
    pub parallelism: Parallelism,
    /// Consult the oracle's `guess` inside playouts every this many plies (`None`: never).
    pub oracle_in_playouts: Option<NonZeroU32>,
    /// A leaf is expanded once it has had this many simulations (the root always is).
    pub expand_after: u32,
    /// A playout longer than this many plies counts as a draw (for games that can cycle).
    pub max_playout_plies: u32,
    /// Seed of the random numbers; identical seeds and simulation counts give identical
    /// searches (with one thread).
    pub seed: u64,
}

impl<P: Default> Default for Config<P> {
    fn default() -> Self {
        Config {
            c: 0.7,
            playout: P::default(),
            node_budget: 1 << 23,
            threads: 1,
            parallelism: Parallelism::Root,
            oracle_in_playouts: NonZeroU32::new(1),
            expand_after: 1,
            max_playout_plies: 1000,
            seed: 0x5eed,
        }
    }
}

/// How a search with several threads divides the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallelism {
    /// Each thread grows its own tree (with `node_budget / threads` nodes and its own seed);
    /// the root moves' statistics and proofs are merged. Reproducible with
    /// `Limits::Simulations`.
    #[default]
    Root,
    /// All threads grow one shared tree (the whole node budget), with atomic statistics and
    /// a virtual loss. Not reproducible: the threads' interleaving decides the tree.
    Tree,
}

/// When a search stops (it also stops as soon as the root is proven).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// A wall-clock budget, always kept: the search stops a small margin before it.
    Time(Duration),
    /// A fixed number of simulations (over all threads); reproducible with one thread.
    Simulations(u64),
}

impl Limits {
    /// The safety margin kept before a time budget ends: 5% of it, between 3 and 50 ms
    /// (never more than a fifth of the budget). On a loaded machine the thread can lose
    /// the processor for milliseconds between its last clock reading and its return.
    fn deadline(self, start: Instant) -> Option<Instant> {
        match self {
            Limits::Time(budget) => {
                let margin = (budget / 20)
                    .clamp(Duration::from_millis(3), Duration::from_millis(50))
                    .min(budget / 5);
                Some(start + budget - margin)
            }
            Limits::Simulations(_) => None,
        }
    }
}

/// How often (in simulations) a time-limited search reads the clock.
const CLOCK_EVERY: u64 = 8;

/// The most simulations a root may accumulate (over searches, with reuse): twice this
/// still fits the `u32` score.
const MAX_ROOT_VISITS: u32 = u32::MAX / 2 - 2 * CLOCK_EVERY as u32;

/// The settings every thread reads.
struct Shared<'a, G: Game, P> {
    config: &'a Config<P>,
    c: f32,
    oracle: Option<&'a dyn Oracle<G>>,
    oracle_every: u32,
}

/// One thread's tree and scratch space.
struct Worker<G: Game> {
    tree: Tree<G::Move>,
    root: Option<G>,
    rng: Xoshiro256PlusPlus,
    moves: Vec<G::Move>,
    path: Vec<NodeId>,
    budget_full: bool,
}

/// One root child as a thread reports it.
#[derive(Clone, Copy, Debug)]
struct RootChild<M> {
    mv: M,
    visits: u64,
    score2: u64,
    proven: Option<Proven>,
}

/// What a thread reports about its part of a search.
#[derive(Clone, Debug)]
struct Snapshot<M> {
    job: u64,
    children: Vec<RootChild<M>>,
    sims: u64,
    tree_nodes: usize,
    reused: usize,
    budget_full: bool,
    done: bool,
}

impl<M> Default for Snapshot<M> {
    fn default() -> Self {
        Snapshot {
            job: 0,
            children: Vec::new(),
            sims: 0,
            tree_nodes: 0,
            reused: 0,
            budget_full: false,
            done: false,
        }
    }
}

/// Where a helper thread publishes its latest snapshot.
struct Slot<M> {
    snapshot: Mutex<Snapshot<M>>,
    changed: Condvar,
}

/// One search for a helper thread.
struct Job<G> {
    id: u64,
    pos: G,
    deadline: Option<Instant>,
    max_sims: u64,
    budget: usize,
    stop: Arc<AtomicBool>,
}

/// Messages to a helper thread.
enum Msg<G> {
    Search(Job<G>),
    Clear,
}

/// A helper thread with its own tree (root parallelism).
struct Helper<G: Game> {
    tx: Option<mpsc::Sender<Msg<G>>>,
    slot: Arc<Slot<G::Move>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

/// How often (in simulations) helper threads publish their root statistics.
const PUBLISH_EVERY: u64 = 256;

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
    main: Worker<G>,
    helpers: Vec<Helper<G>>,
    shared: Option<TreeParallel<G>>,
    job: u64,
    stop: Arc<AtomicBool>,
}

/// The shared tree of tree parallelism and its helper threads.
struct TreeParallel<G: Game> {
    tree: Arc<SharedTree<G::Move>>,
    root: Option<G>,
    helpers: Vec<TreeHelper<G>>,
}

/// One tree-parallel search for a helper thread; it drops the job (and its hold on the
/// tree) when done.
struct TreeJob<G: Game> {
    tree: Arc<SharedTree<G::Move>>,
    pos: G,
    deadline: Option<Instant>,
    max_sims: u64,
    stop: Arc<AtomicBool>,
}

/// A helper thread of tree parallelism.
struct TreeHelper<G: Game> {
    tx: Option<mpsc::Sender<TreeJob<G>>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl<'a, G: Game, P: PlayoutPolicy<G>> Shared<'a, G, P> {
    /// One thread's part of a tree-parallel search.
    fn tree_run(
        &self,
        tree: &'a SharedTree<G::Move>,
        root: &'a G,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
        max_sims: u64,
    ) -> Run<'a, G, P> {
        Run {
            tree,
            root,
            playout: &self.config.playout,
            c: self.c,
            oracle: self.oracle,
            oracle_every: self.oracle_every,
            max_plies: self.config.max_playout_plies,
            expand_after: self.config.expand_after,
            stop,
            deadline,
            max_sims,
            max_root_visits: MAX_ROOT_VISITS,
            clock_every: CLOCK_EVERY,
        }
    }
}

/// A tree-parallel helper thread's life: run the searches it is sent.
fn tree_helper_loop<G: Game, P: PlayoutPolicy<G>>(
    mut w: Worker<G>,
    config: Arc<Config<P>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    rx: mpsc::Receiver<TreeJob<G>>,
) {
    while let Ok(job) = rx.recv() {
        let shared = Shared {
            config: &config,
            c: config.c as f32,
            oracle: oracle.as_deref(),
            oracle_every: config.oracle_in_playouts.map_or(0, |k| k.get()),
        };
        shared
            .tree_run(&job.tree, &job.pos, &job.stop, job.deadline, job.max_sims)
            .run(&mut w.rng, &mut w.moves);
        drop(job);
    }
}

impl<G: Game> Worker<G> {
    fn new(seed: u64, index: u64) -> Self {
        Worker {
            tree: Tree::new(quasar_core::Side::First, 1),
            root: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(
                seed ^ index.wrapping_mul(quasar_core::rng::GOLDEN_GAMMA),
            ),
            moves: Vec::with_capacity(64),
            path: Vec::with_capacity(128),
            budget_full: false,
        }
    }

    /// The root statistics of this thread's tree.
    fn snapshot(&self, job: u64, sims: u64, reused: usize, done: bool) -> Snapshot<G::Move> {
        let t = &self.tree;
        let children = t
            .node(0)
            .children()
            .map(|id| {
                let n = t.node(id);
                RootChild {
                    mv: n.mv.expect("children have moves"),
                    visits: n.visits as u64,
                    score2: n.score2 as u64,
                    proven: n.proof.result().map(|result| Proven {
                        result,
                        plies: n.proof_plies as u32 + 1,
                    }),
                }
            })
            .collect();
        Snapshot {
            job,
            children,
            sims,
            tree_nodes: t.len(),
            reused,
            budget_full: self.budget_full,
            done,
        }
    }
}

/// A helper thread's life: run the searches it is sent, publishing as it goes.
fn helper_loop<G: Game, P: PlayoutPolicy<G>>(
    mut w: Worker<G>,
    config: Arc<Config<P>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    rx: mpsc::Receiver<Msg<G>>,
    slot: Arc<Slot<G::Move>>,
) {
    let publish = |snap: Snapshot<G::Move>| {
        let mut s = slot.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        *s = snap;
        slot.changed.notify_all();
    };
    while let Ok(msg) = rx.recv() {
        let job = match msg {
            Msg::Clear => {
                w.root = None;
                continue;
            }
            Msg::Search(job) => job,
        };
        let reused = w.prepare(&job.pos, job.budget);
        let shared = Shared {
            config: &config,
            c: config.c as f32,
            oracle: oracle.as_deref(),
            oracle_every: config.oracle_in_playouts.map_or(0, |k| k.get()),
        };
        let sims = w.run(
            &job.pos,
            &shared,
            &job.stop,
            job.deadline,
            job.max_sims,
            &mut |w: &Worker<G>, sims| publish(w.snapshot(job.id, sims, reused, false)),
        );
        publish(w.snapshot(job.id, sims, reused, true));
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Drop for Searcher<G, P> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for h in &mut self.helpers {
            h.tx = None;
            if let Some(handle) = h.handle.take() {
                let _ = handle.join();
            }
        }
        if let Some(tp) = &mut self.shared {
            for h in &mut tp.helpers {
                h.tx = None;
                if let Some(handle) = h.handle.take() {
                    let _ = handle.join();
                }
            }
        }
    }
}

impl<G: Game, P: PlayoutPolicy<G>> Searcher<G, P> {
    /// A searcher that consults `oracle` at expansion (and in playouts, per the config).
    pub fn new(config: Config<P>, oracle: Arc<dyn Oracle<G>>) -> Self {
        Self::build(config, Some(oracle))
    }

    /// A searcher without endgame knowledge.
    pub fn without_oracle(config: Config<P>) -> Self {
        Self::build(config, None)
    }

    fn build(config: Config<P>, oracle: Option<Arc<dyn Oracle<G>>>) -> Self {
        let threads = config.threads.max(1);
        let config = Arc::new(config);
        let tree_mode = threads > 1 && config.parallelism == Parallelism::Tree;
        let shared = tree_mode.then(|| TreeParallel {
            tree: Arc::new(SharedTree::new(quasar_core::Side::First, 1)),
            root: None,
            helpers: (1..threads)
                .map(|i| {
                    let (tx, rx) = mpsc::channel();
                    let w = Worker::new(config.seed, i as u64);
                    let (c, o) = (config.clone(), oracle.clone());
                    let handle = std::thread::Builder::new()
                        .name(format!("mcts-tree-{i}"))
                        .spawn(move || tree_helper_loop(w, c, o, rx))
                        .expect("spawn a search thread");
                    TreeHelper {
                        tx: Some(tx),
                        handle: Some(handle),
                    }
                })
                .collect(),
        });
        let helpers = (1..if tree_mode { 1 } else { threads })
            .map(|i| {
                let (tx, rx) = mpsc::channel();
                let slot = Arc::new(Slot {
                    snapshot: Mutex::new(Snapshot::default()),
                    changed: Condvar::new(),
                });
                let w = Worker::new(config.seed, i as u64);
                let (c, o, s) = (config.clone(), oracle.clone(), slot.clone());
                let handle = std::thread::Builder::new()
                    .name(format!("mcts-{i}"))
                    .spawn(move || helper_loop(w, c, o, rx, s))
                    .expect("spawn a search thread");
                Helper {
                    tx: Some(tx),
                    slot,
                    handle: Some(handle),
                }
            })
            .collect();
        Searcher {
            main: Worker::new(config.seed, 0),
            config,
            oracle,
            helpers,
            shared,
            job: 0,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config<P> {
        &self.config
    }

    /// Forgets the tree, so the next search starts afresh.
    pub fn clear(&mut self) {
        self.main.root = None;
        if let Some(tp) = &mut self.shared {
            tp.root = None;
        }
        for h in &self.helpers {
            if let Some(tx) = &h.tx {
                let _ = tx.send(Msg::Clear);
            }
        }
    }

    fn threads(&self) -> usize {
        self.config.threads.max(1)
    }

    /// Searches `pos` within `limits` and reports the best move and the statistics. The
    /// subtree of a previous search that reaches `pos` (same position, or up to two plies
    /// later) is reused.
    pub fn search(&mut self, pos: &G, limits: Limits) -> Report<G::Move> {
        let start = Instant::now();
        let deadline = limits.deadline(start);
        let threads = self.threads();
        if let Some(o) = pos.outcome() {
            return self.finished_report(pos, o, start);
        }
        if let Some(report) = self.oracle_root(pos, start) {
            return report;
        }
        if self.shared.is_some() {
            return self.search_shared(pos, limits, start, deadline);
        }
        let budget = (self.config.node_budget / threads).max(1);
        // The calling thread always runs at least one simulation: it expands the root,
        // whose children the report is built from.
        let share = |i: usize| match limits {
            Limits::Simulations(n) => (n / threads as u64
                + u64::from((i as u64) < n % threads as u64))
            .max(u64::from(i == 0)),
            Limits::Time(_) => u64::MAX,
        };
        self.job += 1;
        self.stop = Arc::new(AtomicBool::new(false));
        for (i, h) in self.helpers.iter().enumerate() {
            if let Some(tx) = &h.tx {
                let _ = tx.send(Msg::Search(Job {
                    id: self.job,
                    pos: pos.clone(),
                    deadline,
                    max_sims: share(i + 1),
                    budget,
                    stop: self.stop.clone(),
                }));
            }
        }
        let reused = self.main.prepare(pos, budget);
        let shared = Shared {
            config: &self.config,
            c: self.config.c as f32,
            oracle: self.oracle.as_deref(),
            oracle_every: self.config.oracle_in_playouts.map_or(0, |k| k.get()),
        };
        let sims = self
            .main
            .run(pos, &shared, &self.stop, deadline, share(0), &mut |_, _| {});
        let mut snaps = vec![self.main.snapshot(self.job, sims, reused, true)];
        if matches!(limits, Limits::Time(_)) {
            self.stop.store(true, Ordering::Relaxed);
        }
        for h in &self.helpers {
            snaps.push(self.collect(h, limits));
        }
        self.report(&snaps, start)
    }

    /// A tree-parallel search: every thread grows the one shared tree.
    fn search_shared(
        &mut self,
        pos: &G,
        limits: Limits,
        start: Instant,
        deadline: Option<Instant>,
    ) -> Report<G::Move> {
        let tp = self.shared.as_mut().expect("tree parallelism is on");
        // Helpers drop their hold on the tree when their last simulation ends; that is
        // normally long past, so this wait is short.
        while Arc::strong_count(&tp.tree) > 1 {
            std::thread::yield_now();
        }
        let budget = self.config.node_budget.max(1);
        let mut reused = 0;
        let mut kept = false;
        if let (Some(prev), Some(tree)) = (&tp.root, Arc::get_mut(&mut tp.tree)) {
            if tree.budget() == budget {
                if let Some(path) = tree.find(prev, pos) {
                    let (n, rest) = tree.reroot(&path);
                    reused = n;
                    kept = true;
                    discard(rest);
                }
            }
        }
        if !kept {
            let fresh = Arc::new(SharedTree::new(pos.side_to_move(), budget));
            discard(std::mem::replace(&mut tp.tree, fresh));
        }
        if let Some(tree) = Arc::get_mut(&mut tp.tree) {
            tree.reset_for_search();
        }
        tp.root = Some(pos.clone());
        let max_sims = match limits {
            Limits::Simulations(n) => n.max(1),
            Limits::Time(_) => u64::MAX,
        };
        let shared = Shared {
            config: &self.config,
            c: self.config.c as f32,
            oracle: self.oracle.as_deref(),
            oracle_every: self.config.oracle_in_playouts.map_or(0, |k| k.get()),
        };
        let tree = tp.tree.clone();
        self.stop = Arc::new(AtomicBool::new(false));
        let run = shared.tree_run(&tree, pos, &self.stop, deadline, max_sims);
        run.expand_root(&mut self.main.moves);
        for h in &tp.helpers {
            if let Some(tx) = &h.tx {
                let _ = tx.send(TreeJob {
                    tree: tp.tree.clone(),
                    pos: pos.clone(),
                    deadline,
                    max_sims,
                    stop: self.stop.clone(),
                });
            }
        }
        run.run(&mut self.main.rng, &mut self.main.moves);
        match limits {
            Limits::Time(_) => self.stop.store(true, Ordering::Relaxed),
            Limits::Simulations(_) => {
                // Every claimed simulation finishes before the report (a helper that died
                // has dropped its job while unwinding).
                while Arc::strong_count(&tree) > 2 {
                    std::thread::yield_now();
                }
            }
        }
        let children = tree
            .root_stats()
            .into_iter()
            .map(|(mv, visits, score2, proven)| RootChild {
                mv,
                visits,
                score2,
                proven,
            })
            .collect();
        let snap = Snapshot {
            job: self.job,
            children,
            sims: tree.finished(),
            tree_nodes: tree.len(),
            reused,
            budget_full: tree.budget_full(),
            done: true,
        };
        self.report(&[snap], start)
    }

    /// The principal variation that starts with the root move `first`.
    fn pv(&self, first: G::Move) -> Vec<G::Move> {
        if let Some(tp) = &self.shared {
            return tp.tree.pv(first, pick::<()>);
        }
        let mut pv = vec![first];
        let t = &self.main.tree;
        let mut node = t
            .node(0)
            .children()
            .find(|&id| t.node(id).mv == Some(first));
        while let Some(id) = node {
            if pv.len() >= 24 {
                break;
            }
            node = best_child(t, id);
            if let Some(c) = node {
                pv.push(t.node(c).mv.expect("children have moves"));
            }
        }
        pv
    }

    /// A helper's snapshot of the current job: with a simulation limit its final one; with
    /// a time limit whatever it last published, without blocking (on a loaded machine a
    /// thread that sleeps even briefly can wait milliseconds for a processor again).
    fn collect(&self, h: &Helper<G>, limits: Limits) -> Snapshot<G::Move> {
        if let Limits::Time(_) = limits {
            return match h.slot.snapshot.try_lock() {
                Ok(s) if s.job == self.job => s.clone(),
                _ => Snapshot::default(),
            };
        }
        let mut s = h.slot.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        while !(s.job == self.job && s.done) {
            // A helper that died (a panic) would never report; do not wait for it forever.
            if h.handle.as_ref().is_none_or(|j| j.is_finished()) {
                return Snapshot::default();
            }
            s = h
                .slot
                .changed
                .wait_timeout(s, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        s.clone()
    }

    /// A report for a game that is already over.
    fn finished_report(&self, pos: &G, o: Outcome, start: Instant) -> Report<G::Move> {
        let result = o.result_for(pos.side_to_move());
        Report {
            best_move: None,
            simulations: 0,
            elapsed: start.elapsed(),
            sims_per_second: 0.0,
            value: result.score(),
            pv: Vec::new(),
            proven: Some(Proven { result, plies: 0 }),
            tree_nodes: 0,
            reused_nodes: 0,
            budget_full: false,
            threads: self.threads(),
            children: Vec::new(),
        }
    }

    /// When the oracle proves the root a win and names a legal move, that move is played
    /// at once: a proven win needs no search.
    fn oracle_root(&mut self, pos: &G, start: Instant) -> Option<Report<G::Move>> {
        let p = self.oracle.as_ref()?.probe(pos)?;
        let mv = p.best_move?;
        if p.result != GameResult::Win {
            return None;
        }
        let moves = &mut self.main.moves;
        pos.legal_moves(moves);
        if !moves.contains(&mv) {
            return None;
        }
        let proven = Proven {
            result: GameResult::Win,
            plies: oracle_plies(&p) as u32,
        };
        Some(Report {
            best_move: Some(mv),
            simulations: 0,
            elapsed: start.elapsed(),
            sims_per_second: 0.0,
            value: 1.0,
            pv: vec![mv],
            proven: Some(proven),
            tree_nodes: 0,
            reused_nodes: 0,
            budget_full: false,
            threads: self.threads(),
            children: Vec::new(),
        })
    }

    /// Merges the threads' root statistics and picks the move.
    fn report(&self, snaps: &[Snapshot<G::Move>], start: Instant) -> Report<G::Move> {
        let elapsed = start.elapsed();
        let mut children: Vec<ChildStats<G::Move>> = snaps[0]
            .children
            .iter()
            .map(|c| ChildStats {
                mv: c.mv,
                visits: 0,
                value: 0.5,
                proven: None,
            })
            .collect();
        let mut score2 = vec![0u64; children.len()];
        for snap in snaps {
            for (k, c) in snap.children.iter().enumerate() {
                if k >= children.len() || c.mv != children[k].mv {
                    continue;
                }
                children[k].visits += c.visits;
                score2[k] += c.score2;
                if c.proven.is_some() {
                    children[k].proven = c.proven;
                }
            }
        }
        for (c, s) in children.iter_mut().zip(&score2) {
            if c.visits > 0 {
                c.value = *s as f64 / (2.0 * c.visits as f64);
            }
            if let Some(p) = c.proven {
                c.value = p.result.score();
            }
        }
        let best = pick(&children);
        let proven = root_proof(&children);
        let best_move = best.map(|k| children[k].mv);
        let value = match (proven, best) {
            (Some(p), _) => p.result.score(),
            (None, Some(k)) => children[k].value,
            (None, None) => 0.5,
        };
        let pv = best_move.map_or_else(Vec::new, |mv| self.pv(mv));
        let simulations: u64 = snaps.iter().map(|s| s.sims).sum();
        let secs = elapsed.as_secs_f64();
        Report {
            best_move,
            simulations,
            elapsed,
            sims_per_second: if secs > 0.0 {
                simulations as f64 / secs
            } else {
                0.0
            },
            value,
            pv,
            proven,
            tree_nodes: snaps.iter().map(|s| s.tree_nodes).sum(),
            reused_nodes: snaps.iter().map(|s| s.reused).sum(),
            budget_full: snaps.iter().any(|s| s.budget_full),
            threads: self.threads(),
            children,
        }
    }
}

/// Drops `garbage` on a short-lived thread: freeing a large shared tree (one allocation per
/// expanded node) would otherwise eat into the search's time.
fn discard<T: Send + 'static>(garbage: T) {
    // If no thread can be started the closure, and the garbage with it, is dropped here.
    let _ = std::thread::Builder::new()
        .name("mcts-free".into())
        .spawn(move || drop(garbage));
}

/// The oracle's plies as the tree stores them; a proof without a distance counts as the
/// longest (a win is then preferred last, a loss delayed most).
pub(super) fn oracle_plies<M>(p: &ProvenOutcome<M>) -> u16 {
    p.plies
        .map_or(u16::MAX / 2, |n| n.min(u16::MAX as u32 / 2) as u16)
}

/// The move to play: a proven win (the fastest), else the most visited move not proven
/// lost, else the slowest loss.
fn pick<M>(children: &[ChildStats<M>]) -> Option<usize> {
    let res = |c: &ChildStats<M>| c.proven.map(|p| p.result);
    if let Some(k) = (0..children.len())
        .filter(|&k| res(&children[k]) == Some(GameResult::Win))
        .min_by_key(|&k| children[k].proven.map_or(u32::MAX, |p| p.plies))
    {
        return Some(k);
    }
    let open = (0..children.len()).filter(|&k| res(&children[k]) != Some(GameResult::Loss));
    if let Some(k) = open.max_by(|&a, &b| {
        let (x, y) = (&children[a], &children[b]);
        x.visits
            .cmp(&y.visits)
            .then(x.value.total_cmp(&y.value))
            .then(b.cmp(&a))
    }) {
        return Some(k);
    }
    (0..children.len()).max_by_key(|&k| children[k].proven.map_or(0, |p| p.plies))
}

/// The root's proven value from its merged children, if they settle it.
fn root_proof<M>(children: &[ChildStats<M>]) -> Option<Proven> {
    let win = children
        .iter()
        .filter_map(|c| c.proven)
        .filter(|p| p.result == GameResult::Win)
        .min_by_key(|p| p.plies);
    if win.is_some() || children.is_empty() {
        return win;
    }
    let all: Option<Vec<Proven>> = children.iter().map(|c| c.proven).collect();
    let all = all?;
    if let Some(d) = all
        .iter()
        .filter(|p| p.result == GameResult::Draw)
        .max_by_key(|p| p.plies)
    {
        return Some(*d);
    }
    all.into_iter().max_by_key(|p| p.plies)
}

/// The child to follow in a principal variation.
fn best_child<M: Copy>(t: &Tree<M>, id: NodeId) -> Option<NodeId> {
    let n = t.node(id);
    let kids = n.children();
    if kids.is_empty() {
        return None;
    }
    let stats: Vec<ChildStats<NodeId>> = kids
        .map(|c| {
            let k = t.node(c);
            ChildStats {
                mv: c,
                visits: k.visits as u64,
                value: k.mean(),
                proven: k.proof.result().map(|result| Proven {
                    result,
                    plies: k.proof_plies as u32,
                }),
            }
        })
        .collect();
    let k = pick(&stats)?;
    let c = stats[k].mv;
    (t.node(c).visits > 0 || t.node(c).proof != Proof::Unknown).then_some(c)
}

impl<G: Game> Worker<G> {
    /// Sets the tree up for a search of `pos`, reusing the matching subtree; returns the
    /// number of nodes kept.
    fn prepare(&mut self, pos: &G, budget: usize) -> usize {
        self.budget_full = false;
        let found = match &self.root {
            Some(prev) if self.tree.budget() == budget => find(&self.tree, prev, pos),
            _ => None,
        };
        let kept = match found {
            Some(id) => self.tree.reroot(id),
            None => {
                self.tree = Tree::new(pos.side_to_move(), budget);
                0
            }
        };
        self.root = Some(pos.clone());
        // The root's proof is re-derived from its children: a proof by the oracle alone
        // names no move to play.
        self.tree.node_mut(0).proof = Proof::Unknown;
        solver::update(&mut self.tree, 0);
        kept
    }

    /// Runs simulations until `max_sims`, the deadline, a proof of the root or `stop`.
    fn run<P: PlayoutPolicy<G>>(
        &mut self,
        root: &G,
        sh: &Shared<'_, G, P>,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        max_sims: u64,
        publish: &mut dyn FnMut(&Worker<G>, u64),
    ) -> u64 {
        let mut sims = 0;
        while sims < max_sims {
            if self.tree.node(0).proof != Proof::Unknown {
                stop.store(true, Ordering::Relaxed);
                break;
            }
            self.simulate(root, sh);
            sims += 1;
            if sims % PUBLISH_EVERY == 0 {
                publish(self, sims);
            }
            if sims % CLOCK_EVERY == 0 {
                // Scores are stored doubled in `u32`s: stop before the root's could overflow.
                if stop.load(Ordering::Relaxed) || self.tree.node(0).visits >= MAX_ROOT_VISITS {
                    break;
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        sims
    }

    /// One simulation: selection, expansion, playout (or a proven value), backpropagation
    /// and proof propagation.
    fn simulate<P: PlayoutPolicy<G>>(&mut self, root: &G, sh: &Shared<'_, G, P>) {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut id: NodeId = 0;
        loop {
            let node = *self.tree.node(id);
            if node.proof != Proof::Unknown {
                break;
            }
            if !node.is_expanded() {
                if id != 0 && node.visits < sh.config.expand_after {
                    break;
                }
                if !self.expand(id, &pos, sh.oracle) || self.tree.node(id).proof != Proof::Unknown {
                    break;
                }
            }
            let c = uct::select(&self.tree, id, sh.c);
            pos.play(self.tree.node(c).mv.expect("children have moves"));
            self.path.push(c);
            id = c;
        }
        let leaf = *self.tree.node(id);
        let outcome = match leaf.proven_outcome() {
            Some(o) => o,
            None => {
                let mut ctx = PlayoutContext {
                    rng: &mut self.rng,
                    moves: &mut self.moves,
                    oracle: sh.oracle,
                    oracle_every: sh.oracle_every,
                    max_plies: sh.config.max_playout_plies,
                };
                sh.config.playout.run(&mut pos, &mut ctx)
            }
        };
        for &n in &self.path {
            self.tree.node_mut(n).record(outcome);
        }
        if leaf.proof != Proof::Unknown {
            solver::propagate(&mut self.tree, &self.path);
        }
    }

    /// Creates every child of `id` at once, proving those that end the game or that the
    /// oracle knows; false when the node budget is full (the leaf then gets a playout).
    fn expand(&mut self, id: NodeId, pos: &G, oracle: Option<&dyn Oracle<G>>) -> bool {
        pos.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            // Only a game that forgot to report its end has no moves; call it a draw.
            self.tree.node_mut(id).proof = Proof::Draw;
            return true;
        }
        if id != 0 && !self.tree.has_room(self.moves.len()) {
            self.budget_full = true;
            return false;
        }
        let mover = pos.side_to_move();
        let children = self.moves.iter().map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            let mut n = Node::new(Some(mv), mover);
            if let Some(o) = child.outcome() {
                n.proof = Proof::from_result(o.result_for(mover));
            } else if let Some(p) = oracle.and_then(|o| o.probe(&child)) {
                let r = if child.side_to_move() == mover {
                    p.result
                } else {
                    p.result.flip()
                };
                n.proof = Proof::from_result(r);
                n.proof_plies = oracle_plies(&p);
            }
            n
        });
        self.tree.add_children(id, children);
        solver::update(&mut self.tree, id);
        true
    }
}

/// The node of `tree` (rooted at `prev`) whose position is `pos`, looking up to two plies
/// deep, by hash.
fn find<G: Game>(tree: &Tree<G::Move>, prev: &G, pos: &G) -> Option<NodeId> {
    let target = pos.hash();
    if prev.hash() == target && prev == pos {
        return Some(0);
    }
    for c in tree.node(0).children() {
        let mut p1 = prev.clone();
        p1.play(tree.node(c).mv?);
        if p1.hash() == target && p1 == *pos {
            return Some(c);
        }
        for g in tree.node(c).children() {
            let mut p2 = p1.clone();
            p2.play(tree.node(g).mv?);
            if p2.hash() == target && p2 == *pos {
                return Some(g);
            }
        }
    }
    None
}
