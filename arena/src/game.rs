//! One game of any two-player game between two players from an opening, with a wall-clock
//! time per move or a clock for each side, losses for illegal moves, overruns, flags and
//! failures, a ply cap, and an optional table that ends the game as soon as it proves the
//! result.

use crate::value_rules::{ValueRules, ValueWatch};
use engine::duration::format_duration;
use engine::player::{Budget, MoveInfo, Player, PlayerError};
use quasar_core::{Game, GameResult, Oracle, Outcome, Side};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a game ended, in terms every game shares; the game's own words go in the detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The game's rules gave a winner.
    Win,
    /// The game's rules gave a draw.
    Draw,
    /// A player chose a move that is not legal (or not a move).
    Illegal,
    /// A player took longer than its budget plus the tolerance, or never answered.
    Time,
    /// A player failed: an external engine exited, closed its pipes or refused a command.
    Crash,
    /// A player resigned.
    Resigned,
    /// The arena's ply cap was reached; scored as a draw.
    PlyCap,
    /// A table proved the result, or the resign or draw rule called it, before the rules
    /// ended the game.
    Adjudicated,
    /// The game was left before its end (`quasar play` at the end of its input).
    Unfinished,
}

impl EndReason {
    /// The reason as records write it (`win`, `ply-cap`).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Win => "win",
            EndReason::Draw => "draw",
            EndReason::Illegal => "illegal",
            EndReason::Time => "time",
            EndReason::Crash => "crash",
            EndReason::Resigned => "resigned",
            EndReason::PlyCap => "ply-cap",
            EndReason::Adjudicated => "adjudicated",
            EndReason::Unfinished => "unfinished",
        }
    }

    /// The reason a record names (`ply-cap`), as [`EndReason::name`] writes it.
    pub fn from_name(name: &str) -> Option<EndReason> {
        use EndReason::*;
        [
            Win,
            Draw,
            Illegal,
            Time,
            Crash,
            Resigned,
            PlyCap,
            Adjudicated,
            Unfinished,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// A finished game: the result, why, the moves with the time each took, and where it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<G: Game> {
    /// Who won.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: EndReason,
    /// Words for a forfeit (the illegal move, the overrun, the engine's error).
    pub detail: Option<String>,
    /// The moves played after the opening.
    pub moves: Vec<G::Move>,
    /// Wall-clock time of each move in `moves`.
    pub times: Vec<Duration>,
    /// What the mover's search said about each move in `moves`, when it says.
    pub infos: Vec<Option<MoveInfo>>,
    /// The time left on the mover's clock after each move in `moves` (its increment
    /// added), for a side with a clock.
    pub clocks: Vec<Option<Duration>>,
    /// The last position (finished when the rules ended the game).
    pub end: G,
}

impl<G: Game> PlayedGame<G> {
    /// A game not yet begun at `pos` (a draw by the ply cap until it ends otherwise).
    fn before(pos: G) -> PlayedGame<G> {
        PlayedGame {
            outcome: Outcome::Draw,
            reason: EndReason::PlyCap,
            detail: None,
            moves: Vec::new(),
            times: Vec::new(),
            infos: Vec::new(),
            clocks: Vec::new(),
            end: pos,
        }
    }
}

/// A player that could not start a game ([`PlayerError::NotStarted`]): no game was played.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct NotStarted {
    /// The side it was to play.
    pub side: Side,
    /// Why it could not start.
    pub error: PlayerError,
}

/// A table that ends a game as soon as it proves the result, and its name for records.
#[derive(Clone)]
pub struct Adjudicator<G: Game> {
    /// The table (only proven results count).
    pub oracle: Arc<dyn Oracle<G>>,
    /// What the record names as the proof's source (the table's file).
    pub source: String,
}

impl<G: Game> std::fmt::Debug for Adjudicator<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adjudicator")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// Plays one game: `players[side.index()]` plays `side`, from `start` after the `opening`
/// moves (which must be legal), each move within its side's `budgets` entry.
///
/// A game always finishes: every failure of a player is a loss for that player.
pub fn play_game<G: Game>(
    players: [&mut dyn Player<G>; 2],
    start: &G,
    opening: &[G::Move],
    budgets: [Budget; 2],
    ply_cap: u32,
) -> PlayedGame<G> {
    match play_adjudicated_game(
        players,
        start,
        opening,
        budgets,
        ply_cap,
        None,
        ValueRules::default(),
    ) {
        Ok(game) => game,
        Err(e) => {
            let mut pos = start.clone();
            for &mv in opening {
                pos.play(mv);
            }
            forfeit(
                PlayedGame::before(pos),
                e.side,
                &e.error,
                "could not start the game",
            )
        }
    }
}

