//! The one progress interface of long jobs (table builds and verifications, retrograde
//! solves, proofs and their checks, matches): libraries report phases and units done through [`Progress`] and never
//! print; the program decides how to show them (the `quasar` binary draws bars in a
//! terminal and writes a line every few seconds when standard error is piped). Searches
//! report the same way through a [`Watch`]: [`SearchInfo`] lines while they think, and a
//! stop flag that ends them early.

/// Receives the phases of a long job and the units done in each.
pub trait Progress: Sync {
    /// A phase named `what` of `total` units begins (0 when the total is not known).
    fn begin(&self, what: &str, total: u64) {
        let _ = (what, total);
    }
    /// `units` more units of the current phase are done; called from worker threads.
    fn advance(&self, units: u64) {
        let _ = units;
    }
    /// Where a job that counts for itself stands: `done` of `total` units (0: not known) in
    /// the step named `what` ("iteration 3"); steps may follow without `begin` or `end`.
    fn status(&self, what: &str, done: u64, total: u64) {
        let _ = (what, done, total);
    }
    /// Where a search with no total to count towards stands, in its own words: `line`
    /// ("1234 nodes, 56 proven") in the step named `what` ("winner"); steps may follow
    /// without `begin` or `end`, and a receiver may show only some of the lines.
    fn note(&self, what: &str, line: &str) {
        let _ = (what, line);
    }
    /// The current phase is over.
    fn end(&self) {}
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// What a search has found so far, as a progress line shows it: called by the searches'
/// drivers at iteration boundaries (alpha-beta: each finished depth; MCTS: at most once per
/// [`Watch::interval`], and once at the end), never from their inner loops.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// Alpha-beta: the iteration just finished, in plies; MCTS: `None`.
    pub depth: Option<u32>,
    /// MCTS: the simulations run so far (all threads); alpha-beta: `None`.
    pub simulations: Option<u64>,
    /// Alpha-beta: positions searched; MCTS: nodes in the tree(s).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: std::time::Duration,
    /// The value of the best move for the side to move.
    pub value: SearchValue,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// MCTS: every root move with its visits and value, most visited first; alpha-beta:
    /// empty (it searches one line).
    pub moves: Vec<RootMove<M>>,
}

impl<M> SearchInfo<M> {
    /// The search's rate: simulations a second for MCTS, positions a second for alpha-beta.
    pub fn rate(&self) -> f64 {
        let work = self.simulations.unwrap_or(self.nodes);
        work as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A root move as a progress line lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Simulations through it.
    pub visits: u64,
    /// Its mean score for the side to move at the root, from 0 to 1 (its proven result's
    /// score when it is proven).
    pub value: f64,
}

/// A search's value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SearchValue {
    /// MCTS: the mean score, from 0 (a certain loss) to 1 (a certain win).
    Mean(f64),
    /// Alpha-beta: the evaluation, in the evaluation's units.
    Eval(i32),
    /// A proven result, with its length in plies when known.
    Proven {
        /// Win, draw or loss for the side to move.
        result: crate::GameResult,
        /// Plies to the end along the proof (`None`: proven by a table without distances).
        plies: Option<u32>,
    },
}

/// What receives a search's progress lines.
pub type Observer<'a, M> = dyn FnMut(&SearchInfo<M>) + 'a;

/// How a caller watches and ends one search: an observer of its progress lines and a flag
/// that stops it early with its best move so far. [`Watch::none`] (what a plain search
/// uses) costs nothing: the searches only look at it where they already read the clock.
pub struct Watch<'a, M> {
    /// Raised by another thread (Ctrl-C, a new GTP command) to end the search; the search
    /// returns what it has, as when its limit is reached.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Receives the progress lines.
    pub observer: Option<&'a mut Observer<'a, M>>,
    /// MCTS: the least time between two progress lines (alpha-beta writes one a depth).
    pub interval: std::time::Duration,
}

impl<M> Watch<'_, M> {
    /// No observer and no stop flag.
    pub fn none() -> Self {
        Watch {
            stop: None,
            observer: None,
            interval: std::time::Duration::from_secs(1),
        }
    }

    /// Whether the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Hands `info` to the observer, if there is one.
    pub fn report(&mut self, info: &SearchInfo<M>) {
        if let Some(o) = self.observer.as_mut() {
            o(info);
        }
    }

    /// Whether anyone receives progress lines (so a search can skip building them).
    pub fn observed(&self) -> bool {
        self.observer.is_some()
    }
}

impl<M> std::fmt::Debug for Watch<'_, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stop", &self.stop)
            .field("observed", &self.observer.is_some())
            .field("interval", &self.interval)
            .finish()
    }
}
