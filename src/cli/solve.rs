//! `quasar solve`: solve a small board exactly (winner and length under perfect play),
//! write the proof, or check a proof file.

use super::{position_from, CliResult, SizeRule};
use crate::games::breakthrough::BreakthroughSetup;
use crate::games::{DefaultSize, GameName};
use breakthrough::solve::{self, Options, ProofFile, SolveProgress, Status};
use breakthrough::tablebase::generate::peak_memory_kib;
use breakthrough::tablebase::Tablebase;
use breakthrough::{Board, Position};
use quasar_core::Game;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Solve a position exactly, or check a proof file.
#[derive(clap::Args)]
#[command(after_help = SOLVE_HELP)]
pub struct Args {
    /// The game (the exact solver knows Breakthrough)
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Board size WxH (the start position is solved unless --position is given)
    #[arg(long, default_value = "5x5")]
    board: Board,
    /// Solve this position instead of the start, e.g. "BBBB/BBBB/4/WWWW/4 b"
    #[arg(long)]
    position: Option<String>,
    /// A table file for the board whose sound claims end the search early
    #[arg(long, conflicts_with = "no_tb")]
    tb: Option<PathBuf>,
    /// Rows of the table built in memory when no --tb is given (default 3)
    #[arg(long, conflicts_with_all = ["tb", "no_tb"])]
    tb_rows: Option<u32>,
    /// Use no table at all
    #[arg(long)]
    no_tb: bool,
    /// Write the proof here (checked by `quasar solve --check FILE`)
    #[arg(long)]
    proof: Option<PathBuf>,
    /// Check a proof file instead of solving
    #[arg(long, conflicts_with_all = ["position", "tb", "tb_rows", "no_tb", "proof", "checkpoint", "stop_after"])]
    check: Option<PathBuf>,
    /// Threads for --check (default: all cores)
    #[arg(long, requires = "check")]
    threads: Option<usize>,
    /// Save the search's state to FILE every few minutes, and resume from FILE when it
    /// exists (a stopped or killed solve goes on where the last save left it)
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 300, requires = "checkpoint")]
    checkpoint_every: u64,
    /// Stop after this many nodes of this run, saving a checkpoint (to try --checkpoint)
    #[arg(long, value_name = "NODES")]
    stop_after: Option<u64>,
    /// MiB for each phase's transposition table
    #[arg(long, default_value_t = 512)]
    memory: usize,
    /// No progress line
    #[arg(long)]
    quiet: bool,
}

const SOLVE_HELP: &str = "\
Finds the winner by proof-number search (df-pn), then the exact length of the game under
perfect play (the winner hurries, the loser delays) by a bounded search asked for growing
lengths. Finished games, wins in one, unstoppable threats and the table's sound claims end
the search. The proof file holds the winner's move at every node (the loser's moves are
all implied), written to disk as it is found and sorted by a hash of the position with an
index; --check replays it with the rules alone (records in parallel, --threads) and
re-derives every table claim by plain search. It proves the winner and the upper bound on
the length.

Examples:
  quasar solve --board 4x4                          Black wins, 14 plies
  quasar solve --board 5x5 --proof 5x5.proof        Black wins, 26 plies
  quasar solve --check 5x5.proof --threads 2
  quasar solve --board 5x5 --no-tb                  without any table
  nice -n 19 quasar solve --board 6x5 --memory 4096 --checkpoint 6x5.ckpt --proof 6x5.proof
                                                    a long solve that resumes when run again";

/// Prints the library's progress on standard error: one line rewritten at most twice a
/// second on a terminal, else a new line every ten seconds (for a log).
struct Line {
    last: Mutex<Instant>,
    start: Instant,
    terminal: bool,
}

