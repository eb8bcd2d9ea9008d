//! The table file: a 128-byte header (magic, format version, board, rows, limits, value
//! packing, entry count, layout, CRC-32 of the block CRCs, and in its last four bytes the
//! CRC-32 of the rest of the header), the static B-tree's body, and a CRC-32 of each
//! 4 KiB block of the body. Written to a temporary file and renamed; opened by checking
//! the header, the size and the block CRCs' own CRC, then memory-mapped, each block
//! verified the first time it is read (see [`quasar_file::blocks`]).

use super::compressed::{self, CompressedTable};
use super::sliced::SlicedTable;
use super::Corrupt;
use super::Tree;
use crate::tablebase::key::ValueCodec;
use crate::tablebase::region::{Limits, Region};
use crate::Board;
use quasar_core::progress::Progress;
use quasar_file::blocks::{block_count, crc_words, BlockCheck, BlockWriter, BLOCK_BYTES};
use quasar_file::btree::{radix_root, Backing, Layout, StaticBTree, FANOUT, LEAF};
use quasar_file::frame::{put_u32, put_u64};
use quasar_file::slices::SliceDir;
use quasar_file::{self as file, AtomicWrite, FileError, Frame, OutputLock, Seal};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

#[cfg(not(target_endian = "little"))]
compile_error!("table files are little-endian and mapped as is");

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"QUASARTB";
/// The format version this code reads and writes.
pub const VERSION: u32 = 2;
/// Header bytes before the body.
pub const HEADER_BYTES: usize = 128;
const NO_LIMIT: u32 = u32::MAX;

/// Why a table file cannot be used; every variant names the file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file is not a table of this format (or is damaged).
    #[error("{path}: {msg}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// Data read from the table failed its check.
    #[error("{path}: {source}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Where and how.
        source: Corrupt,
    },
    /// The file could not be opened, read, mapped or written, or the file layer refused it
    /// (not a regular file, busy, too large).
    #[error(transparent)]
    File(#[from] FileError),
    /// A sliced table's directory lacks its manifest, is incomplete or has a slice cut
    /// short.
    #[error(transparent)]
    SliceDir(#[from] quasar_file::slices::SliceDirError),
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
    /// Bytes per checked block of the body.
    pub block_bytes: u32,
    /// CRC-32 of the table of block CRCs: a fingerprint of the whole body.
    pub checksum: u32,
}

/// The frame of a table file: the header's own CRC-32 in its last four bytes.
pub const FRAME: Frame = Frame {
    magic: MAGIC,
    version: VERSION,
    // Version 1 kept a CRC-32 of header and body at byte 56 instead.
    older: &[1],
    header_bytes: HEADER_BYTES,
    seal: Seal::HeaderEnd,
    what: "quasar Breakthrough table",
    remedy: "rebuild the table with `quasar tablebase build`",
};

impl Header {
    fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut h = FRAME.header();
        let lim = |v: Option<u32>| v.unwrap_or(NO_LIMIT);
        put_u32(&mut h, 8, self.version);
        h[12] = self.board.width() as u8;
        h[13] = self.board.height() as u8;
        h[14] = self.rows as u8;
        h[15] = self.field_bits as u8;
        put_u32(&mut h, 16, lim(self.limits.max_white));
        put_u32(&mut h, 20, lim(self.limits.max_black));
        put_u32(&mut h, 24, lim(self.limits.max_pieces));
        put_u32(&mut h, 28, self.value_bytes);
        put_u64(&mut h, 32, self.entries);
        put_u32(&mut h, 40, LEAF as u32);
        put_u32(&mut h, 44, FANOUT as u32);
        put_u64(&mut h, 48, self.body_words);
        put_u32(&mut h, 56, self.checksum);
        put_u32(&mut h, 60, self.max_depth);
        put_u32(&mut h, 64, self.block_bytes);
        // Bytes 68..124 are reserved and zero; the header's CRC covers them too.
        FRAME.seal(&mut h);
        h.try_into().expect("a whole header")
    }

    fn decode(h: &[u8], path: &Path) -> Result<Header, TableFileError> {
        let bad = |msg: String| TableFileError::Invalid {
            path: path.to_path_buf(),
            msg,
        };
        let f = FRAME.check(h, path)?;
        let board = Board::new(f.u8(12) as u32, f.u8(13) as u32)
            .map_err(|e| bad(format!("bad board in header: {e}")))?;
        let lim = |v: u32| (v != NO_LIMIT).then_some(v);
        let value_bytes = f.u32(28);
        if value_bytes != 2 && value_bytes != 4 {
            return Err(bad(format!("bad value width {value_bytes} in header")));
        }
        if f.u32(40) as usize != LEAF || f.u32(44) as usize != FANOUT {
            return Err(bad("unsupported B-tree node sizes in header".into()));
        }
        if f.u32(64) as usize != BLOCK_BYTES {
            return Err(bad(format!(
                "checked blocks of {} bytes in header; this quasar uses {BLOCK_BYTES}",
                f.u32(64)
            )));
        }
        Ok(Header {
            version: VERSION,
            board,
            rows: f.u8(14) as u32,
            field_bits: f.u8(15) as u32,
            limits: Limits {
                max_white: lim(f.u32(16)),
                max_black: lim(f.u32(20)),
                max_pieces: lim(f.u32(24)),
            },
            value_bytes,
            entries: f.u64(32),
            body_words: f.u64(48),
            block_bytes: f.u32(64),
            checksum: f.u32(56),
            max_depth: f.u32(60),
        })
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
    let firsts: Vec<u64> = entries.iter().step_by(LEAF).map(|e| e.0).collect();
    for w in radix_root(&firsts, entries.last().map_or(0, |e| e.0)) {
        out.write_all(&w.to_le_bytes())?;
    }
    Ok(())
}

/// A loaded table: its header, region and stored entries (a static B-tree, or a sliced
/// table's directory).
#[derive(Debug)]
pub struct TableFile {
    /// The file (empty for a table in memory), for messages.
    pub path: PathBuf,
    /// The header.
    pub header: Header,
    /// The region it covers.
    pub region: Region,
    /// The value packing.
    pub codec: ValueCodec,
    /// The stored entries.
    pub tree: Tree,
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
            block_bytes: BLOCK_BYTES as u32,
            checksum: 0,
        }
    }
}

