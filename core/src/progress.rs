//! The one progress interface of long jobs (table builds and verifications, retrograde
//! solves, proofs and their checks, matches): libraries report phases and units done through [`Progress`] and never
//! print; the program decides how to show them (the `quasar` binary draws bars in a
//! terminal and writes a line every few seconds when standard error is piped).

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
