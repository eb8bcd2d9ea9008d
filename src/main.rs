//! The `quasar` command line: parses arguments and calls one function per subcommand.

mod cli;
mod games;
mod gtp;
mod signals;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub use quasar_cli::CliResult;

/// quasar: a Monte Carlo Tree Search and alpha-beta player of Breakthrough, Woodpush, Chinese
/// Checkers and English checkers (--game picks one) that knows when a position is already
/// won, with endgame tablebases, an exact solver and an arena for matches.
#[derive(Parser)]
#[command(name = "quasar", version, long_about = None, after_help = cli::examples::QUASAR)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (move generator check)
    Perft(cli::perft::Args),
    /// Print a board diagram of a position
    Show(cli::show::Args),
    /// Measure move generation and random playout rates (single thread)
    Bench(cli::bench::Args),
    /// Search a position and print the best move with the search statistics
    #[command(after_help = cli::examples::BESTMOVE)]
    Bestmove(cli::bestmove::Args),
    /// Play against the engine in the terminal
    #[command(after_help = cli::examples::PLAY)]
    Play(cli::play::Args),
    /// Speak GTP version 2 on standard input and output
    #[command(after_help = cli::examples::GTP)]
    Gtp(cli::gtp::Args),
    /// Build, inspect, probe and verify endgame tables of every game
    #[command(subcommand, after_help = cli::examples::TABLEBASE)]
    Tablebase(cli::tablebase::Command),
    /// Play matches between players and report win rates
    // Boxed: the arena's options are much the largest, and every variant would be as big.
    #[command(after_help = cli::examples::ARENA)]
    Arena(Box<cli::arena::Args>),
    /// Print the boards of a recorded game move by move
    #[command(after_help = cli::examples::REPLAY)]
    Replay(cli::replay::Args),
    /// Solve a small board exactly (winner, length, proof) or check a proof file
    Solve(cli::solve::Args),
    /// Train a learned evaluation: self-play shards of labelled positions, then a fit
    #[command(subcommand)]
    Train(cli::train::Command),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // Rust ignores SIGPIPE, which turns a closed pipe into a panic on the next print; the
    // default action ends `quasar perft --divide | head` quietly. The arena keeps it
    // ignored: a GTP engine that exits must fail a write (and lose its game), not kill the
    // whole match.
    #[cfg(unix)]
    if !matches!(cli.command, Command::Arena(_)) {
        // SAFETY: no thread exists yet (argument parsing starts none).
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    if let Err(e) = signals::install() {
        eprintln!("error: cannot install the signal handler: {e}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Perft(a) => cli::perft::run(a),
        Command::Show(a) => cli::show::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Bestmove(a) => cli::bestmove::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Gtp(a) => cli::gtp::run(a),
        Command::Tablebase(c) => cli::tablebase::run(c),
        Command::Arena(a) => cli::arena::run(*a),
        Command::Replay(a) => cli::replay::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Train(c) => cli::train::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if cli::output::json_requested() => {
            println!("{}", cli::output::json_error(&printable(&e.to_string())));
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {}", printable(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}

/// Prints help and version as clap does, and any other argument error as one line (a JSON
/// error object on standard output with `--json`), with clap's "did you mean" when it has
/// one.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        e.exit();
    }
    // clap adds usage and tips after a blank line; the first paragraph says what is wrong.
    let text = e.render().to_string();
    let what: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = match suggestion(&e) {
        Some(s) => format!(
            "{}; did you mean {s}? (see 'quasar --help')",
            what.join(" ")
        ),
        None => format!("{} (see 'quasar --help')", what.join(" ")),
    };
    let line = printable(&line);
    if cli::output::json_requested() {
        let line = line.strip_prefix("error: ").unwrap_or(&line);
        println!("{}", cli::output::json_error(line));
    } else {
        eprintln!("{line}");
    }
    ExitCode::from(2)
}

/// The longest error line printed, in characters: an error quoting what it was given (an
/// argument, a line of a file) quotes at most this much of it.
const MAX_ERROR_CHARS: usize = 1000;

/// An error's text as it can be printed on one terminal line: control characters other
/// than newlines and tabs (a NUL read from a file, an escape sequence) escaped as Rust
/// writes them (`\0`, `\u{1b}`), and text past [`MAX_ERROR_CHARS`] cut, saying how long
/// it was.
fn printable(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == MAX_ERROR_CHARS {
            out.push_str(&format!("... (cut: {} bytes in all)", text.len()));
            break;
        }
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    out
}

/// The option, value or subcommand clap suggests for a misspelt one (`'--sims'`), quoted;
/// clap prints it in a tip after the first paragraph, which the one line leaves out.
fn suggestion(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
        ContextKind::SuggestedSubcommand,
    ]
    .into_iter()
    .find_map(|kind| match e.get(kind)? {
        ContextValue::String(s) => Some(format!("'{s}'")),
        ContextValue::Strings(v) if !v.is_empty() => Some(
            v.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => None,
    })
}
