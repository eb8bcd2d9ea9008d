//! English checkers' registration: no size options (the 8x8 board), its setup for the arena
//! and GTP (start, uniform playouts, endgame databases as oracles), and the main job: MCTS
//! with the 5-piece databases against plain MCTS.

pub mod solver;
pub mod table;

use crate::db::build;
pub use crate::setup::CheckersSetup;
use quasar_cli::{CliGame, MainJob, SizeFlags};
use quasar_core::Selection;
use std::error::Error;
use std::path::{Path, PathBuf};

/// Checkers has no size options (clap needs an argument group all the same).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CheckersSize {}

impl SizeFlags for CheckersSize {
    fn given(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// The main job: MCTS with the databases of this many pieces against plain MCTS.
const MAIN_PIECES: u32 = 5;
const MAIN_GAMES: u32 = 200;

impl CliGame for CheckersSetup {
    type SizeArgs = CheckersSize;

    const SIZE_FLAGS: &'static [&'static str] = &[];

    const SIZE_WORDS: &'static str =
        "it is played on 8x8 with 12 men a side and has no size options";

    fn from_size(_: &CheckersSize, pieces: Option<u32>) -> Result<Option<Self>, Box<dyn Error>> {
        match pieces {
            None => Ok(None),
            Some(_) => Err(
                "--pieces-per-side is not an option of checkers: it starts with 12 men a \
                 side (`tablebase build --game checkers --max-pieces N` sizes its databases)"
                    .into(),
            ),
        }
    }

    fn default_size() -> Self {
        CheckersSetup
    }

    fn main_job(cache: &Path, _progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let dir = ensure_databases(cache, MAIN_PIECES)?;
        Ok(Some(MainJob::table_against_plain(
            CheckersSetup,
            dir,
            MAIN_GAMES,
        )))
    }
}

/// The databases to `pieces` pieces in `<cache>/checkers-p<N>/`: finished slices are
/// reused, missing ones built.
fn ensure_databases(cache: &Path, pieces: u32) -> Result<PathBuf, Box<dyn Error>> {
    let dir = cache.join(format!("checkers-p{pieces}"));
    eprintln!(
        "checkers databases to {pieces} pieces in {} (finished slices are reused)",
        dir.display()
    );
    build(&dir, pieces, &Selection::All, &mut |_| {})?;
    Ok(dir)
}
