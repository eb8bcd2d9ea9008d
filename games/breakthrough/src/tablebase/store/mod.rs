//! Storage of a table: the lookup trait its backends share, the error of a damaged table,
//! the file (a static B-tree of the file layer, checked block by block), the sliced table
//! and its block index, its compressed form, and (with the `backends` feature, for the
//! benchmark) other backends for comparison.

#[cfg(feature = "backends")]
pub mod backends;
pub mod compressed;
mod corrupt;
pub mod file;
pub mod slice_blocks;
pub mod sliced;

pub use compressed::CompressedTable;
pub use corrupt::Corrupt;
pub use file::{Header, TableFile, TableFileError};
pub use sliced::SlicedTable;

use crate::tablebase::key::ValueCodec;
use crate::tablebase::recurrence::{Depths, Recurrence};
use crate::tablebase::region::Config;
use crate::tablebase::slices::Slicing;
use crate::Move;
use quasar_core::progress::Progress;
use quasar_file::btree::StaticBTree;
use std::cell::Cell;

/// A table's stored entries: a whole table's static B-tree, a sliced table's directory, or
/// a compressed sliced table's directory.
#[derive(Debug)]
pub enum Tree {
    /// A whole table (one file).
    Static(StaticBTree),
    /// A sliced table (a directory of slice files).
    Sliced(SlicedTable),
    /// A sliced table compressed (a directory of run-length coded files).
    Compressed(CompressedTable),
}

/// The capped depths of a sliced table in either form, as the checks and probes read them.
pub trait SliceDepths {
    /// The slicing.
    fn slicing(&self) -> &Slicing;
    /// `min(D(c), R+1)` of a configuration; an error when the data is missing or damaged.
    fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt>;
    /// Whether stored slice `id` can be read.
    fn has(&self, id: u32) -> bool;

    /// The first White move (spec order) achieving `d < cap` in stored configuration `c`.
    fn best_move(&self, c: Config, d: u8) -> Result<Option<Move>, Corrupt>
    where
        Self: Sized,
    {
        let reader = Reader {
            table: self,
            failed: Cell::new(None),
        };
        let s = self.slicing();
        let m = Recurrence::new(s.region(), &reader, s.cap()).best_move(c, d);
        if let Some(e) = reader.failed.get() {
            return Err(e);
        }
        let r = s.region();
        Ok(m.map(|m| Move {
            from: r.board_cell(m.from),
            to: r.board_cell(m.to),
        }))
    }

    /// The packed value (eq. 4.2) of `key` in `codec`: `None` outside the region, for a
    /// configuration without a White piece, and for one deeper than the cap or drawn out.
    /// Every form of a sliced table answers keys so.
    #[inline]
    fn packed_value(&self, codec: &ValueCodec, key: u64) -> Result<Option<u32>, Corrupt>
    where
        Self: Sized,
    {
        let r = self.slicing().region();
        let c = r.config_of_key(key);
        if c.white & !r.white_cells() != 0 || c.black & !r.black_cells() != 0 || c.white == 0 {
            return Ok(None);
        }
        let Some(d) = self.depth(c)? else {
            return Ok(None);
        };
        if d >= self.slicing().cap() {
            return Ok(None);
        }
        Ok(self.best_move(c, d)?.map(|m| codec.encode(d as u32, m)))
    }
}

/// Reads capped depths for the recurrence that recomputes a best move, remembering the
/// first read that failed (a slice not built, a file missing or damaged): the recurrence
/// takes plain depths, so a failure reads as the cap and is reported after it.
struct Reader<'a, T> {
    table: &'a T,
    failed: Cell<Option<Corrupt>>,
}

impl<T: SliceDepths> Depths for Reader<'_, T> {
    #[inline]
    fn depth(&self, c: Config) -> u8 {
        match self.table.depth(c) {
            Ok(Some(d)) => d,
            Ok(None) => self.table.slicing().cap(),
            Err(e) => {
                if self.failed.get().is_none() {
                    self.failed.set(Some(e));
                }
                self.table.slicing().cap()
            }
        }
    }
}

