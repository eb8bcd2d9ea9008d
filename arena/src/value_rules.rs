//! Resign and draw adjudication by the players' own values, as cutechess-cli's `-resign`
//! and `-draw` do: a game ends when both players' searches agree, move after move, that
//! one side is lost (`movecount=N,score=S`) or that the game is even
//! (`movenumber=M,movecount=N,score=S`). The values are each mover's expected score in
//! `[0, 1]` ([`engine::player::MoveInfo::value`]); a move without one breaks the run, so a
//! player that reports none (an external engine) is never adjudicated this way.

use quasar_core::{Game, Outcome, Side};
use std::fmt;
use std::str::FromStr;

/// The most moves a rule may ask for: more is a typing error.
pub const MAX_MOVES: u32 = 10_000;

/// Ends a game as lost for a side when, for `moves` consecutive moves of each player, each
/// mover's value says that side's expected score is at most `score`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignRule {
    /// Moves of each player the values must agree for (cutechess-cli's `movecount`).
    pub moves: u32,
    /// The losing side's expected score at or below which it is lost (0 to below 0.5).
    pub score: f64,
}

/// Ends a game as a draw when, after move `after` (full moves: one of each side, the
/// opening's included), for `moves` consecutive moves of each player, each mover's value
/// is within `score` of even (0.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRule {
    /// Full moves played before the values start to count (cutechess-cli's `movenumber`).
    pub after: u32,
    /// Moves of each player the values must agree for (`movecount`).
    pub moves: u32,
    /// How far from 0.5 each value may be (0 to below 0.5).
    pub score: f64,
}

/// A rule's text that does not read; the message names the key and what it takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why} (write {usage})")]
pub struct RuleError {
    /// What is wrong.
    pub why: String,
    /// The rule's form.
    pub usage: &'static str,
}

const RESIGN_USAGE: &str = "movecount=N,score=S, e.g. movecount=3,score=0.05: S is the losing \
                            side's expected score, from 0 to below 0.5";
const DRAW_USAGE: &str = "movenumber=M,movecount=N,score=S, e.g. movenumber=20,movecount=5,\
                          score=0.05: S is the most each value may be from 0.5, from 0 to \
                          below 0.5";

/// Reads `key=value,...` with the keys `keys` (each at most once; all but `movenumber`
/// required) into their values in the order of `keys`.
fn read_keys<const N: usize>(
    text: &str,
    keys: [&'static str; N],
    fail: &dyn Fn(String) -> RuleError,
) -> Result<[Option<String>; N], RuleError> {
    let mut values: [Option<String>; N] = std::array::from_fn(|_| None);
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(fail(format!("'{item}' is not key=value")));
        };
        let key = key.trim();
        let Some(at) = keys.iter().position(|k| *k == key) else {
            return Err(fail(format!(
                "unknown key '{key}' (keys: {})",
                keys.join(", ")
            )));
        };
        if values[at].is_some() {
            return Err(fail(format!("'{key}' is given twice")));
        }
        values[at] = Some(value.trim().to_string());
    }
    for (key, value) in keys.iter().zip(&values) {
        if value.is_none() && *key != "movenumber" {
            return Err(fail(format!("'{key}' is missing")));
        }
    }
    Ok(values)
}

/// A count of moves from 1 to [`MAX_MOVES`] (from 0 where `zero` allows).
fn count(
    key: &str,
    value: &str,
    zero: bool,
    fail: &dyn Fn(String) -> RuleError,
) -> Result<u32, RuleError> {
    let low = u32::from(!zero);
    match value.parse::<u32>() {
        Ok(n) if (low..=MAX_MOVES).contains(&n) => Ok(n),
        _ => Err(fail(format!(
            "{key}={value}: give a whole number of moves from {low} to {MAX_MOVES}"
        ))),
    }
}

/// An expected-score threshold from 0 to below 0.5.
fn threshold(value: &str, fail: &dyn Fn(String) -> RuleError) -> Result<f64, RuleError> {
    match value.parse::<f64>() {
        Ok(s) if (0.0..0.5).contains(&s) => Ok(s),
        _ => Err(fail(format!(
            "score={value}: give an expected score from 0 to below 0.5"
        ))),
    }
}

impl FromStr for ResignRule {
    type Err = RuleError;
    /// Reads `movecount=N,score=S`.
    fn from_str(text: &str) -> Result<ResignRule, RuleError> {
        let fail = |why| RuleError {
            why,
            usage: RESIGN_USAGE,
        };
        let [moves, score] = read_keys(text, ["movecount", "score"], &fail)?;
        Ok(ResignRule {
            moves: count("movecount", moves.as_deref().unwrap_or(""), false, &fail)?,
            score: threshold(score.as_deref().unwrap_or(""), &fail)?,
        })
    }
}

