//! The proof file: the winner's move at every node of a proof that it wins within the
//! stated plies (the loser's moves are all implied), or for a draw each side's holding
//! move wherever it is to move (the other side's moves are all implied), sorted by a hash
//! of the position with
//! a bucket index after the records, so a checker finds any position's record in one
//! bucket of a memory-mapped file; checksummed, written to a temporary file and renamed;
//! reading a damaged file, or one of an older format, is an error.

use crate::frame;
use crate::instance::ProverPosition;
use crate::proof_writer::ProofSummary;
use crate::tt::Key;
use quasar_core::{Game, Side};
use quasar_file::{self as file, FileError, Frame, OutputLock};
use std::io::{self, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Bytes before the records.
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8 + 4 + 8 + 4;
/// The frame of a proof file: magic, version 2 (1: unsorted 20-byte records, no index)
/// and a CRC-32 of everything before it at the end.
const FRAME: Frame = frame::sealed_at_end(
    *b"QSPROOF\0",
    2,
    &[1],
    HEADER_BYTES,
    "quasar proof",
    "solve again with --out to rewrite it",
);
/// The deepest bucket index a file may hold (2^40 buckets: far beyond any disk).
const MAX_BUCKET_BITS: u32 = 40;
/// Records per index bucket the writer aims for (16-31: a lookup reads a few cache lines,
/// and the index costs under half a byte a record).
const BUCKET_TARGET: u64 = 16;
/// Files under this size are read into memory; larger ones are mapped.
const MAP_FROM_BYTES: u64 = 1 << 20;

/// How a record proves its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordKind {
    /// The winner plays the move; the position after it is finished or every reply leads
    /// to another record with a smaller bound.
    Move,
    /// A tablebase claim: the winner wins within the bound, re-derived by plain search.
    Claim,
}

/// One position of a proof, with the side to move the winner (a win's proof) or the side
/// holding the draw (a draw's proof).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's first word ([`ProverPosition::raw_key`]).
    pub a: u64,
    /// The position's second word.
    pub b: u64,
    /// The side to move: the winner, or in a draw's proof the side whose move holds.
    pub side: Side,
    /// How it is proved.
    pub kind: RecordKind,
    /// The side to move's move as the game codes it (for a claim, the table's move, for
    /// information).
    pub mv: u16,
    /// The winner wins within this many plies from here (0 in a draw's proof).
    pub bound: u8,
}

impl Record {
    /// A record of `pos`.
    pub fn new<P: ProverPosition>(pos: &P, kind: RecordKind, mv: P::Move, bound: u32) -> Record {
        let key = pos.raw_key();
        Record {
            a: key.a,
            b: key.b,
            side: pos.side_to_move(),
            kind,
            mv: P::move_code(mv),
            bound: bound.min(255) as u8,
        }
    }

    /// The key of the record's position, as the root's `with_key` reads it back.
    pub fn key(&self) -> Key {
        Key {
            a: self.a,
            b: self.b,
            side: self.side as u8,
        }
    }

    /// The hash the file is sorted and indexed by.
    pub fn hash(&self) -> u64 {
        position_hash(self.a, self.b, self.side)
    }

    /// The order of records in a file: by hash, then by position, then the smallest
    /// bound first.
    fn order(&self) -> (u64, u64, u64, u8, u8) {
        (self.hash(), self.a, self.b, self.side as u8, self.bound)
    }

    /// True when both records are of the same position.
    fn same_position(&self, other: &Record) -> bool {
        (self.a, self.b, self.side) == (other.a, other.b, other.side)
    }
}

/// The hash of a position that orders and indexes a proof file: part of the format, so
/// fixed here (a strong 64-bit mix; two positions that share it are told apart by their
/// keys, which every record holds in full).
#[inline]
pub fn position_hash(a: u64, b: u64, side: Side) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    mix(a ^ mix(b.wrapping_add((side as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))))
}

/// What a proof establishes of its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `winner` wins within `plies` plies: the records are the winner's moves, the loser's
    /// are all implied.
    Win {
        /// The side that wins.
        winner: Side,
        /// The winner wins within this many plies.
        plies: u32,
    },
    /// Neither side can force a win: the records are each side's moves that keep the other
    /// from winning (play that goes on forever is a draw), the other side's moves are all
    /// implied.
    Draw,
}

