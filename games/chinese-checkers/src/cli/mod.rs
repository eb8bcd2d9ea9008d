//! Chinese Checkers' registration: `--pieces-per-side K` (1 to 6 on the 7x7 rhombus), its
//! setup for the arena and GTP (start, `boardsize`, playout policy, solved tables as
//! oracles), and the main job: the solved 2-piece table against no table.

pub mod solver;
pub mod table;

pub use crate::setup::CcSetup;
use crate::CcTable;
use quasar_cli::{CliGame, MainJob, SizeFlags};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Chinese Checkers has no size option of its own (the board is 7x7); `--pieces-per-side K` sizes it.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CcSize {}

impl SizeFlags for CcSize {
    fn given(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// The main job: the 2-piece table (solved in seconds into the cache) against no table.
const MAIN_PIECES: u32 = 2;
const MAIN_GAMES: u32 = 200;

impl CliGame for CcSetup {
    type SizeArgs = CcSize;

    const SIZE_FLAGS: &'static [&'static str] = &["--pieces-per-side"];

    const SIZE_WORDS: &'static str = "it is played on 7x7, sized by --pieces-per-side K";

    fn from_size(_: &CcSize, pieces: Option<u32>) -> Result<Option<Self>, Box<dyn Error>> {
        Ok(match pieces {
            Some(k) => Some(CcSetup::checked(k)?),
            None => None,
        })
    }

    fn default_size() -> Self {
        Self::default()
    }

    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let _ = progress;
        let table = ensure_table(cache, MAIN_PIECES)?;
        Ok(Some(MainJob::table_against_plain(
            CcSetup::checked(MAIN_PIECES)?,
            table,
            MAIN_GAMES,
        )))
    }
}

/// The solved table of `k` pieces in `cache` (`<cache>/cc-k<K>.qrt`): reused when it loads,
/// solved otherwise (the file appears only once complete).
fn ensure_table(cache: &Path, k: u32) -> Result<PathBuf, Box<dyn Error>> {
    let path = cache.join(format!("cc-k{k}.qrt"));
    if path.is_file() && CcTable::load(&path).is_ok() {
        eprintln!("reusing the table {}", path.display());
        return Ok(path);
    }
    let fail = |e: &dyn std::fmt::Display| format!("building {}: {e}", path.display());
    std::fs::create_dir_all(cache).map_err(|e| fail(&e))?;
    eprintln!("solving {k} pieces a side into {} (once)", path.display());
    let (table, _) =
        crate::solve::solve_half(k, &Default::default(), &quasar_core::progress::Silent)
            .map_err(|e| fail(&e))?;
    table.save(&path).map_err(|e| fail(&e))?;
    Ok(path)
}
