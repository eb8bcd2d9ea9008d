//! quasar's own searchers behind one interface, for the commands that play one game at a
//! time (`bestmove`, `play`, `gtp`): MCTS or alpha-beta, as the user chose.

use crate::ab_player::{AbEval, AbSettings};
use crate::guard::Guarded;
use crate::player::{Budget, MoveInfo, Player, PlayerError};
use crate::settings::EngineSettings;
use crate::setup::{GameSetup, SetupError};
use alphabeta::AlphaBeta;
use quasar_core::progress::{SearchValue, Watch};
use quasar_core::Game;
use quasar_core::Limit;

/// The searcher a game is played by when the user names none: the best one found in
/// matches, of either kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultEngine {
    /// Monte Carlo Tree Search with the MCTS-solver.
    Mcts,
    /// Alpha-beta, searching with this one of the game's evaluations.
    AlphaBeta(AbEval),
    /// Alpha-beta, searching with the model the game ships (`ab:net=builtin`).
    LearnedAlphaBeta,
}

/// Which searcher to build, with its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum SearcherSettings {
    /// Monte Carlo Tree Search (the default player of most games).
    Mcts(EngineSettings),
    /// Alpha-beta with the game's evaluation.
    AlphaBeta(AbSettings),
}

/// Which searcher to build and the limit of each of its moves. The limit is kept here for
/// both kinds alike, apart from the settings: alpha-beta's settings have a time and no
/// simulation count, and a limit read from them lost `--sims` and `--time`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineChoice {
    /// The searcher and its settings.
    pub searcher: SearcherSettings,
    /// Each move's limit (for alpha-beta a simulation count is a node count).
    pub limit: Limit,
}

/// A searcher of either kind; each keeps what it learnt (tree, table) between moves.
#[derive(Debug)]
pub enum Engine<S: GameSetup> {
    /// MCTS, with its guard when it has one.
    Mcts(Guarded<S::Game, S::Policy>),
    /// Alpha-beta.
    AlphaBeta(AlphaBeta<S::Game>),
}

/// One of the best root moves of a multi-line analysis ([`Engine::lines`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// The root move.
    pub mv: M,
    /// MCTS: simulations through it.
    pub visits: Option<u64>,
    /// Its value for the side to move.
    pub value: SearchValue,
    /// Alpha-beta: the depth it was searched to.
    pub depth: Option<u32>,
    /// Its principal variation, starting with the move.
    pub pv: Vec<M>,
}

/// What one search of either kind found.
#[derive(Debug)]
pub enum EngineReport<M> {
    /// MCTS's report (its best move is `None` when the game is over).
    Mcts(mcts::Report<M>),
    /// Alpha-beta's report.
    AlphaBeta(alphabeta::Report<M>),
    /// Alpha-beta was asked about a finished game.
    GameOver,
}

impl<M: Copy> EngineReport<M> {
    /// The move to play; `None` when the game is over.
    pub fn best_move(&self) -> Option<M> {
        match self {
            EngineReport::Mcts(r) => r.best_move,
            EngineReport::AlphaBeta(r) => Some(r.best_move),
            EngineReport::GameOver => None,
        }
    }
}

impl<S: GameSetup> Engine<S> {
    /// The searcher `choice` describes on `setup` (its table opened); `seed` serves MCTS
    /// when its settings fix none.
    pub fn new(setup: &S, choice: &EngineChoice, seed: u64) -> Result<Engine<S>, SetupError> {
        Ok(match &choice.searcher {
            SearcherSettings::Mcts(s) => Engine::Mcts(setup.searcher(s, seed)?),
            SearcherSettings::AlphaBeta(s) => Engine::AlphaBeta(s.searcher(setup)?),
        })
    }

    /// Searches `pos` within `limits` (for alpha-beta a simulation count is a node count).
    pub fn search(
        &mut self,
        pos: &S::Game,
        limits: Limit,
    ) -> EngineReport<<S::Game as Game>::Move> {
        self.search_with(pos, limits, &mut Watch::none())
    }

    /// [`Engine::search`], reporting its progress to `watch` and stopped early by its flag.
    pub fn search_with(
        &mut self,
        pos: &S::Game,
        limits: Limit,
        watch: &mut Watch<'_, <S::Game as Game>::Move>,
    ) -> EngineReport<<S::Game as Game>::Move> {
        match self {
            Engine::Mcts(s) => EngineReport::Mcts(s.search_with(pos, limits, watch)),
            Engine::AlphaBeta(ab) => match ab.search_with(pos, limits, &[], watch) {
                Ok(r) => EngineReport::AlphaBeta(r),
                Err(_) => EngineReport::GameOver,
            },
        }
    }

