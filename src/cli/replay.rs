//! `quasar replay`: the boards of a recorded game, move by move, from the arena's JSON Lines
//! or a PGN-style record (`play --out`, the arena's `games.pgn`, PDN of other programs).

use super::CliResult;
use crate::games::{with_game, CliGame, GameName};
use arena::pgn::{read_record, winner_of, RecordText, Replay};
use engine::setup::GameSetup;
use quasar_core::{Game, Side};
use std::io::Write;
use std::path::PathBuf;

/// Print the boards of a recorded game move by move.
#[derive(clap::Args)]
pub struct Args {
    /// The record: the arena's JSON Lines (games.jsonl) or a PGN-style file (games.pgn,
    /// games.pdn, a file of `play --out`)
    #[arg(value_name = "RECORD")]
    record: PathBuf,
    /// Which game of the record, from 1 [default: 1]
    #[arg(long, value_name = "N")]
    index: Option<usize>,
    /// The game the record is of, for a record that names none (a PGN file without a [Game]
    /// tag); a record of another game is refused. A number here is read as --index, its
    /// older meaning
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
}

/// What `--game` says: the game, or (its older meaning) the record's game number.
fn game_option(args: &Args) -> Result<(usize, Option<GameName>), String> {
    let Some(text) = &args.game else {
        return Ok((args.index.unwrap_or(1), None));
    };
    if let Ok(n) = text.parse::<usize>() {
        if let Some(i) = args.index {
            return Err(format!(
                "--game {n} and --index {i}: --game names the game; give the game's number \
                 with --index alone"
            ));
        }
        eprintln!(
            "note: --game {n} is read as --index {n}, the game's number in the record; \
             --game names the game, as in the other commands"
        );
        return Ok((n, None));
    }
    match <GameName as clap::ValueEnum>::from_str(text, true) {
        Ok(name) => Ok((args.index.unwrap_or(1), Some(name))),
        Err(_) => {
            let names: Vec<&str> = GameName::all().iter().map(|g| g.name()).collect();
            Err(format!(
                "--game {}: give a game ({}); the game's number in the record is --index N",
                quasar_file::shorten(text, 40),
                names.join(", ")
            ))
        }
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let (number, wanted) = game_option(&args)?;
    let text = read_record(&args.record)?;
    let total = match &text {
        RecordText::JsonLines(l) => l.games.len(),
        RecordText::Pgn(g) => g.len(),
    };
    if number == 0 || number > total {
        return Err(format!(
            "--index {number}: {} holds {total} game(s); give 1 to {total}",
            args.record.display()
        )
        .into());
    }
    let i = number - 1;
    let (name, replay) = match &text {
        RecordText::JsonLines(loaded) => {
            let line = loaded.lines.get(i).copied();
            // The same check as a report's: its size, times and moves, before any board.
            super::arena::verify_game(&loaded.games[i]).map_err(|e| {
                let at = line.map(|l| format!(", line {l}")).unwrap_or_default();
                format!("game {number}{at}: {e}")
            })?;
            let mut r = Replay::of_record(&loaded.games[i]);
            r.line = line;
            (game_named(r.game.as_deref().unwrap_or_default())?, r)
        }
        RecordText::Pgn(games) => {
            let g = &games[i];
            let name = match (g.tag("Game"), game_by_tags(&g.tags), wanted) {
                (Some(n), _, _) => game_named(n)?,
                (None, Some(name), _) | (None, None, Some(name)) => name,
                (None, None, None) => {
                    return Err(
                        "the record names no game: give it with --game NAME, or add a \
                         tag such as [Game \"breakthrough\"] (or [GameType \"21\"] for \
                         checkers)"
                            .into(),
                    )
                }
            };
            let sides = with_game!(name, S => [
                <<S as GameSetup>::Game as Game>::side_name(Side::First),
                <<S as GameSetup>::Game as Game>::side_name(Side::Second),
            ]);
            (name, Replay::of_pgn(g, Some(sides)))
        }
    };
    if let Some(w) = wanted.filter(|&w| w != name) {
        return Err(format!(
            "--game {}: game {number} of {} is of {}",
            w.name(),
            args.record.display(),
            name.name()
        )
        .into());
    }
    with_game!(name, S => show::<S>(&replay, number, total))
}

/// The game a record's name stands for.
fn game_named(name: &str) -> Result<GameName, String> {
    <GameName as clap::ValueEnum>::from_str(name, true)
        .map_err(|_| format!("the record is of the game '{name}', which this quasar does not play"))
}

/// The game whose record style's tags (PDN's `GameType`) the file carries.
fn game_by_tags(tags: &[(String, String)]) -> Option<GameName> {
    <GameName as clap::ValueEnum>::value_variants()
        .iter()
        .copied()
        .find(|&name| {
            let wanted = with_game!(name, S => S::default_size().record_style().tags);
            !wanted.is_empty()
                && wanted
                    .iter()
                    .all(|(k, v)| tags.iter().any(|(n, x)| n == k && x == v))
        })
}

/// Prints game `number` of `total` of the record: its players, then every board.
fn show<S: CliGame>(r: &Replay, number: usize, total: usize) -> CliResult {
    let (setup, mut pos) = match &r.start {
        Some(text) => {
            let pos = S::Game::parse_position(text)
                .map_err(|e| format!("the record's start position {text:?}: {e}"))?;
            (S::of_position(&pos), pos)
        }
        None => {
            let setup = match &r.params {
                Some(p) => S::from_params(p)?,
                None => S::default_size(),
            };
            let pos = setup.start()?;
            (setup, pos)
        }
    };
    // The whole game is checked before any board is printed: a record that contradicts
    // itself is refused, not shown.
    let checked =
        arena::verify::replay(&pos, &r.moves).and_then(|end| match winner_of(&r.result) {
            Some(winner) => arena::verify::check_result(&end, winner, r.reason),
            None => Ok(()),
        });
    if let Err(e) = checked {
        let at = r.line.map(|l| format!(", line {l}")).unwrap_or_default();
        return Err(format!("game {number}{at}: {e}").into());
    }
    let side = |s| <S::Game as Game>::side_name(s);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "game {number} of {total}: {} ({}) vs {} ({}), {} {}, result {}",
        r.players[0],
        side(Side::First),
        r.players[1],
        side(Side::Second),
        S::NAME,
        setup.params(),
        r.result
    )?;
    write!(out, "\n{}", setup.diagram(&pos))?;
    for (i, text) in r.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}) of game {number}: {e}", i + 1))?;
        let comment = match r.comments.get(i) {
            Some(Some(c)) => format!("  {{{c}}}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "\n{}. {} plays {text}{comment}",
            i + 1,
            side(pos.side_to_move())
        )?;
        pos.play(mv);
        write!(out, "{}", setup.diagram(&pos))?;
    }
    match &r.detail {
        Some(d) => writeln!(out, "\nresult {} ({d})", r.result)?,
        None => writeln!(out, "\nresult {}", r.result)?,
    }
    out.flush()?;
    Ok(())
}
