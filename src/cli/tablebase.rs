//! `quasar tablebase`: build, inspect, probe and verify Breakthrough's row-limited tables and
//! Woodpush's solved tables (a file's kind is read from its magic), drawing the library's
//! progress as bars.

use super::output::{histogram_json, print_json, ProbeAnswer, TableInfo};
use super::CliResult;
use crate::games::breakthrough::BreakthroughSetup;
use crate::games::checkers::table as checkers_table;
use crate::games::chinese_checkers::table as cc_table;
use crate::games::chinese_checkers::CcSetup;
use crate::games::woodpush::table as woodpush_table;
use crate::games::woodpush::WoodpushSetup;
use crate::games::{CliGame, GameName};
use crate::progress::Bars;
use breakthrough::tablebase::index::Indexer;
use breakthrough::tablebase::slices::Slicing;
use breakthrough::tablebase::store::slice_blocks::{BLOCK_INDEX, SLICE_BLOCK_BYTES};
use breakthrough::tablebase::store::{Lookup, Tree};
use breakthrough::tablebase::{
    build_slices, generate, Limits, Progress, Region, Silent, SliceOutcome, SlicedTable, TableFile,
    Tablebase, Unknown,
};
use breakthrough::{Board, Position};
use quasar_core::{Game, Plan, Selection, Shard};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use woodpush::WoodpushTable;

/// Tablebase subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Breakthrough: compute D for every region configuration; Woodpush: solve every position
    /// of a width (or those of at most --max-pieces pieces); write the table file
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
}

/// Options of `tablebase build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Breakthrough board size WxH [default: 6x6]
    #[arg(long)]
    board: Option<Board>,
    /// Breakthrough rows of the region (3 ..= H-1) [default: 3]
    #[arg(long)]
    rows: Option<u32>,
    /// Woodpush strip width (1 to 16 whole; up to 31 with --max-pieces) [default: 7]
    #[arg(long, value_name = "N")]
    width: Option<u32>,
    /// At most this many White pieces in the region
    #[arg(long)]
    max_white: Option<u32>,
    /// At most this many Black pieces in the region
    #[arg(long)]
    max_black: Option<u32>,
    /// At most this many pieces: Breakthrough in the region, Woodpush on the strip (an
    /// endgame table), checkers on the board (the databases of 1 to N pieces)
    #[arg(long, value_name = "N")]
    max_pieces: Option<u32>,
    /// Chinese Checkers: pieces a side (1 to 6) [default: 2]
    #[arg(long, value_name = "K")]
    pieces_per_side: Option<u32>,
    /// The old name of --pieces-per-side (Chinese Checkers) and --max-pieces (checkers)
    #[arg(long, hide = true, value_name = "K")]
    pieces: Option<u32>,
    /// Build only the slice of this name (`tablebase plan` lists them); its inputs must be
    /// built already. A finished slice is found and skipped
    #[arg(long, value_name = "NAME", conflicts_with = "wave")]
    slice: Option<String>,
    /// Build only the slices of this wave (from 0; `tablebase plan` lists them); the waves
    /// before it must be built already
    #[arg(long, value_name = "W")]
    wave: Option<usize>,
    /// With --wave: build only this job's share of the wave, every N-th slice from the i-th
    /// (i from 1, as Slurm's --array=1-N and GNU parallel's {#} number jobs)
    #[arg(long, value_name = "i/N", requires = "wave")]
    shard: Option<Shard>,
    /// Output file (default: tb-<board>-r<rows>[-w<P>][-b<Q>][-t<T>].qtb; Woodpush:
    /// woodpush-w<N>[-p<K>].qrt)
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    cc: cc_table::CcBuildArgs,
    #[command(flatten)]
    ck: checkers_table::CkBuildArgs,
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
    /// Position text, e.g. "6/6/2W3/6/6/6 w" (Breakthrough) or "L.L...R.R L" (Woodpush)
    #[arg(long)]
    position: String,
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
    /// Breakthrough: entries (and random configurations) to re-derive [default: 100]; each
    /// re-derivation searches the configuration's whole region game, so large tables take
    /// seconds per sample. Chinese Checkers: positions to check against their moves
    /// [default: every position up to 10 million, else 100]. Woodpush and checkers tables
    /// are checked whole and refuse it
    #[arg(long)]
    samples: Option<u64>,
    /// Seed of the sample [default: 1]
    #[arg(long)]
    seed: Option<u64>,
    /// Breakthrough sliced table: also write its block index (`blocks.qsi`: each slice's
    /// 4 KiB-block CRCs), so that probes check only the blocks they read, not whole slices
    #[arg(long)]
    write_index: bool,
}

