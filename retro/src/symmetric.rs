//! Solving a game whose two sides are images of each other (a colour swap maps the second
//! player's positions onto the first's) over the positions of one side to move only, half
//! the space, by layered retrograde analysis with counters (negamax: every value is the
//! side to move's). For state spaces too large for a move graph: it needs unmoves, one byte
//! of counter and two of value per position, no lists of positions (each layer is a sweep
//! over the values), and it can checkpoint after a layer so a killed run resumes.

use crate::packed::{bits_for, PackedArray};
use crate::progress::ProgressFn;
use quasar_file::frame::put_u64;
use quasar_file::{self as file, FileError, Frame, OutputLock, Seal};
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// A game over the positions of one side to move, each child and parent given as the image
/// that has this side to move again (values are the side to move's: a child's win is its
/// parent's loss).
pub trait MirrorGame: Sync {
    /// Positions with the canonical side to move, numbered from 0.
    fn size(&self) -> u64;
    /// Whether the side to move has lost already (a finished position; no other ends).
    fn lost(&self, pos: u64) -> bool;
    /// The number of moves of an unfinished position (at most 255).
    fn child_count(&self, pos: u64) -> u32;
    /// Clears `out` and writes the canonical image of every position with a move to `pos`
    /// (once per move), leaving out finished ones.
    fn predecessors(&self, pos: u64, out: &mut Vec<u64>);
}

/// What a [`solve_mirror`] run found and did.
#[derive(Clone, Debug, PartialEq)]
pub struct MirrorReport {
    /// Positions solved (one side to move).
    pub positions: u64,
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// Positions neither side can force (draws).
    pub draws: u64,
    /// Child counts taken (one forward expansion per unfinished position).
    pub forward_expansions: u64,
    /// Predecessor generations (one per decided position).
    pub backward_expansions: u64,
    /// Layers (plies from the end) swept, counting from the finished positions.
    pub layers: u64,
    /// The layer this run resumed after, when it resumed from a checkpoint.
    pub resumed_after: Option<u64>,
    /// Wall-clock seconds of this run.
    pub seconds: f64,
    /// The longest win or loss, in plies.
    pub max_plies: u32,
}

/// Why a solve stopped.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    /// The file layer refused the checkpoint (not a regular file, damaged, another run's).
    #[error("checkpoint {0}")]
    File(#[from] FileError),
    /// The checkpoint could not be read or written.
    #[error("checkpoint {path}: {source}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A checkpoint of another game or size.
    #[error("checkpoint {0}: it belongs to another solve (another size); delete it to start over")]
    Foreign(PathBuf),
    /// A position with more moves than a counter holds.
    #[error("a position has {0} moves, more than the 255 a counter holds")]
    TooManyMoves(u32),
}

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct MirrorOptions {
    /// Where to keep a checkpoint (resumed from when present, removed when done).
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (0: after every layer).
    pub checkpoint_every: f64,
}

/// The solved values: 0 undecided (draw), 1 the side to move wins, 2 it loses; and plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorTable {
    /// 0: draw, 1: the side to move wins, 2: it loses.
    pub results: PackedArray,
    /// Plies to the end with best play (exact: the winner hurries, the loser delays).
    pub plies: PackedArray,
}

// A value word: 0 unknown, else (plies + 1) << 1 | win.
#[inline]
fn code(win: bool, plies: u32) -> u16 {
    (((plies + 1) << 1) | win as u32) as u16
}
#[inline]
fn plies_of(c: u16) -> u32 {
    (c as u32 >> 1) - 1
}

const BLOCK: u64 = 1 << 14;
/// The magic of checkpoints before they had a framed header; such a file is named, not read.
const OLD_MAGIC: &[u8; 8] = b"QRTMIRR1";

/// Bytes of a checkpoint's header: magic, version, positions (u64 at 12), the layer
/// finished (u64 at 20), the header's CRC-32. The body (values, then counters) ends with a
/// CRC-32 of itself, so one pass writes it.
const HEADER: usize = 32;

