//! Progress of long jobs (a build, a full verification) as callbacks: the library never
//! draws or prints; a program shows the phases however it likes (the `quasar` binary
//! draws bars).

/// Receives the phases of a long job and the units done in each.
pub trait Progress: Sync {
    /// A phase named `what` of `total` units begins.
    fn begin(&self, what: &str, total: u64) {
        let _ = (what, total);
    }
    /// `units` more units of the current phase are done; called from worker threads.
    fn advance(&self, units: u64) {
        let _ = units;
    }
    /// The current phase is over.
    fn end(&self) {}
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}
