//! Endgame databases: one win/draw/loss table per slice and side to move (2 bits a
//! position), built with the passes of Lake, Schaeffer and Lu (seed 001): captures and
//! promotions lead into slices already built and settle at once; then non-capture passes
//! repeat until nothing changes; what is left is drawn. One checksummed file per slice.

use crate::board::{Board, Move};
use crate::position::Position;
use crate::slice::{Slice, SliceIndex, MAX_PIECES};
use quasar_core::{GameResult, Selection, Side};
use rayon::prelude::*;
use retro::{PackedArray, Section, TableFile, TableFileError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The game name in a database file's header.
pub const GAME: &str = "checkers";
/// The file name ending of a slice's file.
pub const EXTENSION: &str = "qrt";
/// The layout version in a file's parameters (params[4]).
const LAYOUT: u32 = 1;

/// A position's value for the side to move, as stored: 0 draw, 1 win, 2 loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// Neither side can force a win.
    Draw = 0,
    /// The side to move wins.
    Win = 1,
    /// The side to move loses.
    Loss = 2,
}

impl Wdl {
    #[inline]
    fn from_code(c: u32) -> Wdl {
        match c {
            1 => Wdl::Win,
            2 => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }

    /// As a result for the side to move.
    pub fn result(self) -> GameResult {
        match self {
            Wdl::Win => GameResult::Win,
            Wdl::Loss => GameResult::Loss,
            Wdl::Draw => GameResult::Draw,
        }
    }
}

/// Why a database cannot be built or read.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A slice file is damaged or not a checkers database.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// A file holds another slice or game than its name says.
    #[error("{0}: not a checkers database slice of this name (another game or slice); remove it")]
    Foreign(PathBuf),
    /// A slice's inputs are not built.
    #[error("slice {slice} needs {missing}, which is not in {dir}: build wave {wave} first (`tablebase plan` lists the waves)")]
    Missing {
        /// The slice asked for.
        slice: Slice,
        /// An input it lacks.
        missing: Slice,
        /// Its wave.
        wave: usize,
        /// The database directory.
        dir: PathBuf,
    },
    /// More pieces than a build takes.
    #[error("{0} pieces: checkers databases are built for 1 to {MAX_PIECES} pieces")]
    Pieces(u32),
    /// The selection names nothing in the plan.
    #[error(transparent)]
    Plan(#[from] quasar_core::plan::PlanError),
    /// No slice file in the directory.
    #[error("{0}: no checkers database slices (*.qrt) here; build them with `quasar tablebase build --game checkers --pieces N -o DIR`")]
    Empty(PathBuf),
}

/// One slice's values for both sides to move.
#[derive(Clone, Debug)]
pub struct SliceTable {
    index: SliceIndex,
    /// Black to move, then White to move.
    values: [PackedArray; 2],
}

/// Positions, wins, draws and losses of one slice with one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions (placements).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
}

impl SliceTable {
    /// The slice.
    pub fn slice(&self) -> Slice {
        self.index.slice()
    }

    /// Its index.
    pub fn index(&self) -> &SliceIndex {
        &self.index
    }

    /// The value of the placement at `i` with `side` to move.
    #[inline]
    pub fn get(&self, i: u64, side: Side) -> Wdl {
        Wdl::from_code(self.values[side.index()].get(i))
    }

    /// Positions, wins, draws and losses with `side` to move (counted word by word).
    pub fn counts(&self, side: Side) -> Counts {
        let a = &self.values[side.index()];
        let (mut wins, mut losses) = (0u64, 0u64);
        const LOW: u64 = 0x5555_5555_5555_5555;
        for &w in a.words() {
            let (lo, hi) = (w & LOW, (w >> 1) & LOW);
            wins += (lo & !hi).count_ones() as u64;
            losses += (hi & !lo).count_ones() as u64;
        }
        Counts {
            positions: a.len(),
            wins,
            draws: a.len() - wins - losses,
            losses,
        }
    }

