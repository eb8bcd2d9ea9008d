//! `quasar tablebase`: not built yet (its issue is open).

use super::CliResult;

/// Tablebase subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Not built yet
    Build,
}

/// Runs the subcommand.
pub fn run(_cmd: Command) -> CliResult {
    Err("'tablebase' is not built yet".into())
}
