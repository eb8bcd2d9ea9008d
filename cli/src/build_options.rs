//! The options of `tablebase build` and `plan` that every game's build reads: the piece
//! limit, the slices of a job, the output, threads and progress.

use quasar_core::{Selection, Shard};
use std::path::PathBuf;

/// Options of `tablebase build` (and `plan`) shared by every game; each game's own are
/// flattened beside them.
#[derive(clap::Args, Clone, Debug)]
pub struct BuildOptions {
    /// At most this many pieces, where the game counts them (its region, strip or board):
    /// an endgame table, or the databases of 1 to N pieces
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<u32>,
    /// The old name of --pieces-per-side, and of --max-pieces for tables that take no
    /// --pieces-per-side
    #[arg(long, hide = true, value_name = "K")]
    pub pieces: Option<u32>,
    /// Build only the slice of this name (`tablebase plan` lists them); its inputs must be
    /// built already. A finished slice is found and skipped
    #[arg(long, value_name = "NAME", conflicts_with = "wave")]
    pub slice: Option<String>,
    /// Build only the slices of this wave (from 0; `tablebase plan` lists them); the waves
    /// before it must be built already
    #[arg(long, value_name = "W")]
    pub wave: Option<usize>,
    /// With --wave: build only this job's share of the wave, every N-th slice from the i-th
    /// (i from 1, as Slurm's --array=1-N and GNU parallel's {#} number jobs)
    #[arg(long, value_name = "i/N", requires = "wave")]
    pub shard: Option<Shard>,
    /// Output file, or directory of slices [default: named after the game and what the
    /// table covers, as each game's page in docs/games/ says]
    #[arg(short, long, alias = "output", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Threads that solve the positions (a build splits into independent pieces, as the
    /// arena's games and a proof's check do) [default: every core]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// No progress bar
    #[arg(long)]
    pub quiet: bool,
}

impl BuildOptions {
    /// The slices `--slice`, `--wave` and `--shard` ask this job to build.
    pub fn selection(&self) -> Selection {
        match (&self.slice, self.wave) {
            (Some(name), _) => Selection::Slice(name.clone()),
            (None, Some(wave)) => Selection::Wave {
                wave,
                shard: self.shard.unwrap_or(Shard::WHOLE),
            },
            (None, None) => Selection::All,
        }
    }

    /// Whether any slicing option was given (refused by a build that has no slices).
    pub fn sliced(&self) -> bool {
        self.slice.is_some() || self.wave.is_some()
    }
}
