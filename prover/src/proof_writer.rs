//! Writing a proof as it is found, in bounded memory, so that a stopped run resumes it:
//! each record goes at once to one of 256 spill files (by the top bits of its hash, in the
//! file's record format) in a scratch folder `FILE.partial` beside the proof, and a [`Seen`]
//! set of hashes keeps a position from being written twice.
//!
//! The solver writes a position's record only after the proof below it, so the records
//! written so far are always finished sub-proofs. Every minute, and when the writer is
//! dropped unfinished (an error, a signal), the spill files are flushed and their lengths
//! saved in the folder's `state` file; the next writer of the same proof truncates them to
//! those lengths (a killed run's unsaved tail), rebuilds the set from them and goes on, and
//! the search skips every position already written.
//!
//! At the end each spill file is sorted in memory in turn (one 256th of the proof), its
//! duplicates dropped (a position met again with a smaller bound is written again), and
//! appended to the final file, which gets its name only when complete; the scratch folder
//! goes after that.

use crate::frame;
use crate::instance::ProverPosition;
use crate::proof::{
    decode, encode, position_hash, record_bytes, sort_records, write_proof_file, ProofError,
    Record, Verdict,
};
use crate::seen::Seen;
use crate::RecordKind;
use quasar_core::{Game, Side};
use quasar_file::{self as file, Frame, OutputLock};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Spill files: records go to the one named by their hash's top bits.
const SPILL_BITS: u32 = 8;
/// Spill files in the scratch folder.
const SPILLS: usize = 1 << SPILL_BITS;
/// Buffer of each spill file.
const SPILL_BUFFER: usize = 64 << 10;
/// Time between two saves of the spill files' lengths.
const SAVE_EVERY: Duration = Duration::from_secs(60);
/// Records between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;
/// The scratch folder's file of saved lengths.
const STATE: &str = "state";
/// The state file's frame: magic, version and a CRC-32 of everything before it at the end.
const STATE_FRAME: Frame = frame::sealed_at_end(
    *b"QSPARTIA",
    1,
    &[],
    STATE_HEAD,
    "proof writer state",
    "remove the folder to write the proof afresh",
);

/// A proof being written, record by record.
pub struct ProofWriter<P: ProverPosition> {
    path: PathBuf,
    scratch: PathBuf,
    spills: Vec<BufWriter<File>>,
    /// Bytes written to each spill file (saved by [`ProofWriter::save`]).
    lengths: Vec<u64>,
    /// Each spill file's length at its last sync: an unchanged file is not synced again.
    synced: Vec<u64>,
    seen: Seen,
    root: P,
    winner: Side,
    plies: u32,
    buf: Vec<u8>,
    cells: usize,
    last_save: Instant,
    /// Held while the writer lives: a second writer of the same proof is refused.
    lock: OutputLock,
    /// Records written so far (a position written again with a smaller bound counts twice).
    pub written: u64,
    /// Of those, table claims.
    pub claims: u64,
    /// Of those, records an earlier run had written.
    pub resumed: u64,
}

impl<P: ProverPosition> std::fmt::Debug for ProofWriter<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofWriter")
            .field("path", &self.path)
            .field("root", &self.root)
            .field("winner", &self.winner)
            .field("written", &self.written)
            .finish_non_exhaustive()
    }
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
    /// Records written by an earlier run whose unfinished proof this one resumed.
    pub resumed: u64,
}

/// Spill file `i` of the scratch folder `scratch`.
fn spill_path(scratch: &Path, i: usize) -> PathBuf {
    scratch.join(format!("{i:03}"))
}

