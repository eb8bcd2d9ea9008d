//! The solver's checkpoint file: the phase, the bound being tested, the transposition
//! table's most expensive entries (every entry is a fact about its position, so any subset
//! is a sound start) and the root's children's proof and disproof numbers as df-pn left
//! them, checksummed, written to a temporary file and renamed.

use crate::frame;
use crate::instance::ProverPosition;
use crate::tt::{Key, Table};
use quasar_core::Side;
use quasar_file::{self as file, FileError, Frame, OutputLock};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bytes before the entries.
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8 + 4 + 4 + 8 + 8 + 8;
/// The frame of a checkpoint file: magic, version and a CRC-32 of everything before it
/// at the end. Version 2 added the root's children after the entries.
const FRAME: Frame = frame::sealed_at_end(
    *b"QSCHECK\0",
    2,
    &[],
    HEADER_BYTES,
    "quasar solve checkpoint",
    "delete it to start afresh",
);
/// The frame of the first version, read still: the same file without the root's children.
const FRAME_V1: Frame = frame::sealed_at_end(
    *b"QSCHECK\0",
    1,
    &[],
    HEADER_BYTES,
    "quasar solve checkpoint",
    "delete it to start afresh",
);
/// Bytes of one entry.
const ENTRY_BYTES: usize = 24;
/// At most this many entries go into a file (the most expensive ones): 384 MiB.
pub const MAX_ENTRIES: usize = 16 << 20;
/// Bytes of one root child: its key's words, side and three zero bytes, its numbers.
const CHILD_BYTES: usize = 8 + 8 + 4 + 4 + 4;
/// At most this many root children are read (far more moves than any game has).
pub const MAX_CHILDREN: usize = 1 << 16;

/// The largest checkpoint file: the header, the most entries, the count and the most root
/// children, and the checksum.
const MAX_FILE_BYTES: u64 =
    (HEADER_BYTES + MAX_ENTRIES * ENTRY_BYTES + 8 + MAX_CHILDREN * CHILD_BYTES + 4) as u64;

/// Nodes between two looks at the clock and the interrupt flag.
const POLL_EVERY: u64 = 1 << 16;

/// When a search saves its state and when it stops: it calls [`Saver::tick`] once a node.
#[derive(Debug)]
pub struct Saver<'a> {
    path: Option<PathBuf>,
    /// The checkpoint's lock, held for the whole run when given.
    lock: Option<OutputLock>,
    every: Duration,
    last: Instant,
    stop_after: Option<u64>,
    ticks: u64,
    /// Raised from outside (a signal handler) to stop with a last save.
    interrupt: Option<&'a AtomicBool>,
    /// Set once the search must unwind (asked to stop, or a save failed).
    pub stopped: bool,
    /// Set when the search stopped because the interrupt flag was raised.
    pub interrupted: bool,
    /// The failed save, if one failed.
    pub error: Option<CheckpointError>,
}

