//! The alpha-beta search with checkers' evaluation checked against the exact solver: every
//! result it calls proven is the true one, and it finds every win within its depth.

use alphabeta::{AlphaBeta, Config, Limit, Score};
use checkers::{Checkers, CheckersEval, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{Evaluation, Game, GameResult, SplitMix64};
use std::sync::Arc;

/// Searches every position to `depth` plies and checks what it calls proven against the
/// exact solver (and `deep` beyond the solver's reach); every win within the depth must be
/// found. Returns how many positions it proved and how many it left to the evaluation.
fn check_against_exact<G: Game>(
    eval: Arc<dyn Evaluation<G>>,
    positions: &[G],
    depth: u32,
    deep: impl Fn(&G) -> Option<GameResult>,
) -> [usize; 2] {
    let mut ab = AlphaBeta::new(
        Config {
            table_bytes: 1 << 20,
            max_depth: 32,
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

/// Unfinished positions of the second half of seeded random games, where few pieces are
/// left and wins lie within the search's depth.
fn positions(games: usize, seed: u64) -> Vec<Checkers> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut g = Checkers::default();
        let mut line = Vec::new();
        while g.outcome().is_none() {
            line.push(g.clone());
            g.legal_moves(&mut moves);
            g.play(moves[rng.below(moves.len())]);
        }
        let half = line.len() / 2;
        out.extend(line.into_iter().skip(half).step_by(3));
    }
    out
}

#[test]
fn proven_results_are_true_and_wins_within_the_depth_are_found() {
    let deeper = |g: &Checkers| ExactSolver::new(3_000_000).solve(g, 9).map(|s| s.result);
    let c = check_against_exact(Arc::new(CheckersEval), &positions(8, 4), 5, deeper);
    assert!(c[0] > 10 && c[1] > 30, "{c:?}");
}

#[test]
fn alpha_beta_takes_the_last_pieces_in_one_double_jump() {
    // Black's man on 14 jumps 18 and 27 (14x23x32): White has nothing left.
    let g = Checkers::new(Position::from_fen("B:W18,27:B14").unwrap());
    let mut ab = AlphaBeta::new(Config::default(), Arc::new(CheckersEval));
    let r = ab.search(&g, Limit::Depth(4)).unwrap();
    assert_eq!(r.best_move.captured.count_ones(), 2);
    assert_eq!(
        r.score,
        Score::Proven {
            result: GameResult::Win,
            plies: 1
        }
    );
}
