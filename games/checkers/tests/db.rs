//! The endgame databases against an independent plain search, their colour symmetry, and
//! builds that are killed, repeated or split into shards.

mod common;

use checkers::compress::{compress, Compressed};
use checkers::db::{build, build_with, slice_path, BuildOptions, Built, Database, SliceTable, Wdl};
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

/// Every position of 1 to `n` pieces on the array board and the moves between them.
struct Graph {
    positions: Vec<ArrayPos>,
    /// Each position's children, by number (none where the game is over).
    children: Vec<Vec<usize>>,
}

impl Graph {
    fn new(n: usize) -> Graph {
        let positions = all_positions(n);
        let number: HashMap<String, usize> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.text(), i))
            .collect();
        let children = positions
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
        Graph {
            positions,
            children,
        }
    }
}

/// Win/draw/loss of every position of the graph, by number, by repeated sweeps over the
/// whole set on the array board, sharing nothing with the crate's build.
fn plain_values(g: &Graph) -> Vec<Wdl> {
    let mut value: Vec<Option<Wdl>> = g
        .positions
        .iter()
        .map(|p| match p.outcome() {
            Some(Outcome::Win(s)) if s == p.side => Some(Wdl::Win),
            Some(Outcome::Win(_)) => Some(Wdl::Loss),
            _ => None,
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..g.positions.len() {
            if value[i].is_some() {
                continue;
            }
            let kids = &g.children[i];
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
    value.into_iter().map(|v| v.unwrap_or(Wdl::Draw)).collect()
}

#[test]
fn every_slice_to_three_pieces_equals_a_plain_search() {
    let dir = temp("plain");
    build(&dir, 3, &Selection::All, &mut |_| {}).unwrap();
    let db = Database::open(&dir).unwrap();
    assert_eq!(db.slices().len(), Slice::all(3).len());
    let graph = Graph::new(3);
    let plain = plain_values(&graph);
    // 120 + 6,972 + 261,224 placements, each with either side to move.
    assert_eq!(plain.len(), 2 * (120 + 6_972 + 261_224));
    // The same databases as run-length blocks, written and read back, settle the
    // positions they leave free by the rules and answer every position alike.
    let runs_dir = temp("plain-runs");
    let mut written = 0;
    compress(&dir, &runs_dir, 64, &mut |c| {
        written += matches!(c, Compressed::Written { .. }) as usize
    })
    .unwrap();
    assert_eq!(written, Slice::all(3).len());
    let runs = Database::open(&runs_dir).unwrap();
    assert!(runs
        .slices()
        .iter()
        .all(|&s| runs.table(s).unwrap().is_runs()));
    // One code for every slice, fitted to them all.
    let code = runs
        .table(Slice::all(3)[0])
        .unwrap()
        .code_lengths()
        .unwrap();
    assert!(runs
        .slices()
        .iter()
        .all(|&s| runs.table(s).unwrap().code_lengths() == Some(code)));
    let mut seen = [0u64; 3];
    for (pos, &want) in graph.positions.iter().zip(&plain) {
        let text = pos.text();
        let p = Position::from_fen(&text).unwrap();
        assert_eq!(db.probe_position(&p), Some(want), "{text}");
        assert_eq!(runs.probe_position(&p), Some(want), "{text} in blocks");
        seen[want as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    for s in db.slices() {
        for side in [Side::First, Side::Second] {
            assert_eq!(
                db.table(s).unwrap().counts(side),
                runs.table(s).unwrap().counts(side)
            );
        }
    }
    // Blocks with the runs as bytes, as an earlier version wrote them (one byte a run, no
    // code), still read and answer every position the rules do not settle alike.
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/runs-as-bytes");
    for s in db.slices() {
        let old = SliceTable::load(&slice_path(&fixture, s)).unwrap();
        let plain = db.table(s).unwrap();
        for side in [Side::First, Side::Second] {
            assert!(old.runs(side).is_some_and(|r| r.code_lengths().is_none()));
            assert!(runs
                .table(s)
                .unwrap()
                .runs(side)
                .is_some_and(|r| r.code_lengths().is_some()));
            assert_eq!(old.counts(side), plain.counts(side));
            for i in 0..plain.index().size() {
                if !checkers::db::settled_by_rules(&plain.index().board(i), side) {
                    assert_eq!(old.get(i, side), plain.get(i, side), "{s} {i}");
                }
            }
        }
    }
    // A second run keeps what the first wrote; another block size rewrites it.
    let mut kept = 0;
    compress(&dir, &runs_dir, 64, &mut |c| {
        kept += matches!(c, Compressed::Kept(_)) as usize
    })
    .unwrap();
    assert_eq!(kept, Slice::all(3).len());
    assert!(compress(&dir, &runs_dir, 100, &mut |_| {}).is_err());
    std::fs::remove_dir_all(&runs_dir).unwrap();
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

/// How many men and kings of each side: equal for a position and a child in its slice.
fn kinds(p: &ArrayPos) -> [usize; 4] {
    let mut k = [0; 4];
    for &c in p.cells.iter().flatten() {
        match c {
            Cell::Man(Side::First) => k[0] += 1,
            Cell::King(Side::First) => k[1] += 1,
            Cell::Man(Side::Second) => k[2] += 1,
            Cell::King(Side::Second) => k[3] += 1,
            Cell::Empty => {}
        }
    }
    k
}

#[test]
fn distances_to_three_pieces_equal_a_plain_sweep() {
    let dir = temp("distance");
    let options = BuildOptions { distance: true };
    build_with(&dir, 3, &Selection::All, options, &mut |_| {}).unwrap();
    let mut db = Database::open(&dir).unwrap();
    assert_eq!(db.load_distances(&dir).unwrap(), Slice::all(3).len());
    let graph = Graph::new(3);
    let value = plain_values(&graph);
    let positions = &graph.positions;
    // Each position's children: (number, whether the move stays in the slice).
    let children: Vec<Vec<(usize, bool)>> = positions
        .iter()
        .zip(&graph.children)
        .map(|(p, kids)| {
            kids.iter()
                .map(|&k| (k, kinds(&positions[k]) == kinds(p)))
                .collect()
        })
        .collect();
    // Sweeps, level by level: a win at the first level where a move converts into a
    // loss or stays in the slice and reaches a loss of the level before; a loss once
    // every move that stays in the slice reaches a win of an earlier level.
    let mut dist: Vec<Option<u32>> = vec![None; positions.len()];
    let mut level = 0;
    loop {
        let mut settled = Vec::new();
        for (i, p) in positions.iter().enumerate() {
            if dist[i].is_some() || value[i] == Wdl::Draw {
                continue;
            }
            let kids = &children[i];
            let done = if p.outcome().is_some() {
                level == 0
            } else if value[i] == Wdl::Win {
                kids.iter().any(|&(k, same)| {
                    value[k] == Wdl::Loss
                        && if same {
                            level > 0 && dist[k] == Some(level - 1)
                        } else {
                            level == 0
                        }
                })
            } else {
                kids.iter().filter(|k| k.1).all(|&(k, _)| dist[k].is_some())
                    && kids
                        .iter()
                        .filter(|k| k.1)
                        .map(|&(k, _)| dist[k].unwrap() + 1)
                        .max()
                        .unwrap_or(0)
                        == level
            };
            if done {
                settled.push(i);
            }
        }
        if settled.is_empty() && level > 0 {
            break;
        }
        for i in settled {
            dist[i] = Some(level);
        }
        level += 1;
    }
    let mut longest = 0;
    for (p, d) in positions.iter().zip(&dist) {
        let pos = Position::from_fen(&p.text()).unwrap();
        let got = db.distance(&pos.board, pos.side).map(u32::from);
        assert_eq!(got, *d, "{}", p.text());
        longest = longest.max(d.unwrap_or(0));
    }
    // The longest 3-piece conversion (two kings against one, driven to a corner).
    assert!(longest > 10, "{longest}");
    std::fs::remove_dir_all(&dir).unwrap();
}
