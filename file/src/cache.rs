//! A bounded cache of a table's decoded blocks, shared by the threads that probe it, and
//! the positioned, checksum-checked reads that fill it: a table larger than memory opens
//! by reading its header and index, and a probe that misses reads one block from the file.
//!
//! The cache is split into shards, each behind its own lock, a block's shard chosen by a
//! hash of its key, so that threads probing different blocks rarely wait for each other.
//! Each shard holds at most its share of the budget and evicts by the clock policy
//! (second chance, Corbató 1968): a hit sets the block's reference bit; a miss sweeps the
//! hand over the shard's blocks, clearing set bits and evicting the first block found
//! clear, until the new block fits. A shard always admits one block, however large, so
//! the cache holds at most its budget plus one block a shard.
//!
//! A block is loaded and used under its shard's lock: two threads missing the same block
//! read it once, and a probe's use of a block (one decode) never copies it out.

use crate::FileError;
use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// The cache's size when nothing says otherwise, in bytes (256 MiB).
pub const DEFAULT_CACHE_BYTES: u64 = 256 << 20;
/// The largest cache size accepted, in MiB (1 TiB): a size past it is a typing error.
pub const MAX_CACHE_MIB: f64 = (1u64 << 20) as f64;
/// Bytes of budget a shard is given at least: a small cache keeps few shards, so that a
/// cache of a few blocks still holds a few blocks in each.
const SHARD_BYTES: usize = 1 << 20;
/// The most shards: enough that a search's threads rarely meet on one lock.
const MAX_SHARDS: usize = 64;

/// The cache size in bytes that `text` gives in MiB (`--table-cache`, `table-cache=`): a
/// number from 0 to [`MAX_CACHE_MIB`], fractions allowed (`0.5`); else what it must be.
pub fn parse_cache_size(text: &str) -> Result<u64, &'static str> {
    match text.parse::<f64>() {
        // `contains` is false for NaN.
        Ok(mib) if (0.0..=MAX_CACHE_MIB).contains(&mib) => Ok((mib * (1 << 20) as f64) as u64),
        _ => Err("the table cache's size must be a number of MiB from 0 to 1048576, such as 256 or 0.5 (0: read compressed tables whole)"),
    }
}

/// A cache size in bytes as [`parse_cache_size`] reads it back: MiB, fractions as needed
/// (`64`, `0.5`).
pub fn format_cache_size(bytes: u64) -> String {
    // Exact: a byte count below 2^53 over a power of two, printed as the shortest decimal
    // that reads back to the same number.
    format!("{}", bytes as f64 / (1 << 20) as f64)
}

/// How a compressed table is held: whole in memory, or through a block cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residence {
    /// Read whole into memory as it is used.
    Whole,
    /// Read block by block through a cache of this many bytes.
    Cached(u64),
}

impl Residence {
    /// The residence of a table of `table_bytes` under a cache of `cache_bytes`: whole
    /// when the table fits the cache (or the size is 0), cached otherwise.
    pub fn choose(table_bytes: u64, cache_bytes: u64) -> Residence {
        if cache_bytes == 0 || table_bytes <= cache_bytes {
            Residence::Whole
        } else {
            Residence::Cached(cache_bytes)
        }
    }
}

/// A multiplicative hash of a block's key: keys are small counters, and the shard and the
/// map want their bits spread.
#[derive(Clone, Copy, Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = (self.0 ^ k)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// One cached block.
struct Slot<V> {
    key: u64,
    /// Set by a hit, cleared by the clock hand.
    referenced: bool,
    /// Bytes it counts for.
    weight: usize,
    value: Option<V>,
}

/// One shard: its blocks, where they sit, and the clock hand.
struct Shard<V> {
    place: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    slots: Vec<Slot<V>>,
    /// Slots emptied by an eviction, to be filled first.
    free: Vec<usize>,
    hand: usize,
    bytes: usize,
    budget: usize,
}

