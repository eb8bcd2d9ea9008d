//! Endgame databases: one win/draw/loss table per slice and side to move (2 bits a
//! position), one checksummed file per slice (built by `build.rs`), and optional distance
//! files (`distance.rs`); the set of them that probes and MCTS consult.

use crate::board::Board;
use crate::distance::{distance_path, DistanceTable};
use crate::position::Position;
use crate::slice::{Slice, SliceIndex, MAX_PIECES};
use quasar_core::{GameResult, Side};
use quasar_file::cache::{CacheStats, Residence, DEFAULT_CACHE_BYTES};
use quasar_file::slices::{Layout, Manifest, SliceDir, SliceDirError};
use quasar_file::{self as file, FileError, OutputLock};
use retro::{TableFile, TableFileError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::build::{build, build_slice, build_with, BuildOptions, Built, SliceReport};
pub use blocked::{TableCache, VERSION as COMPRESSED_VERSION};
pub use table::{settled_by_rules, Counts, SliceTable};

mod blocked;
mod table;

/// The game name in a database file's header.
pub const GAME: &str = "checkers";
/// The file name ending of a slice's file.
pub const EXTENSION: &str = "qrt";
/// The layout version in a file's parameters (params[4]): the values packed 2 bits each.
const LAYOUT: u32 = 1;
/// The layout of a slice as run-length blocks ([`RunArray`], its block size in params[5]):
/// sections 2 and 3 hold Black to move's block starts (32 bits each) and runs (a byte
/// each), 4 and 5 White's, and 6 the counts of both (32-bit halves).
const LAYOUT_RUNS: u32 = 2;
/// The layout of a slice as entropy-coded run-length blocks: as [`LAYOUT_RUNS`], the runs
/// coded ([`RunArray::entropy_coded`]), with sections 7 and 8 holding Black's and White's
/// code lengths (4 bits each).
const LAYOUT_CODED: u32 = 3;

/// A database directory as a slice directory: its manifest holds `max-pieces N`, and it
/// must hold every slice of 1 to N pieces (distance files, `<slice>.qdc`, are optional).
pub const DIRECTORY: Layout = Layout {
    kind: "checkers",
    what: "checkers database",
    extension: EXTENSION,
    legacy: None,
    build: build_command,
};

/// The build of the database directory `dir` with the parameters of `m`.
fn build_command(m: &Manifest, dir: &Path) -> String {
    format!(
        "quasar tablebase build --game checkers --max-pieces {} -o {}",
        m.get("max-pieces").unwrap_or("N"),
        dir.display()
    )
}

/// The manifest of the databases of 1 to `pieces` pieces.
pub fn manifest_of(pieces: u32) -> Manifest {
    Manifest::new(DIRECTORY.kind).with("max-pieces", pieces)
}

/// The manifest of a directory an earlier version built without one: the most pieces of
/// its slice files (`None` when it has none).
fn legacy_manifest(dir: &Path) -> Option<Manifest> {
    let n = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name();
            let stem = name.to_str()?.strip_suffix(&format!(".{EXTENSION}"))?;
            stem.parse::<Slice>().ok().map(|s| s.pieces())
        })
        .max()?;
    Some(manifest_of(n))
}

/// The pieces of a directory's manifest, checked.
fn pieces_of(files: &SliceDir) -> Result<u32, SliceDirError> {
    let m = files.manifest();
    match m.get("max-pieces").and_then(|n| n.parse::<u32>().ok()) {
        Some(n @ 1..=MAX_PIECES) => Ok(n),
        _ => Err(SliceDirError::Manifest {
            path: files.dir().join(quasar_file::slices::MANIFEST),
            why: format!("{m}: no `max-pieces` of 1 to {MAX_PIECES}"),
            build: files.build_command(),
        }),
    }
}

/// What is wrong with a file, without its path (the error that quotes it names it).
fn why(e: &DbError) -> String {
    match e {
        DbError::File(TableFileError::File(FileError::Frame { source, .. })) => source.to_string(),
        DbError::File(TableFileError::Invalid { msg, .. }) => msg.clone(),
        DbError::Foreign(_) => "it holds another game or slice than its name says".into(),
        e => e.to_string(),
    }
}

