//! Breakthrough through the core's conformance suite, against the plain array-board
//! reference in `reference/`: start positions of many board sizes (perft, transpositions,
//! random games to the end), games that end early, positions from random games and random
//! placements, under the left-right mirror and the colour flip.

mod reference;

use breakthrough::{Board, Move, Position};
use quasar_core::conformance::{Failure, Reference, Report, Suite, Symmetry};
use quasar_core::{Outcome, Side, SplitMix64};
use reference::{RefMove, RefPos, Winner};

/// The reference seen by the suite.
struct Plain;

impl Reference for Plain {
    type Pos = RefPos;
    type Move = RefMove;

    fn parse_position(&self, text: &str) -> Option<RefPos> {
        RefPos::from_fen(text).ok()
    }

    fn position_text(&self, pos: &RefPos) -> String {
        pos.to_fen()
    }

    fn moves(&self, pos: &RefPos) -> Vec<RefMove> {
        pos.legal_moves()
    }

    fn move_text(&self, pos: &RefPos, mv: &RefMove) -> String {
        pos.move_text(*mv)
    }

    fn play(&self, pos: &mut RefPos, mv: &RefMove) {
        pos.play(*mv)
    }

    fn outcome(&self, pos: &RefPos) -> Option<Outcome> {
        pos.winner().map(|w| match w {
            Winner::White => Outcome::Win(Side::First),
            Winner::Black => Outcome::Win(Side::Second),
        })
    }

    fn perft(&self, pos: &RefPos, depth: u32) -> u64 {
        pos.perft(depth)
    }

    fn symmetry(&self, name: &str, pos: &RefPos) -> Option<RefPos> {
        match name {
            "mirror" => Some(pos.mirror()),
            "colour flip" => Some(pos.flip_colours()),
            _ => None,
        }
    }
}

/// A suite with Breakthrough's two symmetries.
fn suite() -> Suite<Position, Plain> {
    Suite::new(Plain)
        .symmetry(Symmetry {
            name: "mirror",
            position: Position::mirror,
            mv: |p: &Position, m: Move| p.mirror_move(m),
            swaps_sides: false,
            order: 2,
        })
        .symmetry(Symmetry {
            name: "colour flip",
            position: Position::flip_colours,
            mv: |p: &Position, m: Move| p.flip_move(m),
            swaps_sides: true,
            order: 2,
        })
}

fn passes(result: Result<Report, Failure>) -> Report {
    result.unwrap_or_else(|f| panic!("{f}"))
}

fn start(w: u32, h: u32) -> Position {
    Position::start(Board::new(w, h).expect("legal board"))
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("engine rejects {text}: {e}"))
}

#[test]
fn start_positions_of_many_sizes() {
    // The reference stands on its own; the first count is also easy to see by hand: on
    // row 2 the two edge pieces have 2 moves and the six others 3.
    assert_eq!(RefPos::start(8, 8).perft(1), 22);
    let mut s = suite().games_per_start(60);
    // Narrow, wide, short and long boards, down to the ones where the fronts touch at once.
    for (w, h, depth) in [
        (8, 8, 5),
        (6, 6, 6),
        (5, 5, 7),
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
        (6, 10, 4),
    ] {
        s = s.start(start(w, h), depth);
    }
    let report = passes(s.run());
    assert_eq!(report.games, 14 * 60);
    assert!(report.positions > 20_000, "{report:?}");
    assert!(report.transpositions > 10_000, "{report:?}");
    assert!(report.mutations > 1_000, "{report:?}");
}

#[test]
fn games_that_end_early() {
    let mut s = suite();
    for (text, depth) in [
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
        // Three rows: a board with positions but no start position.
        ("1B3/5/W4 w", 6),
    ] {
        s = s.position(fen(text), depth);
    }
    passes(s.run());
}

/// A position `plies` random moves into a game on `w x h`, played by the reference.
fn random_game_position(w: usize, h: usize, plies: usize, rng: &mut SplitMix64) -> Position {
    let mut pos = RefPos::start(w, h);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    fen(&pos.to_fen())
}

#[test]
fn positions_from_random_games() {
    let mut rng = SplitMix64::new(0x5eed_0002);
    let mut s = suite();
    for i in 0..12 {
        s = s.position(random_game_position(8, 8, 10 + 4 * i, &mut rng), 4);
    }
    for (w, h) in [(6, 6), (5, 5), (3, 5), (7, 4), (4, 16), (3, 21), (6, 8)] {
        for plies in [4, 9, 15, 22] {
            s = s.position(random_game_position(w, h, plies, &mut rng), 5);
        }
    }
    passes(s.run());
}

#[test]
fn random_placements() {
    // Boards of many shapes, from the smallest to the longest, sparse to crowded.
    let mut rng = SplitMix64::new(0xfeed);
    let mut s = suite();
    let mut placed = 0;
    for &(w, h) in reference::BOARDS {
        for fill in [5, 15, 30, 60, 90] {
            for i in 0..150 {
                let refpos = RefPos::random_placement(w, h, fill, &mut rng);
                let text = refpos.to_fen();
                // The engine refuses only positions in which both sides have won.
                let white_won = refpos.cells[h - 1].contains(&reference::Cell::White)
                    || !refpos
                        .cells
                        .iter()
                        .flatten()
                        .any(|&c| c == reference::Cell::Black);
                let black_won = refpos.cells[0].contains(&reference::Cell::Black)
                    || !refpos
                        .cells
                        .iter()
                        .flatten()
                        .any(|&c| c == reference::Cell::White);
                match Position::from_fen(&text) {
                    Ok(pos) => {
                        // A few get a deeper perft, which the symmetries must keep too.
                        let depth = if i % 25 == 0 && fill == 30 { 4 } else { 1 };
                        s = s.position(pos, depth);
                        placed += 1;
                    }
                    Err(e) => assert!(white_won && black_won, "engine rejects {text}: {e}"),
                }
            }
        }
    }
    assert!(placed > 5_000, "only {placed} placements");
    let report = passes(s.run());
    assert!(report.images > 10_000, "{report:?}");
}
