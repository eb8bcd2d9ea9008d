//! quasar's own MCTS as an arena player, with or without a tablebase oracle.

use crate::player::{
    Budget, Limit, MctsSpec, Player, PlayerError, PlayerFactory, PlayerSpec, Playout,
};
use breakthrough::{BreakthroughPolicy, BreakthroughSearcher};
use breakthrough::{Move, Position};
use mcts::{Config, Limits, Searcher};
use quasar_core::Oracle;
use std::sync::Arc;

/// Builds MCTS players that share one loaded oracle.
pub struct MctsFactory {
    spec: MctsSpec,
    oracle: Option<Arc<dyn Oracle<Position>>>,
}

impl MctsFactory {
    /// A factory for `spec`'s players, consulting `oracle` when given.
    pub fn new(spec: MctsSpec, oracle: Option<Arc<dyn Oracle<Position>>>) -> MctsFactory {
        MctsFactory { spec, oracle }
    }

    fn config(&self, seed: u64) -> Config<BreakthroughPolicy> {
        let defaults = Config::<BreakthroughPolicy>::default();
        Config {
            c: self.spec.exploration.unwrap_or(defaults.c),
            playout: match self.spec.playout {
                Some(Playout::Uniform) => BreakthroughPolicy::uniform(),
                Some(Playout::Full) | None => BreakthroughPolicy::default(),
            },
            threads: self.spec.threads.unwrap_or(1),
            seed: self.spec.seed.unwrap_or(seed),
            oracle_in_playouts: match self.spec.probe_every {
                Some(k) => std::num::NonZeroU32::new(k),
                None => defaults.oracle_in_playouts,
            },
            ..defaults
        }
    }
}

impl PlayerFactory for MctsFactory {
    fn name(&self) -> String {
        PlayerSpec::Mcts(self.spec.clone()).to_string()
    }

    fn own_limit(&self) -> Option<Limit> {
        self.spec.limit
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        let config = self.config(seed);
        let searcher = match &self.oracle {
            Some(oracle) => Searcher::new(config, Arc::clone(oracle)),
            None => Searcher::without_oracle(config),
        };
        Ok(Box::new(MctsPlayer {
            name: self.name(),
            searcher,
        }))
    }
}

/// One game's MCTS player; its searcher reuses its tree from move to move.
struct MctsPlayer {
    name: String,
    searcher: BreakthroughSearcher,
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _start: &Position, _opening: &[Move]) -> Result<(), PlayerError> {
        self.searcher.clear();
        Ok(())
    }

    fn choose(&mut self, pos: &Position, budget: &Budget) -> Result<Move, PlayerError> {
        let limits = match budget.limit {
            Limit::Time(t) => Limits::Time(t),
            Limit::Sims(n) => Limits::Simulations(n),
        };
        self.searcher
            .search(pos, limits)
            .best_move
            .ok_or_else(|| PlayerError::Engine("the search found no legal move".into()))
    }
}

/// Opens a tablebase file as the oracle of MCTS players on `board`; the race rule, if
/// asked for, only steers playouts (the tablebase never proves a node with it).
pub fn load_oracle(
    path: &std::path::Path,
    rule: Option<crate::player::ProbeRule>,
    board: breakthrough::Board,
) -> Result<Arc<dyn Oracle<Position>>, PlayerError> {
    let table = breakthrough::tablebase::Tablebase::open_for(path, board)
        .map_err(|e| PlayerError::Unavailable(format!("tablebase {e}")))?;
    let race = rule == Some(crate::player::ProbeRule::Race);
    Ok(Arc::new(table.with_race_guess(race)))
}
