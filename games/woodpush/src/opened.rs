//! A Woodpush table file opened for the questions every game's table answers
//! ([`EndgameTable`]): its facts and counts, the value of a position, and its check against
//! the rules.

use crate::space::KoStates;
use crate::store::LoadError;
use crate::{Position, WoodpushTable};
use quasar_core::progress::Progress;
use quasar_core::table::{
    ClassCount, EndgameTable, Fact, Form, Row, TableInfo, TableProbe, VerifyOptions, VerifyReport,
};
use quasar_core::{Game, GameResult, Oracle, ParseError};
use retro::PerfectIndex;
use std::path::{Path, PathBuf};

/// Why a Woodpush table cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file is no usable Woodpush table.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The file's size cannot be read.
    #[error(transparent)]
    File(#[from] quasar_file::FileError),
    /// The position text is no position.
    #[error(transparent)]
    Position(#[from] ParseError),
    /// The position is on another strip than the table's.
    #[error("the position is on width {position} but the table is for width {table}")]
    Width {
        /// The position's width.
        position: u32,
        /// The table's width.
        table: u32,
    },
    /// An endgame table holds positions of few pieces only.
    #[error("the table holds positions of at most {limit} pieces; this one has {pieces}")]
    Pieces {
        /// The table's limit.
        limit: u32,
        /// The position's pieces.
        pieces: u32,
    },
    /// The table was built for another set of ko states.
    #[error("the table does not hold this ko state")]
    KoState,
}

/// A Woodpush table file, loaded (its checksum checked).
#[derive(Debug)]
pub struct OpenedTable {
    table: WoodpushTable,
    path: PathBuf,
}

impl OpenedTable {
    /// The loaded table.
    pub fn table(&self) -> &WoodpushTable {
        &self.table
    }
}

/// A score as words: who wins by how much, or a draw.
pub fn score_text(score: i32) -> String {
    match score {
        0 => "a draw (score 0)".into(),
        s if s > 0 => format!("Left wins by {s}"),
        s => format!("Right wins by {}", -s),
    }
}

/// What a table holds, in words: the width and, for an endgame table, its piece limit
/// (`width 7, every position`).
pub fn covers_text(t: &WoodpushTable) -> String {
    match t.space().max_pieces() {
        None => format!("width {}, every position", t.width()),
        Some(k) => format!("width {}, the positions of at most {k} pieces", t.width()),
    }
}

impl EndgameTable for OpenedTable {
    type Error = TableError;

    const GAME: &'static str = crate::store::GAME;

    fn open(path: &Path) -> Result<Self, TableError> {
        Ok(OpenedTable {
            table: WoodpushTable::load(path)?,
            path: path.to_path_buf(),
        })
    }

    /// The width, the ko states, the positions by side to move, the start's score, and
    /// the draws and wins by side (loading checked the checksum).
    fn info(&self, _: &dyn Progress) -> Result<TableInfo, TableError> {
        let t = &self.table;
        let bytes = quasar_file::size(&self.path)?;
        let c = t.counts();
        let [l, r] = c.positions_per_side;
        let by_side = |[l, r]: [u64; 2]| Fact::counts([("Left", l), ("Right", r)]);
        let ko = match t.space().ko_states() {
            KoStates::Reachable => "the ko states play can produce",
            KoStates::AnyPush => "a ko state for every push",
        };
        let start = t
            .start_score()
            .map_or("not in the table".into(), score_text);
        Ok(TableInfo {
            path: self.path.clone(),
            form: Form::Plain,
            form_text: "plain".into(),
            covers: covers_text(t),
            positions: l + r,
            bytes,
            classes_title: "positions by value (a draw: no side can force an end)".into(),
            classes: vec![
                ClassCount::new("Left wins", c.wins[0]),
                ClassCount::new("Right wins", c.wins[1]),
                ClassCount::new("draws with Left to move", c.draws_per_side[0]),
                ClassCount::new("draws with Right to move", c.draws_per_side[1]),
            ],
            rows: vec![
                Row::fact("width", t.width()),
                Row::data("max_pieces", t.space().max_pieces()),
                Row::line("ko_states", ko),
                Row::worded(
                    "positions_per_side",
                    by_side(c.positions_per_side),
                    format!("{l} with Left to move, {r} with Right to move"),
                ),
                Row::data("start_score", t.start_score()),
                Row::line("start", start),
                Row::data("draws_per_side", by_side(c.draws_per_side)),
                Row::data("wins", by_side(c.wins)),
            ],
            grid: None,
            incomplete: None,
        })
    }

    /// The result with its exact plies, a move that keeps it, and the score.
    fn probe(&self, text: &str) -> Result<TableProbe, TableError> {
        let t = &self.table;
        let pos = Position::parse_position(text)?;
        if pos.board.width != t.width() {
            return Err(TableError::Width {
                position: pos.board.width,
                table: t.width(),
            });
        }
        let pieces = pos.board.occupied().count_ones();
        let held = t.score(&pos).zip(Oracle::probe(t, &pos));
        let Some((score, p)) = held else {
            return Err(match t.space().max_pieces() {
                Some(limit) if pieces > limit => TableError::Pieces { limit, pieces },
                _ => TableError::KoState,
            });
        };
        let draw = p.result == GameResult::Draw;
        Ok(TableProbe {
            position: pos.position_text(),
            to_move: Position::side_name(pos.side).to_string(),
            result: Some(p.result),
            plies: if draw { None } else { p.plies },
            plies_exact: !draw && p.plies.is_some(),
            best_move: p.best_move.map(|mv| pos.move_text(mv)),
            detail: Some(if draw {
                format!("score {score}: play never ends")
            } else {
                format!("score {score} ({})", score_text(score))
            }),
            moves: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// Every position against its moves (loading checked the checksum); checked whole,
    /// so `options` choose nothing.
    fn verify(
        &self,
        _: &VerifyOptions,
        progress: &dyn Progress,
    ) -> Result<VerifyReport, TableError> {
        let t = &self.table;
        let r = t.verify_reporting(progress);
        let first = r.first_inconsistent;
        Ok(VerifyReport {
            checksums: format!("woodpush {}", covers_text(t)),
            rows: Vec::new(),
            checked: r.positions,
            which: None,
            how: "against their moves".into(),
            inconsistent: r.inconsistent,
            examples: (first.into_iter())
                .map(|p| PerfectIndex::unrank(t.space(), p).position_text())
                .collect(),
        })
    }
}
