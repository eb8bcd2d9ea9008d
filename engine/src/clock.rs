//! Clocks: a time control of a base time and an increment a move (`--tc 10s+0.1s`, or as
//! cutechess-cli writes it in seconds, `2+0.05`, with moves per period `40/60+0.5`), each
//! side's clock in a game, and the one time manager every built-in player uses to turn
//! what its clock shows into the time of its next move, apart from any search.

use crate::duration::{format_duration, parse_duration};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest base time or increment taken (a day): longer is a typing error.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A time control: every side starts with `base` and gains `increment` after each move;
/// with `moves`, `base` again after each period of that many of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time on each clock at the start (and added at the start of each period).
    pub base: Duration,
    /// The time added to the mover's clock after each of its moves.
    pub increment: Duration,
    /// The moves of a period, after which `base` is added again; `None`: one period, the
    /// whole game.
    pub moves: Option<u32>,
}

/// A time control that does not read or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "time control '{text}': {why} (write BASE+INCREMENT, e.g. 10s+0.1s or in seconds 2+0.05, \
     BASE alone, e.g. 1m, or MOVES/BASE+INCREMENT, e.g. 40/60+0.5)"
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
            text: quasar_file::shorten(text, 40).into_owned(),
            why,
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m = m.trim();
                match m.parse::<u32>() {
                    Ok(n) if n > 0 => (Some(n), rest),
                    _ => {
                        return Err(fail(format!(
                            "the moves of a period must be a whole number of 1 or more, not \
                             '{}'",
                            quasar_file::shorten(m, 20)
                        )))
                    }
                }
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b.trim(), Some(i.trim())),
            None => (rest.trim(), None),
        };
        let read = |part: &str, what: &str| -> Result<Duration, TimeControlError> {
            if part.is_empty() {
                return Err(fail(format!("the {what} is missing")));
            }
            let d = plain_seconds(part)
                .unwrap_or_else(|| parse_duration(part).map_err(|e| e.to_string()))
                .map_err(|e| fail(format!("the {what}: {e}")))?;
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
        Ok(TimeControl {
            base,
            increment,
            moves,
        })
    }
}

/// A time as cutechess-cli writes it, without a unit: seconds (`60`, `0.05`) or
/// minutes:seconds (`1:30`); `None` for text with a unit, which [`parse_duration`] reads.
fn plain_seconds(text: &str) -> Option<Result<Duration, String>> {
    let number = |t: &str| -> Option<f64> {
        let ok = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
        ok.then(|| t.parse::<f64>().ok()).flatten()
    };
    let seconds = match text.split_once(':') {
        Some((m, s)) => {
            let (m, s) = (number(m)?, number(s)?);
            if m.fract() != 0.0 || s >= 60.0 {
                return Some(Err(format!(
                    "'{text}' is not minutes:seconds (whole minutes, seconds under 60)"
                )));
            }
            m * 60.0 + s
        }
        None => number(text)?,
    };
    if seconds > MAX_TIME.as_secs_f64() {
        return Some(Ok(MAX_TIME + Duration::from_secs(1)));
    }
    Some(Ok(Duration::from_secs_f64(seconds)))
}

/// What `--tc` takes: a time control, or `inf`, no clock (each move under the per-move
/// limit, as without `--tc`).
pub fn parse_clock_option(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
    if text.trim().eq_ignore_ascii_case("inf") {
        return Ok(None);
    }
    text.parse().map(Some)
}

impl fmt::Display for TimeControl {
    /// `10s+100ms` (`40/60s+0s` with moves per period), as [`TimeControl::from_str`] reads
    /// it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.moves {
            write!(f, "{n}/")?;
        }
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
    /// (`10+0.1`; `40/60+0` with moves per period).
    pub fn pgn(&self) -> String {
        let period = self.moves.map(|n| format!("{n}/")).unwrap_or_default();
        format!(
            "{period}{}+{}",
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
    /// Under moves per period, where the mover stands in its period.
    pub period: Option<Period>,
}

/// A clock's place in a control of moves per period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// The period's moves left, the coming one included.
    pub moves_to_go: u32,
    /// The moves of each period.
    pub moves: u32,
    /// The time each new period adds.
    pub time: Duration,
}

impl ClockState {
    /// The clock at the start of a game under `tc`.
    pub fn start_of(tc: TimeControl) -> ClockState {
        ClockState {
            remaining: tc.base,
            increment: tc.increment,
            period: tc.moves.map(|moves| Period {
                moves_to_go: moves,
                moves,
                time: tc.base,
            }),
        }
    }

