//! `quasar show`: a board diagram of a position.

use super::CliResult;
use engine::breakthrough::Position;

/// Print a board diagram of a position given in the FEN-like text of the spec.
#[derive(clap::Args)]
pub struct Args {
    /// The position, for example "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w"
    fen: String,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let pos = Position::from_fen(&args.fen)?;
    print!("{}", pos.diagram());
    println!("{}", pos.to_fen());
    Ok(())
}