/// [`play_game`], ended before each move where `adjudicator` proves the result (a win,
/// a draw or a loss for the side to move), or after a move where the resign or draw rule
/// of `rules` holds: the result is the proven or called one, the reason
/// [`EndReason::Adjudicated`], and the detail names the table or the rule. An error only
/// for a player that could not start the game ([`PlayerError::NotStarted`]), which no
/// game can be played with.
pub fn play_adjudicated_game<G: Game>(
    players: [&mut dyn Player<G>; 2],
    start: &G,
    opening: &[G::Move],
    budgets: [Budget; 2],
    ply_cap: u32,
    adjudicator: Option<&Adjudicator<G>>,
    rules: ValueRules,
) -> Result<PlayedGame<G>, NotStarted> {
    let mut watch = ValueWatch::new(rules);
    let mut pos = start.clone();
    for &mv in opening {
        pos.play(mv);
    }
    let mut game = PlayedGame::before(pos.clone());
    // Each clocked side's clock, and how far past its flag a move may run.
    let mut clocks = budgets.map(|b| b.clock.map(|c| (c, b.max_wait.saturating_sub(c.remaining))));
    for side in [Side::First, Side::Second] {
        match players[side.index()].new_game(start, opening) {
            Err(error @ PlayerError::NotStarted(_)) => return Err(NotStarted { side, error }),
            Err(e) => return Ok(forfeit(game, side, &e, "could not start the game")),
            Ok(()) => {}
        }
    }
    let mut legal = Vec::new();
    loop {
        if let Some(outcome) = pos.outcome() {
            game.outcome = outcome;
            game.reason = match outcome {
                Outcome::Win(_) => EndReason::Win,
                Outcome::Draw => EndReason::Draw,
            };
            game.end = pos;
            return Ok(game);
        }
        let proven = adjudicator.and_then(|a| a.oracle.probe_value(&pos));
        // A probe that met damage answered nothing: the game plays on, and the user hears
        // of it once, as a search's user does.
        if let Some(a) = adjudicator {
            engine::engine::warn_damage_once(a.oracle.damage());
        }
        if let Some(proven) = proven {
            let side = pos.side_to_move();
            game.outcome = match proven.result {
                GameResult::Win => Outcome::Win(side),
                GameResult::Loss => Outcome::Win(side.opponent()),
                GameResult::Draw => Outcome::Draw,
            };
            game.reason = EndReason::Adjudicated;
            let result = match proven.result {
                GameResult::Win => "a win for the side to move",
                GameResult::Draw => "a draw",
                GameResult::Loss => "a loss for the side to move",
            };
            game.detail = Some(format!(
                "{} proves {result} ({} to move)",
                adjudicator.map_or("", |a| a.source.as_str()),
                G::side_name(side)
            ));
            game.end = pos;
            return Ok(game);
        }
        if game.moves.len() as u32 >= ply_cap {
            game.outcome = Outcome::Draw;
            game.reason = EndReason::PlyCap;
            game.detail = Some(format!("stopped after {ply_cap} plies"));
            game.end = pos;
            return Ok(game);
        }
        let side = pos.side_to_move();
        let budget = match clocks[side.index()] {
            Some((c, tolerance)) => Budget::on_clock(c, tolerance),
            None => budgets[side.index()],
        };
        let clock = Instant::now();
        let choice = players[side.index()].choose(&pos, &budget);
        let took = clock.elapsed();
        let mv = match choice {
            Ok(mv) => mv,
            Err(e) => return Ok(forfeit(game, side, &e, "failed to move")),
        };
        let info = players[side.index()].last_info();
        if let (true, Some(c)) = (took > budget.max_wait, budget.clock) {
            game.outcome = Outcome::Win(side.opponent());
            game.reason = EndReason::Time;
            game.detail = Some(format!(
                "time forfeit: played {} after {} with {} on the clock",
                pos.move_text(mv),
                format_millis(took),
                format_millis(c.remaining)
            ));
            game.end = pos;
            return Ok(game);
        }
        if took > budget.max_wait {
            let text = pos.move_text(mv);
            return Ok(forfeit(
                game,
                side,
                &PlayerError::NoAnswer(budget.max_wait),
                &format!("played {text} after {}", format_millis(took)),
            ));
        }
        // Checked after the time: a move after the flag fell loses on time, legal or not.
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            game.outcome = Outcome::Win(side.opponent());
            game.reason = EndReason::Illegal;
            game.detail = Some(format!(
                "chose {mv:?}, which is not legal in {}",
                pos.position_text()
            ));
            game.end = pos;
            return Ok(game);
        }
        let other = side.opponent();
        if let Err(e) = players[other.index()].opponent_played(&pos, mv) {
            return Ok(forfeit(
                game,
                other,
                &e,
                "failed to take the opponent's move",
            ));
        }
        pos.play(mv);
        game.moves.push(mv);
        game.times.push(took);
        let value = info.as_ref().and_then(|i| i.value);
        game.infos.push(info);
        game.clocks
            .push(clocks[side.index()].as_mut().map(|(c, _)| {
                c.after_move(took);
                c.remaining
            }));
        game.end = pos.clone();
        let plies = opening.len() + game.moves.len();
        // The rules' own end comes first, at the top of the loop.
        if pos.outcome().is_none() {
            if let Some((outcome, detail)) = watch.played::<G>(side, value, plies) {
                game.outcome = outcome;
                game.reason = EndReason::Adjudicated;
                game.detail = Some(detail);
                return Ok(game);
            }
        }
    }
}

