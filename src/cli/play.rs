//! `quasar play`: a person plays against the engine in the terminal (or through a pipe).

use super::engine_opts::{describe_engine_report, info_text, EngineArgs};
use super::{position_from, CliResult};
use crate::games::{with_game, CliGame, GameArgs};
use crate::gtp::MAX_LINE;
use arena::game::EndReason;
use arena::pgn::LoneGame;
use engine::engine::{Engine, SearcherSettings};
use engine::settings::limit_text;
use engine::setup::GameSetup;
use engine::spec::PlayerSpec;
use quasar_core::progress::{SearchInfo, Watch};
use quasar_core::Limit;
use quasar_core::{Game, Outcome, Side};
use std::io::{self, BufRead, IsTerminal, Write};
use std::time::Instant;

/// Play against the engine: type moves like b2-b3, b2xc3 or b2b3; 'moves' lists the legal
/// moves, 'quit' ends the game.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Start from this position instead of the start (its size is the board's, and a size
    /// option given must agree with it)
    #[arg(long)]
    position: Option<String>,
    /// The side you play: the game's name for it (white or black in Breakthrough), or
    /// first or second
    #[arg(long, default_value = "first")]
    human: String,
    /// Print the engine's search statistics after each of its moves
    #[arg(long)]
    stats: bool,
    /// Print progress lines while the engine thinks, as `bestmove --info` does
    #[arg(long)]
    info: bool,
    /// Save the game, however it ends, as a PGN-style record (PDN for checkers)
    #[arg(short = 'o', long = "out", alias = "save", value_name = "FILE")]
    save: Option<std::path::PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The side a `--human` word names: the game's name for a side, its first letter, or
/// `first`/`second`, in any case.
fn human_side<G: Game>(text: &str) -> Result<Side, String> {
    let t = text.to_lowercase();
    for (side, plain) in [(Side::First, "first"), (Side::Second, "second")] {
        let name = G::side_name(side).to_lowercase();
        if t == name || t == plain || (t.len() == 1 && name.starts_with(&t)) {
            return Ok(side);
        }
    }
    Err(format!(
        "--human {text}: give {}, {}, first or second",
        G::side_name(Side::First).to_lowercase(),
        G::side_name(Side::Second).to_lowercase()
    ))
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S, given => run_game::<S>(&args, given))
}

fn run_game<S: CliGame>(args: &Args, given: Option<S>) -> CliResult {
    let (setup, pos) = position_from::<S>(given, args.position.as_deref())?;
    let human = human_side::<S::Game>(&args.human)?;
    if let Some(path) = &args.save {
        // Tried now with a scratch file: a game is long, and its record is written at its end.
        quasar_cli::paths::writable(path, "--out")?;
    }
    let choice = args.engine.choice(&setup)?;
    let mut searcher = Engine::new(&setup, &choice, 0)?;
    let limits = choice.limit;
    let engine_name = match choice.searcher {
        SearcherSettings::Mcts(s) => PlayerSpec::Mcts(s),
        SearcherSettings::AlphaBeta(s) => PlayerSpec::AlphaBeta(s),
    }
    .to_string();
    let mut players = [engine_name.clone(), engine_name];
    let mut budgets = [limit_text(limits), limit_text(limits)];
    players[human.index()] = "human".into();
    budgets[human.index()] = "-".into();
    let mut game = LoneGame::new(pos.clone(), players, budgets);
    let stdin = io::stdin();
    // Piped moves are not shown by a terminal, so the transcript echoes them.
    let echo = !stdin.is_terminal();
    let played = play_game(
        &setup,
        pos,
        human,
        &mut searcher,
        limits,
        Show {
            stats: args.stats,
            info: args.info,
            echo,
        },
        stdin.lock(),
        io::stdout().lock(),
        &mut game,
    );
    // The game is saved even when the terminal went away mid-game.
    if let Some(path) = &args.save {
        game.save(&setup, path)?;
        eprintln!("saved the game to {}", path.display());
    }
    played?;
    Ok(())
}