    /// The clock after a move that `took` so long: the time spent, the increment gained,
    /// and at a period's end the period's time added for the next.
    pub fn after_move(&mut self, took: Duration) {
        self.remaining = self.remaining.saturating_sub(took) + self.increment;
        if let Some(p) = &mut self.period {
            if p.moves_to_go <= 1 {
                self.remaining += p.time;
                p.moves_to_go = p.moves;
            } else {
                p.moves_to_go -= 1;
            }
        }
    }
}

/// The part of the time left that is never planned for, so that the move's overhead (a
/// search's last iteration, a pipe, the arena's own bookkeeping) stays within the clock.
pub fn safety_margin(remaining: Duration) -> Duration {
    Duration::from_millis(10) + remaining / 20
}

/// The time manager: how long the next move may take with `clock` showing. A 30th of
/// the time left (with moves per period, a share of it over the period's moves to go plus
/// one, when fewer than 30) plus the increment, never more than the time left less the
/// safety margin (and at least a millisecond, so that a search can return a move).
pub fn move_time(clock: ClockState) -> Duration {
    let parts = clock.period.map_or(30, |p| p.moves_to_go.clamp(1, 29) + 1);
    let share = clock.remaining / parts + clock.increment;
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
            ("10x+1", "base time"),
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
    fn cutechess_time_controls_read_in_seconds_with_moves_per_period() {
        let read = |t: &str| t.parse::<TimeControl>().unwrap();
        let tc = read("2+0.05");
        assert_eq!((tc.base, tc.increment, tc.moves), (ms(2000), ms(50), None));
        assert_eq!(tc.to_string(), "2s+50ms");
        assert_eq!(tc.pgn(), "2+0.05");
        let tc = read("40/60+0.5");
        assert_eq!(
            (tc.base, tc.increment, tc.moves),
            (ms(60_000), ms(500), Some(40))
        );
        assert_eq!(tc.to_string(), "40/60s+500ms");
        assert_eq!(tc.pgn(), "40/60+0.5");
        assert_eq!(read(&tc.to_string()), tc);
        assert_eq!(read(&tc.pgn()), tc);
        let tc = read("40/60");
        assert_eq!(
            (tc.base, tc.increment, tc.moves),
            (ms(60_000), ms(0), Some(40))
        );
        let tc = read("1:30+1");
        assert_eq!((tc.base, tc.increment), (ms(90_000), ms(1000)));
        assert_eq!(read("60").base, ms(60_000));
        // The unit forms are kept, and mix with plain seconds.
        assert_eq!(read("10s+0.1"), read("10+100ms"));
        assert_eq!(parse_clock_option("inf").unwrap(), None);
        assert_eq!(parse_clock_option("INF").unwrap(), None);
        assert_eq!(parse_clock_option("2+0.05").unwrap(), Some(read("2+0.05")));
        for (bad, want) in [
            ("0/60+1", "moves of a period"),
            ("x/60", "moves of a period"),
            ("-3/60", "moves of a period"),
            ("40/", "base time is missing"),
            ("40/+1", "base time is missing"),
            ("40/0+1", "above zero"),
            ("0+0.05", "above zero"),
            ("1:75", "minutes:seconds"),
            ("1.5:00", "minutes:seconds"),
            ("90000", "over a day"),
            ("2+90000", "over a day"),
            ("2+-1", "increment"),
            ("2+0.05+1", "increment"),
            ("inf+1", "base time"),
            ("40/inf", "base time"),
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("40/60+0.5"), "{bad}: {e}");
        }
        assert!(parse_clock_option("infinite").is_err());
    }

    #[test]
    fn a_period_adds_its_time_after_its_last_move() {
        let mut c = ClockState::start_of("2/10+1".parse().unwrap());
        assert_eq!(c.period.unwrap().moves_to_go, 2);
        c.after_move(ms(3000));
        assert_eq!((c.remaining, c.period.unwrap().moves_to_go), (ms(8000), 1));
        // The period's last move: its 10 s come for the next two.
        c.after_move(ms(4000));
        assert_eq!(
            (c.remaining, c.period.unwrap().moves_to_go),
            (ms(15_000), 2)
        );
        // One move to go in its period: the time manager plans for it and one more.
        let last = ClockState {
            remaining: ms(10_000),
            increment: ms(0),
            period: Some(Period {
                moves_to_go: 1,
                moves: 40,
                time: ms(10_000),
            }),
        };
        assert_eq!(move_time(last), ms(5000));
        let mut fischer = ClockState::start_of("10+1".parse().unwrap());
        fischer.after_move(ms(3000));
        assert_eq!((fischer.remaining, fischer.period), (ms(8000), None));
    }

    #[test]
    fn the_time_manager_spends_a_share_and_keeps_a_margin() {
        let at = |remaining, increment| {
            move_time(ClockState {
                remaining: ms(remaining),
                increment: ms(increment),
                period: None,
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
