//! Checks that a recorded game holds together: its moves are legal one after another from
//! its start, and its result is one its moves allow. A record is text anyone can edit; a
//! report or a resumed match counts only games that pass.

use crate::game::EndReason;
use crate::record::{GameRecord, Winner};
use quasar_core::{Game, Outcome, Side};

/// Why a recorded game does not hold together.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The start position does not read.
    #[error("its start position {text:?} does not read: {why}")]
    Start {
        /// The position as recorded.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A move that does not read or is not legal where it is played.
    #[error("move {ply} ({text}) is not a legal move there: {why}")]
    Move {
        /// 1-based number of the move, counted from the start position.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// A move time that no move can have taken (negative, not a number, past a day), or
    /// more times than moves.
    #[error("move {ply}'s time {} ms is not a time a move took (0 to {MAX_MOVE_MS} ms)", shown(*.ms))]
    Time {
        /// 1-based number of the move after the opening.
        ply: usize,
        /// The time as recorded.
        ms: f64,
    },
    /// More move times than moves.
    #[error("it holds {times} move times for {moves} moves")]
    TimeCount {
        /// The times recorded.
        times: usize,
        /// The moves recorded.
        moves: usize,
    },
    /// A result that the moves contradict.
    #[error("its result ({result}) contradicts its moves: {why}")]
    Result {
        /// The recorded result.
        result: String,
        /// How the moves contradict it.
        why: String,
    },
}

/// The longest time a recorded move may have taken: a day. A longer one is damage, and
/// would make a report's averages and slowest move meaningless.
pub const MAX_MOVE_MS: f64 = 86_400_000.0;

/// A time as a user reads it: plain when short, in exponent form when huge.
fn shown(ms: f64) -> String {
    if ms.abs() < 1e12 {
        format!("{ms}")
    } else {
        format!("{ms:e}")
    }
}

/// Ok when every recorded move time is one a move can have taken, one time at most a move.
pub fn check_times(rec: &GameRecord) -> Result<(), VerifyError> {
    if rec.times_ms.len() > rec.moves.len() {
        return Err(VerifyError::TimeCount {
            times: rec.times_ms.len(),
            moves: rec.moves.len(),
        });
    }
    match rec
        .times_ms
        .iter()
        .position(|ms| !(0.0..=MAX_MOVE_MS).contains(ms))
    {
        Some(i) => Err(VerifyError::Time {
            ply: i + 1,
            ms: rec.times_ms[i],
        }),
        None => Ok(()),
    }
}

/// The position reached by playing `moves` (texts in the game's notation) from `start`.
pub fn replay<G: Game>(start: &G, moves: &[String]) -> Result<G, VerifyError> {
    let mut pos = start.clone();
    let mut legal = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let illegal = |why: String| VerifyError::Move {
            ply: i + 1,
            text: text.clone(),
            why,
        };
        if pos.outcome().is_some() {
            return Err(illegal("the game was already over".into()));
        }
        let mv = pos.parse_move(text).map_err(|e| illegal(e.to_string()))?;
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(illegal("it is not among the legal moves".into()));
        }
        pos.play(mv);
    }
    Ok(pos)
}

/// The result `winner` said in words, as a record's result token (`1-0`).
fn token(winner: Winner) -> &'static str {
    match winner {
        Winner::First => "1-0",
        Winner::Second => "0-1",
        Winner::Draw => "1/2-1/2",
    }
}

