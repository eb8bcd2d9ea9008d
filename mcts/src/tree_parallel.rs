//! Tree parallelism: the shared tree with its helper threads, and one search in which
//! every thread grows that tree.

use crate::config::Config;
use crate::playout::PlayoutPolicy;
use crate::report::{self, Snapshot};
use crate::reuse;
use crate::shared::SharedTree;
use crate::worker::{self, Scratch, Settings, Stop};
use quasar_core::Limit;
use quasar_core::{Evaluation, Game, Oracle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// One tree-parallel search for a helper thread; it drops the job (and its hold on the
/// tree) when done, which is how the caller knows that every simulation has finished.
struct TreeJob<G: Game> {
    tree: Arc<SharedTree<G::Move>>,
    pos: G,
    deadline: Option<Instant>,
    max_sims: u64,
    stop: Arc<AtomicBool>,
}

/// A helper thread of tree parallelism; dropping it ends the thread.
struct TreeHelper<G: Game> {
    tx: Option<mpsc::Sender<TreeJob<G>>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl<G: Game> Drop for TreeHelper<G> {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop once its search is over.
        self.tx = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// The shared tree, the position at its root and the helper threads.
pub struct TreeParallel<G: Game> {
    tree: Arc<SharedTree<G::Move>>,
    root: Option<G>,
    helpers: Vec<TreeHelper<G>>,
}

impl<G: Game> TreeParallel<G> {
    /// An empty tree and `threads - 1` helper threads.
    pub fn new<P: PlayoutPolicy<G>>(
        threads: usize,
        config: &Arc<Config<P>>,
        oracle: &Option<Arc<dyn Oracle<G>>>,
        evaluation: &Option<Arc<dyn Evaluation<G>>>,
    ) -> Self {
        let helpers = (1..threads)
            .map(|i| {
                let (tx, rx) = mpsc::channel();
                let scratch = Scratch::new(config.seed, i as u64);
                let (c, o, e) = (config.clone(), oracle.clone(), evaluation.clone());
                let handle = std::thread::Builder::new()
                    .name(format!("mcts-tree-{i}"))
                    .spawn(move || tree_helper_loop(scratch, c, o, e, rx))
                    .expect("spawn a search thread");
                TreeHelper {
                    tx: Some(tx),
                    handle: Some(handle),
                }
            })
            .collect();
        TreeParallel {
            tree: Arc::new(SharedTree::new(quasar_core::Side::First, 1)),
            root: None,
            helpers,
        }
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.root = None;
    }

    /// Searches `pos` with every thread (the caller's with `scratch`) in the shared tree,
    /// reusing the part of it that reaches `pos`; returns the snapshot of the root.
    #[allow(clippy::too_many_arguments)]
    pub fn search<P: PlayoutPolicy<G>>(
        &mut self,
        pos: &G,
        limits: Limit,
        deadline: Option<Instant>,
        settings: &Settings<'_, G, P>,
        scratch: &mut Scratch<G>,
        stop: &Arc<AtomicBool>,
        job: u64,
        publish: &mut dyn FnMut(&&SharedTree<G::Move>, u64),
    ) -> Snapshot<G::Move> {
        // Helpers drop their hold on the tree when their last simulation ends; that is
        // normally long past, so this wait is short.
        while Arc::strong_count(&self.tree) > 1 {
            std::thread::yield_now();
        }
        let budget = settings.config.node_budget.max(1);
        let reused = self.reuse_or_replace(pos, budget);
        if let Some(tree) = Arc::get_mut(&mut self.tree) {
            tree.reset_for_search();
        }
        self.root = Some(pos.clone());
        let tree = self.tree.clone();
        let mut store: &SharedTree<G::Move> = &tree;
        // The root is expanded before the helpers start, so that none of them finds it
        // being expanded and spends its simulation on the root alone.
        worker::ready_root(
            &mut store,
            pos,
            settings.oracle,
            settings.heuristic,
            scratch,
        );
        let max_sims = crate::config::total(limits);
        for h in &self.helpers {
            if let Some(tx) = &h.tx {
                let _ = tx.send(TreeJob {
                    tree: tree.clone(),
                    pos: pos.clone(),
                    deadline,
                    max_sims,
                    stop: stop.clone(),
                });
            }
        }
        let lim = Stop {
            flag: stop,
            deadline,
            max_sims,
        };
        let mut path = Vec::with_capacity(128);
        worker::run(&mut store, &mut path, scratch, pos, settings, &lim, publish);
        match limits {
            Limit::Time(_) => stop.store(true, Ordering::Relaxed),
            Limit::Count(_) => {
                // Every claimed simulation finishes before the report (a helper that died
                // has dropped its job while unwinding).
                while Arc::strong_count(&tree) > 2 {
                    std::thread::yield_now();
                }
            }
        }
        Snapshot::of(&&*tree, job, tree.simulations(), reused, true)
    }

    /// The principal variation after the root move `first`.
    pub fn pv(&self, first: G::Move) -> Vec<G::Move> {
        report::pv(&&*self.tree, first)
    }

    /// Reroots the tree at `pos` when the previous search reaches it, else starts a fresh
    /// one with `budget` nodes; returns the number of nodes kept.
    fn reuse_or_replace(&mut self, pos: &G, budget: usize) -> usize {
        if let (Some(prev), Some(tree)) = (&self.root, Arc::get_mut(&mut self.tree)) {
            if tree.budget() == budget {
                if let Some(route) = reuse::find(&&*tree, prev, pos) {
                    let (kept, rest) = tree.reroot(&route);
                    discard(rest);
                    return kept;
                }
            }
        }
        let fresh = Arc::new(SharedTree::new(pos.side_to_move(), budget));
        discard(std::mem::replace(&mut self.tree, fresh));
        0
    }
}

/// A tree-parallel helper thread's life: run the searches it is sent.
fn tree_helper_loop<G: Game, P: PlayoutPolicy<G>>(
    mut scratch: Scratch<G>,
    config: Arc<Config<P>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    evaluation: Option<Arc<dyn Evaluation<G>>>,
    rx: mpsc::Receiver<TreeJob<G>>,
) {
    let settings = Settings::new(&config, oracle.as_deref(), evaluation.as_deref());
    while let Ok(job) = rx.recv() {
        let lim = Stop {
            flag: &job.stop,
            deadline: job.deadline,
            max_sims: job.max_sims,
        };
        let mut store: &SharedTree<G::Move> = &job.tree;
        // The path holds references into this job's tree: one per search.
        let mut path = Vec::with_capacity(128);
        worker::run(
            &mut store,
            &mut path,
            &mut scratch,
            &job.pos,
            &settings,
            &lim,
            &mut |_, _| {},
        );
        drop(path);
        drop(job);
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
