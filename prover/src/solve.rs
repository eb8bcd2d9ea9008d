//! The prover's entry points: [`solve`] finds the winner of an unfinished position by
//! df-pn, then proves the exact length under perfect play by a bounded search, with the
//! game's quick verdicts and a table's sound claims as proven leaves, and writes, when
//! asked, a proof file that [`crate::check::check`] verifies independently; [`test_bound`]
//! (and [`test_bound_with_draws`]) answers one bound of the length search.

use crate::checkpoint::{Checkpoint, CheckpointError, Phase, Saver};
use crate::graph::Graph;
use crate::instance::{Instance, MoveOf};
use crate::proof::ProofError;
use crate::proof_writer::{ProofSummary, ProofWriter};
use crate::{dfpn, length, tt};
use quasar_core::measure::peak_memory_kib;
use quasar_core::progress::Progress;
use quasar_core::Game;
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
    /// In the length phase, the winner (the game's word for its side: the value is known
    /// before the length is searched) and the length being tested.
    pub testing: Option<(&'static str, u32)>,
    /// The root's proof and disproof numbers for "the winner (df-pn: the side to move)
    /// wins (within the bound)" as a search by proof numbers last read them: a long
    /// search nears its answer as one of them falls towards 0.
    pub root: Option<(u32, u32)>,
    /// In the proof: where the writer is in the loser's first moves, `(k, n)` for "reply
    /// k of n" at the loser's first [`PLACE_LEVELS`] turns below the root (`(0, 0)` past
    /// the depth reached), so a long proof shows how far through the tree it is.
    pub place: [(u16, u16); PLACE_LEVELS],
}

impl Status {
    /// The status of the search `phase` after `nodes` nodes, with `solved` positions
    /// (disproven, proven) and a table of `table_bytes` bytes.
    pub(crate) fn search(
        phase: &'static str,
        nodes: u64,
        solved: [u64; 2],
        table_bytes: usize,
    ) -> Status {
        Status {
            phase,
            nodes,
            proven: solved[1],
            disproven: solved[0],
            table_bytes: table_bytes as u64,
            testing: None,
            root: None,
            place: Default::default(),
        }
    }

    /// The proof writer's status: what `out` has written, at `place` in the loser's first
    /// replies.
    pub(crate) fn proof<P: crate::ProverPosition>(
        out: &ProofWriter<P>,
        place: [(u16, u16); PLACE_LEVELS],
    ) -> Status {
        Status {
            phase: "proof",
            nodes: out.written,
            proven: out.claims,
            disproven: 0,
            table_bytes: out.seen_bytes(),
            testing: None,
            root: None,
            place,
        }
    }

    /// The status with the root's numbers `root`.
    pub(crate) fn with_root(self, root: Option<(u32, u32)>) -> Status {
        Status { root, ..self }
    }
}

/// The loser's turns the proof's progress line places the writer at.
pub const PLACE_LEVELS: usize = 3;

/// The length search's table when a graph answers its questions: its checkpoints still
/// save the table, which stays nearly empty.
const GRAPH_TABLE_BYTES: usize = 1 << 20;

impl std::fmt::Display for Status {
    /// The progress line of the phase, after its name: "1234 nodes, 56 proven, ...".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let memory = peak_memory_kib()
            .map(|k| format!(", peak memory {} MiB", k >> 10))
            .unwrap_or_default();
        if self.phase == "proof" {
            let place: Vec<String> = self
                .place
                .iter()
                .take_while(|p| p.1 > 0)
                .map(|(k, n)| format!("{k}/{n}"))
                .collect();
            let place = match place.len() {
                0 => String::new(),
                _ => format!(", at the loser's replies {}", place.join(" > ")),
            };
            return write!(
                f,
                "{} records written, {} table claims, set {} MiB{memory}{place}",
                self.nodes,
                self.proven,
                self.table_bytes >> 20
            );
        }
        let bound = self
            .testing
            .map(|(w, b)| format!(", testing whether {w} wins within {b} plies"))
            .unwrap_or_default();
        // INF (u32::MAX) means solved; a search mid-way shows finite numbers.
        let root = self
            .root
            .map(|(pn, dn)| format!(", root proof/disproof numbers {pn}/{dn}"))
            .unwrap_or_default();
        write!(
            f,
            "{} nodes, {} proven, {} disproven, table {} MiB{memory}{bound}{root}",
            self.nodes,
            self.proven,
            self.disproven,
            self.table_bytes >> 20
        )
    }
}

