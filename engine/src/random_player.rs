//! The uniformly random player of any game (a baseline, and for tests) and its factory.

use crate::player::{Budget, Player, PlayerError, PlayerFactory};
use quasar_core::Game;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::marker::PhantomData;

/// A player that picks uniformly among the legal moves.
#[derive(Debug)]
pub struct RandomPlayer<G: Game> {
    rng: Xoshiro256PlusPlus,
    moves: Vec<G::Move>,
}

impl<G: Game> RandomPlayer<G> {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer<G> {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }
}

/// A uniformly random legal move of `pos`, `None` when it has none.
pub fn random_move<G: Game>(
    pos: &G,
    rng: &mut impl RngExt,
    buffer: &mut Vec<G::Move>,
) -> Option<G::Move> {
    pos.legal_moves(buffer);
    if buffer.is_empty() {
        return None;
    }
    Some(buffer[rng.random_range(0..buffer.len())])
}

impl<G: Game> Player<G> for RandomPlayer<G> {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, pos: &G, _budget: &Budget) -> Result<G::Move, PlayerError> {
        random_move(pos, &mut self.rng, &mut self.moves).ok_or(PlayerError::NoMove)
    }
}

/// Builds random players; `seed` (from `random:seed=S`) sets one apart from another.
#[derive(Debug)]
pub struct RandomFactory<G> {
    seed: Option<u64>,
    game: PhantomData<fn() -> G>,
}

impl<G> RandomFactory<G> {
    /// A factory of random players, told apart by `seed`.
    pub fn new(seed: Option<u64>) -> RandomFactory<G> {
        RandomFactory {
            seed,
            game: PhantomData,
        }
    }
}

impl<G: Game> PlayerFactory<G> for RandomFactory<G> {
    fn name(&self) -> String {
        match self.seed {
            None => "random".into(),
            Some(s) => format!("random:seed={s}"),
        }
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Player<G>>, PlayerError> {
        // An odd multiple of the golden ratio: distinct own seeds give distinct streams.
        let own = self
            .seed
            .map_or(0, |s| s.wrapping_mul(quasar_core::rng::GOLDEN_GAMMA) | 1);
        Ok(Box::new(RandomPlayer::<G>::new(seed ^ own)))
    }
}
