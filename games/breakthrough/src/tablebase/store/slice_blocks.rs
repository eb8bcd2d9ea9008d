//! The block index of a sliced table (`blocks.qsi` beside its slices): for every finished
//! slice, the CRC-32 of its packed depths (as its header states it) and the CRC-32 of each
//! block of [`SLICE_BLOCK_BYTES`]. With it a probe checks only the blocks of a slice it
//! reads, the first time it reads them, instead of the whole slice (560 KB on 8x8) on first
//! use; without it (or for a slice it does not cover) slices are checked whole, as before.
//! The slice files keep their format: the index is an accelerator derived from them,
//! written by `quasar tablebase verify DIR --write-index` after checking every slice whole.

use super::file::TableFileError;
use crate::tablebase::slices::Slicing;
use quasar_core::progress::Progress;
use quasar_file::frame::put_u32;
use quasar_file::{Frame, Seal};
use std::path::Path;

/// The index's file name in a sliced table's directory.
pub const BLOCK_INDEX: &str = "blocks.qsi";
/// Bytes of a checked block of a slice's packed depths: one page.
pub const SLICE_BLOCK_BYTES: usize = 4096;
const MAGIC: [u8; 8] = *b"QUASARSB";
const VERSION: u32 = 1;
const HEADER: usize = 64;
/// The index's frame: the header's own CRC-32 in its last four bytes (the body's CRC-32
/// just before it).
const FRAME: Frame = Frame {
    magic: MAGIC,
    version: VERSION,
    older: &[],
    header_bytes: HEADER,
    seal: Seal::HeaderEnd,
    what: "quasar slice block index",
    remedy: "delete it; `quasar tablebase verify DIR --write-index` writes a new one",
};
/// Index words of an entry before its block CRCs: a present flag and the slice's CRC.
const LEAD: usize = 2;

/// The per-block CRC-32s of the slices of one sliced table, in memory.
#[derive(Debug)]
pub struct BlockIndex {
    block_bytes: usize,
    blocks: usize,
    /// `LEAD + blocks` words per stored slice, in slice order.
    words: Vec<u32>,
    /// Entry number of each slice (`u32::MAX`: not a stored member of its mirror pair).
    entry: Vec<u32>,
}

/// What the index holds for one slice.
#[derive(Clone, Copy, Debug)]
pub struct IndexEntry {
    /// The CRC-32 of the slice's packed depths when indexed (its header's CRC).
    pub slice_crc: u32,
    /// Where its block CRCs start in the index.
    first: usize,
}

impl BlockIndex {
    /// The numbering of entries: stored slices in ascending order.
    fn entries_of(s: &Slicing) -> Vec<u32> {
        let mut next = 0;
        (0..s.slices())
            .map(|id| {
                if s.is_canonical(id) {
                    next += 1;
                    next - 1
                } else {
                    u32::MAX
                }
            })
            .collect()
    }

    /// Bytes of a block.
    pub fn block_bytes(&self) -> usize {
        self.block_bytes
    }

    /// Blocks of a slice.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// The entry of slice `id`, when the index covers it (it was finished when indexed).
    #[inline]
    pub fn get(&self, id: u32) -> Option<IndexEntry> {
        let e = *self.entry.get(id as usize)?;
        if e == u32::MAX {
            return None;
        }
        let at = e as usize * (LEAD + self.blocks);
        (self.words[at] == 1).then(|| IndexEntry {
            slice_crc: self.words[at + 1],
            first: at + LEAD,
        })
    }

    /// The CRC-32 of block `b` of the slice of `e`.
    #[inline]
    pub fn block_crc(&self, e: IndexEntry, b: usize) -> u32 {
        self.words[e.first + b]
    }

