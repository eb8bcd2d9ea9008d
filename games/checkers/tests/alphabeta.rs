//! The alpha-beta search with checkers' evaluation checked against the exact solver: every
//! result it calls proven is the true one, and it finds every win within its depth.

use alphabeta::check::check_against_exact;
use alphabeta::{AlphaBeta, Config, Limit, Score};
use checkers::{Checkers, CheckersEval, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{random_line, GameResult, SplitMix64};
use std::sync::Arc;

/// Unfinished positions of the second half of seeded random games, where few pieces are
/// left and wins lie within the search's depth.
fn positions(games: usize, seed: u64) -> Vec<Checkers> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let line = random_line(&Checkers::default(), usize::MAX, &mut rng);
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
