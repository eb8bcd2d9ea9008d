//! Woodpush's registration: the `--width N` and `--pieces-per-side K` options and default sizes, its
//! setup for the arena and GTP (start, `boardsize`, playout policy, solved tables as oracles),
//! and the main job: an endgame table of few pieces against none, from three pieces a side.

pub mod solver;
pub mod table;

pub use crate::setup::WoodpushSetup;
use crate::setup::PAPER_PIECES;
use crate::{solve, SolveOptions, WoodpushTable};
use quasar_cli::{CliGame, MainJob, SizeFlags};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Woodpush's size options (named apart from other games' for clap's argument groups).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WoodpushSize {
    /// Woodpush strip width, 6 to 31 cells [default: 7; the width of --position when one
    /// is given]
    #[arg(long, value_name = "N")]
    pub width: Option<u32>,
}

impl SizeFlags for WoodpushSize {
    fn given(&self) -> Vec<&'static str> {
        self.width.iter().map(|_| "--width").collect()
    }
}

/// The main job: three pieces a side on 20 cells (3^20 placements: too many to solve
/// whole), an endgame table of at most 5 pieces (a game falls into it when the first piece
/// leaves), 200 games.
const MAIN_WIDTH: u32 = 20;
const MAIN_PIECES: u32 = 3;
const MAIN_TABLE_PIECES: u32 = 5;
const MAIN_GAMES: u32 = 200;

impl CliGame for WoodpushSetup {
    type SizeArgs = WoodpushSize;

    const SIZE_FLAGS: &'static [&'static str] = &["--width", "--pieces-per-side"];

    const SIZE_WORDS: &'static str = "its size is --width N and --pieces-per-side K";

    fn from_size(args: &WoodpushSize, pieces: Option<u32>) -> Result<Option<Self>, Box<dyn Error>> {
        if args.width.is_none() && pieces.is_none() {
            return Ok(None);
        }
        let width = args
            .width
            .unwrap_or_else(|| WoodpushSetup::default_size().width);
        Ok(Some(WoodpushSetup::checked(
            width,
            pieces.unwrap_or(PAPER_PIECES),
        )?))
    }

    fn default_size() -> Self {
        Self::default()
    }

    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let setup = WoodpushSetup::checked(MAIN_WIDTH, MAIN_PIECES)?;
        let table = ensure_table(cache, MAIN_WIDTH, MAIN_TABLE_PIECES, progress)?;
        Ok(Some(MainJob::table_against_plain(setup, table, MAIN_GAMES)))
    }
}

/// The endgame table of `width` and `pieces` in `cache` (`<cache>/woodpush-w<W>-p<P>.qrt`):
/// reused when it loads, built otherwise (the file appears only once complete).
fn ensure_table(
    cache: &Path,
    width: u32,
    pieces: u32,
    progress: bool,
) -> Result<PathBuf, Box<dyn Error>> {
    let path = cache.join(format!("woodpush-w{width}-p{pieces}.qrt"));
    if path.is_file() && WoodpushTable::load(&path).is_ok() {
        eprintln!("reusing the endgame table {}", path.display());
        return Ok(path);
    }
    let fail = |e: &dyn std::fmt::Display| format!("building {}: {e}", path.display());
    std::fs::create_dir_all(cache).map_err(|e| fail(&e))?;
    eprintln!(
        "building the width-{width} table of at most {pieces} pieces into {} (once; later runs reuse it)",
        path.display()
    );
    let bars = quasar_cli::progress::Bars::new(progress);
    let options = SolveOptions {
        max_pieces: Some(pieces),
        ..SolveOptions::default()
    };
    let (table, _) = solve(width, options, &bars).map_err(|e| fail(&e))?;
    bars.finish();
    table.save(&path).map_err(|e| fail(&e))?;
    Ok(path)
}
