//! Quick probe: MCTS with search playouts against alpha-beta on Breakthrough.
//! Usage: hybrid_probe BOARD MS GAMES DEPTH [C]
use alphabeta::{AlphaBeta, Config as AbConfig, Limit, SearchPlayout};
use breakthrough::{Board, BreakthroughEval, Position};
use mcts::{Config, Limits, Searcher};
use quasar_core::{Game, Outcome, Side, SplitMix64};
use std::sync::Arc;
use std::time::Duration;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let board: Board = a[1].parse().unwrap();
    let ms: u64 = a[2].parse().unwrap();
    let games: u32 = a[3].parse().unwrap();
    let depth: u32 = a[4].parse().unwrap();
    let c: f64 = a.get(5).map_or(0.7, |s| s.parse().unwrap());
    let eval = Arc::new(BreakthroughEval::new(board));
    let t = Duration::from_millis(ms);
    let mut score = 0.0;
    let mut rng;
    let mut moves = Vec::new();
    for g in 0..games {
        let mut pos = Position::start(board);
        rng = SplitMix64::new(1000 + g as u64 / 2);
        for _ in 0..2 {
            pos.legal_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        let mcts_side = if g % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let d = Config::<breakthrough::BreakthroughPolicy>::default();
        let cfg = Config {
            c,
            playout: SearchPlayout::new(eval.clone(), depth),
            seed: g as u64,
            node_budget: d.node_budget,
            threads: 1,
            parallelism: d.parallelism,
            oracle_in_playouts: d.oracle_in_playouts,
            expand_after: d.expand_after,
            child_probes: d.child_probes,
            max_playout_plies: d.max_playout_plies,
        };
        let mut m = Searcher::without_oracle(cfg);
        let mut ab = AlphaBeta::new(AbConfig::default(), eval.clone());
        let mut sims = 0u64;
        let mut n = 0u64;
        while pos.outcome().is_none() {
            let mv = if pos.side_to_move() == mcts_side {
                let r = m.search(&pos, Limits::Time(t));
                sims += r.simulations;
                n += 1;
                r.best_move.unwrap()
            } else {
                ab.search(&pos, Limit::Time(t)).unwrap().best_move
            };
            pos.play(mv);
        }
        let won = pos.outcome() == Some(Outcome::Win(mcts_side));
        if won {
            score += 1.0;
        }
        eprintln!(
            "game {g}: mcts {} ({} sims/move)",
            if won { "won" } else { "lost" },
            sims / n.max(1)
        );
    }
    println!(
        "mcts depth {depth} c {c}: {score}/{games} = {:.1}%",
        100.0 * score / games as f64
    );
}