impl FromStr for DrawRule {
    type Err = RuleError;
    /// Reads `movenumber=M,movecount=N,score=S` (`movenumber` 0 when left out).
    fn from_str(text: &str) -> Result<DrawRule, RuleError> {
        let fail = |why| RuleError {
            why,
            usage: DRAW_USAGE,
        };
        let [after, moves, score] = read_keys(text, ["movenumber", "movecount", "score"], &fail)?;
        Ok(DrawRule {
            after: match after {
                Some(m) => count("movenumber", &m, true, &fail)?,
                None => 0,
            },
            moves: count("movecount", moves.as_deref().unwrap_or(""), false, &fail)?,
            score: threshold(score.as_deref().unwrap_or(""), &fail)?,
        })
    }
}

impl fmt::Display for ResignRule {
    /// `movecount=3,score=0.05`, as [`ResignRule::from_str`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movecount={},score={}", self.moves, self.score)
    }
}

impl fmt::Display for DrawRule {
    /// `movenumber=20,movecount=5,score=0.05`, as [`DrawRule::from_str`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movenumber={},movecount={},score={}",
            self.after, self.moves, self.score
        )
    }
}

/// Slack for values that records round to three decimals (0.55 is within 0.05 of even).
const EPSILON: f64 = 1e-9;

/// The resign and draw rules of a match (either, both or none).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ValueRules {
    /// The resign rule (`--resign`).
    pub resign: Option<ResignRule>,
    /// The draw rule (`--draw`).
    pub draw: Option<DrawRule>,
}

impl fmt::Display for ValueRules {
    /// `resign movecount=3,score=0.05; draw movenumber=20,movecount=5,score=0.05`, or
    /// `none`: how records name the rules a match ran under.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.resign, self.draw) {
            (None, None) => f.write_str("none"),
            (Some(r), None) => write!(f, "resign {r}"),
            (None, Some(d)) => write!(f, "draw {d}"),
            (Some(r), Some(d)) => write!(f, "resign {r}; draw {d}"),
        }
    }
}

/// One game's runs of agreeing values, fed each move as it is played.
#[derive(Clone, Debug, Default)]
pub struct ValueWatch {
    rules: ValueRules,
    /// The side the last moves' values call lost, and for how many plies in a row.
    losing: Option<(Side, u32)>,
    /// Plies in a row whose values were within the draw rule's margin.
    even: u32,
}

impl ValueWatch {
    /// A watch of one game under `rules`.
    pub fn new(rules: ValueRules) -> ValueWatch {
        ValueWatch {
            rules,
            ..ValueWatch::default()
        }
    }