impl Status {
    /// Tells `progress` this status, as a note of its phase.
    pub(crate) fn report(&self, progress: &dyn Progress) {
        progress.note(self.phase, &self.to_string());
    }
}

/// How to solve, with the game's table `T`.
#[derive(Debug)]
pub struct Options<'a, T> {
    /// A table whose sound claims end the search early (none: search to the end).
    pub tablebase: Option<&'a T>,
    /// Bytes for each phase's transposition table (the phases run one after the other).
    pub table_bytes: usize,
    /// Write the proof to this file (records streamed to disk as they are found).
    pub proof: Option<&'a Path>,
    /// Write only this job's share of the proof: the sub-proofs of its share of the
    /// loser's first replies (and the root's record), a piece for [`crate::merge()`].
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
    /// Where the game lists positions to value them outright, the nodes of each side's
    /// short search before the listing (0: none).
    pub quick_nodes: u64,
    /// Prove the winner without the exact length: `Some(bound)` tests this one loose bound
    /// (usually [`LOOSE_BOUND`]) by proof numbers, and the proof's records get the bounds
    /// they need, so the length stated is the proof's bound, not the exact length. A job of
    /// a job tree ([`crate::jobtree`]) solves so: at a fraction of the cost of the exact
    /// length. `None`: the exact length.
    pub winner_only: Option<u32>,
}

/// The bound a winner-only solve tests: far beyond the games the prover solves, below
/// the 255 a record can hold, leaving a job tree's own plies above its jobs room.
pub const LOOSE_BOUND: u32 = 200;

impl<T> Clone for Options<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Options<'_, T> {}

impl<T> Default for Options<'_, T> {
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
            quick_nodes: crate::draws::QUICK_NODES,
            winner_only: None,
        }
    }
}

/// A solved position of the game `P`.
#[derive(Clone, Debug)]
pub struct Solution<P: Game> {
    /// The position solved.
    pub root: P,
    /// Who wins with perfect play.
    pub winner: Side,
    /// Plies until the end with perfect play (the winner hurries, the loser delays); a
    /// winner-only solve's is the proof's bound instead.
    pub plies: u32,
    /// True when `plies` is the exact length (not for [`Options::winner_only`]).
    pub plies_exact: bool,
    /// The principal line: moves of both sides to the end.
    pub line: Vec<P::Move>,
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
    /// The table does not fit the position (the game's words).
    #[error("{0}")]
    OtherTable(String),
    /// The length search found no win for the side df-pn named (a bug, never expected).
    #[error("no win for the {winner:?} side within 254 plies, though df-pn proved one")]
    NoWin {
        /// The side df-pn named.
        winner: Side,
    },
    /// A winner-only solve's bound does not hold: the winner wins, but only in more plies.
    #[error(
        "no win within {plies} plies, though the value's search found one: give a larger \
         bound (--winner-only=PLIES, up to 254)"
    )]
    NotWithin {
        /// The side that wins.
        winner: Side,
        /// The bound that failed.
        plies: u32,
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
/// when asked, the proof. For games that always end in a win and never repeat a position
/// (df-pn's disproof is the opponent's win); [`solve_with_draws`] for the others.
pub fn solve<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    progress: &dyn Progress,
) -> Result<Solution<I::Pos>, SolveError> {
    if let Some(solution) = solve_read_off(inst, root, options, progress)? {
        return Ok(solution);
    }
    let st = start(inst, root, options, progress, None, None, Vec::new())?;
    finish(root, options, st)
}

