//! Writing a proof as it is found, in bounded memory: each record goes at once to one of
//! 256 spill files (by the top bits of its hash, in the file's record format) in a scratch
//! folder beside the proof; a [`Seen`] set of hashes keeps a position from being written
//! twice; at the end each spill file is sorted in memory in turn (one 256th of the proof),
//! its duplicates dropped (a position met again with a smaller bound is written again), and
//! appended to the final file, which gets its name only when complete.

use super::frame;
use super::proof::{
    cell_bytes, decode, encode, position_hash, record_bytes, sort_records, write_proof, ProofError,
    Record,
};
use super::seen::Seen;
use super::RecordKind;
use crate::Position;
use quasar_core::Side;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Spill files: records go to the one named by their hash's top bits.
const SPILL_BITS: u32 = 8;
/// Buffer of each spill file.
const SPILL_BUFFER: usize = 64 << 10;

/// A proof being written, record by record.
pub struct ProofWriter {
    path: PathBuf,
    scratch: PathBuf,
    spills: Vec<BufWriter<File>>,
    seen: Seen,
    root: Position,
    winner: Side,
    buf: Vec<u8>,
    cells: usize,
    /// Records written so far (a position written again with a smaller bound counts twice).
    pub written: u64,
    /// Of those, table claims.
    pub claims: u64,
}

/// What a finished proof file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofSummary {
    /// The file.
    pub path: PathBuf,
    /// Records in the file (one a position).
    pub records: u64,
    /// Of those, table claims.
    pub claims: u64,
    /// Bytes of the file.
    pub bytes: u64,
    /// Peak bytes of the set of written positions.
    pub seen_bytes: u64,
}

impl ProofWriter {
    /// Starts the proof that `winner` wins from `root`, to be written to `path`; the
    /// scratch folder `path.spill-PID` is made beside it.
    pub fn create(path: &Path, root: &Position, winner: Side) -> Result<ProofWriter, ProofError> {
        let mut scratch = path.as_os_str().to_owned();
        scratch.push(format!(".spill-{}", std::process::id()));
        let scratch = PathBuf::from(scratch);
        let io = |source| ProofError::Io {
            path: scratch.clone(),
            source,
        };
        std::fs::create_dir_all(&scratch).map_err(io)?;
        let mut w = ProofWriter {
            path: path.to_path_buf(),
            scratch: scratch.clone(),
            spills: Vec::new(),
            seen: Seen::new(),
            root: *root,
            winner,
            buf: vec![0; record_bytes(root.board())],
            cells: cell_bytes(root.board()),
            written: 0,
            claims: 0,
        };
        for i in 0..1usize << SPILL_BITS {
            let f = File::create(w.spill_path(i)).map_err(io)?;
            w.spills.push(BufWriter::with_capacity(SPILL_BUFFER, f));
        }
        Ok(w)
    }

    fn spill_path(&self, i: usize) -> PathBuf {
        self.scratch.join(format!("{i:03}"))
    }

    /// True when `pos` still needs a record proving a win within `bound` plies (none was
    /// written, or only one with a larger bound).
    #[inline]
    pub fn needs(&self, pos: &Position, bound: u32) -> bool {
        let h = position_hash(pos.white(), pos.black(), pos.side());
        self.seen.bound(h).is_none_or(|b| b as u32 > bound)
    }

    /// Writes `record` to its spill file and remembers its position.
    pub fn push(&mut self, record: &Record) -> Result<(), ProofError> {
        let h = record.hash();
        self.seen.set(h, record.bound);
        self.written += 1;
        self.claims += (record.kind == RecordKind::Claim) as u64;
        encode(record, self.cells, &mut self.buf);
        let i = (h >> (64 - SPILL_BITS)) as usize;
        self.spills[i]
            .write_all(&self.buf)
            .map_err(|source| ProofError::Io {
                path: self.spill_path(i),
                source,
            })
    }

    /// Bytes of the set of written positions.
    pub fn seen_bytes(&self) -> u64 {
        self.seen.bytes() as u64
    }

