//! `quasar play`: a person plays against the engine in the terminal (or through a pipe).

use super::engine_opts::{describe_report, EngineArgs};
use super::{position_from, CliResult};
use breakthrough::BreakthroughSearcher;
use breakthrough::{Board, Position};
use mcts::Limits;
use quasar_core::{Game, Outcome, Side};
use std::io::{self, BufRead, IsTerminal, Write};

/// The side the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Human {
    /// Play White (moves first).
    White,
    /// Play Black.
    Black,
}

/// Play against the engine: type moves like b2-b3, b2xc3 or b2b3; 'moves' lists the legal
/// moves, 'quit' ends the game.
#[derive(clap::Args)]
pub struct Args {
    /// Board size WxH (ignored when --position gives one)
    #[arg(long, default_value = "6x6")]
    board: Board,
    /// Start from this position instead of the start
    #[arg(long)]
    position: Option<String>,
    /// The side you play
    #[arg(long, value_enum, default_value_t = Human::White)]
    human: Human,
    /// Print the engine's search statistics after each of its moves
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let board = args.position.is_none().then_some(args.board);
    let pos = position_from(board, args.position.as_deref())?;
    let human = match args.human {
        Human::White => Side::First,
        Human::Black => Side::Second,
    };
    let mut searcher = args.engine.searcher(pos.board())?;
    let limits = args.engine.limits();
    let stdin = io::stdin();
    // Piped moves are not shown by a terminal, so the transcript echoes them.
    let echo = !stdin.is_terminal();
    play_game(
        pos,
        human,
        &mut searcher,
        limits,
        Show {
            stats: args.stats,
            echo,
        },
        stdin.lock(),
        io::stdout().lock(),
    )?;
    Ok(())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "White",
        Side::Second => "Black",
    }
}

/// What the game transcript shows besides boards and moves.
#[derive(Clone, Copy, Debug)]
pub struct Show {
    /// The engine's search statistics after each of its moves.
    pub stats: bool,
    /// Each line read, after the prompt (for piped input).
    pub echo: bool,
}

/// Plays one game between the person (reading `input`) and the engine, writing to `out`.
pub fn play_game(
    mut pos: Position,
    human: Side,
    searcher: &mut BreakthroughSearcher,
    limits: Limits,
    show: Show,
    input: impl BufRead,
    mut out: impl Write,
) -> io::Result<()> {
    let mut lines = input.lines();
    write!(out, "{}", pos.diagram())?;
    loop {
        if let Some(o) = pos.outcome() {
            let Outcome::Win(w) = o else {
                writeln!(out, "game over: draw")?;
                return Ok(());
            };
            let who = if w == human {
                "you win"
            } else {
                "the engine wins"
            };
            writeln!(out, "game over: {} wins ({who})", side_name(w))?;
            return Ok(());
        }
        if pos.side() == human {
            write!(out, "your move ({}): ", side_name(human))?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out)?;
                writeln!(out, "end of input: game abandoned")?;
                return Ok(());
            };
            let line = line?;
            if show.echo {
                writeln!(out, "{line}")?;
            }
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "resign" => {
                    writeln!(out, "you resign; {} wins", side_name(human.opponent()))?;
                    return Ok(());
                }
                "moves" | "help" => {
                    let mut v = Vec::new();
                    pos.legal_moves(&mut v);
                    let list: Vec<String> = v.iter().map(|&m| pos.move_text(m)).collect();
                    writeln!(out, "legal moves: {}", list.join(" "))?;
                    continue;
                }
                _ => {}
            }
            match pos.parse_move(text) {
                Ok(mv) => {
                    pos.play(mv);
                    write!(out, "{}", pos.diagram())?;
                }
                Err(e) => writeln!(
                    out,
                    "error: {e} (type 'moves' for the list, 'quit' to stop)"
                )?,
            }
        } else {
            let report = searcher.search(&pos, limits);
            let Some(mv) = report.best_move else {
                writeln!(out, "the engine has no move")?;
                return Ok(());
            };
            writeln!(out, "quasar plays {}", pos.move_text(mv))?;
            if show.stats {
                write!(out, "{}", describe_report(&pos, &report, false))?;
            }
            pos.play(mv);
            write!(out, "{}", pos.diagram())?;
        }
    }
}
