//! Bit scatter and gather (`pdep`, `pext`, select the n-th set bit) with the BMI2
//! instructions chosen once, at run time: one binary runs on any x86-64 processor and still
//! uses them where they exist.
//!
//! Code off the hot path calls [`pdep`], [`pext`] or [`select_bit`], which check a cached
//! flag each call. A hot loop is written once, generic over [`Bits`], and started through
//! [`dispatch`], which compiles it a second time with BMI2, POPCNT and LZCNT enabled and picks
//! that copy when the processor has them. Setting the environment variable
//! `QUASAR_PORTABLE_BITS` (to anything but `0`) forces the portable code, so tests and CI run
//! it on any machine.

use std::sync::atomic::{AtomicU8, Ordering};

/// The name of the environment variable that forces the portable code paths.
pub const FORCE_PORTABLE_ENV: &str = "QUASAR_PORTABLE_BITS";

/// One way of doing the bit operations; the implementations agree on every input.
pub trait Bits: Copy + Send + Sync + 'static {
    /// Scatters the low bits of `x` onto the set bits of `mask`, lowest first.
    fn pdep(self, x: u64, mask: u64) -> u64;

    /// Gathers the bits of `x` at the set bits of `mask` into the low bits.
    fn pext(self, x: u64, mask: u64) -> u64;

    /// The `n`-th set bit (0-based, `n < 64`) of `bb` as a one-bit mask; 0 when `bb` has no
    /// more than `n` set bits.
    #[inline(always)]
    fn select(self, bb: u64, n: u32) -> u64 {
        self.pdep(1u64 << n, bb)
    }
}

/// Plain Rust loops: every processor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl Bits for Portable {
    #[inline]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        let (mut out, mut m, mut bit) = (0u64, mask, 1u64);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & bit != 0 {
                out |= low;
            }
            m &= m - 1;
            bit <<= 1;
        }
        out
    }

    #[inline]
    fn pext(self, x: u64, mask: u64) -> u64 {
        let (mut out, mut m, mut bit) = (0u64, mask, 1u64);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= bit;
            }
            m &= m - 1;
            bit <<= 1;
        }
        out
    }

    #[inline]
    fn select(self, bb: u64, n: u32) -> u64 {
        // Clearing the n lowest set bits beats the generic pdep loop, which walks all of them.
        let mut b = bb;
        for _ in 0..n {
            b &= b.wrapping_sub(1);
        }
        b & b.wrapping_neg()
    }
}

/// The BMI2 instructions. Only [`Bmi2::detect`] makes one, so holding a value proves the
/// processor has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bmi2 {
    _proof: (),
}

const UNKNOWN: u8 = 0;
const ABSENT: u8 = 1;
const PRESENT: u8 = 2;
static BMI2: AtomicU8 = AtomicU8::new(UNKNOWN);

impl Bmi2 {
    /// The instructions when this processor has BMI2 (with BMI1, POPCNT and LZCNT) and
    /// `QUASAR_PORTABLE_BITS` does not forbid them; decided on the first call.
    #[inline]
    pub fn detect() -> Option<Bmi2> {
        let mut state = BMI2.load(Ordering::Relaxed);
        if state == UNKNOWN {
            state = if Self::available() { PRESENT } else { ABSENT };
            BMI2.store(state, Ordering::Relaxed);
        }
        (state == PRESENT).then_some(Bmi2 { _proof: () })
    }