/// Ok when a game that ended in `end` can have been won by `winner` for `reason`: a
/// finished position decides the result (and only a finished game ends by a win or a draw
/// on the board), and a side that lost on time, by an illegal move or by resigning is the
/// side to move. `reason` unknown (a record of another program): only a finished position
/// is checked.
pub fn check_result<G: Game>(
    end: &G,
    winner: Winner,
    reason: Option<EndReason>,
) -> Result<(), VerifyError> {
    let contradicts = |why: String| VerifyError::Result {
        result: match reason {
            Some(r) => format!("{} by {}", token(winner), r.name()),
            None => token(winner).to_string(),
        },
        why,
    };
    let name = |side: Side| G::side_name(side);
    if reason == Some(EndReason::Unfinished) {
        return Ok(());
    }
    match end.outcome() {
        Some(outcome) => {
            let (board, by) = match outcome {
                Outcome::Win(Side::First) => (Winner::First, EndReason::Win),
                Outcome::Win(Side::Second) => (Winner::Second, EndReason::Win),
                Outcome::Draw => (Winner::Draw, EndReason::Draw),
            };
            if winner != board || reason.is_some_and(|r| r != by) {
                let what = match outcome {
                    Outcome::Win(side) => format!("a win for {}", name(side)),
                    Outcome::Draw => "a draw".to_string(),
                };
                return Err(contradicts(format!("they end the game in {what}")));
            }
        }
        None => {
            let Some(reason) = reason else { return Ok(()) };
            if matches!(reason, EndReason::Win | EndReason::Draw) {
                return Err(contradicts("the game is not over after them".into()));
            }
            let mover = end.side_to_move();
            let loser_moves = matches!(
                reason,
                EndReason::Time | EndReason::Illegal | EndReason::Resigned
            );
            let mover_wins = match mover {
                Side::First => Winner::First,
                Side::Second => Winner::Second,
            };
            if loser_moves && winner != mover_wins.opponent_of() {
                return Err(contradicts(format!(
                    "{} was to move, and only the side to move loses by {}",
                    name(mover),
                    reason.name()
                )));
            }
        }
    }
    Ok(())
}

impl Winner {
    /// The other side's win; a draw stays a draw.
    fn opponent_of(self) -> Winner {
        match self {
            Winner::First => Winner::Second,
            Winner::Second => Winner::First,
            Winner::Draw => Winner::Draw,
        }
    }
}

/// Ok when the arena's record of a game holds together: from its start (the recorded one,
/// else `standard` after the opening's moves) its moves are legal and its result is one
/// they allow ([`check_result`]), and its move times are times ([`check_times`]).
pub fn check_game<G: Game>(standard: &G, rec: &GameRecord) -> Result<(), VerifyError> {
    check_times(rec)?;
    let start = match &rec.start {
        Some(text) => G::parse_position(text).map_err(|e| VerifyError::Start {
            text: text.clone(),
            why: e.to_string(),
        })?,
        None => replay(standard, &rec.opening_moves)?,
    };
    let end = replay(&start, &rec.moves)?;
    check_result(&end, rec.winner, Some(rec.reason))
}

#[cfg(test)]
mod tests {
    use super::*;
    use breakthrough::{Board, Position};

    fn start() -> Position {
        Position::start(Board::new(6, 6).unwrap())
    }

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn illegal_moves_and_contradicting_results_are_found() {
        let e = replay(&start(), &texts(&["a2-a3", "z9-z8"])).unwrap_err();
        assert!(e.to_string().starts_with("move 2 (z9-z8)"), "{e}");
        let pos = replay(&start(), &texts(&["a2-a3"])).unwrap();
        // Black is to move: only Black can lose on time, and nobody has won on the board.
        assert!(check_result(&pos, Winner::First, Some(EndReason::Time)).is_ok());
        let e = check_result(&pos, Winner::Second, Some(EndReason::Time)).unwrap_err();
        assert!(e.to_string().contains("Black was to move"), "{e}");
        assert!(check_result(&pos, Winner::First, Some(EndReason::Win)).is_err());
        assert!(check_result(&pos, Winner::Second, Some(EndReason::Crash)).is_ok());
        assert!(check_result(&pos, Winner::Second, None).is_ok());
    }

    #[test]
    fn move_times_that_no_move_took_are_found() {
        let mut rec = GameRecord::for_test("a", "b", 0);
        rec.moves = texts(&["a2-a3", "f5-f4"]);
        rec.times_ms = vec![12.5, 0.0];
        assert!(check_times(&rec).is_ok());
        for bad in [-5.0, 1e308, f64::NAN, MAX_MOVE_MS * 1.01] {
            rec.times_ms[1] = bad;
            let e = check_times(&rec).unwrap_err();
            assert!(e.to_string().starts_with("move 2's time"), "{e}");
        }
        rec.times_ms = vec![1.0; 3];
        assert!(check_times(&rec)
            .unwrap_err()
            .to_string()
            .contains("3 move times for 2 moves"));
    }
}
