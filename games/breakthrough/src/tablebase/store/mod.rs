//! Storage of a table: the lookup trait its backends share, the compact static B-tree
//! (the default, and the file's layout), the lazy block checks, the file, and (with the
//! `backends` feature, for the benchmark) other backends for comparison.

#[cfg(feature = "backends")]
pub mod backends;
pub mod blocks;
pub mod btree;
pub mod file;

pub use blocks::Corrupt;
pub use btree::{Backing, Layout, StaticBTree};
pub use file::{Header, TableFile, TableFileError};

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
