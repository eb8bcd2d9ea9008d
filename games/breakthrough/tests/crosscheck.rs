//! The bitboard engine against the plain array-board reference in `reference/` where the
//! core's conformance suite (`conformance.rs`) does not reach: every position of the
//! smallest boards, the random move and the fused playout, and the errors on bad text.

mod reference;

use breakthrough::{Board, Move, Position, BLACK, WHITE};
use quasar_core::{Game, Outcome, SplitMix64};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::{Cell, RefPos, Winner};

fn ref_winner(o: Option<Outcome>) -> Option<Winner> {
    match o {
        None => None,
        Some(Outcome::Win(s)) if s == WHITE => Some(Winner::White),
        Some(Outcome::Win(_)) => Some(Winner::Black),
        Some(Outcome::Draw) => panic!("Breakthrough has no draws"),
    }
}

fn engine_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.sort();
    moves
}

fn reference_moves(pos: &RefPos) -> Vec<Move> {
    let mut moves: Vec<Move> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let (from, to) = m.indices(pos.width);
            Move { from, to }
        })
        .collect();
    moves.sort();
    moves
}

/// Every placement of pieces on a board of `w * h <= 12` cells, both sides to move.
fn every_position(w: usize, h: usize) {
    let n = w * h;
    let board = Board::new(w as u32, h as u32).unwrap();
    let mut no_move_losses = 0;
    for code in 0..3usize.pow(n as u32) {
        let mut refpos = RefPos::random_placement(w, h, 0, &mut SplitMix64::new(0));
        let (mut white, mut black) = (0u64, 0u64);
        let mut c = code;
        for i in 0..n {
            let (col, row) = (i % w, i / w);
            match c % 3 {
                1 => {
                    refpos.cells[row][col] = Cell::White;
                    white |= 1 << i;
                }
                2 => {
                    refpos.cells[row][col] = Cell::Black;
                    black |= 1 << i;
                }
                _ => {}
            }
            c /= 3;
        }
        for (side, white_to_move) in [(WHITE, true), (BLACK, false)] {
            refpos.white_to_move = white_to_move;
            let Ok(pos) = Position::from_parts(board, white, black, side) else {
                continue;
            };
            assert_eq!(ref_winner(pos.outcome()), refpos.winner());
            assert_eq!(engine_moves(&pos), reference_moves(&refpos));
            let has_pieces = if white_to_move { white } else { black } != 0;
            if refpos.winner().is_some()
                && has_pieces
                && refpos.cells[h - 1].iter().all(|&c| c != Cell::White)
                && refpos.cells[0].iter().all(|&c| c != Cell::Black)
                && white != 0
                && black != 0
            {
                no_move_losses += 1;
            }
        }
    }
    // The spec's "a side to move without a legal move loses" never fires: the most
    // advanced piece of the side to move always has a diagonal step onto an empty cell
    // or an opponent piece. The engine implements the rule anyway; this pins the fact.
    assert_eq!(no_move_losses, 0, "{w}x{h}");
}

#[test]
fn every_position_of_the_smallest_boards() {
    every_position(3, 3);
    every_position(3, 4);
    every_position(4, 3);
}

#[test]
fn the_start_under_the_symmetries() {
    let start = Position::start(Board::new(8, 8).unwrap());
    assert_eq!(start.mirror(), start);
    assert_eq!(start.flip_colours().flip_colours(), start);
    // The start flipped is the start with Black to move: same pieces, other side.
    assert_eq!(
        start.flip_colours().to_fen(),
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW b"
    );
}

#[test]
fn random_move_is_uniform() {
    let pos = Position::start(Board::new(8, 8).unwrap());
    let moves = engine_moves(&pos);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let draws_per_move = 10_000;
    let mut counts = vec![0u32; moves.len()];
    for _ in 0..draws_per_move * moves.len() {
        let mv = pos.random_move(&mut rng).expect("the start has moves");
        let i = moves
            .binary_search(&mv)
            .expect("random_move gives a legal move");
        counts[i] += 1;
    }
    // Chi-square with 21 degrees of freedom: 46.8 is its 0.999 quantile.
    let expected = draws_per_move as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 46.8, "chi-square {chi2:.1}, counts {counts:?}");
}

