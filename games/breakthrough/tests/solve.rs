//! The exact solver: published results, agreement with an independent plain search on
//! small boards with and without a table, and the proof file (round trip, damage, holes).

use breakthrough::solve::{check, solve, table_in_memory, Options, Proof, ProofError, Quiet};
use breakthrough::{Board, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{GameResult, Side};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn board(w: u32, h: u32) -> Board {
    Board::new(w, h).unwrap()
}

#[test]
fn four_by_four_is_a_second_player_win_in_14_plies() {
    let root = Position::start(board(4, 4));
    let tb = table_in_memory(board(4, 4), 3).unwrap();
    for tablebase in [None, Some(&tb)] {
        let opts = Options {
            tablebase,
            ..Options::default()
        };
        let s = solve(&root, &opts, &Quiet).unwrap();
        assert_eq!(s.winner, Side::Second);
        assert_eq!(s.plies, 14);
        assert_eq!(s.line.len(), 14);
        // The line is legal and ends with Black's win.
        let mut pos = root;
        for &mv in &s.line {
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            assert!(legal.contains(&mv));
            pos.make_move(mv);
        }
        assert_eq!(pos.result(), Some(quasar_core::Outcome::Win(Side::Second)));
    }
}

/// Positions `plies` random moves from the start of `b`, unfinished.
fn random_positions(b: Board, plies: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(b);
        for _ in 0..plies {
            if pos.result().is_some() {
                break;
            }
            let mv = pos.random_move(&mut rng).unwrap();
            pos.make_move(mv);
        }
        if pos.result().is_none() && rng.random_bool(0.5) {
            out.push(pos);
        }
    }
    out
}

/// Winner and length from the core's exact solver, an independent plain search.
fn plain(pos: &Position) -> (Side, u32) {
    let mut ex = ExactSolver::<Position>::default();
    let s = ex
        .solve(pos, 60)
        .expect("small boards are solved within 60 plies");
    let winner = match s.result {
        GameResult::Win => pos.side(),
        _ => pos.side().opponent(),
    };
    (winner, s.plies)
}

#[test]
fn agrees_with_plain_search_on_small_boards() {
    for (w, h, plies, rows) in [
        (4, 4, 2, 3),
        (4, 5, 4, 3),
        (5, 4, 3, 3),
        (4, 5, 4, 4),
        (5, 5, 10, 3),
        (5, 5, 10, 4),
    ] {
        let b = board(w, h);
        let tb = table_in_memory(b, rows).unwrap();
        for pos in random_positions(b, plies, 12, w as u64 * 100 + h as u64 + rows as u64) {
            let expected = plain(&pos);
            for tablebase in [None, Some(&tb)] {
                let opts = Options {
                    tablebase,
                    table_bytes: 8 << 20,
                    ..Options::default()
                };
                let s = solve(&pos, &opts, &Quiet).unwrap();
                assert_eq!(
                    (s.winner, s.plies),
                    expected,
                    "{} with table: {}",
                    pos.to_fen(),
                    tablebase.is_some()
                );
            }
        }
    }
}
