//! Every game behind one object-safe interface, so that Python's `Game` and `State` hold
//! any of them: a setup and a position, reached through `GameSetup` and `Encode` alone.

use crate::solving::{Request, Solved};
use engine::engine::{Engine, EngineChoice, EngineReport};
use engine::settings::{ProbeRule, TableSpec};
use engine::setup::GameSetup;
use quasar_core::{Encode, Game, GameResult, Oracle, Outcome, Side};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Plies after which a random game counts as unfinished: random Chinese Checkers can
/// wander for long.
pub const PLAYOUT_PLIES: u32 = 10_000;

/// A result for the side to move, in words.
pub fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Loss => "loss",
        GameResult::Draw => "draw",
    }
}

/// One root move of a search: its text, action, visits and value.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move in the game's notation.
    pub text: String,
    /// Its action number.
    pub action: u64,
    /// MCTS's simulations through it.
    pub visits: u64,
    /// Its value for the side to move, in `[0, 1]`.
    pub value: f64,
}

/// What one search found, with no game type left.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// The engine's kind: `mcts` or `ab`.
    pub engine: &'static str,
    /// The move to play, as text; `None` for a finished game.
    pub best: Option<String>,
    /// Its action number.
    pub action: Option<u64>,
    /// The mover's expected score in `[0, 1]`.
    pub value: Option<f64>,
    /// The principal variation, as text.
    pub pv: Vec<String>,
    /// Proven result for the side to move, and plies to the end when known.
    pub proven: Option<(&'static str, Option<u32>)>,
    /// Simulations (MCTS) or nodes (alpha-beta).
    pub nodes: u64,
    /// Alpha-beta's deepest finished iteration.
    pub depth: Option<u32>,
    /// Alpha-beta's score as the command line prints it.
    pub score: Option<String>,
    /// Seconds the search took.
    pub seconds: f64,
    /// MCTS's root moves, most visited first.
    pub root: Vec<RootMove>,
}

/// What a table says of a position, with no game type left.
#[derive(Clone, Debug)]
pub struct Probed {
    /// Win, loss or draw for the side to move.
    pub result: &'static str,
    /// Plies to the end with best play, when the table keeps distances.
    pub plies: Option<u32>,
    /// A move that achieves it, when the table knows one.
    pub best: Option<String>,
}

/// An opened table of some game: an `Arc<dyn Oracle<G>>`, by game name and size.
type OracleOf = Box<dyn Any + Send + Sync>;

