//! What a damaged or incomplete table is: the error every read of a stored table returns.

use crate::tablebase::slices::SliceName;
use quasar_file::blocks::BlockError;

/// Table data that fails its checks: reported, never used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    /// A block of a whole table's file fails its checksum, or its index points outside it.
    #[error(transparent)]
    Block(#[from] BlockError),
    /// A slice file of a sliced table fails its checks (a cut, a flipped byte).
    #[error("slice {slice} of the sliced table ({slice}.qts) fails its checksum or header: delete its file and rebuild it (a rerun of the build rebuilds it)")]
    Slice {
        /// The slice.
        slice: SliceName,
    },
    /// A block of a slice's packed depths does not match the CRC-32 the table's block
    /// index holds for it.
    #[error("block {block} of slice {slice} of the sliced table ({slice}.qts) fails its checksum: the slice file is damaged; delete it and rebuild it (a rerun of the build rebuilds it)")]
    SliceBlock {
        /// The slice.
        slice: SliceName,
        /// The block's number within the slice's packed depths.
        block: u32,
    },
    /// A slice file could not be memory-mapped: with thousands of slices open, most often
    /// the system's limit on a process' maps.
    #[error("slice {slice} of the sliced table could not be memory-mapped: the process may have reached the system's limit on maps (`sysctl vm.max_map_count`; each open slice takes one): raise it, or run fewer engines with this table in one process")]
    Unmapped {
        /// The slice.
        slice: SliceName,
    },
    /// A slice a read needs is not built (a build not finished or run out of order, or
    /// its file removed): the table is incomplete.
    #[error("slice {slice} of the sliced table is not built (no file {slice}.qts): the table is incomplete; run its build again (`quasar tablebase build` with the same -o) to finish it")]
    MissingSlice {
        /// The slice.
        slice: SliceName,
    },
    /// A file of a compressed table, or one slice's runs in it, fails its checks (a cut, a
    /// flipped byte, another table's file).
    #[error("file {file}.qtc of the compressed table (slice {slice}) fails its checksum or header: delete the file and rerun `quasar tablebase compress` into the directory", file = super::compressed::pack_stem(.slice))]
    Compressed {
        /// The (first) slice it holds that cannot be read.
        slice: SliceName,
    },
    /// A file of a compressed table is not there (a compression stopped before it).
    #[error("the compressed table has no file {file}.qtc (which holds slice {slice}): rerun `quasar tablebase compress` into the directory to finish it", file = super::compressed::pack_stem(.slice))]
    CompressedMissing {
        /// The first slice the file holds.
        slice: SliceName,
    },
    /// Slices of a sliced table are not built: the table is incomplete.
    #[error("the sliced table is incomplete: {missing} of its {slices} slices are not built, the first {first} (no file {first}.qts); run its build again (`quasar tablebase build` with the same -o) to finish it")]
    Incomplete {
        /// The first slice not built.
        first: SliceName,
        /// Stored slices not built.
        missing: u32,
        /// Stored slices in all.
        slices: u32,
    },
}
