//! Progress reports from a running solve, delivered through a callback (libraries do not print).

/// Where a solve stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The phase: "reverse graph", "iteration", "pass", "threshold", ...
    pub phase: &'static str,
    /// Iterations or passes finished so far in this phase.
    pub step: u64,
    /// Positions decided so far.
    pub decided: u64,
    /// Positions in all.
    pub total: u64,
}

/// A progress callback; `&|_| {}` ignores progress.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);
