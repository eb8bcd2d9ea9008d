//! Progress bars on standard error for the progress that library code reports through
//! callbacks (the libraries themselves never print).

use arena::matchup::MatchProgress;
use breakthrough::tablebase::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Mutex;

/// A bar drawn with `template`, hidden unless `visible` (indicatif also hides it when
/// standard error is not a terminal).
fn styled_bar(visible: bool, template: &str) -> ProgressBar {
    let bar = if visible {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    // The templates are constants of this file; a bad one falls back to the plain bar.
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The bar of a running match: games finished of all games.
pub struct MatchBar {
    bar: ProgressBar,
}

impl MatchBar {
    /// A bar, hidden unless `visible` (it also stays hidden when stderr is not a terminal).
    pub fn new(visible: bool) -> MatchBar {
        MatchBar {
            bar: styled_bar(
                visible,
                "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
            ),
        }
    }

    /// Shows what the match reported.
    pub fn update(&self, progress: MatchProgress) {
        match progress {
            MatchProgress::Started { total, done } => {
                self.bar.set_length(total);
                self.bar.set_position(done);
                // ETA counts only games played in this run.
                self.bar.reset_eta();
            }
            MatchProgress::GameFinished { total, done } => {
                self.bar.set_length(total);
                self.bar.set_position(done);
            }
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// One bar for a retrograde solve (`retro`'s progress callback): positions decided of all,
/// with the phase and its pass.
pub struct SolveBars {
    bar: ProgressBar,
}

impl SolveBars {
    /// A bar, hidden unless `visible` (it also stays hidden when stderr is not a terminal).
    pub fn new(visible: bool) -> SolveBars {
        SolveBars {
            bar: styled_bar(
                visible,
                "{msg:>18} [{elapsed_precise}] {wide_bar} {pos}/{len} positions decided",
            ),
        }
    }

    /// Shows what the solve reported.
    pub fn update(&self, p: retro::Progress) {
        self.bar.set_length(p.total);
        self.bar.set_position(p.decided);
        self.bar.set_message(format!("{} {}", p.phase, p.step));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Draws each phase the library reports as a bar on standard error (nothing when it is
/// not a terminal).
#[derive(Default)]
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        // A bar is only drawn: a panic elsewhere while holding it leaves nothing to repair.
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Progress for Bars {
    fn begin(&self, what: &str, total: u64) {
        let pb = styled_bar(
            true,
            "{msg:>9} [{elapsed_precise}] {wide_bar} {percent:>3}% eta {eta}",
        );
        pb.set_length(total);
        pb.set_message(what.to_string());
        if let Some(old) = self.bar().replace(pb) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, units: u64) {
        if let Some(pb) = self.bar().as_ref() {
            pb.inc(units);
        }
    }

    fn end(&self) {
        if let Some(pb) = self.bar().take() {
            pb.finish_and_clear();
        }
    }
}
