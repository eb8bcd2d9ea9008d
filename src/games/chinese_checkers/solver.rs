//! `quasar solve` for Chinese Checkers: the start of K pieces a side or a position over the
//! generic prover, with a solved table as leaves (`--tb`), and `--check` of its proofs.

use super::CcSetup;
use crate::cli::solve::draws::{check, solve};
use crate::cli::solve::Args;
use crate::cli::{position_from, CliResult};
use crate::games::registration::SolveGame;
use crate::games::CliGame;
use chinese_checkers::{CcProver, CcTable};
use engine::setup::GameSetup;

impl SolveGame for CcSetup {
    const SOLVE_OPTIONS: &'static [&'static str] =
        &["--pieces-per-side", "--checkpoint", "--stop-after"];

    fn solve(args: &Args) -> CliResult {
        if let Some(file) = &args.check {
            return check::<chinese_checkers::Position>(file, args, Self::NAME, Ok);
        }
        let given = args
            .pieces
            .map(|k| CcSetup::from_size(&Default::default(), Some(k)))
            .transpose()?
            .flatten();
        let (_, root) = position_from(given, args.position.as_deref())?;
        let tb = args.tb.as_deref().map(CcTable::load).transpose()?;
        solve(&CcProver, &root, tb.as_ref(), args, Self::NAME, "")
    }
}
