//! A Breakthrough table (one B-tree file, or a directory of slices, plain or compressed)
//! opened for the questions every game's table answers ([`EndgameTable`]): its header and
//! depth histogram, the value of a position with its depth and best move, and a check of
//! a sample of entries and configurations re-derived by search.

use super::store::compressed::CompressedTable;
use super::store::slice_blocks::{BLOCK_INDEX, SLICE_BLOCK_BYTES};
use super::store::{Corrupt, Lookup, SlicedTable, TableFileError, Tree};
use super::{Region, Tablebase, Unknown};
use crate::{Board, Position};
use quasar_core::progress::Progress;
use quasar_core::table::{
    ClassCount, EndgameTable, Fact, Form, Row, TableInfo, TableProbe, VerifyOptions, VerifyReport,
};
use quasar_core::{Game, GameResult};
use std::path::{Path, PathBuf};

/// The game's name, as `--game` takes it.
pub const GAME: &str = "breakthrough";

/// The entries and configurations a check re-derives by default.
pub const SAMPLES: u64 = 100;

/// Why a Breakthrough table cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file or directory is no usable table, or is damaged.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// A slice of a directory fails its checksum or header.
    #[error("{}: {source}", dir.display())]
    Damaged {
        /// The table's directory.
        dir: PathBuf,
        /// Which slice, and how.
        source: Corrupt,
    },
    /// The position text is no position.
    #[error(transparent)]
    Position(#[from] crate::PositionError),
    /// The position is on another board than the table's.
    #[error("the position is on {position} but the table is for {table}")]
    Board {
        /// The position's board.
        position: Board,
        /// The table's board.
        table: Board,
    },
    /// `--write-index` for a table without a block index.
    #[error("--write-index is for a {kind} table's directory; {} is {what}: drop --write-index", path.display())]
    NoBlockIndex {
        /// The table.
        path: PathBuf,
        /// The kind of table that has one.
        kind: &'static str,
        /// What this table is instead.
        what: &'static str,
    },
}

/// A Breakthrough table, opened (its header and size checked).
#[derive(Debug)]
pub struct OpenedTable {
    tb: Tablebase,
    path: PathBuf,
}

/// The bytes a table of `size` bytes spends on each of its `entries`; a table without any
/// (its limits leave no win to store) is its header alone.
pub fn per_entry(size: u64, entries: u64) -> String {
    match entries {
        0 => "no entries: the header alone".to_string(),
        n => format!("{:.2} bytes/entry", size as f64 / n as f64),
    }
}

/// A depth histogram as counts by class (`D =  2`), the empty depths left out.
fn classes(histogram: &[u64]) -> Vec<ClassCount> {
    (histogram.iter().enumerate())
        .filter(|(_, &n)| n > 0)
        .map(|(d, &n)| ClassCount::new(format!("D = {d:>2}"), n))
        .collect()
}

/// A depth histogram as a map from each depth held to its count.
fn histogram_fact(histogram: &[u64]) -> Fact {
    Fact::counts((histogram.iter().enumerate()).filter_map(|(d, &n)| (n > 0).then_some((d, n))))
}

/// The board and rows of a region, in words: `5x5, rows: 3 (rows 3..5)`.
fn board_text(region: &Region) -> String {
    format!(
        "{}, rows: {} (rows {}..{})",
        region.board(),
        region.rows(),
        region.lowest_row(),
        region.board().height()
    )
}

/// The title of a sliced table's capped histogram, which says what the cap means.
fn capped_title(cap: u8, region: &Region) -> String {
    format!(
        "capped depth histogram of stored slices (D = {cap} means no win within {} moves)",
        region.lowest_row()
    )
}

/// The facts of a sliced table's directory in either form.
struct Sliced<'a> {
    dir: &'a Path,
    region: &'a Region,
    form: Form,
    form_text: String,
    positions: u64,
    bytes: u64,
    cap: u8,
    histogram: Vec<u64>,
    rows: Vec<Row>,
}

impl Sliced<'_> {
    /// The table's info: the board, then the form's own rows, the JSON keys of both.
    fn info(self) -> TableInfo {
        let region = self.region;
        let mut rows = vec![
            Row::worded("board", region.board().to_string(), board_text(region)),
            Row::data("rows", region.rows()),
            Row::data("sliced", true),
            Row::data(
                "positions_per_byte",
                self.positions as f64 / self.bytes.max(1) as f64,
            ),
        ];
        rows.extend(self.rows);
        rows.push(Row::data(
            "depth_histogram",
            histogram_fact(&self.histogram),
        ));
        TableInfo {
            path: self.dir.to_path_buf(),
            form: self.form,
            form_text: self.form_text,
            covers: format!("{}, {} rows", region.board(), region.rows()),
            positions: self.positions,
            bytes: self.bytes,
            classes_title: capped_title(self.cap, region),
            classes: classes(&self.histogram),
            rows,
            grid: None,
            incomplete: None,
        }
    }
}

