//! The rules against an independent second implementation (axial coordinates, hash sets,
//! recursive hop search; no code shared with the crate) through the core conformance
//! suite, and the solved 2-piece game against the half-space solve and a brute force.

use chinese_checkers::solve::{solve_full, solve_half};
use chinese_checkers::{CcSpace, Position};
use quasar_core::conformance::{Reference, Suite, Symmetry};
use quasar_core::{Game, GameResult, Outcome, Side, SplitMix64};
use retro::symmetric::MirrorOptions;
use retro::wdl::{Method, WdlOptions};
use retro::PerfectIndex;
use std::collections::HashSet;

/// A position as the reference sees it: pieces as coordinates, and who moves (0 or 1).
#[derive(Clone, Debug)]
struct RPos {
    pieces: [Vec<(i32, i32)>; 2],
    turn: usize,
}

/// The spec's numbering, written from its formula.
fn cell_number(p: i32, q: i32) -> usize {
    const ROW_START: [usize; 13] = [0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43, 46, 48];
    let r = (p + q) as usize;
    ROW_START[r]
        + if p + q <= 6 {
            q as usize
        } else {
            (6 - p) as usize
        }
}

fn all_cells() -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = (0..7).flat_map(|p| (0..7).map(move |q| (p, q))).collect();
    v.sort_by_key(|&(p, q)| cell_number(p, q));
    v
}

struct Ref;

impl Ref {
    fn k(pos: &RPos) -> usize {
        pos.pieces[0].len()
    }
    fn goal(pos: &RPos, player: usize) -> Vec<(i32, i32)> {
        let cells = all_cells();
        let k = Self::k(pos);
        if player == 0 {
            cells[49 - k..].to_vec()
        } else {
            cells[..k].to_vec()
        }
    }
    fn occupied(pos: &RPos, c: (i32, i32)) -> bool {
        pos.pieces.iter().any(|s| s.contains(&c))
    }
    fn won(pos: &RPos, player: usize) -> bool {
        let goal = Self::goal(pos, player);
        goal.iter().all(|&c| Self::occupied(pos, c))
            && goal.iter().any(|c| pos.pieces[player].contains(c))
    }
    fn on_board(c: (i32, i32)) -> bool {
        (0..7).contains(&c.0) && (0..7).contains(&c.1)
    }
    fn hops(pos: &RPos, lifted: (i32, i32), at: (i32, i32), seen: &mut HashSet<(i32, i32)>) {
        for (dp, dq) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            let over = (at.0 + dp, at.1 + dq);
            let land = (at.0 + 2 * dp, at.1 + 2 * dq);
            let full = |c| c != lifted && Self::occupied(pos, c);
            if Self::on_board(land) && full(over) && !full(land) && seen.insert(land) {
                Self::hops(pos, lifted, land, seen);
            }
        }
    }
}

fn name(c: (i32, i32)) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
}

impl Reference for Ref {
    type Pos = RPos;
    type Move = ((i32, i32), (i32, i32));

    fn parse_position(&self, text: &str) -> Option<RPos> {
        let (rows, side) = text.split_once(' ')?;
        let turn = match side {
            "X" => 0,
            "O" => 1,
            _ => return None,
        };
        let chars: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
        if chars.len() != 49 {
            return None;
        }
        let mut pieces = [Vec::new(), Vec::new()];
        for (c, ch) in all_cells().into_iter().zip(chars) {
            match ch {
                'X' => pieces[0].push(c),
                'O' => pieces[1].push(c),
                _ => {}
            }
        }
        Some(RPos { pieces, turn })
    }

    fn position_text(&self, pos: &RPos) -> String {
        let mut s = String::new();
        let cells = all_cells();
        let widths = [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1];
        let mut i = 0;
        for (r, w) in widths.iter().enumerate() {
            if r > 0 {
                s.push('/');
            }
            for _ in 0..*w {
                let c = cells[i];
                s.push(if pos.pieces[0].contains(&c) {
                    'X'
                } else if pos.pieces[1].contains(&c) {
                    'O'
                } else {
                    '.'
                });
                i += 1;
            }
        }
        s + if pos.turn == 0 { " X" } else { " O" }
    }

