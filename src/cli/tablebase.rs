//! `quasar tablebase`: build, plan, inspect, probe and verify any game's tables through its
//! registration ([`TableGame`]); a file's game is found by asking each game in turn, and
//! the options a game's tables do not take are refused by its own list of those they do.

use super::CliResult;
use crate::games::{with_game, GameName};
use quasar_cli::{OptionRole, TableGame};
pub mod show;

pub use crate::games::options::{BuildArgs, CompressArgs};

use quasar_core::{Plan, Selection};
use quasar_file::cache::DEFAULT_CACHE_BYTES;
use std::error::Error;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Tablebase subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Solve a game's positions (every one of a size, or those within its limits) into a
    /// table file, or a directory of slices
    #[command(after_help = super::examples::BUILD)]
    Build(BuildArgs),
    /// Print a sliced build's slices in dependency waves, one a line: the wave (from 0), a
    /// tab, the slice's name. A slice's inputs all lie in earlier waves, so one wave's
    /// slices can be built at once on many machines (`build --wave W --shard i/N`)
    #[command(after_help = super::examples::PLAN)]
    Plan(BuildArgs),
    /// Print a table's header, counts and depth histogram
    #[command(after_help = super::examples::INFO)]
    Info(InfoArgs),
    /// Probe a position: a certain win with its depth and best move, or why unknown
    #[command(after_help = super::examples::PROBE)]
    Probe(ProbeArgs),
    /// Check a table's checksum and re-derive a random sample of entries by brute force
    #[command(after_help = super::examples::VERIFY)]
    Verify(VerifyArgs),
    /// Rewrite databases or a sliced table as entropy-coded run-length blocks into another
    /// directory: smaller on disk and in memory, read and probed as the plain ones are
    /// (checkers databases, Breakthrough sliced tables)
    #[command(after_help = super::examples::COMPRESS)]
    Compress(CompressArgs),
}

/// Options of `tablebase info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// Game of the table [default: the file's own, read from its header]
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Table file
    file: PathBuf,
    /// Print one JSON object (keys in docs/tablebases.md) instead of text; an error prints
    /// {"error": "..."}
    #[arg(long)]
    json: bool,
}

/// Options of `tablebase probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// Game of the table [default: the file's own, read from its header]
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Table file
    file: PathBuf,
    /// Position text in the game's notation, as `quasar show` prints it
    #[arg(long)]
    position: String,
    /// A compressed table larger than this many MiB (fractions allowed) is read through a
    /// cache of that size, a part at a time (a Breakthrough slice, 4 KiB of checkers
    /// runs), instead of whole [default: 256; 0: always whole]
    #[arg(long, value_name = "MiB", value_parser = |t: &str| quasar_file::cache::parse_cache_size(t))]
    pub table_cache: Option<u64>,
    /// Print one JSON object (keys in docs/tablebases.md) instead of text; an error prints
    /// {"error": "..."}
    #[arg(long)]
    json: bool,
}

/// Options of `tablebase verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Game of the table [default: the file's own, read from its header]
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Table file
    file: PathBuf,
    /// Entries (or positions) to re-derive, for tables checked by sample [default: the
    /// game's, as docs/tablebases.md says]; one re-derivation may search a whole region
    /// game, so large tables take seconds per sample. Tables checked whole refuse it
    #[arg(long)]
    pub samples: Option<u64>,
    /// Seed of the sample [default: 1]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Sliced table: also write its block index (`blocks.qsi`: each slice's 4 KiB-block
    /// CRCs), so that probes check only the blocks they read, not whole slices
    #[arg(long)]
    pub write_index: bool,
    /// A compressed table larger than this many MiB (fractions allowed) is read through a
    /// cache of that size, a part at a time (a Breakthrough slice, 4 KiB of checkers
    /// runs), instead of whole [default: 256; 0: always whole]
    #[arg(long, value_name = "MiB", value_parser = |t: &str| quasar_file::cache::parse_cache_size(t))]
    pub table_cache: Option<u64>,
}

impl VerifyArgs {
    /// The choices of the sample, for every game's check.
    pub fn options(&self) -> quasar_core::table::VerifyOptions {
        quasar_core::table::VerifyOptions {
            samples: self.samples,
            seed: self.seed,
            write_index: self.write_index,
        }
    }
}