/// A winner-only solve at [`LOOSE_BOUND`] with a whole proof: df-pn finds the winner and
/// its own table gives the proof ([`dfpn::Dfpn::write_proof`]), with no length search at
/// all, where proving the loose bound again would cost as much as df-pn and the proof
/// would follow moves that win slowly. `None` where it does not apply: another bound, no
/// proof file, a shard, or a checkpoint of the length's phase (which [`start`] resumes).
fn solve_read_off<I: Instance>(
    geo: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    progress: &dyn Progress,
) -> Result<Option<Solution<I::Pos>>, SolveError> {
    let (Some(LOOSE_BOUND), Some(path), Shard::WHOLE) =
        (options.winner_only, options.proof, options.proof_shard)
    else {
        return Ok(None);
    };
    check_root(geo, root, options)?;
    let tb = options.tablebase;
    let (lock, resume) = Checkpoint::<I::Pos>::open(options.checkpoint, root)?;
    if resume
        .as_ref()
        .is_some_and(|c| !matches!(c.phase, Phase::Winner))
    {
        // The lock goes with this return, for `start` to take again.
        return Ok(None);
    }
    let saver = saver(options, lock);
    let t0 = Instant::now();
    let mut d = dfpn::Dfpn::new(geo, tb, options.table_bytes, progress, saver)?;
    if let Some(c) = &resume {
        d.load(c);
    }
    let Some(winner) = d.winner(root) else {
        let nodes = d.nodes();
        return Err(stop_error(&mut d.saver, nodes));
    };
    let winner_nodes = d.nodes();
    let winner_seconds = t0.elapsed().as_secs_f64();
    // The winner is known: a run stopped in the proof never repeats df-pn.
    d.save_now()?;
    let t2 = Instant::now();
    // An earlier run's unfinished proof is resumed: its positions are skipped.
    let mut out = ProofWriter::open(path, root, winner, LOOSE_BOUND)?;
    let plies = d.write_proof(root, winner, &mut out)?;
    out.set_plies(plies);
    let proof = out.finish()?;
    Ok(Some(Solution {
        root: *root,
        winner,
        plies,
        plies_exact: false,
        line: Vec::new(),
        winner_nodes,
        length_nodes: d.nodes() - winner_nodes,
        winner_seconds,
        length_seconds: 0.0,
        proof_seconds: t2.elapsed().as_secs_f64(),
        proof: Some(proof),
    }))
}

/// A position's value and, for a win, its solution; for a draw, its proof when asked.
#[derive(Debug)]
pub struct Drawn<P: Game> {
    /// The value and what finding it cost.
    pub valued: crate::draws::Valued,
    /// A win's length, line and proof.
    pub win: Option<Solution<P>>,
    /// A draw's proof file, when one was asked for.
    pub draw_proof: Option<ProofSummary>,
}

/// The value of the unfinished `root` of a game that may draw or cycle: a draw, or the
/// winner with the exact length, the principal line and, when asked, the proof (of a draw:
/// each side's strategy that holds it, [`crate::draw_proof`]). The winner is found by
/// [`crate::draws::value`], sound under repetitions; the length search bounds every line,
/// so cycles cost it nothing. A checkpoint keeps both phases: the value's searches, then
/// the length's.
pub fn solve_with_draws<'a, I: Instance>(
    inst: &'a I,
    root: &I::Pos,
    options: &Options<'a, I::Table>,
    progress: &'a dyn Progress,
) -> Result<Drawn<I::Pos>, SolveError> {
    let found = crate::draws::value_and_graph(inst, root, options, progress)?;
    let valued = found.valued;
    let crate::draws::Value::Win(winner) = valued.value else {
        let draw_proof = match options.proof {
            Some(path) => Some(crate::draw_proof::write_draw_proof(
                inst,
                root,
                options,
                path,
                progress,
                found.graph,
            )?),
            None => None,
        };
        return Ok(Drawn {
            valued,
            win: None,
            draw_proof,
        });
    };
    let st = start_won(inst, root, options, progress, winner, found)?;
    let win = finish(root, options, st)?;
    Ok(Drawn {
        valued,
        win: Some(win),
        draw_proof: None,
    })
}