    #[cold]
    fn available() -> bool {
        let forced =
            std::env::var_os(FORCE_PORTABLE_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        !forced && cpu_has_bmi2()
    }
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_bmi2() -> bool {
    std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_bmi2() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` exists only where `detect` found the instruction.
        unsafe { core::arch::x86_64::_pdep_u64(x, mask) }
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        // SAFETY: as for pdep.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Bits for Bmi2 {
    // Never reached: `detect` answers `None` off x86-64.
    #[inline(always)]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        Portable.pdep(x, mask)
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        Portable.pext(x, mask)
    }
}

/// A computation to run with the best [`Bits`] available. Mark `run` `#[inline(always)]`:
/// then all of it, not only the bit operations, is compiled for the processor's features.
pub trait WithBits {
    /// What the computation returns.
    type Output;

    /// Runs the computation with `bits`.
    fn run<B: Bits>(self, bits: B) -> Self::Output;
}

/// Runs `job` with BMI2 where the processor has it, else with [`Portable`].
#[inline(always)]
pub fn dispatch<J: WithBits>(job: J) -> J::Output {
    // Only the flag test is inlined into the caller, and each copy of the job is one call
    // away: a short playout (6x6, 28 plies) feels a second call level.
    #[cfg(target_arch = "x86_64")]
    if let Some(bits) = Bmi2::detect() {
        // SAFETY: `detect` found every feature `run_bmi2` enables.
        return unsafe { run_bmi2(job, bits) };
    }
    run_portable(job)
}

fn run_portable<J: WithBits>(job: J) -> J::Output {
    job.run(Portable)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
unsafe fn run_bmi2<J: WithBits>(job: J, bits: Bmi2) -> J::Output {
    job.run(bits)
}

/// Scatters the low bits of `x` onto the set bits of `mask` (see [`Bits::pdep`]).
#[inline]
pub fn pdep(x: u64, mask: u64) -> u64 {
    match Bmi2::detect() {
        Some(b) => b.pdep(x, mask),
        None => Portable.pdep(x, mask),
    }
}

/// Gathers the bits of `x` at the set bits of `mask` (see [`Bits::pext`]).
#[inline]
pub fn pext(x: u64, mask: u64) -> u64 {
    match Bmi2::detect() {
        Some(b) => b.pext(x, mask),
        None => Portable.pext(x, mask),
    }
}

/// The `n`-th set bit of `bb` as a one-bit mask (see [`Bits::select`]).
#[inline]
pub fn select_bit(bb: u64, n: u32) -> u64 {
    match Bmi2::detect() {
        Some(b) => b.select(bb, n),
        None => Portable.select(bb, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use rand::Rng;

    /// pdep, pext and select by their definitions, one bit at a time.
    fn by_definition(x: u64, mask: u64, n: u32) -> (u64, u64, u64) {
        let set: Vec<u32> = (0..64).filter(|&i| mask >> i & 1 == 1).collect();
        let dep = set
            .iter()
            .enumerate()
            .filter(|&(k, _)| x >> k & 1 == 1)
            .fold(0, |acc, (_, &i)| acc | 1 << i);
        let ext = set
            .iter()
            .enumerate()
            .filter(|&(_, &i)| x >> i & 1 == 1)
            .fold(0, |acc, (k, _)| acc | 1 << k);
        let sel = set.get(n as usize).map_or(0, |&i| 1 << i);
        (dep, ext, sel)
    }

    fn check<B: Bits>(bits: B) {
        let mut rng = SplitMix64::new(5);
        for i in 0..20_000 {
            // Sparse and dense masks, and the extremes.
            let mask = match i % 4 {
                0 => rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64() | rng.next_u64(),
                2 => rng.next_u64(),
                _ => [0, u64::MAX, 1, 1 << 63][i / 4 % 4],
            };
            let x = rng.next_u64();
            let n = (rng.next_u64() % 64) as u32;
            let want = by_definition(x, mask, n);
            let got = (bits.pdep(x, mask), bits.pext(x, mask), bits.select(mask, n));
            assert_eq!(got, want, "x {x:#x} mask {mask:#x} n {n}");
        }
    }

    #[test]
    fn portable_bits_follow_the_definitions() {
        check(Portable);
    }

    #[test]
    fn the_variable_forces_the_portable_path() {
        // CI runs the tests once more with the variable set; this makes sure it took.
        let forced =
            std::env::var_os(FORCE_PORTABLE_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        if forced {
            assert_eq!(Bmi2::detect(), None);
        }
    }

    #[test]
    fn bmi2_bits_follow_the_definitions_where_present() {
        if let Some(b) = Bmi2::detect() {
            check(b);
        }
    }

    #[test]
    fn dispatch_and_the_free_functions_agree_with_portable() {
        struct Job(u64, u64);
        impl WithBits for Job {
            type Output = (u64, u64, u64);
            #[inline(always)]
            fn run<B: Bits>(self, bits: B) -> (u64, u64, u64) {
                (
                    bits.pdep(self.0, self.1),
                    bits.pext(self.0, self.1),
                    bits.select(self.1, 3),
                )
            }
        }
        let (x, mask) = (0xDEAD_BEEF_u64, 0xF0F0_0FF0_1234_8001_u64);
        let want = Job(x, mask).run(Portable);
        assert_eq!(dispatch(Job(x, mask)), want);
        assert_eq!((pdep(x, mask), pext(x, mask), select_bit(mask, 3)), want);
    }
}