/// The scratch folder of the proof to be written to `path`.
pub fn scratch_folder(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

impl<P: ProverPosition> ProofWriter<P> {
    /// Starts the proof that `winner` wins from `root` within `plies` plies, to be written
    /// to `path`, or resumes the one an earlier run left in its scratch folder.
    pub fn open(
        path: &Path,
        root: &P,
        winner: Side,
        plies: u32,
    ) -> Result<ProofWriter<P>, ProofError> {
        let scratch = scratch_folder(path);
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| ProofError::Io { path: p, source }
        };
        // The proof's lock covers its scratch folder too: one writer of both.
        let lock = OutputLock::acquire(path)?;
        std::fs::create_dir_all(&scratch).map_err(io(&scratch))?;
        let unresumable = |msg: String| ProofError::Unresumable {
            path: scratch.clone(),
            msg,
        };
        let fen = root.position_text();
        let state_path = scratch.join(STATE);
        let saved = match std::fs::read(&state_path) {
            Ok(bytes) => read_state::<P>(&bytes, &fen, winner, plies).map_err(unresumable)?,
            // No state: a new proof, or a run killed before its first save.
            Err(e) if e.kind() == io::ErrorKind::NotFound => State::default(),
            Err(e) => return Err(io(&state_path)(e)),
        };
        let cells = root.key_bytes();
        let size = record_bytes(cells) as u64;
        let mut w = ProofWriter {
            path: path.to_path_buf(),
            scratch: scratch.clone(),
            spills: Vec::with_capacity(SPILLS),
            lengths: saved.lengths.clone(),
            synced: saved.lengths.clone(),
            seen: Seen::new(),
            root: *root,
            winner,
            plies,
            buf: vec![0; size as usize],
            cells,
            last_save: Instant::now(),
            lock,
            written: saved.written,
            claims: saved.claims,
            resumed: saved.written,
        };
        let mut bytes = Vec::new();
        for (i, &len) in saved.lengths.iter().enumerate() {
            let p = w.spill_path(i);
            let mut f = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&p)
                .map_err(io(&p))?;
            let on_disk = f.metadata().map_err(io(&p))?.len();
            if on_disk < len || len % size != 0 {
                return Err(unresumable(format!(
                    "spill file {i:03} has {on_disk} bytes, the state says {len}"
                )));
            }
            // A killed run's records after its last save: not known to be finished.
            f.set_len(len).map_err(io(&p))?;
            bytes.clear();
            f.read_to_end(&mut bytes).map_err(io(&p))?;
            for b in bytes.chunks_exact(size as usize) {
                let r = decode(b, cells)
                    .ok_or_else(|| unresumable(format!("spill file {i:03} is damaged")))?;
                w.seen.set(r.hash(), r.bound);
            }
            f.seek(SeekFrom::End(0)).map_err(io(&p))?;
            w.spills.push(BufWriter::with_capacity(SPILL_BUFFER, f));
        }
        Ok(w)
    }

    fn spill_path(&self, i: usize) -> PathBuf {
        spill_path(&self.scratch, i)
    }

    /// True when `pos` still needs a record proving a win within `bound` plies (none was
    /// written, or only one with a larger bound).
    #[inline]
    pub fn needs(&self, pos: &P, bound: u32) -> bool {
        let key = pos.raw_key();
        let h = position_hash(key.a, key.b, pos.side_to_move());
        self.seen.bound(h).is_none_or(|b| b as u32 > bound)
    }

    /// The bound `pos` was written with, if it was.
    #[inline]
    pub fn written_bound(&self, pos: &P) -> Option<u32> {
        let key = pos.raw_key();
        let h = position_hash(key.a, key.b, pos.side_to_move());
        self.seen.bound(h).map(u32::from)
    }

    /// States the bound the finished proof holds (a tight proof learns it while written).
    pub fn set_plies(&mut self, plies: u32) {
        self.plies = plies;
    }

    /// Writes `record`, whose proof below must already be written, to its spill file and
    /// remembers its position.
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
            })?;
        self.lengths[i] += self.buf.len() as u64;
        if self.written % CLOCK_EVERY == 0 && self.last_save.elapsed() >= SAVE_EVERY {
            self.save()?;
        }
        Ok(())
    }

    /// Flushes and syncs the spill files, then saves their lengths: a later run resumes
    /// from here.
    fn save(&mut self) -> Result<(), ProofError> {
        for (i, s) in self.spills.iter_mut().enumerate() {
            let p = spill_path(&self.scratch, i);
            // A sync costs milliseconds even of an unchanged file: a small proof's 256 of
            // them took most of its writing time.
            let changed = self.lengths[i] != self.synced[i];
            s.flush()
                .and_then(|()| match changed {
                    true => s.get_ref().sync_data(),
                    false => Ok(()),
                })
                .map_err(|source| ProofError::Io { path: p, source })?;
        }
        self.synced.clone_from(&self.lengths);
        let state = State {
            lengths: self.lengths.clone(),
            written: self.written,
            claims: self.claims,
        };
        let bytes = write_state(&state, &self.root.position_text(), self.winner, self.plies);
        let path = self.scratch.join(STATE);
        file::write_with(&path, &self.lock, |f| f.write_all(&bytes))?;
        self.last_save = Instant::now();
        Ok(())
    }

    /// Bytes of the set of written positions.
    pub fn seen_bytes(&self) -> u64 {
        self.seen.bytes() as u64
    }

    /// Sorts the spill files into the proof file, named only once complete; the scratch
    /// folder is removed after that (on failure it stays, saved, for the next run).
    pub fn finish(mut self) -> Result<ProofSummary, ProofError> {
        if self.last_save.elapsed() >= SAVE_EVERY {
            self.save()?;
        } else {
            // Written within the last minute: a failure below loses no more than a kill
            // between two saves would, and a small proof (a job's) skips the syncs.
            for (i, s) in self.spills.iter_mut().enumerate() {
                s.flush().map_err(|source| ProofError::Io {
                    path: spill_path(&self.scratch, i),
                    source,
                })?;
            }
        }
        let seen_bytes = self.seen_bytes();
        // The set is not needed any more: its memory goes back before the sort.
        self.seen = Seen::new();
        // Closed here, so that a failure below leaves the state just saved as it is.
        self.spills.clear();
        let cells = self.cells;
        let size = record_bytes(cells);
        let scratch = self.scratch.clone();
        let chunks = (0..SPILLS).map(|i| -> io::Result<Vec<Record>> {
            let p = spill_path(&scratch, i);
            let bytes = std::fs::read(&p)?;
            let mut chunk = Vec::with_capacity(bytes.len() / size);
            for b in bytes.chunks_exact(size) {
                chunk.push(decode(b, cells).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, "a damaged spill file")
                })?);
            }
            sort_records(&mut chunk, true);
            Ok(chunk)
        });
        let summary = write_proof_file(
            &self.path,
            &self.lock,
            &self.root,
            Verdict::Win {
                winner: self.winner,
                plies: self.plies,
            },
            self.written,
            chunks,
        )?;
        std::fs::remove_dir_all(&self.scratch).map_err(|source| ProofError::Io {
            path: self.scratch.clone(),
            source,
        })?;
        Ok(ProofSummary {
            seen_bytes,
            resumed: self.resumed,
            ..summary
        })
    }
}