/// Runs the subcommand.
pub fn run(cmd: Command) -> CliResult {
    if let Command::Build(a) | Command::Plan(a) = &cmd {
        if let Some(e) = unused_option(a, matches!(cmd, Command::Plan(_))) {
            return Err(e.into());
        }
    }
    match cmd {
        Command::Build(a)
            if a.sliced() && matches!(a.game, GameName::Woodpush | GameName::ChineseCheckers) =>
        {
            Err(not_sliced(a.game))
        }
        Command::Build(a)
            if (a.pieces.is_some() || a.pieces_per_side.is_some())
                && matches!(a.game, GameName::Breakthrough | GameName::Woodpush) =>
        {
            Err(format!(
                "--pieces-per-side is not an option of {} tables: they limit their pieces \
                 with --max-pieces{}",
                a.game.name(),
                if a.game == GameName::Breakthrough {
                    ", --max-white and --max-black"
                } else {
                    ""
                }
            )
            .into())
        }
        Command::Build(a) => match a.game {
            GameName::Breakthrough => build(a),
            GameName::Woodpush => build_woodpush(a),
            GameName::ChineseCheckers => build_cc(a),
            GameName::Checkers => {
                checkers_options(&a)?;
                checkers_table::build(
                    a.max_pieces.or(a.pieces),
                    a.selection(),
                    a.output.as_deref(),
                    &a.ck,
                    a.quiet,
                )
            }
        },
        Command::Plan(a) => match a.game {
            GameName::Breakthrough => {
                let plan = Slicing::new(&region_of(&a)?)?.plan();
                print_plan(&plan, &a.selection())
            }
            GameName::Woodpush | GameName::ChineseCheckers => Err(not_sliced(a.game)),
            GameName::Checkers => {
                checkers_options(&a)?;
                let plan = checkers_table::plan(a.max_pieces.or(a.pieces))?;
                print_plan(&plan, &a.selection())
            }
        },
        Command::Info(a) => match open(&a.file, a.game)? {
            Opened::Breakthrough => info(a),
            Opened::Woodpush(t) => woodpush_table::info(&t, &a.file, a.json),
            Opened::Cc(t) => cc_table::info(&t, &a.file, a.json),
            Opened::Checkers => checkers_table::info(&a.file, a.json),
        },
        Command::Probe(a) => match open(&a.file, a.game)? {
            Opened::Breakthrough => probe(a),
            Opened::Woodpush(t) => woodpush_table::probe(&t, &a.position, a.json),
            Opened::Cc(t) => cc_table::probe(&t, &a.position, a.json),
            Opened::Checkers => checkers_table::probe(&a.file, &a.position, a.json),
        },
        Command::Verify(a) => {
            let opened = open(&a.file, a.game)?;
            let game = match &opened {
                Opened::Breakthrough => None,
                Opened::Woodpush(_) => Some(GameName::Woodpush),
                Opened::Cc(_) => Some(GameName::ChineseCheckers),
                Opened::Checkers => Some(GameName::Checkers),
            };
            if let (true, Some(game)) = (a.write_index, game) {
                return Err(format!(
                    "--write-index is for Breakthrough's sliced tables only, the one kind with a \
                     block index; {} is a {} table, checked whole: drop --write-index",
                    a.file.display(),
                    game.name()
                )
                .into());
            }
            if let (Some(game @ (GameName::Woodpush | GameName::Checkers)), Some(flag)) =
                (game, sample_flag(&a))
            {
                return Err(format!(
                    "{flag} chooses a sample, but a {} table is checked whole: drop {flag}",
                    table_kind(game)
                )
                .into());
            }
            match opened {
                Opened::Breakthrough => verify(a),
                Opened::Woodpush(t) => woodpush_table::verify(&t),
                Opened::Cc(t) => cc_table::verify(&t, a.samples, a.seed),
                Opened::Checkers => checkers_table::verify(&a.file),
            }
        }
    }
}

