//! Job-level proof-number search: a master tree whose leaves are solved as independent
//! jobs (each a whole solve with its own proof file), as Saffidine, Jouandeau and Cazenave
//! solved 6x5 Breakthrough (2011). The tree lives in one folder: the file `tree`
//! (checksummed, written through a temporary file and a rename) and each job's files under
//! `jobs/`. [`JobTree::select`] picks the most-proving leaves for the next jobs,
//! [`JobTree::feed`] takes their results (a solved leaf; or one whose job ran out of
//! nodes, which runs again from its checkpoint with twice the nodes until it has had its
//! runs, and is then expanded into its children, which start from the proof and disproof
//! numbers its checkpoint left for them), and [`JobTree::write_proof`] merges the
//! tree's own winning moves and the jobs' proofs into one proof file the checker accepts
//! as it stands. A position and its mirror image ([`ProverPosition::mirrored`]) share one
//! job: the proof of the other is the job's proof mirrored. Nothing here runs a job:
//! whoever runs them (GNU parallel, a Slurm array) only has to leave each job's proof,
//! checkpoint and result in its files.

use crate::checkpoint::Checkpoint;
use crate::frame;
use crate::instance::ProverPosition;
use crate::merge::merge_views;
use crate::proof::{sort_records, ProofError, ProofFile, Record, RecordKind, Verdict};
use crate::proof_writer::ProofSummary;
use crate::tt::Key;
use quasar_core::{Outcome, Side};
use quasar_file::{self as file, FileError, Frame, OutputLock};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

mod proof;
mod search;
mod store;

pub use search::settled_by_rules;
pub use store::{create, open};

/// Bytes of the tree file's header.
const HEADER_BYTES: usize = 120;
/// Bytes of one node in the tree file.
const NODE_BYTES: usize = 56;
/// The frame of a tree file: magic, version and a CRC-32 of everything before it at the
/// end. Version 3 added each leaf's starting numbers; an older tree is refused.
const FRAME: Frame = frame::sealed_at_end(
    *b"QSJTREE\0",
    3,
    &[],
    HEADER_BYTES,
    "quasar job tree",
    "start the tree again with init (the jobs' proofs under jobs/ stay usable only to a \
     tree that issues them again)",
);
/// The largest tree file read (2^27 nodes: far more jobs than any run makes).
const MAX_FILE_BYTES: u64 = (HEADER_BYTES as u64) + (NODE_BYTES as u64) * (1 << 27) + (1 << 20);
/// No node: the root's parent, an unexpanded node's children.
pub const NONE: u32 = u32::MAX;
/// A proof or disproof number that is infinite.
const INF: u64 = u64::MAX;
/// A running job's proof and disproof numbers while leaves are picked: so large that every
/// open leaf is picked first (far above any sum of leaves' starting numbers, each below
/// [`SOLVED_SEED`]), so `n` picks give `n` distinct leaves where there are as many.
const VIRTUAL: u64 = 1 << 52;
/// The larger starting number of a leaf whose position its parent's job solved: the job's
/// table said so, but its proof needs a job of its own; the smaller number is 1.
pub const SOLVED_SEED: u32 = crate::dfpn::INF;
/// The most runs a leaf's job may have: its last run searches 2^15 times the first's
/// nodes.
pub const MAX_JOB_RUNS: u64 = 16;

/// What a node is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// A leaf no job is working on (solved, when its value is known).
    Leaf,
    /// A leaf whose job was issued and has not been fed back (`job` is the node whose job
    /// it waits for: itself, or a node of the same position).
    Running,
    /// A node whose children are in the tree.
    Expanded,
}

/// A node's value for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Not known yet.
    Unknown,
    /// The side to move wins within this many plies.
    Win(u8),
    /// The side to move loses: the other side wins within this many plies.
    Loss(u8),
}

impl Value {
    fn code(self) -> (u8, u8) {
        match self {
            Value::Unknown => (0, 0),
            Value::Win(p) => (1, p),
            Value::Loss(p) => (2, p),
        }
    }

    fn of_code(kind: u8, plies: u8) -> Option<Value> {
        match kind {
            0 => Some(Value::Unknown),
            1 => Some(Value::Win(plies)),
            2 => Some(Value::Loss(plies)),
            _ => None,
        }
    }

    /// True when the value is known.
    pub fn known(self) -> bool {
        self != Value::Unknown
    }
}