/// What the game transcript shows besides boards and moves.
#[derive(Clone, Copy, Debug)]
pub struct Show {
    /// The engine's search statistics after each of its moves.
    pub stats: bool,
    /// Progress lines while the engine thinks.
    pub info: bool,
    /// Each line read, after the prompt (for piped input).
    pub echo: bool,
}

/// Plays one game between the person (reading `input`) and the engine, writing to `out`
/// and keeping the moves, times, search information and end in `game`.
#[allow(clippy::too_many_arguments)]
pub fn play_game<S: GameSetup>(
    setup: &S,
    mut pos: S::Game,
    human: Side,
    searcher: &mut Engine<S>,
    limits: Limit,
    show: Show,
    mut input: impl BufRead,
    mut out: impl Write,
    game: &mut LoneGame<S::Game>,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    write!(out, "{}", setup.diagram(&pos))?;
    let mut asked = Instant::now();
    loop {
        if let Some(o) = pos.outcome() {
            game.end = Some((
                o,
                match o {
                    Outcome::Win(_) => EndReason::Win,
                    Outcome::Draw => EndReason::Draw,
                },
            ));
            let Outcome::Win(w) = o else {
                writeln!(out, "game over: draw")?;
                return Ok(());
            };
            let who = if w == human {
                "you win"
            } else {
                "the engine wins"
            };
            writeln!(
                out,
                "game over: {} wins ({who})",
                <S::Game as Game>::side_name(w)
            )?;
            return Ok(());
        }
        if pos.side_to_move() == human {
            write!(out, "your move ({}): ", <S::Game as Game>::side_name(human))?;
            out.flush()?;
            let read = quasar_file::read_line(&mut input, &mut bytes, MAX_LINE)?;
            if read == quasar_file::Line::End {
                writeln!(out)?;
                writeln!(out, "end of input: game abandoned")?;
                return Ok(());
            }
            // A line too long or not text is answered, and the game goes on.
            let line = match (read, std::str::from_utf8(&bytes)) {
                (quasar_file::Line::TooLong, _) => {
                    writeln!(
                        out,
                        "that line is longer than {MAX_LINE} bytes; type a move"
                    )?;
                    out.flush()?;
                    // Answered before the rest of it is read: it may never end.
                    quasar_file::skip_line(&mut input)?;
                    continue;
                }
                (_, Ok(line)) => line.to_string(),
                (_, Err(_)) => {
                    writeln!(out, "that line is not text (invalid UTF-8); type a move")?;
                    continue;
                }
            };
            if show.echo {
                writeln!(out, "{line}")?;
            }
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "resign" => {
                    game.end = Some((Outcome::Win(human.opponent()), EndReason::Resigned));
                    writeln!(
                        out,
                        "you resign; {} wins",
                        <S::Game as Game>::side_name(human.opponent())
                    )?;
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
                    game.moves.push(mv);
                    game.times.push(asked.elapsed());
                    game.infos.push(None);
                    pos.play(mv);
                    write!(out, "{}", setup.diagram(&pos))?;
                }
                Err(e) => writeln!(
                    out,
                    "error: {e} (type 'moves' for the list, 'quit' to stop)"
                )?,
            }
        } else {
            let clock = Instant::now();
            let mut failed = None;
            let mut print = |info: &SearchInfo<<S::Game as Game>::Move>| {
                if failed.is_none() {
                    failed = writeln!(out, "{}", info_text(&pos, info)).err();
                }
            };
            let mut watch = Watch::none();
            if show.info {
                watch.observer = Some(&mut print);
            }
            let report = searcher.search_with(&pos, limits, &mut watch);
            drop(watch);
            if let Some(e) = failed {
                return Err(e);
            }
            let took = clock.elapsed();
            engine::engine::warn_damage_once(searcher.damage());
            let Some(mv) = report.best_move() else {
                writeln!(out, "the engine has no move")?;
                return Ok(());
            };
            writeln!(out, "quasar plays {}", pos.move_text(mv))?;
            if show.stats {
                write!(out, "{}", describe_engine_report(&pos, &report, false))?;
            }
            game.moves.push(mv);
            game.times.push(took);
            game.infos.push(searcher.info(&pos, &report));
            pos.play(mv);
            write!(out, "{}", setup.diagram(&pos))?;
            asked = Instant::now();
        }
    }
}
