//! The options of `tablebase build`, `tablebase compress` and `solve` that each game's
//! registration reads: declared beside the games, so that the registrations need nothing
//! of the commands that dispatch to them.

use super::{GameName, TableArgs};
use quasar_core::Shard;
use std::path::PathBuf;

/// Options of `tablebase build` (and `plan`): the shared ones, then each game's own.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::default())]
    pub game: GameName,
    /// At most this many pieces, where the game counts them (its region, strip or board):
    /// an endgame table, or the databases of 1 to N pieces
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<u32>,
    /// The old name of --pieces-per-side, and of --max-pieces for tables that take no
    /// --pieces-per-side
    #[arg(long, hide = true, value_name = "K")]
    pub pieces: Option<u32>,
    /// Build only the slice of this name (`tablebase plan` lists them); its inputs must be
    /// built already. A finished slice is found and skipped
    #[arg(long, value_name = "NAME", conflicts_with = "wave")]
    pub slice: Option<String>,
    /// Build only the slices of this wave (from 0; `tablebase plan` lists them); the waves
    /// before it must be built already
    #[arg(long, value_name = "W")]
    pub wave: Option<usize>,
    /// With --wave: build only this job's share of the wave, every N-th slice from the i-th
    /// (i from 1, as Slurm's --array=1-N and GNU parallel's {#} number jobs)
    #[arg(long, value_name = "i/N", requires = "wave")]
    pub shard: Option<Shard>,
    /// Output file, or directory of slices [default: named after the game and what the
    /// table covers, as each game's page in docs/games/ says]
    #[arg(short, long, alias = "output", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Threads that solve the positions (a build splits into independent pieces, as the
    /// arena's games and a proof's check do) [default: every core]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub games: TableArgs,
}

