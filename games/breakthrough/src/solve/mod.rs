//! Exact solving of small Breakthrough boards: df-pn finds the winner, a bounded search
//! then proves the exact length under perfect play, with finished games, the last rows'
//! forced wins and a tablebase's sound claims as proven leaves, and a proof file that
//! [`check::check`] verifies independently.
//!
//! ```
//! use breakthrough::solve::{solve, Options, Quiet};
//! use breakthrough::{Board, Position};
//!
//! let root = Position::start(Board::new(4, 4).unwrap());
//! let s = solve(&root, &Options::default(), &Quiet).unwrap();
//! assert_eq!((s.winner, s.plies), (quasar_core::Side::Second, 14));
//! ```

pub mod check;
pub mod checkpoint;
pub mod dfpn;
pub mod leaves;
pub mod length;
pub mod merge;
pub mod proof;
pub mod proof_writer;

pub use prover::{frame, seen, tt};

pub use check::{check, check_shard, check_view, CheckReport};
pub use checkpoint::{Checkpoint, CheckpointError};
pub use merge::merge;
pub use proof::{Proof, ProofError, ProofFile, ProofView, Record, RecordKind};
pub use proof_writer::{ProofSummary, ProofWriter};

use crate::tablebase::{generate, Limits, Region, RegionError, Silent, Tablebase};
use crate::{Board, Move, Position};
use checkpoint::{Phase, Saver};
use quasar_core::file::OutputLock;
use quasar_core::{Shard, Side};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Where a solve stands, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Status {
    /// `winner` (df-pn) or `length` (the bounded search).
    pub phase: &'static str,
    /// Nodes of this phase so far.
    pub nodes: u64,
    /// Nodes proven (a win for their side to move) so far.
    pub proven: u64,
    /// Nodes disproven so far.
    pub disproven: u64,
    /// Bytes of the phase's transposition table.
    pub table_bytes: u64,
    /// The length being tested, in the length phase.
    pub bound: Option<u32>,
    /// The root's proof and disproof numbers for "the winner (df-pn: the side to move)
    /// wins (within the bound)" as a search by proof numbers last read them: a long
    /// search nears its answer as one of them falls towards 0.
    pub root: Option<(u32, u32)>,
    /// In the proof: where the writer is in the loser's first moves, `(k, n)` for "reply
    /// k of n" at the loser's first [`PLACE_LEVELS`] turns below the root (`(0, 0)` past
    /// the depth reached), so a long proof shows how far through the tree it is.
    pub place: [(u16, u16); PLACE_LEVELS],
}

/// The loser's turns the proof's progress line places the writer at.
pub const PLACE_LEVELS: usize = 3;

/// Receives progress reports from the search thread; the library never prints.
pub trait SolveProgress: Sync {
    /// Called every 65,536 nodes or so.
    fn report(&self, status: &Status) {
        let _ = status;
    }
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl SolveProgress for Quiet {}

/// How to solve.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// A table whose sound claims end the search early (none: search to the end).
    pub tablebase: Option<&'a Tablebase>,
    /// Bytes for each phase's transposition table (the phases run one after the other).
    pub table_bytes: usize,
    /// Write the proof to this file (records streamed to disk as they are found).
    pub proof: Option<&'a Path>,
    /// Write only this job's share of the proof: the sub-proofs of its share of the
    /// loser's first replies (and the root's record), a piece for [`merge()`].
    pub proof_shard: Shard,
    /// Save the search's state here every `checkpoint_every`, and resume from it when it
    /// exists.
    pub checkpoint: Option<&'a Path>,
    /// How often to save a checkpoint.
    pub checkpoint_every: Duration,
    /// Stop (with a checkpoint) after this many nodes of this run: for tests and trials.
    pub stop_after: Option<u64>,
    /// Stop (with a checkpoint) soon after this flag is raised, e.g. by a signal handler.
    pub interrupt: Option<&'a AtomicBool>,
    /// The length search tests bounds of this many plies or more by proof numbers.
    pub length_pn_from: u32,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            tablebase: None,
            table_bytes: 256 << 20,
            proof: None,
            proof_shard: Shard::WHOLE,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(300),
            stop_after: None,
            interrupt: None,
            length_pn_from: length::DEFAULT_PN_FROM,
        }
    }
}