impl SliceDepths for SlicedTable {
    fn slicing(&self) -> &Slicing {
        SlicedTable::slicing(self)
    }
    #[inline]
    fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt> {
        SlicedTable::depth(self, c)
    }
    fn has(&self, id: u32) -> bool {
        SlicedTable::has(self, id)
    }
}

impl SliceDepths for CompressedTable {
    fn slicing(&self) -> &Slicing {
        CompressedTable::slicing(self)
    }
    fn depth(&self, c: Config) -> Result<Option<u8>, Corrupt> {
        CompressedTable::depth(self, c)
    }
    fn has(&self, id: u32) -> bool {
        CompressedTable::has(self, id)
    }
}

impl Tree {
    /// The static B-tree of a whole table.
    pub fn as_static(&self) -> Option<&StaticBTree> {
        match self {
            Tree::Static(t) => Some(t),
            _ => None,
        }
    }

    /// The sliced table (plain).
    pub fn as_sliced(&self) -> Option<&SlicedTable> {
        match self {
            Tree::Sliced(t) => Some(t),
            _ => None,
        }
    }

    /// The compressed sliced table.
    pub fn as_compressed(&self) -> Option<&CompressedTable> {
        match self {
            Tree::Compressed(t) => Some(t),
            _ => None,
        }
    }

    /// The capped depths of a sliced table, plain or compressed.
    pub fn slices(&self) -> Option<&dyn SliceDepths> {
        match self {
            Tree::Static(_) => None,
            Tree::Sliced(t) => Some(t),
            Tree::Compressed(t) => Some(t),
        }
    }

    /// Checks every block (every finished slice) now.
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<(), Corrupt> {
        match self {
            Tree::Static(t) => Ok(t.verify_all(progress)?),
            Tree::Sliced(t) => t.verify_all(progress).map(|_| ()),
            Tree::Compressed(t) => t.verify_all(progress).map(|_| ()),
        }
    }

    /// The first damaged block (slice) a read ran into, if any.
    pub fn first_damage(&self) -> Option<Corrupt> {
        match self {
            Tree::Static(t) => t.first_damage().map(Corrupt::from),
            Tree::Sliced(t) => t.first_damage(),
            Tree::Compressed(t) => t.first_damage(),
        }
    }
}

impl Lookup for Tree {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        match self {
            Tree::Static(t) => t.get(key),
            Tree::Sliced(t) => t.get(key),
            Tree::Compressed(t) => t.get(key),
        }
    }
    fn len(&self) -> usize {
        match self {
            Tree::Static(t) => t.len(),
            Tree::Sliced(t) => t.len(),
            Tree::Compressed(t) => t.len(),
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Tree::Static(t) => t.bytes(),
            Tree::Sliced(t) => t.bytes(),
            Tree::Compressed(t) => t.bytes(),
        }
    }
    fn name(&self) -> &'static str {
        match self {
            Tree::Static(t) => t.name(),
            Tree::Sliced(t) => t.name(),
            Tree::Compressed(t) => t.name(),
        }
    }
}

/// A map from Gödel keys to packed values, built once and read many times.
pub trait Lookup: Send + Sync {
    /// The value stored for `key`; an error when the data that would answer is damaged.
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt>;
    /// Number of entries.
    fn len(&self) -> usize;
    /// True when empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes the structure occupies (heap or file), as exactly as the backend can say.
    fn bytes(&self) -> usize;
    /// A short name for reports.
    fn name(&self) -> &'static str;
}

impl Lookup for StaticBTree {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        Ok(self.position(key)?.map(|i| self.value_at(i)).transpose()?)
    }

    fn len(&self) -> usize {
        StaticBTree::len(self)
    }

    fn bytes(&self) -> usize {
        StaticBTree::bytes(self)
    }

    fn name(&self) -> &'static str {
        "static-btree"
    }
}
