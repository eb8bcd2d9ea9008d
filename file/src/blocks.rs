//! Lazy integrity checks of a mapped table: the body is cut into blocks of [`BLOCK_BYTES`],
//! each with a CRC-32 stored after the body; a block is checked the first time any of its
//! words is read and remembered in an atomic bitset, so opening costs nothing, a probe
//! after the first pays one bit test a block, and damaged bytes are never used unnoticed.

use quasar_core::progress::Progress;
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bytes per checked block: one page, so the first check of a block costs about as much
/// as the page fault that brings it in, and a 32-key leaf (256 bytes, aligned) never
/// straddles two blocks.
pub const BLOCK_BYTES: usize = 4096;
/// Words per checked block.
const BLOCK_WORDS: usize = BLOCK_BYTES / 8;

/// Checked data that fails its checks: reported, never used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlockError {
    /// A block's bytes do not match their stored CRC-32.
    #[error(
        "checksum mismatch in block {block} (the 4 KiB from file byte {offset}): the file is damaged; rebuild it"
    )]
    Checksum {
        /// The block's number.
        block: u64,
        /// Its first byte in the file.
        offset: u64,
    },
    /// Index data that passed its checksum points outside the table: a malformed file.
    #[error("the table's index points outside the table: the file is malformed; rebuild it")]
    Index,
}

/// The CRC-32 of each block of the bytes written through it, for the file writer.
pub struct BlockWriter<W: Write> {
    inner: W,
    block: Vec<u8>,
    crcs: Vec<u32>,
}

impl<W: Write> std::fmt::Debug for BlockWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockWriter")
            .field("blocks", &self.crcs.len())
            .field("pending_bytes", &self.block.len())
            .finish_non_exhaustive()
    }
}

impl<W: Write> BlockWriter<W> {
    /// A writer into `inner` whose bytes start a fresh block.
    pub fn new(inner: W) -> BlockWriter<W> {
        BlockWriter {
            inner,
            block: Vec::with_capacity(BLOCK_BYTES),
            crcs: Vec::new(),
        }
    }

    fn flush_block(&mut self) -> std::io::Result<()> {
        if !self.block.is_empty() {
            self.crcs.push(crc32fast::hash(&self.block));
            self.inner.write_all(&self.block)?;
            self.block.clear();
        }
        Ok(())
    }

    /// Writes the last (partial) block and returns the inner writer and every block's CRC.
    pub fn finish(mut self) -> std::io::Result<(W, Vec<u32>)> {
        self.flush_block()?;
        Ok((self.inner, self.crcs))
    }
}