/// Starts a build of the databases of 1 to `pieces` pieces into `dir`: writes its
/// manifest, or raises the pieces of an existing one (the slices of fewer pieces are the
/// same files).
pub(crate) fn begin(dir: &Path, pieces: u32) -> Result<SliceDir, DbError> {
    let before = legacy_manifest(dir)
        .and_then(|m| m.get("max-pieces")?.parse::<u32>().ok())
        .unwrap_or(0);
    let wanted = manifest_of(pieces.max(before));
    Ok(SliceDir::create(dir, &DIRECTORY, &wanted, |found| {
        let had = found.get("max-pieces")?.parse::<u32>().ok()?;
        Some(manifest_of(had.max(pieces)))
    })?)
}

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
    /// A block size run-length blocks cannot take.
    #[error(transparent)]
    Block(#[from] retro::RunsError),
    /// A slice whose run-length blocks pass the 32-bit block starts of its file.
    #[error("slice {0}: its run-length blocks pass 4 GiB, more than a slice file holds")]
    TooLarge(Slice),
    /// The directory is no database's, is incomplete, or has a damaged slice.
    #[error(transparent)]
    Dir(#[from] SliceDirError),
    /// A block read through the table cache was damaged or could not be read.
    #[error("{0}")]
    Damaged(String),
    /// A slice read through the table cache was to be rewritten.
    #[error("slice {0} is read through the table cache, not held in memory: open the databases with a table cache of 0 to rewrite them")]
    NotInMemory(Slice),
}

/// Writes `bytes` to `path` atomically under its own lock (see [`quasar_file`]):
/// shards of one build share the directory and write different slices.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), DbError> {
    let lock = OutputLock::wait(path).map_err(TableFileError::from)?;
    file::write_with(path, &lock, |f| f.write_all(bytes)).map_err(TableFileError::from)?;
    Ok(())
}

/// The slice a file's header names, when the file is of `game` and `layout` and its
/// piece counts are possible; `None` marks a foreign file.
pub(crate) fn slice_of(f: &TableFile, game: &str, layout: u32) -> Option<(Slice, SliceIndex)> {
    if f.game != game || f.params[4] != layout || f.params.iter().take(4).any(|&p| p > 12) {
        return None;
    }
    let slice = Slice {
        bm: f.params[0] as u8,
        bk: f.params[1] as u8,
        wm: f.params[2] as u8,
        wk: f.params[3] as u8,
    };
    Some((slice, SliceIndex::new(slice)))
}

/// The header parameters `slice_of` reads back: the slice's four piece counts, the
/// layout, then `extra` (a file kind's own parameter, 0 where it has none).
pub(crate) fn slice_params(s: Slice, layout: u32, extra: u32) -> [u32; 8] {
    let (bm, bk, wm, wk) = (s.bm as u32, s.bk as u32, s.wm as u32, s.wk as u32);
    [bm, bk, wm, wk, layout, extra, 0, 0]
}

/// The file of a slice in a database directory: `<dir>/<slice>.qrt`.
pub fn slice_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join(format!("{slice}.{EXTENSION}"))
}

/// A set of slice tables: what the builds read and what probes and MCTS consult.
#[derive(Clone, Default)]
pub struct Database {
    /// The directory it was opened from, if any.
    files: Option<SliceDir>,
    /// Slices of the directory whose file failed its checks, with why.
    damaged: Vec<(Slice, String)>,
    tables: Vec<Option<Arc<SliceTable>>>,
    /// Distance tables, by slice key, for the slices whose files were loaded.
    distances: Vec<Option<Arc<DistanceTable>>>,
    /// How many distance tables are loaded.
    distance_slices: usize,
    max_pieces: u32,
    /// The cache its compressed slices of version 2 are read through (`None`: held whole).
    cache: Option<Arc<TableCache>>,
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
            files: None,
            damaged: Vec::new(),
            tables: vec![None; 13 * 13 * 13 * 13],
            distances: vec![None; 13 * 13 * 13 * 13],
            distance_slices: 0,
            max_pieces: 0,
            cache: None,
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

    /// The databases in `dir`: every slice its manifest implies, each checked; a slice
    /// not built or damaged is an error naming it (distance files are not loaded). Held
    /// whole unless larger than the default table cache ([`Database::open_partial_cached`]).
    pub fn open(dir: &Path) -> Result<Database, DbError> {
        Database::open_cached(dir, DEFAULT_CACHE_BYTES)
    }

    /// [`Database::open`], compressed slices read through a cache of `cache_bytes` when
    /// their files take more (0: always whole).
    pub fn open_cached(dir: &Path, cache_bytes: u64) -> Result<Database, DbError> {
        match Database::open_partial_cached(dir, false, cache_bytes)? {
            (db, None) => Ok(db),
            (_, Some(e)) => Err(e),
        }
    }

    /// The slices of the databases in `dir` and their most pieces, when every one is there
    /// (none is read: a caller that takes them one at a time holds one in memory).
    pub fn whole_slices(dir: &Path) -> Result<(u32, Vec<Slice>), DbError> {
        let files = SliceDir::open_or(dir, &DIRECTORY, legacy_manifest)?;
        let n = pieces_of(&files)?;
        let all = Slice::all(n);
        let names: Vec<String> = all.iter().map(Slice::to_string).collect();
        files.check(&files.survey(&names, |_, _, _| Ok(()))?)?;
        Ok((n, all))
    }

