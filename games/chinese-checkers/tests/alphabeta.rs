//! The alpha-beta search with Chinese Checkers' evaluation checked against the exact solver
//! and the solved one-piece game: every result it calls proven is the true one, and it
//! finds every win within its depth.

use alphabeta::check::check_against_exact;
use alphabeta::{AlphaBeta, Config, Limit, Score};
use chinese_checkers::policy::gain;
use chinese_checkers::solve::solve_full;
use chinese_checkers::{CcEval, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{Game, GameResult, SplitMix64};
use retro::wdl::{Method, WdlOptions};
use std::sync::Arc;

/// Unfinished positions along seeded games that play the more forward of two random moves
/// (uniform play wanders), from the start with `k` pieces a side.
fn positions(k: u32, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(k).unwrap();
        for ply in 0..200 {
            if p.outcome().is_some() {
                break;
            }
            // The race's last plies, where wins lie within the search's depth.
            if ply % 3 == 0 {
                out.push(p);
            }
            p.legal_moves(&mut moves);
            let (a, b) = (moves[rng.below(moves.len())], moves[rng.below(moves.len())]);
            p.play(if gain(p.side, b) > gain(p.side, a) {
                b
            } else {
                a
            });
        }
    }
    out
}

#[test]
fn proven_results_agree_with_the_solved_game_and_wins_within_the_depth_are_found() {
    // One piece a side: the whole game solved, every position checked against it.
    let (table, _) = solve_full(
        1,
        Method::Counters,
        WdlOptions::default(),
        &quasar_core::progress::Silent,
    )
    .unwrap();
    let deep = |p: &Position| table.value(p).map(|(r, _)| r);
    let one = check_against_exact(Arc::new(CcEval::new()), &positions(1, 10, 1), 5, deep);
    // Two pieces a side: the exact solver alone, a little deeper beyond its depth.
    let deeper = |p: &Position| ExactSolver::new(3_000_000).solve(p, 7).map(|s| s.result);
    let two = check_against_exact(Arc::new(CcEval::new()), &positions(2, 6, 2), 4, deeper);
    assert!(
        one[0] + two[0] > 10 && one[1] + two[1] > 30,
        "{one:?} {two:?}"
    );
}

#[test]
fn alpha_beta_fills_the_goal_when_it_can() {
    // The first player, one piece a side, one step from the bottom tip (cell 48).
    let pos = Position {
        pieces: [1 << 47, 1 << 24],
        side: quasar_core::Side::First,
    };
    let mut ab = AlphaBeta::new(Config::default(), Arc::new(CcEval::new()));
    let r = ab.search(&pos, Limit::Depth(3)).unwrap();
    assert!(pos.after(r.best_move).has_won(quasar_core::Side::First));
    assert_eq!(
        r.score,
        Score::Proven {
            result: GameResult::Win,
            plies: 1
        }
    );
}
