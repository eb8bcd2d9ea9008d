//! Storage of a table: the lookup trait its backends share, the compact static B-tree
//! (the default, and the file's layout), the lazy block checks, the file, the sliced table
//! and its block index, and (with the `backends` feature, for the benchmark) other backends
//! for comparison.

#[cfg(feature = "backends")]
pub mod backends;
pub mod blocks;
pub mod btree;
pub mod file;
pub mod slice_blocks;
pub mod sliced;

pub use blocks::Corrupt;
pub use btree::{Backing, Layout, StaticBTree};
pub use file::{Header, TableFile, TableFileError};
pub use sliced::SlicedTable;

use quasar_core::progress::Progress;

/// A table's stored entries: a whole table's static B-tree, or a sliced table's directory.
#[derive(Debug)]
pub enum Tree {
    /// A whole table (one file).
    Static(StaticBTree),
    /// A sliced table (a directory of slice files).
    Sliced(SlicedTable),
}

impl Tree {
    /// The static B-tree of a whole table.
    pub fn as_static(&self) -> Option<&StaticBTree> {
        match self {
            Tree::Static(t) => Some(t),
            Tree::Sliced(_) => None,
        }
    }

    /// The sliced table.
    pub fn as_sliced(&self) -> Option<&SlicedTable> {
        match self {
            Tree::Static(_) => None,
            Tree::Sliced(t) => Some(t),
        }
    }

    /// Checks every block (every finished slice) now.
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<(), Corrupt> {
        match self {
            Tree::Static(t) => t.verify_all(progress),
            Tree::Sliced(t) => t.verify_all(progress).map(|_| ()),
        }
    }

    /// The first damaged block (slice) a read ran into, if any.
    pub fn first_damage(&self) -> Option<Corrupt> {
        match self {
            Tree::Static(t) => t.first_damage(),
            Tree::Sliced(t) => t.first_damage(),
        }
    }
}

impl Lookup for Tree {
    #[inline]
    fn get(&self, key: u64) -> Result<Option<u32>, Corrupt> {
        match self {
            Tree::Static(t) => t.get(key),
            Tree::Sliced(t) => t.get(key),
        }
    }
    fn len(&self) -> usize {
        match self {
            Tree::Static(t) => t.len(),
            Tree::Sliced(t) => t.len(),
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Tree::Static(t) => t.bytes(),
            Tree::Sliced(t) => t.bytes(),
        }
    }
    fn name(&self) -> &'static str {
        match self {
            Tree::Static(t) => t.name(),
            Tree::Sliced(t) => t.name(),
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
