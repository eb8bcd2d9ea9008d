//! The learned evaluation's cost at a leaf: the n-tuple features of positions from random
//! games, extracted and summed, against the hand-written evaluation of the same positions;
//! and its cost a child when a new MCTS node's children are scored, one by one against all
//! at once from their parent's windows.
//!
//! `cargo bench -p breakthrough --bench features -- [WIDTHxHEIGHT]` (default 8x8).

use breakthrough::features::NTuple;
use breakthrough::{Board, BreakthroughEval, Position};
use learn::{Active, Features, Identity, Model};
use quasar_core::{Evaluation, Game};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let size = std::env::args()
        .skip(1)
        .find(|a| a != "--bench")
        .unwrap_or_else(|| "8x8".into());
    let board: Board = size.parse().expect("a board such as 8x8");
    let features = NTuple::new(board);
    // Positions of random games, every ply.
    let mut positions = Vec::new();
    let mut rng = 1u64;
    let mut moves = Vec::new();
    while positions.len() < 100_000 {
        let mut pos = Position::start(board);
        while pos.outcome().is_none() {
            positions.push(pos);
            pos.legal_moves(&mut moves);
            rng = quasar_core::splitmix64(rng);
            pos.play(moves[(rng % moves.len() as u64) as usize]);
        }
    }
    let mut model = Model::zeros(
        Identity {
            game: "breakthrough".into(),
            params: size.clone(),
            features: "bench".into(),
        },
        features.len(),
    );
    for (i, w) in model.weights.iter_mut().enumerate() {
        *w = (i % 7) as f32 * 0.01;
    }
    let hand = BreakthroughEval::for_mcts(board);
    for _ in 0..3 {
        let t = Instant::now();
        let mut sum = 0.0f32;
        let mut active = Active::default();
        for p in &positions {
            features.active(black_box(p), &mut active);
            sum += model.logit(active.as_slice());
        }
        black_box(sum);
        let net = t.elapsed().as_nanos() as f64 / positions.len() as f64;
        let t = Instant::now();
        let mut n = 0u64;
        for p in &positions {
            features.active(black_box(p), &mut active);
            n += active.as_slice()[3] as u64;
        }
        black_box(n);
        let extract = t.elapsed().as_nanos() as f64 / positions.len() as f64;
        let t = Instant::now();
        let mut s = 0i64;
        for p in &positions {
            s += hand.evaluate(black_box(p)) as i64;
        }
        black_box(s);
        let h = t.elapsed().as_nanos() as f64 / positions.len() as f64;
        // Every child of a sample of the positions: played and summed one by one, then
        // all at once from the parent.
        let parents = &positions[..positions.len() / 10];
        let t = Instant::now();
        let mut children = 0u64;
        let mut sum = 0.0f32;
        for p in parents {
            p.legal_moves(&mut moves);
            for &mv in &moves {
                let mut c = *black_box(p);
                c.play(mv);
                features.active(&c, &mut active);
                sum += model.logit(active.as_slice());
                children += 1;
            }
        }
        black_box(sum);
        let one_by_one = t.elapsed().as_nanos() as f64 / children as f64;
        let t = Instant::now();
        let mut sum = 0.0f32;
        for p in parents {
            p.legal_moves(&mut moves);
            features.child_sums(black_box(p), &moves, &model.weights, &mut |_, s| sum += s);
        }
        black_box(sum);
        let at_once = t.elapsed().as_nanos() as f64 / children as f64;
        println!(
            "{size}: a new node's children: {one_by_one:.1} ns a child one by one, {at_once:.1} ns all at once from the parent ({:.1} children a node)",
            children as f64 / parents.len() as f64
        );
        println!(
            "{size}: learned {net:.1} ns a position (features alone {extract:.1} ns; {} features, {} weights), hand-written {h:.1} ns",
            active.as_slice().len(),
            features.len()
        );
    }
}