/// Runs the subcommand.
pub fn run(cmd: Command) -> CliResult {
    match cmd {
        Command::Build(a) => with_game!(a.game, S, own in a.games => {
            refuse_unused::<S>(&a, false)?;
            if let Some(n) = a.shared.threads {
                // Before any work: the build's parallel loops all run on rayon's pool.
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n as usize)
                    .build_global()
                    .map_err(|e| format!("cannot start {n} threads: {e}"))?;
            }
            S::build(&a.shared, own)
        }),
        Command::Plan(a) => with_game!(a.game, S, own in a.games => {
            refuse_unused::<S>(&a, true)?;
            print_plan(&S::plan(&a.shared, own)?, &a.shared.selection())
        }),
        Command::Info(a) => with_game!(game_of(&a.file, a.game)?, S => {
            show::info::<<S as TableGame>::Table>(&a.file, a.json)
        }),
        Command::Probe(a) => with_game!(game_of(&a.file, a.game)?, S => {
            refuse_unused_cache::<S>(&a.file, a.table_cache)?;
            let cache = a.table_cache.unwrap_or(DEFAULT_CACHE_BYTES);
            show::probe::<<S as TableGame>::Table>(&a.file, &a.position, a.json, cache)
        }),
        Command::Verify(a) => with_game!(game_of(&a.file, a.game)?, S => {
            refuse_unused_cache::<S>(&a.file, a.table_cache)?;
            refuse_unused_verify::<S>(&a)?;
            let cache = a.table_cache.unwrap_or(DEFAULT_CACHE_BYTES);
            show::verify::<<S as TableGame>::Table>(&a.file, &a.options(), cache)
        }),
        Command::Compress(a) => {
            let mut shared = a.shared;
            if !shared.dir.exists() {
                return Err(format!("{}: no such directory", shared.dir.display()).into());
            }
            if let Some(block) = shared.block {
                retro::RunWriter::new(block).map_err(|e| format!("--block {block}: {e}"))?;
            }
            // A game's own option (Breakthrough's --board) names the game when --game does
            // not; the other games' given are the chosen game's to refuse.
            let given = a.games.given();
            let game = match (a.game, given.first()) {
                (None, Some(&(_, owner))) => Some(owner),
                (g, _) => g,
            };
            let game = game_of(&shared.dir, game)?;
            shared.foreign = (given.into_iter())
                .filter(|&(_, owner)| owner != game)
                .map(|(flag, owner)| (flag, with_game!(owner, G => G::TABLE_KIND)))
                .collect();
            with_game!(game, S, own in a.games => S::compress(&shared.dir, &shared, own))
        }
    }
}

impl BuildArgs {
    /// The options given that some game may refuse, in the order of the help: the games'
    /// own (with the game that owns each), then the shared ones.
    fn given(&self) -> Vec<(&'static str, OptionRole, Option<&'static str>)> {
        let s = &self.shared;
        let shared = [
            (s.max_pieces.is_some(), "--max-pieces"),
            (s.pieces.is_some(), "--pieces"),
            (s.slice.is_some(), "--slice"),
            (s.wave.is_some(), "--wave"),
            (s.shard.is_some(), "--shard"),
        ];
        let own = self.games.given().into_iter();
        own.map(|(flag, role, owner)| (flag, role, Some(owner)))
            .chain(
                shared
                    .into_iter()
                    .filter(|(given, _)| *given)
                    .map(|(_, flag)| (flag, OptionRole::Cover, None)),
            )
            .collect()
    }
}

/// Refuses the first option given that `S`'s build (or, with `plan`, its plan) does not
/// take, in words that say whose option it is and what `S`'s tables take instead.
fn refuse_unused<S: TableGame>(a: &BuildArgs, plan: bool) -> CliResult {
    let o = S::TABLE_OPTIONS;
    let plan_takes = match o.plan {
        None if plan || a.shared.sliced() => return Err(quasar_cli::not_sliced(S::NAME)),
        None => &[][..],
        Some(takes) => takes,
    };
    if !plan {
        return refuse_first::<S>(a, o.build, false);
    }
    let given = a.given();
    let build_only = (a.shared.out.is_some().then_some("--out").into_iter())
        .chain(
            given
                .iter()
                .filter(|g| g.1 == OptionRole::Build)
                .map(|g| g.0),
        )
        .next();
    if let Some(flag) = build_only {
        return Err(format!(
            "{flag} is not an option of tablebase plan: it prints the slices to build; \
             give {flag} to tablebase build"
        )
        .into());
    }
    refuse_first::<S>(a, plan_takes, true)
}

