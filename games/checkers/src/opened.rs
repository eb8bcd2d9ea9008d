//! Checkers databases (a directory of slices, or one slice file) opened for the questions
//! every game's table answers ([`EndgameTable`]): their counts per slice and side to move,
//! the value of a position with each move's, and a check of every position against its
//! moves.

use crate::build::MAX_DISTANCE;
use crate::db::{Database, DbError, SliceTable, Wdl, COMPRESSED_VERSION, GAME};
use crate::{Board, Position, Slice};
use quasar_core::progress::Progress;
use quasar_core::table::{
    ClassCount, EndgameTable, Fact, Form, Grid, Row, TableInfo, TableProbe, VerifyOptions,
    VerifyReport,
};
use quasar_core::{Game, GameResult, Outcome, ParseError, Side};
use quasar_file::cache::{Residence, DEFAULT_CACHE_BYTES};
use quasar_file::slices::SliceDirError;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why checkers databases cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The directory or file cannot be read, or is not whole (slices not built, a damaged
    /// file).
    #[error(transparent)]
    Db(#[from] DbError),
    /// The reason found at opening that the directory is not whole, for the commands that
    /// need it whole.
    #[error(transparent)]
    Incomplete(Arc<DbError>),
    /// The position text is no position.
    #[error(transparent)]
    Position(#[from] ParseError),
    /// The position has more pieces than the databases.
    #[error("{position}: slice {slice} is not in {} (up to {max_pieces} pieces)", path.display())]
    Beyond {
        /// The position as given.
        position: String,
        /// Its slice.
        slice: Slice,
        /// The databases.
        path: PathBuf,
        /// Their most pieces.
        max_pieces: u32,
    },
}

/// Checkers databases: every slice that could be read, with the first reason the rest
/// could not.
#[derive(Debug)]
pub struct OpenedTable {
    db: Database,
    problem: Option<Arc<DbError>>,
    path: PathBuf,
}

impl OpenedTable {
    /// The databases, which must be whole: every slice of the manifest built and every
    /// file intact.
    fn whole(&self) -> Result<&Database, TableError> {
        match &self.problem {
            None => Ok(&self.db),
            Some(e) => Err(TableError::Incomplete(Arc::clone(e))),
        }
    }
}

/// How the slices store their values: `plain`, `entropy-coded run-length blocks of N
/// positions` with the compressed format's version and how it is read (or `... with runs
/// as bytes`, as an earlier version wrote them), or `mixed` (a directory some of whose
/// slices were built after a compression).
pub fn form_text(db: &Database) -> (Form, String) {
    let tables: Vec<_> = (db.slices().iter()).filter_map(|&s| db.table(s)).collect();
    let blocks: Vec<Option<(u64, bool)>> = (tables.iter())
        .map(|t| t.runs_block().map(|n| (n, t.is_coded_with(n))))
        .collect();
    match blocks.first() {
        Some(first) if blocks.iter().any(|b| b != first) => {
            (Form::Compressed, "mixed plain and run-length blocks".into())
        }
        Some(Some((n, true))) => (
            Form::Compressed,
            format!(
                "entropy-coded run-length blocks of {n} positions, {}",
                version_text(db, &tables)
            ),
        ),
        Some(Some((n, false))) => (
            Form::Compressed,
            format!("run-length blocks of {n} positions, runs as bytes"),
        ),
        _ => (Form::Sliced, "plain".into()),
    }
}

/// The compressed format's version of the slices and how they are read: version 1 (one
/// checksum a file) whole, version 2 (one a 4 KiB block) whole or through the cache.
fn version_text(db: &Database, tables: &[&Arc<SliceTable>]) -> String {
    let old = tables
        .iter()
        .filter(|t| t.format_version() == Some(1))
        .count();
    let how = match db.residence() {
        Residence::Cached(bytes) => format!(
            "read through a table cache of {} MiB",
            quasar_file::cache::format_cache_size(bytes)
        ),
        Residence::Whole => "read whole".into(),
    };
    match old {
        0 => format!("format version {COMPRESSED_VERSION} (a checksum a 4 KiB block), {how}"),
        n if n == tables.len() => "format version 1 (one checksum a file, read whole; \
                                   compressing again writes version 2, read a block at a time)"
            .into(),
        n => format!(
            "{n} slices in format version 1 (read whole) and the rest in version \
             {COMPRESSED_VERSION}, {how}"
        ),
    }
}

/// The bytes of a file, or of the files in a directory.
fn bytes_on_disk(path: &Path) -> u64 {
    match std::fs::read_dir(path) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum(),
        Err(_) => std::fs::metadata(path).map_or(0, |m| m.len()),
    }
}

/// `win`, `draw` or `loss`.
fn word(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

/// `, converts in N plies` for a distance, nothing without one.
fn plies_text(d: Option<u8>) -> String {
    match d {
        None => String::new(),
        Some(d) if d >= MAX_DISTANCE => format!(", converts in {d} plies or more"),
        Some(d) => format!(", converts in {d} plies"),
    }
}

impl EndgameTable for OpenedTable {
    type Error = TableError;

    const GAME: &'static str = GAME;

    /// A directory of slices with its distance files (what cannot be read kept as the
    /// reason it is not whole), or one slice file; compressed slices larger than the
    /// default table cache are read through it.
    fn open(path: &Path) -> Result<Self, TableError> {
        OpenedTable::open_cached(path, DEFAULT_CACHE_BYTES)
    }

    /// [`OpenedTable::open`] with a table cache of `bytes` (0: always whole).
    fn open_cached(path: &Path, bytes: u64) -> Result<Self, TableError> {
        let (db, problem) = if path.is_dir() {
            Database::open_partial_cached(path, true, bytes)?
        } else {
            (Database::open_file(path, bytes)?, None)
        };
        Ok(OpenedTable {
            db,
            problem: problem.map(Arc::new),
            path: path.to_path_buf(),
        })
    }

    /// Per slice and side to move: positions, wins, draws, losses (every file held whole
    /// was checked when read; those read through the cache are checked block by block
    /// here).
    fn info(&self, progress: &dyn Progress) -> Result<TableInfo, TableError> {
        let db = self.whole()?;
        db.check_blocks(progress)?;
        let mut total = [0u64; 4];
        let mut slices = Vec::new();
        let mut grid = Grid {
            columns: ["slice", "to move", "positions", "wins", "draws", "losses"]
                .map(String::from)
                .to_vec(),
            lines: Vec::new(),
        };
        for s in db.slices() {
            let Some(t) = db.table(s) else { continue };
            for side in [Side::First, Side::Second] {
                let c = t.counts(side);
                let n = [c.positions, c.wins, c.draws, c.losses];
                slices.push(Fact::map([
                    ("slice", s.to_string().into()),
                    ("to_move", Position::side_name(side).into()),
                    ("positions", c.positions.into()),
                    ("wins", c.wins.into()),
                    ("draws", c.draws.into()),
                    ("losses", c.losses.into()),
                ]));
                let names = [s.to_string(), Position::side_name(side).to_string()];
                grid.lines
                    .push(names.into_iter().chain(n.map(|x| x.to_string())).collect());
                for (a, b) in total.iter_mut().zip(n) {
                    *a += b;
                }
            }
        }
        let all = ["all".to_string(), "both".to_string()];
        grid.lines.push(
            all.into_iter()
                .chain(total.map(|x| x.to_string()))
                .collect(),
        );
        let (form, form_text) = form_text(db);
        let count = db.slices().len();
        Ok(TableInfo {
            path: self.path.clone(),
            form: if self.path.is_dir() {
                form
            } else {
                Form::Plain
            },
            covers: format!("up to {} pieces", db.max_pieces()),
            positions: total[0],
            bytes: bytes_on_disk(&self.path),
            classes_title: "positions by value (both sides to move)".into(),
            classes: vec![
                ClassCount::new("wins", total[1]),
                ClassCount::new("draws", total[2]),
                ClassCount::new("losses", total[3]),
            ],
            rows: vec![
                Row::fact("max_pieces", db.max_pieces()),
                Row::data("form", form_text.as_str()),
                Row::worded("slices", Fact::List(slices), count.to_string()),
                Row::data("wins", total[1]),
                Row::data("draws", total[2]),
                Row::data("losses", total[3]),
            ],
            form_text,
            grid: Some(grid),
            incomplete: None,
        })
    }

    /// The value, a move that keeps it, the slice and (with distance files) the plies to
    /// conversion, then each move's value; a directory that is not whole is named as a
    /// warning.
    fn probe(&self, text: &str) -> Result<TableProbe, TableError> {
        let db = &self.db;
        let pos = Position::parse_position(text)?;
        // With distance files, a decided value also says how soon it converts.
        let distance = |board: &Board, side: Side, w: Wdl| match w {
            Wdl::Draw => None,
            _ => db.distance(board, side),
        };
        let Some(v) = db.probe_position(&pos) else {
            // A slice the directory must hold is named as not built (or damaged), never as
            // beyond the databases.
            if let Some(e) = db.absent(Slice::of(&pos.board)) {
                return Err(e.into());
            }
            return Err(TableError::Beyond {
                position: text.to_string(),
                slice: Slice::of(&pos.board),
                path: self.path.clone(),
                max_pieces: db.max_pieces(),
            });
        };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let children: Vec<_> = moves
            .iter()
            .map(|&m| {
                let child = pos.after(m);
                let w = db.probe_position(&child);
                let d = w.and_then(|w| distance(&child.board, child.side, w));
                (m, child, w, d)
            })
            .collect();
        // A move that keeps the value: to a lost child soonest, a drawn one, or, lost, to the
        // won child that converts last.
        let keep = match v {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        };
        let best = children
            .iter()
            .filter(|c| c.2 == Some(keep))
            .min_by_key(|c| match v {
                Wdl::Loss => u8::MAX - c.3.unwrap_or(0),
                _ => c.3.unwrap_or(0),
            })
            .map(|c| pos.move_text(c.0));
        let after = |child: &Position, w: Option<Wdl>, d| {
            let slice = Slice::of(&child.board);
            match (w, db.absent(slice)) {
                (Some(w), _) => format!("{} for the opponent{}", word(w), plies_text(d)),
                (None, Some(DbError::Dir(SliceDirError::Damaged { .. }))) => {
                    format!("slice {slice} is damaged")
                }
                (None, Some(_)) => format!("slice {slice} is not built"),
                (None, None) => "not in the databases".to_string(),
            }
        };
        let d = distance(&pos.board, pos.side, v);
        Ok(TableProbe {
            position: pos.position_text(),
            to_move: Position::side_name(pos.side).to_string(),
            result: Some(match v {
                Wdl::Win => GameResult::Win,
                Wdl::Draw => GameResult::Draw,
                Wdl::Loss => GameResult::Loss,
            }),
            plies: None,
            plies_exact: false,
            best_move: best,
            detail: Some(format!("slice {}{}", Slice::of(&pos.board), plies_text(d))),
            moves: (children.iter())
                .map(|(m, child, w, d)| (pos.move_text(*m), after(child, *w, *d)))
                .collect(),
            // The position's slice is there; moves into slices that are not say so.
            warnings: self.problem.iter().map(|e| e.to_string()).collect(),
        })
    }

    /// Every position against its moves: a win has a move to a lost position, a loss only
    /// moves to won ones, a draw neither (or no progress possible). Checked whole, so
    /// `options` choose nothing.
    fn verify(
        &self,
        _: &VerifyOptions,
        progress: &dyn Progress,
    ) -> Result<VerifyReport, TableError> {
        let db = self.whole()?;
        // A damaged block is an error here, where a search goes on without it.
        db.check_blocks(progress)?;
        let slices = db.slices();
        let total: u64 = (slices.iter())
            .filter_map(|&s| db.table(s))
            .map(|t| 2 * t.index().size())
            .sum();
        progress.begin("checking positions against their moves", total);
        let (mut checked, mut inconsistent) = (0u64, 0u64);
        let mut examples = Vec::new();
        let mut moves = Vec::new();
        for s in slices {
            let Some(t) = db.table(s) else { continue };
            if s.dependencies().iter().any(|d| db.table(*d).is_none()) {
                progress.advance(2 * t.index().size());
                continue;
            }
            for i in 0..t.index().size() {
                let b = t.index().board(i);
                for side in [Side::First, Side::Second] {
                    let pos = Position { board: b, side };
                    let Some(want) = db.value(&b, side) else {
                        continue;
                    };
                    let got = match Game::outcome(&pos) {
                        Some(Outcome::Win(w)) if w == side => Some(Wdl::Win),
                        Some(_) => Some(Wdl::Loss),
                        None => {
                            pos.legal_moves(&mut moves);
                            let kids = moves.iter().map(|&m| db.probe_position(&pos.after(m)));
                            let (mut unknown, mut lost, mut all_won) = (false, false, true);
                            for k in kids {
                                unknown |= k.is_none();
                                lost |= k == Some(Wdl::Loss);
                                all_won &= k == Some(Wdl::Win);
                            }
                            match (unknown, lost, all_won) {
                                (true, _, _) => None,
                                (_, true, _) => Some(Wdl::Win),
                                (_, _, true) => Some(Wdl::Loss),
                                _ => Some(Wdl::Draw),
                            }
                        }
                    };
                    checked += 1;
                    // A win or loss must be confirmed by the moves.
                    if let Some(g) = got.filter(|&g| g != want) {
                        inconsistent += 1;
                        if examples.len() < VerifyReport::EXAMPLES {
                            examples.push(format!(
                                "{} : stored {want:?}, its moves say {g:?}",
                                pos.position_text()
                            ));
                        }
                    }
                }
            }
            progress.advance(2 * t.index().size());
        }
        progress.end();
        if let Some(d) = db.damage() {
            return Err(DbError::Damaged(d).into());
        }
        Ok(VerifyReport {
            checksums: format!("checkers databases up to {} pieces", db.max_pieces()),
            rows: Vec::new(),
            checked,
            which: None,
            how: "against their moves".into(),
            inconsistent,
            examples,
        })
    }
}
