//! The proof file: the winner's move at every node of a proof that it wins within the
//! stated plies (the loser's moves are all implied), checksummed, written to a temporary
//! file and renamed; reading a damaged file is an error.

use super::frame;
use crate::{Board, Move, Position};
use quasar_core::Side;
use std::io::Write;
use std::path::{Path, PathBuf};

/// First bytes of every proof file.
const MAGIC: &[u8; 8] = b"QSPROOF\0";
/// The format version this code writes and reads.
const VERSION: u32 = 1;
/// Bytes before the records.
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8 + 4 + 8;
/// Bytes of one record.
const RECORD_BYTES: usize = 20;

/// How a record proves its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// The winner plays the move; the position after it is finished or every reply leads
    /// to another record with a smaller bound.
    Move,
    /// A tablebase claim: the winner wins within the bound, re-derived by plain search.
    Claim,
}

/// One winner-to-move position of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The side to move (always the winner).
    pub side: Side,
    /// How it is proved.
    pub kind: RecordKind,
    /// The winner's move (for a claim, the table's move, for information).
    pub mv: Move,
    /// The winner wins within this many plies from here.
    pub bound: u8,
}

impl Record {
    /// A record of `pos`.
    pub fn new(pos: &Position, kind: RecordKind, mv: Move, bound: u32) -> Record {
        Record {
            white: pos.white(),
            black: pos.black(),
            side: pos.side(),
            kind,
            mv,
            bound: bound.min(255) as u8,
        }
    }
}

/// A proof that `winner` wins from `root` within `plies` plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The start of the proof.
    pub root: Position,
    /// The side that wins.
    pub winner: Side,
    /// The winner wins within this many plies.
    pub plies: u32,
    /// The winner-to-move positions, each once.
    pub records: Vec<Record>,
}

/// Why a proof file could not be written, read, or accepted.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
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
        "{path} is not an intact quasar proof file: {msg}; solve again with --proof to rewrite it"
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// The file is intact but proves nothing: the check found a hole.
    #[error("the proof does not hold: {0}")]
    Invalid(String),
}

fn side_byte(s: Side) -> u8 {
    s as u8
}

impl Proof {
    /// The file's bytes, checksum last.
    pub fn to_bytes(&self) -> Vec<u8> {
        let b = self.root.board();
        let mut out = Vec::with_capacity(HEADER_BYTES + self.records.len() * RECORD_BYTES + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&[
            b.width() as u8,
            b.height() as u8,
            side_byte(self.winner),
            side_byte(self.root.side()),
        ]);
        out.extend_from_slice(&self.root.white().to_le_bytes());
        out.extend_from_slice(&self.root.black().to_le_bytes());
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&(self.records.len() as u64).to_le_bytes());
        for r in &self.records {
            out.extend_from_slice(&r.white.to_le_bytes());
            out.extend_from_slice(&r.black.to_le_bytes());
            let kind = match r.kind {
                RecordKind::Move => 0,
                RecordKind::Claim => 1,
            };
            out.extend_from_slice(&[side_byte(r.side) | kind << 1, r.mv.from, r.mv.to, r.bound]);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads the bytes of a file named `path` (for messages).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Proof, ProofError> {
        let bad = |msg: &str| ProofError::Damaged {
            path: path.to_path_buf(),
            msg: msg.to_string(),
        };
        let body = frame::unframe(bytes, MAGIC, VERSION, HEADER_BYTES, "proof")
            .map_err(|msg| bad(&msg))?;
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
        let board =
            Board::new(body[12] as u32, body[13] as u32).map_err(|e| bad(&e.to_string()))?;
        let winner = frame::side_of(body[14]).ok_or_else(|| bad("bad winner"))?;
        let side = frame::side_of(body[15]).ok_or_else(|| bad("bad side to move"))?;
        let root = Position::from_parts(board, u64_at(16), u64_at(24), side)
            .map_err(|e| bad(&format!("bad root position: {e}")))?;
        let plies = u32_at(32);
        let count = u64_at(36);
        let expected = (count as u128) * RECORD_BYTES as u128 + HEADER_BYTES as u128;
        if expected != body.len() as u128 {
            return Err(bad("the record count disagrees with the file size"));
        }
        let mut records = Vec::with_capacity(count as usize);
        for chunk in body[HEADER_BYTES..].chunks_exact(RECORD_BYTES) {
            let w = u64::from_le_bytes(chunk[0..8].try_into().expect("8 bytes"));
            let k = u64::from_le_bytes(chunk[8..16].try_into().expect("8 bytes"));
            let flags = chunk[16];
            let kind = match flags >> 1 {
                0 => RecordKind::Move,
                1 => RecordKind::Claim,
                _ => return Err(bad("a record of unknown kind")),
            };
            records.push(Record {
                white: w,
                black: k,
                side: frame::side_of(flags & 1).expect("one bit"),
                kind,
                mv: Move {
                    from: chunk[17],
                    to: chunk[18],
                },
                bound: chunk[19],
            });
        }
        Ok(Proof {
            root,
            winner,
            plies,
            records,
        })
    }

    /// Writes the file through a temporary file in the same folder, renamed when complete.
    pub fn write(&self, path: &Path) -> Result<(), ProofError> {
        let io = |source| ProofError::Io {
            path: path.to_path_buf(),
            source,
        };
        frame::write_atomically(path, |f| f.write_all(&self.to_bytes())).map_err(io)
    }

    /// Reads a proof file.
    pub fn read(path: &Path) -> Result<Proof, ProofError> {
        let bytes = std::fs::read(path).map_err(|source| ProofError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Proof::from_bytes(&bytes, path)
    }
}