/// The length, the principal line and the proof once `st` knows the winner.
fn finish<I: Instance>(
    root: &I::Pos,
    options: &Options<I::Table>,
    mut st: Started<'_, I>,
) -> Result<Solution<I::Pos>, SolveError> {
    let (winner, len) = (st.winner, &mut st.len);
    let mut plies = if let Some(bound) = options.winner_only {
        // A loose bound is cheap only by proof numbers.
        len.pn_from = 4;
        len.tight = true;
        if !len.test(root, bound, st.from)? {
            return Err(SolveError::NotWithin {
                winner,
                plies: bound,
            });
        }
        bound
    } else {
        len.distance(root, st.from)?
    };
    // The length is known: a run stopped in the principal line or the proof resumes at
    // the holding bound, whose facts settle it at once.
    len.save_now(root)?;
    // A loose bound has no principal line: the loser's slowest move is not known.
    let line: Vec<MoveOf<I>> = match options.winner_only {
        Some(_) => Vec::new(),
        None => len.principal_line(root, plies),
    };
    let length_seconds = st.length_start.elapsed().as_secs_f64();
    // The proof's searches below count too, but they are not the length's.
    let length_nodes = len.nodes();
    let t2 = Instant::now();
    let proof = match options.proof {
        Some(path) => {
            // An earlier run's unfinished proof is resumed: its positions are skipped.
            let mut out = ProofWriter::open(path, root, winner, plies)?;
            let share = options.proof_shard;
            let bound = if share == Shard::WHOLE && root.side_to_move() == winner {
                len.emit_winner(root, plies, &mut out)?
            } else {
                len.emit_share(root, plies, line.first().copied(), share, &mut out)?
            };
            if options.winner_only.is_some() && share == Shard::WHOLE {
                // The proof states the bound its records need.
                plies = bound;
                out.set_plies(bound);
            }
            Some(out.finish()?)
        }
        None => None,
    };
    Ok(Solution {
        root: *root,
        winner,
        plies,
        plies_exact: options.winner_only.is_none(),
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
pub fn test_bound<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    plies: u32,
    progress: &dyn Progress,
) -> Result<BoundTest, SolveError> {
    let st = start(inst, root, options, progress, None, None, Vec::new())?;
    answer_bound(root, plies, st)
}

/// [`test_bound`] for a game that may draw or cycle: the value first, as
/// [`solve_with_draws`] finds it (a checkpoint of either solve serves), then, for a win,
/// the bound; a draw has no bound to test (`None`), as neither side wins at all.
pub fn test_bound_with_draws<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    plies: u32,
    progress: &dyn Progress,
) -> Result<(crate::draws::Valued, Option<BoundTest>), SolveError> {
    let found = crate::draws::value_and_graph(inst, root, options, progress)?;
    let valued = found.valued;
    let crate::draws::Value::Win(winner) = valued.value else {
        return Ok((valued, None));
    };
    let st = start_won(inst, root, options, progress, winner, found)?;
    let test = answer_bound(root, plies, st)?;
    Ok((valued, Some(test)))
}

/// Whether the winner `st` found wins from `root` within `plies` plies.
fn answer_bound<I: Instance>(
    root: &I::Pos,
    plies: u32,
    mut st: Started<'_, I>,
) -> Result<BoundTest, SolveError> {
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
struct Started<'a, I: Instance> {
    len: length::Length<'a, I>,
    winner: Side,
    winner_nodes: u64,
    winner_seconds: f64,
    /// The bound a checkpoint resumes at (0: none), every smaller one having failed.
    from: u32,
    /// When the length phase began (its table made).
    length_start: Instant,
}

/// [`start`] once the value's search (`found`) has found `winner`: the positions it
/// settled start the length's search, and the search itself, its table and its hold on
/// the checkpoint go first.
fn start_won<'a, I: Instance>(
    geo: &'a I,
    root: &I::Pos,
    options: &Options<'a, I::Table>,
    progress: &'a dyn Progress,
    winner: Side,
    found: crate::draws::Found<'a, I>,
) -> Result<Started<'a, I>, SolveError> {
    let v = found.valued;
    let known = (winner, v.nodes.iter().sum(), v.seconds);
    let seeds = found.attack.map(|a| a.solved()).unwrap_or_default();
    start(
        geo,
        root,
        options,
        progress,
        Some(known),
        found.graph,
        seeds,
    )
}

