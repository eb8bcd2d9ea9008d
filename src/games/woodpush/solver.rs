//! `quasar solve` for Woodpush: a width's start or a position over the generic prover, with
//! a solved table as leaves (`--tb`).

use super::{WoodpushSetup, WoodpushSize};
use crate::games::options::SolveArgs as Args;
use crate::games::position_from;
use crate::games::registration::{NamedTable, SolveGame};
use crate::games::CliGame;
use woodpush::{Position, WoodpushProver, WoodpushTable};

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
        crate::games::registration::table_file(args, WoodpushTable::load)
    }
}