impl SolveProgress for Line {
    fn report(&self, s: &Status) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let every = if self.terminal { 500 } else { 10_000 };
        if last.elapsed().as_millis() < every {
            return;
        }
        *last = Instant::now();
        let bound = s
            .bound
            .map(|b| format!(", testing {b} plies"))
            .unwrap_or_default();
        let memory = peak_memory_kib()
            .map(|k| format!(", peak memory {} MiB", k >> 10))
            .unwrap_or_default();
        let (start, end) = if self.terminal {
            ("\r", "   ")
        } else {
            ("", "\n")
        };
        if s.phase == "proof" {
            eprint!(
                "{start}{:.0} s, proof: {} records written, {} table claims, set {} MiB{memory}{end}",
                self.start.elapsed().as_secs_f64(),
                s.nodes,
                s.proven,
                s.table_bytes >> 20
            );
            let _ = std::io::stderr().flush();
            return;
        }
        eprint!(
            "{start}{:.0} s, {}: {} nodes, {} proven, {} disproven, table {} MiB{memory}{bound}{end}",
            self.start.elapsed().as_secs_f64(),
            s.phase,
            s.nodes,
            s.proven,
            s.disproven,
            s.table_bytes >> 20
        );
        let _ = std::io::stderr().flush();
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    if args.game != GameName::Breakthrough {
        return Err(format!("quasar solve knows Breakthrough only, not {:?}", args.game).into());
    }
    if let Some(file) = &args.check {
        return check(file, args.threads, args.quiet);
    }
    let given = BreakthroughSetup { board: args.board };
    let (_, root) = position_from(
        Some(given),
        args.position.as_deref(),
        DefaultSize::Standard,
        SizeRule::MustAgree,
    )?;
    let built = Instant::now();
    let (tb, table_text) = if args.no_tb {
        (None, "none".to_string())
    } else if let Some(path) = &args.tb {
        let tb = Tablebase::open_for(path, root.board())?;
        let text = format!("{} ({} rows)", path.display(), tb.region().rows());
        (Some(tb), text)
    } else {
        match args.tb_rows.or_else(|| solve::default_rows(root.board())) {
            Some(rows) => {
                let tb = solve::table_in_memory(root.board(), rows)?;
                let text = format!(
                    "{rows} rows, built in memory in {:.2} s",
                    built.elapsed().as_secs_f64()
                );
                (Some(tb), text)
            }
            None => (None, "none (even 3 rows are too many to build here)".into()),
        }
    };
    let options = Options {
        tablebase: tb.as_ref(),
        table_bytes: args.memory << 20,
        proof: args.proof.as_deref(),
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: std::time::Duration::from_secs(args.checkpoint_every),
        stop_after: args.stop_after,
    };
    let terminal = std::io::stderr().is_terminal();
    let line = Line {
        last: Mutex::new(Instant::now()),
        start: Instant::now(),
        terminal,
    };
    let show = !args.quiet;
    let progress: &dyn SolveProgress = if show { &line } else { &solve::Quiet };
    let s = solve::solve(&root, &options, progress)?;
    if show && terminal {
        eprint!("\r{:79}\r", "");
    }
    println!("position: {}", root.to_fen());
    println!("table: {table_text}");
    let who = if s.winner == root.side() {
        "the side to move"
    } else {
        "the side not to move"
    };
    println!(
        "winner: {} ({who}); perfect play lasts {} plies",
        Position::side_name(s.winner),
        s.plies
    );
    let mut pos = root;
    let mut text = Vec::new();
    for &mv in &s.line {
        text.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    println!("principal line: {}", text.join(" "));
    println!(
        "nodes: {} (winner, df-pn) + {} (length) = {}",
        s.winner_nodes,
        s.length_nodes,
        s.winner_nodes + s.length_nodes
    );
    println!(
        "time: {:.3} s (winner) + {:.3} s (length) = {:.3} s",
        s.winner_seconds,
        s.length_seconds,
        s.winner_seconds + s.length_seconds
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    if let Some(p) = &s.proof {
        println!(
            "proof: {} ({} records, {} table claims, {} bytes, written in {:.3} s; set of written positions {} MiB)",
            p.path.display(),
            p.records,
            p.claims,
            p.bytes,
            s.proof_seconds,
            p.seen_bytes >> 20
        );
    }
    Ok(())
}

/// `--check FILE [--threads N] [--quiet]`.
fn check(file: &Path, threads: Option<usize>, quiet: bool) -> CliResult {
    let t = Instant::now();
    let proof = ProofFile::open(file)?;
    let view = proof.view()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    // A line on standard error every ten seconds: a large proof takes minutes.
    let last = Mutex::new(Instant::now());
    let total = view.len();
    let progress = |done: u64| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if !quiet && last.elapsed().as_secs() >= 10 {
            *last = Instant::now();
            eprintln!(
                "{:.0} s, check: {done} of {total} records",
                t.elapsed().as_secs_f64()
            );
        }
    };
    let r = pool.install(|| solve::check_view(&view, &progress))?;
    println!(
        "proof checked: {} wins from {} within {} plies ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s on {} threads)",
        Position::side_name(view.winner),
        view.root.to_fen(),
        view.plies,
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64(),
        pool.current_num_threads()
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}
