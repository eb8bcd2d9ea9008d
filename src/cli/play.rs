//! `quasar play`: not built yet (its issue is open).

use super::CliResult;

/// Not built yet.
#[derive(clap::Args)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> CliResult {
    Err("'play' is not built yet".into())
}