impl TableFile {
    /// Writes sorted, unique entries to `path` atomically (see [`quasar_file`]), so
    /// a file at `path` is always complete; an existing `path` that is not a regular file
    /// is refused, and so is a table another run is writing.
    pub fn write(
        path: &Path,
        region: &Region,
        limits: Limits,
        codec: &ValueCodec,
        entries: &[(u64, u32)],
    ) -> Result<Header, TableFileError> {
        let lock = TableFile::claim_output(path)?;
        TableFile::write_under(&lock, region, limits, codec, entries)
    }

    /// Writes the table to the output `lock` holds (see [`TableFile::write`]).
    pub fn write_under(
        lock: &OutputLock,
        region: &Region,
        limits: Limits,
        codec: &ValueCodec,
        entries: &[(u64, u32)],
    ) -> Result<Header, TableFileError> {
        let path = lock.target();
        let mut header = Header::for_entries(region, limits, codec, entries);
        let layout = Layout::new(header.entries, header.value_bytes);
        let io = |source| TableFileError::from(FileError::io(path, source));
        let tmp = AtomicWrite::create(path, lock)?;
        let mut out = BufWriter::with_capacity(1 << 20, tmp.file());
        // The header is written last, once the checksums are known.
        out.write_all(&[0; HEADER_BYTES]).map_err(io)?;
        // The body is streamed, never held whole: a table may be larger than memory allows twice.
        let mut body = BlockWriter::new(out);
        stream_body(&mut body, entries, &layout).map_err(io)?;
        let (mut out, crcs) = body.finish().map_err(io)?;
        let mut table: Vec<u8> = crcs.iter().flat_map(|c| c.to_le_bytes()).collect();
        table.resize(crc_words(crcs.len()) * 8, 0);
        header.checksum = crc32fast::hash(&table);
        out.write_all(&table).map_err(io)?;
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&header.encode()).map_err(io)?;
        out.flush().map_err(io)?;
        drop(out);
        tmp.commit()?;
        Ok(header)
    }

    /// Takes the output `path` for a build before any work: refuses a path that exists but
    /// is not a regular file (a device, a FIFO, a directory, a symbolic link: the final
    /// rename would replace it) and one another run is writing, and removes the temporary
    /// files a killed build left. Held until dropped.
    pub fn claim_output(path: &Path) -> Result<OutputLock, TableFileError> {
        Ok(OutputLock::acquire(path)?)
    }

    /// Opens a table file in a few milliseconds whatever its size: checks that it is a
    /// regular file, its header (magic, version, the header's CRC), its size against the
    /// header and the block CRCs against their CRC, then maps it; the body's blocks are
    /// checked when first read, so damaged data is an error where it is used, never an
    /// answer ([`TableFile::verify_all`] checks every block at once).
    pub fn open(path: &Path) -> Result<TableFile, TableFileError> {
        let io = |source| TableFileError::from(FileError::io(path, source));
        let bad = |msg: String| TableFileError::Invalid {
            path: path.to_path_buf(),
            msg,
        };
        // Before opening a file: a directory is a sliced table, plain or compressed.
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            if SliceDir::looks_like(path, &compressed::LAYOUT) {
                return TableFile::open_compressed(path);
            }
            return TableFile::open_sliced(path);
        }
        let f = file::open_read(path)?;
        let meta = f.metadata().map_err(io)?;
        let len = meta.len();
        if len < HEADER_BYTES as u64 {
            // Too short to map as a table: its few bytes tell why (a cut, another file).
            let bytes = file::read(path, HEADER_BYTES as u64, FRAME.what)?;
            return Err(Header::decode(&bytes, path).expect_err("shorter than a header"));
        }
        // SAFETY: like any table, the file is not modified while in use (a rebuild writes a
        // new file and renames it).
        let map = unsafe { file::map_read_only(&f) }.map_err(io)?;
        let header = Header::decode(&map[..HEADER_BYTES], path)?;
        // Every entry takes a key word: this bounds the arithmetic below for any header.
        if header.entries > len / 8 {
            return Err(bad(format!(
                "the header promises {} entries, more than a {len}-byte file holds: truncated or damaged; rebuild it",
                header.entries
            )));
        }
        let layout = Layout::new(header.entries, header.value_bytes);
        let blocks = block_count(layout.words);
        let expected = (HEADER_BYTES + 8 * (layout.words + crc_words(blocks))) as u64;
        if header.body_words != layout.words as u64 || len != expected {
            return Err(bad(format!(
                "file is {len} bytes but its header promises {expected}: truncated or damaged; rebuild it"
            )));
        }
        let crcs = &map[HEADER_BYTES + layout.words * 8..];
        if crc32fast::hash(crcs) != header.checksum {
            return Err(bad(
                "checksum mismatch in the table of block checksums: the file is damaged; rebuild it"
                    .into(),
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
        let check = BlockCheck::new(layout.words, HEADER_BYTES as u64);
        let tree = StaticBTree::new(Backing::Map(map, HEADER_BYTES / 8), &layout, Some(check))
            .map_err(|source| TableFileError::Damaged {
                path: path.to_path_buf(),
                source: source.into(),
            })?;
        Ok(TableFile {
            path: path.to_path_buf(),
            header,
            region,
            codec,
            tree: Tree::Static(tree),
        })
    }

    /// Opens a sliced table's directory (see [`SlicedTable::open`]): the header describes
    /// the region; its entry count is left 0 (a sliced table counts its entries on demand).
    pub fn open_sliced(dir: &Path) -> Result<TableFile, TableFileError> {
        let t = SlicedTable::open(dir)?;
        let mut table = TableFile::sliced_header(dir, t.region().clone());
        table.tree = Tree::Sliced(t);
        Ok(table)
    }

    /// A sliced table's description (its entry count left 0) over an empty tree.
    fn sliced_header(dir: &Path, region: Region) -> TableFile {
        let codec = ValueCodec::new(region.board());
        let header = Header {
            version: VERSION,
            board: region.board(),
            rows: region.rows(),
            field_bits: codec.field_bits,
            limits: Limits::NONE,
            value_bytes: 2,
            entries: 0,
            max_depth: region.lowest_row(),
            body_words: 0,
            block_bytes: BLOCK_BYTES as u32,
            checksum: 0,
        };
        TableFile {
            path: dir.to_path_buf(),
            header,
            region,
            codec,
            tree: Tree::Static(StaticBTree::from_entries(&[], 2)),
        }
    }

    /// Opens a compressed sliced table's directory (see [`CompressedTable::open`]), its
    /// header as [`TableFile::open_sliced`] makes one.
    pub fn open_compressed(dir: &Path) -> Result<TableFile, TableFileError> {
        let t = CompressedTable::open(dir)?;
        let mut table = TableFile::sliced_header(dir, t.region().clone());
        table.tree = Tree::Compressed(t);
        Ok(table)
    }

    /// Checks every block of the table now, on all cores, reporting bytes to `progress`.
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<(), TableFileError> {
        self.tree
            .verify_all(progress)
            .map_err(|source| self.damaged(source))
    }

    /// The error of damaged data found in this table.
    pub fn damaged(&self, source: Corrupt) -> TableFileError {
        TableFileError::Damaged {
            path: self.path.clone(),
            source,
        }
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
            path: PathBuf::new(),
            header,
            region: region.clone(),
            codec: *codec,
            tree: Tree::Static(tree),
        }
    }
}