    /// The `n` best root moves of `pos` after `report`, this engine's last search of it,
    /// best first. MCTS: the most visited moves (ties: the higher value), each with its
    /// line in the tree. Alpha-beta: the reported move, then each next one found by a
    /// search to the same depth that leaves out the moves before it, so that the lines'
    /// scores compare (these searches take more time than the first).
    pub fn lines(
        &mut self,
        pos: &S::Game,
        report: &EngineReport<<S::Game as Game>::Move>,
        n: usize,
    ) -> Vec<Line<<S::Game as Game>::Move>> {
        match (self, report) {
            // The oracle's move for a proven root, played without search: the one line.
            (Engine::Mcts(_), EngineReport::Mcts(r)) if r.children.is_empty() => r
                .best_move
                .map(|mv| Line {
                    mv,
                    visits: Some(0),
                    value: r.info().value,
                    depth: None,
                    pv: r.pv.clone(),
                })
                .into_iter()
                .collect(),
            (Engine::Mcts(s), EngineReport::Mcts(r)) => r
                .by_visits()
                .into_iter()
                .take(n)
                .map(|c| Line {
                    mv: c.mv,
                    visits: Some(c.visits),
                    value: match c.proven {
                        Some(p) => SearchValue::Proven {
                            result: p.result,
                            plies: p.known_plies(),
                        },
                        None => SearchValue::Mean(c.value),
                    },
                    depth: None,
                    pv: if Some(c.mv) == r.best_move && !r.pv.is_empty() {
                        r.pv.clone()
                    } else {
                        s.line(c.mv)
                    },
                })
                .collect(),
            (Engine::AlphaBeta(ab), EngineReport::AlphaBeta(r)) => {
                let line = |r: &alphabeta::Report<_>| Line {
                    mv: r.best_move,
                    visits: None,
                    value: r.score.into(),
                    depth: Some(r.depth),
                    pv: r.pv.clone(),
                };
                let mut lines = vec![line(r)];
                let mut exclude = vec![r.best_move];
                let depth = alphabeta::Limit::Depth(r.depth.max(1));
                while lines.len() < n {
                    let Ok(next) = ab.search_with(pos, depth, &exclude, &mut Watch::none()) else {
                        break;
                    };
                    exclude.push(next.best_move);
                    lines.push(line(&next));
                }
                lines
            }
            _ => Vec::new(),
        }
    }

    /// What `report`, this engine's search of `pos`, says for a record; `None` for a
    /// finished game.
    pub fn info(
        &self,
        pos: &S::Game,
        report: &EngineReport<<S::Game as Game>::Move>,
    ) -> Option<MoveInfo> {
        match (self, report) {
            (_, EngineReport::Mcts(r)) => Some(MoveInfo::of_mcts(pos, r)),
            (Engine::AlphaBeta(ab), EngineReport::AlphaBeta(r)) => {
                Some(MoveInfo::of_alphabeta(pos, r, ab.evaluation_scale()))
            }
            _ => None,
        }
    }

    /// The first damage the engine's table met in its probes, if any: those probes
    /// answered nothing, so the search went on without that part of the table.
    pub fn damage(&self) -> Option<String> {
        match self {
            Engine::Mcts(s) => s.damage(),
            Engine::AlphaBeta(ab) => ab.damage(),
        }
    }

    /// Forgets what was learnt (a new game).
    pub fn clear(&mut self) {
        match self {
            Engine::Mcts(s) => s.clear(),
            Engine::AlphaBeta(ab) => ab.clear(),
        }
    }
}

/// Says on standard error, once per process, that a table met damage during a search:
/// the answers it could not read were left out (the message says what to do).
pub fn warn_damage_once(damage: Option<String>) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    if let Some(d) = damage {
        WARNED.call_once(|| eprintln!("warning: {d}; searches go on without the damaged part"));
    }
}

/// One game's arena player around either searcher: its table (and MCTS its tree) carries
/// over from move to move.
pub(crate) struct EnginePlayer<S: GameSetup> {
    /// The player's name in records.
    pub(crate) name: String,
    /// The searcher.
    pub(crate) engine: Engine<S>,
    /// What the last search said, until it is asked for.
    pub(crate) info: Option<MoveInfo>,
}

impl<S: GameSetup> Player<S::Game> for EnginePlayer<S> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(
        &mut self,
        _start: &S::Game,
        _opening: &[<S::Game as Game>::Move],
    ) -> Result<(), PlayerError> {
        self.engine.clear();
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &S::Game,
        budget: &Budget,
    ) -> Result<<S::Game as Game>::Move, PlayerError> {
        let report = self.engine.search(pos, budget.move_limit());
        let best = report.best_move().ok_or(PlayerError::NoMove)?;
        warn_damage_once(self.engine.damage());
        self.info = self.engine.info(pos, &report);
        Ok(best)
    }

    fn last_info(&mut self) -> Option<MoveInfo> {
        self.info.take()
    }
}