    fn to_file(&self) -> TableFile {
        let s = self.slice();
        TableFile {
            game: GAME.into(),
            params: [
                s.bm as u32,
                s.bk as u32,
                s.wm as u32,
                s.wk as u32,
                LAYOUT,
                0,
                0,
                0,
            ],
            positions: self.index.size(),
            sections: (0..2)
                .map(|k| Section {
                    tag: k,
                    offset: 0,
                    values: self.values[k as usize].clone(),
                })
                .collect(),
        }
    }

    /// Writes the slice to `dir` through a temporary file of this process, renamed into
    /// place when complete (a killed job leaves no partial slice file).
    pub fn save(&self, dir: &Path) -> Result<PathBuf, DbError> {
        let path = slice_path(dir, self.slice());
        let tmp = dir.join(format!(".{}.{}.tmp", self.slice(), std::process::id()));
        let io = |source| DbError::Io {
            path: tmp.clone(),
            source,
        };
        let bytes = self.to_file().to_bytes();
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(io)?;
            f.write_all(&bytes).map_err(io)?;
            f.sync_all().map_err(io)?;
        }
        std::fs::rename(&tmp, &path).map_err(|source| DbError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }

    /// Reads and checks a slice file (checksum, game, slice, sizes).
    pub fn load(path: &Path) -> Result<SliceTable, DbError> {
        let f = TableFile::load(path)?;
        let foreign = || DbError::Foreign(path.to_path_buf());
        if f.game != GAME || f.params[4] != LAYOUT || f.params.iter().take(4).any(|&p| p > 12) {
            return Err(foreign());
        }
        let slice = Slice {
            bm: f.params[0] as u8,
            bk: f.params[1] as u8,
            wm: f.params[2] as u8,
            wk: f.params[3] as u8,
        };
        let index = SliceIndex::new(slice);
        let section = |tag| {
            f.section(tag)
                .filter(|s| s.values.len() == index.size() && s.values.bits() == 2)
                .map(|s| s.values.clone())
                .ok_or_else(foreign)
        };
        let values = [section(0)?, section(1)?];
        if f.positions != index.size() || path.file_stem() != Some(slice.to_string().as_ref()) {
            return Err(foreign());
        }
        Ok(SliceTable { index, values })
    }
}

/// The file of a slice in a database directory: `<dir>/<slice>.qrt`.
pub fn slice_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join(format!("{slice}.{EXTENSION}"))
}

/// A set of slice tables: what the builds read and what probes and MCTS consult.
#[derive(Clone, Default)]
pub struct Database {
    tables: Vec<Option<Arc<SliceTable>>>,
    max_pieces: u32,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Database({} slices, up to {} pieces)",
            self.slices().len(),
            self.max_pieces
        )
    }
}

impl Database {
    /// No slices.
    pub fn new() -> Database {
        Database {
            tables: vec![None; 13 * 13 * 13 * 13],
            max_pieces: 0,
        }
    }

    /// Adds (or replaces) a slice.
    pub fn insert(&mut self, t: Arc<SliceTable>) {
        let s = t.slice();
        self.max_pieces = self.max_pieces.max(s.pieces());
        self.tables[s.key()] = Some(t);
    }

    /// The table of a slice, when present.
    #[inline]
    pub fn table(&self, s: Slice) -> Option<&Arc<SliceTable>> {
        self.tables.get(s.key()).and_then(Option::as_ref)
    }

    /// The slices present, sorted.
    pub fn slices(&self) -> Vec<Slice> {
        let mut v: Vec<Slice> = self.tables.iter().flatten().map(|t| t.slice()).collect();
        v.sort_by_key(|s| (s.pieces(), s.bm + s.wm, *s));
        v
    }

