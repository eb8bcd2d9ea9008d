//! The options of `tablebase compress` that every game's compression reads, and the empty
//! set of own options of a game that has none.

use crate::{OptionRole, OwnTableOptions};
use std::path::PathBuf;

/// Options of `tablebase compress` shared by every game; each game's own are flattened
/// before them.
#[derive(clap::Args, Clone, Debug)]
pub struct CompressOptions {
    /// The databases or sliced table to compress (left as they are)
    pub dir: PathBuf,
    /// The directory of the compressed databases; a stopped run resumes there
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Positions a block: a power of two of 64 to 16777216; larger blocks compress better
    /// and probe slower [default: 4096 for checkers, 1024 for Breakthrough]
    #[arg(long, value_name = "N")]
    pub block: Option<u64>,
    /// No line per slice
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Other games' own options that were given, each flag with the kind of table that
    /// takes it ("Breakthrough"): set by the dispatch, not parsed, for a game that refuses
    /// them in words of its own.
    #[arg(skip)]
    pub foreign: Vec<(&'static str, &'static str)>,
}

/// A game's own options of a `tablebase` command when it has none.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
#[group(skip)]
pub struct NoOptions {}

impl OwnTableOptions for NoOptions {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        Vec::new()
    }
}
