//! Players: the trait the arena drives for any game, the factory trait that builds one per
//! game, the per-move budget, and the typed errors of a player.

use crate::clock::{move_time, ClockState, TimeControl};
use crate::duration::format_duration;
use crate::setup::SetupError;
use quasar_core::Game;
use quasar_core::Limit;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What a player's search said about the move it chose, for records and reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// The mover's expected score in `[0, 1]` (1: a certain win): MCTS's value, alpha-beta's
    /// evaluation through the game's logistic scale, 1 or 0 for a proven result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// MCTS's simulations for this move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sims: Option<u64>,
    /// Alpha-beta's deepest finished iteration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Alpha-beta's score as it prints it (`+35`, `win within 5 plies`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// The principal variation in the game's notation, from the move played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
}

impl MoveInfo {
    /// What an MCTS search of `pos` reported.
    pub fn of_mcts<G: Game>(pos: &G, r: &mcts::Report<G::Move>) -> MoveInfo {
        MoveInfo {
            value: Some(round3(r.value)),
            sims: Some(r.simulations),
            pv: line_texts(pos, &r.pv),
            ..MoveInfo::default()
        }
    }

    /// What an alpha-beta search of `pos` reported; `scale` maps its evaluation to a value.
    pub fn of_alphabeta<G: Game>(pos: &G, r: &alphabeta::Report<G::Move>, scale: f64) -> MoveInfo {
        let value = match r.score {
            alphabeta::Score::Eval(v) => quasar_core::win_chance(v, scale),
            alphabeta::Score::Proven { result, .. } => result.score(),
        };
        MoveInfo {
            value: Some(round3(value)),
            depth: Some(r.depth),
            score: Some(r.score.to_string()),
            pv: line_texts(pos, &r.pv),
            ..MoveInfo::default()
        }
    }

    /// The info as a record's move comment: `value 0.620, 1234 sims` (no principal variation).
    pub fn comment(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = self.value {
            parts.push(format!("value {v:.3}"));
        }
        if let Some(s) = &self.score {
            parts.push(format!("score {s}"));
        }
        if let Some(n) = self.sims {
            parts.push(format!("{n} sims"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        parts.join(", ")
    }
}

/// Three decimals are all a record keeps: enough for a curve, short in a file.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The texts of a line of moves played one after another from `pos`.
pub fn line_texts<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    let mut legal = Vec::new();
    for &mv in line {
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(pos.move_text(mv));
        pos.play(mv);
    }
    out
}

/// The budget of one move: the limit the player should aim for, and the longest the arena
/// waits before the move counts as an overrun (which loses the game); under a clock, what
/// the mover's clock shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the player is asked to spend (under a clock: at most the time left).
    pub limit: Limit,
    /// A move that takes longer than this (wall clock, as the arena measures it) loses.
    pub max_wait: Duration,
    /// The mover's clock, when the game has one.
    pub clock: Option<ClockState>,
}

impl Budget {
    /// A budget whose overrun limit is `limit` plus `tolerance` for time limits, and
    /// `sims_safeguard` for simulation limits (so a hung engine cannot stall a match).
    pub fn new(limit: Limit, tolerance: Duration, sims_safeguard: Duration) -> Budget {
        let max_wait = match limit {
            Limit::Time(t) => t + tolerance,
            Limit::Count(_) => sims_safeguard,
        };
        Budget {
            limit,
            max_wait,
            clock: None,
        }
    }

    /// The budget of a move with `clock` showing: the move may take all the time left plus
    /// `tolerance` before it loses on time.
    pub fn on_clock(clock: ClockState, tolerance: Duration) -> Budget {
        Budget {
            limit: Limit::Time(clock.remaining),
            max_wait: clock.remaining + tolerance,
            clock: Some(clock),
        }
    }

    /// The budget of a game's first move under `tc`.
    pub fn start_of(tc: TimeControl, tolerance: Duration) -> Budget {
        Budget::on_clock(ClockState::start_of(tc), tolerance)
    }

