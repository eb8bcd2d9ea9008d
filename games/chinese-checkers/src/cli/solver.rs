//! `quasar solve` for Chinese Checkers: the start of K pieces a side or a position over the
//! generic prover, with a solved table as leaves (`--tb`).

use super::CcSetup;
use crate::{CcProver, CcTable, Position};
use quasar_cli::position_from;
use quasar_cli::CliGame;
use quasar_cli::SolveOptions as Args;
use quasar_cli::{NamedTable, SolveGame};

impl SolveGame for CcSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &["--pieces-per-side"];
    type Prover = CcProver;

    fn solve_root(args: &Args) -> Result<Position, Box<dyn std::error::Error>> {
        let given = args
            .pieces
            .map(|k| CcSetup::from_size(&Default::default(), Some(k)))
            .transpose()?
            .flatten();
        Ok(position_from(given, args.position.as_deref())?.1)
    }

    fn prover(_: &Position) -> CcProver {
        CcProver
    }

    fn solve_table(
        args: &Args,
        _: &Position,
    ) -> Result<NamedTable<CcTable>, Box<dyn std::error::Error>> {
        quasar_cli::table_file(args, CcTable::load)
    }
}
