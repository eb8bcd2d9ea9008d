//! `quasar solve` for Woodpush: a width's start or a position over the generic prover, with
//! a solved table as leaves (`--tb`).

use super::{WoodpushSetup, WoodpushSize};
use crate::{Position, WoodpushProver, WoodpushTable};
use quasar_cli::position_from;
use quasar_cli::CliGame;
use quasar_cli::SolveOptions as Args;
use quasar_cli::{NamedTable, SolveGame};

impl SolveGame for WoodpushSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &["--width"];
    type Prover = WoodpushProver;

    fn solve_root(args: &Args) -> Result<Position, Box<dyn std::error::Error>> {
        let size = WoodpushSize { width: args.width };
        let given = WoodpushSetup::from_size(&size, None)?;
        Ok(position_from(given, args.position.as_deref())?.1)
    }

    fn prover(_: &Position) -> WoodpushProver {
        WoodpushProver
    }

    fn solve_table(
        args: &Args,
        _: &Position,
    ) -> Result<NamedTable<WoodpushTable>, Box<dyn std::error::Error>> {
        quasar_cli::table_file(args, WoodpushTable::load)
    }
}