#[test]
fn random_playout_plays_random_moves_to_the_end() {
    // The fast playout must be the plain loop (random move, play, check the end), draw for
    // draw: same random numbers, same game, same final position.
    for &(w, h) in &[(8usize, 8usize), (6, 6), (5, 5), (3, 21), (16, 4), (7, 9)] {
        let mut placements = SplitMix64::new(w as u64 * 100 + h as u64);
        for seed in 0..300 {
            // From the start, from Black to move after one move, and from random placements.
            let mut refpos = RefPos::start(w, h);
            if seed % 3 == 1 {
                let moves = refpos.legal_moves();
                refpos.play(moves[placements.below(moves.len())]);
            } else if seed % 3 == 2 {
                refpos = RefPos::random_placement(w, h, 30, &mut placements);
            }
            let Ok(first) = Position::from_fen(&refpos.to_fen()) else {
                continue;
            };
            let mut fast = first;
            let (fast_outcome, plies) =
                fast.random_playout_plies(&mut Xoshiro256PlusPlus::seed_from_u64(seed));

            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut slow = first;
            let mut slow_plies = 0;
            while refpos.winner().is_none() {
                let mv = slow
                    .random_move(&mut rng)
                    .expect("an unfinished game has moves");
                let legal = engine_moves(&slow);
                assert!(legal.contains(&mv));
                let text = slow.move_text(mv);
                slow.play(mv);
                let m = refpos
                    .legal_moves()
                    .into_iter()
                    .find(|&m| refpos.move_text(m) == text)
                    .expect("the reference knows the move");
                refpos.play(m);
                slow_plies += 1;
            }
            assert_eq!(fast, slow, "{w}x{h} seed {seed}");
            assert_eq!(plies, slow_plies, "{w}x{h} seed {seed}");
            assert_eq!(ref_winner(Some(fast_outcome)), refpos.winner());
        }
    }
}

#[test]
fn move_text_errors() {
    let start = Position::start(Board::new(8, 8).unwrap());
    let b2 = 9u8;
    assert_eq!(start.parse_move("b2-b3"), Ok(Move { from: b2, to: 17 }));
    assert_eq!(start.parse_move("b2-c3"), Ok(Move { from: b2, to: 18 }));
    for bad in [
        "",
        "b2",
        "b2-",
        "-b3",
        "b2xb3", // a step written as a capture
        "b2+b3",
        "b2--b3",
        "b2-b4", // two rows
        "b2-b1", // blocked by its own piece
        "b7-b6", // Black's piece, White to move
        "c3-c4", // empty cell
        "i2-i3",
        "a9-a8",
        "a0-a1",
        "b2-b99999999999999999999",
        "2b-3b",
        "é2-e3",
        "b2-b3-b4",
    ] {
        assert!(start.parse_move(bad).is_err(), "accepted '{bad}'");
    }
    // Captures must be written with 'x'.
    let pos = Position::from_fen("8/8/8/8/8/2B5/1W6/8 w").unwrap();
    assert_eq!(pos.parse_move("b2xc3"), Ok(Move { from: b2, to: 18 }));
    assert!(pos.parse_move("b2-c3").is_err());
    assert_eq!(pos.move_text(Move { from: b2, to: 18 }), "b2xc3");
    // No move is legal once the game is over.
    let over = Position::from_fen("W7/8/8/8/8/8/1B6/8 b").unwrap();
    assert!(over.parse_move("b2-b1").is_err());
}

#[test]
fn position_text_errors() {
    for bad in [
        "",
        "w",
        "8/8/8/8/8/8/8/8",                                     // no side to move
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW",         // no side to move
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW x",       // bad side
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w extra", // trailing text
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWQ/WWWWWWWW w",       // bad character
        "BBBBBBBB/BBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w",        // unequal rows
        "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWWW w",      // unequal rows
        "BBBBBBBBB/BBBBBBBBB/9/9/9/9/WWWWWWWWW/WWWWWWWWW w",   // 9x8 is too big
        "BB/BB/WW/WW w",                                       // 2 columns
        "BBB/WWW w",                                           // 2 rows
        "BBBBBBBB//8/8/8/8/WWWWWWWW/WWWWWWWW w",               // empty row
        "BBBBBBBB/BBBBBBBB/0/8/8/8/WWWWWWWW/WWWWWWWW w",       // zero run
        "BBBBBBBB/BBBBBBBB/99999999999999999999/8/8/8/WWWWWWWW/WWWWWWWW w",
        "BBB/BBB/3/W1W1/WWW w",
        "W2/3/3/3/B2 w", // both sides on their goal rows
        "/ w",
    ] {
        assert!(Position::from_fen(bad).is_err(), "engine accepted '{bad}'");
    }
    // Mutated texts never panic; what the engine accepts, the reference reads the same.
    let mut rng = SplitMix64::new(4242);
    let alphabet = b"WB0123456789/ wbx";
    for _ in 0..20_000 {
        let (w, h) = reference::BOARDS[rng.below(reference::BOARDS.len())];
        let mut text = RefPos::random_placement(w, h, 40, &mut rng)
            .to_fen()
            .into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(text.len() + 1);
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 if at < text.len() => text[at] = c,
                _ => text.insert(at, c),
            }
        }
        let text = String::from_utf8(text).unwrap();
        if let Ok(refpos) = RefPos::from_fen(&text) {
            let both_won = refpos.cells[refpos.height - 1].contains(&Cell::White)
                && refpos.cells[0].contains(&Cell::Black)
                || refpos.cells.iter().flatten().all(|&c| c == Cell::Empty);
            if !both_won {
                assert!(Position::from_fen(&text).is_ok(), "engine rejects '{text}'");
            }
        }
        if let Ok(pos) = Position::from_fen(&text) {
            // The engine also takes the side to move in capitals ('W', 'B').
            let fields: Vec<&str> = text.split_whitespace().collect();
            let spec_text = format!("{} {}", fields[0], fields[1].to_lowercase());
            let refpos =
                RefPos::from_fen(&spec_text).expect("reference reads what the engine reads");
            assert_eq!(pos.to_fen(), refpos.to_fen(), "reading '{text}'");
        }
    }
}