/// A checkpoint's frame: the header is checked before the size, the body as it is read.
const FRAME: Frame = Frame {
    magic: *b"QRTCKPNT",
    version: 2,
    older: &[],
    header_bytes: HEADER,
    seal: Seal::HeaderEnd,
    what: "quasar retrograde checkpoint",
    remedy: "delete it to start over, or give --checkpoint another path",
};

/// Solves every position of `game`.
pub fn solve_mirror<G: MirrorGame + ?Sized>(
    game: &G,
    options: &MirrorOptions,
    progress: ProgressFn<'_>,
) -> Result<(MirrorTable, MirrorReport), MirrorError> {
    let start = Instant::now();
    let n = game.size();
    let mut report = MirrorReport {
        positions: n,
        wins: 0,
        losses: 0,
        draws: 0,
        forward_expansions: 0,
        backward_expansions: 0,
        layers: 0,
        resumed_after: None,
        seconds: 0.0,
        max_plies: 0,
    };
    // Taken before any work and held to the end: a bad path costs nothing, and two runs
    // never share one checkpoint.
    let lock = match &options.checkpoint {
        Some(p) => Some(OutputLock::acquire(p)?),
        None => None,
    };
    let resumed = match &options.checkpoint {
        Some(p) => load_checkpoint(p, n)?,
        None => None,
    };
    let (values, counts, mut layer) = match resumed {
        Some((v, c, layer)) => {
            report.resumed_after = Some(layer);
            (v, c, layer + 1)
        }
        None => {
            let values: Vec<AtomicU16> = (0..n)
                .into_par_iter()
                .map(|p| AtomicU16::new(if game.lost(p) { code(false, 0) } else { 0 }))
                .collect();
            let too_many = std::sync::atomic::AtomicU32::new(0);
            let counts: Vec<AtomicU8> = (0..n)
                .into_par_iter()
                .map(|p| {
                    let k = if values[p as usize].load(Relaxed) != 0 {
                        0
                    } else {
                        game.child_count(p)
                    };
                    if k > 255 {
                        too_many.fetch_max(k, Relaxed);
                    }
                    AtomicU8::new(k as u8)
                })
                .collect();
            if too_many.load(Relaxed) > 0 {
                return Err(MirrorError::TooManyMoves(too_many.load(Relaxed)));
            }
            report.forward_expansions = n;
            (values, counts, 0u64)
        }
    };
    let mut last_save = Instant::now();
    loop {
        let l = layer as u32;
        let (backward, solved) = (0..n.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let mut preds = Vec::new();
                let (mut back, mut solved) = (0u64, 0u64);
                for s in b * BLOCK..((b + 1) * BLOCK).min(n) {
                    let c = values[s as usize].load(Relaxed);
                    if c == 0 || plies_of(c) != l {
                        continue;
                    }
                    back += 1;
                    let child_wins = c & 1 == 1;
                    game.predecessors(s, &mut preds);
                    for &p in &preds {
                        let cell = &values[p as usize];
                        if cell.load(Relaxed) != 0 {
                            continue;
                        }
                        // A child lost for its mover wins the parent at once; a parent
                        // whose every child wins for the opponent is lost (the last decides).
                        let settle = !child_wins || counts[p as usize].fetch_sub(1, Relaxed) == 1;
                        if settle
                            && cell
                                .compare_exchange(0, code(!child_wins, l + 1), Relaxed, Relaxed)
                                .is_ok()
                        {
                            solved += 1;
                        }
                    }
                }
                (back, solved)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        report.backward_expansions += backward;
        report.layers = layer + 1;
        crate::progress::report(progress, "mirror layer", layer + 1, 0, n);
        if backward == 0 && solved == 0 {
            break;
        }
        if let (Some(path), Some(lock)) = (&options.checkpoint, &lock) {
            if last_save.elapsed().as_secs_f64() >= options.checkpoint_every {
                save_checkpoint(path, lock, &values, &counts, layer)?;
                last_save = Instant::now();
            }
        }
        layer += 1;
    }
    let max_plies = values
        .par_iter()
        .map(|c| match c.load(Relaxed) {
            0 => 0,
            c => plies_of(c),
        })
        .max()
        .unwrap_or(0);
    let mut results = PackedArray::new(2, n);
    let mut plies = PackedArray::new(bits_for(max_plies as u64), n);
    for (p, c) in values.iter().enumerate() {
        let c = c.load(Relaxed);
        if c == 0 {
            report.draws += 1;
            continue;
        }
        let win = c & 1 == 1;
        results.set(p as u64, if win { 1 } else { 2 });
        plies.set(p as u64, plies_of(c));
        if win {
            report.wins += 1;
        } else {
            report.losses += 1;
        }
    }
    report.max_plies = max_plies;
    report.seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &options.checkpoint {
        let _ = std::fs::remove_file(path);
    }
    Ok((MirrorTable { results, plies }, report))
}

/// Writes values, counters and the layer finished atomically (see [`quasar_file`]),
/// so a run killed while saving keeps the previous checkpoint.
fn save_checkpoint(
    path: &Path,
    lock: &OutputLock,
    values: &[AtomicU16],
    counts: &[AtomicU8],
    layer: u64,
) -> Result<(), MirrorError> {
    let mut head = FRAME.header();
    put_u64(&mut head, 12, values.len() as u64);
    put_u64(&mut head, 20, layer);
    FRAME.seal(&mut head);
    file::write_with(path, lock, |f| {
        f.write_all(&head)?;
        let mut crc = crc32fast::Hasher::new();
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in values.chunks(1 << 19) {
            buf.clear();
            for v in chunk {
                buf.extend_from_slice(&v.load(Relaxed).to_le_bytes());
            }
            crc.update(&buf);
            f.write_all(&buf)?;
        }
        for chunk in counts.chunks(1 << 20) {
            buf.clear();
            buf.extend(chunk.iter().map(|c| c.load(Relaxed)));
            crc.update(&buf);
            f.write_all(&buf)?;
        }
        f.write_all(&crc.finalize().to_le_bytes())
    })?;
    Ok(())
}

type Loaded = (Vec<AtomicU16>, Vec<AtomicU8>, u64);

/// The checkpoint at `path` of a solve of `n` positions, `None` when there is none yet;
/// its size is checked before anything is read, and it is read in pieces (a checkpoint
/// may be as large as memory allows once).
fn load_checkpoint(path: &Path, n: u64) -> Result<Option<Loaded>, MirrorError> {
    let f = match file::open_read(path) {
        Err(e) if e.is_not_found() => return Ok(None),
        r => r?,
    };
    let e = |source| MirrorError::File(FileError::io(path, source));
    let size = f.metadata().map_err(e)?.len();
    let mut f = std::io::BufReader::with_capacity(1 << 22, f);
    let mut head = Vec::with_capacity(HEADER);
    f.by_ref()
        .take(HEADER as u64)
        .read_to_end(&mut head)
        .map_err(e)?;
    let damaged = |msg: String| {
        MirrorError::File(FileError::Damaged {
            path: path.to_path_buf(),
            msg,
        })
    };
    if head.starts_with(&crate::file::MAGIC) {
        return Err(damaged(
            "a finished table, not a checkpoint: give --checkpoint another path".into(),
        ));
    }
    if head.starts_with(OLD_MAGIC) {
        return Err(damaged(
            "a checkpoint of an older quasar, which this one does not read: delete it to \
             start over"
                .into(),
        ));
    }
    if !head.starts_with(&FRAME.magic) {
        return Err(damaged(format!(
            "{size} bytes that are not a quasar retrograde checkpoint: give --checkpoint \
             another path, or delete the file to start over"
        )));
    }
    let fields = FRAME.check(&head, path)?;
    let (len, layer) = (fields.u64(12), fields.u64(20));
    if len != n {
        return Err(MirrorError::Foreign(path.to_path_buf()));
    }
    let whole = HEADER as u64 + 3 * n + 4;
    if size != whole {
        return Err(damaged(format!(
            "{size} bytes where a checkpoint of {n} positions takes {whole}: cut short or \
             damaged; delete it to start over"
        )));
    }
    let mut crc = crc32fast::Hasher::new();
    let mut values = Vec::with_capacity(n as usize);
    let mut buf = vec![0u8; 1 << 20];
    let mut left = n as usize;
    while left > 0 {
        let k = left.min(buf.len() / 2);
        f.read_exact(&mut buf[..2 * k]).map_err(e)?;
        crc.update(&buf[..2 * k]);
        values.extend(
            buf[..2 * k]
                .chunks_exact(2)
                .map(|b| AtomicU16::new(u16::from_le_bytes([b[0], b[1]]))),
        );
        left -= k;
    }
    let mut counts = Vec::with_capacity(n as usize);
    let mut left = n as usize;
    while left > 0 {
        let k = left.min(buf.len());
        f.read_exact(&mut buf[..k]).map_err(e)?;
        crc.update(&buf[..k]);
        counts.extend(buf[..k].iter().map(|&b| AtomicU8::new(b)));
        left -= k;
    }
    let mut stored = [0u8; 4];
    f.read_exact(&mut stored).map_err(e)?;
    if crc.finalize() != u32::from_le_bytes(stored) {
        return Err(damaged(
            "data checksum mismatch: the checkpoint is damaged; delete it to start over".into(),
        ));
    }
    Ok(Some((values, counts, layer)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pile of stones, take 1 or 2, the side facing an empty pile has lost: both sides
    /// alike, so position k (a pile of k, the side to move's view) is the whole game.
    struct Pile(u64);
    impl MirrorGame for Pile {
        fn size(&self) -> u64 {
            self.0 + 1
        }
        fn lost(&self, p: u64) -> bool {
            p == 0
        }
        fn child_count(&self, p: u64) -> u32 {
            p.min(2) as u32
        }
        fn predecessors(&self, p: u64, out: &mut Vec<u64>) {
            out.clear();
            out.extend((p + 1..=p + 2).filter(|&q| q <= self.0));
        }
    }

    /// A cycle: 1 and 2 move to each other, 3 moves to 1 or to 0 (lost), so 3 wins and
    /// 1 and 2 draw.
    struct Loop;
    impl MirrorGame for Loop {
        fn size(&self) -> u64 {
            4
        }
        fn lost(&self, p: u64) -> bool {
            p == 0
        }
        fn child_count(&self, p: u64) -> u32 {
            [0, 1, 1, 2][p as usize]
        }
        fn predecessors(&self, p: u64, out: &mut Vec<u64>) {
            out.clear();
            out.extend_from_slice(match p {
                0 => &[3],
                1 => &[2, 3],
                2 => &[1],
                _ => &[],
            });
        }
    }

    #[test]
    fn piles_of_multiples_of_three_are_lost() {
        let (t, r) = solve_mirror(
            &Pile(20),
            &MirrorOptions::default(),
            &crate::progress::Silent,
        )
        .unwrap();
        for k in 0..=20u64 {
            assert_eq!(t.results.get(k), if k % 3 == 0 { 2 } else { 1 }, "{k}");
        }
        // The winner takes k mod 3, then answers each move: 1 + 2 (k / 3) plies.
        assert_eq!(t.plies.get(10), 7);
        assert_eq!(t.plies.get(9), 6);
        assert_eq!((r.wins, r.losses, r.draws), (14, 7, 0));
    }

    #[test]
    fn cycles_are_draws() {
        let (t, r) =
            solve_mirror(&Loop, &MirrorOptions::default(), &crate::progress::Silent).unwrap();
        assert_eq!(
            (0..4).map(|p| t.results.get(p)).collect::<Vec<_>>(),
            [2, 0, 0, 1]
        );
        assert_eq!(r.draws, 2);
    }

    #[test]
    fn a_checkpoint_resumes_to_the_same_table() {
        let dir = std::env::temp_dir().join(format!("retro-mirror-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pile.ckpt");
        let (whole, _) = solve_mirror(
            &Pile(30),
            &MirrorOptions::default(),
            &crate::progress::Silent,
        )
        .unwrap();
        // A checkpoint after layer 3, written as a run killed then would leave it.
        let values: Vec<AtomicU16> = (0..=30u64)
            .map(|k| {
                let pl = whole.plies.get(k);
                AtomicU16::new(if pl <= 4 {
                    code(whole.results.get(k) == 1, pl)
                } else {
                    0
                })
            })
            .collect();
        let counts: Vec<AtomicU8> = (0..=30u64)
            .map(|k| {
                // Children still unknown or known after layer 3 ... recomputed exactly.
                let kids = [k.wrapping_sub(1), k.wrapping_sub(2)];
                let left = kids
                    .iter()
                    .filter(|&&c| c <= 30 && k >= 1 && c < k)
                    .filter(|&&c| !(whole.plies.get(c) <= 3 && whole.results.get(c) == 1))
                    .count();
                AtomicU8::new(if values[k as usize].load(Relaxed) != 0 {
                    0
                } else {
                    left as u8
                })
            })
            .collect();
        save_checkpoint(
            &path,
            &OutputLock::acquire(&path).unwrap(),
            &values,
            &counts,
            3,
        )
        .unwrap();
        let o = MirrorOptions {
            checkpoint: Some(path.clone()),
            checkpoint_every: 0.0,
        };
        let (resumed, r) = solve_mirror(&Pile(30), &o, &crate::progress::Silent).unwrap();
        assert_eq!(r.resumed_after, Some(3));
        assert_eq!(resumed, whole);
        assert!(!path.exists(), "a finished solve removes its checkpoint");
        // A flipped byte in the header or the body is damage, found before any work.
        let lock = OutputLock::acquire(&path).unwrap();
        save_checkpoint(&path, &lock, &values, &counts, 3).unwrap();
        drop(lock);
        let intact = std::fs::read(&path).unwrap();
        for (at, want) in [
            (21, "header checksum mismatch: the file is damaged"),
            (
                HEADER + 5,
                "data checksum mismatch: the checkpoint is damaged",
            ),
            (intact.len() - 1, "data checksum mismatch"),
        ] {
            let mut bytes = intact.clone();
            bytes[at] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            let e = solve_mirror(&Pile(30), &o, &crate::progress::Silent)
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "byte {at}: {e}");
        }
        std::fs::write(&path, &intact[..intact.len() - 3]).unwrap();
        let e = solve_mirror(&Pile(30), &o, &crate::progress::Silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cut short or damaged"), "{e}");
        let mut old = OLD_MAGIC.to_vec();
        old.resize(24 + 3 * 31, 0);
        std::fs::write(&path, &old).unwrap();
        let e = solve_mirror(&Pile(30), &o, &crate::progress::Silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a checkpoint of an older quasar"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn bad_checkpoints_are_refused_by_name_before_any_work() {
        let dir = std::env::temp_dir().join(format!("retro-bad-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let solve = |p: &Path| {
            let o = MirrorOptions {
                checkpoint: Some(p.to_path_buf()),
                checkpoint_every: 0.0,
            };
            solve_mirror(&Pile(30), &o, &crate::progress::Silent)
                .unwrap_err()
                .to_string()
        };
        let empty = dir.join("empty.ckpt");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(
            solve(&empty),
            format!(
                "checkpoint {}: 0 bytes that are not a quasar retrograde checkpoint: give \
                 --checkpoint another path, or delete the file to start over",
                empty.display()
            )
        );
        let table = dir.join("done.qrt");
        let mut bytes = crate::file::MAGIC.to_vec();
        bytes.resize(200, 0);
        std::fs::write(&table, bytes).unwrap();
        assert!(solve(&table)
            .ends_with("a finished table, not a checkpoint: give --checkpoint another path"));
        let missing = dir.join("no/such/folder.ckpt");
        assert!(solve(&missing).ends_with("does not exist; create it first"));
        assert!(solve(Path::new("/dev/zero")).contains("is a character device"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
