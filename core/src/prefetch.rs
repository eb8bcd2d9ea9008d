//! The one cache prefetch of the workspace: a hint that a value will be read soon, so that
//! a probe into a large table (a transposition table, a database, a B-tree block) overlaps
//! its memory latency with other work. Where memory is slow (a dependent random read costs
//! hundreds of nanoseconds) this is most of a probe's cost.

/// Asks the processor to bring the cache line holding `value` in, without waiting for it;
/// nothing on processors other than x86-64.
#[inline(always)]
pub fn prefetch<T: ?Sized>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; SSE is in every x86-64.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