#[test]
fn errors_tell_their_kind() {
    use breakthrough::{BoardError, CellError, Illegal, MoveError, PositionError};
    use quasar_core::ParseError;

    // Breakthrough's own errors, for callers that know the game.
    assert_eq!(
        "9x8".parse::<Board>(),
        Err(BoardError::TooManyCells {
            width: 9,
            height: 8,
            cells: 72
        })
    );
    assert!(matches!(
        Position::from_fen("BBB/BBB/3/W1W1/WWW w"),
        Err(PositionError::UnequalRows { rank: 2, .. })
    ));
    let start = Position::start(Board::new(8, 8).unwrap());
    assert!(matches!(
        start.parse_move_text("zz"),
        Err(MoveError::BadCell {
            cell: CellError::ColumnOff { letter: 'z', .. },
            ..
        })
    ));

    // Through the Game trait: the core's kinds, with the game's error inside.
    let kind = |r: Result<Position, ParseError>| r.expect_err("bad text");
    let e = kind(Position::parse_position(
        "BBBBBBBBB/9/9/9/9/9/9/WWWWWWWWW w",
    ));
    assert!(matches!(e, ParseError::Board(_)), "{e:?}");
    assert_eq!(
        e.downcast_ref::<BoardError>(),
        Some(&BoardError::TooManyCells {
            width: 9,
            height: 8,
            cells: 72
        })
    );
    let e = kind(Position::parse_position("BBB/BBB/3/WWQ/WWW w"));
    assert!(matches!(e, ParseError::Position(_)), "{e:?}");
    assert!(matches!(
        e.downcast_ref::<PositionError>(),
        Some(PositionError::BadChar { found: 'Q', .. })
    ));
    for (text, illegal) in [
        ("a2-a4", true),
        ("b3-b4", true),
        ("a2xa3", false),
        ("a9-a8", false),
    ] {
        let e = start.parse_move(text).expect_err(text);
        assert_eq!(
            matches!(e, ParseError::IllegalMove(_)),
            illegal,
            "{text}: {e:?}"
        );
        assert_eq!(matches!(e, ParseError::Move(_)), !illegal, "{text}: {e:?}");
    }
    let over = Position::from_fen("W3/4/1B2/4 b").unwrap();
    let e = over.parse_move("b2-b1").expect_err("the game is over");
    assert_eq!(
        e.downcast_ref::<MoveError>(),
        Some(&MoveError::Illegal {
            text: "b2-b1".into(),
            why: Illegal::GameOver { winner: "White" }
        })
    );

    // The messages a user reads (the end-to-end tests expect these words).
    assert!(start
        .parse_move("a2-a4")
        .unwrap_err()
        .to_string()
        .starts_with("illegal move 'a2-a4': legal moves are a2-a3 a2-b3 b2-a3 b2-b3 b2-c3 "));
    assert_eq!(
        start.parse_move("zz").unwrap_err().to_string(),
        "bad move 'zz': column 'z' is off the 8x8 board (columns a-h)"
    );
    assert_eq!(
        over.parse_move("b2-b1").unwrap_err().to_string(),
        "illegal move 'b2-b1': the game is over (White has won)"
    );
    assert_eq!(
        "2x5".parse::<Board>().unwrap_err().to_string(),
        "board 2x5 is too small: Breakthrough needs at least 3 columns and 3 rows"
    );
}
