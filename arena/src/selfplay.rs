//! Self-play for training a learned evaluation: games of one player against itself from
//! randomised openings, each searched position kept with the search's value, the game's
//! outcome and, where a table holds it, the table's exact value.

use engine::engine::{Engine, EngineChoice};
use engine::setup::{GameSetup, SetupError};
use learn::Sample;
use quasar_core::progress::Progress;
use quasar_core::{Game, Oracle, Outcome, Side};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A game longer than this many plies counts as a draw (for games that can cycle).
const MAX_PLIES: u32 = 1000;

/// How a shard of self-play is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlay {
    /// Games in the shard.
    pub games: u32,
    /// Each game opens with a number of uniformly random plies from this range, so that
    /// games differ and positions a player would not choose are seen too.
    pub random_plies: (u32, u32),
    /// The shard's seed: its openings and its searches' seeds.
    pub seed: u64,
}

/// The samples of `plan.games` games of `choice` against itself on `setup`; `exact` labels
/// the positions it proves. Reports each finished game to `progress`.
pub fn play_shard<S: GameSetup>(
    setup: &S,
    choice: &EngineChoice,
    plan: &SelfPlay,
    exact: Option<&dyn Oracle<S::Game>>,
    progress: &dyn Progress,
) -> Result<Vec<Sample>, SetupError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(plan.seed);
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    for game in 0..plan.games {
        let mut engine = Engine::new(setup, choice, plan.seed.wrapping_add(game as u64))?;
        let mut pos = setup.start()?;
        let (lo, hi) = plan.random_plies;
        let random = rng.random_range(lo..=hi.max(lo));
        let mut ply = 0;
        while ply < random && pos.outcome().is_none() {
            pos.legal_moves(&mut moves);
            pos.play(moves[rng.random_range(0..moves.len())]);
            ply += 1;
        }
        // Positions of this game, each with its mover and what the search said.
        let mut seen: Vec<(String, Side, Option<f32>, Option<f32>)> = Vec::new();
        let outcome = loop {
            if let Some(o) = pos.outcome() {
                break o;
            }
            if ply >= MAX_PLIES {
                break Outcome::Draw;
            }
            let report = engine.search(&pos, choice.limit);
            let Some(mv) = report.best_move() else {
                break pos.outcome().unwrap_or(Outcome::Draw);
            };
            let value = engine
                .info(&pos, &report)
                .and_then(|i| i.value)
                .map(|v| v as f32);
            let table = exact
                .and_then(|t| t.probe(&pos))
                .map(|p| p.result.score() as f32);
            seen.push((pos.position_text(), pos.side_to_move(), value, table));
            pos.play(mv);
            ply += 1;
        };
        for (position, mover, search, exact) in seen {
            samples.push(Sample {
                position,
                outcome: outcome.result_for(mover).score() as f32,
                search,
                exact,
            });
        }
        progress.advance(1);
    }
    Ok(samples)
}
