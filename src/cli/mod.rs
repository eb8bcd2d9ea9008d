//! One module per subcommand: each parses its options and prints what the library computes.

pub mod arena;
pub mod bench;
pub mod bestmove;
pub mod engine_opts;
pub mod gtp;
pub mod perft;
pub mod play;
pub mod show;
pub mod solve;
pub mod tablebase;

use breakthrough::{Board, Position};

/// What a subcommand returns: an error here is printed as one line and exits non-zero.
pub type CliResult = Result<(), Box<dyn std::error::Error>>;

/// The position to work on: `--position FEN` (whose size must agree with `--board` when
/// both are given), else the start position of `--board`.
pub fn position_from(
    board: Option<Board>,
    fen: Option<&str>,
) -> Result<Position, Box<dyn std::error::Error>> {
    match fen {
        Some(text) => {
            let pos = Position::from_fen(text)?;
            if let Some(b) = board {
                if b != pos.board() {
                    return Err(format!(
                        "--board {b} disagrees with the position, which is {}",
                        pos.board()
                    )
                    .into());
                }
            }
            Ok(pos)
        }
        None => Ok(Position::try_start(board.unwrap_or_else(|| {
            Board::new(8, 8).expect("8x8 is a legal board")
        }))?),
    }
}
