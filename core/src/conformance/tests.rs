//! The suite against the toy game with and without injected bugs: a bug must fail the
//! check that names it.

use super::*;
use crate::toy::*;

/// The rules again, on a vector of piles and string moves.
struct Plain;

impl Reference for Plain {
    type Pos = (Vec<u32>, bool);
    type Move = (usize, u32);

    fn parse_position(&self, text: &str) -> Option<Self::Pos> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 3 {
            return None;
        }
        let piles = vec![f[0].parse().ok()?, f[1].parse().ok()?];
        Some((piles, f[2] == "f"))
    }

    fn position_text(&self, (piles, first): &Self::Pos) -> String {
        format!(
            "{} {} {}",
            piles[0],
            piles[1],
            if *first { "f" } else { "s" }
        )
    }

    fn moves(&self, (piles, _): &Self::Pos) -> Vec<(usize, u32)> {
        let mut out = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            for n in 1..=p.min(2) {
                out.push((i, n));
            }
        }
        out
    }

    fn move_text(&self, _: &Self::Pos, &(i, n): &(usize, u32)) -> String {
        format!("{}{n}", ["a", "b"][i])
    }

    fn play(&self, (piles, first): &mut Self::Pos, &(i, n): &(usize, u32)) {
        piles[i] -= n;
        *first = !*first;
    }

    fn outcome(&self, (piles, first): &Self::Pos) -> Option<Outcome> {
        let winner = if *first { Side::Second } else { Side::First };
        piles
            .iter()
            .all(|&p| p == 0)
            .then_some(Outcome::Win(winner))
    }

    fn symmetry(&self, name: &str, (piles, first): &Self::Pos) -> Option<Self::Pos> {
        (name == "swap piles").then(|| (vec![piles[1], piles[0]], *first))
    }
}

fn suite<const BUG: u8>() -> Suite<Piles<BUG>, Plain> {
    Suite::new(Plain)
        .start(Piles::new(4, 3), 6)
        .start(Piles::new(7, 7), 4)
        .position(Piles::new(0, 2), 3)
        .symmetry(Symmetry {
            name: "swap piles",
            position: Piles::mirror,
            mv: Piles::mirror_move,
            swaps_sides: false,
            order: 2,
        })
        .games_per_start(10)
        .ply_cap(50)
}

#[test]
fn a_correct_game_passes_with_every_check_exercised() {
    let report = suite::<NONE>().run().expect("the toy is correct");
    assert!(report.positions > 50, "{report:?}");
    assert!(report.moves > 100, "{report:?}");
    assert!(report.perft_leaves > 100, "{report:?}");
    assert!(report.transpositions > 10, "{report:?}");
    assert_eq!(report.games, 20);
    assert!(report.images > 50, "{report:?}");
    assert!(report.mutations > 20, "{report:?}");
}

#[test]
fn each_injected_bug_fails_its_check() {
    let check = |r: Result<Report, Failure>| r.expect_err("the bug goes unnoticed").check;
    assert_eq!(check(suite::<MOVE_TEXT>().run()), Check::MoveText);
    assert_eq!(check(suite::<HASH_HISTORY>().run()), Check::Hash);
    assert_eq!(check(suite::<MISSING_MOVE>().run()), Check::Moves);
    // Perft alone (no single positions, no random games) sees the missing move too.
    let perft_only = Suite::new(Plain)
        .start(Piles::<MISSING_MOVE>::new(4, 3), 4)
        .games_per_start(0);
    assert_eq!(check(perft_only.run()), Check::Perft);
    assert_eq!(check(suite::<ENDLESS>().run()), Check::Outcome);
    assert_eq!(check(suite::<BAD_MIRROR>().run()), Check::Symmetry);
    assert_eq!(check(suite::<TEXT_DROPS_SIDE>().run()), Check::PositionText);
}

#[test]
fn a_game_that_never_ends_fails_the_playout_check() {
    // Agreeing with a reference that is just as endless: only the ply cap notices.
    #[derive(Clone, Copy)]
    struct Endless;
    impl Reference for Endless {
        type Pos = Piles<ENDLESS>;
        type Move = (u8, u8);
        fn parse_position(&self, text: &str) -> Option<Self::Pos> {
            Piles::parse_position(text).ok()
        }
        fn position_text(&self, pos: &Self::Pos) -> String {
            pos.position_text()
        }
        fn moves(&self, pos: &Self::Pos) -> Vec<(u8, u8)> {
            let mut m = Vec::new();
            pos.legal_moves(&mut m);
            m
        }
        fn move_text(&self, pos: &Self::Pos, mv: &(u8, u8)) -> String {
            pos.move_text(*mv)
        }
        fn play(&self, pos: &mut Self::Pos, mv: &(u8, u8)) {
            pos.play(*mv)
        }
        fn outcome(&self, pos: &Self::Pos) -> Option<Outcome> {
            pos.outcome()
        }
    }
    let result = Suite::new(Endless)
        .start(Piles::<ENDLESS>::new(2, 1), 2)
        .ply_cap(40)
        .run();
    assert_eq!(result.expect_err("endless").check, Check::Playout);
}