/// Tables opened once per game and size.
#[derive(Debug, Default)]
pub struct Opened {
    oracles: Mutex<HashMap<(&'static str, String), OracleOf>>,
}

/// A game and size, without a position.
pub trait AnyGame: Send + Sync {
    /// `--game`'s name.
    fn name(&self) -> &'static str;
    /// A copy.
    fn boxed_game(&self) -> Box<dyn AnyGame>;
    /// The size as records write it (`8x8`, `width 9`).
    fn params(&self) -> String;
    /// The start position.
    fn start(&self) -> Result<Box<dyn AnyState>, String>;
    /// A position of this game and size from its text.
    fn parse(&self, text: &str) -> Result<Box<dyn AnyState>, String>;
    /// One more than the largest action number.
    fn action_count(&self) -> u64;
    /// The observation's plane names, rows and columns.
    fn planes(&self) -> (Vec<&'static str>, usize, usize);
    /// Plays a match of this game and size; its records as JSON lines.
    fn play_match(
        &self,
        entrants: &[crate::matches::Entrant],
        args: &crate::matches::MatchArgs,
    ) -> Result<Vec<String>, String>;
}

/// A position of some game, with its setup and the actions that led to it.
pub trait AnyState: Send + Sync {
    /// A copy.
    fn boxed(&self) -> Box<dyn AnyState>;
    /// Its game and size.
    fn game(&self) -> Box<dyn AnyGame>;
    /// The side to move: 0 for the first player, 1 for the second.
    fn side(&self) -> usize;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The actions of the legal moves, in move-generation order.
    fn legal_actions(&self) -> Vec<u64>;
    /// The text of a legal action, or why it is not one.
    fn action_text(&self, action: u64) -> Result<String, String>;
    /// The action of a legal move's text, or why it is not one.
    fn text_action(&self, text: &str) -> Result<u64, String>;
    /// Plays a legal action.
    fn apply(&mut self, action: u64) -> Result<(), String>;
    /// The actions played since the state was made.
    fn history(&self) -> &[u64];
    /// The position's text, which `AnyGame::parse` reads back.
    fn position(&self) -> String;
    /// A board diagram.
    fn diagram(&self) -> String;
    /// The observation planes, plane-major.
    fn observe(&self) -> Vec<f32>;
    /// Searches with `choice`; `seed` serves MCTS when its settings fix none.
    fn search(&self, choice: &EngineChoice, seed: u64) -> Result<Found, String>;
    /// What the table at `path` says of this position (`None`: it has no answer).
    fn probe(&self, path: &Path, opened: &Opened) -> Result<Option<Probed>, String>;
    /// Uniformly random games to their end: wins of the first side, of the second, draws,
    /// and games still going after [`PLAYOUT_PLIES`].
    fn playouts(&self, games: u64, seed: u64) -> [u64; 4];
    /// The game's default engine as a player spec (`mcts`, `ab:eval=mcts`).
    fn default_engine(&self) -> String;
    /// Solves the position exactly as `request` asks (its proof file, table, memory and
    /// stop flag).
    fn solve(&self, request: Request<'_>) -> Result<Solved, String>;
}

/// A setup that Python reaches: any game whose moves and positions encode.
pub trait Reached: GameSetup<Game: Encode> {}
impl<S: GameSetup<Game: Encode>> Reached for S {}

/// A setup, as Python's `Game` holds it.
pub struct GameOf<S>(pub S);

impl<S: Reached> AnyGame for GameOf<S> {
    fn play_match(
        &self,
        entrants: &[crate::matches::Entrant],
        args: &crate::matches::MatchArgs,
    ) -> Result<Vec<String>, String> {
        crate::matches::play(&self.0, entrants, args)
    }

    fn name(&self) -> &'static str {
        S::NAME
    }

    fn boxed_game(&self) -> Box<dyn AnyGame> {
        Box::new(GameOf(self.0.clone()))
    }

    fn params(&self) -> String {
        self.0.params()
    }

    fn start(&self) -> Result<Box<dyn AnyState>, String> {
        let pos = self.0.start().map_err(|e| e.to_string())?;
        Ok(Box::new(StateOf::new(self.0.clone(), pos)))
    }

    fn parse(&self, text: &str) -> Result<Box<dyn AnyState>, String> {
        let pos = S::Game::parse_position(text.trim()).map_err(|e| e.to_string())?;
        let theirs = S::of_position(&pos);
        if theirs != self.0 {
            return Err(format!(
                "the position is {} {}, and the game is {} {}",
                S::NAME,
                theirs.params(),
                S::NAME,
                self.0.params()
            ));
        }
        Ok(Box::new(StateOf::new(self.0.clone(), pos)))
    }

    fn action_count(&self) -> u64 {
        self.0.start().map(|p| p.action_count()).unwrap_or(0)
    }

    fn planes(&self) -> (Vec<&'static str>, usize, usize) {
        match self.0.start() {
            Ok(p) => {
                let planes = p.planes();
                (planes.names.to_vec(), planes.rows, planes.cols)
            }
            Err(_) => (Vec::new(), 0, 0),
        }
    }
}

/// A position with its setup and history.
pub struct StateOf<S: GameSetup> {
    setup: S,
    pos: S::Game,
    history: Vec<u64>,
}

impl<S: Reached> StateOf<S> {
    /// The position `pos` of `setup`'s game, with no history.
    pub fn new(setup: S, pos: S::Game) -> StateOf<S> {
        StateOf {
            setup,
            pos,
            history: Vec::new(),
        }
    }

