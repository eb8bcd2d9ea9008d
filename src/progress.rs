//! Progress bars on standard error for the progress that library code reports through
//! callbacks (the libraries themselves never print).

use indicatif::{ProgressBar, ProgressStyle};
use quasar_core::progress::Progress;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// How often a phase's line is written when standard error is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// Shows each phase a library reports: a bar on standard error when it is a terminal, else
/// a line every few seconds (and one at the end of a phase that took that long), so that
/// a piped or logged job still shows where it stands.
pub struct Bars {
    visible: bool,
    terminal: bool,
    phase: Mutex<Option<Phase>>,
}

/// The phase being shown.
struct Phase {
    bar: ProgressBar,
    what: String,
    total: u64,
    done: u64,
    started: Instant,
    last_line: Instant,
    /// The units of the last line written, so that the end repeats no line.
    shown: Option<u64>,
}

impl Phase {
    /// The line of a piped job: "build: 1234/5678 (21.7%), 12 s".
    fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs();
        match self.total {
            0 => format!("{}: {}, {elapsed} s", self.what, self.done),
            t => format!(
                "{}: {}/{t} ({:.1}%), {elapsed} s",
                self.what,
                self.done,
                100.0 * self.done as f64 / t as f64
            ),
        }
    }
}

impl Default for Bars {
    fn default() -> Bars {
        Bars::new(true)
    }
}

impl Bars {
    /// Bars (or lines) on standard error; nothing at all unless `visible`.
    pub fn new(visible: bool) -> Bars {
        Bars {
            visible,
            terminal: std::io::stderr().is_terminal(),
            phase: Mutex::new(None),
        }
    }

    /// Ends the phase shown, if any.
    pub fn finish(&self) {
        self.end();
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Option<Phase>> {
        // A phase is only shown: a panic elsewhere while holding it leaves nothing to repair.
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Moves the phase to `done` units and shows it.
    fn show(&self, done: impl FnOnce(u64) -> u64) {
        if let Some(p) = self.phase().as_mut() {
            p.done = done(p.done);
            if self.terminal {
                p.bar.set_position(p.done);
            } else if p.last_line.elapsed() >= LINE_EVERY {
                p.last_line = Instant::now();
                p.shown = Some(p.done);
                eprintln!("{}", p.line());
            }
        }
    }
}

impl Progress for Bars {
    fn begin(&self, what: &str, total: u64) {
        if !self.visible {
            return;
        }
        let bar = styled_bar(
            self.terminal,
            "{msg:>9} [{elapsed_precise}] {wide_bar} {percent:>3}% eta {eta}",
        );
        bar.set_length(total);
        bar.set_message(what.to_string());
        let now = Instant::now();
        let phase = Phase {
            bar,
            what: what.to_string(),
            total,
            done: 0,
            started: now,
            last_line: now,
            shown: None,
        };
        if let Some(old) = self.phase().replace(phase) {
            old.bar.finish_and_clear();
        }
    }

    fn advance(&self, units: u64) {
        self.show(|done| done + units);
    }

    fn status(&self, what: &str, done: u64, total: u64) {
        if !self.visible {
            return;
        }
        if self.phase().is_none() {
            self.begin(what, total);
        }
        if let Some(p) = self.phase().as_mut() {
            if p.what != what || p.total != total {
                p.what = what.to_string();
                p.total = total;
                p.bar.set_message(p.what.clone());
                p.bar.set_length(total);
            }
            if p.done == 0 && done > 0 {
                // A job resumed with units already done: its remaining time counts only
                // the units done from now on.
                p.bar.set_position(done);
                p.bar.reset_eta();
            }
        }
        self.show(|_| done);
    }

    fn end(&self) {
        if let Some(p) = self.phase().take() {
            p.bar.finish_and_clear();
            if !self.terminal && p.started.elapsed() >= LINE_EVERY && p.shown != Some(p.done) {
                eprintln!("{}", p.line());
            }
        }
    }
}
