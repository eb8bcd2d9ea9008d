//! `quasar solve` for Woodpush: a width's start or a position over the generic prover, with
//! a solved table as leaves (`--tb`), and `--check` of its proofs.

use super::{WoodpushSetup, WoodpushSize};
use crate::cli::solve::draws::{check, solve};
use crate::cli::solve::Args;
use crate::cli::{position_from, CliResult};
use crate::games::registration::SolveGame;
use crate::games::CliGame;
use engine::setup::GameSetup;
use woodpush::{WoodpushProver, WoodpushTable};

impl SolveGame for WoodpushSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &["--width", "--checkpoint", "--stop-after"];

    fn solve(args: &Args) -> CliResult {
        if let Some(file) = &args.check {
            return check::<woodpush::Position>(file, args, Self::NAME, Ok);
        }
        let size = WoodpushSize { width: args.width };
        let given = WoodpushSetup::from_size(&size, None)?;
        let (_, root) = position_from(given, args.position.as_deref())?;
        let tb = args.tb.as_deref().map(WoodpushTable::load).transpose()?;
        solve(&WoodpushProver, &root, tb.as_ref(), args, Self::NAME, "")
    }
}
