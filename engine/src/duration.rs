//! Durations as people write them (`500ms`, `1.5s`, `900us`, `1m`): the one reader behind
//! every option and spec, and the one writer of the short form records use.

use std::time::Duration;

/// The longest duration accepted: about 115 days, far beyond any sensible time per move.
const MAX_SECONDS: u64 = 10_000_000;

/// Why a duration could not be read; each message quotes the text and shows a good one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// A number without a unit, such as `500`.
    #[error("bad duration '{text}': give a unit, for example 500ms, 2s or 1.5s (a number alone has no unit)")]
    NoUnit {
        /// The text as given.
        text: String,
    },
    /// Text that is not a number followed by a unit.
    #[error("bad duration '{text}': {reason}; write for example 500ms, 2s or 1.5s")]
    Malformed {
        /// The text as given.
        text: String,
        /// What the reader found wrong.
        reason: String,
    },
    /// Zero: no move can be made in no time.
    #[error("bad duration '{text}': it must be above zero")]
    Zero {
        /// The text as given.
        text: String,
    },
    /// Longer than 10^7 seconds.
    #[error("bad duration '{text}': at most {MAX_SECONDS} seconds")]
    TooLong {
        /// The text as given.
        text: String,
    },
}

/// Reads a positive duration with a unit: `500ms`, `2s`, `1.5s`, `900us`, `1m`, `1min`.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let t = text.trim();
    let owned = || text.to_string();
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(DurationError::NoUnit { text: owned() });
    }
    let d = humantime::parse_duration(t).map_err(|e| DurationError::Malformed {
        text: owned(),
        reason: e.to_string(),
    })?;
    if d.is_zero() {
        return Err(DurationError::Zero { text: owned() });
    }
    if d > Duration::from_secs(MAX_SECONDS) {
        return Err(DurationError::TooLong { text: owned() });
    }
    Ok(d)
}

/// A duration as `100ms`, `2s` or `250us`: the shortest exact text that reads back (to the
/// microsecond), without the spaces of humantime's longer form, so it fits specs and records.
pub fn format_duration(d: Duration) -> String {
    let micros = d.as_micros();
    if micros.is_multiple_of(1_000_000) {
        format!("{}s", micros / 1_000_000)
    } else if micros.is_multiple_of(1000) {
        format!("{}ms", micros / 1000)
    } else {
        format!("{micros}us")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_the_readme_offers_reads() {
        let ms = Duration::from_millis;
        assert_eq!(parse_duration("500ms"), Ok(ms(500)));
        assert_eq!(parse_duration("2s"), Ok(ms(2000)));
        assert_eq!(parse_duration("1.5s"), Ok(ms(1500)));
        assert_eq!(parse_duration("1m"), Ok(ms(60_000)));
        assert_eq!(parse_duration("1min"), Ok(ms(60_000)));
        assert_eq!(parse_duration("900us"), Ok(Duration::from_micros(900)));
        assert_eq!(parse_duration(" 100ms "), Ok(ms(100)));
    }

    #[test]
    fn bad_durations_say_why() {
        let cases = [
            ("500", "give a unit"),
            ("1.5", "no unit"),
            ("abc", "bad duration 'abc'"),
            ("-1s", "bad duration '-1s'"),
            ("0s", "above zero"),
            ("ms", "bad duration 'ms'"),
            ("nans", "bad duration 'nans'"),
            ("", "bad duration ''"),
            ("200000000s", "at most"),
        ];
        for (text, want) in cases {
            let e = parse_duration(text).expect_err(text).to_string();
            assert!(e.contains(want), "{text}: '{e}' should mention '{want}'");
        }
    }

    #[test]
    fn the_short_form_reads_back() {
        for d in [
            Duration::from_millis(100),
            Duration::from_secs(2),
            Duration::from_micros(250),
            Duration::from_millis(1500),
        ] {
            assert_eq!(parse_duration(&format_duration(d)), Ok(d));
        }
        assert_eq!(format_duration(Duration::from_millis(100)), "100ms");
        assert_eq!(format_duration(Duration::from_secs(2)), "2s");
        assert_eq!(format_duration(Duration::from_micros(250)), "250us");
    }
}
