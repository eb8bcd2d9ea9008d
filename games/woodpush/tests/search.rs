//! MCTS plays Woodpush: with the uniform-or-better policy alone, and with the solved table
//! as its oracle.

use mcts::{Config, Searcher};
use quasar_core::Limit;
use quasar_core::{Game, GameResult};
use std::sync::Arc;
use woodpush::{solve, Position, SolveOptions, WoodpushPolicy};

fn config() -> Config<WoodpushPolicy> {
    Config {
        max_playout_plies: 200,
        ..Config::default()
    }
}

#[test]
fn mcts_finds_the_win_that_pushes_the_last_piece_off() {
    // Right wins at once by pushing Left's lone piece off cell 8.
    let pos = Position::parse_position("....R..RL R").unwrap();
    let mut s = Searcher::without_oracle(config());
    let r = s.search(&pos, Limit::Count(2000));
    assert_eq!(pos.move_text(r.best_move.unwrap()), "8>");
}

#[test]
fn mcts_with_the_table_knows_the_start_of_width_7_is_lost() {
    let (table, _) = solve(7, SolveOptions::default(), &quasar_core::progress::Silent).unwrap();
    let mut s = Searcher::new(config(), Arc::new(table));
    let pos = Position::start(7).unwrap();
    let r = s.search(&pos, Limit::Count(500));
    let proven = r.proven.expect("the oracle proves the root");
    assert_eq!(proven.result, GameResult::Loss);
}
