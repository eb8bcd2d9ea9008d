//! The build of one slice and of a directory of slices: one forward pass settles captures,
//! promotions, blocked and empty sides and counts every other position's moves; then a
//! backward count-down by unmoves, level by level, settles the rest (the result of Lake,
//! Schaeffer and Lu, "Solving Large Retrograde Analysis Problems Using a Network of
//! Workstations" (1993), computed backward); the level a position settles at is its
//! distance to conversion.

use crate::board::{Board, Move};
use crate::db::{slice_path, Database, DbError, SliceTable, Wdl};
use crate::distance::DistanceTable;
use crate::slice::{Slice, SliceIndex, MAX_PIECES};
use quasar_core::{Selection, Side};
use rayon::prelude::*;
use retro::PackedArray;
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// A position's build state, one byte. Settled: `SETTLED | tag << 2 | code` (code 1 win,
/// 2 loss, 3 draw; tag 1 or 2 while the position waits in the frontier of an even or odd
/// level, 0 once its predecessors have heard of it). Unknown: the number of its moves that
/// stay in the slice and are not yet known to win for the opponent, plus `ESCAPE` when
/// another move leads to a draw (it can then never lose).
const SETTLED: u8 = 0x80;
const ESCAPE: u8 = 0x40;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

/// A settled state waiting in the frontier of `level`.
#[inline]
fn settled(code: u8, level: u32) -> u8 {
    SETTLED | (1 + (level & 1) as u8) << 2 | code
}

/// The distance stored for draws and for positions never settled.
pub const NO_DISTANCE: u8 = 255;
/// Levels at and beyond this are stored as this (a saturated distance).
pub const MAX_DISTANCE: u8 = 254;

/// Positions per chunk of work, and per frontier mark.
const CHUNK: usize = 1 << 12;

/// What one slice's build did.
#[derive(Clone, Copy, Debug, Default)]
pub struct SliceReport {
    /// Levels of the count-down (the longest distance to conversion plus one, or 0).
    pub passes: u32,
    /// Seconds it took.
    pub seconds: f64,
    /// Positions (both sides to move).
    pub positions: u64,
}

/// What a build writes beside the win/draw/loss files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Also write each slice's distance-to-conversion file (one byte a position).
    pub distance: bool,
}

/// The first look at a position: settled (with tag 0 for now) or its count of in-slice
/// moves and escape flag. Every child outside the slice (a capture, a promotion) is in `db`.
#[inline]
fn first_look(b: &Board, side: Side, slice: Slice, db: &Database, moves: &mut Vec<Move>) -> u8 {
    if b.pieces(side.opponent()) == 0 {
        return SETTLED | if b.has_move(side) { WIN } else { LOSS };
    }
    b.moves(side, moves);
    let (mut count, mut escape) = (0u8, false);
    for &mv in moves.iter() {
        let c = b.after(side, mv);
        if !mv.is_capture() && Slice::of(&c) == slice {
            count += 1;
            continue;
        }
        match db.value(&c, side.opponent()) {
            Some(Wdl::Loss) => return SETTLED | WIN,
            Some(Wdl::Win) => {}
            Some(Wdl::Draw) => escape = true,
            None => panic!("slice {} is not loaded", Slice::of(&c)),
        }
    }
    match (count, escape) {
        (0, false) => SETTLED | LOSS,
        (0, true) => SETTLED | DRAW,
        // An unknown position has no capture, so each of its in-slice children is a step
        // and each unmove into it below is one of its moves, exactly.
        (n, e) => n | if e { ESCAPE } else { 0 },
    }
}

/// Calls `f` with every board from which `mover` could have reached `b` by a step that
/// stays in the slice (no capture, no promotion): a superset of the true predecessors
/// (whether that side had a compulsory capture is not checked; such a predecessor is
/// settled by the first look and ignored).
#[inline]
fn unmoves(b: &Board, mover: Side, mut f: impl FnMut(&Board)) {
    use crate::board::{NEIGHBOUR, NONE};
    let empty = !b.occupied();
    let mut p = b.pieces(mover);
    while p != 0 {
        let s = p.trailing_zeros() as usize;
        p &= p - 1;
        let king = b.kings >> s & 1 == 1;
        // A man came from behind: Black's from lower rows (directions 2, 3), White's from
        // higher ones (0, 1).
        let dirs: u32 = match (king, mover) {
            (true, _) => 0b1111,
            (false, Side::First) => 0b1100,
            (false, Side::Second) => 0b0011,
        };
        let mut d = dirs;
        while d != 0 {
            let k = d.trailing_zeros() as usize;
            d &= d - 1;
            let from = NEIGHBOUR[s][k];
            if from == NONE || empty >> from & 1 == 0 {
                continue;
            }
            let (bit, to) = (1u32 << s, 1u32 << from);
            let mut q = *b;
            match mover {
                Side::First => q.black = (q.black & !bit) | to,
                Side::Second => q.white = (q.white & !bit) | to,
            }
            if king {
                q.kings = (q.kings & !bit) | to;
            }
            f(&q);
        }
    }
}