    /// Takes the move just played by `mover` with its `value` (none breaks every run);
    /// `plies` counts the game's plies so far, this move and the opening's included.
    /// Returns the result and the words for the record when a rule ends the game.
    pub fn played<G: Game>(
        &mut self,
        mover: Side,
        value: Option<f64>,
        plies: usize,
    ) -> Option<(Outcome, String)> {
        if let Some(rule) = self.rules.resign {
            let lost = value.and_then(|v| match () {
                _ if v <= rule.score + EPSILON => Some(mover),
                _ if v >= 1.0 - rule.score - EPSILON => Some(mover.opponent()),
                _ => None,
            });
            self.losing = match (lost, self.losing) {
                (Some(side), Some((s, n))) if s == side => Some((side, n + 1)),
                (Some(side), _) => Some((side, 1)),
                (None, _) => None,
            };
            if let Some((side, n)) = self.losing {
                if n >= 2 * rule.moves {
                    return Some((
                        Outcome::Win(side.opponent()),
                        format!(
                            "resign rule ({rule}): both players' values gave {} an expected \
                             score of at most {} for {} moves each",
                            G::side_name(side),
                            rule.score,
                            rule.moves
                        ),
                    ));
                }
            }
        }
        if let Some(rule) = self.rules.draw {
            // A ply counts once the game is past move `after`: both sides moved `after` times.
            let counts = plies > 2 * rule.after as usize;
            self.even = match value {
                Some(v) if counts && (v - 0.5).abs() <= rule.score + EPSILON => self.even + 1,
                _ => 0,
            };
            if self.even >= 2 * rule.moves {
                return Some((
                    Outcome::Draw,
                    format!(
                        "draw rule ({rule}): both players' values were within {} of even for \
                         {} moves each after move {}",
                        rule.score, rule.moves, rule.after
                    ),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use breakthrough::Position;

    fn feed(rules: ValueRules, values: &[Option<f64>]) -> Option<(usize, Outcome)> {
        let mut w = ValueWatch::new(rules);
        let mut mover = Side::First;
        for (i, &v) in values.iter().enumerate() {
            if let Some((o, _)) = w.played::<Position>(mover, v, i + 1) {
                return Some((i, o));
            }
            mover = mover.opponent();
        }
        None
    }

    #[test]
    fn rules_read_their_keys_and_refuse_bad_values() {
        let r: ResignRule = "movecount=3, score=0.05".parse().unwrap();
        assert_eq!((r.moves, r.score), (3, 0.05));
        assert_eq!(r.to_string().parse::<ResignRule>().unwrap(), r);
        let d: DrawRule = "movecount=5,score=0.1".parse().unwrap();
        assert_eq!((d.after, d.moves, d.score), (0, 5, 0.1));
        let d: DrawRule = "movenumber=20,movecount=5,score=0".parse().unwrap();
        assert_eq!((d.after, d.moves, d.score), (20, 5, 0.0));
        for (bad, want) in [
            ("score=0.05", "'movecount' is missing"),
            ("movecount=3", "'score' is missing"),
            (
                "movecount=0,score=0.05",
                "movecount=0: give a whole number of moves from 1",
            ),
            ("movecount=-2,score=0.05", "movecount=-2"),
            (
                "movecount=3,score=0.5",
                "score=0.5: give an expected score from 0 to below 0.5",
            ),
            ("movecount=3,score=-0.1", "score=-0.1"),
            ("movecount=3,score=NaN", "score=NaN"),
            ("movecount=3,score=500", "score=500"),
            (
                "movecount=3,score=0.1,twosided=true",
                "unknown key 'twosided'",
            ),
            (
                "movecount=3,movecount=4,score=0.1",
                "'movecount' is given twice",
            ),
            ("movecount", "'movecount' is not key=value"),
            (
                "movenumber=3,movecount=1,score=0.1",
                "unknown key 'movenumber'",
            ),
        ] {
            let e = bad.parse::<ResignRule>().unwrap_err().to_string();
            assert!(
                e.starts_with(want) && e.contains("movecount=N,score=S"),
                "{bad}: {e}"
            );
        }
        let e = "movenumber=x,movecount=1,score=0.1"
            .parse::<DrawRule>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("movenumber=x: give a whole number of moves from 0"),
            "{e}"
        );
        assert!(e.contains("movenumber=M,movecount=N,score=S"), "{e}");
    }

    #[test]
    fn the_resign_rule_needs_both_players_for_its_count() {
        let rules = ValueRules {
            resign: Some(ResignRule {
                moves: 2,
                score: 0.1,
            }),
            draw: None,
        };
        // First's values (even plies) say First is lost, Second's (odd plies) agree:
        // the fourth such ply, the second move of each, ends the game for Second.
        let lost = [
            Some(0.5),
            Some(0.6),
            Some(0.1),
            Some(0.95),
            Some(0.02),
            Some(0.9),
        ];
        assert_eq!(feed(rules, &lost), Some((5, Outcome::Win(Side::Second))));
        // One move without a value, or one disagreeing, starts the count again.
        let broken = [Some(0.1), Some(0.9), None, Some(0.9), Some(0.1), Some(0.9)];
        assert_eq!(feed(rules, &broken), None);
        let broken = [
            Some(0.1),
            Some(0.9),
            Some(0.11),
            Some(0.9),
            Some(0.1),
            Some(0.9),
        ];
        assert_eq!(feed(rules, &broken), None);
        // Turning from one side to the other starts the count again.
        let turned = [
            Some(0.1),
            Some(0.9),
            Some(0.9),
            Some(0.1),
            Some(0.9),
            Some(0.1),
        ];
        assert_eq!(feed(rules, &turned), Some((5, Outcome::Win(Side::First))));
    }

    #[test]
    fn the_draw_rule_counts_after_its_move_number() {
        let rules = ValueRules {
            resign: None,
            draw: Some(DrawRule {
                after: 1,
                moves: 1,
                score: 0.05,
            }),
        };
        // The first two plies are move 1: they do not count; plies 3 and 4 do.
        let even = [Some(0.5), Some(0.5), Some(0.55), Some(0.45)];
        assert_eq!(feed(rules, &even), Some((3, Outcome::Draw)));
        let off = [Some(0.5), Some(0.5), Some(0.56), Some(0.5), None, Some(0.5)];
        assert_eq!(feed(rules, &off), None);
    }
}
