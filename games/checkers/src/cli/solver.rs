//! `quasar solve` for checkers: a given position over the generic prover, with the endgame
//! databases as leaves (`--tb DIR`), and `--check` of its proofs against the same databases.

use super::CheckersSetup;
use crate::db::{DbError, Wdl};
use crate::{CheckersProver, Database, Leafed};
use quasar_cli::SolveOptions as Args;
use quasar_cli::{NamedTable, SolveGame};
use quasar_core::Game;
use std::path::Path;

/// The databases of `--tb DIR`, if given; kept for the whole run, as positions refer to
/// them.
fn databases(args: &Args) -> Result<Option<&'static Database>, DbError> {
    args.tb
        .as_deref()
        .map(|dir| Ok(&*Box::leak(Box::new(Database::open(dir)?))))
        .transpose()
}

impl SolveGame for CheckersSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &["--tb (with --check)"];
    type Prover = CheckersProver;

    /// From `--position` only (the start is far beyond the solver).
    fn solve_root(args: &Args) -> Result<Leafed, Box<dyn std::error::Error>> {
        let Some(text) = &args.position else {
            return Err(
                "checkers is solved from a given position: give --position FEN (e.g. 'B:W18,K30:B14,K1'), the start is far beyond the solver"
                    .into(),
            );
        };
        let pos = crate::Position::parse_position(text)?;
        let root = Leafed::new(pos, databases(args)?);
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
        Ok(root)
    }

    fn prover(_: &Leafed) -> CheckersProver {
        CheckersProver
    }

    /// The databases are the positions' own leaves, not a table of the prover's.
    fn solve_table(args: &Args, _: &Leafed) -> Result<NamedTable<()>, Box<dyn std::error::Error>> {
        let text = match &args.tb {
            Some(path) => path.display().to_string(),
            None => "none".to_string(),
        };
        Ok((None, text))
    }

    fn check_root(
        args: &Args,
        file: &Path,
        root: Leafed,
    ) -> Result<Leafed, Box<dyn std::error::Error>> {
        let with_leaves = match (root.lacks_leaves(), databases(args)?) {
            (false, None) => Ok(root),
            (true, None) => Err(format!(
                "its leaves are the databases of {} pieces: give them with --tb DIR",
                root.leaf_pieces()
            )),
            (_, Some(db)) => root.with_leaves(db),
        };
        Ok(with_leaves.map_err(|e| format!("{}: {e}", file.display()))?)
    }

    /// The game ends where the databases take over.
    fn to_leaves(args: &Args) -> &'static str {
        match args.tb {
            Some(_) => " to a position of the databases",
            None => "",
        }
    }
}
