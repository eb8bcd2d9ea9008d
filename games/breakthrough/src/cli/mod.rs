//! Breakthrough's registration: the `--board WxH` option and default sizes, its setup for
//! the arena and GTP (start, `boardsize`, playout policy, row-limited tables as oracles),
//! and the main job's table, built once into a cache directory.

pub mod solver;
pub mod table;

pub use crate::setup::BreakthroughSetup;
use crate::tablebase::{build_slices, Progress, Region, Silent, SlicedTable};
use crate::{Board, Position};
use quasar_cli::{CliGame, MainJob, SizeFlags};
use quasar_core::measure::PlayoutRate;
use quasar_core::Selection;
use std::error::Error;
use std::path::{Path, PathBuf};

/// Breakthrough's size option.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SizeArgs {
    /// Breakthrough board WxH: W columns, H rows, W and H >= 3, W*H <= 64 [default: 6x6; the size of
    /// --position when one is given]
    #[arg(long, value_name = "WxH")]
    pub board: Option<Board>,
}

impl SizeFlags for SizeArgs {
    fn given(&self) -> Vec<&'static str> {
        self.board.iter().map(|_| "--board").collect()
    }
}

/// The main job's board, table rows and games: the thesis' best 6x6 table (Figure 5.3,
/// test 3), 20 games.
const MAIN_BOARD: (u32, u32) = (6, 6);
const MAIN_ROWS: u32 = 4;
const MAIN_GAMES: u32 = 20;

impl CliGame for BreakthroughSetup {
    type SizeArgs = SizeArgs;

    const SIZE_FLAGS: &'static [&'static str] = &["--board"];

    const SIZE_WORDS: &'static str = "its size is --board WxH";

    const FUSED_PLAYOUT: bool = true;

    fn from_size(args: &SizeArgs, pieces: Option<u32>) -> Result<Option<Self>, Box<dyn Error>> {
        if pieces.is_some() {
            return Err(
                "--pieces-per-side is not an option of breakthrough: its start fills two rows"
                    .into(),
            );
        }
        Ok(args.board.map(|board| BreakthroughSetup { board }))
    }

    /// 6x6: quick enough for games against people and for matches, and the size of the
    /// main job's table.
    fn default_size() -> Self {
        Self::default()
    }

    /// The bitboard playout that fuses move choice, move and result.
    fn playout_rate(pos: &Position, seed: u64, seconds: f64) -> PlayoutRate {
        crate::bench::playout_rate(pos, seed, seconds)
    }

    fn plain_playout_rate(pos: &Position, seed: u64, seconds: f64) -> Option<PlayoutRate> {
        Some(crate::bench::plain_playout_rate(pos, seed, seconds))
    }

    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let setup = BreakthroughSetup::sized(MAIN_BOARD.0, MAIN_BOARD.1);
        let table = ensure_table(cache, setup.board, MAIN_ROWS, progress)?;
        Ok(Some(MainJob::table_against_plain(setup, table, MAIN_GAMES)))
    }
}

/// The table for `board` and `rows` in `cache` (`<cache>/<W>x<H>-r<rows>.d`, a sliced table):
/// reused when complete, else its missing slices built, so that an interrupted build goes
/// on where it stopped. Slices keep the main job small (25 MB for 6x6 with 4 rows, against
/// the 910 MB of one B-tree file) and fast to probe in playouts.
fn ensure_table(
    cache: &Path,
    board: Board,
    rows: u32,
    progress: bool,
) -> Result<PathBuf, Box<dyn Error>> {
    let dir = cache.join(format!("{board}-r{rows}.d"));
    if dir.is_dir() && SlicedTable::open(&dir).is_ok_and(|t| t.completeness().is_ok()) {
        eprintln!("reusing the tablebase {}", dir.display());
        return Ok(dir);
    }
    let fail = |e: &dyn std::fmt::Display| format!("building {}: {e}", dir.display());
    std::fs::create_dir_all(cache).map_err(|e| fail(&e))?;
    eprintln!(
        "building the {board} {rows}-row tablebase into {} (once; later runs reuse it)",
        dir.display()
    );
    let region = Region::new(board, rows).map_err(|e| fail(&e))?;
    let table = SlicedTable::create(&dir, &region).map_err(|e| fail(&e))?;
    let plan = table.slicing().plan();
    let names = plan.select(&Selection::All).map_err(|e| fail(&e))?;
    let bars = quasar_cli::progress::Bars::default();
    let progress: &dyn Progress = if progress { &bars } else { &Silent };
    build_slices(&table, &names, progress, |_| {}).map_err(|e| fail(&e))?;
    table.completeness().map_err(|e| fail(&e))?;
    Ok(dir)
}
