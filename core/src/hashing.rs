//! A hasher for keys whose hash is already well mixed (a position's own hash), so that a
//! map does not hash it again.

use std::hash::{BuildHasherDefault, Hasher};

/// Passes a key's `u64` hash through; other bytes are folded in cheaply.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map's hasher builder for [`PassThrough`].
pub type BuildPassThrough = BuildHasherDefault<PassThrough>;
