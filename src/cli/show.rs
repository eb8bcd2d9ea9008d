//! `quasar show`: a board diagram of a position.

use super::CliResult;
use breakthrough::Position;

/// Print a board diagram of a position given in the FEN-like text of the spec.
#[derive(clap::Args)]
#[command(after_help = SHOW_HELP)]
pub struct Args {
    /// The position, for example "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w" (quote it: it has a space)
    fen: String,
}

const SHOW_HELP: &str = "\
The position text: rows from the top (row H) down to row 1, separated by '/', W and B for
pieces, a number for a run of empty cells, then a space and the side to move, w or b. The
board size comes from the text: W columns (3 or more) by H rows (3 or more), at most 64 cells.

Examples:
  quasar show 'BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w'    the 6x6 start
  quasar show '2B2/5/1W3/5/5 b'                      5x5, Black to move
  quasar show 'BBB/BBB/3/3/3/3/WWW/WWW w'            3 columns, 8 rows";

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let pos = Position::from_fen(&args.fen)?;
    print!("{}", pos.diagram());
    println!("{}", pos.to_fen());
    Ok(())
}
