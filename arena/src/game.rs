//! One game between two players from an opening, with a wall-clock time per move, losses
//! for illegal moves, overruns and failures, and a ply cap as a safeguard.

use crate::player::{format_duration, Budget, Player, PlayerError};
use breakthrough::{Move, Position};
use quasar_core::{Outcome, Side};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A piece reached the far row.
    Goal,
    /// One side lost its last piece.
    AllCaptured,
    /// The side to move had no legal move.
    NoMoves,
    /// A player chose a move that is not legal.
    Illegal,
    /// A player took longer than its budget plus the tolerance.
    Overrun,
    /// A player resigned.
    Resigned,
    /// A player failed (an external engine crashed or refused a command).
    Error,
    /// The ply cap was reached; scored as a draw.
    PlyCap,
}

/// A finished game: the result, why, and the moves with the time each took.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Who won.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: Reason,
    /// Words for a forfeit (the illegal move, the overrun, the engine's error).
    pub detail: Option<String>,
    /// The moves played after the opening.
    pub moves: Vec<Move>,
    /// Wall-clock time of each move in `moves`.
    pub times: Vec<Duration>,
}

/// Plays one game: `players[side.index()]` plays `side`, from `start` after the `opening`
/// moves (which must be legal), each move within its side's `budgets` entry.
///
/// A game always finishes: every failure of a player is a loss for that player.
pub fn play_game(
    players: [&mut dyn Player; 2],
    start: &Position,
    opening: &[Move],
    budgets: [Budget; 2],
    ply_cap: u32,
) -> PlayedGame {
    let mut pos = *start;
    for &mv in opening {
        pos.make_move(mv);
    }
    let mut game = PlayedGame {
        outcome: Outcome::Draw,
        reason: Reason::PlyCap,
        detail: None,
        moves: Vec::new(),
        times: Vec::new(),
    };
    for side in [Side::First, Side::Second] {
        if let Err(e) = players[side.index()].new_game(start, opening) {
            return forfeit(game, side, &e, "could not start the game");
        }
    }
    let mut legal = Vec::new();
    loop {
        if let Some(outcome) = pos.result() {
            game.outcome = outcome;
            game.reason = natural_reason(&pos, outcome);
            return game;
        }
        if game.moves.len() as u32 >= ply_cap {
            game.outcome = Outcome::Draw;
            game.reason = Reason::PlyCap;
            game.detail = Some(format!("stopped after {ply_cap} plies"));
            return game;
        }
        let side = pos.side();
        let budget = budgets[side.index()];
        let clock = Instant::now();
        let choice = players[side.index()].choose(&pos, &budget);
        let took = clock.elapsed();
        let mv = match choice {
            Ok(mv) => mv,
            Err(e) => return forfeit(game, side, &e, "failed to move"),
        };
        if took > budget.max_wait {
            let text = pos.format_move(mv);
            return forfeit(
                game,
                side,
                &PlayerError::NoAnswer(budget.max_wait),
                &format!("played {text} after {}", format_millis(took)),
            );
        }
        pos.generate_moves(&mut legal);
        if !legal.contains(&mv) {
            let b = pos.board();
            let detail = format!(
                "chose {}-{}, which is not legal in {}",
                b.square_name(mv.from),
                b.square_name(mv.to),
                pos.to_fen()
            );
            game.outcome = Outcome::Win(side.opponent());
            game.reason = Reason::Illegal;
            game.detail = Some(detail);
            return game;
        }
        let other = side.opponent();
        if let Err(e) = players[other.index()].opponent_played(&pos, mv) {
            return forfeit(game, other, &e, "failed to take the opponent's move");
        }
        pos.make_move(mv);
        game.moves.push(mv);
        game.times.push(took);
    }
}

/// Milliseconds with three decimals, for messages.
fn format_millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Ends `game` as a loss for `loser` with the reason that `error` implies.
fn forfeit(mut game: PlayedGame, loser: Side, error: &PlayerError, context: &str) -> PlayedGame {
    game.outcome = Outcome::Win(loser.opponent());
    let (reason, detail) = match error {
        PlayerError::Resigned => (Reason::Resigned, "resigned".to_string()),
        PlayerError::NoAnswer(limit) => (
            Reason::Overrun,
            format!("{context}: allowed {}", format_duration(*limit)),
        ),
        PlayerError::Illegal(msg) => (Reason::Illegal, msg.clone()),
        PlayerError::Engine(msg) | PlayerError::Unavailable(msg) => {
            (Reason::Error, format!("{context}: {msg}"))
        }
    };
    game.reason = reason;
    game.detail = Some(detail);
    game
}

