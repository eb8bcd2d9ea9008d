//! Reading a table larger than the table cache: each file's header and directory read on
//! first use, then a probe's slice alone by a positioned read into a [`BlockCache`] shared
//! by every thread probing the table, its blocks checked as probes first read them.

use super::format::{group, head_len, pack_limit, parse_dir, Directory};
use super::{CompressedTable, PACK_HEADER};
use crate::tablebase::store::Corrupt;
use quasar_file::cache::{BlockCache, BlockFile};
use retro::{RunArray, RunCode};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;

/// One file of a cached table: its header and directory, once read, and its code (held
/// here so that its decoding table outlives the slices the cache evicts).
pub(super) enum PackDir {
    Present(Box<OpenPack>),
    Missing,
    Failed(Corrupt),
}

/// A file of a cached table that is there: open for positioned reads, its directory and
/// its code.
pub(super) struct OpenPack {
    pub(super) file: BlockFile,
    pub(super) dir: Directory,
    pub(super) code: RunCode,
}

/// A slice's runs as the cache holds them: each block's runs are checked the first time a
/// probe reads it, so that a miss decodes one block, not the slice's every block.
pub(super) struct CachedRuns {
    runs: RunArray,
    shift: u32,
    /// Bit `b`: block `b`'s runs add up to its positions.
    checked: Vec<u64>,
}

impl CachedRuns {
    /// The value at `idx`; `None` when its block's runs do not decode.
    #[inline]
    pub(super) fn get(&mut self, idx: u64) -> Option<u32> {
        let b = idx >> self.shift;
        let (word, bit) = ((b / 64) as usize, 1 << (b % 64));
        if self.checked[word] & bit == 0 {
            if !self.runs.check_block(b) {
                return None;
            }
            self.checked[word] |= bit;
        }
        Some(self.runs.get(idx))
    }
}

/// A table read through a block cache: each file's directory, the slices' runs held, and
/// the slices found damaged (never read again).
pub(super) struct Cached {
    pub(super) dirs: Box<[OnceLock<PackDir>]>,
    pub(super) cache: BlockCache<CachedRuns>,
    /// By slice number: its runs failed their checks.
    pub(super) bad: Box<[AtomicBool]>,
}

impl Cached {
    /// An empty cache of `bytes` for a table of `files` files and `slices` slices.
    pub(super) fn new(files: u32, slices: u32, bytes: u64) -> Cached {
        Cached {
            dirs: (0..files).map(|_| OnceLock::new()).collect(),
            cache: BlockCache::new(bytes),
            bad: (0..slices).map(|_| AtomicBool::new(false)).collect(),
        }
    }
}

impl CompressedTable {
    /// Marks stored slice `id` of a cached table damaged (never read again) and remembers
    /// the first damage.
    #[cold]
    pub(super) fn damaged_slice(&self, c: &Cached, id: u32) -> Corrupt {
        let damaged = Corrupt::Compressed {
            slice: self.slicing.slice_name(id),
        };
        c.bad[id as usize].store(true, Relaxed);
        let _ = self.first_bad.set(damaged);
        damaged
    }

    /// The directory of file `top` of a cached table, read and checked on first use.
    pub(super) fn pack_dir<'a>(&self, c: &'a Cached, top: u32) -> &'a PackDir {
        c.dirs[top as usize].get_or_init(|| self.read_dir(top))
    }

    #[cold]
    #[inline(never)]
    fn read_dir(&self, top: u32) -> PackDir {
        let s = &self.slicing;
        let ids = group(s, top);
        let failed = |c: Corrupt| {
            let _ = self.first_bad.set(c);
            PackDir::Failed(c)
        };
        let damaged = Corrupt::Compressed {
            slice: s.slice_name(ids[0]),
        };
        let file = match BlockFile::open(&self.pack_path(top)) {
            Ok(f) => f,
            Err(e) if e.is_not_found() => return PackDir::Missing,
            Err(_) => return failed(damaged),
        };
        if file.len() > pack_limit(s, self.block, ids.len()) || file.len() < PACK_HEADER as u64 {
            return failed(damaged);
        }
        let mut head = vec![0u8; PACK_HEADER];
        if file.read_at(0, &mut head).is_err() {
            return failed(damaged);
        }
        let Ok(len) = head_len(s, top, &head) else {
            return failed(damaged);
        };
        if len as u64 > file.len() {
            return failed(damaged);
        }
        head.resize(len, 0);
        if file.read_at(0, &mut head).is_err() {
            return failed(damaged);
        }
        match parse_dir(s, top, &head, file.len()) {
            Ok(dir) if dir.block == self.block => {
                match RunCode::from_lengths(dir.lengths.clone()) {
                    Ok(code) => PackDir::Present(Box::new(OpenPack { file, dir, code })),
                    Err(_) => failed(damaged),
                }
            }
            _ => failed(damaged),
        }
    }

    /// Reads stored slice `id`'s runs from its file for the cache (a positioned read, its
    /// CRC-32 checked, its block index checked and its blocks left to the probes that read
    /// them), with the bytes they take; a damaged slice is marked, never read again.
    #[cold]
    #[inline(never)]
    pub(super) fn load_slice(&self, c: &Cached, id: u32) -> Result<(CachedRuns, usize), Corrupt> {
        let s = &self.slicing;
        let (file, dir, code) = match self.pack_dir(c, id >> self.width) {
            PackDir::Present(p) => (&p.file, &p.dir, &p.code),
            PackDir::Missing => {
                return Err(Corrupt::CompressedMissing {
                    slice: s.slice_name(id),
                })
            }
            PackDir::Failed(e) => return Err(*e),
        };
        let e = dir.entries[self.place[id as usize] as usize];
        let mut bytes = vec![0u8; e.len as usize];
        let blocks = s.per_slice().div_ceil(dir.block);
        let index = 4 * (blocks as usize + 1);
        if file.read_checked(e.offset, &mut bytes, e.crc).is_err() || bytes.len() < index {
            return Err(self.damaged_slice(c, id));
        }
        let starts = bytes[..index]
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")) as u64)
            .collect();
        bytes.drain(..index);
        match RunArray::from_coded_parts_unchecked(s.per_slice(), dir.block, starts, bytes, code) {
            Ok(runs) => {
                let weight = runs.stored_bytes() as usize + blocks.div_ceil(64) as usize * 8;
                let runs = CachedRuns {
                    shift: dir.block.trailing_zeros(),
                    checked: vec![0; blocks.div_ceil(64) as usize],
                    runs,
                };
                Ok((runs, weight + std::mem::size_of::<CachedRuns>()))
            }
            Err(_) => Err(self.damaged_slice(c, id)),
        }
    }
}