    fn moves(&self, pos: &RPos) -> Vec<Self::Move> {
        if self.outcome(pos).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &from in &pos.pieces[pos.turn] {
            let mut dest = HashSet::new();
            for (dp, dq) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                let to = (from.0 + dp, from.1 + dq);
                if Ref::on_board(to) && !Ref::occupied(pos, to) {
                    dest.insert(to);
                }
            }
            Ref::hops(pos, from, from, &mut dest);
            dest.remove(&from);
            out.extend(dest.into_iter().map(|to| (from, to)));
        }
        out
    }

    fn move_text(&self, _: &RPos, mv: &Self::Move) -> String {
        format!("{}-{}", name(mv.0), name(mv.1))
    }

    fn play(&self, pos: &mut RPos, mv: &Self::Move) {
        let me = &mut pos.pieces[pos.turn];
        let i = me.iter().position(|&c| c == mv.0).expect("own piece");
        me[i] = mv.1;
        pos.turn = 1 - pos.turn;
    }

    fn outcome(&self, pos: &RPos) -> Option<Outcome> {
        let last = 1 - pos.turn;
        let side = if last == 0 { Side::First } else { Side::Second };
        if Ref::won(pos, last) {
            return Some(Outcome::Win(side));
        }
        None
    }
}

fn random_position(space: &CcSpace, rng: &mut SplitMix64) -> Position {
    let n = PerfectIndex::size(space) as usize;
    space.unrank_pos(rng.below(n) as u64)
}

#[test]
fn the_rules_agree_with_the_reference() {
    let mut suite = Suite::new(Ref)
        .start(Position::start(2).unwrap(), 4)
        .start(Position::start(3).unwrap(), 3)
        .start(Position::start(1).unwrap(), 5)
        .symmetry(Symmetry {
            name: "half turn with colours swapped",
            position: Position::flipped,
            mv: Position::flip_move,
            swaps_sides: true,
            order: 2,
        })
        .games_per_start(10)
        .ply_cap(100_000);
    let mut rng = SplitMix64::new(7);
    for k in [1, 2, 3] {
        let space = CcSpace::new(k).unwrap();
        for _ in 0..150 {
            suite = suite.position(random_position(&space, &mut rng), 2);
        }
    }
    let report = suite.run().unwrap();
    assert!(report.positions >= 450, "{report:?}");
    assert!(report.perft_leaves > 10_000, "{report:?}");
    assert!(report.images >= 450, "{report:?}");
}

#[test]
fn the_mirror_is_a_symmetry_with_three_pieces() {
    let mut suite = Suite::new(Ref)
        .start(Position::start(3).unwrap(), 3)
        .symmetry(Symmetry {
            name: "mirror",
            position: Position::mirrored,
            mv: Position::mirror_move,
            swaps_sides: false,
            order: 2,
        })
        .games_per_start(2)
        .ply_cap(100_000);
    let space = CcSpace::new(3).unwrap();
    let mut rng = SplitMix64::new(3);
    for _ in 0..100 {
        suite = suite.position(random_position(&space, &mut rng), 1);
    }
    suite.run().unwrap();
}

#[test]
fn perft_from_the_two_piece_start() {
    let perft = include_str!("data/perft.txt");
    let lines = quasar_core::conformance::perft_file::parse(perft).unwrap();
    // The file's position is the two-piece start.
    let start = Position::start(2).unwrap();
    assert!(lines.iter().all(|l| l.position == start.position_text()));
    assert_eq!(
        quasar_core::conformance::perft_file::check::<Position>(perft, u64::MAX),
        Ok(5)
    );
    let deepest = lines.last().unwrap();
    let r = Ref.parse_position(&deepest.position).unwrap();
    assert_eq!(Ref.perft(&r, deepest.depth), deepest.count);
}

#[test]
fn unmoves_are_the_inverse_of_moves() {
    use retro::{Child, RetroGame};
    let space = CcSpace::new(2).unwrap();
    let mut rng = SplitMix64::new(11);
    let (mut kids, mut parents) = (Vec::new(), Vec::new());
    for _ in 0..2000 {
        let i = rng.below(PerfectIndex::size(&space) as usize) as u64;
        if space.terminal(i).is_some() {
            continue;
        }
        space.successors(i, &mut kids);
        for c in &kids {
            let Child::Pos(c) = *c else { unreachable!() };
            space.predecessors(c, &mut parents);
            assert_eq!(parents.iter().filter(|&&p| p == i).count(), 1);
        }
    }
}

