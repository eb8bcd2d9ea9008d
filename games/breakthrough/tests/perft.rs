//! Perft of the bitboard engine against the plain array-board reference in `reference/`:
//! start positions of many board sizes, positions where games end early, and positions
//! from random games.

mod reference;

use breakthrough::{Board, Position};
use quasar_core::perft;
use quasar_core::SplitMix64;
use reference::RefPos;

/// Engine and reference perft from `fen` at every depth up to `max_depth`.
fn check_fen(fen: &str, max_depth: u32) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("engine rejects {fen}: {e}"));
    let refpos = RefPos::from_fen(fen).unwrap_or_else(|e| panic!("reference rejects {fen}: {e}"));
    for depth in 0..=max_depth {
        assert_eq!(
            perft(&pos, depth),
            refpos.perft(depth),
            "perft {depth} of {fen}"
        );
    }
}

/// Engine and reference perft from the start of a `w x h` board.
fn check_start(w: u32, h: u32, max_depth: u32) {
    let pos = Position::start(Board::new(w, h).expect("legal board"));
    let refpos = RefPos::start(w as usize, h as usize);
    assert_eq!(pos.to_fen(), refpos.to_fen(), "start of {w}x{h}");
    for depth in 0..=max_depth {
        assert_eq!(
            perft(&pos, depth),
            refpos.perft(depth),
            "perft {depth} from the {w}x{h} start"
        );
    }
}

#[test]
fn start_8x8_to_depth_5() {
    // The reference stands on its own; the first counts are also easy to see by hand:
    // on row 2 the two edge pieces have 2 moves and the six others 3.
    assert_eq!(RefPos::start(8, 8).perft(1), 22);
    check_start(8, 8, 5);
}

#[test]
fn start_6x6_to_depth_6() {
    check_start(6, 6, 6);
}

#[test]
fn start_5x5_to_depth_7() {
    check_start(5, 5, 7);
}

#[test]
fn start_of_other_boards() {
    // Narrow, wide, short and long boards, down to the ones where the fronts touch at once.
    for &(w, h, depth) in &[
        (3, 4, 10),
        (3, 5, 9),
        (7, 4, 6),
        (4, 7, 6),
        (6, 5, 5),
        (4, 16, 5),
        (16, 4, 4),
        (3, 21, 7),
        (8, 7, 4),
        (7, 9, 4),
    ] {
        check_start(w, h, depth);
    }
}

#[test]
fn games_that_end_early() {
    let cases: &[(&str, u32)] = &[
        // Black has no piece: White has already won, one leaf at every depth.
        ("8/8/8/8/8/8/W7/8 w", 4),
        // White on the goal row with Black to move: over.
        ("W7/8/8/8/8/8/7B/8 b", 4),
        // A White piece one step from the goal: it can step in straight or by capture.
        ("BBB3/W5/6/6/6/WWW3 w", 6),
        ("1B3/W4/5/5/4W b", 6),
        // Black's last piece can be captured at once.
        ("8/8/8/8/8/3B4/4W3/8 w", 6),
        ("5/5/1B3/W4/5 w", 6),
        // Both sides race with single pieces.
        ("4B/5/5/5/W4 w", 9),
        ("3/B2/3/2W/3 b", 6),
        // Pieces blocked head-on with a capture the only way out.
        ("3/3/BBB/WWW/3 w", 8),
        ("1B1/1W1/3/3/3 w", 6),
        ("4/4/4/4/BBBB/WWWW/4/4 w", 6),
        // Long thin boards with the fronts far apart.
        ("3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/1B1/1W1 w", 8),
        ("1B1/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/1W1 w", 12),
        ("BBBB/4/4/4/4/4/4/4/4/4/4/4/4/4/4/WWWW w", 6),
        ("BBBBBBBBBBBBBBBB/16/16/WWWWWWWWWWWWWWWW b", 4),
    ];
    for &(fen, depth) in cases {
        check_fen(fen, depth);
    }
}

/// A position `plies` random moves into a game on `w x h`, played by the reference.
fn random_game_position(w: usize, h: usize, plies: usize, rng: &mut SplitMix64) -> RefPos {
    let mut pos = RefPos::start(w, h);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    pos
}

#[test]
fn positions_from_random_games() {
    let mut rng = SplitMix64::new(0x5eed_0002);
    for i in 0..12 {
        let plies = 10 + 4 * i;
        let fen = random_game_position(8, 8, plies, &mut rng).to_fen();
        check_fen(&fen, 4);
    }
    for &(w, h) in &[(6, 6), (5, 5), (3, 5), (7, 4), (4, 16), (3, 21), (6, 8)] {
        for plies in [4, 9, 15, 22] {
            let fen = random_game_position(w, h, plies, &mut rng).to_fen();
            check_fen(&fen, 5);
        }
    }
}

#[test]
fn three_row_boards_have_no_start() {
    // Two home rows per side need four rows; 3-row boards still hold positions.
    for (w, h) in [(3, 3), (5, 3), (21, 3)] {
        let board = Board::new(w, h).expect("legal board");
        assert!(Position::try_start(board).is_err(), "{w}x{h}");
    }
    assert!(Position::try_start(Board::new(3, 4).unwrap()).is_ok());
    check_fen("1B3/5/W4 w", 6);
}

#[test]
fn board_sizes_are_checked() {
    for bad in [
        "9x8",
        "8x9",
        "2x5",
        "5x2",
        "0x0",
        "3x22",
        "x8",
        "8x",
        "8*8",
        "",
        "-3x4",
        "4294967295x3",
        "3x1431655766",
        "65536x65536",
    ] {
        assert!(bad.parse::<Board>().is_err(), "accepted board '{bad}'");
    }
    for good in ["3x3", "8x8", "3x21", "21x3", "4x16", "16x4", "6X5"] {
        assert!(good.parse::<Board>().is_ok(), "rejected board '{good}'");
    }
}
