//! Arrays of unsigned values in the fewest bits that hold the largest (1 to 32 bits each).

/// A fixed-length array of `bits`-bit values packed into 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedArray {
    bits: u32,
    len: u64,
    words: Vec<u64>,
}

/// The bits needed to hold every value up to `max` (at least 1).
pub fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

impl PackedArray {
    /// `len` zeros of `bits` bits each (1 to 32).
    pub fn new(bits: u32, len: u64) -> PackedArray {
        let bits = bits.clamp(1, 32);
        PackedArray {
            bits,
            len,
            words: vec![0; (len * bits as u64).div_ceil(64) as usize],
        }
    }

    /// An array from raw words (as stored in a file); `None` when the word count is wrong.
    pub fn from_words(bits: u32, len: u64, words: Vec<u64>) -> Option<PackedArray> {
        let need = len.checked_mul(bits as u64)?.div_ceil(64);
        ((1..=32).contains(&bits) && words.len() as u64 == need).then_some(PackedArray {
            bits,
            len,
            words,
        })
    }

    /// Bits per value.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the array holds no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed words.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The value at `i` (below `len`).
    #[inline]
    pub fn get(&self, i: u64) -> u32 {
        let bit = i * self.bits as u64;
        let (w, o) = ((bit / 64) as usize, (bit % 64) as u32);
        let mask = (1u64 << self.bits) - 1;
        let mut v = self.words[w] >> o;
        if o + self.bits > 64 {
            v |= self.words[w + 1] << (64 - o);
        }
        (v & mask) as u32
    }

    /// Stores `v` (cut to `bits` bits) at `i` (below `len`).
    #[inline]
    pub fn set(&mut self, i: u64, v: u32) {
        let bit = i * self.bits as u64;
        let (w, o) = ((bit / 64) as usize, (bit % 64) as u32);
        let mask = (1u64 << self.bits) - 1;
        let v = v as u64 & mask;
        self.words[w] = (self.words[w] & !(mask << o)) | (v << o);
        if o + self.bits > 64 {
            let hi = 64 - o;
            self.words[w + 1] = (self.words[w + 1] & !(mask >> hi)) | (v >> hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_width_round_trip_across_word_edges() {
        for bits in [1, 2, 3, 5, 7, 13, 31, 32] {
            let n = 1000;
            let mut a = PackedArray::new(bits, n);
            let val = |i: u64| ((i * 2_654_435_761) % (1u64 << bits)) as u32;
            for i in 0..n {
                a.set(i, val(i));
            }
            for i in 0..n {
                assert_eq!(a.get(i), val(i), "bits {bits} index {i}");
            }
        }
        assert_eq!(bits_for(0), 1);
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 2);
        assert_eq!(bits_for(255), 8);
        assert_eq!(bits_for(256), 9);
    }
}