impl<'a> Saver<'a> {
    /// Saves to `path` every `every` (when there is a path) and stops after `stop_after`
    /// nodes of this run, with a last save.
    pub fn new(path: Option<&Path>, every: Duration, stop_after: Option<u64>) -> Saver<'a> {
        Saver {
            path: path.map(Path::to_path_buf),
            lock: None,
            every,
            last: Instant::now(),
            stop_after,
            ticks: 0,
            interrupt: None,
            stopped: false,
            interrupted: false,
            error: None,
        }
    }

    /// Also stops, with a last save, once `flag` is raised (looked at every 65,536 nodes,
    /// where the clock is read).
    pub fn interruptible(mut self, flag: Option<&'a AtomicBool>) -> Saver<'a> {
        self.interrupt = flag;
        self
    }

    /// Writes under `lock` (the checkpoint's, taken before it was read), held until the
    /// saver drops, so that two runs never share one checkpoint.
    pub fn holding(mut self, lock: Option<OutputLock>) -> Saver<'a> {
        self.lock = lock;
        self
    }

    /// Counts a node; `Some(stop)` when a checkpoint is due (`stop`: the last one).
    #[inline]
    pub fn tick(&mut self) -> Option<bool> {
        self.ticks += 1;
        if self.stop_after.is_some_and(|n| self.ticks >= n) {
            return Some(true);
        }
        // The clock and the flag are read every 65,536 nodes only: a node costs well under
        // a microsecond, so a signal is answered within a fraction of a second.
        if self.ticks % POLL_EVERY != 0 {
            return None;
        }
        if self.interrupt_raised() {
            self.interrupted = true;
            return Some(true);
        }
        (self.path.is_some() && self.last.elapsed() >= self.every).then_some(false)
    }

    /// Drops the node limit: the work after a search that ended within it (its proof)
    /// goes to its end.
    pub fn lift_stop_after(&mut self) {
        self.stop_after = None;
    }

    /// True once the interrupt flag is raised (for work that does not tick, such as
    /// writing the proof).
    pub fn interrupt_raised(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// True when there is a file to save to.
    pub fn saves(&self) -> bool {
        self.path.is_some()
    }

    /// Writes `checkpoint` (when there is a file), and stops the search when `stop` or
    /// when the write fails.
    pub fn save<P: ProverPosition>(&mut self, checkpoint: &Checkpoint<P>, stop: bool) {
        if let Some(path) = &self.path {
            let written = match &self.lock {
                Some(lock) => checkpoint.write_under(path, lock),
                None => checkpoint.write(path),
            };
            if let Err(e) = written {
                self.error = Some(e);
                self.stopped = true;
            }
        }
        self.last = Instant::now();
        self.stopped |= stop;
    }

    /// Stops the search when `stop`, with nothing to write.
    pub fn save_nothing(&mut self, stop: bool) {
        self.last = Instant::now();
        self.stopped |= stop;
    }

    /// The file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

/// Where the solve stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// df-pn was looking for the winner.
    Winner,
    /// The length search for `winner` was testing `bound` plies.
    Length {
        /// The side df-pn proved the winner.
        winner: Side,
        /// The bound being tested (every smaller one failed).
        bound: u32,
    },
    /// In a game that may draw, the search for a win of `attacker` (see
    /// [`crate::draws::value`]); its entries' `a` is 1 for the attacker's wins. Then
    /// `winner_nodes` counts the search for the side to move, `length_nodes` the search
    /// for its opponent, which runs only once the first found no win.
    Attack {
        /// The side whose win is searched for.
        attacker: Side,
    },
}

/// One table entry: for df-pn `a` is 1 when the side to move wins (a solved position);
/// for the length search `a` and `b` are the bounds `lo < dist <= hi`. `mv` is the hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position.
    pub key: Key,
    /// The first value byte.
    pub a: u8,
    /// The second value byte.
    pub b: u8,
    /// The move to try first (in the key's orientation), as the game codes it (0: none).
    pub mv: u16,
    /// The nodes spent on it.
    pub work: u32,
}

/// A child of the solve's root with the proof and disproof numbers df-pn last stored for
/// it, for its own side to move (a solved child: 0 and [`crate::dfpn::INF`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootChild {
    /// The child ([`ProverPosition::raw_key`]: no symmetry, so it names the position).
    pub key: Key,
    /// Its proof number.
    pub pn: u32,
    /// Its disproof number.
    pub dn: u32,
}

/// A solve's saved state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint<P> {
    /// The position being solved.
    pub root: P,
    /// The phase.
    pub phase: Phase,
    /// df-pn's nodes so far (all runs).
    pub winner_nodes: u64,
    /// The length search's nodes so far (all runs).
    pub length_nodes: u64,
    /// The table entries kept.
    pub entries: Vec<Entry>,
    /// The root's children that df-pn had numbers for when it last stored them (kept
    /// through the length search; empty for other searches and first-version files).
    pub children: Vec<RootChild>,
}

/// Why a checkpoint could not be written, read, or used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file layer refused the file (not a regular file, too large, another run's).
    #[error(transparent)]
    File(#[from] FileError),
    /// The file system refused.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The bytes are not an intact checkpoint.
    #[error("{path} is not an intact quasar solve checkpoint: {msg}; delete it to start over")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// An intact checkpoint of another game's solve, or of another kind of search.
    #[error("{path} is the checkpoint of {what}; give this solve another --checkpoint")]
    OtherSearch {
        /// The file.
        path: PathBuf,
        /// Whose checkpoint it is.
        what: String,
    },
    /// The checkpoint is of another solve.
    #[error("{path} is the checkpoint of {theirs}, not of {ours}; name another file or delete it")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The position it saved.
        theirs: String,
        /// The position asked for.
        ours: String,
    },
}

/// The power-of-two class of a work count (0 for none).
#[inline]
pub fn work_class(work: u32) -> usize {
    32 - work.leading_zeros() as usize
}

impl CheckpointError {
    /// The checkpoint at `path` (none: the empty path) holds a search of another kind
    /// than the one asked for, described by `what`.
    pub(crate) fn other_search(path: Option<&Path>, what: &str) -> CheckpointError {
        CheckpointError::OtherSearch {
            path: path.unwrap_or(Path::new("")).to_path_buf(),
            what: what.to_string(),
        }
    }
}