/// Refuses the first option given that is not among `takes`.
fn refuse_first<S: TableGame>(a: &BuildArgs, takes: &[&str], plan: bool) -> CliResult {
    let o = S::TABLE_OPTIONS;
    let Some((flag, role, owner)) = a.given().into_iter().find(|g| !takes.contains(&g.0)) else {
        return Ok(());
    };
    Err(match (role, owner) {
        (OptionRole::Build, Some(owner)) => format!(
            "{flag} is an option of {owner} tables only: {} tables take {}",
            S::NAME,
            o.take
        ),
        _ if plan && o.build.contains(&flag) => format!(
            "{flag} is not an option of a {} plan: {}",
            S::TABLE_KIND,
            o.plan_note
        ),
        _ => format!(
            "{flag} is not an option of {} tables: they take {}",
            S::NAME,
            o.take
        ),
    }
    .into())
}

/// Refuses `--table-cache` for a game whose tables are not read through the block cache.
fn refuse_unused_cache<S: TableGame>(file: &Path, cache: Option<u64>) -> CliResult {
    match cache {
        Some(_) if !S::TABLE_OPTIONS.cache => Err(format!(
            "--table-cache is for compressed Breakthrough and checkers tables, read through \
             a block cache; {} is a {} table, read as it is: drop --table-cache",
            file.display(),
            S::TABLE_KIND
        )
        .into()),
        _ => Ok(()),
    }
}

/// Refuses the options of `verify` that `S`'s tables, checked whole or without a block
/// index, would ignore.
fn refuse_unused_verify<S: TableGame>(a: &VerifyArgs) -> CliResult {
    let takes = S::TABLE_OPTIONS.verify;
    if a.write_index && !takes.contains(&"--write-index") {
        let owner = GameName::all()
            .iter()
            .find(|g| with_game!(**g, G => G::TABLE_OPTIONS.verify.contains(&"--write-index")))
            .map_or("", |g| with_game!(*g, G => G::TABLE_KIND));
        return Err(format!(
            "--write-index is for {owner}'s sliced tables only, the one kind with a block \
             index; {} is a {} table, checked whole: drop --write-index",
            a.file.display(),
            S::NAME
        )
        .into());
    }
    let sample = [
        (a.samples.is_some(), "--samples"),
        (a.seed.is_some(), "--seed"),
    ];
    match sample
        .iter()
        .find(|(given, flag)| *given && !takes.contains(flag))
    {
        Some((_, flag)) => Err(format!(
            "{flag} chooses a sample, but a {} table is checked whole: drop {flag}",
            S::TABLE_KIND
        )
        .into()),
        None => Ok(()),
    }
}

/// The game of a table file or directory: the first game that recognises it, which must
/// be the `expected` one when given; without either, the default game's loader says why
/// it is no table.
fn game_of(path: &Path, expected: Option<GameName>) -> Result<GameName, Box<dyn Error>> {
    let meta = std::fs::metadata(path);
    if let Ok(m) = &meta {
        if !m.is_file() && !m.is_dir() {
            return Err(quasar_file::FileError::NotRegular {
                path: path.to_path_buf(),
                kind: quasar_file::describe(&m.file_type()),
            }
            .into());
        }
    }
    // Only a regular file is read here, and only its header: a FIFO would block the read.
    let mut head = Vec::new();
    if meta.is_ok_and(|m| m.is_file()) {
        if let Ok(f) = quasar_file::open_read(path) {
            let _ = f
                .take(retro::file::HEADER_BYTES as u64)
                .read_to_end(&mut head);
        }
    }
    let found = GameName::all()
        .iter()
        .copied()
        .find(|g| with_game!(*g, S => S::owns_table(path, &head)));
    if let (None, Some(other)) = (found, retro::file::game_in_header(&head)) {
        return Err(format!(
            "{}: a table of the game {other:?}, which quasar does not play",
            path.display()
        )
        .into());
    }
    let kind = |g: GameName| with_game!(g, S => S::TABLE_KIND);
    match (found, expected) {
        (Some(f), Some(e)) if f != e => Err(format!(
            "{} is a {} table, not a {} one: leave out --game, or give --game {}",
            path.display(),
            kind(f),
            kind(e),
            f.name()
        )
        .into()),
        (_, Some(e)) => Ok(e),
        (Some(f), None) => Ok(f),
        (None, None) => Ok(GameName::default()),
    }
}

/// `tablebase plan`: the slices `which` selects, one a line after its wave.
fn print_plan(plan: &Plan, which: &Selection) -> CliResult {
    let names = plan.select(which)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for name in names {
        let wave = plan.wave_of(name).expect("a selected slice is in the plan");
        writeln!(out, "{wave}\t{name}")?;
    }
    out.flush()?;
    Ok(())
}
