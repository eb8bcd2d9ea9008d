//! SplitMix64: the one small seeded generator and seed mixer the whole workspace shares.
//!
//! Searches and playouts draw from Xoshiro256++; SplitMix64 is for what needs a seed turned
//! into well-spread bits (openings, samples, thread seeds) or a dependency-free stream
//! (tests, benchmarks).

use rand::rand_core::utils::fill_bytes_via_next_word;
use rand::{Rng, SeedableRng, TryRng};
use std::convert::Infallible;

/// The golden-ratio increment of SplitMix64 (2^64 / phi, odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output for state `z`: spreads nearby inputs over all 64 bits.
#[inline]
pub fn splitmix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 generator (Steele, Lea and Flood 2014): tiny, fast, seedable from any u64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is `splitmix64(seed)`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// An index in `0..n` by modulo (`n > 0`); its bias, below `n / 2^64`, is irrelevant to
    /// sampling and tests.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

impl TryRng for SplitMix64 {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let out = splitmix64(self.state);
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        Ok(out)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        fill_bytes_via_next_word(dst, || self.try_next_u64())
    }
}

impl SeedableRng for SplitMix64 {
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> SplitMix64 {
        SplitMix64::new(u64::from_le_bytes(seed))
    }

    fn seed_from_u64(seed: u64) -> SplitMix64 {
        SplitMix64::new(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_reference_outputs() {
        // The first outputs for seed 1234567 of the reference implementation (Vigna's
        // splitmix64.c).
        let mut rng = SplitMix64::new(1234567);
        let want = [
            6457827717110365317u64,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ];
        for w in want {
            assert_eq!(rng.next_u64(), w);
        }
    }

    #[test]
    fn the_stream_is_the_mixer_over_a_weyl_sequence() {
        let mut rng = SplitMix64::new(7);
        for i in 0..10u64 {
            assert_eq!(
                rng.next_u64(),
                splitmix64(7u64.wrapping_add(i.wrapping_mul(GOLDEN_GAMMA)))
            );
        }
        assert!((0..1000).all(|_| rng.below(10) < 10));
    }
}