/// The reason of a game that ended by the rules.
fn natural_reason(pos: &Position, outcome: Outcome) -> Reason {
    let board = pos.board();
    match outcome {
        Outcome::Win(Side::First) if pos.white() & board.last_row() != 0 => Reason::Goal,
        Outcome::Win(Side::Second) if pos.black() & board.first_row() != 0 => Reason::Goal,
        Outcome::Win(_) if pos.white() == 0 || pos.black() == 0 => Reason::AllCaptured,
        _ => Reason::NoMoves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{Limit, RandomPlayer};
    use breakthrough::Board;

    fn budget(ms: u64) -> Budget {
        Budget::new(
            Limit::Time(Duration::from_millis(ms)),
            Duration::from_millis(ms),
            Duration::from_secs(1),
        )
    }

    /// Plays a fixed list of moves, whatever they are.
    struct Scripted {
        moves: Vec<Move>,
        delay: Duration,
        seen: Vec<Move>,
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn new_game(&mut self, _: &Position, _: &[Move]) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, _: &Position, _: &Budget) -> Result<Move, PlayerError> {
            std::thread::sleep(self.delay);
            if self.moves.is_empty() {
                return Err(PlayerError::Resigned);
            }
            Ok(self.moves.remove(0))
        }
        fn opponent_played(&mut self, _: &Position, mv: Move) -> Result<(), PlayerError> {
            self.seen.push(mv);
            Ok(())
        }
    }

    fn start() -> Position {
        Position::start(Board::new(6, 6).unwrap())
    }

    #[test]
    fn random_games_end_by_the_rules() {
        for seed in 0..20 {
            let (mut a, mut b) = (RandomPlayer::new(seed), RandomPlayer::new(seed + 100));
            let g = play_game([&mut a, &mut b], &start(), &[], [budget(50); 2], 1000);
            // Replaying the moves with the rules must end the game with the same winner.
            let mut pos = start();
            for &mv in &g.moves {
                assert!(pos.result().is_none());
                pos.make_move(mv);
            }
            assert_eq!(pos.result(), Some(g.outcome));
            assert!(matches!(
                g.reason,
                Reason::Goal | Reason::AllCaptured | Reason::NoMoves
            ));
            assert_eq!(g.times.len(), g.moves.len());
        }
    }

    #[test]
    fn illegal_move_loses() {
        let pos = start();
        let bad = Move { from: 0, to: 18 }; // a1 to a4: three rows at once
        let mut white = Scripted {
            moves: vec![bad],
            delay: Duration::ZERO,
            seen: vec![],
        };
        let mut black = RandomPlayer::new(1);
        let g = play_game([&mut white, &mut black], &pos, &[], [budget(50); 2], 1000);
        assert_eq!(g.outcome, Outcome::Win(Side::Second));
        assert_eq!(g.reason, Reason::Illegal);
        assert!(g.moves.is_empty());
        assert!(g.detail.unwrap().contains("a1-a4"));
    }

    #[test]
    fn overrun_loses_and_tolerance_forgives() {
        let pos = start();
        let mv = pos.parse_move_text("a2-a3").unwrap();
        // 60 ms on a 10 ms budget with 10 ms tolerance: lost.
        let mut slow = Scripted {
            moves: vec![mv],
            delay: Duration::from_millis(60),
            seen: vec![],
        };
        let mut black = RandomPlayer::new(1);
        let g = play_game([&mut slow, &mut black], &pos, &[], [budget(10); 2], 1000);
        assert_eq!(g.outcome, Outcome::Win(Side::Second));
        assert_eq!(g.reason, Reason::Overrun);
        // 5 ms on a 10 ms budget: fine; the game goes on (and black's move is shown to white).
        let mut quick = Scripted {
            moves: vec![mv],
            delay: Duration::from_millis(5),
            seen: vec![],
        };
        let mut black = RandomPlayer::new(1);
        let g = play_game([&mut quick, &mut black], &pos, &[], [budget(50); 2], 1000);
        assert_eq!(g.moves.len(), 2, "white resigns at its second move");
        assert_eq!(g.reason, Reason::Resigned);
        assert_eq!(quick.seen, vec![g.moves[1]]);
    }

    #[test]
    fn ply_cap_draws() {
        let (mut a, mut b) = (RandomPlayer::new(3), RandomPlayer::new(4));
        let g = play_game([&mut a, &mut b], &start(), &[], [budget(50); 2], 3);
        assert_eq!(g.outcome, Outcome::Draw);
        assert_eq!(g.reason, Reason::PlyCap);
        assert_eq!(g.moves.len(), 3);
    }
}
