//! What bounds one search: the budget every search takes ([`quasar_core::Limit`]: a time
//! or a count of positions), or a depth.

use std::time::Duration;

/// The limit of one search: a [`quasar_core::Limit`] converts into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Search for about this long: no new iteration starts after half of it, and the
    /// running one stops at [`quasar_core::Limit::deadline`], a small margin before it.
    Time(Duration),
    /// Search every depth up to this one (plies), however long it takes.
    Depth(u32),
    /// Stop after about this many nodes (checked every 1024 nodes).
    Nodes(u64),
}

/// How often (in nodes) the search looks at the clock: often enough to stop within a
/// fraction of a millisecond, rarely enough that the clock costs nothing.
pub(crate) const CHECK_EVERY: u64 = 1024;

impl From<quasar_core::Limit> for Limit {
    /// A time stays a time; a count is one of positions searched.
    fn from(limit: quasar_core::Limit) -> Limit {
        match limit {
            quasar_core::Limit::Time(t) => Limit::Time(t),
            quasar_core::Limit::Count(n) => Limit::Nodes(n),
        }
    }
}
