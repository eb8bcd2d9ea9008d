//! A check every game's tests run on the search with the game's evaluation: what it calls
//! proven is the truth of the exact solver, and no win within its depth is missed (as
//! `quasar_core::conformance` checks the rules).

use crate::{AlphaBeta, Config, Limit, Score};
use quasar_core::exact::ExactSolver;
use quasar_core::{Evaluation, Game, GameResult};
use std::sync::Arc;

/// Searches every position to `depth` plies and checks what it calls proven against the
/// exact solver (and `deep` beyond the solver's reach); every win within the depth must be
/// found, and the move it plays for a win must leave the opponent lost. Returns how many
/// positions it proved and how many it left to the evaluation.
pub fn check_against_exact<G: Game>(
    eval: Arc<dyn Evaluation<G>>,
    positions: &[G],
    depth: u32,
    deep: impl Fn(&G) -> Option<GameResult>,
) -> [usize; 2] {
    let mut ab = AlphaBeta::new(
        Config {
            table_bytes: 1 << 20,
            max_depth: 32,
            ..Config::default()
        },
        eval,
    );
    let mut checked = [0usize; 2];
    for pos in positions {
        let truth = ExactSolver::new(3_000_000).solve(pos, depth);
        ab.clear();
        let r = ab.search(pos, Limit::Depth(depth)).unwrap();
        let text = pos.position_text();
        match (r.score, truth) {
            (Score::Proven { result, plies }, Some(t)) => {
                assert_eq!(result, t.result, "{text}");
                if result == GameResult::Win {
                    assert!(plies >= t.plies, "{text}: win in {plies} < {}", t.plies);
                    // The move wins on the spot, or leaves a position the opponent loses
                    // within the depth (the exact solver proved this position's win within
                    // it, so it reaches the reply's loss too).
                    let mut child = pos.clone();
                    child.play(r.best_move);
                    let lost = match child.outcome() {
                        Some(o) => o.result_for(pos.side_to_move()) == GameResult::Win,
                        None => ExactSolver::new(3_000_000)
                            .solve(&child, depth)
                            .is_some_and(|s| s.result == GameResult::Loss),
                    };
                    assert!(lost, "{text}: {} does not win", pos.move_text(r.best_move));
                }
                checked[0] += 1;
            }
            (Score::Proven { result, .. }, None) => {
                // Beyond the solver's depth or node budget: the deeper truth decides.
                if let Some(d) = deep(pos) {
                    assert_eq!(d, result, "{text}");
                }
                checked[0] += 1;
            }
            (Score::Eval(_), Some(t)) => {
                assert!(
                    t.result != GameResult::Win,
                    "{text}: missed a win in {}",
                    t.plies
                );
                assert!(t.plies + 1 >= depth, "{text}: missed a loss in {}", t.plies);
            }
            (Score::Eval(_), None) => checked[1] += 1,
        }
    }
    checked
}
