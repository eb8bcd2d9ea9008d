//! Breakthrough's verdicts as an MCTS oracle: a position whose every move loses in two
//! plies is proven at the root's expansion, before any playout, and only with them.

use breakthrough::{BreakthroughEval, BreakthroughPolicy, Position};
use mcts::{Config, Searcher};
use quasar_core::Limit;
use quasar_core::{Chain, GameResult, NoOracle, Oracle, Verdicts};
use std::sync::Arc;

fn searcher(oracle: Option<Arc<dyn Oracle<Position>>>) -> Searcher<Position, BreakthroughPolicy> {
    let config = Config::<BreakthroughPolicy>::default();
    Searcher::with_evaluation(config, oracle, None)
}

#[test]
fn a_threat_no_capture_answers_is_proven_at_the_root() {
    // Black to move; White's d5 steps onto row 6 next and no Black piece attacks it.
    let pos = Position::from_fen("B4B/3W2/6/B1B1B1/6/W5 b").unwrap();
    let eval = Arc::new(BreakthroughEval::new(pos.board()));
    let verdicts: Arc<dyn Oracle<Position>> = Arc::new(Verdicts(eval.clone()));
    let r = searcher(Some(verdicts)).search(&pos, Limit::Count(1));
    assert_eq!(r.proven.map(|p| p.result), Some(GameResult::Loss), "{r:?}");
    // Behind a table that knows nothing the verdicts still answer.
    let chained: Arc<dyn Oracle<Position>> =
        Arc::new(Chain::new(Arc::new(NoOracle), Arc::new(Verdicts(eval))));
    let r = searcher(Some(chained)).search(&pos, Limit::Count(1));
    assert_eq!(r.proven.map(|p| p.result), Some(GameResult::Loss));
    // Without them one simulation proves nothing.
    let r = searcher(None).search(&pos, Limit::Count(1));
    assert_eq!(r.proven, None);
}

#[test]
fn verdicts_answer_nothing_inside_playouts() {
    let pos = Position::from_fen("6/3W2/6/6/1B4/6 w").unwrap();
    let v = Verdicts(Arc::new(BreakthroughEval::new(pos.board())));
    assert_eq!(
        v.probe(&pos).map(|p| (p.result, p.plies)),
        Some((GameResult::Win, Some(1)))
    );
    assert_eq!(v.guess(&pos), None);
}
