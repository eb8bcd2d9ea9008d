//! Players: the trait the arena drives for any game, the factory trait that builds one per
//! game, the per-move budget, and the typed errors of a player.

use crate::duration::format_duration;
use crate::setup::SetupError;
use mcts::Limits;
use quasar_core::Game;
use std::time::Duration;

/// The budget of one move: the limit the player should aim for, and the longest the arena
/// waits before the move counts as an overrun (which loses the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the player is asked to spend.
    pub limit: Limits,
    /// A move that takes longer than this (wall clock, as the arena measures it) loses.
    pub max_wait: Duration,
}

impl Budget {
    /// A budget whose overrun limit is `limit` plus `tolerance` for time limits, and
    /// `sims_safeguard` for simulation limits (so a hung engine cannot stall a match).
    pub fn new(limit: Limits, tolerance: Duration, sims_safeguard: Duration) -> Budget {
        let max_wait = match limit {
            Limits::Time(t) => t + tolerance,
            Limits::Simulations(_) => sims_safeguard,
        };
        Budget { limit, max_wait }
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

    /// Starts a new game from `start` after the opening moves `opening` (already played).
    fn new_game(&mut self, start: &G, opening: &[G::Move]) -> Result<(), PlayerError>;

    /// The move to play in `pos` (this player's turn) within `budget`.
    fn choose(&mut self, pos: &G, budget: &Budget) -> Result<G::Move, PlayerError>;

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
    fn own_limit(&self) -> Option<Limits> {
        None
    }

    /// A player for one game; `seed` differs per game and side so games differ but repeat.
    fn make(&self, seed: u64) -> Result<Box<dyn Player<G>>, PlayerError>;
}