/// Options of `tablebase compress`.
#[derive(clap::Args)]
pub struct CompressArgs {
    /// Game of the databases [default: the directory's own]
    #[arg(long, value_enum)]
    pub(crate) game: Option<GameName>,
    /// Breakthrough: the board the sliced table must be for (it is read from the table)
    #[arg(long)]
    pub board: Option<breakthrough::Board>,
    /// The databases or sliced table to compress (left as they are)
    pub(crate) dir: PathBuf,
    /// The directory of the compressed databases; a stopped run resumes there
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Positions a block: a power of two of 64 to 16777216; larger blocks compress better
    /// and probe slower [default: 4096 for checkers, 1024 for Breakthrough]
    #[arg(long, value_name = "N")]
    pub block: Option<u64>,
    /// No line per slice
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Solve a position exactly, or check a proof file.
#[derive(clap::Args)]
#[command(after_help = SOLVE_HELP)]
pub struct SolveArgs {
    /// The game
    #[arg(long, value_enum, default_value_t = GameName::default())]
    pub(crate) game: GameName,
    /// Woodpush: the strip's width, 6 to 31 cells [default: 7; the width of --position
    /// when one is given]
    #[arg(long, value_name = "N")]
    pub(crate) width: Option<u32>,
    /// Chinese Checkers: pieces a side, 1 to 6 [default: 2]
    #[arg(long = "pieces-per-side", alias = "pieces", value_name = "K")]
    pub(crate) pieces: Option<u32>,
    /// Board size WxH [default: 5x5] (smaller than the other commands' 6x6 default, which
    /// takes far longer to solve); the start position is solved unless --position is
    /// given, whose size is the board's
    #[arg(long)]
    pub(crate) board: Option<String>,
    /// Solve this position instead of the start, e.g. "BBBB/BBBB/4/WWWW/4 b" (4x5); its
    /// size is the board's (checkers: a PDN FEN, required)
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// A table file for the board whose sound claims end the search early (checkers: the
    /// database folder, whose positions are leaves; with --check, the same folder)
    #[arg(long, conflicts_with = "no_tb")]
    pub(crate) tb: Option<PathBuf>,
    /// Rows of the table built in memory when no --tb is given (default 4 on boards of 6
    /// rows or more and at most 5 columns, else 3)
    #[arg(long, conflicts_with_all = ["tb", "no_tb"])]
    pub(crate) tb_rows: Option<u32>,
    /// Use no table at all
    #[arg(long)]
    pub(crate) no_tb: bool,
    /// Write the proof here (checked by `quasar solve --check FILE`); the answer itself is
    /// printed
    #[arg(short = 'o', long = "out", alias = "proof", value_name = "FILE")]
    pub(crate) proof: Option<PathBuf>,
    /// Check a proof file instead of solving (the proof names its board and position)
    #[arg(long, conflicts_with_all = ["board", "position", "tb_rows", "no_tb", "proof",
                                      "checkpoint", "stop_after", "memory", "length_pn_from"])]
    pub(crate) check: Option<PathBuf>,
    /// Threads for --check (work split into independent pieces, as the arena's games and a
    /// table's build) [default: every core; at most the cores there are]
    #[arg(long, requires = "check", value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
    /// One job of N: with --check, check its share of the records (the proof holds when
    /// all N pass); with --out, write its share of the proof (the sub-proofs of its share
    /// of the loser's first replies; of a draw, of the first moves of the side that does
    /// not hold), a piece for --merge. E.g. a Slurm array or GNU parallel over 1/N .. N/N
    #[arg(long, value_name = "I/N", conflicts_with_all = ["within", "list_children"])]
    pub(crate) shard: Option<Shard>,
    /// Merge the proof pieces written with --out P --shard I/N (each from the same
    /// checkpoint, or the same options) into the --out file; --game names their game
    #[arg(long, value_name = "PIECE", num_args = 1.., requires = "proof",
          conflicts_with_all = ["check", "position", "tb", "tb_rows", "no_tb", "checkpoint",
                                "stop_after", "within", "list_children", "shard"])]
    pub(crate) merge: Vec<PathBuf>,
    /// Save the search's state to FILE every few minutes and when stopped by SIGTERM or
    /// Ctrl-C, and resume from FILE when it exists (a stopped or killed solve goes on
    /// where the last save left it)
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 300, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) checkpoint_every: u64,
    /// Stop after this many nodes of this run (1 or more), saving a checkpoint (to try
    /// --checkpoint)
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) stop_after: Option<u64>,
    /// Test the length's bounds of this many plies or more by proof numbers (best first),
    /// smaller ones depth first [default: 6 on Breakthrough boards of 5 columns and 6 rows
    /// or more, else 255: depth first throughout]: on 5x6 positions lasting 25 plies or more it
    /// took up to half the time, on smaller problems up to twice as long (README, "Solve")
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(4..=255))]
    pub(crate) length_pn_from: Option<u32>,
    /// Prove the winner only: one loose bound is tested by proof numbers and the proof
    /// (--out, required) states the bound its records need, not the exact length; far
    /// faster, and what each job of --tree runs
    #[arg(long, requires = "proof", conflicts_with_all = ["within", "shard", "list_children"])]
    pub(crate) winner_only: bool,
    /// Print one line per move of the position (one of each pair of mirror images):
    /// MOVE<TAB>POSITION<TAB>VALUE, the value the mover's where the game ends or the --tb
    /// table holds it (wins, loses, draws), else unknown: a job to solve
    #[arg(long, conflicts_with_all = ["check", "proof", "checkpoint", "stop_after"])]
    pub(crate) list_children: bool,
    /// Only test whether the winner wins within PLIES plies (after the value's search):
    /// one bound of the length search, a job of its own; the length is the least bound
    /// that holds, so bounds tested on as many machines find it at once (a draw answers
    /// that no side wins). A --checkpoint of a solve of the same position is used and
    /// stays valid for it. Checkers counts the plies to the databases' positions
    #[arg(long, value_name = "PLIES", conflicts_with_all = ["check", "proof", "list_children"],
          value_parser = clap::value_parser!(u32).range(1..=254))]
    pub(crate) within: Option<u32>,
    /// MiB for each phase's transposition table [default: by the board, as a larger table
    /// only costs its allocation on a small one: 16 up to 16 cells, 64 up to 20 cells, 512
    /// above and for the other games]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub(crate) memory: Option<u64>,
    /// No progress line
    #[arg(long)]
    pub(crate) quiet: bool,
    /// A job-level proof search kept in the folder DIR, one ACTION a run: init (of --board
    /// or --position, with the jobs' --memory and table options), next (the next jobs, to
    /// DIR/jobs.txt), feed (their answers), status, proof (--out FILE)
    #[arg(long, value_name = "DIR", requires = "tree_action",
          conflicts_with_all = ["check", "merge", "within", "list_children", "shard",
                                "checkpoint", "stop_after", "json"])]
    pub(crate) tree: Option<PathBuf>,
    /// What to do with the --tree folder
    #[arg(value_enum, value_name = "ACTION", requires = "tree")]
    pub(crate) tree_action: Option<TreeAction>,
    /// With --tree DIR next: the jobs to issue, those issued before and never answered
    /// first [default: twice the cores]
    #[arg(long, value_name = "N", requires = "tree",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) jobs: Option<u32>,
    /// With --tree DIR init: nodes the first run of each job searches before it stops
    /// (saving its checkpoint) [default: 20000000, about 10 to 30 s of one core]
    #[arg(long, value_name = "NODES", requires = "tree",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) job_nodes: Option<u64>,
    /// With --tree DIR init: runs a leaf's job gets, each resuming the last one's
    /// checkpoint with twice its nodes (--job-nodes, then 2, 4, ... times as many), before
    /// the leaf is expanded instead [default: 4]
    #[arg(long, value_name = "RUNS", requires = "tree",
          value_parser = clap::value_parser!(u64).range(1..=16))]
    pub(crate) job_runs: Option<u64>,
    /// With --tree DIR init: plies below the root expanded at once, so that the first
    /// jobs are many [default: 1]
    #[arg(long, value_name = "PLIES", requires = "tree",
          value_parser = clap::value_parser!(u32).range(0..=8))]
    pub(crate) expand_plies: Option<u32>,
    /// With --tree DIR init: an expanded leaf's children start at proof and disproof
    /// numbers 1/1, as if its job had not run, instead of from the numbers its checkpoint
    /// left for them (for comparisons)
    #[arg(long, requires = "tree")]
    pub(crate) fresh_children: bool,
    /// Print one JSON object (keys in docs/solver.md) instead of text, for a solve, a
    /// --within bound or a --check; an error prints {"error": "..."}
    #[arg(long, conflicts_with_all = ["merge", "list_children"])]
    pub(crate) json: bool,
}