/// The arrays of one build: each side's states, frontier marks (bit `level & 1` set when a
/// chunk holds a position of that level's frontier) and, when asked, distances.
struct Work {
    state: [Vec<AtomicU8>; 2],
    marks: [Vec<AtomicU8>; 2],
    dist: Option<[Vec<AtomicU8>; 2]>,
}

fn atomics(n: usize, v: u8) -> Vec<AtomicU8> {
    std::iter::repeat_with(|| AtomicU8::new(v))
        .take(n)
        .collect()
}

impl Work {
    /// Settles `i` (side `k`) at `level` with `code` when it is still unknown and `code` is
    /// a win, or when it is a loss and this child was its last open move.
    #[inline]
    fn hear(&self, k: usize, i: usize, child_lost: bool, level: u32) {
        let cell = &self.state[k][i];
        let mut s = cell.load(Relaxed);
        loop {
            if s & SETTLED != 0 {
                return;
            }
            let new = if child_lost {
                settled(WIN, level)
            } else if s == 1 {
                settled(LOSS, level)
            } else {
                s - 1
            };
            match cell.compare_exchange_weak(s, new, Relaxed, Relaxed) {
                Ok(_) => {
                    if new & SETTLED != 0 {
                        self.settle(k, i, level);
                    }
                    return;
                }
                Err(now) => s = now,
            }
        }
    }

    /// Marks a newly settled position's chunk and records its distance.
    #[inline]
    fn settle(&self, k: usize, i: usize, level: u32) {
        let m = &self.marks[k][i / CHUNK];
        let bit = 1 << (level & 1);
        if m.load(Relaxed) & bit == 0 {
            m.fetch_or(bit, Relaxed);
        }
        if let Some(d) = &self.dist {
            d[k][i].store(level.min(MAX_DISTANCE as u32) as u8, Relaxed);
        }
    }
}

/// Builds one slice from `db`, which must hold every slice of its closure but itself;
/// with `distance`, also its distances to conversion.
pub fn build_slice(
    slice: Slice,
    db: &Database,
    distance: bool,
) -> (SliceTable, Option<DistanceTable>, SliceReport) {
    let start = Instant::now();
    let index = SliceIndex::new(slice);
    let n = index.size() as usize;
    let chunks = n.div_ceil(CHUNK);
    let w = Work {
        state: [atomics(n, 0), atomics(n, 0)],
        marks: [atomics(chunks, 0), atomics(chunks, 0)],
        dist: distance.then(|| [atomics(n, NO_DISTANCE), atomics(n, NO_DISTANCE)]),
    };
    // Level 0, both sides: the first look at every position.
    for side in [Side::First, Side::Second] {
        let k = side.index();
        w.state[k].par_chunks(CHUNK).enumerate().for_each_init(
            || Vec::with_capacity(32),
            |moves, (c, cells)| {
                let mut any = false;
                let mut dec = index.decoder();
                for (j, cell) in cells.iter().enumerate() {
                    let b = dec.board((c * CHUNK + j) as u64);
                    let mut s = first_look(&b, side, slice, db, moves);
                    // A draw tells its predecessors nothing: it joins no frontier.
                    if s & SETTLED != 0 && s & 3 != DRAW {
                        s = settled(s & 3, 0);
                        any = true;
                        if let Some(d) = &w.dist {
                            d[k][c * CHUNK + j].store(0, Relaxed);
                        }
                    }
                    cell.store(s, Relaxed);
                }
                if any {
                    w.marks[k][c].store(1, Relaxed);
                }
            },
        );
    }
    // The count-down: each level's frontier tells its predecessors (the other side to
    // move) and so settles the next level, until a level settles nothing.
    let mut level = 0u32;
    loop {
        let found = AtomicU32::new(0);
        let bit = 1u8 << (level & 1);
        let tag = (1 + (level & 1) as u8) << 2;
        for side in [Side::First, Side::Second] {
            let (k, pk) = (side.index(), side.opponent().index());
            (0..chunks).into_par_iter().for_each(|c| {
                if w.marks[k][c].load(Relaxed) & bit == 0 {
                    return;
                }
                w.marks[k][c].fetch_and(!bit, Relaxed);
                let end = ((c + 1) * CHUNK).min(n);
                let mut seen = 0;
                let mut dec = index.decoder();
                for i in c * CHUNK..end {
                    let s = w.state[k][i].load(Relaxed);
                    if s & (SETTLED | 0x0C) != SETTLED | tag {
                        continue;
                    }
                    seen += 1;
                    // Told: it leaves the frontier (only this task touches settled cells).
                    w.state[k][i].store(s & !0x0C, Relaxed);
                    let lost = s & 3 == LOSS;
                    let b = dec.board(i as u64);
                    unmoves(&b, side.opponent(), |pred| {
                        w.hear(pk, index.index(pred) as usize, lost, level + 1);
                    });
                }
                found.fetch_add(seen, Relaxed);
            });
        }
        if found.into_inner() == 0 {
            break;
        }
        level += 1;
    }
    let values = w.state.each_ref().map(|states| {
        let mut a = PackedArray::new(2, n as u64);
        for (i, s) in states.iter().enumerate() {
            let s = s.load(Relaxed);
            // Unknown after the count-down: nobody can force a win, a draw.
            match (s & SETTLED != 0, s & 3) {
                (true, WIN) => a.set(i as u64, Wdl::Win as u32),
                (true, LOSS) => a.set(i as u64, Wdl::Loss as u32),
                _ => {}
            }
        }
        a
    });
    let dist = w.dist.map(|d| {
        DistanceTable::new(
            index.clone(),
            d.map(|a| a.into_iter().map(AtomicU8::into_inner).collect()),
        )
    });
    let report = SliceReport {
        passes: level,
        seconds: start.elapsed().as_secs_f64(),
        positions: 2 * n as u64,
    };
    (SliceTable::new(index, values), dist, report)
}

