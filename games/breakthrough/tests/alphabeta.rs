//! The alpha-beta search with Breakthrough's evaluation checked against the exact solver:
//! every result it calls proven is the true one, and it finds every win within its depth.

use alphabeta::check::check_against_exact;
use alphabeta::{AlphaBeta, Config, Limit, Score};
use breakthrough::{Board, BreakthroughEval, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{Game, GameResult};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// Positions along random games from the start, none finished.
fn positions(board: Board, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(board);
        while p.outcome().is_none() {
            out.push(p);
            p.legal_moves(&mut moves);
            p.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn proven_results_are_true_and_wins_within_the_depth_are_found() {
    let mut checked = [0usize; 2];
    for (board, games, seed) in [("5x5", 6, 1), ("4x5", 8, 2), ("6x5", 3, 3)] {
        let board: Board = board.parse().unwrap();
        // The exact solver stops at 9 plies or its node budget; a claim beyond that is
        // checked deeper, and the deeper search must settle it.
        let deep = |p: &Position| {
            let s = ExactSolver::new(50_000_000).solve(p, 40);
            Some(
                s.unwrap_or_else(|| panic!("{p}: the deep search settles no claim"))
                    .result,
            )
        };
        let c = check_against_exact(
            Arc::new(BreakthroughEval::new(board)),
            &positions(board, games, seed),
            9,
            deep,
        );
        checked[0] += c[0];
        checked[1] += c[1];
    }
    assert!(checked[0] > 50 && checked[1] > 20, "{checked:?}");
}

#[test]
fn a_win_in_one_is_played_even_with_a_threat_against_it() {
    // White's d5 steps onto row 6; Black's b2 would win next move.
    let pos = Position::from_fen("6/3W2/6/6/1B4/6 w").unwrap();
    let mut ab = AlphaBeta::new(
        Config::default(),
        Arc::new(BreakthroughEval::new(pos.board())),
    );
    let r = ab.search(&pos, Limit::Depth(4)).unwrap();
    assert!(pos.move_text(r.best_move).starts_with("d5"), "{r:?}");
    assert_eq!(
        r.score,
        Score::Proven {
            result: GameResult::Win,
            plies: 1
        }
    );
}
