//! The generic exact solver checked against plain minimax on small Breakthrough boards.

use breakthrough::{Board, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{Game, GameResult, Outcome, Side};

/// Plain minimax without any table: +1 win / -1 loss for the side to move, with the
/// plies (fastest win, slowest loss); an independent second implementation.
fn minimax(pos: &Position, depth: u32) -> Option<(i32, u32)> {
    if let Some(o) = pos.outcome() {
        return Some((if o == Outcome::Win(pos.side()) { 1 } else { -1 }, 0));
    }
    if depth == 0 {
        return None;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<(i32, u32)> = None;
    let mut unknown = false;
    for mv in moves {
        let mut c = *pos;
        c.play(mv);
        match minimax(&c, depth - 1) {
            Some((v, p)) => {
                let cand = (-v, p + 1);
                let better = match best {
                    None => true,
                    Some((bv, bp)) => {
                        cand.0 > bv
                            || (cand.0 == bv && cand.0 > 0 && cand.1 < bp)
                            || (cand.0 == bv && cand.0 < 0 && cand.1 > bp)
                    }
                };
                if better {
                    best = Some(cand);
                }
            }
            None => unknown = true,
        }
    }
    match best {
        Some((1, p)) => Some((1, p)),
        Some(b) if !unknown => Some(b),
        _ => None,
    }
}

#[test]
fn agrees_with_plain_minimax_on_small_boards() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut checked = 0;
    for (w, h) in [(3u32, 4u32), (4, 4), (3, 5)] {
        let board = Board::new(w, h).unwrap();
        for _ in 0..60 {
            // Random sparse positions with a few pieces each, no side already won.
            let cells = board.cells();
            let (mut white, mut black) = (0u64, 0u64);
            for sq in 0..board.num_cells() {
                let bit = 1u64 << sq;
                match rng.random_range(0..6) {
                    0 => white |= bit,
                    1 => black |= bit,
                    _ => {}
                }
            }
            white &= cells & !board.last_row();
            black &= cells & !board.first_row();
            let side = if rng.random_bool(0.5) {
                Side::First
            } else {
                Side::Second
            };
            let Ok(pos) = Position::from_parts(board, white, black, side) else {
                continue;
            };
            if white == 0 || black == 0 {
                continue;
            }
            let want = minimax(&pos, 7);
            let got = ExactSolver::<Position>::default().solve(&pos, 7);
            match (want, got) {
                (Some((v, p)), Some(s)) => {
                    assert_eq!(v == 1, s.result == GameResult::Win, "{pos:?}");
                    assert_eq!(p, s.plies, "{pos:?}");
                    checked += 1;
                }
                (None, None) => {}
                (a, b) => panic!("{pos:?}: minimax {a:?}, solver {b:?}"),
            }
        }
    }
    assert!(checked > 50, "only {checked} positions were decided");
}

#[test]
fn best_move_achieves_the_value() {
    let pos = Position::from_fen("4/1B2/4/W3 w").unwrap();
    let s = ExactSolver::<Position>::default().solve(&pos, 20).unwrap();
    let mut child = pos;
    child.play(s.best_move.unwrap());
    let after = ExactSolver::<Position>::default()
        .solve(&child, 20)
        .unwrap();
    assert_eq!(after.result, s.result.flip());
    assert_eq!(after.plies + 1, s.plies);
}