impl<V> Shard<V> {
    /// Evicts blocks by the clock until `weight` more bytes fit (or the shard is empty).
    fn make_room(&mut self, weight: usize) {
        while self.bytes + weight > self.budget && !self.place.is_empty() {
            let i = self.hand;
            self.hand = (self.hand + 1) % self.slots.len();
            let slot = &mut self.slots[i];
            if slot.value.is_none() {
                continue;
            }
            if slot.referenced {
                slot.referenced = false;
                continue;
            }
            slot.value = None;
            self.bytes -= slot.weight;
            self.place.remove(&slot.key);
            self.free.push(i);
        }
    }

    /// Stores `value` under `key` (not present), returning its slot.
    fn insert(&mut self, key: u64, value: V, weight: usize) -> usize {
        self.make_room(weight);
        let slot = Slot {
            key,
            referenced: false,
            weight,
            value: Some(value),
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i] = slot;
                i
            }
            None => {
                self.slots.push(slot);
                self.slots.len() - 1
            }
        };
        self.bytes += weight;
        self.place.insert(key, i);
        i
    }
}

/// A bounded cache of decoded blocks `V` by a 64-bit key, shared by threads; see the
/// module's documentation.
pub struct BlockCache<V> {
    shards: Box<[Mutex<Shard<V>>]>,
    budget: u64,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<V> std::fmt::Debug for BlockCache<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("budget", &self.budget)
            .field("shards", &self.shards.len())
            .field("hits", &self.hits.load(Relaxed))
            .field("misses", &self.misses.load(Relaxed))
            .finish_non_exhaustive()
    }
}

/// What a cache has done: its lookups and what it holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found their block.
    pub hits: u64,
    /// Lookups that loaded their block.
    pub misses: u64,
    /// Blocks held now.
    pub blocks: u64,
    /// Bytes the blocks held now count for.
    pub bytes: u64,
}

