//! Clocks: a time control of a base time and an increment a move (`--tc 10s+0.1s`), each
//! side's clock in a game, and the one time manager every built-in player uses to turn
//! what its clock shows into the time of its next move, apart from any search.

use crate::duration::{format_duration, parse_duration};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest base time or increment taken (a day): longer is a typing error.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A time control: every side starts with `base` and gains `increment` after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time on each clock at the start.
    pub base: Duration,
    /// The time added to the mover's clock after each of its moves.
    pub increment: Duration,
}

/// A time control that does not read or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "time control '{text}': {why} (write BASE+INCREMENT, e.g. 10s+0.1s, or BASE alone, e.g. 1m)"
)]
pub struct TimeControlError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let fail = |why: String| TimeControlError {
            text: text.to_string(),
            why,
        };
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (b.trim(), Some(i.trim())),
            None => (text.trim(), None),
        };
        let read = |part: &str, what: &str| -> Result<Duration, TimeControlError> {
            if part.is_empty() {
                return Err(fail(format!("the {what} is missing")));
            }
            let d = parse_duration(part).map_err(|e| fail(format!("the {what}: {e}")))?;
            if d > MAX_TIME {
                return Err(fail(format!("the {what} is over a day")));
            }
            Ok(d)
        };
        let base = read(base, "base time")?;
        // A zero increment is written as one (`+0`, `+0s`), though no move time may be zero.
        let zero = |i: &str| {
            i.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse::<f64>()
                .is_ok_and(|v| v == 0.0)
        };
        let increment = match increment {
            Some(i) if zero(i) => Duration::ZERO,
            Some(i) => read(i, "increment")?,
            None => Duration::ZERO,
        };
        if base.is_zero() {
            return Err(fail("the base time must be above zero".into()));
        }
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// `10s+100ms`, as [`TimeControl::from_str`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            format_duration(self.base),
            format_duration(self.increment)
        )
    }
}

impl TimeControl {
    /// The time control as PGN's `TimeControl` tag writes it: seconds, `+` increment
    /// (`10+0.1`).
    pub fn pgn(&self) -> String {
        format!(
            "{}+{}",
            seconds(self.base.as_secs_f64()),
            seconds(self.increment.as_secs_f64())
        )
    }
}

/// Seconds without trailing zeros (`10`, `0.1`).
fn seconds(s: f64) -> String {
    let t = format!("{s:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What a player's clock shows before its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// The time left on the mover's clock.
    pub remaining: Duration,
    /// The time its clock gains after the move.
    pub increment: Duration,
}

/// The part of the time left that is never planned for, so that the move's overhead (a
/// search's last iteration, a pipe, the arena's own bookkeeping) stays within the clock.
pub fn safety_margin(remaining: Duration) -> Duration {
    Duration::from_millis(10) + remaining / 20
}

/// The time manager: how long the next move may take with `clock` showing. A 30th of
/// the time left plus the increment, never more than the time left less the safety margin
/// (and at least a millisecond, so that a search can return a move).
pub fn move_time(clock: ClockState) -> Duration {
    let share = clock.remaining / 30 + clock.increment;
    let cap = clock
        .remaining
        .saturating_sub(safety_margin(clock.remaining));
    share.min(cap).max(Duration::from_millis(1))
}

/// `h:mm:ss.s`, as PGN's `%clk` comments write a clock (tenths, rounded down).
pub fn clk(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let (h, rest) = (tenths / 36_000, tenths % 36_000);
    let (m, rest) = (rest / 600, rest % 600);
    format!("{h}:{m:02}:{:02}.{}", rest / 10, rest % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_read_and_print_back() {
        let tc: TimeControl = "10s+0.1s".parse().unwrap();
        assert_eq!((tc.base, tc.increment), (ms(10_000), ms(100)));
        assert_eq!(tc.to_string(), "10s+100ms");
        assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc);
        assert_eq!(tc.pgn(), "10+0.1");
        for zero in ["1m+0", "1m+0s", "1m+0.0ms"] {
            assert_eq!(
                zero.parse::<TimeControl>().unwrap().increment,
                Duration::ZERO
            );
        }
        let plain: TimeControl = "1m".parse().unwrap();
        assert_eq!((plain.base, plain.increment), (ms(60_000), Duration::ZERO));
        assert_eq!(plain.pgn(), "60+0");
        for (bad, want) in [
            ("+", "base time is missing"),
            ("10s+", "increment is missing"),
            ("+1s", "base time is missing"),
            ("-1s+1s", "base time"),
            ("10+1", "base time"),
            ("0s+1s", "above zero"),
            ("2d+0s", "over a day"),
            ("10s+1s+1s", "increment"),
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(
                e.contains(want) && e.contains("BASE+INCREMENT"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn the_time_manager_spends_a_share_and_keeps_a_margin() {
        let at = |remaining, increment| {
            move_time(ClockState {
                remaining: ms(remaining),
                increment: ms(increment),
            })
        };
        assert_eq!(at(30_000, 0), ms(1000));
        assert_eq!(at(3000, 100), ms(200));
        // Little left: the increment is not spent beyond the time left less the margin.
        assert_eq!(at(100, 1000), ms(85));
        assert_eq!(at(5, 0), ms(1));
        assert_eq!(clk(ms(3_723_456)), "1:02:03.4");
        assert_eq!(clk(ms(9_870)), "0:00:09.8");
    }
}