    /// The most pieces of any slice present.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Every slice file in `dir`, each checked.
    pub fn open(dir: &Path) -> Result<Database, DbError> {
        let mut db = Database::new();
        let entries = std::fs::read_dir(dir).map_err(|source| DbError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|e| e == EXTENSION)
                    && p.file_stem()
                        .and_then(|s| s.to_str())
                        .is_some_and(|s| s.parse::<Slice>().is_ok())
            })
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(DbError::Empty(dir.to_path_buf()));
        }
        for p in paths {
            db.insert(Arc::new(SliceTable::load(&p)?));
        }
        Ok(db)
    }

    /// The value of a board with `side` to move, when its slice is present.
    #[inline]
    pub fn value(&self, b: &Board, side: Side) -> Option<Wdl> {
        let t = self.table(Slice::of(b))?;
        Some(t.get(t.index.index(b), side))
    }

    /// The value of a position, when its slice is present.
    #[inline]
    pub fn probe_position(&self, p: &Position) -> Option<Wdl> {
        self.value(&p.board, p.side)
    }
}

/// Build codes: unknown, then the stored codes shifted by one.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

/// What one slice's build did.
#[derive(Clone, Copy, Debug, Default)]
pub struct SliceReport {
    /// Non-capture passes until nothing changed (both sides).
    pub passes: u32,
    /// Seconds it took.
    pub seconds: f64,
    /// Positions (both sides to move).
    pub positions: u64,
}

/// The value of a position whose children all lie in other slices or are known.
/// `same` gives the code of a child in the slice being built (other side to move).
#[inline]
fn evaluate(
    b: &Board,
    side: Side,
    slice: Slice,
    db: &Database,
    moves: &mut Vec<Move>,
    same: impl Fn(&Board) -> u8,
) -> u8 {
    if b.pieces(side.opponent()) == 0 {
        return if b.has_move(side) { WIN } else { LOSS };
    }
    b.moves(side, moves);
    if moves.is_empty() {
        return LOSS;
    }
    let mut all_won = true;
    let mut open = false;
    for &mv in moves.iter() {
        let c = b.after(side, mv);
        let code = if !mv.is_capture() && Slice::of(&c) == slice {
            same(&c)
        } else {
            match db.value(&c, side.opponent()) {
                Some(Wdl::Loss) => LOSS,
                Some(Wdl::Win) => WIN,
                Some(Wdl::Draw) => DRAW,
                None => panic!("slice {} is not loaded", Slice::of(&c)),
            }
        };
        match code {
            LOSS => return WIN,
            WIN => {}
            UNKNOWN => {
                all_won = false;
                open = true;
            }
            _ => all_won = false,
        }
    }
    if all_won {
        LOSS
    } else if open {
        UNKNOWN
    } else {
        DRAW
    }
}

