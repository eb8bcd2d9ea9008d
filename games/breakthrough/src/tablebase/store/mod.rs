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

use quasar_core::progress::Progress;
use quasar_file::btree::StaticBTree;

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

/// The capped depths of a sliced table in either form, as the checks read them.
pub trait SliceDepths {
    /// The slicing.
    fn slicing(&self) -> &crate::tablebase::slices::Slicing;
    /// `min(D(c), R+1)` of a configuration; an error when the data is missing or damaged.
    fn depth(&self, c: crate::tablebase::region::Config) -> Result<Option<u8>, Corrupt>;
    /// Whether stored slice `id` can be read.
    fn has(&self, id: u32) -> bool;
}

impl SliceDepths for SlicedTable {
    fn slicing(&self) -> &crate::tablebase::slices::Slicing {
        SlicedTable::slicing(self)
    }
    fn depth(&self, c: crate::tablebase::region::Config) -> Result<Option<u8>, Corrupt> {
        SlicedTable::depth(self, c)
    }
    fn has(&self, id: u32) -> bool {
        SlicedTable::has(self, id)
    }
}

impl SliceDepths for CompressedTable {
    fn slicing(&self) -> &crate::tablebase::slices::Slicing {
        CompressedTable::slicing(self)
    }
    fn depth(&self, c: crate::tablebase::region::Config) -> Result<Option<u8>, Corrupt> {
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
