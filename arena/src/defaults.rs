//! The main job of `quasar arena` without players: a small 6x6 table, built once into a
//! cache directory, and the engine with it against the engine without it.

use crate::player::{MctsSpec, PlayerError, PlayerSpec};
use engine::breakthrough::Board;
use std::path::{Path, PathBuf};

/// The board of the main job.
pub const MAIN_BOARD: (u32, u32) = (6, 6);
/// The table's row count: the thesis' best 6x6 table (Figure 5.3, test 3).
pub const MAIN_ROWS: u32 = 4;
/// Games of the main job (each opening with both colours).
pub const MAIN_GAMES: u32 = 20;

/// The main job's players: `mcts:tb=<cache>/6x6-r4.qtb` and `mcts`.
pub fn main_job_players(cache: &Path) -> Result<Vec<PlayerSpec>, PlayerError> {
    let board = Board::new(MAIN_BOARD.0, MAIN_BOARD.1).expect("6x6 is a legal board");
    let table = ensure_table(cache, board, MAIN_ROWS)?;
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

/// The table for `board` and `rows` in `cache`: reused when present, built otherwise.
///
/// Wiring, once the tablebase crate is merged: build with its generator (all cores, no piece
/// limit) into `table_path(...)`, writing through its temporary-file-and-rename so an
/// interrupted build leaves no half table behind.
pub fn ensure_table(cache: &Path, board: Board, rows: u32) -> Result<PathBuf, PlayerError> {
    let path = table_path(cache, board, rows);
    if path.is_file() {
        return Ok(path);
    }
    Err(PlayerError::Unavailable(format!(
        "`quasar arena` without --player plays mcts with a {board} {rows}-row tablebase ({}) against mcts without one, \
         but building tablebases needs the tablebase crate and the engine's search (not yet merged). \
         For now run a match of given players, for example: quasar arena --player random --player random:seed=2 --games 4",
        path.display()
    )))
}