/// A solved position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The position solved.
    pub root: Position,
    /// Who wins with perfect play.
    pub winner: Side,
    /// Plies until the end with perfect play (the winner hurries, the loser delays).
    pub plies: u32,
    /// The principal line: moves of both sides to the end.
    pub line: Vec<Move>,
    /// Nodes df-pn expanded to find the winner.
    pub winner_nodes: u64,
    /// Nodes the bounded search visited for the length, its line and the proof.
    pub length_nodes: u64,
    /// Seconds to find the winner.
    pub winner_seconds: f64,
    /// Seconds for the length and the line.
    pub length_seconds: f64,
    /// Seconds to write the proof.
    pub proof_seconds: f64,
    /// The proof file written, when asked for.
    pub proof: Option<ProofSummary>,
}

/// Why a position could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// Nothing to solve.
    #[error("the game is already over in this position")]
    GameOver,
    /// The table does not fit the position.
    #[error("the table is for {table}, but the position is on {board}; build one for {board} or drop --tb")]
    OtherBoard {
        /// The table's board.
        table: Board,
        /// The position's board.
        board: Board,
    },
    /// The length search found no win for the side df-pn named (a bug, never expected).
    #[error("no win for the {winner:?} side within 254 plies, though df-pn proved one")]
    NoWin {
        /// The side df-pn named.
        winner: Side,
    },
    /// The search stopped where it was asked to, saving its state when it had a
    /// checkpoint file.
    #[error("stopped after {nodes} nodes as asked; {}", stopped_text(.saved.as_deref()))]
    Stopped {
        /// Nodes of both phases so far (all runs).
        nodes: u64,
        /// The checkpoint written, if any.
        saved: Option<PathBuf>,
    },
    /// The interrupt flag was raised: the search stopped, saving its state when it had a
    /// checkpoint file.
    #[error("stopped by a signal {}", interrupted_text(*.nodes, .saved.as_deref()))]
    Interrupted {
        /// Nodes of both phases so far (all runs).
        nodes: u64,
        /// The checkpoint written, if any.
        saved: Option<PathBuf>,
    },
    /// A checkpoint could not be read, written or used.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The proof file could not be written.
    #[error(transparent)]
    Proof(#[from] ProofError),
    /// A transposition table of the size asked for could not be had.
    #[error(transparent)]
    Memory(#[from] tt::TableTooLarge),
    /// An inconsistency between the solver's phases (a bug, never expected).
    #[error("internal error: {0}")]
    Internal(String),
}

/// The rest of [`SolveError::Stopped`]'s message.
fn stopped_text(saved: Option<&Path>) -> String {
    match saved {
        Some(path) => format!(
            "checkpoint {} saved; run again with the same --checkpoint to resume",
            path.display()
        ),
        None => "nothing was saved (no checkpoint file)".into(),
    }
}

/// The rest of [`SolveError::Interrupted`]'s message.
fn interrupted_text(nodes: u64, saved: Option<&Path>) -> String {
    match saved {
        Some(path) => format!(
            "; checkpoint {} saved at {nodes} nodes; run the same command to resume",
            path.display()
        ),
        None => format!("after {nodes} nodes; nothing was saved (no checkpoint file)"),
    }
}

/// Why a search that `saver` stopped stopped: a failed save, the interrupt flag, or the
/// node count asked for.
pub(crate) fn stop_error(saver: &mut Saver, nodes: u64) -> SolveError {
    if let Some(e) = saver.error.take() {
        return e.into();
    }
    if saver.interrupted {
        return SolveError::Interrupted {
            nodes,
            saved: saver.path().map(Path::to_path_buf),
        };
    }
    SolveError::Stopped {
        nodes,
        saved: saver.path().map(Path::to_path_buf),
    }
}

/// Solves the unfinished `root`: the winner, the exact length, the principal line and,
/// when asked, the proof.
pub fn solve(
    root: &Position,
    options: &Options,
    progress: &dyn SolveProgress,
) -> Result<Solution, SolveError> {
    let geo = leaves::Geometry::new(root.board());
    let mut st = start(root, options, &geo, progress)?;
    let (winner, len) = (st.winner, &mut st.len);
    let plies = len.distance(root, st.from)?;
    // The length is known: a run stopped in the principal line or the proof resumes at
    // the holding bound, whose facts settle it at once.
    len.save_now(root)?;
    let line = len.principal_line(root, plies);
    let length_seconds = st.length_start.elapsed().as_secs_f64();
    // The proof's searches below count too, but they are not the length's.
    let length_nodes = len.nodes();
    let t2 = Instant::now();
    let proof = match options.proof {
        Some(path) => {
            // An earlier run's unfinished proof is resumed: its positions are skipped.
            let mut out = ProofWriter::open(path, root, winner, plies)?;
            let share = options.proof_shard;
            if share == Shard::WHOLE && root.side() == winner {
                len.emit_winner(root, plies, &mut out)?;
            } else {
                len.emit_share(root, plies, line.first().copied(), share, &mut out)?;
            }
            Some(out.finish()?)
        }
        None => None,
    };
    Ok(Solution {
        root: *root,
        winner,
        plies,
        line,
        winner_nodes: st.winner_nodes,
        length_nodes,
        winner_seconds: st.winner_seconds,
        length_seconds,
        proof_seconds: t2.elapsed().as_secs_f64(),
        proof,
    })
}

/// One bound of the length search answered.
#[derive(Clone, Copy, Debug)]
pub struct BoundTest {
    /// Who wins with perfect play.
    pub winner: Side,
    /// The bound tested, in plies.
    pub plies: u32,
    /// True when the winner wins within `plies` plies whatever the loser does.
    pub holds: bool,
    /// Nodes df-pn expanded to find the winner.
    pub winner_nodes: u64,
    /// Nodes the bounded search visited.
    pub length_nodes: u64,
    /// Seconds to find the winner.
    pub winner_seconds: f64,
    /// Seconds for the bound.
    pub length_seconds: f64,
}

/// Finds the winner of the unfinished `root`, then answers one bound of the length
/// search: does the winner win within `plies` plies? A job per bound (on as many
/// machines) finds the length as the least bound that holds. A checkpoint of either
/// phase is used (its facts hold for any bound) and saved back with the bound it had,
/// never `plies`: a bound that holds says nothing of the smaller ones.
pub fn test_bound(
    root: &Position,
    options: &Options,
    plies: u32,
    progress: &dyn SolveProgress,
) -> Result<BoundTest, SolveError> {
    let geo = leaves::Geometry::new(root.board());
    let mut st = start(root, options, &geo, progress)?;
    let holds = st.len.test(root, plies, st.from)?;
    Ok(BoundTest {
        winner: st.winner,
        plies,
        holds,
        winner_nodes: st.winner_nodes,
        length_nodes: st.len.nodes(),
        winner_seconds: st.winner_seconds,
        length_seconds: st.length_start.elapsed().as_secs_f64(),
    })
}

/// The length search, ready to ask bounds once the winner is known.
struct Started<'a> {
    len: length::Length<'a>,
    winner: Side,
    winner_nodes: u64,
    winner_seconds: f64,
    /// The bound a checkpoint resumes at (0: none), every smaller one having failed.
    from: u32,
    /// When the length phase began (its table made).
    length_start: Instant,
}

