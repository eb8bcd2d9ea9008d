//! The alpha-beta search with Woodpush's evaluation checked against the exact solver and the
//! solved tables: every result it calls proven is the true one, and it finds every win
//! within its depth.

use alphabeta::check::check_against_exact;
use alphabeta::{AlphaBeta, Config, Limit, Score};
use quasar_core::{random_line, Game, GameResult, Oracle, SplitMix64};
use std::sync::Arc;
use woodpush::{solve, Position, SolveOptions, WoodpushEval};

/// Unfinished positions along seeded random games from the start of `width`.
fn positions(width: u32, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let start = Position::start(width).unwrap();
    (0..games)
        .flat_map(|_| random_line(&start, 60, &mut rng))
        .collect()
}

#[test]
fn proven_results_agree_with_the_tables_and_wins_within_the_depth_are_found() {
    let mut total = [0; 2];
    for (width, games, seed) in [(7, 6, 1), (8, 6, 2), (9, 4, 3)] {
        let (table, _) = solve(
            width,
            SolveOptions::default(),
            &quasar_core::progress::Silent,
        )
        .unwrap();
        let deep = |p: &Position| table.probe(p).map(|o| o.result);
        let c = check_against_exact(
            Arc::new(WoodpushEval),
            &positions(width, games, seed),
            7,
            deep,
        );
        total[0] += c[0];
        total[1] += c[1];
    }
    assert!(total[0] > 30 && total[1] > 30, "{total:?}");
}

#[test]
fn alpha_beta_pushes_the_last_piece_off() {
    let pos = Position::parse_position("....R..RL R").unwrap();
    let mut ab = AlphaBeta::new(Config::default(), Arc::new(WoodpushEval));
    let r = ab.search(&pos, Limit::Depth(4)).unwrap();
    assert_eq!(pos.move_text(r.best_move), "8>");
    assert_eq!(
        r.score,
        Score::Proven {
            result: GameResult::Win,
            plies: 1
        }
    );
}