    fn moves(&self) -> Vec<<S::Game as Game>::Move> {
        let mut moves = Vec::new();
        if self.pos.outcome().is_none() {
            self.pos.legal_moves(&mut moves);
        }
        moves
    }

    fn legal(&self, action: u64) -> Result<<S::Game as Game>::Move, String> {
        if let Some(end) = self.pos.outcome() {
            return Err(format!(
                "the game is over ({}): no move is legal",
                ended(end)
            ));
        }
        self.moves()
            .into_iter()
            .find(|&m| self.pos.action(m) == action)
            .ok_or_else(|| {
                format!(
                    "action {action} is not a legal move of {} (legal_actions() lists them)",
                    self.pos.position_text()
                )
            })
    }

    fn oracle(&self, path: &Path, opened: &Opened) -> Result<Arc<dyn Oracle<S::Game>>, String> {
        // A poisoned lock only means another probe panicked: the map is still sound.
        let mut map = opened.oracles.lock().unwrap_or_else(|e| e.into_inner());
        let key = (S::NAME, self.setup.params());
        if let Some(o) = map
            .get(&key)
            .and_then(|b| b.downcast_ref::<Arc<dyn Oracle<S::Game>>>())
        {
            return Ok(o.clone());
        }
        let spec = TableSpec {
            path: path.to_path_buf(),
            rule: ProbeRule::Sound,
            cache_bytes: None,
        };
        let oracle = self.setup.load_oracle(&spec).map_err(|e| e.to_string())?;
        map.insert(key, Box::new(oracle.clone()));
        Ok(oracle)
    }
}

fn ended(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Side::First) => "the first player won".into(),
        Outcome::Win(Side::Second) => "the second player won".into(),
        Outcome::Draw => "a draw".into(),
    }
}

impl<S: Reached> AnyState for StateOf<S> {
    fn boxed(&self) -> Box<dyn AnyState> {
        Box::new(StateOf {
            setup: self.setup.clone(),
            pos: self.pos.clone(),
            history: self.history.clone(),
        })
    }

    fn game(&self) -> Box<dyn AnyGame> {
        Box::new(GameOf(self.setup.clone()))
    }