impl<W: Write> Write for BlockWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Whole blocks are hashed at once: far cheaper than hashing each small write.
        let n = buf.len().min(BLOCK_BYTES - self.block.len());
        self.block.extend_from_slice(&buf[..n]);
        if self.block.len() == BLOCK_BYTES {
            self.flush_block()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The CRC-32 every checked part of a quasar file carries (a block, an index, a header).
#[inline]
pub fn checksum(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The first block of `bytes` (cut into blocks of [`BLOCK_BYTES`], the last one short) whose
/// CRC-32 is not its entry of `crcs`, as a [`BlockWriter`] wrote them; `crcs` of another
/// number of blocks fails at block `crcs.len()` or at the first block without one.
pub fn first_damaged(bytes: &[u8], crcs: &[u32]) -> Option<usize> {
    let blocks = bytes.len().div_ceil(BLOCK_BYTES);
    (0..blocks.max(crcs.len())).find(|&b| {
        let block = bytes.get(b * BLOCK_BYTES..((b + 1) * BLOCK_BYTES).min(bytes.len()));
        match (block, crcs.get(b)) {
            (Some(block), Some(&crc)) => crc32fast::hash(block) != crc,
            _ => true,
        }
    })
}

/// Blocks of `body_words` words.
pub fn block_count(body_words: usize) -> usize {
    body_words.div_ceil(BLOCK_WORDS)
}

/// Words the CRC table of `blocks` blocks takes (padded to a whole word).
pub fn crc_words(blocks: usize) -> usize {
    blocks.div_ceil(2)
}

/// The lazy checker of a mapped body: which blocks are verified, and where their CRCs lie.
#[derive(Debug)]
pub struct BlockCheck {
    /// Body words (the CRC table starts right after them).
    body_words: usize,
    blocks: usize,
    /// File offset of the body, for messages.
    body_offset: u64,
    /// Bit `b` set: block `b` matched its CRC.
    verified: Box<[AtomicU64]>,
    /// 1 + the first block found damaged, or 0.
    first_bad: AtomicU64,
}

impl BlockCheck {
    /// A checker of a body of `body_words` words followed by its CRC table, the body at
    /// `body_offset` in the file; nothing is verified yet.
    pub fn new(body_words: usize, body_offset: u64) -> BlockCheck {
        let blocks = block_count(body_words);
        BlockCheck {
            body_words,
            blocks,
            body_offset,
            verified: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            first_bad: AtomicU64::new(0),
        }
    }

    /// Blocks of the body.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// Checks that every block holding words `lo..hi` of `words` (the body and its CRC
    /// table) is intact, verifying those not verified yet.
    #[inline]
    pub fn check(&self, words: &[u64], lo: usize, hi: usize) -> Result<(), BlockError> {
        let (first, last) = (lo / BLOCK_WORDS, (hi.max(lo + 1) - 1) / BLOCK_WORDS);
        for b in first..=last {
            // Relaxed is enough: the bit publishes no data, the bytes it vouches for are
            // read-only file contents, the same for every thread.
            if self.verified[b / 64].load(Relaxed) & (1 << (b % 64)) == 0 {
                self.verify_block(words, b)?;
            }
        }
        Ok(())
    }

    /// Verifies block `b` and remembers the answer if it is good.
    #[cold]
    #[inline(never)]
    fn verify_block(&self, words: &[u64], b: usize) -> Result<(), BlockError> {
        let lo = b * BLOCK_WORDS;
        let hi = (lo + BLOCK_WORDS).min(self.body_words);
        let crc_word = words[self.body_words + b / 2];
        let stored = (crc_word >> (32 * (b % 2))) as u32;
        if crc32fast::hash(as_bytes(&words[lo..hi])) == stored {
            self.verified[b / 64].fetch_or(1 << (b % 64), Relaxed);
            Ok(())
        } else {
            let _ = self
                .first_bad
                .compare_exchange(0, b as u64 + 1, Relaxed, Relaxed);
            Err(self.damaged(b))
        }
    }

    fn damaged(&self, b: usize) -> BlockError {
        BlockError::Checksum {
            block: b as u64,
            offset: self.body_offset + (b * BLOCK_BYTES) as u64,
        }
    }

    /// The first damaged block a read ran into, if any.
    pub fn first_damage(&self) -> Option<BlockError> {
        match self.first_bad.load(Relaxed) {
            0 => None,
            b => Some(self.damaged(b as usize - 1)),
        }
    }

    /// Verifies every block (on all cores), reporting bytes done to `progress`; the first
    /// damaged block is the error.
    pub fn verify_all(&self, words: &[u64], progress: &dyn Progress) -> Result<(), BlockError> {
        // Groups of 64 blocks: one bitset word each, 256 KiB of hashing per task.
        progress.begin("checksum", (self.body_words * 8) as u64);
        let bad = (0..self.verified.len())
            .into_par_iter()
            .filter_map(|g| {
                let blocks = g * 64..((g + 1) * 64).min(self.blocks);
                let n = blocks.len();
                let bad = blocks
                    .into_iter()
                    .find(|&b| self.verify_block(words, b).is_err());
                progress.advance((n * BLOCK_BYTES) as u64);
                bad
            })
            .min();
        progress.end();
        match bad {
            Some(b) => Err(self.damaged(b)),
            None => Ok(()),
        }
    }
}

/// The bytes of some words.
pub fn as_bytes(words: &[u64]) -> &[u8] {
    // SAFETY: u8 has no alignment or validity requirements; the length covers the same bytes.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 8) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_blocks_check_and_each_flip_names_its_block() {
        // Two whole blocks and a short one, written in uneven pieces.
        let bytes: Vec<u8> = (0..2 * BLOCK_BYTES + 100)
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        let mut w = BlockWriter::new(Vec::new());
        for piece in bytes.chunks(1000) {
            w.write_all(piece).unwrap();
        }
        let (out, crcs) = w.finish().unwrap();
        assert_eq!(out, bytes);
        assert_eq!(crcs.len(), 3);
        assert_eq!(first_damaged(&bytes, &crcs), None);
        for at in [0, BLOCK_BYTES - 1, BLOCK_BYTES, 2 * BLOCK_BYTES + 99] {
            let mut bad = bytes.clone();
            bad[at] ^= 4;
            assert_eq!(
                first_damaged(&bad, &crcs),
                Some(at / BLOCK_BYTES),
                "byte {at}"
            );
        }
        assert_eq!(first_damaged(&bytes[..BLOCK_BYTES * 2], &crcs), Some(2));
        assert_eq!(first_damaged(&bytes, &crcs[..2]), Some(2));
        assert_eq!(first_damaged(&[], &[]), None);
    }
}
