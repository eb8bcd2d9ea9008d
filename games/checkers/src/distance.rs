//! Distance-to-conversion files, one optional file per slice beside its win/draw/loss file:
//! one byte a position and side to move, the plies until the side to move converts (a
//! capture, a promotion, or the end of the game) with the winner hurrying and the loser
//! delaying; 255 for draws.

use crate::build::{MAX_DISTANCE, NO_DISTANCE};
use crate::db::{slice_of, slice_params, write_atomically, DbError};
use crate::slice::{Slice, SliceIndex};
use quasar_core::Side;
use retro::{PackedArray, Section, TableFile};
use std::path::{Path, PathBuf};

/// The game name in a distance file's header.
pub const DISTANCE_GAME: &str = "checkers-dtc";
/// The file name ending of a slice's distance file.
pub const DISTANCE_EXTENSION: &str = "qdc";
/// The layout version in a distance file's parameters (params[4]).
const LAYOUT: u32 = 1;

/// The distance file of a slice in a database directory: `<dir>/<slice>.qdc`.
pub fn distance_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join(format!("{slice}.{DISTANCE_EXTENSION}"))
}

/// One slice's distances for both sides to move.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    index: SliceIndex,
    /// Black to move, then White to move.
    plies: [Vec<u8>; 2],
}

impl DistanceTable {
    /// A table from each side's distances (in index order).
    pub(crate) fn new(index: SliceIndex, plies: [Vec<u8>; 2]) -> DistanceTable {
        DistanceTable { index, plies }
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.index.slice()
    }

    /// Plies to conversion at `i` with `side` to move (`None` for a draw); a value of
    /// [`MAX_DISTANCE`] means that many or more.
    #[inline]
    pub fn get(&self, i: u64, side: Side) -> Option<u8> {
        let d = self.plies[side.index()][i as usize];
        (d != NO_DISTANCE).then_some(d)
    }

    /// The longest distance stored (0 when all are draws).
    pub fn longest(&self) -> u8 {
        self.plies
            .iter()
            .flatten()
            .filter(|&&d| d != NO_DISTANCE)
            .max()
            .copied()
            .unwrap_or(0)
    }

    /// Writes the file through a temporary one of this process, renamed into place when
    /// complete.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, DbError> {
        let s = self.slice();
        let path = distance_path(dir, s);
        let sections = self
            .plies
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let mut a = PackedArray::new(8, v.len() as u64);
                for (i, &d) in v.iter().enumerate() {
                    a.set(i as u64, d as u32);
                }
                Section {
                    tag: k as u32,
                    offset: 0,
                    values: a,
                }
            })
            .collect();
        let file = TableFile {
            game: DISTANCE_GAME.into(),
            params: slice_params(s, LAYOUT, MAX_DISTANCE as u32),
            positions: self.index.size(),
            sections,
        };
        write_atomically(&path, &file.to_bytes())?;
        Ok(path)
    }

    /// Reads and checks a distance file (checksum, game, slice, sizes).
    pub fn load(path: &Path) -> Result<DistanceTable, DbError> {
        let f = TableFile::load(path)?;
        let foreign = || DbError::Foreign(path.to_path_buf());
        let (slice, index) = slice_of(&f, DISTANCE_GAME, LAYOUT).ok_or_else(foreign)?;
        if f.positions != index.size() || path.file_stem() != Some(slice.to_string().as_ref()) {
            return Err(foreign());
        }
        let section = |tag| {
            f.section(tag)
                .filter(|s| s.values.len() == index.size() && s.values.bits() == 8)
                .map(|s| {
                    // Little-endian words hold the bytes in index order.
                    let mut v: Vec<u8> = s
                        .values
                        .words()
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect();
                    v.truncate(index.size() as usize);
                    v
                })
                .ok_or_else(foreign)
        };
        let plies = [section(0)?, section(1)?];
        Ok(DistanceTable { index, plies })
    }
}
