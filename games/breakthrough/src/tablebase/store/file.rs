//! The table file: a 128-byte header (magic, format version, board, rows, limits, value
//! packing, entry count, layout, CRC-32 of header and body) followed by the static
//! B-tree's body; written to a temporary file and renamed, loaded through a memory map.

use super::btree::{Backing, Layout, StaticBTree, FANOUT, LEAF};
use crate::tablebase::key::ValueCodec;
use crate::tablebase::region::{Limits, Region};
use crate::Board;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

#[cfg(not(target_endian = "little"))]
compile_error!("table files are little-endian and mapped as is");

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"QUASARTB";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Header bytes before the body.
pub const HEADER_BYTES: usize = 128;
const NO_LIMIT: u32 = u32::MAX;

/// Why a table file cannot be used; every variant names the file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file could not be opened, read, mapped or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file is not a table of this format (or is damaged).
    #[error("{path}: {msg}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
}

/// The header's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// The board.
    pub board: Board,
    /// Row count `n`.
    pub rows: u32,
    /// Bits per coordinate in a value (3 is eq. 4.2 exactly).
    pub field_bits: u32,
    /// Piece limits the table was built under.
    pub limits: Limits,
    /// Bytes per value (2 or 4).
    pub value_bytes: u32,
    /// Entries.
    pub entries: u64,
    /// Largest depth stored.
    pub max_depth: u32,
    /// Words of the body.
    pub body_words: u64,
    /// CRC-32 of the header (with this field zero) and the body.
    pub checksum: u32,
}

impl Header {
    fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut h = [0u8; HEADER_BYTES];
        let lim = |v: Option<u32>| v.unwrap_or(NO_LIMIT).to_le_bytes();
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12] = self.board.width() as u8;
        h[13] = self.board.height() as u8;
        h[14] = self.rows as u8;
        h[15] = self.field_bits as u8;
        h[16..20].copy_from_slice(&lim(self.limits.max_white));
        h[20..24].copy_from_slice(&lim(self.limits.max_black));
        h[24..28].copy_from_slice(&lim(self.limits.max_pieces));
        h[28..32].copy_from_slice(&self.value_bytes.to_le_bytes());
        h[32..40].copy_from_slice(&self.entries.to_le_bytes());
        h[40..44].copy_from_slice(&(LEAF as u32).to_le_bytes());
        h[44..48].copy_from_slice(&(FANOUT as u32).to_le_bytes());
        h[48..56].copy_from_slice(&self.body_words.to_le_bytes());
        h[56..60].copy_from_slice(&self.checksum.to_le_bytes());
        h[60..64].copy_from_slice(&self.max_depth.to_le_bytes());
        h
    }

    fn decode(h: &[u8], path: &Path) -> Result<Header, TableFileError> {
        let bad = |msg: String| TableFileError::Invalid {
            path: path.to_path_buf(),
            msg,
        };
        if h.len() < HEADER_BYTES {
            return Err(bad(format!(
                "file is {} bytes, shorter than the {HEADER_BYTES}-byte header: truncated or not a table",
                h.len()
            )));
        }
        if h[0..8] != MAGIC {
            return Err(bad("not a quasar tablebase file (bad magic)".into()));
        }
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this quasar reads version {VERSION}: rebuild the table"
            )));
        }
        let board = Board::new(h[12] as u32, h[13] as u32)
            .map_err(|e| bad(format!("bad board in header: {e}")))?;
        let lim = |v: u32| (v != NO_LIMIT).then_some(v);
        let value_bytes = u32_at(28);
        if value_bytes != 2 && value_bytes != 4 {
            return Err(bad(format!("bad value width {value_bytes} in header")));
        }
        if u32_at(40) as usize != LEAF || u32_at(44) as usize != FANOUT {
            return Err(bad("unsupported B-tree node sizes in header".into()));
        }
        Ok(Header {
            version,
            board,
            rows: h[14] as u32,
            field_bits: h[15] as u32,
            limits: Limits {
                max_white: lim(u32_at(16)),
                max_black: lim(u32_at(20)),
                max_pieces: lim(u32_at(24)),
            },
            value_bytes,
            entries: u64_at(32),
            body_words: u64_at(48),
            checksum: u32_at(56),
            max_depth: u32_at(60),
        })
    }
}

/// CRC-32 of a header (its checksum field taken as zero) and a body.
fn checksum(header: &Header, body: &[u8]) -> u32 {
    let mut h = header.clone();
    h.checksum = 0;
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&h.encode());
    hasher.update(body);
    hasher.finalize()
}

/// A writer that keeps a CRC-32 of everything written through it.
struct Checksummed<W: Write> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the body [`build_body`] would build, word for word, without holding it.
fn stream_body(
    out: &mut impl Write,
    entries: &[(u64, u32)],
    layout: &Layout,
) -> std::io::Result<()> {
    let (_, key_words) = layout.keys;
    for e in entries {
        out.write_all(&e.0.to_le_bytes())?;
    }
    for _ in entries.len()..key_words {
        out.write_all(&u64::MAX.to_le_bytes())?;
    }
    let b = layout.value_bytes as usize;
    for e in entries {
        out.write_all(&e.1.to_le_bytes()[..b])?;
    }
    let (_, value_words) = layout.values;
    for _ in entries.len() * b..value_words * 8 {
        out.write_all(&[0])?;
    }
    let blocks = key_words / LEAF;
    let first = |blk: usize| entries.get(blk * LEAF).map_or(u64::MAX, |e| e.0);
    let mut below: Vec<u64> = (0..blocks).map(first).collect();
    for &(_, words) in &layout.levels {
        for i in 0..words {
            out.write_all(&below.get(i).copied().unwrap_or(u64::MAX).to_le_bytes())?;
        }
        below = below.chunks(FANOUT).map(|c| c[0]).collect();
    }
    Ok(())
}

