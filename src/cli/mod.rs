//! One module per subcommand: each parses its options and prints what the library computes.

pub mod arena;
pub mod bench;
pub mod bestmove;
pub mod engine_opts;
pub mod examples;
pub mod gtp;
pub mod output;
pub mod paths;
pub mod perft;
pub mod play;
pub mod replay;
pub mod show;
pub mod solve;
pub mod tablebase;
pub mod train;

use crate::games::CliGame;
use quasar_core::Game;

/// What a subcommand returns: an error here is printed as one line and exits non-zero.
pub type CliResult = Result<(), Box<dyn std::error::Error>>;

/// The setup and position to work on: `--position` text, else the start position of the
/// size the options `given`, or of the game's default size. Size options given with a
/// position must agree with its size: a disagreement is refused, never settled silently.
pub fn position_from<S: CliGame>(
    given: Option<S>,
    text: Option<&str>,
) -> Result<(S, S::Game), Box<dyn std::error::Error>> {
    match text {
        Some(text) => {
            let pos = S::Game::parse_position(text)?;
            let setup = S::of_position(&pos);
            if let Some(g) = &given {
                if *g != setup {
                    return Err(format!(
                        "the size options give {} but the position is {}",
                        g.params(),
                        setup.params()
                    )
                    .into());
                }
            }
            Ok((setup, pos))
        }
        None => {
            let setup = given.unwrap_or_else(|| S::default_size());
            let pos = setup.start()?;
            Ok((setup, pos))
        }
    }
}