impl Verdict {
    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match *self {
            Verdict::Win { winner, .. } => Some(winner),
            Verdict::Draw => None,
        }
    }

    /// The plies a win takes at most, `None` for a draw.
    pub fn plies(&self) -> Option<u32> {
        match *self {
            Verdict::Win { plies, .. } => Some(plies),
            Verdict::Draw => None,
        }
    }

    /// The verdict in words, with the game's side names.
    pub fn text<P: Game>(&self, root: &P) -> String {
        match *self {
            Verdict::Win { winner, plies } => format!(
                "{} wins from {} within {plies} plies",
                P::side_name(winner),
                root.position_text()
            ),
            Verdict::Draw => format!("neither side can force a win from {}", root.position_text()),
        }
    }
}

/// A proof of `verdict` from `root`, held in memory (small proofs and tests; a solve
/// streams its records to the file instead).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<P> {
    /// The start of the proof.
    pub root: P,
    /// What it proves.
    pub verdict: Verdict,
    /// The positions of the side that plays a recorded move, each once (in the file's
    /// order when read).
    pub records: Vec<Record>,
}

/// Why a proof file could not be written, read, or accepted.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The file layer refused the file (not a regular file, another run writing it).
    #[error(transparent)]
    File(#[from] FileError),
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not an intact proof file.
    #[error(
        "{path} is not an intact quasar proof file: {msg}; solve again with --out to rewrite it"
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// An intact file of another game's proof.
    #[error("{path} is the proof of another game; check it with the --game it was solved for")]
    OtherGame {
        /// The file.
        path: PathBuf,
    },
    /// An unfinished proof's scratch folder that this proof can't resume.
    #[error("{path} cannot be resumed: {msg}; remove the folder to write the proof afresh")]
    Unresumable {
        /// The scratch folder.
        path: PathBuf,
        /// Why not.
        msg: String,
    },
    /// The file is intact but proves nothing: the check found a hole.
    #[error("the proof does not hold: {0}")]
    Invalid(String),
}

fn side_byte(s: Side) -> u8 {
    s as u8
}

/// The header's winner byte of a draw (the sides are 0 and 1).
const DRAW_BYTE: u8 = 2;

/// Bytes of one record of `cells`-byte key words: both words, then flags, the move's two
/// bytes and the bound.
#[doc(hidden)]
pub fn record_bytes(cells: usize) -> usize {
    2 * cells + 4
}

/// The index's bucket bits for about `records` records.
#[doc(hidden)]
pub fn bucket_bits_for(records: u64) -> u32 {
    let per = (records / BUCKET_TARGET).max(1);
    (63 - per.leading_zeros()).min(MAX_BUCKET_BITS)
}

/// The bucket of `hash` in an index of `bits` bits: its top bits.
#[inline]
#[doc(hidden)]
pub fn bucket_of(hash: u64, bits: u32) -> u64 {
    if bits == 0 {
        0
    } else {
        hash >> (64 - bits)
    }
}

/// Writes `r` into `out` (exactly [`record_bytes`] long).
#[doc(hidden)]
pub fn encode(r: &Record, cells: usize, out: &mut [u8]) {
    out[..cells].copy_from_slice(&r.a.to_le_bytes()[..cells]);
    out[cells..2 * cells].copy_from_slice(&r.b.to_le_bytes()[..cells]);
    let kind = match r.kind {
        RecordKind::Move => 0,
        RecordKind::Claim => 1,
    };
    let [m0, m1] = r.mv.to_le_bytes();
    out[2 * cells..2 * cells + 4].copy_from_slice(&[
        side_byte(r.side) | kind << 1,
        m0,
        m1,
        r.bound,
    ]);
}