const SOLVE_HELP: &str = "\
Finds the winner by proof-number search (df-pn), then the exact length of the game under
perfect play (the winner hurries, the loser delays) by a bounded search asked for growing
lengths. Finished games, wins in one, unstoppable threats and the table's sound claims end
the search. The proof file holds the winner's move at every node (the loser's moves are
all implied), written to disk as it is found and sorted by a hash of the position with an
index; --check replays it with the rules alone (records in parallel, --threads) and
re-derives every table claim by plain search. It proves the winner and the upper bound on
the length. In Woodpush, Chinese Checkers and checkers a draw's proof holds each side's
moves that keep the other from winning, and --check verifies that they answer every move.
Every game takes --within, --list-children, --shard with --out, and --merge.

Examples:
  quasar solve --board 4x4                          Black wins, 14 plies
  quasar solve --board 5x5 --out 5x5.proof          Black wins, 26 plies
  quasar solve --check 5x5.proof --threads 2
  quasar solve --check 5x6.proof --shard 3/8        one of 8 jobs, each checking an eighth
  quasar solve --board 5x6 --checkpoint C --out P3 --shard 3/8
                                                    one of 8 jobs writing the proof (each
                                                    from a copy of one solve's checkpoint)
  quasar solve --merge P1 P2 P3 ... --out 5x6.proof     the pieces into one proof
  quasar solve --board 5x5 --no-tb                  without any table
  quasar solve --board 5x5 --within 25              one bound: Black wins within 25 plies? no
  quasar solve --board 5x6 --list-children          a line per root move (MOVE<TAB>FEN),
                                                    to solve each child by its own job
  nice -n 19 quasar solve --board 6x5 --memory 4096 --checkpoint 6x5.ckpt --out 6x5.proof
                                                    a long solve that resumes when run again
  quasar solve --game checkers --position 'B:W18,K30:B14,K1' --tb ck2 --out ck.proof
                                                    over checkers' databases of 2 pieces
  quasar solve --game checkers --check ck.proof --tb ck2   with the same databases
  quasar solve --game woodpush --width 9 --out w9.proof     a draw, with its proof
  quasar solve --game woodpush --width 9 --out w9.2 --shard 2/3
                                                    one of 3 jobs writing the draw's proof
  quasar solve --game woodpush --merge w9.1 w9.2 w9.3 --out w9.proof
  quasar solve --game woodpush --width 7 --list-children    a line per move and its value
  quasar solve --board 6x5 --winner-only --out 6x5.proof    the winner and a proof of a
                                                    bound on the length, not the exact one
  quasar solve --tree t65 init --board 6x5 --job-nodes 5000000
                                                    a job-level proof search in folder t65:
  quasar solve --tree t65 next --jobs 4             the next jobs, to t65/jobs.txt,
  parallel -j 2 < t65/jobs.txt                      run by GNU parallel or a Slurm array,
  quasar solve --tree t65 feed                      their answers read back (then next ...)
  quasar solve --tree t65 proof --out 6x5.proof     once settled, the merged proof

SIGTERM or Ctrl-C (SIGINT) stops a solve within a second: with --checkpoint it saves the
checkpoint at once and exits with status 75 (run the same command to resume); without, it
exits with 128 + the signal's number (130, 143) and says that nothing was saved. A second
signal during the save ends it at once (the previous checkpoint stays intact).";

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
