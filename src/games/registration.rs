//! What a game registers for the command line beyond [`GameSetup`]: its size options,
//! the sizes commands start from, the main job of `quasar arena`, and its `tablebase`
//! commands.

use super::GameName;
use crate::games::options::SolveArgs;
use crate::games::options::{BuildArgs, CompressArgs};
use crate::CliResult;
use engine::settings::EngineSettings;
use engine::setup::GameSetup;
use engine::spec::PlayerSpec;
use quasar_core::measure::PlayoutRate;
use quasar_core::{EndgameTable, Plan};
use std::error::Error;
use std::path::Path;

/// The main job of `quasar arena` without players: the game, its players and the games.
pub struct MainJob<S> {
    /// The game and size the job plays.
    pub setup: S,
    /// The players (a table player against the plain engine).
    pub players: Vec<PlayerSpec>,
    /// Games of the match.
    pub games: u32,
}

impl<S> MainJob<S> {
    /// The usual main job: the engine with the table at `table` against the engine without.
    pub fn table_against_plain(setup: S, table: std::path::PathBuf, games: u32) -> MainJob<S> {
        let with_table = EngineSettings {
            table: Some(table),
            ..EngineSettings::default()
        };
        MainJob {
            setup,
            players: vec![
                PlayerSpec::Mcts(with_table),
                PlayerSpec::Mcts(EngineSettings::default()),
            ],
            games,
        }
    }
}

/// What a game registers for the command line beyond [`GameSetup`].
pub trait CliGame: TableGame + SolveGame {
    /// The game's size options (flattened into every subcommand that plays).
    type SizeArgs: clap::Args + SizeFlags;

    /// The size flags of every game (`GameArgs`) this one takes: its own and, where its
    /// size has pieces, `--pieces-per-side`; any other given is refused.
    const SIZE_FLAGS: &'static [&'static str];

    /// What the game's size is, in words, for that refusal: "its size is --board WxH".
    const SIZE_WORDS: &'static str;

    /// Whether [`Self::playout_rate`] is a fused loop with a plain one to compare
    /// ([`Self::plain_playout_rate`], `bench --plain`).
    const FUSED_PLAYOUT: bool = false;

    /// The setup these size options and the shared `--pieces-per-side` ask for; `None` when none
    /// was given (a game without pieces in its size refuses `pieces`).
    fn from_size(
        args: &Self::SizeArgs,
        pieces: Option<u32>,
    ) -> Result<Option<Self>, Box<dyn Error>>;

    /// The setup every command that plays or builds starts from when no size is given
    /// (`solve`, slower by far, keeps a smaller board of its own).
    fn default_size() -> Self;

    /// Uniformly random playouts from `pos` for about `seconds`, as `quasar bench` times
    /// them: the game's fastest loop (by default the generic one of `legal_moves` and
    /// `play`).
    fn playout_rate(pos: &Self::Game, seed: u64, seconds: f64) -> PlayoutRate {
        quasar_core::measure::playout_rate(pos, seed, seconds)
    }

    /// The plain per-ply playout loop to compare with [`Self::playout_rate`], for a game
    /// whose fastest loop is a fused one.
    fn plain_playout_rate(pos: &Self::Game, seed: u64, seconds: f64) -> Option<PlayoutRate> {
        let _ = (pos, seed, seconds);
        None
    }

    /// The main job of `quasar arena`, building what it needs in `cache` (with progress on
    /// standard error when `progress`); `None` for a game that has none.
    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let _ = (cache, progress);
        Ok(None)
    }
}

/// A game's own size options: those given, by flag.
pub trait SizeFlags {
    /// The flags given (`--board`).
    fn given(&self) -> Vec<&'static str>;
}

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

/// What one of a game's own `tablebase build` options says, which words refuse it for
/// another game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionRole {
    /// What the table covers (a size or a piece limit): "not an option of G tables".
    Cover,
    /// How this game's tables are built: "an option of OWNER tables only".
    Build,
}

/// A game's own options of `tablebase build` (flattened into it): those given, by flag.
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

    /// The game's own options of `tablebase build` (flattened into it).
    type TableArgs: clap::Args + OwnTableOptions + Clone + Default + std::fmt::Debug;

    /// The options of `tablebase` its tables take.
    const TABLE_OPTIONS: TableOptions;

    /// Whether `path` holds one of the game's tables: `head` is a regular file's first 128
    /// bytes (empty for a directory or an unreadable file).
    fn owns_table(path: &Path, head: &[u8]) -> bool;

    /// `tablebase build`: the table the options ask for (those it does not take are
    /// refused before), written where `--out` says or to the game's default name.
    fn build(a: &BuildArgs) -> CliResult;

    /// `tablebase plan`: the slices of a sliced build in dependency waves (called only for
    /// a game whose [`TableOptions::plan`] is `Some`).
    fn plan(a: &BuildArgs) -> Result<Plan, Box<dyn Error>> {
        let _ = a;
        Err(not_sliced(Self::NAME))
    }

    /// `tablebase compress`: the table rewritten in its compressed form into `a.out`.
    fn compress(path: &Path, a: &CompressArgs) -> CliResult {
        let _ = a;
        Err(format!(
            "{}: {} tables have no compressed form yet; `tablebase compress` rewrites checkers databases",
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
    fn solve_root(args: &SolveArgs) -> Result<SolvePos<Self>, Box<dyn Error>>;

    /// The prover's instance for `root`.
    fn prover(root: &SolvePos<Self>) -> Self::Prover;

    /// The table whose claims end the searches from `root` (none when `args` give none and
    /// the game builds none), and how the answer names it.
    fn solve_table(
        args: &SolveArgs,
        root: &SolvePos<Self>,
    ) -> Result<NamedTable<SolveTable<Self>>, Box<dyn Error>>;

    /// The `root` of the proof `file` made ready for `--check` with what the rules need
    /// beyond the file (checkers' databases); by default as read.
    fn check_root(
        args: &SolveArgs,
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
    fn to_leaves(args: &SolveArgs) -> &'static str {
        let _ = args;
        ""
    }

    /// Keys of the JSON answers beyond the game and the position (Breakthrough's board).
    fn json_keys(root: &SolvePos<Self>) -> serde_json::Map<String, serde_json::Value> {
        let _ = root;
        serde_json::Map::new()
    }
}

/// The games whose `list` (of the pair `of` gives for a game: a list of flags and the
/// game's kind) holds `flag`, as possessives: "Breakthrough's", "checkers'".
pub fn kinds_taking(
    flag: &str,
    of: impl Fn(GameName) -> (&'static [&'static str], &'static str),
) -> String {
    let kinds: Vec<String> = GameName::all()
        .iter()
        .map(|&g| of(g))
        .filter(|(list, _)| list.contains(&flag))
        .map(|(_, kind)| match kind.ends_with('s') {
            true => format!("{kind}'"),
            false => format!("{kind}'s"),
        })
        .collect();
    kinds.join(" or ")
}

/// A solve's table read from the `--tb` file by `load` (none without one), and how the
/// answer names it: the file, or `none`.
pub fn table_file<T, E: Error + 'static>(
    args: &SolveArgs,
    load: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<NamedTable<T>, Box<dyn Error>> {
    match &args.tb {
        Some(path) => Ok((Some(load(path)?), path.display().to_string())),
        None => Ok((None, "none".to_string())),
    }
}