/// One position of the master tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The position ([`ProverPosition::raw_key`]).
    pub key: Key,
    /// The node it is a child of ([`NONE`] for the root).
    pub parent: u32,
    /// The move from the parent, as the game codes it (0 for the root).
    pub mv: u16,
    /// What the node is now.
    pub state: NodeState,
    /// Its value, when known.
    pub value: Value,
    /// The node whose job proved the value or is running for it ([`NONE`]: the value is
    /// the children's or the rules').
    pub job: u32,
    /// Its first child (children are made together, so they are consecutive).
    pub first_child: u32,
    /// How many children it has.
    pub children: u32,
    /// How many runs of its own job were issued (a run after one that stopped resumes
    /// from its checkpoint with twice the nodes).
    pub tries: u8,
    /// Nodes its own job searched over all its runs, as its last answer said.
    pub nodes: u64,
    /// Its proof and disproof numbers, for its side to move, while it is an open leaf:
    /// (1, 1), or those the job of its parent's position left for it when it stopped.
    pub seed: (u32, u32),
}

impl Node {
    fn leaf(key: Key, parent: u32, mv: u16) -> Node {
        Node {
            key,
            parent,
            mv,
            state: NodeState::Leaf,
            value: Value::Unknown,
            job: NONE,
            first_child: NONE,
            children: 0,
            tries: 0,
            nodes: 0,
            seed: (1, 1),
        }
    }

    fn child_ids(&self) -> std::ops::Range<u32> {
        match self.state {
            NodeState::Expanded => self.first_child..self.first_child + self.children,
            _ => 0..0,
        }
    }
}

/// Totals over the jobs fed back, for progress and rates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Nodes the first run of a leaf's job searches (each run after it, twice the last).
    pub job_nodes: u64,
    /// Runs a leaf's job gets before its leaf is expanded instead (1: expanded as soon as
    /// its first run stops).
    pub job_runs: u64,
    /// When the tree was made, in seconds since the Unix epoch.
    pub started: u64,
    /// Jobs that solved their leaf.
    pub solved: u64,
    /// Jobs that ran out of nodes in their last run (their leaves expanded).
    pub expanded: u64,
    /// Runs that stopped and were issued again with twice the nodes.
    pub reissued: u64,
    /// Nodes the jobs searched, all together.
    pub nodes: u64,
    /// Seconds the jobs took, all together (one core each).
    pub seconds: f64,
    /// Times results were fed back.
    pub feeds: u64,
}

/// What a finished job found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JobOutcome {
    /// It solved its position: `winner` wins within `plies` plies, and its proof file is
    /// at [`Layout::proof`].
    Solved {
        /// The side that wins.
        winner: Side,
        /// The length under perfect play (or a bound on it).
        plies: u32,
    },
    /// It stopped after its nodes (saving its checkpoint): it runs again, or its leaf is
    /// expanded.
    OutOfNodes,
}

/// A finished job's result, as read from its result file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobResult {
    /// The node the job was issued for.
    pub node: u32,
    /// What it found.
    pub outcome: JobOutcome,
    /// Nodes it searched, over all its runs (a run resumed from a checkpoint counts on).
    pub nodes: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// What feeding a batch of results did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fed {
    /// Leaves solved by their jobs.
    pub solved: u64,
    /// Leaves expanded because their jobs ran out of nodes in their last run (with the
    /// leaves that waited for them).
    pub expanded: u64,
    /// Children those expansions made.
    pub children: u64,
    /// Of those children, the ones that start from numbers their parent's job left.
    pub seeded: u64,
    /// Of those, the ones the job had solved (each gets a job of its own for its proof).
    pub solved_seeds: u64,
    /// Jobs that stopped and run again from their checkpoints with twice the nodes.
    pub reissued: u64,
}

/// The tree's nodes by what they are now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// All nodes.
    pub nodes: u64,
    /// Nodes whose side to move wins (known).
    pub won: u64,
    /// Nodes whose side to move loses (known).
    pub lost: u64,
    /// Leaves not yet solved and not running.
    pub open: u64,
    /// Leaves whose jobs are running (their own, or a node's of the same position).
    pub running: u64,
    /// Unsolved nodes with children.
    pub inner: u64,
}

