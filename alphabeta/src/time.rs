//! Time management: one move's share of a clock.

use std::time::Duration;

/// The time to spend on one move with `left` on the clock and `increment` added after each
/// move: a fortieth of what is left plus most of the increment, never more than a quarter
/// of what is left less a safety margin for the answer's way back.
pub fn move_budget(left: Duration, increment: Duration) -> Duration {
    let margin = Duration::from_millis(20).min(left / 10);
    let usable = left.saturating_sub(margin);
    (left / 40 + increment * 3 / 4)
        .min(usable / 4 + increment.min(usable))
        .min(usable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_takes_a_share_of_the_clock_and_never_all_of_it() {
        let ms = Duration::from_millis;
        assert_eq!(move_budget(ms(60_000), ms(0)), ms(1500));
        assert_eq!(move_budget(ms(60_000), ms(1000)), ms(2250));
        // Little time left: never the whole clock, even with an increment.
        assert!(move_budget(ms(100), ms(1000)) < ms(100));
        assert_eq!(move_budget(ms(0), ms(0)), ms(0));
    }
}
