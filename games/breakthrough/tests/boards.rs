//! Board sizes: which are accepted, and which have a start position. Perft from the start
//! of many sizes runs in the conformance suite (`conformance.rs`).

use breakthrough::{Board, Position};

#[test]
fn three_row_boards_have_no_start() {
    // Two home rows per side need four rows; 3-row boards still hold positions.
    for (w, h) in [(3, 3), (5, 3), (21, 3)] {
        let board = Board::new(w, h).expect("legal board");
        assert!(Position::try_start(board).is_err(), "{w}x{h}");
    }
    assert!(Position::try_start(Board::new(3, 4).unwrap()).is_ok());
    assert!(Position::from_fen("1B3/5/W4 w").is_ok());
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