    /// The databases in `dir` that can be read, and with them the first reason the rest
    /// cannot (slices not built, a damaged slice or distance file): for a search, which
    /// goes on without them. With `distances`, the distance files there are loaded too.
    /// A directory without a manifest (built by an earlier version) is taken to hold the
    /// slices up to the most pieces of its files.
    pub fn open_partial(
        dir: &Path,
        distances: bool,
    ) -> Result<(Database, Option<DbError>), DbError> {
        Database::open_partial_cached(dir, distances, DEFAULT_CACHE_BYTES)
    }

    /// [`Database::open_partial`] with a table cache of `cache_bytes`: when the slice
    /// files take more, the compressed slices of format version 2 are read through one
    /// cache of that size shared by every thread probing them (opening reads their headers
    /// and indexes; a probe that misses reads the 4 KiB of runs holding its block and
    /// checks its CRC-32); otherwise, or with 0, every slice is read whole. Plain slices
    /// and compressed ones of version 1 are always read whole.
    pub fn open_partial_cached(
        dir: &Path,
        distances: bool,
        cache_bytes: u64,
    ) -> Result<(Database, Option<DbError>), DbError> {
        let files = SliceDir::open_or(dir, &DIRECTORY, legacy_manifest)?;
        let n = pieces_of(&files)?;
        let all = Slice::all(n);
        let names: Vec<String> = all.iter().map(Slice::to_string).collect();
        let total = std::sync::atomic::AtomicU64::new(0);
        let survey = files.survey(&names, |_, _, len| {
            total.fetch_add(len, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        })?;
        let mut problem = files.check(&survey).err().map(DbError::from);
        let mut db = Database::new();
        if let Residence::Cached(bytes) = Residence::choose(total.into_inner(), cache_bytes) {
            db.cache = Some(Arc::new(TableCache::new(bytes)));
        }
        for s in all {
            let name = s.to_string();
            if survey.missing.contains(&name) {
                continue;
            }
            if let Some((_, why)) = survey.damaged.iter().find(|(d, _)| *d == name) {
                db.damaged.push((s, why.clone()));
                continue;
            }
            let path = slice_path(dir, s);
            let table = match &db.cache {
                Some(c) => SliceTable::open(&path, c),
                None => SliceTable::load(&path),
            };
            match table {
                Ok(t) => db.insert(Arc::new(t)),
                Err(e) => {
                    let why = why(&e);
                    problem.get_or_insert_with(|| files.damaged(&name, &why).into());
                    db.damaged.push((s, why));
                }
            }
        }
        if distances {
            for s in db.slices() {
                let p = distance_path(dir, s);
                if !p.is_file() {
                    continue;
                }
                match DistanceTable::load(&p) {
                    Ok(d) => {
                        db.distances[s.key()] = Some(Arc::new(d));
                        db.distance_slices += 1;
                    }
                    Err(e) => {
                        let e = SliceDirError::Damaged {
                            dir: dir.to_path_buf(),
                            what: DIRECTORY.what,
                            file: format!("{s}.{}", crate::distance::DISTANCE_EXTENSION),
                            why: why(&e),
                            build: format!("{} --distance", files.build_command()),
                        };
                        problem.get_or_insert(e.into());
                    }
                }
            }
        }
        db.max_pieces = n;
        db.files = Some(files);
        Ok((db, problem))
    }

    /// Why slice `s` is not loaded though the directory the databases were opened from
    /// must hold it (not built, or damaged): the error naming it; `None` for a slice
    /// loaded, or one the databases do not cover.
    pub fn absent(&self, s: Slice) -> Option<DbError> {
        let files = self.files.as_ref()?;
        if self.table(s).is_some() || s.pieces() > self.max_pieces {
            return None;
        }
        let name = s.to_string();
        Some(match self.damaged.iter().find(|(d, _)| *d == s) {
            Some((_, why)) => files.damaged(&name, why).into(),
            None => files.missing(&name).into(),
        })
    }

    /// The value of a board with `side` to move, when its slice is present (and, for a
    /// slice in run-length blocks with a capture to make, the slices its captures reach)
    /// and, read through the cache, its block is intact ([`Database::damage`] names the
    /// first that was not).
    #[inline]
    pub fn value(&self, b: &Board, side: Side) -> Option<Wdl> {
        let t = self.table(Slice::of(b))?;
        if t.is_runs() && settled_by_rules(b, side) {
            return self.settle(b, side);
        }
        t.get(t.index().index(b), side)
    }

    /// One slice file alone, read through a cache of `cache_bytes` when it is compressed
    /// in format version 2 and larger (0: whole).
    pub fn open_file(path: &Path, cache_bytes: u64) -> Result<Database, DbError> {
        let size = file::size(path).map_err(TableFileError::from)?;
        let mut db = Database::new();
        let t = match Residence::choose(size, cache_bytes) {
            Residence::Cached(bytes) => {
                let cache = Arc::new(TableCache::new(bytes));
                db.cache = Some(Arc::clone(&cache));
                SliceTable::open(path, &cache)?
            }
            Residence::Whole => SliceTable::load(path)?,
        };
        db.insert(Arc::new(t));
        Ok(db)
    }

    /// How the compressed slices are held: whole, or through a cache of some bytes.
    pub fn residence(&self) -> Residence {
        match &self.cache {
            Some(c) => Residence::Cached(c.budget()),
            None => Residence::Whole,
        }
    }

    /// The table cache's lookups and contents (`None`: held whole).
    pub fn cache_stats(&self) -> Option<CacheStats> {
        self.cache.as_ref().map(|c| c.stats())
    }

    /// The first damage a probe through the cache met (a block that failed its CRC-32 or
    /// could not be read), naming the file; such a probe answered nothing.
    pub fn damage(&self) -> Option<String> {
        self.cache.as_ref()?.damage().map(str::to_string)
    }

    /// Checks every 4 KiB block of the slices read through the cache against its CRC-32
    /// (reading each file once, reporting slices done to `progress`); the slices held
    /// whole were checked when read. The first damaged block is the error, naming its
    /// slice.
    pub fn check_blocks(
        &self,
        progress: &dyn quasar_core::progress::Progress,
    ) -> Result<(), DbError> {
        let cached: Vec<&Arc<SliceTable>> = (self.tables.iter().flatten())
            .filter(|t| t.is_cached())
            .collect();
        if cached.is_empty() {
            return Ok(());
        }
        progress.begin(
            "checksums of the slices read through the cache",
            cached.len() as u64,
        );
        for t in cached {
            if let Err(e) = t.check_blocks() {
                progress.end();
                return Err(match &self.files {
                    Some(files) => files.damaged(&t.slice().to_string(), &why(&e)).into(),
                    None => e,
                });
            }
            progress.advance(1);
        }
        progress.end();
        Ok(())
    }

    /// The value of a board the rules settle: no move loses; a capture to make is worth
    /// the best of its captures, each to fewer pieces.
    fn settle(&self, b: &Board, side: Side) -> Option<Wdl> {
        // Move lists from a per-thread pool, one a level of the recursion: a probe in a
        // search's hot loop allocates nothing once the pool is warm.
        thread_local!(static POOL: std::cell::RefCell<Vec<Vec<crate::Move>>> = const {
            std::cell::RefCell::new(Vec::new())
        });
        let mut moves = POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
        b.moves(side, &mut moves);
        let mut best = Some(Wdl::Loss);
        for &mv in &moves {
            match self.value(&b.after(side, mv), side.opponent()) {
                Some(Wdl::Loss) => {
                    best = Some(Wdl::Win);
                    break;
                }
                Some(Wdl::Draw) => best = Some(Wdl::Draw),
                Some(Wdl::Win) => {}
                None => {
                    best = None;
                    break;
                }
            }
        }
        POOL.with(|p| p.borrow_mut().push(moves));
        best
    }

    /// Starts loading the value of a board with `side` to move into the cache, when its
    /// slice is present: a caller that will probe several boards (the children of a node)
    /// prefetches them all first, so their memory reads overlap.
    #[inline]
    pub fn prefetch(&self, b: &Board, side: Side) {
        if let Some(t) = self.table(Slice::of(b)) {
            t.prefetch(t.index().index(b), side);
        }
    }

    /// Loads the distance file of every slice present that has one in `dir` (each
    /// checked); returns how many.
    pub fn load_distances(&mut self, dir: &Path) -> Result<usize, DbError> {
        let mut k = 0;
        for s in self.slices() {
            let p = distance_path(dir, s);
            if p.is_file() {
                let old = self.distances[s.key()].replace(Arc::new(DistanceTable::load(&p)?));
                self.distance_slices += usize::from(old.is_none());
                k += 1;
            }
        }
        Ok(k)
    }

    /// Whether any slice's distance file is loaded.
    pub fn has_distances(&self) -> bool {
        self.distance_slices > 0
    }

    /// Plies to conversion (a capture, a promotion or the end) of a board with `side` to
    /// move, the winner hurrying and the loser delaying: `None` for a draw or when the
    /// slice's distance file is not loaded; 254 means 254 or more.
    #[inline]
    pub fn distance(&self, b: &Board, side: Side) -> Option<u8> {
        let d = self.distances.get(Slice::of(b).key())?.as_ref()?;
        let t = self.table(Slice::of(b))?;
        d.get(t.index().index(b), side)
    }

    /// The value of a position, when its slice is present.
    #[inline]
    pub fn probe_position(&self, p: &Position) -> Option<Wdl> {
        self.value(&p.board, p.side)
    }
}
