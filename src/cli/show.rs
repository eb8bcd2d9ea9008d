//! `quasar show`: a board diagram of a position.

use super::CliResult;
use crate::games::{with_game, GameName};
use engine::setup::GameSetup;
use quasar_core::Game;

/// Print a board diagram of a position given in the game's text.
#[derive(clap::Args)]
#[command(after_help = SHOW_HELP)]
pub struct Args {
    /// The game
    #[arg(long, value_enum, default_value_t = GameName::default())]
    game: GameName,
    /// The position, for example "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w" or, for Woodpush,
    /// "L.L...R.R L" (quote it: it has a space); also taken bare, without --position
    #[arg(long, value_name = "POSITION")]
    position: Option<String>,
    #[arg(value_name = "POSITION", hide = true, conflicts_with = "position")]
    bare: Option<String>,
}

const SHOW_HELP: &str = "\
A Breakthrough position: rows from the top (row H) down to row 1, separated by '/', W and B
for pieces, a number for a run of empty cells, then a space and the side to move, w or b. The
board size comes from the text: W columns (3 or more) by H rows (3 or more), at most 64 cells.

Examples:
  quasar show --position 'BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w'    the 6x6 start
  quasar show --position '2B2/5/1W3/5/5 b'                      5x5, Black to move
  quasar show 'BBB/BBB/3/3/3/3/WWW/WWW w'     3 columns, 8 rows (--position may be left out)
  quasar show --game woodpush --position 'L.RL....R R L..RL...R'
      Woodpush: cells from 1, the side to move (L or R), and the strip the ko forbids";

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let text = args
        .position
        .as_deref()
        .or(args.bare.as_deref())
        .ok_or("give the position to show with --position POSITION")?;
    with_game!(args.game, S => run_game::<S>(text))
}

fn run_game<S: GameSetup>(text: &str) -> CliResult {
    let pos = S::Game::parse_position(text)?;
    print!("{}", S::of_position(&pos).diagram(&pos));
    println!("{}", pos.position_text());
    Ok(())
}
