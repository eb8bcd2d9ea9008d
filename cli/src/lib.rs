//! What a game registers for the `quasar` command line beyond its
//! [`GameSetup`](engine::setup::GameSetup): its size options and default size, the main job
//! of `quasar arena` ([`CliGame`]), its `tablebase` commands ([`TableGame`]) and its
//! `quasar solve` ([`SolveGame`]); the options those commands share, the progress bars and
//! the output checks the registrations use.
//!
//! Nothing here names a game: each game implements these traits in its own crate (behind
//! its feature `cli`), and the binary lists the games and dispatches to them.

#![forbid(unsafe_code)]

pub mod build_options;
pub mod compress_options;
pub mod game;
pub mod paths;
pub mod progress;
pub mod solve;
pub mod solve_options;
pub mod table;

pub use build_options::BuildOptions;
pub use compress_options::{CompressOptions, NoOptions};
pub use game::{position_from, CliGame, MainJob, SizeFlags};
pub use solve::{table_file, NamedTable, SolveGame, SolvePos, SolveTable};
pub use solve_options::{SolveOptions, TreeAction};
pub use table::{not_sliced, OptionRole, OwnTableOptions, TableGame, TableOptions};

/// What a subcommand returns: an error here is printed as one line and exits non-zero.
pub type CliResult = Result<(), Box<dyn std::error::Error>>;