    /// The limit a built-in player searches this move under: the fixed limit, or under a
    /// clock the time manager's share of the time left ([`move_time`]).
    pub fn move_limit(&self) -> Limit {
        match self.clock {
            Some(clock) => Limit::Time(move_time(clock)),
            None => self.limit,
        }
    }
}

/// Why a player could not be built, or could not give a move.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The game setup refused the player (a missing or unsuitable table, a policy switch).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An external program could not be started.
    #[error("cannot start GTP engine '{command}': {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The player resigned the game.
    #[error("resigned")]
    Resigned,
    /// The player answered with text that is not a legal move here.
    #[error("'{player}' answered with '{answer}': {reason}")]
    Illegal {
        /// The player's name.
        player: String,
        /// The answer as given.
        answer: String,
        /// Why it is not a legal move.
        reason: String,
    },
    /// The player gave no answer within the wait the budget allows.
    #[error("no answer within {}", format_duration(*.0))]
    NoAnswer(Duration),
    /// An external program exited or closed its pipes.
    #[error("GTP engine '{engine}' {what}{status}{stderr}")]
    Crashed {
        /// The engine's command line.
        engine: String,
        /// What it was doing (`exited during 'genmove b'`).
        what: String,
        /// Its exit status, as ` (exit status: 3)`, when known.
        status: String,
        /// The end of its standard error, as `; its stderr ended with: ...`, when any.
        stderr: String,
    },
    /// An external program answered a command with an error or with something not GTP.
    #[error("GTP engine '{engine}' {what}")]
    Protocol {
        /// The engine's command line.
        engine: String,
        /// What went wrong (`refused 'boardsize 6': unacceptable size`).
        what: String,
    },
    /// The player found no move although the game is not over.
    #[error("found no legal move")]
    NoMove,
    /// An external engine failed at its first command of a game (it died at once, or
    /// refused or never answered it): no game can be played with it.
    #[error("could not start a game: {0}")]
    NotStarted(Box<PlayerError>),
}

/// A participant in games of `G`: it is told the opening, asked for moves, and shown the
/// opponent's replies (so a player that keeps a search tree can reuse it).
///
/// The arena calls, per game: [`Player::new_game`] once, then for each ply either
/// [`Player::choose`] (its own turn; the returned move is then played if legal) or
/// [`Player::opponent_played`] (the other side's move).
pub trait Player<G: Game>: Send {
    /// A short name for tables and records.
    fn name(&self) -> String;

    /// Starts a new game from `start` after the opening moves `opening` (already played);
    /// a player that keeps nothing from one game to the next has nothing to do.
    fn new_game(&mut self, start: &G, opening: &[G::Move]) -> Result<(), PlayerError> {
        let _ = (start, opening);
        Ok(())
    }

    /// The move to play in `pos` (this player's turn) within `budget`.
    fn choose(&mut self, pos: &G, budget: &Budget) -> Result<G::Move, PlayerError>;

    /// What the search behind the last [`Player::choose`] found; `None` for a player that
    /// does not say (random moves, external engines).
    fn last_info(&mut self) -> Option<MoveInfo> {
        None
    }

    /// The opponent played `mv` in `before`.
    fn opponent_played(&mut self, before: &G, mv: G::Move) -> Result<(), PlayerError> {
        let _ = (before, mv);
        Ok(())
    }
}

/// Builds a fresh [`Player`] for every game from what it loaded once (a table is loaded
/// once per match and shared by every game, every thread).
pub trait PlayerFactory<G: Game>: Send + Sync {
    /// The name of the players it builds.
    fn name(&self) -> String;

    /// The limit this player's spec sets, overriding the match's (`time=`/`sims=` keys).
    fn own_limit(&self) -> Option<Limit> {
        None
    }

    /// The clock this player's spec sets, overriding the match's limit or clock (`tc=`).
    fn own_clock(&self) -> Option<TimeControl> {
        None
    }

    /// A player for one game; `seed` differs per game and side so games differ but repeat.
    fn make(&self, seed: u64) -> Result<Box<dyn Player<G>>, PlayerError>;
}
