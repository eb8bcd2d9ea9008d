//! How a solve reports where it stands: through the one progress interface of the
//! workspace, [`quasar_core::progress::Progress`] (libraries do not print).

pub use quasar_core::progress::{Progress, Silent};

/// The progress a solve reports to; `&Silent` ignores it.
pub type ProgressFn<'a> = &'a dyn Progress;

/// Reports the end of step `step` of `phase`: `decided` positions of `total` decided.
pub(crate) fn report(progress: ProgressFn<'_>, phase: &str, step: u64, decided: u64, total: u64) {
    progress.status(&format!("{phase} {step}"), decided, total);
}
