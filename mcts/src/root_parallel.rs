//! Root parallelism's helper threads: each grows its own tree with a [`Worker`] and
//! publishes its root statistics as it goes, so a time-limited search never waits long
//! for a helper that lost its processor.

use crate::config::Config;
use crate::playout::PlayoutPolicy;
use crate::report::Snapshot;
use crate::worker::{Settings, Stop, Worker};
use quasar_core::Limit;
use quasar_core::{Evaluation, Game, Oracle};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Where a helper thread publishes its latest snapshot.
struct Slot<M> {
    snapshot: Mutex<Snapshot<M>>,
    changed: Condvar,
}

/// One search for a helper thread.
pub struct Job<G> {
    /// The search's number, which the snapshots carry.
    pub id: u64,
    /// The position.
    pub pos: G,
    /// The time limit, if any.
    pub deadline: Option<Instant>,
    /// This helper's share of a simulation limit.
    pub max_sims: u64,
    /// This helper's node budget.
    pub budget: usize,
    /// Set by whichever thread ends the search.
    pub stop: Arc<AtomicBool>,
}

/// Messages to a helper thread.
enum Msg<G> {
    Search(Job<G>),
    Clear,
}

/// A helper thread with its own tree; dropping it ends the thread.
pub struct Helper<G: Game> {
    tx: Option<mpsc::Sender<Msg<G>>>,
    slot: Arc<Slot<G::Move>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl<G: Game> Helper<G> {
    /// Starts helper thread `index` (its seed and name derive from it).
    pub fn spawn<P: PlayoutPolicy<G>>(
        index: usize,
        config: Arc<Config<P>>,
        oracle: Option<Arc<dyn Oracle<G>>>,
        evaluation: Option<Arc<dyn Evaluation<G>>>,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        let slot = Arc::new(Slot {
            snapshot: Mutex::new(Snapshot::default()),
            changed: Condvar::new(),
        });
        let worker = Worker::new(config.seed, index as u64);
        let s = slot.clone();
        let handle = std::thread::Builder::new()
            .name(format!("mcts-{index}"))
            .spawn(move || helper_loop(worker, config, oracle, evaluation, rx, s))
            .expect("spawn a search thread");
        Helper {
            tx: Some(tx),
            slot,
            handle: Some(handle),
        }
    }

    /// Starts a search.
    pub fn send(&self, job: Job<G>) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Msg::Search(job));
        }
    }

    /// Makes the helper forget its tree.
    pub fn clear(&self) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Msg::Clear);
        }
    }

    /// The helper's snapshot of search `job`: with a simulation limit its final one; with
    /// a time limit whatever it last published, without blocking (on a loaded machine a
    /// thread that sleeps even briefly can wait milliseconds for a processor again).
    pub fn collect(&self, job: u64, limits: Limit) -> Snapshot<G::Move> {
        if let Limit::Time(_) = limits {
            return match self.slot.snapshot.try_lock() {
                Ok(s) if s.job == job => s.clone(),
                _ => Snapshot::default(),
            };
        }
        let mut s = self.slot.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        while !(s.job == job && s.done) {
            // A helper that died (a panic) would never report; do not wait for it forever.
            if self.handle.as_ref().is_none_or(|j| j.is_finished()) {
                return Snapshot::default();
            }
            s = self
                .slot
                .changed
                .wait_timeout(s, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        s.clone()
    }
}

impl<G: Game> Drop for Helper<G> {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop once its search is over.
        self.tx = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// A helper thread's life: run the searches it is sent, publishing as it goes.
fn helper_loop<G: Game, P: PlayoutPolicy<G>>(
    mut w: Worker<G>,
    config: Arc<Config<P>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    evaluation: Option<Arc<dyn Evaluation<G>>>,
    rx: mpsc::Receiver<Msg<G>>,
    slot: Arc<Slot<G::Move>>,
) {
    let publish = |snap: Snapshot<G::Move>| {
        let mut s = slot.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        *s = snap;
        slot.changed.notify_all();
    };
    let settings = Settings::new(&config, oracle.as_deref(), evaluation.as_deref());
    while let Ok(msg) = rx.recv() {
        let job = match msg {
            Msg::Clear => {
                w.root = None;
                continue;
            }
            Msg::Search(job) => job,
        };
        let reused = w.prepare(&job.pos, job.budget, settings.oracle, settings.heuristic);
        let stop = Stop {
            flag: &job.stop,
            deadline: job.deadline,
            max_sims: job.max_sims,
        };
        let sims = w.run(&job.pos, &settings, &stop, &mut |tree, sims| {
            publish(Snapshot::of(tree, job.id, sims, reused, false))
        });
        publish(Snapshot::of(&w.tree, job.id, sims, reused, true));
    }
}