/// Plain value iteration (no solver code): a win if some move reaches a lost position, a
/// loss if every move reaches a won one, repeated until nothing changes.
#[test]
fn the_one_piece_game_matches_a_brute_force_and_every_solver() {
    let space = CcSpace::new(1).unwrap();
    let n = PerfectIndex::size(&space) as usize;
    let pos: Vec<Position> = (0..n as u64).map(|i| space.unrank_pos(i)).collect();
    let mut val: Vec<Option<(bool, u32)>> = pos
        .iter()
        .map(|p| p.outcome().map(|_| (false, 0)))
        .collect();
    let mut moves = Vec::new();
    loop {
        let mut next = val.clone();
        for i in 0..n {
            if val[i].is_some() {
                continue;
            }
            pos[i].legal_moves(&mut moves);
            let kids: Vec<Option<(bool, u32)>> = moves
                .iter()
                .map(|&m| val[space.rank_pos(&pos[i].after(m)) as usize])
                .collect();
            if let Some(p) = kids.iter().flatten().filter(|v| !v.0).map(|v| v.1).min() {
                next[i] = Some((true, p + 1));
            } else if kids.iter().all(|v| matches!(v, Some((true, _)))) {
                next[i] = Some((false, kids.iter().flatten().map(|v| v.1).max().unwrap() + 1));
            }
        }
        if next == val {
            break;
        }
        val = next;
    }
    let (half, _) =
        solve_half(1, &MirrorOptions::default(), &quasar_core::progress::Silent).unwrap();
    let (full, _) = solve_full(
        1,
        Method::Counters,
        WdlOptions::default(),
        &quasar_core::progress::Silent,
    )
    .unwrap();
    for (i, p) in pos.iter().enumerate() {
        let want = match val[i] {
            None => (GameResult::Draw, 0),
            Some((true, d)) => (GameResult::Win, d),
            Some((false, d)) => (GameResult::Loss, d),
        };
        assert_eq!(half.value(p), Some(want), "{}", p.position_text());
        assert_eq!(full.value(p), Some(want), "{}", p.position_text());
    }
}

#[test]
fn two_pieces_reproduce_the_paper() {
    let o = WdlOptions {
        win_only: true,
        layered: true,
        direct: false,
        no_dup: true,
        parallel: false,
    };
    let (t, r) = solve_full(2, Method::Backward, o, &quasar_core::progress::Silent).unwrap();
    assert_eq!(r.backward_expansions, 1_271_256);
    assert_eq!(r.forward_expansions, 3_374_445);
    assert_eq!(r.first_wins, 1_271_256);
    // 37 iterations that solve something, and the last that finds nothing.
    assert_eq!(r.iterations, 38);
    let (_, r) = solve_full(
        2,
        Method::Backward,
        WdlOptions {
            win_only: false,
            ..o
        },
        &quasar_core::progress::Silent,
    )
    .unwrap();
    assert_eq!(r.backward_expansions, 2_542_512);
    assert_eq!(r.forward_expansions, 4_348_806);
    assert_eq!(r.undecided, 0);
    let (half, hr) =
        solve_half(2, &MirrorOptions::default(), &quasar_core::progress::Silent).unwrap();
    assert_eq!(hr.draws, 0);
    let start = Position::start(2).unwrap();
    assert_eq!(half.value(&start), Some((GameResult::Win, 33)));
    // The win-only table and the half-space one agree on every first-player win.
    for i in (0..PerfectIndex::size(half.space())).step_by(97) {
        let p = half.space().unrank_pos(i);
        let first_wins = matches!(
            (half.value(&p).unwrap().0, p.side),
            (GameResult::Win, Side::First) | (GameResult::Loss, Side::Second)
        );
        let (r, _) = t.value(&p).unwrap();
        let table_says = matches!(
            (r, p.side),
            (GameResult::Win, Side::First) | (GameResult::Loss, Side::Second)
        );
        assert_eq!(first_wins, table_says, "{}", p.position_text());
    }
    assert_eq!(half.verify(Some(20_000), 1).inconsistent, 0);
}
