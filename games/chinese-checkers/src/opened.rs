//! A Chinese Checkers table file opened for the questions every game's table answers
//! ([`EndgameTable`]): its facts and counts, the value of a position, and its check against
//! the rules (whole, or on a sample for large tables).

use crate::solve::{CcTable, LoadError, GAME};
use crate::Position;
use quasar_core::progress::Progress;
use quasar_core::table::{
    ClassCount, EndgameTable, Fact, Form, Row, TableInfo, TableProbe, VerifyOptions, VerifyReport,
};
use quasar_core::{Game, GameResult, ParseError};
use std::path::{Path, PathBuf};

/// The most positions `verify` checks whole by default; a larger table is checked on a
/// sample of [`SAMPLE`].
pub const WHOLE_UP_TO: u64 = 10_000_000;

/// The positions of the default sample of a table larger than [`WHOLE_UP_TO`].
pub const SAMPLE: u64 = 100;

/// Why a Chinese Checkers table cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file is no usable Chinese Checkers table.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The file's size cannot be read.
    #[error(transparent)]
    File(#[from] quasar_file::FileError),
    /// The position text is no position.
    #[error(transparent)]
    Position(#[from] ParseError),
    /// The position has another number of pieces a side than the table.
    #[error("the position has {position} pieces a side but the table holds {table}")]
    Pieces {
        /// The position's pieces a side.
        position: u32,
        /// The table's.
        table: u32,
    },
    /// A seed without a sample: the table would be checked whole.
    #[error(
        "--seed chooses a sample, but this table of {positions} positions is checked whole: \
         drop --seed, or give --samples as well"
    )]
    SeedWithoutSample {
        /// The positions of the table.
        positions: u64,
    },
}

/// A Chinese Checkers table file, loaded (its checksum checked).
#[derive(Debug)]
pub struct OpenedTable {
    table: CcTable,
    path: PathBuf,
}

/// The value of `pos` in `t` in words: `X to move wins in 33 plies`.
pub fn value_text(t: &CcTable, pos: &Position) -> String {
    match t.value(pos) {
        None => "not in the table".into(),
        Some((r, plies)) => {
            let me = Position::side_name(pos.side);
            match r {
                GameResult::Draw => format!("{me} to move: a draw (or not proven)"),
                _ if plies == 0 => format!("{me} to move: the game is over, {me} has lost"),
                GameResult::Win => format!("{me} to move wins in {plies} plies"),
                GameResult::Loss => format!("{me} to move loses in {plies} plies"),
            }
        }
    }
}

/// `win`, `loss` or `draw`.
fn result_word(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Loss => "loss",
        GameResult::Draw => "draw",
    }
}

impl EndgameTable for OpenedTable {
    type Error = TableError;

    const GAME: &'static str = GAME;

    fn open(path: &Path) -> Result<Self, TableError> {
        Ok(OpenedTable {
            table: CcTable::load(path)?,
            path: path.to_path_buf(),
        })
    }

    /// The pieces a side, whether half is stored, the counts by value and the start's
    /// value (loading checked the checksum).
    fn info(&self, _: &dyn Progress) -> Result<TableInfo, TableError> {
        let t = &self.table;
        let bytes = quasar_file::size(&self.path)?;
        let c = t.counts();
        let start = Position::start(t.k()).ok();
        let start_value = start.as_ref().and_then(|p| t.value(p)).map(|(r, plies)| {
            Fact::map([("result", result_word(r).into()), ("plies", plies.into())])
        });
        let half = match t.is_mirror() {
            true => "yes: the second player's positions are the first's turned round",
            false => "no",
        };
        let mut rows = vec![
            Row::fact("pieces_per_side", t.k()),
            Row::worded("half_stored", t.is_mirror(), half),
            Row::data("first_wins", c.first_wins),
            Row::data("second_wins", c.second_wins),
            Row::data("draws", c.draws),
            Row::data("start", start_value),
        ];
        if let Some(p) = &start {
            rows.push(Row::line("start", value_text(t, p)));
        }
        if c.second_wins == 0 && c.draws > 0 {
            rows.push(Row::line(
                "note",
                "a win-only solve: losses are not proven, so they count as undecided",
            ));
        }
        Ok(TableInfo {
            path: self.path.clone(),
            form: Form::Plain,
            form_text: "plain".into(),
            covers: format!("7x7, {} pieces a side", t.k()),
            positions: c.positions,
            bytes,
            classes_title: "positions by value (both sides to move)".into(),
            classes: vec![
                ClassCount::new("first-player wins", c.first_wins),
                ClassCount::new("first-player losses", c.second_wins),
                ClassCount::new("draws", c.draws),
            ],
            rows,
            grid: None,
            incomplete: None,
        })
    }

    /// The result with its plies (exact from the half solver), a move that keeps it.
    fn probe(&self, text: &str) -> Result<TableProbe, TableError> {
        let t = &self.table;
        let pos = Position::parse_position(text)?;
        if pos.k() != t.k() {
            return Err(TableError::Pieces {
                position: pos.k(),
                table: t.k(),
            });
        }
        let value = t.value(&pos);
        let draw = matches!(value, Some((GameResult::Draw, _)));
        Ok(TableProbe {
            position: pos.position_text(),
            to_move: Position::side_name(pos.side).to_string(),
            result: value.map(|(r, _)| r),
            plies: value.filter(|_| !draw).map(|(_, n)| n),
            // The half solver's plies are exact; the paper's solvers' may be bounds.
            plies_exact: !draw && t.is_mirror(),
            best_move: t.best_move(&pos).map(|mv| pos.move_text(mv)),
            detail: match value {
                None => Some("not in the table".into()),
                Some(_) if draw => Some("or not proven, in a table solved with --win-only".into()),
                Some(_) => None,
            },
            moves: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// Every position of a table of at most [`WHOLE_UP_TO`], else a sample of [`SAMPLE`],
    /// or a sample of `options.samples` when given; `options.seed` picks the sample.
    fn verify(
        &self,
        options: &VerifyOptions,
        progress: &dyn Progress,
    ) -> Result<VerifyReport, TableError> {
        let t = &self.table;
        let n = retro::PerfectIndex::size(t.space());
        let sample = options.samples.or((n > WHOLE_UP_TO).then_some(SAMPLE));
        if sample.is_none() && options.seed.is_some() {
            return Err(TableError::SeedWithoutSample { positions: n });
        }
        let r = t.verify_reporting(sample, options.seed.unwrap_or(1), progress);
        let which = match sample {
            None => "every position",
            Some(_) => "a random sample",
        };
        Ok(VerifyReport {
            checksums: format!("chinese-checkers 7x7, {} pieces a side", t.k()),
            rows: Vec::new(),
            checked: r.positions,
            which: Some(which.into()),
            how: "against their moves".into(),
            inconsistent: r.inconsistent,
            examples: r
                .first_inconsistent
                .map(|p| p.position_text())
                .into_iter()
                .collect(),
        })
    }
}
