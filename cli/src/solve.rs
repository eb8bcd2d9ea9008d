//! A game's `quasar solve`: what the one solve driver asks of it beyond the prover's
//! instance (the root, the table and the defaults).

use crate::SolveOptions;
use engine::setup::GameSetup;
use std::error::Error;
use std::path::Path;

/// The position type of a game's solve (its prover instance's).
pub type SolvePos<S> = <<S as SolveGame>::Prover as prover::Instance>::Pos;

/// The table type of a game's solve (its prover instance's).
pub type SolveTable<S> = <<S as SolveGame>::Prover as prover::Instance>::Table;

/// A solve's table (none: the searches go to the game's end) and how the answer names it.
pub type NamedTable<T> = (Option<T>, String);

/// A game's `quasar solve`: what the one solve driver asks of
/// it beyond the prover's instance: the root, the table and the defaults.
pub trait SolveGame: GameSetup {
    /// The options of `solve` it takes beyond those every game's takes (`--position`,
    /// `--tb`, `--out`, `--check`, `--threads`, `--memory`, `--within`, `--shard`,
    /// `--merge`, ...): any other given is refused, naming the games that take it.
    /// `--tb (with --check)` stands for that option in that company.
    const SOLVE_OPTIONS: &'static [&'static str];

    /// True when the game may draw or repeat a position: its value is found as two
    /// searches ([`prover::solve_with_draws`]) and a draw gets a proof of its own.
    const MAY_DRAW: bool = true;

    /// The game's instance of the prover.
    type Prover: prover::Instance;

    /// The position `args` ask to solve (or whose moves to list), unfinished or not.
    fn solve_root(args: &SolveOptions) -> Result<SolvePos<Self>, Box<dyn Error>>;

    /// The prover's instance for `root`.
    fn prover(root: &SolvePos<Self>) -> Self::Prover;

    /// The table whose claims end the searches from `root` (none when `args` give none and
    /// the game builds none), and how the answer names it.
    fn solve_table(
        args: &SolveOptions,
        root: &SolvePos<Self>,
    ) -> Result<NamedTable<SolveTable<Self>>, Box<dyn Error>>;

    /// The `root` of the proof `file` made ready for `--check` with what the rules need
    /// beyond the file (a game's databases); by default as read.
    fn check_root(
        args: &SolveOptions,
        file: &Path,
        root: SolvePos<Self>,
    ) -> Result<SolvePos<Self>, Box<dyn Error>> {
        let _ = (args, file);
        Ok(root)
    }

    /// MiB of each phase's transposition table unless `--memory` says.
    fn solve_memory_mib(root: &SolvePos<Self>) -> u64 {
        let _ = root;
        512
    }

    /// The least bound the length search tests by proof numbers unless
    /// `--length-pn-from` says.
    fn length_pn_from(root: &SolvePos<Self>) -> u32 {
        let _ = root;
        prover::length::DEFAULT_PN_FROM
    }

    /// The end of the sentence of a win's length where the game's leaves end it (" to a
    /// position of the databases"); by default nothing.
    fn to_leaves(args: &SolveOptions) -> &'static str {
        let _ = args;
        ""
    }

    /// Keys of the JSON answers beyond the game and the position (a board's size).
    fn json_keys(root: &SolvePos<Self>) -> serde_json::Map<String, serde_json::Value> {
        let _ = root;
        serde_json::Map::new()
    }
}

/// A solve's table read from the `--tb` file by `load` (none without one), and how the
/// answer names it: the file, or `none`.
pub fn table_file<T, E: Error + 'static>(
    args: &SolveOptions,
    load: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<NamedTable<T>, Box<dyn Error>> {
    match &args.tb {
        Some(path) => Ok((Some(load(path)?), path.display().to_string())),
        None => Ok((None, "none".to_string())),
    }
}