    /// Sorts the spill files into the proof file that `winner` wins within `plies`, named
    /// only once complete; the scratch folder is removed (also on failure).
    pub fn finish(mut self, plies: u32) -> Result<ProofSummary, ProofError> {
        let seen_bytes = self.seen_bytes();
        // The set is not needed any more: its memory goes back before the sort.
        self.seen = Seen::new();
        for (i, s) in self.spills.drain(..).enumerate() {
            s.into_inner()
                .map_err(|e| e.into_error())
                .map_err(|source| ProofError::Io {
                    path: self.scratch.join(format!("{i:03}")),
                    source,
                })?;
        }
        let board = self.root.board();
        let size = record_bytes(board);
        let cells = self.cells;
        let scratch = self.scratch.clone();
        let (mut records, mut claims) = (0, 0);
        let chunks = (0..1usize << SPILL_BITS).map(|i| -> io::Result<Vec<Record>> {
            let p = scratch.join(format!("{i:03}"));
            let mut bytes = Vec::new();
            File::open(&p)?.read_to_end(&mut bytes)?;
            // Each spill file is read once: the disk it held goes back at once.
            std::fs::remove_file(&p)?;
            let mut chunk = Vec::with_capacity(bytes.len() / size);
            for b in bytes.chunks_exact(size) {
                chunk.push(decode(b, cells).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, "a damaged spill file")
                })?);
            }
            sort_records(&mut chunk, true);
            claims += chunk.iter().filter(|r| r.kind == RecordKind::Claim).count() as u64;
            Ok(chunk)
        });
        let (root, winner, written) = (self.root, self.winner, self.written);
        frame::write_atomically(&self.path, |f| {
            records = write_proof(f, &root, winner, plies, written, chunks)?;
            Ok(())
        })
        .map_err(|source| ProofError::Io {
            path: self.path.clone(),
            source,
        })?;
        let bytes = std::fs::metadata(&self.path)
            .map_err(|source| ProofError::Io {
                path: self.path.clone(),
                source,
            })?
            .len();
        Ok(ProofSummary {
            path: self.path.clone(),
            records,
            claims,
            bytes,
            seen_bytes,
        })
    }
}

impl Drop for ProofWriter {
    fn drop(&mut self) {
        // Closes any spill files still open, then removes the scratch folder: nothing of
        // an unfinished proof stays behind.
        self.spills.clear();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Move};

    #[test]
    fn keeps_the_smallest_bound_of_a_position_and_leaves_no_scratch() {
        let board = Board::new(4, 4).unwrap();
        let root = Position::start(board);
        let dir = std::env::temp_dir().join(format!("qs-writer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.proof");
        let mut w = ProofWriter::create(&path, &root, Side::Second).unwrap();
        let mut pos = root;
        pos.make_move(Move { from: 4, to: 8 });
        let a = Record::new(&pos, RecordKind::Move, Move { from: 12, to: 8 }, 7);
        assert!(w.needs(&pos, 7));
        w.push(&a).unwrap();
        assert!(!w.needs(&pos, 7) && !w.needs(&pos, 9) && w.needs(&pos, 5));
        w.push(&Record { bound: 5, ..a }).unwrap();
        assert!(!w.needs(&pos, 5));
        let mut other = root;
        other.make_move(Move { from: 5, to: 9 });
        let b = Record::new(&other, RecordKind::Claim, Move { from: 13, to: 9 }, 3);
        w.push(&b).unwrap();
        assert_eq!((w.written, w.claims), (3, 1));
        let scratch = w.scratch.clone();
        assert!(scratch.is_dir());
        let s = w.finish(9).unwrap();
        assert!(!scratch.exists());
        assert_eq!((s.records, s.claims), (2, 1));
        let p = crate::solve::Proof::read(&path).unwrap();
        assert_eq!((p.root, p.winner, p.plies), (root, Side::Second, 9));
        let mut want = vec![Record { bound: 5, ..a }, b];
        want.sort_by_key(|r| r.hash());
        assert_eq!(p.records, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_writer_dropped_unfinished_leaves_nothing() {
        let root = Position::start(Board::new(4, 4).unwrap());
        let dir = std::env::temp_dir().join(format!("qs-writer-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.proof");
        let w = ProofWriter::create(&path, &root, Side::Second).unwrap();
        drop(w);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