/// Calls `f` with every board from which `mover` could have reached `b` by a step that
/// stays in the slice (no capture, no promotion): a superset of the true predecessors
/// (whether that side had a compulsory capture is not checked), which is all a pass needs.
#[inline]
fn unmoves(b: &Board, mover: Side, mut f: impl FnMut(&Board)) {
    use crate::board::NEIGHBOUR;
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
            if from == crate::board::NONE || empty >> from & 1 == 0 {
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

/// Positions handled per task (a multiple of 64: each task owns its words of dirty bits).
const CHUNK: usize = 1 << 14;

/// Builds one slice from `db`, which must hold every slice of its closure but itself.
pub fn build_slice(slice: Slice, db: &Database) -> (SliceTable, SliceReport) {
    let start = Instant::now();
    let index = SliceIndex::new(slice);
    let n = index.size() as usize;
    let mut v = [vec![UNKNOWN; n], vec![UNKNOWN; n]];
    // Pass 1, both sides: captures, promotions, blocked and empty sides settle at once.
    for side in [Side::First, Side::Second] {
        v[side.index()]
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let mut moves = Vec::with_capacity(32);
                for (j, out) in chunk.iter_mut().enumerate() {
                    let b = index.board((c * CHUNK + j) as u64);
                    *out = evaluate(&b, side, slice, db, &mut moves, |_| UNKNOWN);
                }
            });
    }
    // Non-capture passes, each side's reading the other's latest values, until a round
    // of both changes nothing. The first looks at every unknown position; later ones only
    // at the predecessors of positions the pass before settled (found by unmoves), the
    // only ones whose value can have changed.
    let words = n.div_ceil(64);
    let dirty: [Vec<AtomicU64>; 2] = std::array::from_fn(|k| {
        (0..words)
            .map(|w| {
                let mut bits = 0u64;
                for (j, &c) in v[k][w * 64..(w * 64 + 64).min(n)].iter().enumerate() {
                    bits |= ((c == UNKNOWN) as u64) << j;
                }
                AtomicU64::new(bits)
            })
            .collect()
    });
    let mut passes = 0;
    loop {
        let mut changed = 0;
        for side in [Side::First, Side::Second] {
            let (mine, theirs) = match side {
                Side::First => {
                    let (a, b) = v.split_at_mut(1);
                    (&mut a[0], &b[0])
                }
                Side::Second => {
                    let (a, b) = v.split_at_mut(1);
                    (&mut b[0], &a[0])
                }
            };
            let (todo, next) = (&dirty[side.index()], &dirty[side.opponent().index()]);
            let count = AtomicU64::new(0);
            mine.par_chunks_mut(CHUNK)
                .enumerate()
                .for_each(|(c, chunk)| {
                    let mut moves = Vec::with_capacity(32);
                    let mut k = 0;
                    let first = c * CHUNK / 64;
                    let last = (first + CHUNK / 64).min(words);
                    for (w, word) in todo.iter().enumerate().take(last).skip(first) {
                        let mut bits = word.swap(0, Ordering::Relaxed);
                        while bits != 0 {
                            let j = w * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let out = &mut chunk[j - c * CHUNK];
                            if *out != UNKNOWN {
                                continue;
                            }
                            let b = index.board(j as u64);
                            let code = evaluate(&b, side, slice, db, &mut moves, |child| {
                                theirs[index.index(child) as usize]
                            });
                            if code != UNKNOWN {
                                *out = code;
                                k += 1;
                                unmoves(&b, side.opponent(), |pred| {
                                    let i = index.index(pred) as usize;
                                    next[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
                                });
                            }
                        }
                    }
                    count.fetch_add(k, Ordering::Relaxed);
                });
            changed += count.into_inner();
            passes += 1;
        }
        if changed == 0
            && dirty
                .iter()
                .flatten()
                .all(|w| w.load(Ordering::Relaxed) == 0)
        {
            break;
        }
    }
    let values = v.map(|codes| {
        let mut a = PackedArray::new(2, n as u64);
        for (i, &c) in codes.iter().enumerate() {
            // Unknown after the last pass: nobody can force a win, a draw.
            let stored = match c {
                WIN => Wdl::Win,
                LOSS => Wdl::Loss,
                _ => Wdl::Draw,
            };
            if stored != Wdl::Draw {
                a.set(i as u64, stored as u32);
            }
        }
        a
    });
    let report = SliceReport {
        passes,
        seconds: start.elapsed().as_secs_f64(),
        positions: 2 * n as u64,
    };
    (SliceTable { index, values }, report)
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
    if pieces == 0 || pieces > MAX_PIECES {
        return Err(DbError::Pieces(pieces));
    }
    std::fs::create_dir_all(dir).map_err(|source| DbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
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
                let b = Built::Skipped(slice);
                report(&b);
                done.push(b);
                db.insert(Arc::new(t));
                continue;
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
        let (table, r) = build_slice(slice, &db);
        table.save(dir)?;
        db.insert(Arc::new(table));
        let b = Built::Built(slice, r);
        report(&b);
        done.push(b);
    }
    Ok(done)
}
