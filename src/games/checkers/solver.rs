//! `quasar solve` for checkers: a given position over the generic prover, with the endgame
//! databases as leaves (`--tb DIR`), and `--check` of its proofs against the same databases.

use super::CheckersSetup;
use crate::cli::solve::draws::{check, solve};
use crate::cli::solve::Args;
use crate::cli::CliResult;
use crate::games::registration::SolveGame;
use checkers::db::{DbError, Wdl};
use checkers::{CheckersProver, Database, Leafed};
use engine::setup::GameSetup;
use quasar_core::Game;

impl SolveGame for CheckersSetup {
    const SOLVE_OPTIONS: &'static [&'static str] =
        &["--tb (with --check)", "--checkpoint", "--stop-after"];

    /// From `--position` only (the start is far beyond the solver); a win's length ends
    /// where the databases take over.
    fn solve(args: &Args) -> CliResult {
        let db = args
            .tb
            .as_deref()
            .map(|dir| -> Result<&'static Database, DbError> {
                // Positions refer to it for the whole run.
                Ok(Box::leak(Box::new(Database::open(dir)?)))
            })
            .transpose()?;
        if let Some(file) = &args.check {
            return check::<Leafed>(file, args, Self::NAME, |root| {
                match (root.lacks_leaves(), db) {
                    (false, None) => Ok(root),
                    (true, None) => Err(format!(
                        "its leaves are the databases of {} pieces: give them with --tb DIR",
                        root.leaf_pieces()
                    )),
                    (_, Some(db)) => root.with_leaves(db),
                }
            });
        }
        let Some(text) = &args.position else {
            return Err(
            "checkers is solved from a given position: give --position FEN (e.g. 'B:W18,K30:B14,K1'), the start is far beyond the solver"
                .into(),
        );
        };
        let root = Leafed::new(checkers::Position::parse_position(text)?, db);
        if let Some(w) = root.leaf() {
            return Err(format!(
            "{text}: the databases hold this position ({} for the side to move): `quasar tablebase probe` gives it",
            match w {
                Wdl::Win => "a win",
                Wdl::Draw => "a draw",
                Wdl::Loss => "a loss",
            }
        )
        .into());
        }
        // The game ends where the databases take over.
        let to_leaves = match args.tb {
            Some(_) => " to a position of the databases",
            None => "",
        };
        solve(&CheckersProver, &root, None, args, Self::NAME, to_leaves)
    }
}