/// Why a job tree could not be made, read, advanced or turned into a proof.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// The file layer refused (a missing folder, another master holding the lock).
    #[error(transparent)]
    File(#[from] FileError),
    /// No tree file in the folder.
    #[error("{path} holds no job tree (no file {path}/tree): start one with `quasar solve --tree {path} init`")]
    Missing {
        /// The tree's folder.
        path: PathBuf,
    },
    /// `init` in a folder that holds a tree already.
    #[error("{path} holds a job tree already: go on with it (next, feed, status), or remove the folder to start again")]
    Exists {
        /// The tree's folder.
        path: PathBuf,
    },
    /// The tree file is not intact.
    #[error(
        "{path} is not an intact job tree: {msg}; start the tree again with init in a new folder"
    )]
    Damaged {
        /// The tree file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// An intact tree of another game.
    #[error("{path} is a job tree of another game: give the --game it was made for")]
    OtherGame {
        /// The tree file.
        path: PathBuf,
    },
    /// The root is a finished game.
    #[error("the game is already over in {0}: nothing to solve")]
    GameOver(String),
    /// A game drew: the job tree proves wins and losses only.
    #[error("{0} is a draw: the job tree proves wins only; solve this position as a whole")]
    Draw(String),
    /// A job's result cannot be used.
    #[error("job {node}: {msg}")]
    BadResult {
        /// The job's node.
        node: u32,
        /// What is wrong, and what to do.
        msg: String,
    },
    /// A proof was asked for before the root was settled.
    #[error("the root is not settled yet ({0}): run more jobs (next, then feed) first")]
    Unsettled(String),
    /// A job's proof file could not be read or does not fit the tree.
    #[error(transparent)]
    Proof(#[from] ProofError),
}

/// The files of a tree's folder.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The folder.
    pub dir: PathBuf,
}

impl Layout {
    /// The layout of the folder `dir`.
    pub fn new(dir: &Path) -> Layout {
        Layout {
            dir: dir.to_path_buf(),
        }
    }

    /// The tree file.
    pub fn tree(&self) -> PathBuf {
        self.dir.join("tree")
    }

    /// The jobs' folder.
    pub fn jobs(&self) -> PathBuf {
        self.dir.join("jobs")
    }

    /// The proof file of the job of `node`.
    pub fn proof(&self, node: u32) -> PathBuf {
        self.jobs().join(format!("{node}.proof"))
    }

    /// The result file of the job of `node`, named only once complete.
    pub fn result(&self, node: u32) -> PathBuf {
        self.jobs().join(format!("{node}.json"))
    }

    /// The job's output while it runs (renamed to [`Layout::result`] when it succeeds).
    pub fn output(&self, node: u32) -> PathBuf {
        self.jobs().join(format!("{node}.out"))
    }

    /// The checkpoint of the job of `node`: saved when a run stops, resumed by the next.
    pub fn checkpoint(&self, node: u32) -> PathBuf {
        self.jobs().join(format!("{node}.ckpt"))
    }

    /// The proof of the job of `node` mirrored, for the mirror image of its position (made
    /// while the tree's proof is written, removed after).
    pub fn mirror_proof(&self, node: u32) -> PathBuf {
        self.jobs().join(format!("{node}.mirror.proof"))
    }

    /// The node whose checkpoint `name` (a file name in the jobs' folder) is, if it is one.
    pub fn checkpoint_node(name: &str) -> Option<u32> {
        let id = name.strip_suffix(".ckpt")?;
        // Only the names `checkpoint` makes (no sign, no leading zero): another file is
        // never taken for one.
        let node: u32 = id.parse().ok()?;
        (node.to_string() == id).then_some(node)
    }
}

/// The master tree of a job-level proof search of `root`.
#[derive(Clone, Debug)]
pub struct JobTree<P> {
    /// The position to solve.
    pub root: P,
    /// The nodes, each after its parent (the root first).
    pub nodes: Vec<Node>,
    /// Totals over the jobs fed back.
    pub totals: Totals,
    /// Free text kept with the tree: the options every job is run with.
    pub note: String,
    /// The children of an expanded leaf start at (1, 1), as if its job had not run,
    /// instead of from the numbers its checkpoint left (for comparisons).
    pub fresh_children: bool,
    /// Positions a job solved (by [`JobTree::canon`]'s key): the node whose proof file
    /// holds it or its mirror image.
    solved: HashMap<Key, u32>,
    /// Each node's key up to the mirror (not stored).
    canon: Vec<Key>,
    /// Each node's proof and disproof numbers for its side to move (not stored).
    numbers: Vec<(u64, u64)>,
}