/// Checks `root` and the options, finds the winner (df-pn, or from a checkpoint) and
/// sets up the length search with what df-pn or the checkpoint knew.
fn start<'a>(
    root: &Position,
    options: &Options<'a>,
    geo: &'a leaves::Geometry,
    progress: &'a dyn SolveProgress,
) -> Result<Started<'a>, SolveError> {
    if root.result().is_some() {
        return Err(SolveError::GameOver);
    }
    if let Some(tb) = options.tablebase {
        let table = tb.region().board();
        if table != root.board() {
            return Err(SolveError::OtherBoard {
                table,
                board: root.board(),
            });
        }
    }
    let tb = options.tablebase;
    // Taken before the checkpoint is read and held to the end: one run a checkpoint.
    let lock = match options.checkpoint {
        Some(path) => Some(OutputLock::acquire(path).map_err(CheckpointError::from)?),
        None => None,
    };
    let resume = match options.checkpoint {
        Some(path) => {
            let c = Checkpoint::read(path)?;
            if let Some(c) = &c {
                c.matches(root, path)?;
            }
            c
        }
        None => None,
    };
    let saver = Saver::new(
        options.checkpoint,
        options.checkpoint_every,
        options.stop_after,
    )
    .interruptible(options.interrupt)
    .holding(lock);
    let t0 = Instant::now();
    let (winner, winner_nodes, solved, saver, from) = match &resume {
        Some(
            c @ Checkpoint {
                phase: Phase::Length { winner, bound },
                ..
            },
        ) => (*winner, c.winner_nodes, Vec::new(), saver, *bound),
        _ => {
            let mut d = dfpn::Dfpn::new(geo, tb, options.table_bytes, progress, saver)?;
            if let Some(c) = &resume {
                d.load(c);
            }
            let winner = d.winner(root);
            let nodes = d.nodes();
            let Some(winner) = winner else {
                return Err(stop_error(&mut d.saver, nodes));
            };
            (winner, nodes, d.solved(), d.saver, 0)
        }
    };
    let winner_seconds = t0.elapsed().as_secs_f64();
    let length_start = Instant::now();
    let mut len = length::Length::new(geo, tb, winner, options.table_bytes, progress, saver)?;
    len.winner_nodes = winner_nodes;
    len.pn_from = options.length_pn_from.max(4);
    match &resume {
        Some(c) if matches!(c.phase, Phase::Length { .. }) => len.load(c),
        _ => {
            len.seed(&solved);
            drop(solved);
            // The winner is known: a crash from here on never repeats df-pn.
            len.save_now(root)?;
        }
    }
    Ok(Started {
        len,
        winner,
        winner_nodes,
        winner_seconds,
        from,
        length_start,
    })
}

