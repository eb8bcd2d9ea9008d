//! A solved Woodpush table on disk (the `retro` table file: results, plies and scores) and
//! its verification against the rules.

use crate::solve::WoodpushTable;
use crate::space::{KoStates, SpaceError, WoodpushSpace};
use quasar_core::progress::{Progress, Silent};
use quasar_core::Side;
use rayon::prelude::*;
use retro::scored::ScoreTable;
use retro::wdl::WdlTable;
use retro::{Child, PerfectIndex, RetroGame, Section, TableFile, TableFileError};
use std::path::Path;

/// The game name in the file header.
pub const GAME: &str = "woodpush";
const RESULTS: u32 = 1;
const PLIES: u32 = 2;
const SCORES: u32 = 3;

/// Why a file is not a usable Woodpush table.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file itself is unreadable or damaged.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// A table of another game or of unknown parameters.
    #[error("{0}")]
    NotWoodpush(String),
    /// The width in the header cannot be indexed.
    #[error(transparent)]
    Space(#[from] SpaceError),
}

/// What [`WoodpushTable::verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Positions checked.
    pub positions: u64,
    /// Positions whose score is not the best of their children's (or not the end's score),
    /// or whose win/loss result disagrees with the score's sign.
    pub inconsistent: u64,
    /// The first such position.
    pub first_inconsistent: Option<u64>,
}

impl WoodpushTable {
    /// The table as a file.
    pub fn to_file(&self) -> TableFile {
        let ko = match self.space().ko_states() {
            KoStates::Reachable => 0,
            KoStates::AnyPush => 1,
        };
        TableFile {
            game: GAME.into(),
            params: [
                self.width(),
                ko,
                self.space().max_pieces().unwrap_or(0),
                0,
                0,
                0,
                0,
                0,
            ],
            positions: PerfectIndex::size(self.space()),
            sections: vec![
                Section {
                    tag: RESULTS,
                    offset: 0,
                    values: self.wdl().results.clone(),
                },
                Section {
                    tag: PLIES,
                    offset: 0,
                    values: self.wdl().plies.clone(),
                },
                Section {
                    tag: SCORES,
                    offset: self.scores().offset,
                    values: self.scores().values.clone(),
                },
            ],
        }
    }

    /// Writes the table to `path`.
    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        self.to_file().save(path)
    }

    /// Reads a table written by [`WoodpushTable::save`], checking its checksum and sizes.
    pub fn load(path: &Path) -> Result<WoodpushTable, LoadError> {
        WoodpushTable::from_file(TableFile::load(path)?).map_err(|e| match e {
            // The file's own errors name it; what the contents say does not.
            LoadError::File(e) => LoadError::File(e),
            other => LoadError::NotWoodpush(format!("{}: {other}", path.display())),
        })
    }

    /// Rebuilds a table from a file's contents.
    pub fn from_file(f: TableFile) -> Result<WoodpushTable, LoadError> {
        if f.game != GAME {
            return Err(LoadError::NotWoodpush(format!(
                "a table of {}, not of Woodpush",
                f.game
            )));
        }
        let ko = match f.params[1] {
            0 => KoStates::Reachable,
            1 => KoStates::AnyPush,
            k => return Err(LoadError::NotWoodpush(format!("unknown ko mode {k}"))),
        };
        let space = match f.params[2] {
            0 => WoodpushSpace::new(f.params[0], ko)?,
            max => WoodpushSpace::few_pieces(f.params[0], max, ko)?,
        };
        let get = |tag: u32, what: &str| {
            f.section(tag)
                .cloned()
                .ok_or_else(|| LoadError::NotWoodpush(format!("no {what} section")))
        };
        let (results, plies, scores) = (
            get(RESULTS, "results")?,
            get(PLIES, "plies")?,
            get(SCORES, "scores")?,
        );
        let wdl = WdlTable {
            results: results.values,
            plies: plies.values,
        };
        let scores = ScoreTable {
            offset: scores.offset,
            values: scores.values,
        };
        WoodpushTable::from_parts(space, scores, wdl).ok_or_else(|| {
            LoadError::NotWoodpush(format!(
                "sections do not hold one value per position ({})",
                f.positions
            ))
        })
    }

    /// Checks every position against the rules: an end holds its score, any other position
    /// the best score among its children (Left the largest, Right the smallest), and its
    /// win/loss result the score's sign.
    pub fn verify(&self) -> VerifyReport {
        self.verify_reporting(&Silent)
    }

    /// [`WoodpushTable::verify`], reporting the positions checked to `progress`.
    pub fn verify_reporting(&self, progress: &dyn Progress) -> VerifyReport {
        /// Positions a unit of work: few progress calls, and work for every core.
        const CHUNK: u64 = 1 << 14;
        let space = self.space();
        let n = PerfectIndex::size(space);
        progress.begin("checking positions against their moves", n);
        let agrees = |p: u64, buf: &mut Vec<Child>| {
            let s = self.score_at(p);
            let sign_ok = match self.wdl().winner(p) {
                Some(Side::First) => s > 0,
                Some(Side::Second) => s < 0,
                None => s == 0,
            };
            let value_ok = match space.terminal(p) {
                Some(t) => t == s,
                None => {
                    space.successors(p, buf);
                    let kids = buf.iter().map(|c| match *c {
                        Child::Pos(c) => self.score_at(c),
                        Child::Exit { score, .. } => score,
                    });
                    let best = if space.mover(p) == Side::First {
                        kids.max()
                    } else {
                        kids.min()
                    };
                    best == Some(s)
                }
            };
            sign_ok && value_ok
        };
        let bad: Vec<u64> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(Vec::new, |buf, c| {
                let part = c * CHUNK..n.min((c + 1) * CHUNK);
                let len = part.end - part.start;
                let bad: Vec<u64> = part.filter(|&p| !agrees(p, buf)).collect();
                progress.advance(len);
                bad
            })
            .flatten()
            .collect();
        progress.end();
        VerifyReport {
            positions: n,
            inconsistent: bad.len() as u64,
            first_inconsistent: bad.first().copied(),
        }
    }
}