    /// Reads the index of `slicing`'s table in `dir`: `Ok(None)` when there is none; an
    /// error when it is damaged or of another table (then delete or rewrite it).
    pub fn read(dir: &Path, s: &Slicing) -> Result<Option<BlockIndex>, TableFileError> {
        let path = dir.join(BLOCK_INDEX);
        // A CRC a block of at least 64 bytes, and an entry a slice: more is not an index.
        let slices = s.slices() as u64;
        let limit = HEADER as u64 + slices * (16 + 4 * (s.bytes_per_slice() as u64 / 64 + 1));
        let bytes = match quasar_file::read(&path, limit, "slice block index") {
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(e.into()),
            Ok(b) => b,
        };
        let bad = |msg: &str| TableFileError::Invalid {
            path: path.clone(),
            msg: format!(
                "{msg}: delete it (probes then check whole slices); \
                 `quasar tablebase verify DIR --write-index` writes a new one"
            ),
        };
        let f = FRAME.open(&bytes).map_err(|e| bad(&e.to_string()))?;
        let (block_bytes, blocks, stored) = (f.u32(16) as usize, f.u32(20) as usize, f.u32(24));
        let entry = BlockIndex::entries_of(s);
        let want_stored = entry.iter().filter(|&&e| e != u32::MAX).count() as u32;
        if [f.u8(12), f.u8(13), f.u8(14), f.u8(15)] != s.header_id()
            || !block_bytes.is_power_of_two()
            || block_bytes < 64
            || blocks != s.bytes_per_slice().div_ceil(block_bytes)
            || stored != want_stored
        {
            return Err(bad("it indexes another table"));
        }
        let body = &bytes[HEADER..];
        if body.len() != stored as usize * (LEAD + blocks) * 4 {
            return Err(bad("truncated"));
        }
        if crc32fast::hash(body) != f.u32(HEADER - 8) {
            return Err(bad("checksum mismatch: the index is damaged"));
        }
        let words = body
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")))
            .collect();
        Ok(Some(BlockIndex {
            block_bytes,
            blocks,
            words,
            entry,
        }))
    }

