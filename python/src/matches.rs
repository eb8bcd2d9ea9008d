//! Matches from Python: the arena's `run_match` with players given as the command line's
//! specs or as Python callables, and records read back with the arena's checks.

use crate::erased::{Reached, StateOf};
use arena::matchup::{run_match, Contestant, MatchConfig};
use arena::openings::{OpeningBook, OpeningsOrder};
use arena::value_rules::ValueRules;
use engine::factory::build_factory;
use engine::player::{Budget, Player, PlayerError, PlayerFactory};
use engine::spec::PlayerSpec;
use pyo3::prelude::*;
use quasar_core::Limit;
use quasar_core::{Encode, Game, Shard};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A player of a match: a spec's text, or a Python callable and its name.
pub enum Entrant {
    /// `mcts:...`, `ab:...`, `random`, `gtp:...`.
    Spec(String),
    /// A callable that takes a `State` and returns an action or a move's text.
    Callable(String, Arc<Py<PyAny>>),
}

/// The match's settings besides its game and players.
pub struct MatchArgs {
    /// Games per pairing.
    pub games: u32,
    /// Each move's limit for players whose spec sets none.
    pub limit: Limit,
    /// Random plies that make each opening, without an openings file.
    pub opening_plies: u32,
    /// An openings file.
    pub openings: Option<PathBuf>,
    /// Seeds openings and players.
    pub seed: u64,
    /// Games at once.
    pub jobs: usize,
    /// Plies after which a game is a draw.
    pub ply_cap: u32,
    /// How far past the limit a move may run.
    pub tolerance: Duration,
    /// The record, appended to and resumed from.
    pub record: PathBuf,
    /// Raised to stop the match after the games in progress.
    pub interrupt: Arc<AtomicBool>,
}

/// Builds a [`CallablePlayer`] for each game.
struct CallableFactory<S> {
    name: String,
    callable: Arc<Py<PyAny>>,
    setup: S,
}

/// A Python callable as a player: it is given a `State` and answers an action number or a
/// move's text.
struct CallablePlayer<S> {
    name: String,
    callable: Arc<Py<PyAny>>,
    setup: S,
}

impl<S: Reached> PlayerFactory<S::Game> for CallableFactory<S> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn make(&self, _seed: u64) -> Result<Box<dyn Player<S::Game>>, PlayerError> {
        Ok(Box::new(CallablePlayer {
            name: self.name.clone(),
            callable: self.callable.clone(),
            setup: self.setup.clone(),
        }))
    }
}

impl<S: Reached> Player<S::Game> for CallablePlayer<S> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        pos: &S::Game,
        _budget: &Budget,
    ) -> Result<<S::Game as Game>::Move, PlayerError> {
        let illegal = |answer: String, reason: String| PlayerError::Illegal {
            player: self.name.clone(),
            answer,
            reason,
        };
        let state = StateOf::new(self.setup.clone(), pos.clone());
        let answer: Result<Result<u64, String>, String> = Python::attach(|py| {
            let state = crate::State::of(Box::new(state));
            let out = self
                .callable
                .call1(py, (state,))
                .map_err(|e| format!("raised {e}"))?;
            let out = out.bind(py);
            if let Ok(action) = out.extract::<u64>() {
                return Ok(Ok(action));
            }
            match out.extract::<String>() {
                Ok(text) => Ok(Err(text)),
                Err(_) => Err(format!(
                    "returned {out}, neither an action nor a move's text"
                )),
            }
        });
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        match answer.map_err(|e| illegal("(no answer)".into(), e))? {
            Ok(action) => moves
                .into_iter()
                .find(|&m| pos.action(m) == action)
                .ok_or_else(|| illegal(action.to_string(), "not a legal action here".into())),
            Err(text) => {
                let mv = pos
                    .parse_move(text.trim())
                    .map_err(|e| illegal(text.clone(), e.to_string()))?;
                match moves.contains(&mv) {
                    true => Ok(mv),
                    false => Err(illegal(text, "not a legal move here".into())),
                }
            }
        }
    }
}

/// Plays the match and returns its records as JSON lines, the record file's own.
pub fn play<S: Reached>(
    setup: &S,
    entrants: &[Entrant],
    args: &MatchArgs,
) -> Result<Vec<String>, String> {
    let mut players = Vec::new();
    for entrant in entrants {
        players.push(match entrant {
            Entrant::Spec(text) => {
                let spec = PlayerSpec::from_str(text).map_err(|e| e.to_string())?;
                Contestant {
                    spec: spec.to_string(),
                    factory: build_factory(&spec, setup).map_err(|e| e.to_string())?,
                }
            }
            Entrant::Callable(name, callable) => Contestant {
                spec: format!("python:{name}"),
                factory: Arc::new(CallableFactory {
                    name: name.clone(),
                    callable: callable.clone(),
                    setup: setup.clone(),
                }),
            },
        });
    }
    let book = match &args.openings {
        Some(path) => Some(Arc::new(
            OpeningBook::load(path, setup, OpeningsOrder::Sequential).map_err(|e| e.to_string())?,
        )),
        None => None,
    };
    let cfg = MatchConfig {
        setup: setup.clone(),
        games: args.games,
        limit: args.limit,
        clock: None,
        tolerance: args.tolerance,
        sims_safeguard: Duration::from_secs(60),
        opening_plies: if book.is_some() {
            0
        } else {
            args.opening_plies
        },
        book,
        seed: args.seed,
        jobs: args.jobs,
        ply_cap: args.ply_cap,
        sprt: None,
        shard: Shard::WHOLE,
        adjudicator: None,
        value_rules: ValueRules::default(),
        interrupt: Some(args.interrupt.clone()),
    };
    let outcome = run_match(&cfg, &players, &args.record, &quasar_core::progress::Silent)
        .map_err(|e| e.to_string())?;
    outcome
        .games
        .iter()
        .map(|g| serde_json::to_string(g).map_err(|e| e.to_string()))
        .collect()
}

/// The records of the file at `path`, each replayed from its start and checked against
/// its result, as JSON lines.
pub fn read(path: &std::path::Path) -> Result<Vec<String>, String> {
    let loaded = arena::record::load(path).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (game, line) in loaded.games.iter().zip(&loaded.lines) {
        let at = |e: String| format!("{} line {line}: {e}", path.display());
        check_record(game).map_err(at)?;
        out.push(serde_json::to_string(game).map_err(|e| at(e.to_string()))?);
    }
    Ok(out)
}

/// Replays a record of any game from its size's start and checks its result.
fn check_record(game: &arena::record::GameRecord) -> Result<(), String> {
    fn check<S: Reached>(game: &arena::record::GameRecord) -> Result<(), String> {
        let setup = S::from_params(&game.params).map_err(|e| e.to_string())?;
        let standard = setup.start().map_err(|e| e.to_string())?;
        arena::verify::check_game(&standard, game).map_err(|e| e.to_string())
    }
    use breakthrough::BreakthroughSetup;
    use checkers::CheckersSetup;
    use chinese_checkers::CcSetup;
    use engine::setup::GameSetup;
    use woodpush::WoodpushSetup;
    match game.game.as_str() {
        BreakthroughSetup::NAME => check::<BreakthroughSetup>(game),
        WoodpushSetup::NAME => check::<WoodpushSetup>(game),
        CcSetup::NAME => check::<CcSetup>(game),
        CheckersSetup::NAME => check::<CheckersSetup>(game),
        other => Err(format!("a record of {other:?}, which quasar does not play")),
    }
}
