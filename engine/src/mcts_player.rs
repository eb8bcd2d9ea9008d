//! quasar's own MCTS as an arena player of any game, with or without a table oracle, and
//! the factory that loads the table once per match.

use crate::clock::TimeControl;
use crate::engine::{Engine, EnginePlayer};
use crate::guard::{Guard, Guarded};
use crate::player::{Player, PlayerError, PlayerFactory};
use crate::settings::{EngineSettings, SearchDefaults};
use crate::setup::{EvaluationUse, GameSetup, SetupError};
use crate::spec::PlayerSpec;
use mcts::Searcher;
use quasar_core::Limit;
use quasar_core::Oracle;
use std::sync::Arc;

/// Builds MCTS players that share one loaded oracle.
#[derive(Debug)]
pub struct MctsFactory<S: GameSetup> {
    settings: EngineSettings,
    policy: S::Policy,
    oracle: Option<Arc<dyn Oracle<S::Game>>>,
    guard: Option<Guard<S::Game>>,
    eval: EvaluationUse<S::Game>,
    defaults: SearchDefaults,
}

impl<S: GameSetup> MctsFactory<S> {
    /// A factory for `settings`' players on `setup`: builds the policy and opens the table
    /// now, and checks that the game has the evaluation the settings need, so a bad
    /// setting fails before the first game.
    pub fn new(settings: EngineSettings, setup: &S) -> Result<MctsFactory<S>, PlayerError> {
        Ok(Self::build(settings, setup)?)
    }

    /// The factory, or the setup's refusal of the settings: the steps every MCTS searcher
    /// of a setup goes through, for a match's players and for one searcher alike.
    pub(crate) fn build(settings: EngineSettings, setup: &S) -> Result<MctsFactory<S>, SetupError> {
        setup.check_playout_keys(&settings.playout)?;
        let policy = setup.policy(&settings.playout)?;
        let eval = setup.evaluation_use(&settings)?;
        let table = setup.table_oracle(&settings)?;
        let guard = setup.guard(&settings, table.clone())?;
        let oracle = setup.mcts_oracle(&settings, table);
        let defaults = setup.search_defaults(eval.leaf, eval.learned);
        Ok(MctsFactory {
            settings,
            policy,
            oracle,
            guard,
            eval,
            defaults,
        })
    }

    /// A searcher of these settings seeded with `seed` (where the settings fix none),
    /// with `guard` as its blunder guard.
    fn searcher_with(
        &self,
        seed: u64,
        guard: Option<Guard<S::Game>>,
    ) -> Guarded<S::Game, S::Policy> {
        let mut config = self
            .settings
            .config(self.policy.clone(), seed, self.defaults);
        self.eval.apply(&mut config);
        Guarded::new(
            Searcher::with_evaluation(config, self.oracle.clone(), self.eval.evaluation.clone()),
            guard,
        )
    }

    /// The one searcher of these settings, taking the factory's guard itself.
    pub(crate) fn into_searcher(mut self, seed: u64) -> Guarded<S::Game, S::Policy> {
        let guard = self.guard.take();
        self.searcher_with(seed, guard)
    }
}

impl<S: GameSetup> PlayerFactory<S::Game> for MctsFactory<S> {
    fn name(&self) -> String {
        PlayerSpec::Mcts(self.settings.clone()).to_string()
    }

    fn own_limit(&self) -> Option<Limit> {
        self.settings.limit
    }

    fn own_clock(&self) -> Option<TimeControl> {
        self.settings.clock
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Player<S::Game>>, PlayerError> {
        let searcher = self.searcher_with(seed, self.guard.as_ref().map(Guard::fresh));
        Ok(Box::new(EnginePlayer {
            name: self.name(),
            engine: Engine::<S>::Mcts(searcher),
            info: None,
        }))
    }
}