/// Milliseconds with three decimals, for messages.
fn format_millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Ends `game` as a loss for `loser` with the reason that `error` implies.
fn forfeit<G: Game>(
    mut game: PlayedGame<G>,
    loser: Side,
    error: &PlayerError,
    context: &str,
) -> PlayedGame<G> {
    game.outcome = Outcome::Win(loser.opponent());
    let (reason, detail) = match error {
        PlayerError::Resigned => (EndReason::Resigned, "resigned".to_string()),
        PlayerError::NoAnswer(limit) => (
            EndReason::Time,
            format!("{context}: allowed {}", format_duration(*limit)),
        ),
        PlayerError::Illegal { .. } => (EndReason::Illegal, error.to_string()),
        PlayerError::Setup(_)
        | PlayerError::Spawn { .. }
        | PlayerError::Crashed { .. }
        | PlayerError::Protocol { .. }
        | PlayerError::NoMove
        | PlayerError::NotStarted(_) => (EndReason::Crash, format!("{context}: {error}")),
    };
    game.reason = reason;
    game.detail = Some(detail);
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use breakthrough::{Board, Move, Position};
    use engine::random_player::RandomPlayer;
    use quasar_core::Limit;

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

    impl Scripted {
        /// Plays `moves`, each after `delay_ms` milliseconds.
        fn new(moves: Vec<Move>, delay_ms: u64) -> Scripted {
            Scripted {
                moves,
                delay: Duration::from_millis(delay_ms),
                seen: vec![],
            }
        }
    }

    impl Player<Position> for Scripted {
        fn name(&self) -> String {
            "scripted".into()
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

    fn random(seed: u64) -> RandomPlayer<Position> {
        RandomPlayer::new(seed)
    }

    #[test]
    fn an_adjudicator_ends_a_game_at_the_first_position_it_proves() {
        use breakthrough::BreakthroughEval;
        use quasar_core::{Evaluation, Verdicts};
        // The evaluation's verdicts prove a win for a side to move with a piece one step
        // from its goal row, and a loss for one facing such a piece it cannot capture.
        let eval = Arc::new(BreakthroughEval::new(Board::new(6, 6).unwrap()));
        let adj = Adjudicator {
            oracle: Arc::new(Verdicts(eval.clone())),
            source: "verdicts".into(),
        };
        for seed in 0..20 {
            let (mut a, mut b) = (random(seed), random(seed + 100));
            let g = play_adjudicated_game(
                [&mut a, &mut b],
                &start(),
                &[],
                [budget(50); 2],
                1000,
                Some(&adj),
                ValueRules::default(),
            )
            .unwrap();
            assert_eq!(g.reason, EndReason::Adjudicated, "seed {seed}");
            let end = &g.end;
            assert!(
                end.outcome().is_none(),
                "seed {seed}: the rules had not ended it"
            );
            let side = end.side_to_move();
            let v = eval.verdict(end).expect("the verdict that ended the game");
            let want = match v.result {
                GameResult::Win => Outcome::Win(side),
                GameResult::Loss => Outcome::Win(side.opponent()),
                GameResult::Draw => Outcome::Draw,
            };
            assert_eq!(g.outcome, want, "seed {seed}");
            // No earlier position was proven: the game ended at the first.
            let mut pos = start();
            for &mv in &g.moves {
                assert!(eval.verdict(&pos).is_none(), "seed {seed}: proven earlier");
                pos.play(mv);
            }
            assert_eq!(&pos, end);
            assert!(g.detail.as_deref().unwrap().starts_with("verdicts proves"));
        }
    }

    #[test]
    fn random_games_end_by_the_rules() {
        for seed in 0..20 {
            let (mut a, mut b) = (random(seed), random(seed + 100));
            let g = play_game([&mut a, &mut b], &start(), &[], [budget(50); 2], 1000);
            // Replaying the moves with the rules must end the game with the same winner.
            let mut pos = start();
            for &mv in &g.moves {
                assert!(pos.outcome().is_none());
                pos.play(mv);
            }
            assert_eq!(pos.outcome(), Some(g.outcome));
            assert_eq!(pos, g.end);
            assert_eq!(g.reason, EndReason::Win);
            assert_eq!(g.times.len(), g.moves.len());
        }
    }

    #[test]
    fn illegal_move_loses() {
        let pos = start();
        let bad = Move { from: 0, to: 18 }; // a1 to a4: three rows at once
        let mut white = Scripted::new(vec![bad], 0);
        let mut black = random(1);
        let g = play_game([&mut white, &mut black], &pos, &[], [budget(50); 2], 1000);
        assert_eq!(g.outcome, Outcome::Win(Side::Second));
        assert_eq!(g.reason, EndReason::Illegal);
        assert!(g.moves.is_empty());
        let d = g.detail.unwrap();
        assert!(
            d.contains("from: 0, to: 18") && d.contains("WWWWWW w"),
            "{d}"
        );
    }

    #[test]
    fn overrun_loses_and_tolerance_forgives() {
        let pos = start();
        let mv = pos.parse_move("a2-a3").unwrap();
        // 60 ms on a 10 ms budget with 10 ms tolerance: lost.
        let mut slow = Scripted::new(vec![mv], 60);
        let mut black = random(1);
        let g = play_game([&mut slow, &mut black], &pos, &[], [budget(10); 2], 1000);
        assert_eq!(g.outcome, Outcome::Win(Side::Second));
        assert_eq!(g.reason, EndReason::Time);
        assert!(g.detail.unwrap().contains("played a2-a3 after"));
        // 5 ms on a 50 ms budget: fine; the game goes on (and black's move is shown to white).
        let mut quick = Scripted::new(vec![mv], 5);
        let mut black = random(1);
        let g = play_game([&mut quick, &mut black], &pos, &[], [budget(50); 2], 1000);
        assert_eq!(g.moves.len(), 2, "white resigns at its second move");
        assert_eq!(g.reason, EndReason::Resigned);
        assert_eq!(quick.seen, vec![g.moves[1]]);
    }

    #[test]
    fn a_clock_gains_its_increment_and_a_flag_loses_on_time() {
        let pos = start();
        let moves = vec![
            pos.parse_move("a2-a3").unwrap(),
            pos.parse_move("f2-f3").unwrap(),
        ];
        let tc = |base, inc| engine::clock::TimeControl {
            base: Duration::from_millis(base),
            increment: Duration::from_millis(inc),
            moves: None,
        };
        let tolerance = Duration::from_millis(5);
        // 30 ms a move on 50 ms and no increment: the second move falls its flag.
        let mut slow = Scripted::new(moves.clone(), 30);
        let mut black = random(1);
        let budgets = [Budget::start_of(tc(50, 0), tolerance), budget(50)];
        let g = play_game([&mut slow, &mut black], &pos, &[], budgets, 1000);
        assert_eq!(g.outcome, Outcome::Win(Side::Second));
        assert_eq!(g.reason, EndReason::Time);
        assert_eq!(g.moves.len(), 2, "white's first move and black's reply");
        let left = g.clocks[0].expect("white's clock");
        assert!(left <= Duration::from_millis(20), "{left:?}");
        assert_eq!(g.clocks[1], None, "black has no clock");
        let d = g.detail.unwrap();
        assert!(d.starts_with("time forfeit: played f2-f3 after"), "{d}");
        // With a 40 ms increment the same moves keep within the clock.
        let mut slow = Scripted::new(moves, 30);
        let mut black = random(1);
        let budgets = [Budget::start_of(tc(50, 40), tolerance), budget(50)];
        let g = play_game([&mut slow, &mut black], &pos, &[], budgets, 1000);
        assert_eq!(
            g.reason,
            EndReason::Resigned,
            "white runs out of moves, not time"
        );
        let left = g.clocks[0].unwrap();
        assert!(
            left > Duration::from_millis(50) && left <= Duration::from_millis(60),
            "50 - 30 + 40: {left:?}"
        );
        assert_eq!(g.clocks.len(), 4);
    }

    #[test]
    fn ply_cap_draws() {
        let (mut a, mut b) = (random(3), random(4));
        let g = play_game([&mut a, &mut b], &start(), &[], [budget(50); 2], 3);
        assert_eq!(g.outcome, Outcome::Draw);
        assert_eq!(g.reason, EndReason::PlyCap);
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.end.outcome(), None);
    }
}