impl<V> BlockCache<V> {
    /// An empty cache of `budget` bytes (at least one block a shard is always held).
    pub fn new(budget: u64) -> BlockCache<V> {
        let shards = (budget as usize / SHARD_BYTES).clamp(1, MAX_SHARDS);
        let share = (budget as usize).div_ceil(shards);
        BlockCache {
            shards: (0..shards)
                .map(|_| {
                    Mutex::new(Shard {
                        place: HashMap::default(),
                        slots: Vec::new(),
                        free: Vec::new(),
                        hand: 0,
                        bytes: 0,
                        budget: share,
                    })
                })
                .collect(),
            budget,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The budget in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The shard of `key`, locked (a thread that panicked holding it left it consistent:
    /// every change to a shard is made whole before anything that can panic).
    fn shard(&self, key: u64) -> MutexGuard<'_, Shard<V>> {
        let mut h = KeyHasher::default();
        h.write_u64(key);
        let s = (h.finish() >> 32) as usize % self.shards.len();
        self.shards[s].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `used` applied to the block of `key`, loaded by `load` (the block and the bytes it
    /// counts for) when not held; a load's error is returned and nothing is stored. `used`
    /// may change the block (what it has checked of itself, say), never the bytes it counts
    /// for.
    #[inline]
    pub fn with<R, E>(
        &self,
        key: u64,
        load: impl FnOnce() -> Result<(V, usize), E>,
        used: impl FnOnce(&mut V) -> R,
    ) -> Result<R, E> {
        let mut shard = self.shard(key);
        let i = match shard.place.get(&key) {
            Some(&i) => {
                self.hits.fetch_add(1, Relaxed);
                shard.slots[i].referenced = true;
                i
            }
            None => {
                self.misses.fetch_add(1, Relaxed);
                let (value, weight) = load()?;
                shard.insert(key, value, weight)
            }
        };
        Ok(used(
            shard.slots[i]
                .value
                .as_mut()
                .expect("a placed slot holds its block"),
        ))
    }

    /// Lookups and contents so far.
    pub fn stats(&self) -> CacheStats {
        let (mut blocks, mut bytes) = (0, 0);
        for s in self.shards.iter() {
            let s = s.lock().unwrap_or_else(|e| e.into_inner());
            blocks += s.place.len() as u64;
            bytes += s.bytes as u64;
        }
        CacheStats {
            hits: self.hits.load(Relaxed),
            misses: self.misses.load(Relaxed),
            blocks,
            bytes,
        }
    }
}

/// A file opened for positioned reads of checksummed blocks (any number of threads at
/// once): a read past its end or a block that fails its CRC-32 is an error naming the file.
#[derive(Debug)]
pub struct BlockFile {
    file: File,
    path: PathBuf,
    len: u64,
}

impl BlockFile {
    /// Opens `path`, a regular file (see [`crate::open_read`]).
    pub fn open(path: &Path) -> Result<BlockFile, FileError> {
        let file = crate::open_read(path)?;
        let len = file.metadata().map_err(|e| FileError::io(path, e))?.len();
        Ok(BlockFile {
            file,
            path: path.to_path_buf(),
            len,
        })
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Fills `buf` from byte `offset` of the file.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), FileError> {
        if offset
            .checked_add(buf.len() as u64)
            .is_none_or(|end| end > self.len)
        {
            return Err(FileError::Damaged {
                path: self.path.clone(),
                msg: format!(
                    "a block of {} bytes at byte {offset} lies past the file's end ({} bytes): the file is cut short or damaged",
                    buf.len(),
                    self.len
                ),
            });
        }
        read_exact_at(&self.file, buf, offset).map_err(|e| FileError::io(&self.path, e))
    }

    /// Fills `buf` from byte `offset` of the file and checks that its CRC-32 is `crc`.
    pub fn read_checked(&self, offset: u64, buf: &mut [u8], crc: u32) -> Result<(), FileError> {
        self.read_at(offset, buf)?;
        if crc32fast::hash(buf) != crc {
            return Err(FileError::Damaged {
                path: self.path.clone(),
                msg: format!(
                    "checksum mismatch in the block of {} bytes at byte {offset}: the file is damaged",
                    buf.len()
                ),
            });
        }
        Ok(())
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A block's value: a function of its key, so that a wrong block is seen.
    fn value(key: u64) -> u64 {
        key.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 7
    }

    #[test]
    fn a_cache_holds_its_budget_and_answers_every_key_right() {
        // Ten blocks of 100 bytes in a cache of 1000: 1 shard (budget below a MiB).
        let cache = BlockCache::<u64>::new(1000);
        let loads = AtomicUsize::new(0);
        let get = |k: u64| {
            cache
                .with(
                    k,
                    || {
                        loads.fetch_add(1, Relaxed);
                        Ok::<_, ()>((value(k), 100))
                    },
                    |v| *v,
                )
                .unwrap()
        };
        for k in 0..10 {
            assert_eq!(get(k), value(k));
        }
        assert_eq!(loads.load(Relaxed), 10);
        for k in 0..10 {
            assert_eq!(get(k), value(k));
        }
        assert_eq!(loads.load(Relaxed), 10, "all ten fit: no reload");
        // Thirty keys round and round: never more than the budget held.
        for round in 0..3 {
            for k in 0..30 {
                assert_eq!(get(k), value(k), "round {round}, key {k}");
                let s = cache.stats();
                assert!(s.bytes <= 1000 && s.blocks <= 10, "{s:?}");
            }
        }
        let s = cache.stats();
        assert_eq!(s.hits + s.misses, 10 + 10 + 90);
        assert_eq!(s.misses as usize, loads.load(Relaxed));
    }

    #[test]
    fn the_clock_keeps_a_block_used_since_the_hand_last_passed() {
        let cache = BlockCache::<u64>::new(300);
        let load = |k: u64| move || Ok::<_, ()>((value(k), 100));
        for k in 0..3 {
            cache.with(k, load(k), |_| ()).unwrap();
        }
        // A miss sweeps: 0, 1 and 2 are unreferenced, so 0 goes first.
        cache.with(3, load(3), |_| ()).unwrap();
        // 1 is used again, so the next miss passes over it and evicts 2.
        cache.with(1, load(1), |_| ()).unwrap();
        let misses = cache.stats().misses;
        cache.with(4, load(4), |_| ()).unwrap();
        cache.with(1, load(1), |_| ()).unwrap();
        assert_eq!(cache.stats().misses, misses + 1, "1 was kept");
        cache.with(2, load(2), |_| ()).unwrap();
        assert_eq!(cache.stats().misses, misses + 2, "2 was evicted");
    }

    #[test]
    fn a_block_larger_than_the_budget_is_held_alone_and_a_failed_load_stores_nothing() {
        let cache = BlockCache::<u64>::new(100);
        assert_eq!(cache.with(1, || Ok::<_, ()>((5, 500)), |v| *v), Ok(5));
        assert_eq!(
            cache.with(2, || Err::<(u64, usize), _>("bad"), |v| *v),
            Err("bad")
        );
        let s = cache.stats();
        assert_eq!((s.blocks, s.bytes), (1, 500));
        assert_eq!(cache.with(3, || Ok::<_, ()>((6, 50)), |v| *v), Ok(6));
        let s = cache.stats();
        assert_eq!((s.blocks, s.bytes), (1, 50));
    }

    #[test]
    fn threads_sharing_a_small_cache_read_every_block_right() {
        // 4 MiB in blocks of 64 KiB: 4 shards of 16 blocks, 256 keys.
        let cache = BlockCache::<u64>::new(4 << 20);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let cache = &cache;
                s.spawn(move || {
                    let mut k = t;
                    for _ in 0..20_000 {
                        k = k
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let key = (k >> 33) % 256;
                        let got = cache
                            .with(key, || Ok::<_, ()>((value(key), 64 << 10)), |v| *v)
                            .unwrap();
                        assert_eq!(got, value(key));
                    }
                });
            }
        });
        let st = cache.stats();
        assert_eq!(st.hits + st.misses, 80_000);
        assert!(st.bytes <= 4 << 20, "{st:?}");
    }

    #[test]
    fn residence_is_whole_when_the_table_fits() {
        assert_eq!(Residence::choose(10 << 20, 256 << 20), Residence::Whole);
        assert_eq!(Residence::choose(300 << 20, 0), Residence::Whole);
        assert_eq!(
            Residence::choose(300 << 20, 256 << 20),
            Residence::Cached(256 << 20)
        );
        assert_eq!(parse_cache_size("64"), Ok(64 << 20));
        assert_eq!(parse_cache_size("0.5"), Ok(512 << 10));
        assert_eq!(parse_cache_size("0"), Ok(0));
        for bytes in [0, 1, 629_145, 64 << 20, 3 << 19] {
            assert_eq!(parse_cache_size(&format_cache_size(bytes)), Ok(bytes));
        }
        assert_eq!(format_cache_size(64 << 20), "64");
        for bad in ["-1", "2000000", "NaN", "", "1MiB"] {
            assert!(parse_cache_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_block_file_reads_checks_and_refuses_reads_past_its_end() {
        let dir = std::env::temp_dir().join(format!("quasar-blockfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("blocks");
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let f = BlockFile::open(&path).unwrap();
        assert_eq!(f.len(), 1000);
        let mut buf = [0u8; 100];
        f.read_checked(200, &mut buf, crc32fast::hash(&bytes[200..300]))
            .unwrap();
        assert_eq!(&buf[..], &bytes[200..300]);
        let e = f.read_checked(200, &mut buf, 1).unwrap_err();
        assert!(e.to_string().contains("checksum mismatch"), "{e}");
        let e = f.read_at(950, &mut buf).unwrap_err();
        assert!(e.to_string().contains("past the file's end"), "{e}");
        assert!(BlockFile::open(&dir).is_err(), "a directory is refused");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
