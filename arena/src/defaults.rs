//! The main job of `quasar arena` without players: a small 6x6 table, built once into a
//! cache directory, and the engine with it against the engine without it.

use crate::player::{MctsSpec, PlayerError, PlayerSpec};
use breakthrough::tablebase::{generate, Limits, Progress, Region, TableFile};
use breakthrough::Board;
use std::path::{Path, PathBuf};

/// The board of the main job.
pub const MAIN_BOARD: (u32, u32) = (6, 6);
/// The table's row count: the thesis' best 6x6 table (Figure 5.3, test 3).
pub const MAIN_ROWS: u32 = 4;
/// Games of the main job (each opening with both colours).
pub const MAIN_GAMES: u32 = 20;

/// The main job's players: `mcts:tb=<cache>/6x6-r4.qtb` and `mcts` (reporting the table
/// build to `progress`).
pub fn main_job_players(
    cache: &Path,
    progress: &dyn Progress,
) -> Result<Vec<PlayerSpec>, PlayerError> {
    let board = Board::new(MAIN_BOARD.0, MAIN_BOARD.1).expect("6x6 is a legal board");
    let table = ensure_table(cache, board, MAIN_ROWS, progress)?;
    Ok(vec![
        PlayerSpec::Mcts(MctsSpec {
            tablebase: Some(table),
            ..MctsSpec::default()
        }),
        PlayerSpec::Mcts(MctsSpec::default()),
    ])
}

/// The cached table's path for a board and row count: `<cache>/<W>x<H>-r<rows>.qtb`.
pub fn table_path(cache: &Path, board: Board, rows: u32) -> PathBuf {
    cache.join(format!("{board}-r{rows}.qtb"))
}

/// The table for `board` and `rows` in `cache`: reused when present and of this format,
/// built otherwise (the file appears only once complete, so an interrupted build leaves
/// nothing to reuse).
pub fn ensure_table(
    cache: &Path,
    board: Board,
    rows: u32,
    progress: &dyn Progress,
) -> Result<PathBuf, PlayerError> {
    let path = table_path(cache, board, rows);
    // Opening checks the header and size only (milliseconds): a table of an older format
    // or with a damaged header is rebuilt rather than reused.
    if path.is_file() && TableFile::open(&path).is_ok() {
        eprintln!("reusing the tablebase {}", path.display());
        return Ok(path);
    }
    let fail = |e: &dyn std::fmt::Display| {
        PlayerError::Unavailable(format!("building {}: {e}", path.display()))
    };
    std::fs::create_dir_all(cache).map_err(|e| fail(&e))?;
    eprintln!(
        "building the {board} {rows}-row tablebase into {} (once; later runs reuse it)",
        path.display()
    );
    let region = Region::new(board, rows).map_err(|e| fail(&e))?;
    let limits = Limits::default();
    let generated = generate(&region, limits, progress).map_err(|e| fail(&e))?;
    TableFile::write(&path, &region, limits, &generated.codec, &generated.entries)
        .map_err(|e| fail(&e))?;
    Ok(path)
}
