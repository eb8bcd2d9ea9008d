//! `quasar solve`: solve a small board exactly (winner and length under perfect play),
//! write the proof, or check a proof file.

use super::output::{length_text, print_json};
use super::{position_from, CliResult, SizeRule};
use crate::games::breakthrough::BreakthroughSetup;
use crate::games::GameName;
use breakthrough::solve::{self, Options, ProofFile, SolveError, SolveProgress, Status};
use breakthrough::tablebase::generate::peak_memory_kib;
use breakthrough::tablebase::Tablebase;
use breakthrough::{Board, Position};
use quasar_core::{Game, Outcome, Shard, Side};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod draws;

/// Solve a position exactly, or check a proof file.
#[derive(clap::Args)]
#[command(after_help = SOLVE_HELP)]
pub struct Args {
    /// The game
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Woodpush: the strip's width, 6 to 31 cells [default: 7; the width of --position
    /// when one is given]
    #[arg(long, value_name = "N")]
    width: Option<u32>,
    /// Chinese Checkers: pieces a side, 1 to 6 [default: 2]
    #[arg(long = "pieces-per-side", alias = "pieces", value_name = "K")]
    pieces: Option<u32>,
    /// Board size WxH [default: 5x5] (smaller than the other commands' 6x6 default, which
    /// takes far longer to solve); the start position is solved unless --position is
    /// given, whose size is the board's
    #[arg(long)]
    board: Option<Board>,
    /// Solve this position instead of the start, e.g. "BBBB/BBBB/4/WWWW/4 b" (4x5); its
    /// size is the board's (checkers: a PDN FEN, required)
    #[arg(long)]
    position: Option<String>,
    /// A table file for the board whose sound claims end the search early (checkers: the
    /// database folder, whose positions are leaves; with --check, the same folder)
    #[arg(long, conflicts_with = "no_tb")]
    tb: Option<PathBuf>,
    /// Rows of the table built in memory when no --tb is given (default 4 on boards of 6
    /// rows or more and at most 5 columns, else 3)
    #[arg(long, conflicts_with_all = ["tb", "no_tb"])]
    tb_rows: Option<u32>,
    /// Use no table at all
    #[arg(long)]
    no_tb: bool,
    /// Write the proof here (checked by `quasar solve --check FILE`)
    #[arg(long)]
    proof: Option<PathBuf>,
    /// Check a proof file instead of solving (the proof names its board and position)
    #[arg(long, conflicts_with_all = ["board", "position", "tb_rows", "no_tb", "proof",
                                      "checkpoint", "stop_after", "memory", "length_pn_from"])]
    check: Option<PathBuf>,
    /// Threads for --check (default: all cores; at most the cores there are)
    #[arg(long, requires = "check", value_parser = parse_threads)]
    threads: Option<usize>,
    /// One job of N: with --check, check its share of the records (the proof holds when
    /// all N pass); with --proof, write its share of the proof (the sub-proofs of its share
    /// of the loser's first replies), a piece for --merge. E.g. a Slurm array or GNU
    /// parallel over 1/N .. N/N
    #[arg(long, value_name = "I/N", conflicts_with_all = ["within", "list_children"])]
    shard: Option<Shard>,
    /// Merge the proof pieces written with --proof P --shard I/N (each from the same
    /// checkpoint) into the --proof file
    #[arg(long, value_name = "PIECE", num_args = 1.., requires = "proof",
          conflicts_with_all = ["check", "position", "tb", "tb_rows", "no_tb", "checkpoint",
                                "stop_after", "within", "list_children", "shard"])]
    merge: Vec<PathBuf>,
    /// Save the search's state to FILE every few minutes and when stopped by SIGTERM or
    /// Ctrl-C, and resume from FILE when it exists (a stopped or killed solve goes on
    /// where the last save left it)
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 300, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,
    /// Stop after this many nodes of this run, saving a checkpoint (to try --checkpoint)
    #[arg(long, value_name = "NODES")]
    stop_after: Option<u64>,
    /// Test the length's bounds of this many plies or more by proof numbers (best first),
    /// smaller ones depth first [default: 6 on boards of 5 columns and 6 rows or more,
    /// else 255: depth first throughout]: on 5x6 positions lasting 25 plies or more it
    /// took up to half the time, on smaller problems up to twice as long (README, "Solve")
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(4..=255))]
    length_pn_from: Option<u32>,
    /// Print one line per move of the position (one of each left-right mirror pair):
    /// the move, a tab, and the position after it, to solve each by its own job
    #[arg(long, conflicts_with_all = ["check", "proof", "checkpoint", "stop_after"])]
    list_children: bool,
    /// Only test whether the winner wins within PLIES plies (after df-pn): one bound of
    /// the length search, a job of its own; the length is the least bound that holds, so
    /// bounds tested on as many machines find it at once. A --checkpoint of a solve of the
    /// same position is used and stays valid for it
    #[arg(long, value_name = "PLIES", conflicts_with_all = ["check", "proof", "list_children"],
          value_parser = clap::value_parser!(u32).range(1..=254))]
    within: Option<u32>,
    /// MiB for each phase's transposition table
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    memory: u64,
    /// No progress line
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object (keys in docs/solver.md) instead of text, for a solve, a
    /// --within bound or a --check; an error prints {"error": "..."}
    #[arg(long, conflicts_with_all = ["merge", "list_children"])]
    json: bool,
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
  quasar solve --check 5x6.proof --shard 3/8        one of 8 jobs, each checking an eighth
  quasar solve --board 5x6 --checkpoint C --proof P3 --shard 3/8
                                                    one of 8 jobs writing the proof (each
                                                    from a copy of one solve's checkpoint)
  quasar solve --merge P1 P2 P3 ... --proof 5x6.proof   the pieces into one proof
  quasar solve --board 5x5 --no-tb                  without any table
  quasar solve --board 5x5 --within 25              one bound: Black wins within 25 plies? no
  quasar solve --board 5x6 --list-children          a line per root move (MOVE<TAB>FEN),
                                                    to solve each child by its own job
  nice -n 19 quasar solve --board 6x5 --memory 4096 --checkpoint 6x5.ckpt --proof 6x5.proof
                                                    a long solve that resumes when run again
  quasar solve --game checkers --position 'B:W18,K30:B14,K1' --tb ck2 --proof ck.proof
                                                    over checkers' databases of 2 pieces
  quasar solve --game checkers --check ck.proof --tb ck2   with the same databases

SIGTERM or Ctrl-C (SIGINT) stops a solve within a second: with --checkpoint it saves the
checkpoint at once and exits with status 75 (run the same command to resume); without, it
exits with 128 + the signal's number (130, 143) and says that nothing was saved. A second
signal during the save ends it at once (the previous checkpoint stays intact).";

/// Exit status of a solve stopped by a signal after saving its checkpoint (sysexits'
/// EX_TEMPFAIL: try again later), so a batch script can tell it from a failure and requeue.
const EXIT_SAVED: i32 = 75;

/// Prints the library's progress on standard error: one line rewritten at most twice a
/// second on a terminal, else a new line every ten seconds (for a log); the first report
/// of each phase at once, so a log shows when the search started and changed phase.
struct Line {
    /// When the last line was printed, and its phase (none yet: `None`).
    last: Mutex<(Instant, Option<&'static str>)>,
    start: Instant,
    terminal: bool,
}

impl SolveProgress for Line {
    fn report(&self, s: &Status) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let every = if self.terminal { 500 } else { 10_000 };
        if last.1 == Some(s.phase) && last.0.elapsed().as_millis() < every {
            return;
        }
        *last = (Instant::now(), Some(s.phase));
        let bound = s
            .bound
            .map(|b| format!(", testing {b} plies"))
            .unwrap_or_default();
        // INF (u32::MAX) means solved; a search mid-way shows finite numbers.
        let root = s
            .root
            .map(|(pn, dn)| format!(", root proof/disproof numbers {pn}/{dn}"))
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
            let place: Vec<String> = s
                .place
                .iter()
                .take_while(|p| p.1 > 0)
                .map(|(k, n)| format!("{k}/{n}"))
                .collect();
            let place = match place.len() {
                0 => String::new(),
                _ => format!(", at the loser's replies {}", place.join(" > ")),
            };
            eprint!(
                "{start}{:.0} s, proof: {} records written, {} table claims, set {} MiB{memory}{place}{end}",
                self.start.elapsed().as_secs_f64(),
                s.nodes,
                s.proven,
                s.table_bytes >> 20
            );
            let _ = std::io::stderr().flush();
            return;
        }
        eprint!(
            "{start}{:.0} s, {}: {} nodes, {} proven, {} disproven, table {} MiB{memory}{bound}{root}{end}",
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
    match args.game {
        GameName::Breakthrough => {}
        _ => return draws::run(&args),
    }
    if args.tb.is_some() && args.check.is_some() {
        return Err(
            "--check replays a proof of Breakthrough with the rules alone: --tb goes with --check for checkers' proofs only"
                .into(),
        );
    }
    if args.width.is_some() || args.pieces.is_some() {
        return Err(
            "--width and --pieces-per-side are not Breakthrough's: its size is --board WxH".into(),
        );
    }
    if let (false, Some(out)) = (args.merge.is_empty(), &args.proof) {
        return merge(&args.merge, out);
    }
    if args.shard.is_some() && args.check.is_none() && args.proof.is_none() {
        return Err("--shard I/N names a job's share of a --check or of a --proof".into());
    }
    if let Some(file) = &args.check {
        return check(
            file,
            args.threads,
            args.shard.unwrap_or(Shard::WHOLE),
            args.quiet,
            args.json,
        );
    }
    // The start of a smaller board than the other commands' default, or the position's
    // own size (which --board, when given, must agree with).
    let board = match (&args.position, args.board) {
        (None, None) => Some(Board::new(5, 5)?),
        (_, board) => board,
    };
    let given = board.map(|board| BreakthroughSetup { board });
    let (_, root) = position_from(given, args.position.as_deref(), SizeRule::MustAgree)?;
    if root.result().is_some() {
        return Err(format!(
            "{}: {}, so there is {}",
            root.to_fen(),
            game_over_text(&root),
            if args.list_children {
                "no move to list"
            } else {
                "nothing to solve"
            }
        )
        .into());
    }
    if args.list_children {
        return list_children(&root);
    }
    if let Some(free) = available_mib() {
        if args.memory > free {
            eprintln!(
                "warning: --memory {} MiB is more than the {free} MiB this machine has free \
                 now; the system may kill the search when the table fills",
                args.memory
            );
        }
    }
    // Before hours of search, not after them.
    if let Some(path) = &args.proof {
        super::paths::writable(path, "--proof")?;
    }
    if let Some(path) = &args.checkpoint {
        super::paths::writable(path, "--checkpoint")?;
    }
    // Installed before the table is built: a signal during the build stops the search at
    // its first look at the flag.
    let interrupt = Interrupt::install()?;
    let built = Instant::now();
    let (tb, table_text) = if args.no_tb {
        (None, "none".to_string())
    } else if let Some(path) = &args.tb {
        let tb = Tablebase::open_for(path, root.board())?;
        crate::games::breakthrough::warn_if_incomplete(path, &tb);
        let text = format!("{} ({} rows)", path.display(), tb.region().rows());
        (Some(tb), text)
    } else {
        match args.tb_rows.or_else(|| solve::default_rows(root.board())) {
            Some(rows) => {
                let tb =
                    solve::table_in_memory(root.board(), rows).map_err(|e| match args.tb_rows {
                        Some(_) => format!("--tb-rows: {e}"),
                        None => e.to_string(),
                    })?;
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
        table_bytes: usize::try_from(args.memory << 20).map_err(|_| {
            format!(
                "--memory {} MiB does not fit this machine's addresses",
                args.memory
            )
        })?,
        proof: args.proof.as_deref(),
        proof_shard: args.shard.unwrap_or(Shard::WHOLE),
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: std::time::Duration::from_secs(args.checkpoint_every),
        stop_after: args.stop_after,
        length_pn_from: args
            .length_pn_from
            .unwrap_or_else(|| solve::default_length_pn_from(root.board())),
        interrupt: Some(&interrupt.raised),
    };
    let terminal = std::io::stderr().is_terminal();
    let line = Line {
        last: Mutex::new((Instant::now(), None)),
        start: Instant::now(),
        terminal,
    };
    let show = !args.quiet;
    let progress: &dyn SolveProgress = if show { &line } else { &solve::Quiet };
    if let Some(plies) = args.within {
        let result = solve::test_bound(&root, &options, plies, progress);
        let t = match handle_stop(result, show && terminal, &interrupt, None) {
            Err(SolveError::Stopped { nodes, saved }) => {
                return stopped(&root, nodes, saved.as_deref(), args.json)
            }
            other => other?,
        };
        if args.json {
            return print_json(&solved_json(
                &root,
                &table_text,
                t.winner,
                serde_json::json!({
                    "within": plies,
                    "holds": t.holds,
                    "nodes": t.winner_nodes + t.length_nodes,
                    "seconds": t.winner_seconds + t.length_seconds,
                }),
            ));
        }
        println!("position: {}", root.to_fen());
        println!("table: {table_text}");
        println!(
            "winner: {} ({}); wins within {plies} plies: {}",
            Position::side_name(t.winner),
            mover_text(t.winner, root.side()),
            if t.holds {
                "yes"
            } else {
                "no (perfect play lasts longer)"
            }
        );
        let nodes = (t.winner_nodes, t.length_nodes);
        print_costs(
            nodes,
            (t.winner_seconds, t.length_seconds),
            "df-pn",
            "bound",
        );
        return Ok(());
    }
    let result = solve::solve(&root, &options, progress);
    let s = match handle_stop(result, show && terminal, &interrupt, args.proof.as_deref()) {
        Err(SolveError::Stopped { nodes, saved }) => {
            return stopped(&root, nodes, saved.as_deref(), args.json)
        }
        other => other?,
    };
    let mut pos = root;
    let mut text = Vec::new();
    for &mv in &s.line {
        text.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    if args.json {
        return print_json(&solved_json(
            &root,
            &table_text,
            s.winner,
            serde_json::json!({
            "plies": s.plies,
            "plies_exact": true,
            "line": text,
            "nodes": s.winner_nodes + s.length_nodes,
            "seconds": s.winner_seconds + s.length_seconds,
            "proof": s.proof.as_ref().map(|p| serde_json::json!({
                "file": p.path.display().to_string(),
                "records": p.records,
                "claims": p.claims,
                "bytes": p.bytes,
                "whole": args.shard.is_none_or(|sh| sh == Shard::WHOLE),
            })),
            }),
        ));
    }
    println!("position: {}", root.to_fen());
    println!("table: {table_text}");
    println!(
        "winner: {} ({}); perfect play lasts {}",
        Position::side_name(s.winner),
        mover_text(s.winner, root.side()),
        length_text(s.plies, true).trim_start_matches("in ")
    );
    println!("principal line: {}", text.join(" "));
    let nodes = (s.winner_nodes, s.length_nodes);
    print_costs(
        nodes,
        (s.winner_seconds, s.length_seconds),
        "df-pn",
        "length",
    );
    if let Some(p) = &s.proof {
        let resumed = match p.resumed {
            0 => String::new(),
            n => format!(", resuming {n} records an earlier run had written"),
        };
        let what = match args.shard {
            Some(shard) if shard != Shard::WHOLE => {
                format!("proof piece {shard} (not a whole proof: --merge every piece)")
            }
            _ => "proof".to_string(),
        };
        println!(
            "{what}: {} ({} records, {} table claims, {} bytes, written in {:.3} s{resumed}; set of written positions {} MiB)",
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

/// `--list-children`: a line per move of `root`, `MOVE<TAB>FEN`, one of each pair of moves
/// whose positions are mirror images (they have one answer); a move that ends the game
/// gets `MOVE<TAB>wins at once` instead of a position.
fn list_children(root: &Position) -> CliResult {
    let geo = solve::leaves::Geometry::new(root.board());
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let mut seen = Vec::new();
    for mv in moves {
        let mut child = *root;
        child.make_move(mv);
        let text = root.format_move(mv);
        if child.result().is_some() {
            println!("{text}\twins at once");
            continue;
        }
        let key = geo.key(&child);
        if !seen.contains(&key) {
            seen.push(key);
            println!("{text}\t{}", child.to_fen());
        }
    }
    Ok(())
}

/// SIGINT and SIGTERM raise a flag that the search polls, instead of killing the process.
struct Interrupt {
    /// Raised by either signal.
    raised: Arc<AtomicBool>,
    /// The number of the last signal received.
    which: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Asks for the flag instead of an exit on the first signal (a second signal while the
    /// flag is up removes the files in progress and ends the process at once).
    fn install() -> Result<Interrupt, Box<dyn std::error::Error>> {
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

/// `--merge PIECE... --proof OUT`.
fn merge(pieces: &[PathBuf], out: &Path) -> CliResult {
    super::paths::writable(out, "--proof")?;
    let t = Instant::now();
    let s = solve::merge(pieces, out)?;
    println!(
        "proof: {} ({} records, {} table claims, {} bytes, merged from {} pieces in {:.3} s); check it with quasar solve --check {}",
        s.path.display(),
        s.records,
        s.claims,
        s.bytes,
        pieces.len(),
        t.elapsed().as_secs_f64(),
        s.path.display()
    );
    Ok(())
}

/// A thread count for `--check`: 1 to the cores this machine has (each thread holds its
/// own buffers, so more threads than cores only cost memory).
fn parse_threads(text: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match text.parse::<usize>() {
        Ok(n) if (1..=cores).contains(&n) => Ok(n),
        _ => Err(format!(
            "give 1 to {cores} (the cores of this machine), not {}",
            quasar_core::file::shorten(text, 20)
        )),
    }
}

/// `--check FILE [--threads N] [--shard I/N] [--quiet]`.
fn check(file: &Path, threads: Option<usize>, shard: Shard, quiet: bool, json: bool) -> CliResult {
    let t = Instant::now();
    let proof = ProofFile::open(file)?;
    let view = proof.view()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    // A line on standard error every ten seconds: a large proof takes minutes.
    let last = Mutex::new(Instant::now());
    let total = match shard.count() {
        1 => view.len().to_string(),
        n => format!("about {}", view.len() / n as u64),
    };
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
    let r = pool.install(|| solve::check_shard(&view, shard, &progress))?;
    if json {
        return print_json(&serde_json::json!({
            "game": "breakthrough",
            "proof": file.display().to_string(),
            "position": view.root.to_fen(),
            "winner": Position::side_name(view.winner),
            "plies": view.plies,
            "plies_exact": false,
            "shard": shard.to_string(),
            "whole": shard.count() == 1,
            "records": r.records,
            "claims": r.claims,
            "claim_nodes": r.claim_nodes,
            "seconds": t.elapsed().as_secs_f64(),
        }));
    }
    let what = match shard.count() {
        1 => "proof checked".to_string(),
        n => format!("proof shard {shard} checked (the proof holds when all {n} shards pass)"),
    };
    println!(
        "{what}: {} wins from {} within {} plies ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s on {} thread{})",
        Position::side_name(view.winner),
        view.root.to_fen(),
        view.plies,
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64(),
        pool.current_num_threads(),
        if pool.current_num_threads() == 1 { "" } else { "s" }
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}

/// The memory the system could give now without swapping (Linux's MemAvailable), in MiB.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib >> 10)
}

/// How the finished game `pos` ended, in words.
fn game_over_text(pos: &Position) -> String {
    match pos.result() {
        Some(Outcome::Win(side)) => {
            format!("the game is over, {} has won", Position::side_name(side))
        }
        Some(Outcome::Draw) => "the game is over, a draw".to_string(),
        None => "the game goes on".to_string(),
    }
}

/// Whether `winner` is the side to move (`mover`), in words.
fn mover_text(winner: Side, mover: Side) -> &'static str {
    if winner == mover {
        "the side to move"
    } else {
        "the side not to move"
    }
}

/// The answer of a search that `--stop-after` stopped, as asked: not an error, so it exits
/// with 0, saying where it stopped and how to go on.
fn stopped(root: &Position, nodes: u64, saved: Option<&Path>, json: bool) -> CliResult {
    if json {
        return print_json(&serde_json::json!({
            "game": "breakthrough",
            "board": root.board().to_string(),
            "position": root.to_fen(),
            "stopped": true,
            "nodes": nodes,
            "checkpoint": saved.map(|p| p.display().to_string()),
        }));
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

/// The solve's answer, or its error; a stop by signal prints its line and ends the
/// process with a status of its own (75 when the checkpoint was saved), since the shared
/// error path exits with 1 for every error. `clear` wipes the terminal's progress line;
/// a stop (by signal or by `--stop-after`) in the writing of the `proof` also says where
/// its written part is kept.
fn handle_stop<T>(
    result: Result<T, SolveError>,
    clear: bool,
    interrupt: &Interrupt,
    proof: Option<&Path>,
) -> Result<T, SolveError> {
    if clear {
        eprint!("\r{:79}\r", "");
    }
    if let Err(SolveError::Interrupted { .. } | SolveError::Stopped { .. }) = &result {
        let partial = proof.map(solve::proof_writer::scratch_folder);
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

/// Prints the nodes and seconds of both phases (the first found `how`, the second named
/// `second`) and the peak memory.
fn print_costs(nodes: (u64, u64), seconds: (f64, f64), how: &str, second: &str) {
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

/// The JSON answer of a solve or a `--within` test of `root`: the keys both share (game,
/// board, position, table, winner), then `rest`'s.
fn solved_json(
    root: &Position,
    table_text: &str,
    winner: Side,
    rest: serde_json::Value,
) -> serde_json::Value {
    let mut answer = serde_json::json!({
        "game": "breakthrough",
        "board": root.board().to_string(),
        "position": root.to_fen(),
        "table": table_text,
        "winner": Position::side_name(winner),
        "winner_to_move": winner == root.side(),
    });
    if let (Some(all), serde_json::Value::Object(more)) = (answer.as_object_mut(), rest) {
        all.extend(more);
    }
    answer
}
