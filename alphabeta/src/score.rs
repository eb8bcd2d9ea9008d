//! Search values: heuristic evaluations below [`EVAL_LIMIT`], proven results above it, with
//! the distance to the end of the game folded into the value so shorter wins score higher.

use quasar_core::{GameResult, EVAL_LIMIT};
use std::fmt;

/// The value of a win at the root in zero plies; a win in `p` plies is `MATE - p`.
pub const MATE: i32 = 100_000_000;
/// Larger than any value a search returns (the initial window).
pub const INFINITY: i32 = MATE + 1;
/// Values above this (in magnitude) are proven results, not evaluations.
pub const PROVEN: i32 = MATE - 10_000_000;

const _: () = assert!(PROVEN > EVAL_LIMIT);

/// A search value from the side to move's point of view, decoded for people and records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic evaluation (positive is good for the side to move).
    Eval(i32),
    /// A proven result: the side to move wins or loses within `plies` (a bound set by the
    /// search's depth; draws of a proven line score 0 and read as an evaluation).
    Proven {
        /// Win or loss for the side to move.
        result: GameResult,
        /// Plies until the game ends along the principal variation.
        plies: u32,
    },
}

/// Plies an oracle's answer without a distance counts as (a win/draw/loss database): far
/// enough that any win the search sees itself scores higher.
pub(crate) const UNKNOWN_DISTANCE: u32 = 4096;

impl Score {
    /// The plies of a proven result when its line knows them (not through a table without
    /// distances); `None` for an evaluation too.
    pub fn known_plies(&self) -> Option<u32> {
        match *self {
            Score::Proven { plies, .. } if plies < UNKNOWN_DISTANCE => Some(plies),
            _ => None,
        }
    }

    /// Reads a raw search value.
    pub fn from_value(v: i32) -> Score {
        if v > PROVEN {
            Score::Proven {
                result: GameResult::Win,
                plies: (MATE - v) as u32,
            }
        } else if v < -PROVEN {
            Score::Proven {
                result: GameResult::Loss,
                plies: (MATE + v) as u32,
            }
        } else {
            Score::Eval(v)
        }
    }
}

/// A score as a progress line shows it.
impl From<Score> for quasar_core::progress::SearchValue {
    fn from(score: Score) -> Self {
        match score {
            Score::Eval(v) => Self::Eval(v),
            Score::Proven { result, .. } => Self::Proven {
                result,
                plies: score.known_plies(),
            },
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Eval(v) => write!(f, "{v:+}"),
            // An oracle's result without a distance (a win/draw/loss database).
            Score::Proven { result, plies } if plies >= UNKNOWN_DISTANCE => match result {
                GameResult::Win => f.write_str("proven win"),
                _ => f.write_str("proven loss"),
            },
            Score::Proven { result, plies } => {
                let what = if result == GameResult::Win {
                    "win"
                } else {
                    "loss"
                };
                let unit = if plies == 1 { "ply" } else { "plies" };
                write!(f, "{what} within {plies} {unit}")
            }
        }
    }
}

/// The value of a result `plies` plies after the node at `ply` from the root, for the side
/// to move at that node.
#[inline]
pub fn proven(result: GameResult, ply: u32, plies: u32) -> i32 {
    let d = (ply + plies).min((MATE - PROVEN - 1) as u32) as i32;
    match result {
        GameResult::Win => MATE - d,
        GameResult::Loss => -(MATE - d),
        GameResult::Draw => 0,
    }
}

/// A value as stored in the transposition table: proven values relative to the node, so
/// that the same position reached at another ply reads the right distance.
#[inline]
pub fn to_table(v: i32, ply: u32) -> i32 {
    if v > PROVEN {
        v + ply as i32
    } else if v < -PROVEN {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`to_table`] at `ply`.
#[inline]
pub fn from_table(v: i32, ply: u32) -> i32 {
    if v > PROVEN {
        v - ply as i32
    } else if v < -PROVEN {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_decode_with_their_distance() {
        assert_eq!(
            Score::from_value(proven(GameResult::Win, 2, 3)),
            Score::Proven {
                result: GameResult::Win,
                plies: 5
            }
        );
        assert_eq!(
            Score::from_value(proven(GameResult::Loss, 0, 4)),
            Score::Proven {
                result: GameResult::Loss,
                plies: 4
            }
        );
        assert_eq!(Score::from_value(-EVAL_LIMIT), Score::Eval(-EVAL_LIMIT));
        let v = proven(GameResult::Win, 7, 2);
        assert_eq!(from_table(to_table(v, 7), 3), proven(GameResult::Win, 3, 2));
        assert_eq!(Score::from_value(v).to_string(), "win within 9 plies");
    }
}
