//! `quasar solve`: solve a position exactly (winner and length under perfect play), write
//! the proof, or check a proof file, through each game's registration ([`SolveGame`]);
//! the signals and costs every game's solve shares.

use super::CliResult;
use crate::games::{kinds_taking, with_game};
use prover::SolveError;
use quasar_cli::progress::Bars;
use quasar_cli::{SolveGame, SolveOptions, TableGame};
use quasar_core::measure::peak_memory_kib;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

pub mod driver;
pub mod tree;

pub use crate::games::options::SolveArgs as Args;

/// Exit status of a solve stopped by a signal after saving its checkpoint (sysexits'
/// EX_TEMPFAIL: try again later), so a batch script can tell it from a failure and requeue.
const EXIT_SAVED: i32 = 75;

/// The options given that some game's solve may refuse, by flag.
fn given(a: &SolveOptions) -> Vec<&'static str> {
    let check = a.check.is_some();
    [
        (a.width.is_some(), "--width"),
        (a.pieces.is_some(), "--pieces-per-side"),
        (a.board.is_some(), "--board"),
        (a.tb_rows.is_some(), "--tb-rows"),
        (a.tree.is_some(), "--tree"),
        (a.tb.is_some() && check, "--tb (with --check)"),
    ]
    .into_iter()
    .filter(|(given, _)| *given)
    .map(|(_, flag)| flag)
    .collect()
}

/// Refuses the first option given that `S`'s solve does not take, naming the games whose
/// solve does.
fn refuse_unused<S: SolveGame>(args: &SolveOptions) -> CliResult {
    let Some(flag) = given(args)
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
        refuse_unused::<S>(&args.shared)?;
        driver::run::<S>(&args.shared)
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
/// `second`; its seconds left out when it took none apart from the proof's) and the peak
/// memory.
pub(crate) fn print_costs(nodes: (u64, u64), seconds: (f64, f64), how: &str, second: &str) {
    println!(
        "nodes: {} (winner, {how}) + {} ({second}) = {}",
        nodes.0,
        nodes.1,
        nodes.0 + nodes.1
    );
    if seconds.1 == 0.0 {
        println!("time: {:.3} s (winner)", seconds.0);
    } else {
        println!(
            "time: {:.3} s (winner) + {:.3} s ({second}) = {:.3} s",
            seconds.0,
            seconds.1,
            seconds.0 + seconds.1
        );
    }
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
}
