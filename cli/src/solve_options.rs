//! The options of `quasar solve` that the driver and every game's solve read: the position
//! and its size, the table, the proof, the check, the jobs of a shared or job-level search,
//! and the output.

use quasar_core::Shard;
use std::path::PathBuf;

/// Options of `quasar solve` beyond `--game`.
#[derive(clap::Args, Clone, Debug)]
pub struct SolveOptions {
    /// Woodpush: the strip's width, 6 to 31 cells [default: 7; the width of --position
    /// when one is given]
    #[arg(long, value_name = "N")]
    pub width: Option<u32>,
    /// Chinese Checkers: pieces a side, 1 to 6 [default: 2]
    #[arg(long = "pieces-per-side", alias = "pieces", value_name = "K")]
    pub pieces: Option<u32>,
    /// Board size WxH [default: 5x5] (smaller than the other commands' 6x6 default, which
    /// takes far longer to solve); the start position is solved unless --position is
    /// given, whose size is the board's
    #[arg(long)]
    pub board: Option<String>,
    /// Solve this position instead of the start, e.g. "BBBB/BBBB/4/WWWW/4 b" (4x5); its
    /// size is the board's (checkers: a PDN FEN, required)
    #[arg(long)]
    pub position: Option<String>,
    /// A table file for the board whose sound claims end the search early (checkers: the
    /// database folder, whose positions are leaves; with --check, the same folder)
    #[arg(long, conflicts_with = "no_tb")]
    pub tb: Option<PathBuf>,
    /// Rows of the table built in memory when no --tb is given (default 4 on boards of 6
    /// rows or more and at most 5 columns, else 3)
    #[arg(long, conflicts_with_all = ["tb", "no_tb"])]
    pub tb_rows: Option<u32>,
    /// Use no table at all
    #[arg(long)]
    pub no_tb: bool,
    /// Write the proof here (checked by `quasar solve --check FILE`); the answer itself is
    /// printed
    #[arg(short = 'o', long = "out", alias = "proof", value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Check a proof file instead of solving (the proof names its board and position)
    #[arg(long, conflicts_with_all = ["board", "position", "tb_rows", "no_tb", "proof",
                                      "checkpoint", "stop_after", "memory", "length_pn_from"])]
    pub check: Option<PathBuf>,
    /// Threads for --check (work split into independent pieces, as the arena's games and a
    /// table's build) [default: every core; at most the cores there are]
    #[arg(long, requires = "check", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// One job of N: with --check, check its share of the records (the proof holds when
    /// all N pass); with --out, write its share of the proof (the sub-proofs of its share
    /// of the loser's first replies; of a draw, of the first moves of the side that does
    /// not hold), a piece for --merge. E.g. a Slurm array or GNU parallel over 1/N .. N/N
    #[arg(long, value_name = "I/N", conflicts_with_all = ["within", "list_children"])]
    pub shard: Option<Shard>,
    /// Merge the proof pieces written with --out P --shard I/N (each from the same
    /// checkpoint, or the same options) into the --out file; --game names their game
    #[arg(long, value_name = "PIECE", num_args = 1.., requires = "proof",
          conflicts_with_all = ["check", "position", "tb", "tb_rows", "no_tb", "checkpoint",
                                "stop_after", "within", "list_children", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Save the search's state to FILE every few minutes and when stopped by SIGTERM or
    /// Ctrl-C, and resume from FILE when it exists (a stopped or killed solve goes on
    /// where the last save left it)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 300, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: u64,
    /// Stop after this many nodes of this run (1 or more), saving a checkpoint (to try
    /// --checkpoint)
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after: Option<u64>,
    /// Test the length's bounds of this many plies or more by proof numbers (best first),
    /// smaller ones depth first [default: 6 on Breakthrough boards of 5 columns and 6 rows
    /// or more, else 255: depth first throughout]: on 5x6 positions lasting 25 plies or more it
    /// took up to half the time, on smaller problems up to twice as long (README, "Solve")
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(4..=255))]
    pub length_pn_from: Option<u32>,
    /// Prove the winner only: one loose bound (PLIES, 200 when not given) is tested by
    /// proof numbers and the proof (--out, required) states the bound its records need, not
    /// the exact length; far faster, and what each job of --tree runs. A bound near the
    /// length can be cheaper where the loser can delay without end (checkers' kings):
    /// --winner-only=80
    #[arg(long, value_name = "PLIES", num_args = 0..=1, require_equals = true, requires = "proof",
          conflicts_with_all = ["within", "shard", "list_children"],
          value_parser = clap::value_parser!(u32).range(2..=254))]
    pub winner_only: Option<Option<u32>>,
    /// Print one line per move of the position (one of each pair of mirror images):
    /// MOVE<TAB>POSITION<TAB>VALUE, the value the mover's where the game ends or the --tb
    /// table holds it (wins, loses, draws), else unknown: a job to solve
    #[arg(long, conflicts_with_all = ["check", "proof", "checkpoint", "stop_after"])]
    // The comment is the option's help, printed as written: `<TAB>` is no HTML tag.
    #[allow(rustdoc::invalid_html_tags)]
    pub list_children: bool,
    /// Only test whether the winner wins within PLIES plies (after the value's search):
    /// one bound of the length search, a job of its own; the length is the least bound
    /// that holds, so bounds tested on as many machines find it at once (a draw answers
    /// that no side wins). A --checkpoint of a solve of the same position is used and
    /// stays valid for it. Checkers counts the plies to the databases' positions
    #[arg(long, value_name = "PLIES", conflicts_with_all = ["check", "proof", "list_children"],
          value_parser = clap::value_parser!(u32).range(1..=254))]
    pub within: Option<u32>,
    /// MiB for each phase's transposition table [default: by the board, as a larger table
    /// only costs its allocation on a small one: 16 up to 16 cells, 64 up to 20 cells, 512
    /// above and for the other games]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub memory: Option<u64>,
    /// No progress line
    #[arg(long)]
    pub quiet: bool,
    /// A job-level proof search kept in the folder DIR, one ACTION a run: init (of --board
    /// or --position, with the jobs' --memory and table options), next (the next jobs, to
    /// DIR/jobs.txt), feed (their answers), status, proof (--out FILE)
    #[arg(long, value_name = "DIR", requires = "tree_action",
          conflicts_with_all = ["check", "merge", "within", "list_children", "shard",
                                "checkpoint", "stop_after", "json"])]
    pub tree: Option<PathBuf>,
    /// What to do with the --tree folder
    #[arg(value_enum, value_name = "ACTION", requires = "tree")]
    pub tree_action: Option<TreeAction>,
    /// With --tree DIR next: the jobs to issue, those issued before and never answered
    /// first [default: twice the cores]
    #[arg(long, value_name = "N", requires = "tree",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub jobs: Option<u32>,
    /// With --tree DIR init: nodes the first run of each job searches before it stops
    /// (saving its checkpoint) [default: 20000000, about 10 to 30 s of one core]
    #[arg(long, value_name = "NODES", requires = "tree",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub job_nodes: Option<u64>,
    /// With --tree DIR init: runs a leaf's job gets, each resuming the last one's
    /// checkpoint with twice its nodes (--job-nodes, then 2, 4, ... times as many), before
    /// the leaf is expanded instead [default: 4]
    #[arg(long, value_name = "RUNS", requires = "tree",
          value_parser = clap::value_parser!(u64).range(1..=16))]
    pub job_runs: Option<u64>,
    /// With --tree DIR init: plies below the root expanded at once, so that the first
    /// jobs are many [default: 1]
    #[arg(long, value_name = "PLIES", requires = "tree",
          value_parser = clap::value_parser!(u32).range(0..=8))]
    pub expand_plies: Option<u32>,
    /// With --tree DIR init: an expanded leaf's children start at proof and disproof
    /// numbers 1/1, as if its job had not run, instead of from the numbers its checkpoint
    /// left for them (for comparisons)
    #[arg(long, requires = "tree")]
    pub fresh_children: bool,
    /// Print one JSON object (keys in docs/solver.md) instead of text, for a solve, a
    /// --within bound or a --check; an error prints {"error": "..."}
    #[arg(long, conflicts_with_all = ["merge", "list_children"])]
    pub json: bool,
}

/// A thread count for `--check`: 1 to the cores this machine has (each thread holds its
/// own buffers, so more threads than cores only cost memory).
fn parse_threads(text: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match text.parse::<usize>() {
        Ok(n) if (1..=cores).contains(&n) => Ok(n),
        _ => Err(format!(
            "give 1 to {cores} (the cores of this machine), not {}",
            quasar_file::shorten(text, 20)
        )),
    }
}

/// What `--tree DIR` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TreeAction {
    /// Start a tree of the position in a new folder
    Init,
    /// Pick the next jobs and write them to DIR/jobs.txt
    Next,
    /// Read the finished jobs' answers into the tree
    Feed,
    /// Print the tree's progress
    Status,
    /// Write the settled root's proof (--out FILE)
    Proof,
}
