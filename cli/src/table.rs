//! A game's `tablebase` commands: which options its tables take, how its table files are
//! recognised, and its build, plan and compression.

use crate::{BuildOptions, CliResult, CompressOptions};
use engine::setup::GameSetup;
use quasar_core::{EndgameTable, Plan};
use std::error::Error;
use std::path::Path;

/// Which of `tablebase`'s options a game's tables take, by flag (`--max-pieces`): the
/// generic commands refuse every other one given, naming the game and [`Self::take`].
#[derive(Clone, Copy, Debug)]
pub struct TableOptions {
    /// The options of `tablebase build` its build takes (`--out`, `--threads` and `--quiet` go
    /// without saying).
    pub build: &'static [&'static str],
    /// Those its `tablebase plan` takes; `None` for tables built whole, which have no
    /// plan, `--slice` or `--wave`.
    pub plan: Option<&'static [&'static str]>,
    /// Why a plan refuses one of the build's options: "a sliced table holds ...".
    pub plan_note: &'static str,
    /// The options of `tablebase verify` it takes (`--samples`, `--seed`, `--write-index`).
    pub verify: &'static [&'static str],
    /// Whether its compressed tables are read through the block cache that
    /// `--table-cache` sizes (`tablebase probe` and `verify`).
    pub cache: bool,
    /// Its build options in words, for a refusal: "--width N (and --max-pieces K ...)".
    pub take: &'static str,
}

/// What one of a game's own `tablebase` options says, which words refuse it for another
/// game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionRole {
    /// What the table covers (a size or a piece limit): "not an option of G tables".
    Cover,
    /// How this game's tables are built: "an option of OWNER tables only".
    Build,
}

/// A game's own options of a `tablebase` command (flattened into it): those given, by flag.
pub trait OwnTableOptions {
    /// The flags given, in the order of the help, each with its role.
    fn given(&self) -> Vec<(&'static str, OptionRole)>;
}

/// A game's `tablebase` commands: build and plan of its tables, the table that `info`,
/// `probe` and `verify` open, the options they take, and how its table files are recognised.
pub trait TableGame: GameSetup {
    /// The game's name as a kind of table in messages ("a Woodpush table").
    const TABLE_KIND: &'static str;

    /// The game's opened table, which `tablebase info`, `probe` and `verify` ask.
    type Table: EndgameTable;

    /// The game's own options of `tablebase build` and `plan` (flattened into them).
    type TableArgs: clap::Args + OwnTableOptions + Clone + Default + std::fmt::Debug;

    /// The game's own options of `tablebase compress` (flattened into it; [`NoOptions`]
    /// for none). One given names the game when `--game` does not.
    ///
    /// [`NoOptions`]: crate::NoOptions
    type CompressArgs: clap::Args + OwnTableOptions + Clone + Default + std::fmt::Debug;

    /// The options of `tablebase` its tables take.
    const TABLE_OPTIONS: TableOptions;

    /// Whether `path` holds one of the game's tables: `head` is a regular file's first 128
    /// bytes (empty for a directory or an unreadable file).
    fn owns_table(path: &Path, head: &[u8]) -> bool;

    /// `tablebase build`: the table the shared options `a` and the game's own `own` ask
    /// for (those it does not take are refused before), written where `--out` says or to
    /// the game's default name.
    fn build(a: &BuildOptions, own: &Self::TableArgs) -> CliResult;

    /// `tablebase plan`: the slices of a sliced build in dependency waves (called only for
    /// a game whose [`TableOptions::plan`] is `Some`).
    fn plan(a: &BuildOptions, own: &Self::TableArgs) -> Result<Plan, Box<dyn Error>> {
        let _ = (a, own);
        Err(not_sliced(Self::NAME))
    }

    /// `tablebase compress`: the table rewritten in its compressed form into `a.out`.
    fn compress(path: &Path, a: &CompressOptions, own: &Self::CompressArgs) -> CliResult {
        let _ = (a, own);
        Err(format!(
            "{}: {} tables have no compressed form yet; `tablebase compress` rewrites checkers databases and Breakthrough sliced tables",
            path.display(),
            Self::TABLE_KIND
        )
        .into())
    }
}

/// The refusal of `plan`, `--slice` or `--wave` for the game `name`, whose tables are
/// built whole.
pub fn not_sliced(name: &str) -> Box<dyn Error> {
    format!("a {name} table is built whole: it has no slices, so no plan, --slice or --wave").into()
}