    fn side(&self) -> usize {
        self.pos.side_to_move().index()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn legal_actions(&self) -> Vec<u64> {
        self.moves()
            .into_iter()
            .map(|m| self.pos.action(m))
            .collect()
    }

    fn action_text(&self, action: u64) -> Result<String, String> {
        self.legal(action).map(|m| self.pos.move_text(m))
    }

    fn text_action(&self, text: &str) -> Result<u64, String> {
        if let Some(end) = self.pos.outcome() {
            return Err(format!(
                "the game is over ({}): no move is legal",
                ended(end)
            ));
        }
        let mv = self
            .pos
            .parse_move(text.trim())
            .map_err(|e| e.to_string())?;
        Ok(self.pos.action(mv))
    }

    fn apply(&mut self, action: u64) -> Result<(), String> {
        let mv = self.legal(action)?;
        self.pos.play(mv);
        self.history.push(action);
        Ok(())
    }

    fn history(&self) -> &[u64] {
        &self.history
    }

    fn position(&self) -> String {
        self.pos.position_text()
    }

    fn diagram(&self) -> String {
        self.setup.diagram(&self.pos)
    }

    fn observe(&self) -> Vec<f32> {
        let mut out = vec![0.0; self.pos.planes().len()];
        self.pos.observe(&mut out);
        out
    }

    fn search(&self, choice: &EngineChoice, seed: u64) -> Result<Found, String> {
        let mut engine = Engine::new(&self.setup, choice, seed).map_err(|e| e.to_string())?;
        let report = engine.search(&self.pos, choice.limit);
        let info = engine.info(&self.pos, &report);
        let mut found = Found {
            engine: match engine {
                Engine::Mcts(_) => "mcts",
                Engine::AlphaBeta(_) => "ab",
            },
            ..Found::default()
        };
        if let Some(mv) = report.best_move() {
            found.best = Some(self.pos.move_text(mv));
            found.action = Some(self.pos.action(mv));
        }
        if let Some(info) = info {
            found.value = info.value;
            found.pv = info.pv;
            found.depth = info.depth;
            found.score = info.score;
        }
        match &report {
            EngineReport::Mcts(r) => {
                found.nodes = r.simulations;
                found.seconds = r.elapsed.as_secs_f64();
                found.proven = r.proven.map(|p| (result_word(p.result), Some(p.plies)));
                let mut root: Vec<RootMove> = r
                    .children
                    .iter()
                    .map(|c| RootMove {
                        text: self.pos.move_text(c.mv),
                        action: self.pos.action(c.mv),
                        visits: c.visits,
                        value: c.value,
                    })
                    .collect();
                root.sort_by_key(|r| std::cmp::Reverse(r.visits));
                found.root = root;
            }
            EngineReport::AlphaBeta(r) => {
                found.nodes = r.nodes;
                found.seconds = r.elapsed.as_secs_f64();
                if let alphabeta::Score::Proven { result, .. } = r.score {
                    found.proven = Some((result_word(result), r.score.known_plies()));
                }
            }
            EngineReport::GameOver => {}
        }
        if let Some(damage) = engine.damage() {
            return Err(format!(
                "{damage}; the search went on without that part of the table"
            ));
        }
        Ok(found)
    }

    fn probe(&self, path: &Path, opened: &Opened) -> Result<Option<Probed>, String> {
        let oracle = self.oracle(path, opened)?;
        let answer = match self.pos.outcome() {
            Some(_) => None,
            None => oracle.probe_root(&self.pos),
        };
        if let Some(damage) = oracle.damage() {
            return Err(damage);
        }
        Ok(answer.map(|a| Probed {
            result: result_word(a.result),
            plies: a.plies,
            best: a.best_move.map(|m| self.pos.move_text(m)),
        }))
    }

    fn playouts(&self, games: u64, seed: u64) -> [u64; 4] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut moves = Vec::new();
        let mut counts = [0; 4];
        for _ in 0..games {
            let mut pos = self.pos.clone();
            let (end, _) = pos.random_playout(&mut rng, &mut moves, PLAYOUT_PLIES);
            counts[match end {
                Some(Outcome::Win(Side::First)) => 0,
                Some(Outcome::Win(Side::Second)) => 1,
                Some(Outcome::Draw) => 2,
                None => 3,
            }] += 1;
        }
        counts
    }

    fn solve(&self, request: Request<'_>) -> Result<Solved, String> {
        if let Some(end) = self.pos.outcome() {
            return Err(format!(
                "the game is over ({}): there is nothing to solve",
                ended(end)
            ));
        }
        let pos = &self.pos as &dyn Any;
        if let Some(p) = pos.downcast_ref::<breakthrough::Position>() {
            return request.breakthrough(p);
        }
        if let Some(p) = pos.downcast_ref::<woodpush::Position>() {
            return request.drawing(&woodpush::WoodpushProver, p, woodpush::WoodpushTable::load);
        }
        if let Some(p) = pos.downcast_ref::<chinese_checkers::Position>() {
            return request.drawing(
                &chinese_checkers::CcProver,
                p,
                chinese_checkers::CcTable::load,
            );
        }
        Err(format!(
            "solve from Python proves Breakthrough, Woodpush and Chinese Checkers positions; for {} use `quasar solve --game {}`",
            S::NAME,
            S::NAME
        ))
    }

    fn default_engine(&self) -> String {
        use engine::ab_player::AbEval;
        use engine::engine::DefaultEngine;
        match self.setup.default_engine() {
            DefaultEngine::Mcts => "mcts".into(),
            DefaultEngine::AlphaBeta(AbEval::Ab) => "ab".into(),
            DefaultEngine::AlphaBeta(AbEval::Mcts) => "ab:eval=mcts".into(),
            DefaultEngine::LearnedAlphaBeta => "ab:net=builtin".into(),
        }
    }
}