/// A game's name as a kind of table in messages ("a Woodpush table").
fn table_kind(g: GameName) -> &'static str {
    match g {
        GameName::Breakthrough => "Breakthrough",
        GameName::Woodpush => "Woodpush",
        GameName::ChineseCheckers => "Chinese Checkers",
        GameName::Checkers => "checkers",
    }
}

/// The sampling option given to `verify`, if any (`--samples` first).
fn sample_flag(a: &VerifyArgs) -> Option<&'static str> {
    match (a.samples, a.seed) {
        (Some(_), _) => Some("--samples"),
        (None, Some(_)) => Some("--seed"),
        (None, None) => None,
    }
}

impl BuildArgs {
    /// The slices `--slice`, `--wave` and `--shard` ask this job to build.
    fn selection(&self) -> Selection {
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
    fn sliced(&self) -> bool {
        self.slice.is_some() || self.wave.is_some()
    }
}

/// The error of `plan`, `--slice` or `--wave` for a game whose build has no slices.
fn not_sliced(game: GameName) -> Box<dyn std::error::Error> {
    format!(
        "a {} table is built whole: it has no slices, so no plan, --slice or --wave",
        game.name()
    )
    .into()
}

/// Refuses the size options of other games' checkers builds and plans would ignore.
fn checkers_options(a: &BuildArgs) -> CliResult {
    let foreign = [
        (a.board.is_some(), "--board"),
        (a.rows.is_some(), "--rows"),
        (a.width.is_some(), "--width"),
        (a.max_white.is_some(), "--max-white"),
        (a.max_black.is_some(), "--max-black"),
        (a.pieces_per_side.is_some(), "--pieces-per-side"),
    ];
    not_options_of(
        "checkers",
        "--max-pieces N (pieces on the board in all) and -o DIR",
        &foreign,
    )
}

/// Refuses the first of the `foreign` options (whether given, its flag) that was given:
/// it is not an option of `game`'s tables, which take `take`.
fn not_options_of(game: &str, take: &str, foreign: &[(bool, &str)]) -> CliResult {
    match foreign.iter().find(|(given, _)| *given) {
        Some((_, flag)) => {
            Err(format!("{flag} is not an option of {game} tables: they take {take}").into())
        }
        None => Ok(()),
    }
}

/// The refusal of an option `a`'s game's build (or, with `plan`, its plan) would ignore,
/// among those the game's own checks do not name: another game's solver options, and the
/// options of a build that a plan has no use for.
fn unused_option(a: &BuildArgs, plan: bool) -> Option<String> {
    let cc = &a.cc;
    let cc_given = [
        (cc.solver.is_some(), "--solver"),
        (cc.win_only, "--win-only"),
        (cc.layered, "--layered"),
        (cc.direct, "--direct"),
        (cc.no_dup, "--no-dup"),
        (cc.sequential, "--sequential"),
        (cc.checkpoint.is_some(), "--checkpoint"),
    ];
    let cc_flag = cc_given.iter().find(|(given, _)| *given).map(|(_, f)| *f);
    if plan {
        let limit = [
            (a.max_white.is_some(), "--max-white"),
            (a.max_black.is_some(), "--max-black"),
            (a.max_pieces.is_some(), "--max-pieces"),
        ];
        let flag = [
            (a.output.is_some(), "--output"),
            (a.ck.distance, "--distance"),
        ]
        .iter()
        .find(|(given, _)| *given)
        .map(|(_, f)| *f)
        .or(cc_flag);
        if let Some(flag) = flag {
            return Some(format!(
                "{flag} is not an option of tablebase plan: it prints the slices to build; \
                 give {flag} to tablebase build"
            ));
        }
        if let (GameName::Breakthrough, Some((_, flag))) =
            (a.game, limit.iter().find(|(given, _)| *given))
        {
            return Some(format!(
                "{flag} is not an option of a Breakthrough plan: a sliced table holds every \
                 configuration of its rows (a piece-limited table is built whole, without a \
                 plan)"
            ));
        }
        return None;
    }
    if let (Some(flag), false) = (cc_flag, a.game == GameName::ChineseCheckers) {
        return Some(format!(
            "{flag} is an option of chinese-checkers tables only: {} tables have one builder",
            a.game.name()
        ));
    }
    if a.ck.distance && a.game != GameName::Checkers {
        return Some(format!(
            "--distance is an option of checkers tables only (their distance-to-conversion \
             files), not of {} tables",
            a.game.name()
        ));
    }
    None
}

/// A table file by its game: Breakthrough's is opened by its own commands, Woodpush's is
/// loaded (checksum checked) here.
enum Opened {
    Breakthrough,
    Woodpush(Box<WoodpushTable>),
    Cc(Box<chinese_checkers::CcTable>),
    /// A directory of checkers database slices (or one slice file).
    Checkers,
}

/// The game of a table file, by its magic (and for `retro` files the game in the header);
/// an error when it is not the `expected` game's, or not a table.
fn open(path: &Path, expected: Option<GameName>) -> Result<Opened, Box<dyn std::error::Error>> {
    // Only a regular file is read here: a FIFO would block the read.
    let meta = std::fs::metadata(path);
    let regular = meta.as_ref().map(|m| m.is_file());
    if let Ok(m) = &meta {
        if !m.is_file()
            && (!m.is_dir()
                || matches!(
                    expected,
                    Some(GameName::Woodpush | GameName::ChineseCheckers)
                ))
        {
            return Err(quasar_core::file::FileError::NotRegular {
                path: path.to_path_buf(),
                kind: quasar_core::file::describe(&m.file_type()),
            }
            .into());
        }
    }
    // Checkers databases and sliced Breakthrough tables are both directories of slice
    // files: a Breakthrough one has its manifest.
    let breakthrough_dir = path
        .join(breakthrough::tablebase::store::sliced::MANIFEST)
        .is_file();
    if path.is_dir() && breakthrough_dir && expected.is_none() {
        return Ok(Opened::Breakthrough);
    }
    if path.is_dir() && matches!(expected, None | Some(GameName::Checkers)) {
        return Ok(Opened::Checkers);
    }
    let mut magic = [0u8; 8];
    let read = matches!(regular, Ok(true))
        && quasar_core::file::open_read(path)
            .map_err(std::io::Error::other)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok();
    let found = match read {
        true if magic == retro::file::MAGIC => {
            let file = retro::TableFile::load(path)?;
            match file.game.as_str() {
                "woodpush" => Some(GameName::Woodpush),
                chinese_checkers::solve::GAME => Some(GameName::ChineseCheckers),
                "checkers" => Some(GameName::Checkers),
                other => {
                    return Err(format!(
                        "{}: a table of the game {other:?}, which quasar does not play",
                        path.display()
                    )
                    .into())
                }
            }
            .map(|g| (g, Some(file)))
        }
        true if magic == *b"QUASARTB" => Some((GameName::Breakthrough, None)),
        // Unreadable, short or of no known kind: the expected game's loader says why.
        _ => None,
    };
    let name = table_kind;
    match (found, expected) {
        (Some((g, _)), Some(e)) if g != e => Err(format!(
            "{} is a {} table, not a {} one: leave out --game, or give --game {}",
            path.display(),
            name(g),
            name(e),
            match g {
                GameName::ChineseCheckers => "chinese-checkers".to_string(),
                _ => name(g).to_lowercase(),
            }
        )
        .into()),
        (Some((GameName::Woodpush, Some(file))), _) => Ok(Opened::Woodpush(Box::new(
            WoodpushTable::from_file(file).map_err(|e| format!("{}: {e}", path.display()))?,
        ))),
        (Some((GameName::ChineseCheckers, Some(file))), _) => Ok(Opened::Cc(Box::new(
            chinese_checkers::CcTable::from_file(file)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ))),
        (_, Some(GameName::ChineseCheckers)) => {
            Ok(Opened::Cc(Box::new(chinese_checkers::CcTable::load(path)?)))
        }
        (Some((GameName::Breakthrough, _)), _) => Ok(Opened::Breakthrough),
        (Some((GameName::Checkers, _)), _) | (_, Some(GameName::Checkers)) => Ok(Opened::Checkers),
        (_, Some(GameName::Woodpush)) => Ok(Opened::Woodpush(Box::new(WoodpushTable::load(path)?))),
        _ => Ok(Opened::Breakthrough),
    }
}

fn build_woodpush(a: BuildArgs) -> CliResult {
    let foreign = [
        (a.board.is_some(), "--board"),
        (a.rows.is_some(), "--rows"),
        (a.max_white.is_some(), "--max-white"),
        (a.max_black.is_some(), "--max-black"),
    ];
    let take = "--width N (and --max-pieces K for an endgame table)";
    not_options_of("woodpush", take, &foreign)?;
    let width = a.width.unwrap_or(WoodpushSetup::default_size().width);
    let output = a.output.unwrap_or_else(|| {
        let pieces = a.max_pieces.map_or(String::new(), |k| format!("-p{k}"));
        PathBuf::from(format!("woodpush-w{width}{pieces}.qrt"))
    });
    // Before the solve, not after it: a bad output path should cost nothing.
    super::paths::writable(&output, "--output")?;
    woodpush_table::build(width, a.max_pieces, &output, a.quiet)
}

fn build_cc(a: BuildArgs) -> CliResult {
    let foreign = [
        (a.board.is_some(), "--board"),
        (a.rows.is_some(), "--rows"),
        (a.width.is_some(), "--width"),
        (a.max_white.is_some(), "--max-white"),
        (a.max_black.is_some(), "--max-black"),
        (a.max_pieces.is_some(), "--max-pieces"),
    ];
    not_options_of("chinese-checkers", "--pieces-per-side K (1 to 6)", &foreign)?;
    let k = a
        .pieces_per_side
        .or(a.pieces)
        .unwrap_or(CcSetup::default_size().pieces);
    chinese_checkers::CcSpace::new(k)?;
    let output = a
        .output
        .clone()
        .unwrap_or_else(|| cc_table::default_output(k));
    super::paths::writable(&output, "--output")?;
    cc_table::build(k, &a.cc, &output, a.quiet)
}

fn print_histogram(histogram: &[u64]) {
    for (d, &n) in histogram.iter().enumerate() {
        if n > 0 {
            println!("  D = {d:>2}: {n}");
        }
    }
}

/// The region of a Breakthrough build or plan (the game's default board and 3 rows by
/// default).
fn region_of(a: &BuildArgs) -> Result<Region, Box<dyn std::error::Error>> {
    if a.width.is_some() {
        return Err(
            "--width is not an option of breakthrough tables: they take --board WxH and \
             --rows R (or add --game woodpush)"
                .into(),
        );
    }
    let board = a.board.unwrap_or(BreakthroughSetup::default_size().board);
    Region::new(board, a.rows.unwrap_or(3)).map_err(|e| match a.rows {
        Some(_) => format!("--rows: {e}").into(),
        None => e.into(),
    })
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

/// Whether a Breakthrough build is sliced: asked for by --slice/--wave or an existing
/// directory as output, or needed because the table is too large to build whole.
fn wants_slices(a: &BuildArgs, region: &Region, limits: Limits) -> bool {
    a.sliced()
        || a.output.as_deref().is_some_and(Path::is_dir)
        || (limits.is_none() && Indexer::new(region, limits).is_err())
}

/// Builds the selected slices of a sliced table into a directory.
fn build_sliced(a: BuildArgs, region: Region, limits: Limits) -> CliResult {
    if !limits.is_none() {
        return Err(
            "a sliced table holds every configuration of its rows: drop --max-white, \
             --max-black and --max-pieces (a piece-limited table is built whole)"
                .into(),
        );
    }
    let (board, rows) = (region.board(), region.rows());
    let dir = a
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tb-{board}-r{rows}.d")));
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{} exists and is not a directory: a sliced table is written to a directory",
            dir.display()
        )
        .into());
    }
    let table = SlicedTable::create(&dir, &region)?;
    let s = table.slicing();
    let plan = s.plan();
    let names = plan.select(&a.selection())?;
    let total: usize = plan.waves().iter().map(Vec::len).sum();
    eprintln!(
        "building {} of {total} slices of {board} with {rows} rows ({} configurations each) \
         into {} on {} threads",
        names.len(),
        s.per_slice(),
        dir.display(),
        rayon::current_num_threads()
    );
    let bars = Bars::default();
    let progress: &dyn Progress = if a.quiet { &Silent } else { &bars };
    let quiet = a.quiet;
    let report = build_slices(&table, &names, progress, |o| {
        if let (false, SliceOutcome::Built { name, seconds, .. }) = (quiet, o) {
            eprintln!(
                "slice {name} built in {seconds:.2} s ({:.1} ns/configuration)",
                seconds * 1e9 / s.per_slice() as f64
            );
        }
    })?;
    println!("sliced table {}: {board} {rows} rows", dir.display());
    println!(
        "slices built: {}, skipped (finished): {}, damaged and rebuilt: {}",
        report.built, report.skipped, report.replaced
    );
    println!("configurations computed: {}", report.configurations);
    println!("capped depth histogram of computed configurations (both mirror members):");
    print_histogram(&report.histogram);
    println!("time: {:.2} s", report.seconds);
    if report.configurations > 0 {
        println!(
            "cost: {:.1} ns/configuration (wall, {} threads)",
            report.seconds * 1e9 / report.configurations as f64,
            rayon::current_num_threads()
        );
    }
    Ok(())
}

