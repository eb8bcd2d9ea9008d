//! The databases' own build against the generic retrograde solver: each slice solved by
//! `retro` as a game of its own, whose captures and promotions leave it for the smaller
//! slices' values ([`Child::Exit`]), equals the build on every position.

use checkers::db::{build, Database, Wdl};
use checkers::{Board, Slice, SliceIndex};
use quasar_core::{GameResult, Selection, Side};
use retro::wdl::{solve_wdl, Method, WdlOptions};
use retro::{Child, RetroGame};

/// One slice as `retro` sees it: position `2 i + s` is placement `i` with side `s` to move
/// (0 Black, the first player).
struct SliceGame<'a> {
    index: SliceIndex,
    db: &'a Database,
}

impl SliceGame<'_> {
    fn decode(&self, p: u64) -> (Board, Side) {
        (self.index.board(p / 2), side_of(p))
    }
}

fn side_of(p: u64) -> Side {
    if p.is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    }
}

/// The first player's score of a position whose side to move has `result`.
fn score(mover: Side, result: GameResult) -> i32 {
    let s = match result {
        GameResult::Win => 1,
        GameResult::Loss => -1,
        GameResult::Draw => 0,
    };
    if mover == Side::First {
        s
    } else {
        -s
    }
}

impl RetroGame for SliceGame<'_> {
    fn size(&self) -> u64 {
        2 * self.index.size()
    }

    fn mover(&self, p: u64) -> Side {
        side_of(p)
    }

    fn terminal(&self, p: u64) -> Option<i32> {
        let (b, side) = self.decode(p);
        // A side whose opponent has no pieces left has won, as long as it can move (the
        // databases' convention for such placements, which no game reaches).
        (b.pieces(side.opponent()) == 0).then(|| {
            let r = if b.has_move(side) {
                GameResult::Win
            } else {
                GameResult::Loss
            };
            score(side, r)
        })
    }

    fn successors(&self, p: u64, out: &mut Vec<Child>) {
        out.clear();
        let (b, side) = self.decode(p);
        let mut moves = Vec::new();
        b.moves(side, &mut moves);
        for mv in moves {
            let c = b.after(side, mv);
            if !mv.is_capture() && Slice::of(&c) == self.index.slice() {
                out.push(Child::Pos(
                    2 * self.index.index(&c) + (side.opponent() as u64),
                ));
            } else {
                let v = self.db.value(&c, side.opponent()).expect("a smaller slice");
                out.push(Child::Exit {
                    score: score(side.opponent(), v.result()),
                    plies: 0,
                });
            }
        }
    }

    fn has_exits(&self) -> bool {
        true
    }
}

#[test]
fn every_slice_to_four_pieces_equals_the_generic_retrograde_solver() {
    let dir = std::env::temp_dir().join(format!("checkers-retro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build(&dir, 4, &Selection::All, &mut |_| {}).unwrap();
    let db = Database::open(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut seen = [0u64; 3];
    for slice in Slice::all(4) {
        let game = SliceGame {
            index: SliceIndex::new(slice),
            db: &db,
        };
        let (solved, _) = solve_wdl(
            &game,
            Method::Backward,
            WdlOptions::default(),
            &retro::Silent,
        )
        .unwrap();
        let table = db.table(slice).unwrap();
        for p in 0..game.size() {
            let side = side_of(p);
            let got = solved.value(p, side).result;
            let want = table.get(p / 2, side).unwrap();
            assert_eq!(got, want.result(), "slice {slice}, placement {}", p / 2);
            seen[match want {
                Wdl::Win => 0,
                Wdl::Draw => 1,
                Wdl::Loss => 2,
            }] += 1;
        }
    }
    // Every placement of 1 to 4 pieces with either side to move: wins, draws and losses.
    assert_eq!(
        seen.iter().sum::<u64>(),
        2 * (120 + 6_972 + 261_224 + 7_092_774)
    );
    assert!(seen.iter().all(|&n| n > 10_000), "{seen:?}");
}