impl<P: ProverPosition> JobTree<P> {
    /// A tree of the unfinished `root` alone, whose jobs each search `job_nodes` nodes;
    /// `note` is kept with it.
    /// `job_runs` (1 to [`MAX_JOB_RUNS`]) is how many runs a leaf's job gets, each resuming
    /// the last with twice its nodes, before the leaf is expanded instead.
    pub fn new(
        root: P,
        job_nodes: u64,
        job_runs: u64,
        note: String,
        now: u64,
    ) -> Result<JobTree<P>, TreeError> {
        if root.outcome().is_some() {
            return Err(TreeError::GameOver(root.position_text()));
        }
        let mut tree = JobTree {
            root,
            nodes: vec![Node::leaf(root.raw_key(), NONE, 0)],
            totals: Totals {
                job_nodes,
                job_runs: job_runs.clamp(1, MAX_JOB_RUNS),
                started: now,
                ..Totals::default()
            },
            note,
            fresh_children: false,
            solved: HashMap::new(),
            canon: Vec::new(),
            numbers: Vec::new(),
        };
        tree.update(1);
        Ok(tree)
    }

    /// The key of `pos` up to the mirror: the smaller of its own and its mirror image's, so
    /// that both share one job.
    pub fn canon(pos: &P) -> Key {
        let own = pos.raw_key();
        match pos.mirrored() {
            Some(m) => own.min(m.raw_key()),
            None => own,
        }
    }

    /// The nodes the current run of node `i`'s own job searches: the first run the tree's
    /// job nodes, each later one twice the last.
    pub fn run_nodes(&self, i: u32) -> u64 {
        let run = self.nodes[i as usize].tries.max(1) as u32 - 1;
        self.totals.job_nodes.saturating_mul(1u64 << run.min(62))
    }

    /// True when node `i` takes its value from a job of its mirror image's position (its
    /// proof is that job's proof mirrored).
    pub fn mirrors_job(&self, i: u32) -> bool {
        let n = &self.nodes[i as usize];
        n.job != NONE && self.nodes[n.job as usize].key != n.key
    }

    /// The position of node `i`.
    pub fn position(&self, i: u32) -> P {
        let key = &self.nodes[i as usize].key;
        // Every key in the tree was made from a position of the root's game (or checked
        // when read), so this holds.
        self.root.with_key(key).unwrap_or(self.root)
    }

    /// The root's value for its side to move.
    pub fn root_value(&self) -> Value {
        self.nodes[0].value
    }

    /// The root's proof and disproof numbers for its side to move (a running job counts
    /// as an open leaf); `None` once the root is settled.
    pub fn root_numbers(&self) -> Option<(u64, u64)> {
        let (pn, dn) = self.numbers[0];
        (!self.root_value().known()).then_some((pn, dn))
    }

    /// The winner and the bound on the length, once the root is settled.
    pub fn verdict(&self) -> Option<Verdict> {
        let side = self.root.side_to_move();
        match self.root_value() {
            Value::Unknown => None,
            Value::Win(p) => Some(Verdict::Win {
                winner: side,
                plies: p as u32,
            }),
            Value::Loss(p) => Some(Verdict::Win {
                winner: side.opponent(),
                plies: p as u32,
            }),
        }
    }

    /// The open leaves (unsolved, not running) counted once a position up to the mirror:
    /// the jobs they need.
    pub fn open_positions(&self) -> u64 {
        let open = (0..self.nodes.len()).filter(|&i| {
            let n = &self.nodes[i];
            n.state == NodeState::Leaf && !n.value.known()
        });
        open.map(|i| self.canon[i])
            .collect::<std::collections::HashSet<_>>()
            .len() as u64
    }

    /// The nodes by what they are now.
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            nodes: self.nodes.len() as u64,
            ..Counts::default()
        };
        for n in &self.nodes {
            match (n.value, n.state) {
                (Value::Win(_), _) => c.won += 1,
                (Value::Loss(_), _) => c.lost += 1,
                (_, NodeState::Leaf) => c.open += 1,
                (_, NodeState::Running) => c.running += 1,
                (_, NodeState::Expanded) => c.inner += 1,
            }
        }
        c
    }
}