/// `info` of a plain sliced table: its finished slices by wave and their depths; one that
/// is not whole says so after its facts.
fn info_sliced(t: &SlicedTable, progress: &dyn Progress) -> Result<TableInfo, TableError> {
    let s = t.slicing();
    let dir = t.dir();
    let damaged = |source| TableError::Damaged {
        dir: dir.to_path_buf(),
        source,
    };
    let (headers, _) = t.check_all(progress).map_err(damaged)?;
    let plan = s.plan();
    let total: usize = plan.waves().iter().map(Vec::len).sum();
    let mut waves: Vec<(usize, usize)> = plan.waves().iter().map(|w| (0, w.len())).collect();
    let mut histogram = vec![0u64; s.cap() as usize + 1];
    for h in &headers {
        waves[s.wave(h.slice)].0 += 1;
        for (d, n) in histogram.iter_mut().enumerate() {
            *n += h.histogram[d];
        }
    }
    let done: Vec<String> = (waves.iter().enumerate())
        .map(|(k, (d, n))| format!("{k}:{d}/{n}"))
        .collect();
    let finished = headers.len();
    let mut info = Sliced {
        dir,
        region: t.region(),
        form: Form::Sliced,
        form_text: format!("plain: capped depths packed {} a byte", s.per_byte()),
        positions: finished as u64 * s.per_slice(),
        bytes: t.bytes() as u64,
        cap: s.cap(),
        histogram,
        rows: vec![
            Row::data("form", "plain"),
            Row::worded(
                "slices_finished",
                finished,
                format!(
                    "{finished} of {total} (each {} configurations and its mirror image)",
                    s.per_slice()
                ),
            ),
            Row::data("slices", total),
            Row::line("finished_by_wave", done.join(" ")),
        ],
    }
    .info();
    info.incomplete = t.completeness().err().map(Into::into);
    Ok(info)
}

/// `info` of a compressed sliced table: every file read and checked, then its form, size
/// and depth histogram.
fn info_compressed(t: &CompressedTable, progress: &dyn Progress) -> Result<TableInfo, TableError> {
    let s = t.slicing();
    let histogram = t
        .verify_all(progress)
        .map_err(|source| TableError::Damaged {
            dir: t.dir().to_path_buf(),
            source,
        })?;
    let stored = (0..s.slices()).filter(|&id| s.is_canonical(id)).count() as u64;
    let form = format!(
        "compressed: entropy-coded run-length blocks of {} positions",
        t.block()
    );
    Ok(Sliced {
        dir: t.dir(),
        region: t.region(),
        form: Form::Compressed,
        form_text: form.clone(),
        positions: stored * s.per_slice(),
        bytes: t.file_bytes(),
        cap: s.cap(),
        histogram: histogram[..s.cap() as usize + 1].to_vec(),
        rows: vec![
            Row::data("form", form),
            Row::data("block", t.block()),
            Row::worded(
                "slices",
                stored,
                format!(
                    "{stored} stored, each {} configurations and its mirror image",
                    s.per_slice()
                ),
            ),
        ],
    }
    .info())
}

impl EndgameTable for OpenedTable {
    type Error = TableError;

    const GAME: &'static str = GAME;

    fn with_cache(mut self, bytes: u64) -> Self {
        self.tb = self.tb.with_table_cache(bytes);
        self
    }

    fn open(path: &Path) -> Result<Self, TableError> {
        Ok(OpenedTable {
            tb: Tablebase::open(path)?,
            path: path.to_path_buf(),
        })
    }

