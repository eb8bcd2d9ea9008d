//! Progress bars on standard error for the progress that library code reports through
//! callbacks (the libraries themselves never print).

use arena::matchup::MatchProgress;
use indicatif::{ProgressBar, ProgressStyle};

/// The bar of a running match: games finished of all games.
pub struct MatchBar {
    bar: ProgressBar,
}

impl MatchBar {
    /// A bar, hidden unless `visible` (it also stays hidden when stderr is not a terminal).
    pub fn new(visible: bool) -> MatchBar {
        let bar = if visible {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
            )
            .expect("the template is valid"),
        );
        MatchBar { bar }
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