fn build(a: BuildArgs) -> CliResult {
    let region = region_of(&a)?;
    let (board, rows) = (region.board(), region.rows());
    let limits = Limits {
        max_white: a.max_white,
        max_black: a.max_black,
        max_pieces: a.max_pieces,
    };
    if wants_slices(&a, &region, limits) {
        return build_sliced(a, region, limits);
    }
    let output = a.output.unwrap_or_else(|| {
        let mut name = format!("tb-{}-r{}", board, rows);
        for (tag, v) in [("w", a.max_white), ("b", a.max_black), ("t", a.max_pieces)] {
            if let Some(v) = v {
                name.push_str(&format!("-{tag}{v}"));
            }
        }
        PathBuf::from(name + ".qtb")
    });
    // Before the build, not after it: a bad output path should cost nothing.
    super::paths::writable(&output, "--output")?;
    let lock = TableFile::claim_output(&output)?;
    eprintln!(
        "building {} with {} rows ({limits}) on {} threads",
        board,
        rows,
        rayon::current_num_threads()
    );
    let bars = Bars::default();
    let progress: &dyn Progress = if a.quiet { &Silent } else { &bars };
    let g = generate(&region, limits, progress)?;
    let header = TableFile::write_under(&lock, &region, limits, &g.codec, &g.entries)?;
    let size = std::fs::metadata(&output)?.len();
    let r = &g.report;
    println!(
        "table {}: {} {} rows, {limits}",
        output.display(),
        board,
        rows
    );
    println!("configurations examined: {}", r.configurations);
    println!("generator array: {} bytes", r.index_len);
    println!("configurations with finite D >= 2: {}", r.wins);
    println!("entries stored (one per mirror pair): {}", r.stored);
    println!("depth histogram of stored entries:");
    print_histogram(&r.histogram);
    println!(
        "file: {size} bytes, {}, {}-byte values",
        per_entry(size, r.stored),
        header.value_bytes
    );
    println!("time: {:.2} s", r.seconds);
    if let Some(kib) = r.peak_kib {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}

/// The bytes a table of `size` bytes spends on each of its `entries`; a table without any
/// (its limits leave no win to store) is its header alone.
fn per_entry(size: u64, entries: u64) -> String {
    match entries {
        0 => "no entries: the header alone".to_string(),
        n => format!("{:.2} bytes/entry", size as f64 / n as f64),
    }
}

/// `info` of a sliced table's directory: its finished slices and their depths; an
/// incomplete table fails, after the text form says what is finished.
fn info_sliced(t: &SlicedTable, json: bool) -> CliResult {
    let s = t.slicing();
    let (headers, missing) = t
        .check_all(&Bars::default())
        .map_err(|c| format!("{}: {c}", t.dir().display()))?;
    if json && !missing.is_empty() {
        t.completeness()?;
    }
    let plan = s.plan();
    let total: usize = plan.waves().iter().map(Vec::len).sum();
    let region = t.region();
    println!("sliced table: {}", t.dir().display());
    println!(
        "board: {}, rows: {} (rows {}..{})",
        region.board(),
        region.rows(),
        region.lowest_row(),
        region.board().height()
    );
    println!(
        "slices finished: {} of {total} (each {} configurations and its mirror image), \
         {} bytes on disk",
        headers.len(),
        s.per_slice(),
        t.bytes()
    );
    let mut waves = vec![(0usize, 0usize); plan.waves().len()];
    for (k, wave) in plan.waves().iter().enumerate() {
        waves[k].1 = wave.len();
    }
    let mut histogram = vec![0u64; s.cap() as usize + 1];
    for h in &headers {
        waves[s.wave(h.slice)].0 += 1;
        for (d, n) in histogram.iter_mut().enumerate() {
            *n += h.histogram[d];
        }
    }
    let done: Vec<String> = waves
        .iter()
        .enumerate()
        .map(|(k, (d, n))| format!("{k}:{d}/{n}"))
        .collect();
    if json {
        return print_json(&TableInfo {
            game: "breakthrough",
            file: t.dir().display().to_string(),
            bytes: t.bytes() as u64,
            covers: format!("{}, {} rows", region.board(), region.rows()),
            positions: headers.len() as u64 * s.per_slice(),
            checksum_verified: true,
            details: serde_json::json!({
                "board": region.board().to_string(),
                "rows": region.rows(),
                "sliced": true,
                "slices_finished": headers.len(),
                "slices": total,
                "depth_histogram": histogram_json(&histogram),
            }),
        });
    }
    println!("finished by wave: {}", done.join(" "));
    println!(
        "capped depth histogram of stored slices (D = {} means no win within {} moves):",
        s.cap(),
        region.lowest_row()
    );
    print_histogram(&histogram);
    Ok(t.completeness()?)
}

fn info(a: InfoArgs) -> CliResult {
    let t = TableFile::open(&a.file)?;
    let tree = match &t.tree {
        Tree::Static(tree) => tree,
        Tree::Sliced(sliced) => return info_sliced(sliced, a.json),
    };
    // The histogram reads every entry anyway: check every block first, on all cores.
    t.verify_all(&Bars::default())?;
    let h = &t.header;
    let size = std::fs::metadata(&a.file)?.len();
    if a.json {
        let mut histogram = vec![0u64; h.max_depth as usize + 1];
        for entry in tree.iter() {
            let (_, v) = entry.map_err(|c| t.damaged(c))?;
            let d = t.codec.decode(v).depth as usize;
            if d < histogram.len() {
                histogram[d] += 1;
            }
        }
        return print_json(&TableInfo {
            game: "breakthrough",
            file: a.file.display().to_string(),
            bytes: size,
            covers: format!("{}, {} rows", h.board, h.rows),
            positions: h.entries,
            checksum_verified: true,
            details: serde_json::json!({
                "board": h.board.to_string(),
                "rows": h.rows,
                "limits": h.limits.to_string(),
                "format_version": h.version,
                "value_bytes": h.value_bytes,
                "checksum": format!("{:08x}", h.checksum),
                "sliced": false,
                "depth_histogram": histogram_json(&histogram),
            }),
        });
    }
    println!("file: {} ({size} bytes)", a.file.display());
    println!("format version: {}", h.version);
    println!(
        "board: {}, rows: {} (rows {}..{})",
        h.board,
        h.rows,
        t.region.lowest_row(),
        h.board.height()
    );
    println!("limits: {}", h.limits);
    println!(
        "entries: {} ({}), {}-byte values, {}-bit coordinate fields",
        h.entries,
        per_entry(size, h.entries),
        h.value_bytes,
        h.field_bits
    );
    println!("checksum: {:08x} (verified)", h.checksum);
    let mut histogram = vec![0u64; h.max_depth as usize + 1];
    for entry in tree.iter() {
        let (_, v) = entry.map_err(|c| t.damaged(c))?;
        let d = t.codec.decode(v).depth as usize;
        if d < histogram.len() {
            histogram[d] += 1;
        }
    }
    println!("depth histogram:");
    print_histogram(&histogram);
    Ok(())
}

fn probe(a: ProbeArgs) -> CliResult {
    let tb = Tablebase::open(&a.file)?;
    let pos = Position::from_fen(&a.position)?;
    if pos.board() != tb.header().board {
        return Err(format!(
            "the position is on {} but the table is for {}",
            pos.board(),
            tb.header().board
        )
        .into());
    }
    let mut answer = ProbeAnswer {
        game: "breakthrough",
        position: pos.position_text(),
        to_move: Position::side_name(pos.side_to_move()).to_string(),
        result: None,
        plies: None,
        plies_exact: false,
        best_move: None,
        detail: None,
    };
    match tb.explain(&pos) {
        // D moves of the side to move, the opponent's between them: a bound, since the
        // opponent may lose sooner.
        Ok(w) => {
            answer.result = Some("win");
            answer.plies = Some(2 * w.depth - 1);
            answer.best_move = Some(pos.move_text(w.best_move));
            answer.detail = Some(format!(
                "depth D = {} (moves of the side to move, at most)",
                w.depth
            ));
        }
        Err(Unknown::Damaged(c)) => return Err(tb.table().damaged(c).into()),
        Err(why) => answer.detail = Some(why.to_string()),
    }
    answer.print(a.json)
}

fn verify(a: VerifyArgs) -> CliResult {
    let tb = Tablebase::open(&a.file)?;
    if a.write_index {
        let Some(sliced) = tb.table().tree.as_sliced() else {
            return Err(format!(
                "--write-index is for a sliced table's directory; {} is a whole table, \
                 checked whole: drop --write-index",
                a.file.display()
            )
            .into());
        };
        // Checks every slice whole on the way, as verify_all does.
        sliced.write_block_index(SLICE_BLOCK_BYTES, &Bars::default())?;
        println!(
            "block index written: {}",
            sliced.dir().join(BLOCK_INDEX).display()
        );
        sliced.completeness()?;
    } else {
        tb.verify_all(&Bars::default())?;
    }
    println!(
        "checksum ok: {} entries, {} {} rows",
        tb.table().tree.len(),
        tb.header().board,
        tb.header().rows
    );
    let (samples, seed) = (a.samples.unwrap_or(100), a.seed.unwrap_or(1));
    let r = breakthrough::tablebase::verify::verify_sample(&tb, samples, seed);
    println!(
        "re-derived {} stored entries and {} random configurations by brute force",
        r.entries_checked, r.configs_checked
    );
    if r.failures.is_empty() {
        println!("all agree");
        Ok(())
    } else {
        for f in r.failures.iter().take(20) {
            println!("MISMATCH {f}");
        }
        Err(format!("{} disagreements", r.failures.len()).into())
    }
}
