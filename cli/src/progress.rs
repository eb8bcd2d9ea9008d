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
    /// When the job began: notes give the time since then, as a log of the whole job.
    created: Instant,
    phase: Mutex<Option<Phase>>,
}

/// The phase being shown.
struct Phase {
    bar: ProgressBar,
    what: String,
    total: u64,
    done: u64,
    started: Instant,
    /// The units done when the rate for the time left was first measured, and when: a
    /// resumed job counts only the units done since it resumed.
    base: (u64, Instant),
    last_line: Instant,
    /// The units of the last line written, so that the end repeats no line.
    shown: Option<u64>,
    /// A phase of notes (see [`Progress::note`]) rather than counted units.
    notes: bool,
}

impl Phase {
    /// The line of a piped job: "build: 1234/5678 (21.7%), 12 s, about 40 s left".
    fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs();
        let (base, since) = self.base;
        match self.total {
            0 => format!("{}: {}, {elapsed} s", self.what, self.done),
            t => {
                let left = match self.done {
                    d if d > base && d < t => {
                        let rate = (d - base) as f64 / since.elapsed().as_secs_f64();
                        format!(", about {} left", duration((t - d) as f64 / rate))
                    }
                    _ => String::new(),
                };
                format!(
                    "{}: {}/{t} ({:.1}%), {elapsed} s{left}",
                    self.what,
                    self.done,
                    100.0 * self.done as f64 / t as f64
                )
            }
        }
    }
}

/// `seconds` rounded for a person: "40 s", "12 min", "3.5 h".
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

impl std::fmt::Debug for Bars {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bars")
            .field("visible", &self.visible)
            .field("terminal", &self.terminal)
            .finish_non_exhaustive()
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
            created: Instant::now(),
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
            base: (0, now),
            last_line: now,
            shown: None,
            notes: false,
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
                p.base = (done, Instant::now());
            }
        }
        self.show(|_| done);
    }

    fn note(&self, what: &str, line: &str) {
        if !self.visible {
            return;
        }
        let mut phase = self.phase();
        if phase.as_ref().is_none_or(|p| !p.notes || p.what != what) {
            let bar = styled_bar(self.terminal, "[{elapsed_precise}] {msg}");
            let now = Instant::now();
            let new = Phase {
                bar,
                what: what.to_string(),
                total: 0,
                done: 0,
                started: now,
                base: (0, now),
                last_line: now,
                shown: None,
                notes: true,
            };
            if let Some(old) = phase.replace(new) {
                old.bar.finish_and_clear();
            }
            if !self.terminal {
                // The first line of each step at once, so that a log shows when it began.
                eprintln!(
                    "{:.0} s, {what}: {line}",
                    self.created.elapsed().as_secs_f64()
                );
                return;
            }
        }
        let Some(p) = phase.as_mut() else { return };
        if self.terminal {
            p.bar.set_message(format!("{what}: {line}"));
        } else if p.last_line.elapsed() >= LINE_EVERY {
            p.last_line = Instant::now();
            eprintln!(
                "{:.0} s, {what}: {line}",
                self.created.elapsed().as_secs_f64()
            );
        }
    }

    fn end(&self) {
        if let Some(p) = self.phase().take() {
            p.bar.finish_and_clear();
            if !self.terminal
                && !p.notes
                && p.started.elapsed() >= LINE_EVERY
                && p.shown != Some(p.done)
            {
                eprintln!("{}", p.line());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piped_line_gives_the_time_left_at_the_rate_since_the_phase_or_its_resumption() {
        let now = Instant::now();
        let ago = |s| now.checked_sub(Duration::from_secs(s)).unwrap();
        let mut p = Phase {
            bar: ProgressBar::hidden(),
            what: "games".into(),
            total: 100,
            done: 25,
            started: ago(10),
            base: (0, ago(10)),
            last_line: now,
            shown: None,
            notes: false,
        };
        // 25 games in 10 s: 75 more take 30 s.
        assert_eq!(p.line(), "games: 25/100 (25.0%), 10 s, about 30 s left");
        // Resumed at 23 games 10 s ago: 2 games in 10 s, so 75 more take 375 s.
        p.base = (23, ago(10));
        assert_eq!(p.line(), "games: 25/100 (25.0%), 10 s, about 6 min left");
        // Nothing done since the resumption: no rate yet; a finished phase: nothing left.
        p.base = (25, now);
        assert_eq!(p.line(), "games: 25/100 (25.0%), 10 s");
        p.done = 100;
        assert_eq!(p.line(), "games: 100/100 (100.0%), 10 s");
        p.total = 0;
        assert_eq!(p.line(), "games: 100, 10 s");
    }

    #[test]
    fn durations_are_rounded_to_seconds_minutes_or_hours() {
        assert_eq!(duration(40.4), "40 s");
        assert_eq!(duration(720.0), "12 min");
        assert_eq!(duration(12_600.0), "3.5 h");
    }
}