/// The least work class to keep so that at most `max` entries of the given works are kept
/// (the most expensive: the cheap ones are quick to search again). Counting first lets a
/// table too big to copy whole be saved without a copy of every entry.
pub fn least_class_kept(works: impl Iterator<Item = u32>, max: usize) -> usize {
    let mut counts = [0usize; 33];
    for w in works {
        counts[work_class(w)] += 1;
    }
    let mut kept = 0;
    let mut floor = 33;
    while floor > 0 && kept + counts[floor - 1] <= max {
        floor -= 1;
        kept += counts[floor];
    }
    floor
}

/// The most expensive solved entries of `tt`, at most [`MAX_ENTRIES`]: `solved` gives, for
/// a solved value, whether the side it is for wins and the move to try first.
pub fn solved_entries<V: Copy + Default>(
    tt: &Table<V>,
    solved: impl Fn(&V) -> Option<(bool, u16)>,
) -> Vec<Entry> {
    let floor = least_class_kept(
        tt.entries_with_work()
            .filter(|e| solved(&e.1).is_some())
            .map(|e| e.2),
        MAX_ENTRIES,
    );
    tt.entries_with_work()
        .filter(|e| work_class(e.2) >= floor)
        .filter_map(|(key, v, work)| {
            let (won, mv) = solved(&v)?;
            Some(Entry {
                key,
                a: won as u8,
                b: 0,
                mv,
                work,
            })
        })
        .collect()
}

impl<P: ProverPosition> Checkpoint<P> {
    /// The checkpoint of a solve of `root` at `path` (none: no checkpoint asked for), its
    /// lock taken first and held by the caller to the end, so that two runs never share
    /// one; the saved state when the file exists, `None` for a fresh start.
    pub fn open(
        path: Option<&Path>,
        root: &P,
    ) -> Result<(Option<OutputLock>, Option<Checkpoint<P>>), CheckpointError> {
        let Some(path) = path else {
            return Ok((None, None));
        };
        let lock = OutputLock::acquire(path)?;
        let saved = Checkpoint::read(path)?;
        if let Some(c) = &saved {
            c.matches(root, path)?;
        }
        Ok((Some(lock), saved))
    }

    fn header(&self) -> Vec<u8> {
        let [p0, p1] = self.root.params();
        let key = self.root.raw_key();
        let mut out = FRAME.header();
        out.truncate(12);
        out.extend_from_slice(&[p0, p1, self.root.side_to_move() as u8, 0]);
        out.extend_from_slice(&key.a.to_le_bytes());
        out.extend_from_slice(&key.b.to_le_bytes());
        let (phase, winner, bound) = match self.phase {
            Phase::Winner => (0u32, 0u8, 0u32),
            Phase::Length { winner, bound } => (1, winner as u8, bound),
            Phase::Attack { attacker } => (2, attacker as u8, 0),
        };
        out.extend_from_slice(&(phase | (winner as u32) << 8).to_le_bytes());
        out.extend_from_slice(&bound.to_le_bytes());
        out.extend_from_slice(&self.winner_nodes.to_le_bytes());
        out.extend_from_slice(&self.length_nodes.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        out
    }

    /// Writes the file through a temporary file in the same folder, renamed when complete,
    /// so a crash mid-write leaves the previous checkpoint intact.
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        self.write_under(path, &OutputLock::acquire(path)?)
    }

    /// Writes the file as [`Checkpoint::write`] does, under the `lock` already held.
    pub fn write_under(&self, path: &Path, lock: &OutputLock) -> Result<(), CheckpointError> {
        file::write_with(path, lock, |f| {
            let mut crc = crc32fast::Hasher::new();
            let header = self.header();
            crc.update(&header);
            f.write_all(&header)?;
            let mut buf = [0u8; ENTRY_BYTES];
            for e in &self.entries {
                buf[0..8].copy_from_slice(&e.key.a.to_le_bytes());
                buf[8..16].copy_from_slice(&e.key.b.to_le_bytes());
                let [m0, m1] = e.mv.to_le_bytes();
                buf[16..20].copy_from_slice(&[e.key.side, e.a, e.b, m0]);
                buf[20] = m1;
                buf[21..24].copy_from_slice(&e.work.min(0xFF_FFFF).to_le_bytes()[..3]);
                crc.update(&buf);
                f.write_all(&buf)?;
            }
            let count = (self.children.len() as u64).to_le_bytes();
            crc.update(&count);
            f.write_all(&count)?;
            for c in &self.children {
                let mut w = quasar_file::FieldWriter::new();
                w.u64(c.key.a).u64(c.key.b).u8(c.key.side).bytes(&[0; 3]);
                w.u32(c.pn).u32(c.dn);
                let b = w.into_bytes();
                debug_assert_eq!(b.len(), CHILD_BYTES);
                crc.update(&b);
                f.write_all(&b)?;
            }
            f.write_all(&crc.finalize().to_le_bytes())
        })?;
        Ok(())
    }

