//! `quasar solve`: solve a position exactly (winner and length under perfect play), write
//! the proof, or check a proof file, through each game's registration ([`SolveGame`]);
//! the signals and costs every game's solve shares.

use super::CliResult;
use crate::games::registration::{kinds_taking, SolveGame, TableGame};
use crate::games::{with_game, GameName};
use crate::progress::Bars;
use prover::SolveError;
use quasar_core::measure::peak_memory_kib;
use quasar_core::Shard;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

pub mod driver;
pub mod tree;

/// Solve a position exactly, or check a proof file.
#[derive(clap::Args)]
#[command(after_help = SOLVE_HELP)]
pub struct Args {
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
    pub(crate) tree_action: Option<tree::TreeAction>,
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

/// The transposition table's MiB unless `--memory` says: small boards are solved in
/// milliseconds, which a table of 512 MiB would spend tenfold on its allocation alone.
pub(crate) fn default_memory_mib(cells: u64) -> u64 {
    match cells {
        0..=16 => 16,
        17..=20 => 64,
        _ => 512,
    }
}

/// Exit status of a solve stopped by a signal after saving its checkpoint (sysexits'
/// EX_TEMPFAIL: try again later), so a batch script can tell it from a failure and requeue.
const EXIT_SAVED: i32 = 75;

impl Args {
    /// The options given that some game's solve may refuse, by flag.
    fn given(&self) -> Vec<&'static str> {
        let check = self.check.is_some();
        [
            (self.width.is_some(), "--width"),
            (self.pieces.is_some(), "--pieces-per-side"),
            (self.board.is_some(), "--board"),
            (self.tb_rows.is_some(), "--tb-rows"),
            (self.tree.is_some(), "--tree"),
            (self.tb.is_some() && check, "--tb (with --check)"),
        ]
        .into_iter()
        .filter(|(given, _)| *given)
        .map(|(_, flag)| flag)
        .collect()
    }
}

/// Refuses the first option given that `S`'s solve does not take, naming the games whose
/// solve does.
fn refuse_unused<S: SolveGame>(args: &Args) -> CliResult {
    let Some(flag) = args
        .given()
        .into_iter()
        .find(|f| !S::SOLVE_OPTIONS.contains(f))
    else {
        return Ok(());
    };
    let owners = kinds_taking(
        flag,
        |g| with_game!(g, G => (G::SOLVE_OPTIONS, G::TABLE_KIND)),
    );
    Err(match flag {
        "--tb (with --check)" => format!(
            "--check replays a proof of {} with the rules alone: --tb goes with --check for \
             {owners} proofs only",
            S::NAME
        ),
        _ => format!("{flag} is for {owners} solve only, not {}", S::NAME),
    }
    .into())
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S => {
        refuse_unused::<S>(&args)?;
        driver::run::<S>(&args)
    })
}

/// SIGINT and SIGTERM raise a flag that the search polls, instead of killing the process.
pub(crate) struct Interrupt {
    /// Raised by either signal.
    pub(crate) raised: Arc<AtomicBool>,
    /// The number of the last signal received.
    which: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Asks for the flag instead of an exit on the first signal (a second signal while the
    /// flag is up removes the files in progress and ends the process at once).
    pub(crate) fn install() -> Result<Interrupt, Box<dyn std::error::Error>> {
        let (raised, which) = crate::signals::graceful();
        Ok(Interrupt { raised, which })
    }

    /// The signal that raised the flag.
    fn signal(&self) -> i32 {
        self.which.load(Ordering::Relaxed) as i32
    }
}

/// A signal's usual name.
fn signal_name(signal: i32) -> String {
    match signal {
        2 => "SIGINT (Ctrl-C)".to_string(),
        15 => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    }
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

/// The solve's answer, or its error; a stop by signal prints its line and ends the
/// process with a status of its own (75 when the checkpoint was saved), since the shared
/// error path exits with 1 for every error. The progress shown in `bars` ends first; a
/// stop (by signal or by `--stop-after`) in the writing of the `proof` also says where
/// its written part is kept.
pub(crate) fn handle_stop<T>(
    result: Result<T, SolveError>,
    bars: &Bars,
    interrupt: &Interrupt,
    proof: Option<&Path>,
) -> Result<T, SolveError> {
    bars.finish();
    if let Err(SolveError::Interrupted { .. } | SolveError::Stopped { .. }) = &result {
        let partial = proof.map(prover::proof_writer::scratch_folder);
        if let Some(folder) = partial.filter(|f| f.is_dir()) {
            eprintln!(
                "the proof written so far is kept in {}; the same command goes on with it",
                folder.display()
            );
        }
    }
    match result {
        Err(SolveError::Interrupted { nodes, saved }) => {
            let signal = interrupt.signal();
            let code = match &saved {
                Some(path) => {
                    eprintln!(
                        "stopped by {}; checkpoint {} saved at {nodes} nodes; run the same command to resume",
                        signal_name(signal),
                        path.display()
                    );
                    EXIT_SAVED
                }
                None => {
                    eprintln!(
                        "stopped by {} after {nodes} nodes; nothing was saved (give --checkpoint FILE to be able to resume)",
                        signal_name(signal)
                    );
                    128 + signal
                }
            };
            std::process::exit(code);
        }
        other => other,
    }
}

/// The answer of a search that `--stop-after` stopped, as asked: not an error, so it exits
/// with 0, saying where it stopped and how to go on; with `json`, `game`'s keys (the game
/// and the position) and the stop's.
pub(crate) fn stopped(
    mut game: serde_json::Value,
    nodes: u64,
    saved: Option<&Path>,
    json: bool,
) -> CliResult {
    if json {
        game["stopped"] = true.into();
        game["nodes"] = nodes.into();
        game["checkpoint"] = saved.map(|p| p.display().to_string()).into();
        return crate::cli::output::print_json(&game);
    }
    match saved {
        Some(path) => println!(
            "stopped after {nodes} nodes as asked (--stop-after); checkpoint {} saved: the same \
             command goes on from it (without --stop-after, to the end)",
            path.display()
        ),
        None => println!(
            "stopped after {nodes} nodes as asked (--stop-after); nothing was saved: give \
             --checkpoint FILE to be able to resume"
        ),
    }
    Ok(())
}

/// Prints the nodes and seconds of both phases (the first found `how`, the second named
/// `second`) and the peak memory.
pub(crate) fn print_costs(nodes: (u64, u64), seconds: (f64, f64), how: &str, second: &str) {
    println!(
        "nodes: {} (winner, {how}) + {} (length) = {}",
        nodes.0,
        nodes.1,
        nodes.0 + nodes.1
    );
    println!(
        "time: {:.3} s (winner) + {:.3} s ({second}) = {:.3} s",
        seconds.0,
        seconds.1,
        seconds.0 + seconds.1
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
}