/// Reads a record from `bytes` (exactly [`record_bytes`] long); `None` for an unknown kind.
#[doc(hidden)]
pub fn decode(bytes: &[u8], cells: usize) -> Option<Record> {
    let mut w = [0u8; 8];
    let mut k = [0u8; 8];
    w[..cells].copy_from_slice(&bytes[..cells]);
    k[..cells].copy_from_slice(&bytes[cells..2 * cells]);
    let tail = &bytes[2 * cells..2 * cells + 4];
    let kind = match tail[0] >> 1 {
        0 => RecordKind::Move,
        1 => RecordKind::Claim,
        _ => return None,
    };
    Some(Record {
        a: u64::from_le_bytes(w),
        b: u64::from_le_bytes(k),
        side: frame::side_of(tail[0] & 1).expect("one bit"),
        kind,
        mv: u16::from_le_bytes([tail[1], tail[2]]),
        bound: tail[3],
    })
}

/// Sorts `records` into the file's order and, when `dedup`, keeps one record a position
/// (the smallest bound: it proves everything a larger one would).
pub fn sort_records(records: &mut Vec<Record>, dedup: bool) {
    records.sort_unstable_by_key(Record::order);
    if dedup {
        records.dedup_by(|later, first| later.same_position(first));
    }
}

/// Writes the proof file `path` (named only once complete) from `chunks`, as
/// [`write_proof`]; returns what it holds (a writer that resumed or kept a set of written
/// positions adds those figures).
pub(crate) fn write_proof_file<P: ProverPosition>(
    path: &Path,
    lock: &OutputLock,
    root: &P,
    verdict: Verdict,
    expected: u64,
    chunks: impl Iterator<Item = io::Result<Vec<Record>>>,
) -> Result<ProofSummary, ProofError> {
    let io = |source| ProofError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (mut records, mut claims) = (0, 0);
    let chunks = chunks.inspect(|chunk| {
        if let Ok(chunk) = chunk {
            claims += chunk.iter().filter(|r| r.kind == RecordKind::Claim).count() as u64;
        }
    });
    file::write_with(path, lock, |f| {
        records = write_proof(f, root, verdict, expected, chunks)?;
        Ok(())
    })?;
    let bytes = std::fs::metadata(path).map_err(io)?.len();
    Ok(ProofSummary {
        path: path.to_path_buf(),
        records,
        claims,
        bytes,
        seen_bytes: 0,
        resumed: 0,
    })
}