/// A loaded table: its header, region and static B-tree.
#[derive(Debug)]
pub struct TableFile {
    /// The header.
    pub header: Header,
    /// The region it covers.
    pub region: Region,
    /// The value packing.
    pub codec: ValueCodec,
    /// The stored entries.
    pub tree: StaticBTree,
}

impl Header {
    /// The header of a table of `entries` (its checksum still zero): values take 2 bytes
    /// when the largest fits, else 4.
    fn for_entries(
        region: &Region,
        limits: Limits,
        codec: &ValueCodec,
        entries: &[(u64, u32)],
    ) -> Header {
        let max_value = entries.iter().map(|e| e.1).max().unwrap_or(0);
        let value_bytes = if max_value <= u16::MAX as u32 { 2 } else { 4 };
        Header {
            version: VERSION,
            board: region.board(),
            rows: region.rows(),
            field_bits: codec.field_bits,
            limits,
            value_bytes,
            entries: entries.len() as u64,
            max_depth: entries
                .iter()
                .map(|e| codec.decode(e.1).depth)
                .max()
                .unwrap_or(0),
            body_words: Layout::new(entries.len() as u64, value_bytes).words as u64,
            checksum: 0,
        }
    }
}

impl TableFile {
    /// Writes sorted, unique entries to `path` (through `path.tmp` and a rename, so a
    /// file at `path` is always complete).
    pub fn write(
        path: &Path,
        region: &Region,
        limits: Limits,
        codec: &ValueCodec,
        entries: &[(u64, u32)],
    ) -> Result<Header, TableFileError> {
        let mut header = Header::for_entries(region, limits, codec, entries);
        let layout = Layout::new(header.entries, header.value_bytes);
        let io = |source| TableFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = File::create(&tmp).map_err(io)?;
        let mut out = Checksummed {
            inner: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
        };
        // The body is streamed, never held whole: a table may be larger than memory allows twice.
        out.write_all(&header.encode()).map_err(io)?;
        stream_body(&mut out, entries, &layout).map_err(io)?;
        header.checksum = out.crc.clone().finalize();
        let mut file = out.inner.into_inner().map_err(|e| io(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header.encode()).map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&tmp, path).map_err(io)?;
        Ok(header)
    }

    /// Maps and checks a table file: magic, version, sizes against the header, and the
    /// checksum of every byte; a damaged or truncated file is refused, never read.
    pub fn open(path: &Path) -> Result<TableFile, TableFileError> {
        let io = |source| TableFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |msg: String| TableFileError::Invalid {
            path: path.to_path_buf(),
            msg,
        };
        let f = File::open(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        if len < HEADER_BYTES as u64 {
            return Err(bad(format!(
                "file is {len} bytes, shorter than the {HEADER_BYTES}-byte header: truncated or not a table"
            )));
        }
        // SAFETY: the map is read-only; the file is ours to read and, like any table, is
        // not modified while in use (a rebuild writes a new file and renames it).
        let map = unsafe { memmap2::Mmap::map(&f) }.map_err(io)?;
        let header = Header::decode(&map[..HEADER_BYTES], path)?;
        let layout = Layout::new(header.entries, header.value_bytes);
        let expected = HEADER_BYTES as u64 + layout.words as u64 * 8;
        if header.body_words != layout.words as u64 || len != expected {
            return Err(bad(format!(
                "file is {len} bytes but its header promises {expected}: truncated or damaged; rebuild it"
            )));
        }
        if checksum(&header, &map[HEADER_BYTES..]) != header.checksum {
            return Err(bad(
                "checksum mismatch: the file is damaged; rebuild it".into()
            ));
        }
        let region = Region::new(header.board, header.rows)
            .map_err(|e| bad(format!("bad region in header: {e}")))?;
        let codec = ValueCodec::new(header.board);
        if codec.field_bits != header.field_bits {
            return Err(bad(format!(
                "value fields of {} bits, expected {} for {}",
                header.field_bits, codec.field_bits, header.board
            )));
        }
        let tree = StaticBTree::new(Backing::Map(map, HEADER_BYTES / 8), &layout).map_err(bad)?;
        Ok(TableFile {
            header,
            region,
            codec,
            tree,
        })
    }

    /// A table held in memory (no file), for tests and benchmarks.
    pub fn in_memory(
        region: &Region,
        limits: Limits,
        codec: &ValueCodec,
        entries: &[(u64, u32)],
    ) -> TableFile {
        let header = Header::for_entries(region, limits, codec, entries);
        let tree = StaticBTree::from_entries(entries, header.value_bytes);
        TableFile {
            header,
            region: region.clone(),
            codec: *codec,
            tree,
        }
    }
}
