//! Turns a player spec into the factory of its players for one game setup: the one place
//! that knows every kind of player (factories depend on players, never the reverse).

use crate::ab_player::AbFactory;
use crate::gtp_client::GtpFactory;
use crate::mcts_player::MctsFactory;
use crate::player::{PlayerError, PlayerFactory};
use crate::random_player::RandomFactory;
use crate::setup::GameSetup;
use crate::spec::PlayerSpec;
use std::sync::Arc;

/// The factory of `spec`'s players on `setup`: loads what the players share (a table) once.
pub fn build_factory<S: GameSetup>(
    spec: &PlayerSpec,
    setup: &S,
) -> Result<Arc<dyn PlayerFactory<S::Game>>, PlayerError> {
    Ok(match spec {
        PlayerSpec::Random { seed } => Arc::new(RandomFactory::new(*seed)),
        PlayerSpec::Gtp(g) => Arc::new(GtpFactory::new(
            g.clone(),
            setup.boardsize_command(),
            setup.start().ok(),
        )),
        PlayerSpec::Mcts(settings) => Arc::new(MctsFactory::new(settings.clone(), setup)?),
        PlayerSpec::AlphaBeta(settings) => Arc::new(AbFactory::new(settings.clone(), setup)?),
    })
}