/// An error when `root` is over or the options' table is another board's.
fn check_root<I: Instance>(
    geo: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
) -> Result<(), SolveError> {
    if root.outcome().is_some() {
        return Err(SolveError::GameOver);
    }
    match options.tablebase {
        Some(tb) => geo.table_fits(tb, root).map_err(SolveError::OtherTable),
        None => Ok(()),
    }
}

/// The saver of a solve with `options`, holding the checkpoint's `lock`.
fn saver<'a, T>(options: &Options<'a, T>, lock: Option<quasar_file::OutputLock>) -> Saver<'a> {
    Saver::new(
        options.checkpoint,
        options.checkpoint_every,
        options.stop_after,
    )
    .interruptible(options.interrupt)
    .holding(lock)
}

/// Checks `root` and the options, finds the winner (df-pn, or from a checkpoint, unless
/// `known` gives it with its nodes and seconds) and sets up the length search with what
/// df-pn, the checkpoint, the value's `graph` (every reachable position with its exact
/// length) or its search (`seeds`: the positions it settled) knew.
fn start<'a, I: Instance>(
    geo: &'a I,
    root: &I::Pos,
    options: &Options<'a, I::Table>,
    progress: &'a dyn Progress,
    known: Option<(Side, u64, f64)>,
    graph: Option<Graph>,
    seeds: Vec<dfpn::Solved>,
) -> Result<Started<'a, I>, SolveError> {
    check_root(geo, root, options)?;
    let tb = options.tablebase;
    // The lock is held to the end: one run a checkpoint.
    let (lock, resume) = Checkpoint::<I::Pos>::open(options.checkpoint, root)?;
    let saver = saver(options, lock);
    let t0 = Instant::now();
    let (winner, winner_nodes, solved, children, saver, from) = match (&resume, known) {
        (
            Some(
                c @ Checkpoint {
                    phase: Phase::Length { winner, bound },
                    ..
                },
            ),
            _,
        ) => (
            *winner,
            c.winner_nodes,
            Vec::new(),
            Vec::new(),
            saver,
            *bound,
        ),
        (_, Some((winner, nodes, _))) => (winner, nodes, seeds, Vec::new(), saver, 0),
        (
            Some(Checkpoint {
                phase: Phase::Attack { .. },
                ..
            }),
            None,
        ) => {
            return Err(CheckpointError::other_search(
                options.checkpoint,
                "a search for draws, which this solve does not make",
            )
            .into())
        }
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
            (winner, nodes, d.solved(), d.root_children(root), d.saver, 0)
        }
    };
    let winner_seconds = known.map_or_else(|| t0.elapsed().as_secs_f64(), |k| k.2);
    let length_start = Instant::now();
    let graph = graph.filter(Graph::knows_lengths);
    // A graph answers every question the table would keep.
    let table_bytes = if graph.is_some() {
        options.table_bytes.min(GRAPH_TABLE_BYTES)
    } else {
        options.table_bytes
    };
    let mut len = length::Length::new(geo, tb, winner, table_bytes, progress, saver)?;
    if let Some(g) = graph {
        len.use_graph(g);
    }
    len.winner_nodes = winner_nodes;
    len.pn_from = options.length_pn_from.max(4);
    match &resume {
        Some(c) if matches!(c.phase, Phase::Length { .. }) => len.load(c),
        _ => {
            len.seed(&solved);
            drop(solved);
            len.root_children = children;
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

#[cfg(test)]
mod tests {
    use super::Status;

    /// The length phase's line says who wins once the value is known, and the bound.
    #[test]
    fn the_length_progress_names_the_winner_and_the_bound() {
        let line = Status {
            testing: Some(("Black", 27)),
            ..Status::search("length", 10, [1, 2], 1 << 20)
        }
        .to_string();
        assert!(
            line.starts_with("10 nodes, 2 proven, 1 disproven, table 1 MiB"),
            "{line}"
        );
        assert!(
            line.contains(", testing whether Black wins within 27 plies"),
            "{line}"
        );
    }
}
