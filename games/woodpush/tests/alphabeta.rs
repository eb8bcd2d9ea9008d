//! The alpha-beta search with Woodpush's evaluation checked against the exact solver and the
//! solved tables: every result it calls proven is the true one, and it finds every win
//! within its depth.

use alphabeta::{AlphaBeta, Config, Limit, Score};
use quasar_core::exact::ExactSolver;
use quasar_core::{Evaluation, Game, GameResult, Oracle, SplitMix64};
use std::sync::Arc;
use woodpush::{solve, Position, SolveOptions, WoodpushEval};

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

/// Unfinished positions along seeded random games from the start of `width`.
fn positions(width: u32, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(width).unwrap();
        for _ply in 0..60 {
            if p.outcome().is_some() {
                break;
            }
            out.push(p);
            p.legal_moves(&mut moves);
            p.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

#[test]
fn proven_results_agree_with_the_tables_and_wins_within_the_depth_are_found() {
    let mut total = [0; 2];
    for (width, games, seed) in [(7, 6, 1), (8, 6, 2), (9, 4, 3)] {
        let (table, _) = solve(width, SolveOptions::default(), &|_| {}).unwrap();
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
