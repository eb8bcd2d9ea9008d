//! The endgame databases against an independent plain search, their colour symmetry, and
//! builds that are killed, repeated or split into shards.

mod common;

use checkers::db::{build, slice_path, Built, Database, SliceTable, Wdl};
use checkers::{Board, Position, Slice};
use common::{cell_of, ArrayPos, Cell};
use quasar_core::{Outcome, Selection, Shard, Side};
use std::collections::HashMap;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("checkers-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every position of 1 to `n` pieces on the array board, by plain enumeration.
fn all_positions(n: usize) -> Vec<ArrayPos> {
    fn place(from: usize, left: usize, pos: &mut ArrayPos, out: &mut Vec<ArrayPos>) {
        if pos.cells.iter().flatten().any(|&c| c != Cell::Empty) {
            for side in [Side::First, Side::Second] {
                out.push(ArrayPos {
                    side,
                    ..pos.clone()
                });
            }
        }
        if left == 0 {
            return;
        }
        for sq in from..=32 {
            let (r, c) = cell_of(sq);
            for cell in [
                Cell::Man(Side::First),
                Cell::King(Side::First),
                Cell::Man(Side::Second),
                Cell::King(Side::Second),
            ] {
                let far = match cell {
                    Cell::Man(Side::First) => r == 7,
                    Cell::Man(Side::Second) => r == 0,
                    _ => false,
                };
                if far {
                    continue;
                }
                pos.cells[r][c] = cell;
                place(sq + 1, left - 1, pos, out);
                pos.cells[r][c] = Cell::Empty;
            }
        }
    }
    let mut out = Vec::new();
    let mut empty = ArrayPos {
        cells: [[Cell::Empty; 8]; 8],
        side: Side::First,
    };
    place(1, n, &mut empty, &mut out);
    out
}

/// Win/draw/loss of every position of at most `n` pieces by repeated sweeps over the whole
/// set on the array board, sharing nothing with the crate's build.
fn plain_values(n: usize) -> HashMap<String, Wdl> {
    let positions = all_positions(n);
    let number: HashMap<String, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.text(), i))
        .collect();
    let mut value: Vec<Option<Wdl>> = positions
        .iter()
        .map(|p| match p.outcome() {
            Some(Outcome::Win(s)) if s == p.side => Some(Wdl::Win),
            Some(Outcome::Win(_)) => Some(Wdl::Loss),
            _ => None,
        })
        .collect();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            if p.outcome().is_some() {
                return Vec::new();
            }
            p.moves()
                .iter()
                .map(|m| {
                    let mut c = p.clone();
                    c.play(m);
                    number[&c.text()]
                })
                .collect()
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let kids = &children[i];
            if kids.iter().any(|&k| value[k] == Some(Wdl::Loss)) {
                value[i] = Some(Wdl::Win);
                changed = true;
            } else if kids.iter().all(|&k| value[k] == Some(Wdl::Win)) {
                value[i] = Some(Wdl::Loss);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (p.text(), v.unwrap_or(Wdl::Draw)))
        .collect()
}

#[test]
fn every_slice_to_three_pieces_equals_a_plain_search() {
    let dir = temp("plain");
    build(&dir, 3, &Selection::All, &mut |_| {}).unwrap();
    let db = Database::open(&dir).unwrap();
    assert_eq!(db.slices().len(), Slice::all(3).len());
    let plain = plain_values(3);
    // 120 + 6,972 + 261,224 placements, each with either side to move.
    assert_eq!(plain.len(), 2 * (120 + 6_972 + 261_224));
    let mut seen = [0u64; 3];
    for (text, &want) in &plain {
        let p = Position::from_fen(text).unwrap();
        assert_eq!(db.probe_position(&p), Some(want), "{text}");
        seen[want as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn colour_reversed_slices_agree_to_four_pieces() {
    let dir = temp("mirror");
    build(&dir, 4, &Selection::All, &mut |_| {}).unwrap();
    let db = Database::open(&dir).unwrap();
    for s in Slice::all(4) {
        let t = db.table(s).unwrap();
        let r = db.table(s.reversed()).unwrap();
        for i in 0..t.index().size() {
            let b = t.index().board(i);
            let rb: Board = b.reversed();
            let j = r.index().index(&rb);
            assert_eq!(t.get(i, Side::First), r.get(j, Side::Second), "{s} {b:?}");
            assert_eq!(t.get(i, Side::Second), r.get(j, Side::First), "{s} {b:?}");
        }
    }
    // Two kings against one win; one king against one draws (away from the edges).
    let two = Position::from_fen("B:WK14:BK1,K32").unwrap();
    assert_eq!(db.probe_position(&two), Some(Wdl::Win));
    let one = Position::from_fen("B:WK14:BK1").unwrap();
    assert_eq!(db.probe_position(&one), Some(Wdl::Draw));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_build_resumes_and_shards_equal_one_build() {
    let whole = temp("whole");
    build(&whole, 3, &Selection::All, &mut |_| {}).unwrap();
    let plan = Slice::plan(3);
    // Two jobs per wave, wave after wave, into another directory.
    let sharded = temp("shards");
    for w in 0..plan.waves().len() {
        for i in 1..=2 {
            let which = Selection::Wave {
                wave: w,
                shard: Shard::new(i, 2).unwrap(),
            };
            build(&sharded, 3, &which, &mut |_| {}).unwrap();
        }
    }
    for s in Slice::all(3) {
        let a = std::fs::read(slice_path(&whole, s)).unwrap();
        let b = std::fs::read(slice_path(&sharded, s)).unwrap();
        assert!(a == b, "{s} differs");
    }
    // A wave before its inputs is refused with the wave to build first.
    let early = temp("early");
    let e = build(
        &early,
        3,
        &Selection::Wave {
            wave: 2,
            shard: Shard::WHOLE,
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("build wave"), "{e}");
    // A killed build: one slice damaged, one lost, a temporary file left behind.
    let victim = Slice {
        bm: 1,
        bk: 1,
        wm: 1,
        wk: 0,
    };
    let lost = Slice {
        bm: 0,
        bk: 1,
        wm: 0,
        wk: 2,
    };
    let p = slice_path(&sharded, victim);
    let mut bytes = std::fs::read(&p).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&p, &bytes).unwrap();
    std::fs::remove_file(slice_path(&sharded, lost)).unwrap();
    std::fs::write(sharded.join(".b0k1-w0k2.999.tmp"), b"partial").unwrap();
    assert!(SliceTable::load(&p).is_err(), "the damage is seen");
    let mut rebuilt = Vec::new();
    build(&sharded, 3, &Selection::All, &mut |b| {
        if let Built::Built(s, _) = b {
            rebuilt.push(*s);
        }
    })
    .unwrap();
    rebuilt.sort();
    assert_eq!(rebuilt, vec![lost, victim]);
    for s in Slice::all(3) {
        let a = std::fs::read(slice_path(&whole, s)).unwrap();
        let b = std::fs::read(slice_path(&sharded, s)).unwrap();
        assert!(a == b, "{s} differs after the resumed build");
    }
    for d in [whole, sharded, early] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
