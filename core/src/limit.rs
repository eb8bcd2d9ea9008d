//! The budget of one search, the same type for every search: a wall-clock time, or a count
//! of the search's own steps.

use std::time::{Duration, Instant};

/// When a search stops (it also stops as soon as its result is proven).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A wall-clock budget, always kept: the search stops a small margin before it
    /// ([`Limit::deadline`]).
    Time(Duration),
    /// This many steps of the search: simulations for MCTS, positions for alpha-beta.
    Count(u64),
}

impl Limit {
    /// When a time-limited search started at `start` stops: a safety margin before the
    /// budget ends, 5% of it, between 3 and 50 ms (never more than a fifth of the budget).
    /// On a loaded machine the thread can lose the processor for milliseconds between its
    /// last clock reading and its return. `None` for a count.
    pub fn deadline(self, start: Instant) -> Option<Instant> {
        match self {
            Limit::Time(budget) => {
                let margin = (budget / 20)
                    .clamp(Duration::from_millis(3), Duration::from_millis(50))
                    .min(budget / 5);
                Some(start + budget - margin)
            }
            Limit::Count(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_keeps_a_margin() {
        let t0 = Instant::now();
        let d = Limit::Time(Duration::from_millis(100))
            .deadline(t0)
            .unwrap();
        assert_eq!(d - t0, Duration::from_millis(95));
        let d = Limit::Time(Duration::from_secs(10)).deadline(t0).unwrap();
        assert_eq!(d - t0, Duration::from_millis(9950));
        let d = Limit::Time(Duration::from_millis(10)).deadline(t0).unwrap();
        assert_eq!(d - t0, Duration::from_millis(8));
        assert_eq!(Limit::Count(3).deadline(t0), None);
    }
}
