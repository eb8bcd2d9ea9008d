//! What benchmarks need besides a clock.

/// CPU seconds this process has used so far (all threads, user and system), where the
/// system says; on a shared machine, rates per CPU-second are the fair per-core figure.
pub fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
            return Some(t(usage.ru_utime) + t(usage.ru_stime));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(unix)]
    fn cpu_time_grows_with_work() {
        let before = super::cpu_seconds().expect("unix reports CPU time");
        let mut x = 1u64;
        let start = std::time::Instant::now();
        while start.elapsed().as_millis() < 30 {
            x = std::hint::black_box(x.wrapping_mul(3).wrapping_add(1));
        }
        let after = super::cpu_seconds().expect("unix reports CPU time");
        assert!(after > before, "{before} -> {after}");
    }
}