/// The least bound the length search tests by proof numbers on `board` by default: 6 on
/// boards of at least 5 columns and 6 rows, where it disproved 5x6's bound 31 in a fifth of
/// the time the depth-first search had spent without an answer and halved the time on 5x6
/// positions lasting 25-27 plies; none elsewhere, where depth first was faster (5x5 by
/// 1.7x, 4x6 by 1.7x; README, "The length by proof numbers").
pub fn default_length_pn_from(board: Board) -> u32 {
    if board.width() >= 5 && board.height() >= 6 {
        6
    } else {
        length::DEFAULT_PN_FROM
    }
}

/// The row count of the default in-memory table for `board`: four on boards of six rows
/// or more when that table is small enough to probe by one byte (at most 5 columns: 5x6
/// has 8 M configurations), else three. The sound rule accepts depths up to
/// `R = H - n + 1`, and a table of `n` rows holds depths up to about `n - 1`: on 5 rows
/// three rows are best (four proved the same nodes on 5x5 and cost 4 s to build), on 6
/// rows four rows claim the wins of depth 3 as well, which cut df-pn's nodes 2.5-3 fold
/// on 3x6, 3x7 and 4x6 and 2.7-14 fold on 5x6 positions (README, "6-row boards").
pub fn default_rows(board: Board) -> Option<u32> {
    let w = board.width();
    if board.height() < 4 || 3 * w > crate::tablebase::region::MAX_KEY_CELLS {
        return None;
    }
    let four = (1u64 << (3 * w)).saturating_mul(3u64.pow(w));
    Some(
        if board.height() >= 6 && four <= crate::tablebase::dense::DENSE_MAX_LEN {
            4
        } else {
            3
        },
    )
}

/// Builds a table of the top `rows` rows of `board` in memory, on all cores, whose probes
/// read one byte a configuration when it is small (5x6 with 4 rows: 8 MB): the solver
/// probes at every node, and through the B-tree a 4-row table's probes took 30 % of
/// df-pn's time on 4x6.
pub fn table_in_memory(board: Board, rows: u32) -> Result<Tablebase, RegionError> {
    let region = Region::new(board, rows)?;
    let g = generate(&region, Limits::NONE, &Silent)?;
    Ok(Tablebase::from_generated_dense(&g))
}
