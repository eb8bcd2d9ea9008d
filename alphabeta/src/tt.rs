//! The transposition table: a power-of-two array of two-entry buckets, indexed by the
//! position's hash, keeping the deeper or newer of two results.

/// What a stored value is with respect to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value (a principal-variation node).
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The full hash, to tell a stored position from another with the same index.
    pub key: u64,
    /// The value, proven values relative to the node (see `score::to_table`).
    pub value: i32,
    /// The best move found, or the move that caused the cut-off.
    pub mv: Option<M>,
    /// The remaining depth of the search that stored it.
    pub depth: u8,
    /// What the value bounds.
    pub bound: Bound,
    /// The search that stored it, so that entries of earlier moves give way.
    pub generation: u8,
}

/// A transposition table the machine cannot give the memory for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a transposition table of {mib} MiB: give a smaller hash size")]
pub struct TableTooLarge {
    /// The size asked for, in MiB (as given: the table would round it down to a power of
    /// two entries, a number the user never gave).
    pub mib: usize,
}

/// A fixed-size table of [`Entry`]; both entries of a bucket are read on a probe.
pub struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of at most `bytes` bytes (at least 1024 entries), rounded down to a power
    /// of two entries, or why the memory is not there (a size a user gives must not abort).
    pub fn new(bytes: usize) -> Result<Table<M>, TableTooLarge> {
        let size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (bytes / size).max(1024);
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(len)
            .map_err(|_| TableTooLarge { mib: bytes >> 20 })?;
        // On huge pages a large table fills far faster (a 4,000 MiB one in 7.5 s instead
        // of 11.5) and each probe walks a shorter page table.
        quasar_core::memory::advise_huge_pages(entries.as_ptr(), len);
        entries.resize(len, None);
        Ok(Table {
            entries,
            mask: len - 1,
            generation: 0,
        })
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Marks the start of a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let i = key as usize & self.mask;
        for j in [i, i ^ 1] {
            if let Some(e) = self.entries[j] {
                if e.key == key {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores a result, over the same position's entry, else over the bucket's shallower
    /// or older entry.
    #[inline]
    pub fn store(&mut self, key: u64, value: i32, mv: Option<M>, depth: u32, bound: Bound) {
        let i = key as usize & self.mask;
        let gen = self.generation;
        let worth = |e: &Option<Entry<M>>| match e {
            None => -1,
            Some(e) if e.key == key => -2,
            Some(e) => e.depth as i32 + if e.generation == gen { 256 } else { 0 },
        };
        let slot = if worth(&self.entries[i]) <= worth(&self.entries[i ^ 1]) {
            i
        } else {
            i ^ 1
        };
        // Keep a known best move when the new result (a fail-low) names none.
        let mv = match (mv, self.entries[slot]) {
            (None, Some(old)) if old.key == key => old.mv,
            _ => mv,
        };
        self.entries[slot] = Some(Entry {
            key,
            value,
            mv,
            depth: depth.min(u8::MAX as u32) as u8,
            bound,
            generation: gen,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_too_large_is_reported_at_the_size_asked_for() {
        // Far past any address space: refused, and named by the MiB given, not by the
        // power of two entries it would have been rounded down to.
        let asked = 1usize << 62;
        let e = Table::<u16>::new(asked).err().expect("too large");
        assert_eq!(e.mib, asked >> 20);
    }

    #[test]
    fn a_stored_result_is_found_and_a_colliding_one_kept_beside_it() {
        let mut t: Table<u16> = Table::new(1 << 16).unwrap();
        let n = t.entries.len() as u64;
        t.store(5, 10, Some(3), 4, Bound::Exact);
        t.store(5 + n, -7, None, 2, Bound::Upper);
        assert_eq!(t.probe(5).unwrap().value, 10);
        assert_eq!(t.probe(5 + n).unwrap().bound, Bound::Upper);
        // A third position of the bucket replaces the shallower one.
        t.store(5 + 2 * n, 1, Some(9), 6, Bound::Lower);
        assert!(t.probe(5).is_some());
        assert!(t.probe(5 + n).is_none());
        // A fail-low keeps the position's known move.
        t.store(5, 3, None, 5, Bound::Upper);
        assert_eq!(t.probe(5).unwrap().mv, Some(3));
        t.clear();
        assert!(t.probe(5).is_none());
    }

    #[test]
    fn a_table_beyond_the_address_space_is_an_error_not_an_abort() {
        let e = Table::<u16>::new(usize::MAX)
            .err()
            .expect("no machine has that memory");
        assert!(e.mib > 1 << 30, "{e}");
        assert!(e.to_string().contains("give a smaller hash size"), "{e}");
    }
}