impl<P: ProverPosition> Drop for ProofWriter<P> {
    fn drop(&mut self) {
        // Unfinished (an error or a signal stopped the solve): what is written is saved
        // for the next run. A failed save leaves the last one, which is still good.
        if !self.spills.is_empty() {
            let _ = self.save();
        }
    }
}

/// What the state file holds besides the proof it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    /// Bytes of each spill file that hold finished sub-proofs.
    lengths: Vec<u64>,
    /// Records in them.
    written: u64,
    /// Of those, table claims.
    claims: u64,
}

impl Default for State {
    fn default() -> Self {
        State {
            lengths: vec![0; SPILLS],
            written: 0,
            claims: 0,
        }
    }
}

/// Bytes of the state file's fixed part: magic, version, plies, winner, written, claims,
/// the length of the root's text.
const STATE_HEAD: usize = 8 + 4 + 4 + 1 + 8 + 8 + 2;

/// The state file of `state` for the proof that `winner` wins from `fen` within `plies`.
fn write_state(state: &State, fen: &str, winner: Side, plies: u32) -> Vec<u8> {
    let mut b = Vec::with_capacity(STATE_HEAD + fen.len() + 8 * SPILLS + 4);
    b.extend_from_slice(&STATE_FRAME.header()[..12]);
    b.extend_from_slice(&plies.to_le_bytes());
    b.push(winner as u8);
    b.extend_from_slice(&state.written.to_le_bytes());
    b.extend_from_slice(&state.claims.to_le_bytes());
    b.extend_from_slice(&(fen.len() as u16).to_le_bytes());
    b.extend_from_slice(fen.as_bytes());
    for l in &state.lengths {
        b.extend_from_slice(&l.to_le_bytes());
    }
    STATE_FRAME.seal(&mut b);
    b
}

/// The state in `bytes` when it is intact and belongs to the proof that `winner` wins from
/// `fen` within `plies`; else why not.
fn read_state<P: Game>(bytes: &[u8], fen: &str, winner: Side, plies: u32) -> Result<State, String> {
    let h = STATE_FRAME.open(bytes).map_err(|e| e.to_string())?;
    let body = h.all();
    let theirs_plies = h.u32(12);
    let theirs_winner = frame::side_of(h.u8(16)).ok_or("an unknown winner")?;
    let fen_len = h.u16(33) as usize;
    if body.len() != STATE_HEAD + fen_len + 8 * SPILLS {
        return Err("its length does not match its contents".into());
    }
    let theirs_fen = std::str::from_utf8(&body[STATE_HEAD..STATE_HEAD + fen_len])
        .map_err(|_| "its root is not text")?;
    if (theirs_fen, theirs_winner, theirs_plies) != (fen, winner, plies) {
        return Err(format!(
            "it holds the proof that {} wins from {theirs_fen} within {theirs_plies} \
             plies, not that {} wins from {fen} within {plies}",
            P::side_name(theirs_winner),
            P::side_name(winner)
        ));
    }
    let lengths = (0..SPILLS)
        .map(|i| h.u64(STATE_HEAD + fen_len + 8 * i))
        .collect();
    Ok(State {
        lengths,
        written: h.u64(17),
        claims: h.u64(25),
    })
}

impl<P: ProverPosition> ProofWriter<P> {
    /// Ends the writer as a killed process would: the buffered records reach the files
    /// but their lengths are not saved (for tests).
    #[doc(hidden)]
    pub fn kill(mut self) {
        for s in &mut self.spills {
            let _ = s.flush();
        }
        self.spills.clear();
    }

    /// The scratch folder (for tests).
    #[doc(hidden)]
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }

    /// Saves the spill files' lengths now (for tests).
    #[doc(hidden)]
    pub fn save_now(&mut self) -> Result<(), ProofError> {
        self.save()
    }
}