/// What happened to one slice of a build.
#[derive(Clone, Copy, Debug)]
pub enum Built {
    /// A checked file was already there.
    Skipped(Slice),
    /// Built and written now.
    Built(Slice, SliceReport),
}

/// Builds the slices of 1 to `pieces` pieces that `which` selects into `dir`, in
/// dependency order: a slice whose file is there and checks is skipped; the inputs of a
/// selected slice must be in `dir` (or selected before it). `report` hears each slice.
pub fn build(
    dir: &Path,
    pieces: u32,
    which: &Selection,
    report: &mut dyn FnMut(&Built),
) -> Result<Vec<Built>, DbError> {
    build_with(dir, pieces, which, BuildOptions::default(), report)
}

/// [`build`] with options: with `distance`, a slice whose distance file is missing is
/// built again (to the same win/draw/loss bytes) and both files written.
pub fn build_with(
    dir: &Path,
    pieces: u32,
    which: &Selection,
    options: BuildOptions,
    report: &mut dyn FnMut(&Built),
) -> Result<Vec<Built>, DbError> {
    if pieces == 0 || pieces > MAX_PIECES {
        return Err(DbError::Pieces(pieces));
    }
    // The manifest first: a reader of the directory knows from then on which slices it
    // must hold, and names those not built yet.
    crate::db::begin(dir, pieces)?;
    let plan = Slice::plan(pieces);
    let chosen: Vec<Slice> = plan
        .select(which)?
        .iter()
        .map(|n| n.parse().expect("plan names are slices"))
        .collect();
    let mut db = Database::new();
    let mut done = Vec::new();
    for slice in chosen {
        let path = slice_path(dir, slice);
        if path.is_file() {
            if let Ok(t) = SliceTable::load(&path) {
                let distance_ok = !options.distance
                    || DistanceTable::load(&crate::distance::distance_path(dir, slice)).is_ok();
                if distance_ok {
                    let b = Built::Skipped(slice);
                    report(&b);
                    done.push(b);
                    db.insert(Arc::new(t));
                    continue;
                }
            }
        }
        for dep in slice.closure() {
            if dep == slice || db.table(dep).is_some() {
                continue;
            }
            let p = slice_path(dir, dep);
            if !p.is_file() {
                return Err(DbError::Missing {
                    slice,
                    missing: dep,
                    wave: plan.wave_of(&dep.to_string()).unwrap_or(0),
                    dir: dir.to_path_buf(),
                });
            }
            db.insert(Arc::new(SliceTable::load(&p)?));
        }
        let (table, dist, r) = build_slice(slice, &db, options.distance);
        if let Some(d) = dist {
            d.save(dir)?;
        }
        table.save(dir)?;
        db.insert(Arc::new(table));
        let b = Built::Built(slice, r);
        report(&b);
        done.push(b);
    }
    Ok(done)
}