    /// The header, limits, entries, bytes an entry, checksum and depth histogram of a file;
    /// the slices, form and capped depth histogram of a directory.
    fn info(&self, progress: &dyn Progress) -> Result<TableInfo, TableError> {
        let t = self.tb.table();
        let tree = match &t.tree {
            Tree::Static(tree) => tree,
            Tree::Sliced(sliced) => return info_sliced(sliced, progress),
            Tree::Compressed(c) => return info_compressed(c, progress),
        };
        // The histogram reads every entry anyway: check every block first, on all cores.
        t.verify_all(progress)?;
        let h = &t.header;
        let size = quasar_file::size(&self.path).map_err(TableFileError::from)?;
        let mut histogram = vec![0u64; h.max_depth as usize + 1];
        for entry in tree.iter() {
            let (_, v) = entry.map_err(|c| t.damaged(c.into()))?;
            let d = t.codec.decode(v).depth as usize;
            if d < histogram.len() {
                histogram[d] += 1;
            }
        }
        let checksum = format!("{:08x}", h.checksum);
        Ok(TableInfo {
            path: self.path.clone(),
            form: Form::Plain,
            form_text: "plain: one static B-tree file".into(),
            covers: format!("{}, {} rows", h.board, h.rows),
            positions: h.entries,
            bytes: size,
            classes_title: "depth histogram".into(),
            classes: classes(&histogram),
            rows: vec![
                Row::fact("format_version", h.version),
                Row::worded("board", h.board.to_string(), board_text(&t.region)),
                Row::data("rows", h.rows),
                Row::fact("limits", h.limits.to_string()),
                Row::line(
                    "entries",
                    format!(
                        "{} ({}), {}-byte values, {}-bit coordinate fields",
                        h.entries,
                        per_entry(size, h.entries),
                        h.value_bytes,
                        h.field_bits
                    ),
                ),
                Row::data("value_bytes", h.value_bytes),
                Row::worded(
                    "checksum",
                    checksum.as_str(),
                    format!("{checksum} (verified)"),
                ),
                Row::data("sliced", false),
                Row::data("depth_histogram", histogram_fact(&histogram)),
            ],
            grid: None,
            incomplete: None,
        })
    }

    /// A certain win with its depth `D` (at most `2D - 1` plies) and best move, or why the
    /// table cannot say.
    fn probe(&self, text: &str) -> Result<TableProbe, TableError> {
        let tb = &self.tb;
        let pos = Position::from_fen(text)?;
        if pos.board() != tb.header().board {
            return Err(TableError::Board {
                position: pos.board(),
                table: tb.header().board,
            });
        }
        let mut answer = TableProbe {
            position: pos.position_text(),
            to_move: Position::side_name(pos.side_to_move()).to_string(),
            result: None,
            plies: None,
            plies_exact: false,
            best_move: None,
            detail: None,
            moves: Vec::new(),
            warnings: Vec::new(),
        };
        match tb.explain(&pos) {
            // D moves of the side to move, the opponent's between them: a bound, since the
            // opponent may lose sooner.
            Ok(w) => {
                answer.result = Some(GameResult::Win);
                answer.plies = Some(2 * w.depth - 1);
                answer.best_move = Some(pos.move_text(w.best_move));
                answer.detail = Some(format!(
                    "depth D = {} (moves of the side to move, at most)",
                    w.depth
                ));
            }
            Err(Unknown::Damaged(c)) => return Err(tb.table().damaged(c).into()),
            Err(why) => answer.detail = Some(why.to_string()),
        }
        Ok(answer)
    }

    /// Every checksum (or, with `write_index`, every slice whole while the block index is
    /// written), then a sample of entries and configurations re-derived by search.
    fn verify(
        &self,
        options: &VerifyOptions,
        progress: &dyn Progress,
    ) -> Result<VerifyReport, TableError> {
        let tb = &self.tb;
        let mut rows = Vec::new();
        if options.write_index {
            let Some(sliced) = tb.table().tree.as_sliced() else {
                let (kind, what) = match tb.table().tree.as_compressed() {
                    Some(_) => (
                        "plain sliced",
                        "a compressed table, whose files are checked whole when read",
                    ),
                    None => ("sliced", "a whole table, checked whole"),
                };
                return Err(TableError::NoBlockIndex {
                    path: self.path.clone(),
                    kind,
                    what,
                });
            };
            // Checks every slice whole on the way, as verify_all does.
            sliced.write_block_index(SLICE_BLOCK_BYTES, progress)?;
            let index = sliced.dir().join(BLOCK_INDEX);
            rows.push(Row::line(
                "block_index_written",
                index.display().to_string(),
            ));
            sliced.completeness()?;
        } else {
            tb.verify_all(progress)?;
        }
        let samples = options.samples.unwrap_or(SAMPLES);
        let r = super::verify::verify_sample(tb, samples, options.seed.unwrap_or(1));
        Ok(VerifyReport {
            checksums: format!(
                "{} entries, {} {} rows",
                tb.table().tree.len(),
                tb.header().board,
                tb.header().rows
            ),
            rows,
            checked: r.entries_checked + r.configs_checked,
            which: Some(format!(
                "{} stored entries and {} random configurations",
                r.entries_checked, r.configs_checked
            )),
            how: "re-derived by brute force".into(),
            inconsistent: r.failures.len() as u64,
            examples: r
                .failures
                .into_iter()
                .take(VerifyReport::EXAMPLES)
                .collect(),
        })
    }
}
