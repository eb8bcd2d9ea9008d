//! What bounds one search: a time budget, a depth or a node count.

use std::time::Duration;

/// The limit of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Search for about this long: no new iteration starts after half of it, and the
    /// running one stops when it is spent.
    Time(Duration),
    /// Search every depth up to this one (plies), however long it takes.
    Depth(u32),
    /// Stop after about this many nodes (checked every 1024 nodes).
    Nodes(u64),
}

/// How often (in nodes) the search looks at the clock: often enough to stop within a
/// fraction of a millisecond, rarely enough that the clock costs nothing.
pub(crate) const CHECK_EVERY: u64 = 1024;