/// Writes a whole proof file to `out`: the header, the records of `chunks` (each sorted
/// by [`sort_records`], chunk after chunk in hash order), the index and the checksum;
/// `expected` (at least the record count) sizes the index. Returns the records written.
pub fn write_proof<W: Write + Seek, P: ProverPosition>(
    out: &mut W,
    root: &P,
    verdict: Verdict,
    expected: u64,
    chunks: impl Iterator<Item = io::Result<Vec<Record>>>,
) -> io::Result<u64> {
    let cells = root.key_bytes();
    let size = record_bytes(cells);
    let bits = bucket_bits_for(expected);
    out.write_all(&[0u8; HEADER_BYTES])?;
    let mut crc = crc32fast::Hasher::new();
    // starts[b + 1] counts bucket b's records until the prefix sum below.
    let mut starts = vec![0u64; (1usize << bits) + 1];
    let mut count = 0u64;
    let mut buf = Vec::new();
    for chunk in chunks {
        let chunk = chunk?;
        buf.clear();
        buf.resize(chunk.len() * size, 0);
        for (r, bytes) in chunk.iter().zip(buf.chunks_exact_mut(size)) {
            encode(r, cells, bytes);
            starts[bucket_of(r.hash(), bits) as usize + 1] += 1;
        }
        crc.update(&buf);
        out.write_all(&buf)?;
        count += chunk.len() as u64;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    buf.clear();
    for s in &starts {
        buf.extend_from_slice(&s.to_le_bytes());
        if buf.len() >= 1 << 20 {
            crc.update(&buf);
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    crc.update(&buf);
    out.write_all(&buf)?;
    let mut header = FRAME.header();
    header.truncate(12);
    let [p0, p1] = root.params();
    let key = root.raw_key();
    let (winner, plies) = match verdict {
        Verdict::Win { winner, plies } => (side_byte(winner), plies),
        Verdict::Draw => (DRAW_BYTE, 0),
    };
    header.extend_from_slice(&[p0, p1, winner, side_byte(root.side_to_move())]);
    header.extend_from_slice(&key.a.to_le_bytes());
    header.extend_from_slice(&key.b.to_le_bytes());
    header.extend_from_slice(&plies.to_le_bytes());
    header.extend_from_slice(&count.to_le_bytes());
    header.extend_from_slice(&bits.to_le_bytes());
    debug_assert_eq!(header.len(), HEADER_BYTES);
    let mut total = crc32fast::Hasher::new();
    total.update(&header);
    total.combine(&crc);
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&header)?;
    out.seek(SeekFrom::End(0))?;
    out.write_all(&total.finalize().to_le_bytes())?;
    Ok(count)
}

/// A proof file's contents, read in place: the header and the records by bucket.
#[derive(Clone, Copy, Debug)]
pub struct ProofView<'a, P> {
    /// The start of the proof.
    pub root: P,
    /// What it proves.
    pub verdict: Verdict,
    records: &'a [u8],
    index: &'a [u8],
    count: u64,
    bits: u32,
    cells: usize,
    size: usize,
}

impl<'a, P: ProverPosition> ProofView<'a, P> {
    /// Reads the bytes of a whole file named `path` (for messages): checksum, version,
    /// header, sizes and index; the records are decoded when asked for.
    pub fn parse(bytes: &'a [u8], path: &Path) -> Result<ProofView<'a, P>, ProofError> {
        let bad = |msg: &str| ProofError::Damaged {
            path: path.to_path_buf(),
            msg: msg.to_string(),
        };
        let h = FRAME.open(bytes).map_err(|e| bad(&e.to_string()))?;
        let body = h.all();
        if !frame::of_game::<P>(&h) {
            return Err(ProofError::OtherGame {
                path: path.to_path_buf(),
            });
        }
        let root = frame::root_of::<P>(h, 15).map_err(|e| bad(&e))?;
        let plies = h.u32(32);
        let verdict = match (h.u8(14), plies) {
            (DRAW_BYTE, 0) => Verdict::Draw,
            (b, _) => Verdict::Win {
                winner: frame::side_of(b).ok_or_else(|| bad("bad winner"))?,
                plies,
            },
        };
        let count = h.u64(36);
        let bits = h.u32(44);
        if bits > MAX_BUCKET_BITS {
            return Err(bad("the index is impossibly large"));
        }
        let cells = root.key_bytes();
        let size = record_bytes(cells);
        let index_bytes = ((1u128 << bits) + 1) * 8;
        let expected = count as u128 * size as u128 + HEADER_BYTES as u128 + index_bytes;
        if expected != body.len() as u128 {
            return Err(bad("the record count disagrees with the file size"));
        }
        let records_end = HEADER_BYTES + count as usize * size;
        let view = ProofView {
            root,
            verdict,
            records: &body[HEADER_BYTES..records_end],
            index: &body[records_end..],
            count,
            bits,
            cells,
            size,
        };
        let mut last = 0;
        for b in 0..=view.buckets() {
            let s = view.start(b);
            if s < last || (b == 0 && s != 0) {
                return Err(bad("the index is out of order"));
            }
            last = s;
        }
        if last != count {
            return Err(bad("the index disagrees with the record count"));
        }
        Ok(view)
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True when the proof has no records.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Number of index buckets.
    pub fn buckets(&self) -> u64 {
        1 << self.bits
    }

    /// The first record of bucket `b` (`b` up to and including [`Self::buckets`]).
    #[inline]
    fn start(&self, b: u64) -> u64 {
        let i = b as usize * 8;
        u64::from_le_bytes(self.index[i..i + 8].try_into().expect("8 bytes"))
    }

    /// The records of bucket `b`.
    #[inline]
    pub fn bucket(&self, b: u64) -> Range<u64> {
        self.start(b)..self.start(b + 1)
    }

    /// The bucket a position with this hash is filed under.
    #[inline]
    pub fn bucket_of(&self, hash: u64) -> u64 {
        bucket_of(hash, self.bits)
    }

    /// Record `i`; `None` when its kind byte is unknown.
    #[inline]
    pub fn record(&self, i: u64) -> Option<Record> {
        let at = i as usize * self.size;
        decode(&self.records[at..at + self.size], self.cells)
    }

    /// The record of a position, found in its bucket by its full key; `None`
    /// when there is none (or it cannot be decoded).
    #[inline]
    pub fn find(&self, key: &Key) -> Option<Record> {
        let (a, b, side) = (key.a, key.b, key.side);
        let bucket = self.bucket_of(position_hash(a, b, frame::side_of(side)?));
        let range = self.bucket(bucket);
        let mut w = [0u8; 8];
        let mut k = [0u8; 8];
        w.copy_from_slice(&a.to_le_bytes());
        k.copy_from_slice(&b.to_le_bytes());
        let c = self.cells;
        let from = range.start as usize * self.size;
        let to = range.end as usize * self.size;
        for bytes in self.records[from..to].chunks_exact(self.size) {
            if bytes[..c] == w[..c] && bytes[c..2 * c] == k[..c] && bytes[2 * c] & 1 == side {
                return decode(bytes, c);
            }
        }
        None
    }
}

impl<P: ProverPosition> Proof<P> {
    /// The file's bytes, checksum last.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records = self.records.clone();
        // Two records of a position stay two: the checker must see them and refuse.
        sort_records(&mut records, false);
        let n = records.len() as u64;
        let mut out = io::Cursor::new(Vec::new());
        write_proof(
            &mut out,
            &self.root,
            self.verdict,
            n,
            std::iter::once(Ok(records)),
        )
        .expect("writing to memory never fails");
        out.into_inner()
    }

    /// Reads the bytes of a file named `path` (for messages).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Proof<P>, ProofError> {
        let view = ProofView::<P>::parse(bytes, path)?;
        let mut records = Vec::with_capacity(view.len() as usize);
        for i in 0..view.len() {
            records.push(view.record(i).ok_or_else(|| ProofError::Damaged {
                path: path.to_path_buf(),
                msg: "a record of unknown kind".into(),
            })?);
        }
        Ok(Proof {
            root: view.root,
            verdict: view.verdict,
            records,
        })
    }

    /// Writes the file through a temporary file in the same folder, renamed when complete.
    pub fn write(&self, path: &Path) -> Result<(), ProofError> {
        let lock = OutputLock::acquire(path)?;
        file::write_with(path, &lock, |f| f.write_all(&self.to_bytes()))?;
        Ok(())
    }

    /// Reads a proof file into memory.
    pub fn read(path: &Path) -> Result<Proof<P>, ProofError> {
        let file = ProofFile::open(path)?;
        Proof::from_bytes(file.bytes(), path)
    }
}

/// A proof file opened for checking: mapped when large, so the records are read in place.
pub struct ProofFile {
    path: PathBuf,
    data: Data,
}

impl std::fmt::Debug for ProofFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, len) = match &self.data {
            Data::Bytes(b) => ("read", b.len()),
            Data::Map(m) => ("mapped", m.len()),
        };
        f.debug_struct("ProofFile")
            .field("path", &self.path)
            .field(kind, &len)
            .finish()
    }
}

enum Data {
    Bytes(Vec<u8>),
    Map(memmap2::Mmap),
}

impl ProofFile {
    /// Opens `path` (a missing or unreadable file is an error, and so is anything but a
    /// regular file: a FIFO or a device never ends).
    pub fn open(path: &Path) -> Result<ProofFile, ProofError> {
        let io = |source| ProofError::Io {
            path: path.to_path_buf(),
            source,
        };
        let f = file::open_read(path)?;
        let len = f.metadata().map_err(io)?.len();
        let data = if len < MAP_FROM_BYTES {
            Data::Bytes(file::read(path, MAP_FROM_BYTES, "small proof file")?)
        } else {
            // SAFETY: a proof file is written once under a temporary name and renamed, never
            // modified in place while it is checked.
            Data::Map(unsafe { file::map_read_only(&f) }.map_err(io)?)
        };
        Ok(ProofFile {
            path: path.to_path_buf(),
            data,
        })
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            Data::Bytes(b) => b,
            Data::Map(m) => m,
        }
    }

    /// The file's contents, once its checksum, version and index are right.
    pub fn view<P: ProverPosition>(&self) -> Result<ProofView<'_, P>, ProofError> {
        ProofView::parse(self.bytes(), &self.path)
    }
}