    /// Builds the index of the finished slices of a table from their files, each checked
    /// whole (on all cores), with blocks of `block_bytes` (a power of two, at least 64),
    /// reporting slices done to `progress`. `read_slice(id)` gives a slice's packed depths
    /// and header CRC after checking them (`Ok(None)`: not built), or why it is damaged.
    pub fn build(
        s: &Slicing,
        block_bytes: usize,
        progress: &dyn Progress,
        read_slice: impl Fn(u32) -> Result<Option<(Vec<u8>, u32)>, super::Corrupt> + Sync,
    ) -> Result<Vec<u8>, super::Corrupt> {
        use rayon::prelude::*;
        assert!(block_bytes.is_power_of_two() && block_bytes >= 64);
        let blocks = s.bytes_per_slice().div_ceil(block_bytes);
        let ids: Vec<u32> = (0..s.slices()).filter(|&id| s.is_canonical(id)).collect();
        progress.begin("slices", ids.len() as u64);
        let entries: Vec<Vec<u32>> = ids
            .par_iter()
            .map(|&id| {
                let mut e = vec![0u32; LEAD + blocks];
                if let Some((packed, crc)) = read_slice(id)? {
                    e[0] = 1;
                    e[1] = crc;
                    for (k, block) in packed.chunks(block_bytes).enumerate() {
                        e[LEAD + k] = crc32fast::hash(block);
                    }
                }
                progress.advance(1);
                Ok(e)
            })
            .collect::<Result<_, super::Corrupt>>()?;
        progress.end();
        let mut body = Vec::with_capacity(entries.len() * (LEAD + blocks) * 4);
        for w in entries.iter().flatten() {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let mut out = FRAME.header();
        out[12..16].copy_from_slice(&s.header_id());
        put_u32(&mut out, 16, block_bytes as u32);
        put_u32(&mut out, 20, blocks as u32);
        put_u32(&mut out, 24, ids.len() as u32);
        put_u32(&mut out, HEADER - 8, crc32fast::hash(&body));
        FRAME.seal(&mut out);
        out.extend_from_slice(&body);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::store::{Corrupt, SlicedTable};
    use crate::tablebase::{build_slices, Region, Silent, Tablebase};
    use crate::Board;

    /// Every configuration of slice `id` with its capped depth (or the error) as `table`
    /// reads it.
    fn read_slice(table: &SlicedTable, id: u32) -> Vec<(u64, Result<Option<u8>, Corrupt>)> {
        let s = table.slicing();
        (0..s.per_slice())
            .map(|idx| (idx, table.depth(s.config(id, idx))))
            .collect()
    }

    #[test]
    fn a_damaged_block_is_reported_when_a_probe_reads_it_and_only_then() {
        // 4x6 with 4 rows: 1,296 configurations a slice, 5 a byte: 260 bytes, five blocks
        // of 64 bytes.
        let region = Region::new(Board::new(4, 6).unwrap(), 4).unwrap();
        let dir = std::env::temp_dir().join(format!("quasar-slice-blocks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let table = SlicedTable::create(&dir, &region).unwrap();
        let s = table.slicing().clone();
        let plan = s.plan();
        let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
        build_slices(&table, &names, &Silent, |_| {}).unwrap();
        assert!(table.block_index().is_none());
        table.write_block_index(64, &Silent).unwrap();

        let plain = SlicedTable::open(&dir).unwrap();
        let mut whole = SlicedTable::open(&dir).unwrap();
        whole.drop_block_index();
        let index = plain.block_index().expect("the index is read on opening");
        assert_eq!((index.block_bytes(), index.blocks()), (64, 5));
        // With the index every configuration of every slice reads as when slices are
        // checked whole.
        for other in (0..s.slices()).filter(|&k| s.is_canonical(k)) {
            assert_eq!(read_slice(&plain, other), read_slice(&whole, other));
        }
        // The slice (White on row R) with the most configurations of depth below the cap.
        let id = (0..s.slices())
            .filter(|&k| s.is_canonical(k) && k & 0xf != 0)
            .max_by_key(|&k| {
                read_slice(&plain, k)
                    .iter()
                    .filter(|(_, d)| matches!(d, Ok(Some(x)) if *x < s.cap()))
                    .count()
            })
            .unwrap();
        let before = read_slice(&plain, id);
        let depths: Vec<u8> = before.iter().map(|(_, d)| d.unwrap().unwrap()).collect();
        assert!(depths.iter().any(|&d| d < s.cap()) && depths.iter().any(|&d| d == s.cap()));

        // One byte of block 1 of the slice's depths flipped.
        let path = plain.slice_path(id);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[super::super::sliced::SLICE_HEADER + 64 + 3] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();

        let lazy = SlicedTable::open(&dir).unwrap();
        assert!(lazy.block_index().is_some());
        let per_byte = s.per_byte() as u64;
        let mut bad = 0;
        for ((idx, want), (_, got)) in before.iter().zip(read_slice(&lazy, id)) {
            if (idx / per_byte) / 64 == 1 {
                assert_eq!(
                    got,
                    Err(Corrupt::SliceBlock {
                        slice: s.slice_name(id),
                        block: 1
                    })
                );
                bad += 1;
            } else {
                // The other blocks still answer, and exactly as before.
                assert_eq!(&got, want, "{idx}");
            }
        }
        assert_eq!(bad, 64 * per_byte);
        assert_eq!(
            lazy.first_damage(),
            Some(Corrupt::SliceBlock {
                slice: s.slice_name(id),
                block: 1
            })
        );
        // Without the index the whole slice is refused on opening.
        let mut whole = SlicedTable::open(&dir).unwrap();
        whole.drop_block_index();
        assert!(read_slice(&whole, id).iter().all(|(_, d)| *d
            == Err(Corrupt::Slice {
                slice: s.slice_name(id)
            })));

        // Through the prober: the table's answer for a configuration of the damaged block
        // is the error (the copy in memory checks every block when it is made).
        let c = s.config(id, 64 * per_byte);
        let files = Tablebase::open(&dir).unwrap().with_resident(false);
        assert!(files.lookup(c).is_err());
        assert!(files.damage().is_some());
        let copied = Tablebase::open(&dir).unwrap();
        assert_eq!(
            copied.resident_bytes(),
            (names.len() - 1) * crate::tablebase::resident::copied_bytes_per_slice(&s)
        );

        // A damaged index is refused, with what to do.
        let ix = dir.join(BLOCK_INDEX);
        let mut b = std::fs::read(&ix).unwrap();
        let last = b.len() - 1;
        b[last] ^= 0x40;
        std::fs::write(&ix, &b).unwrap();
        let err = SlicedTable::open(&dir).unwrap_err().to_string();
        assert!(err.contains("delete it"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
