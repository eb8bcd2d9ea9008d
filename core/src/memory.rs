//! Memory for large tables: the one place that asks Linux for huge pages.

/// Asks Linux to back the `count` values from `start` (memory this process owns) with huge
/// pages, before they are first touched so that the pages come huge at once. A random probe
/// of a table larger than the processor's caches then walks one page-table level less and
/// hits the TLB far more often, and a large table is faulted in by thousands of pages
/// instead of millions. Elsewhere, or where the system refuses, nothing changes but the
/// speed.
pub fn advise_huge_pages<T>(start: *const T, count: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = start as usize;
        let from = start.next_multiple_of(PAGE);
        let to = start.saturating_add(count.saturating_mul(std::mem::size_of::<T>())) & !(PAGE - 1);
        if to > from {
            // SAFETY: advice on whole pages inside memory this process owns; it changes no
            // values, and failure only loses the speed-up.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, count);
}
