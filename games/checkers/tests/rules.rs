//! The rules against the spec's perft and against an independent array-board reference.

mod common;

use checkers::{Board, Checkers, Position};
use common::{ArrayPos, ArrayReference};
use quasar_core::conformance::perft_file;
use quasar_core::conformance::{Suite, Symmetry};
use quasar_core::{Game, Outcome, Side, SplitMix64};
use rand::Rng;

/// The spec's perft from the start, depths 1-12: position, depth and leaves a line.
const PERFT: &str = include_str!("data/perft.txt");

#[test]
fn perft_from_the_start_to_depth_8() {
    let checked = perft_file::check::<Position>(PERFT, 1_000_000).unwrap();
    assert_eq!(checked, 8);
}

#[test]
#[ignore = "about a minute in release: cargo test -p checkers --release -- --ignored"]
fn perft_from_the_start_to_depth_12() {
    assert_eq!(perft_file::check::<Position>(PERFT, u64::MAX), Ok(12));
}

#[test]
fn the_reference_agrees_on_perft_from_the_start() {
    use quasar_core::conformance::Reference;
    for line in perft_file::parse(PERFT).unwrap().iter().take(6) {
        let r = ArrayPos::parse(&line.position).unwrap();
        assert_eq!(ArrayReference.perft(&r, line.depth), line.count);
    }
}

/// A random legal placement of up to `k` pieces a side (men off their far rows).
fn random_position(rng: &mut SplitMix64, k: u64) -> Position {
    let mut b = Board::default();
    for side in [Side::First, Side::Second] {
        let n = 1 + rng.next_u64() % k;
        for _ in 0..n {
            let s = (rng.next_u64() % 32) as u32;
            if (b.black | b.white) >> s & 1 == 1 {
                continue;
            }
            let king = rng.next_u64().is_multiple_of(3);
            let far = if side == Side::First { s >= 28 } else { s < 4 };
            if far && !king {
                continue;
            }
            match side {
                Side::First => b.black |= 1 << s,
                Side::Second => b.white |= 1 << s,
            }
            if king {
                b.kings |= 1 << s;
            }
        }
    }
    let side = if rng.next_u64() & 1 == 0 {
        Side::First
    } else {
        Side::Second
    };
    Position { board: b, side }
}

#[test]
fn conformance_against_the_array_board() {
    let reversed = Symmetry {
        name: "colours reversed",
        position: |p: &Position| p.reversed(),
        mv: |p: &Position, m| p.reversed_move(m),
        swaps_sides: true,
        order: 2,
    };
    let mut suite = Suite::new(ArrayReference)
        .start(Position::START, 6)
        .games_per_start(0)
        .symmetry(reversed);
    let endings = [
        // A king's multi-jump around a loop: several paths, the same end.
        "B:WK1,K6,14,15,22,23:BK10",
        "W:W9,10,17,18,25,26:BK1,K5,K32",
        // A man crowned mid-capture stops there.
        "B:W22,23,30,31:B19",
        "W:W6:B2,3,10,11",
        // Blocked: the side to move has no move and loses.
        "B:W9,14:B5",
        "B:W:B5",
        "W:W21:B",
        "B:WK14,K15,K18,K19:BK1,K32,23,10",
    ];
    for e in endings {
        suite = suite.position(Position::parse_position(e).unwrap(), 4);
    }
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        suite = suite.position(random_position(&mut rng, 6), 3);
    }
    let report = suite.run().unwrap_or_else(|f| panic!("{f}"));
    assert!(
        report.positions >= 308 && report.perft_leaves > 60_000,
        "{report:?}"
    );
    assert!(report.images > 1_000, "{report:?}");
}

#[test]
fn moves_are_written_and_read_in_pdn() {
    let p = Position::parse_position("B:W14,15,22,23:B10").unwrap();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
    assert!(
        texts.contains(&"10x17x26".to_string()) || texts.contains(&"10x19x26".to_string()),
        "{texts:?}"
    );
    for &m in &moves {
        assert_eq!(p.parse_move(&p.move_text(m)).unwrap(), m);
    }
    assert!(p.parse_move("10-15").is_err(), "a capture is compulsory");
    assert_eq!(
        Position::START.position_text(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
}

#[test]
fn random_games_in_play_end_by_the_rules_or_the_draw_rules() {
    let mut rng = SplitMix64::new(3);
    let mut moves = Vec::new();
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..200 {
        let mut g = Checkers::default();
        let mut plies = 0;
        while g.outcome().is_none() {
            g.legal_moves(&mut moves);
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            g.play(mv);
            plies += 1;
            // 12 men a side make at most 2 * 12 * 6 man moves and 23 captures; between
            // them at most 80 quiet plies.
            assert!(plies < 200 * 81, "game without end");
        }
        match g.outcome() {
            Some(Outcome::Draw) => draws += 1,
            _ => wins += 1,
        }
    }
    assert!(wins > 0 && draws > 0, "{wins} wins, {draws} draws");
}
