//! `quasar solve` for Breakthrough: a board's start or a position over the prover (which
//! never draws here), a row-limited table as leaves, and the job-level search (`--tree`).

use super::BreakthroughSetup;
use crate::solve::{self, leaves::Geometry};
use crate::tablebase::Tablebase;
use crate::{Board, Position};
use quasar_cli::position_from;
use quasar_cli::SolveOptions as Args;
use quasar_cli::{NamedTable, SolveGame};
use std::error::Error;
use std::time::Instant;

impl SolveGame for BreakthroughSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &["--board", "--tb-rows", "--tree"];
    const MAY_DRAW: bool = false;
    type Prover = Geometry;

    /// A board's start (5x5 unless `--board` says), or `--position`, whose size a
    /// `--board` given as well must agree with.
    fn solve_root(args: &Args) -> Result<Position, Box<dyn Error>> {
        // The start of a smaller board than the other commands' default, or the position's
        // own size (which --board, when given, must agree with).
        let board = match (&args.position, args.board.as_deref()) {
            (None, None) => Some(Board::new(5, 5)?),
            (_, None) => None,
            (_, Some(text)) => Some(
                text.parse::<Board>()
                    .map_err(|e| format!("invalid value '{text}' for '--board <BOARD>': {e}"))?,
            ),
        };
        let given = board.map(|board| BreakthroughSetup { board });
        let (_, root) = position_from(given, args.position.as_deref())?;
        Ok(root)
    }

    fn prover(root: &Position) -> Geometry {
        Geometry::new(root.board())
    }

    /// `--tb FILE`, none with `--no-tb`, else the top rows (`--tb-rows`, or as many as
    /// pay on the board) built in memory.
    fn solve_table(args: &Args, root: &Position) -> Result<NamedTable<Tablebase>, Box<dyn Error>> {
        let built = Instant::now();
        if args.no_tb {
            return Ok((None, "none".to_string()));
        }
        if let Some(path) = &args.tb {
            let tb = Tablebase::open_for(path, root.board())?;
            crate::setup::warn_if_incomplete(path, &tb);
            let text = format!("{} ({} rows)", path.display(), tb.region().rows());
            return Ok((Some(tb), text));
        }
        let Some(rows) = args.tb_rows.or_else(|| solve::default_rows(root.board())) else {
            return Ok((None, "none (even 3 rows are too many to build here)".into()));
        };
        let tb = solve::table_in_memory(root.board(), rows).map_err(|e| match args.tb_rows {
            Some(_) => format!("--tb-rows: {e}"),
            None => e.to_string(),
        })?;
        let text = format!(
            "{rows} rows, built in memory in {:.2} s",
            built.elapsed().as_secs_f64()
        );
        Ok((Some(tb), text))
    }

    fn solve_memory_mib(root: &Position) -> u64 {
        default_memory_mib(root.board().num_cells().into())
    }

    fn length_pn_from(root: &Position) -> u32 {
        solve::default_length_pn_from(root.board())
    }

    fn json_keys(root: &Position) -> serde_json::Map<String, serde_json::Value> {
        let mut keys = serde_json::Map::new();
        keys.insert("board".into(), root.board().to_string().into());
        keys
    }
}

/// The transposition table's MiB unless `--memory` says: small boards are solved in
/// milliseconds, which a table of 512 MiB would spend tenfold on its allocation alone.
fn default_memory_mib(cells: u64) -> u64 {
    match cells {
        0..=16 => 16,
        17..=20 => 64,
        _ => 512,
    }
}