    /// Reads a checkpoint file, `None` when there is none yet.
    pub fn read(path: &Path) -> Result<Option<Checkpoint<P>>, CheckpointError> {
        let bytes = match file::read(path, MAX_FILE_BYTES, "solve checkpoint") {
            Ok(b) => b,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Checkpoint::from_bytes(&bytes, path).map(Some)
    }

    /// Parses the bytes of the file named `path` (for messages).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Checkpoint<P>, CheckpointError> {
        let bad = |msg: &str| CheckpointError::Damaged {
            path: path.to_path_buf(),
            msg: msg.to_string(),
        };
        // A first-version file (its version word at bytes 8 to 11) has no root children.
        let first = bytes.get(8..12) == Some(&1u32.to_le_bytes()[..]);
        let frame = if first { FRAME_V1 } else { FRAME };
        let h = frame.open(bytes).map_err(|e| bad(&e.to_string()))?;
        let body = h.all();
        if !frame::of_game::<P>(&h) {
            return Err(CheckpointError::other_search(
                Some(path),
                "another game's solve",
            ));
        }
        let root = frame::root_of::<P>(h, 14).map_err(|e| bad(&e))?;
        let phase_word = h.u32(32);
        let bound = h.u32(36);
        let phase = match phase_word & 0xFF {
            0 => Phase::Winner,
            1 => Phase::Length {
                winner: frame::side_of((phase_word >> 8) as u8).ok_or_else(|| bad("bad winner"))?,
                bound,
            },
            2 => Phase::Attack {
                attacker: frame::side_of((phase_word >> 8) as u8)
                    .ok_or_else(|| bad("bad attacker"))?,
            },
            _ => return Err(bad("unknown phase")),
        };
        let winner_nodes = h.u64(40);
        let length_nodes = h.u64(48);
        let count = h.u64(56);
        let entries_end = count as u128 * ENTRY_BYTES as u128 + HEADER_BYTES as u128;
        let children_count = match first {
            true => 0,
            false => body
                .get(entries_end.min(body.len() as u128) as usize..)
                .and_then(|rest| rest.get(..8))
                .map_or(u64::MAX, |c| {
                    u64::from_le_bytes(c.try_into().expect("8 bytes"))
                }),
        };
        let children_bytes = match first {
            true => 0,
            false => 8 + children_count as u128 * CHILD_BYTES as u128,
        };
        if children_count > MAX_CHILDREN as u64
            || entries_end + children_bytes != body.len() as u128
        {
            return Err(bad("the entry count disagrees with the file size"));
        }
        let entries_end = entries_end as usize;
        let mut entries = Vec::with_capacity(count as usize);
        for c in body[HEADER_BYTES..entries_end].chunks_exact(ENTRY_BYTES) {
            let key = Key {
                a: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                b: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
                side: c[16],
            };
            if key.side > 1 || root.with_key(&key).is_err() {
                return Err(bad("an entry holds no position"));
            }
            entries.push(Entry {
                key,
                a: c[17],
                b: c[18],
                mv: u16::from_le_bytes([c[19], c[20]]),
                work: u32::from_le_bytes([c[21], c[22], c[23], 0]),
            });
        }
        let mut children = Vec::with_capacity(children_count as usize);
        if !first {
            for c in body[entries_end + 8..].chunks_exact(CHILD_BYTES) {
                let mut f = quasar_file::FieldReader::new(c);
                let (a, b, side) = (f.u64(), f.u64(), f.u8());
                let (_, pn, dn) = (f.bytes(3), f.u32(), f.u32());
                let (Some(a), Some(b), Some(side), Some(pn), Some(dn)) = (a, b, side, pn, dn)
                else {
                    return Err(bad("a root child is cut short"));
                };
                let key = Key { a, b, side };
                if key.side > 1 || root.with_key(&key).is_err() {
                    return Err(bad("a root child holds no position"));
                }
                children.push(RootChild { key, pn, dn });
            }
        }
        Ok(Checkpoint {
            root,
            phase,
            winner_nodes,
            length_nodes,
            entries,
            children,
        })
    }

    /// Accepts the checkpoint for a solve of `root`, or says whose it is.
    pub fn matches(&self, root: &P, path: &Path) -> Result<(), CheckpointError> {
        if self.root == *root {
            Ok(())
        } else {
            Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                theirs: self.root.long_text(),
                ours: root.long_text(),
            })
        }
    }
}
