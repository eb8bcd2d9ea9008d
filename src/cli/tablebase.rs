//! `quasar tablebase`: build, inspect, probe and verify Breakthrough's row-limited tables and
//! Woodpush's solved tables (a file's kind is read from its magic), drawing the library's
//! progress as bars.

use super::checkers_table;
use super::woodpush_table;
use super::CliResult;
use crate::games::GameName;
use crate::progress::Bars;
use breakthrough::tablebase::store::Lookup;
use breakthrough::tablebase::{
    generate, Limits, Progress, Region, Silent, TableFile, Tablebase, Unknown,
};
use breakthrough::{Board, Position};
use quasar_core::{Game, Selection, Shard};
use std::io::Read;
use std::path::{Path, PathBuf};
use woodpush::WoodpushTable;

/// Tablebase subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Breakthrough: compute D for every region configuration; Woodpush: solve every position
    /// of a width (or those of at most --max-pieces pieces); write the table file
    Build(BuildArgs),
    /// Print a sliced build's slices in dependency waves, one a line: the wave (from 0), a
    /// tab, the slice's name. A slice's inputs all lie in earlier waves, so one wave's
    /// slices can be built at once on many machines (`build --wave W --shard i/N`)
    Plan(BuildArgs),
    /// Print a table's header, counts and depth histogram
    Info(InfoArgs),
    /// Probe a position: a certain win with its depth and best move, or why unknown
    Probe(ProbeArgs),
    /// Check a table's checksum and re-derive a random sample of entries by brute force
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
    /// Woodpush strip width (1 to 16 whole; up to 31 with --max-pieces)
    #[arg(long, value_name = "N")]
    width: Option<u32>,
    /// At most this many White pieces in the region
    #[arg(long)]
    max_white: Option<u32>,
    /// At most this many Black pieces in the region
    #[arg(long)]
    max_black: Option<u32>,
    /// At most this many pieces in the region (Woodpush: on the strip, an endgame table)
    #[arg(long)]
    max_pieces: Option<u32>,
    /// Chinese Checkers: pieces a side; checkers: pieces on the board in all
    #[arg(long, value_name = "K")]
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
}

/// Options of `tablebase info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// Game of the table [default: the file's own, read from its header]
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Table file
    file: PathBuf,
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
}

/// Options of `tablebase verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Game of the table [default: the file's own, read from its header]
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Table file
    file: PathBuf,
    /// Breakthrough: entries (and random configurations) to re-derive; each re-derivation
    /// searches the configuration's whole region game, so large tables take seconds per
    /// sample (a Woodpush table is checked whole against its moves)
    #[arg(long, default_value_t = 100)]
    samples: u64,
    /// Seed of the sample
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the subcommand.
pub fn run(cmd: Command) -> CliResult {
    match cmd {
        Command::Build(a)
            if a.sliced() && matches!(a.game, GameName::Breakthrough | GameName::Woodpush) =>
        {
            Err(not_sliced(a.game))
        }
        Command::Build(a)
            if a.pieces.is_some()
                && matches!(a.game, GameName::Breakthrough | GameName::Woodpush) =>
        {
            Err(
                "--pieces sizes Chinese Checkers and checkers tables: a Breakthrough table \
                 limits its pieces with --max-white, --max-black and --max-pieces, a Woodpush \
                 endgame table with --max-pieces"
                    .into(),
            )
        }
        Command::Build(a) => match a.game {
            GameName::Breakthrough => build(a),
            GameName::Woodpush => build_woodpush(a),
            GameName::Checkers => {
                let foreign = a.board.is_some()
                    || a.rows.is_some()
                    || a.width.is_some()
                    || a.max_white.is_some()
                    || a.max_black.is_some()
                    || a.max_pieces.is_some();
                if foreign {
                    return Err(
                        "checkers databases take --pieces N (pieces in all) and -o DIR only".into(),
                    );
                }
                checkers_table::build(a.pieces, a.selection(), a.output.as_deref(), a.quiet)
            }
        },
        Command::Plan(a) => match a.game {
            GameName::Breakthrough | GameName::Woodpush => Err(not_sliced(a.game)),
            GameName::Checkers => checkers_table::plan(a.pieces),
        },
        Command::Info(a) => match open(&a.file, a.game)? {
            Opened::Breakthrough => info(a),
            Opened::Woodpush(t) => woodpush_table::info(&t, &a.file),
            Opened::Checkers => checkers_table::info(&a.file),
        },
        Command::Probe(a) => match open(&a.file, a.game)? {
            Opened::Breakthrough => probe(a),
            Opened::Woodpush(t) => woodpush_table::probe(&t, &a.position),
            Opened::Checkers => checkers_table::probe(&a.file, &a.position),
        },
        Command::Verify(a) => match open(&a.file, a.game)? {
            Opened::Breakthrough => verify(a),
            Opened::Woodpush(t) => woodpush_table::verify(&t),
            Opened::Checkers => checkers_table::verify(&a.file),
        },
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
    format!("a {game:?} table is built whole: it has no slices, so no plan, --slice or --wave")
        .into()
}

/// A table file by its game: Breakthrough's is opened by its own commands, Woodpush's is
/// loaded (checksum checked) here.
enum Opened {
    Breakthrough,
    Woodpush(Box<WoodpushTable>),
    /// A directory of checkers database slices (or one slice file).
    Checkers,
}

/// The game of a table file, by its magic (and for `retro` files the game in the header);
/// an error when it is not the `expected` game's, or not a table.
fn open(path: &Path, expected: Option<GameName>) -> Result<Opened, Box<dyn std::error::Error>> {
    // Only a regular file is read here: a FIFO would block the read.
    let regular = std::fs::metadata(path).map(|m| m.is_file());
    if matches!(regular, Ok(false)) && expected == Some(GameName::Woodpush) {
        return Err(format!(
            "{}: not a regular file (a directory, a FIFO or a device); give a table file",
            path.display()
        )
        .into());
    }
    // Checkers databases are directories of slice files.
    if path.is_dir() && matches!(expected, None | Some(GameName::Checkers)) {
        return Ok(Opened::Checkers);
    }
    let mut magic = [0u8; 8];
    let read = matches!(regular, Ok(true))
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok();
    let found = match read {
        true if magic == retro::file::MAGIC => {
            let file = retro::TableFile::load(path)?;
            match file.game.as_str() {
                "woodpush" => Some(GameName::Woodpush),
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
    let name = |g: GameName| match g {
        GameName::Breakthrough => "Breakthrough",
        GameName::Woodpush => "Woodpush",
        GameName::Checkers => "checkers",
    };
    match (found, expected) {
        (Some((g, _)), Some(e)) if g != e => Err(format!(
            "{} is a {} table, not a {} one: leave out --game, or give --game {}",
            path.display(),
            name(g),
            name(e),
            name(g).to_lowercase()
        )
        .into()),
        (Some((GameName::Woodpush, Some(file))), _) => Ok(Opened::Woodpush(Box::new(
            WoodpushTable::from_file(file).map_err(|e| format!("{}: {e}", path.display()))?,
        ))),
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
    if let Some((_, flag)) = foreign.iter().find(|(given, _)| *given) {
        return Err(format!(
            "{flag} is a Breakthrough option: a Woodpush table takes --width N (and \
             --max-pieces K for an endgame table)"
        )
        .into());
    }
    let Some(width) = a.width else {
        return Err("a Woodpush table needs --width N".into());
    };
    let output = a.output.unwrap_or_else(|| {
        let pieces = a.max_pieces.map_or(String::new(), |k| format!("-p{k}"));
        PathBuf::from(format!("woodpush-w{width}{pieces}.qrt"))
    });
    // Before the solve, not after it: a bad output path should cost nothing.
    let dir = match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{}: the directory {} does not exist",
            output.display(),
            dir.display()
        )
        .into());
    }
    if output.is_dir() {
        return Err(format!("{} is a directory: give a file name", output.display()).into());
    }
    woodpush_table::build(width, a.max_pieces, &output, a.quiet)
}

fn print_histogram(histogram: &[u64]) {
    for (d, &n) in histogram.iter().enumerate() {
        if n > 0 {
            println!("  D = {d:>2}: {n}");
        }
    }
}

fn build(a: BuildArgs) -> CliResult {
    if a.width.is_some() {
        return Err(
            "--width is a Woodpush option: add --game woodpush, or give Breakthrough's \
             --board WxH and --rows R"
                .into(),
        );
    }
    let board = a
        .board
        .unwrap_or_else(|| Board::new(6, 6).expect("6x6 is a board"));
    let rows = a.rows.unwrap_or(3);
    let limits = Limits {
        max_white: a.max_white,
        max_black: a.max_black,
        max_pieces: a.max_pieces,
    };
    let region = Region::new(board, rows)?;
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
    TableFile::check_output(&output)?;
    eprintln!(
        "building {} with {} rows ({limits}) on {} threads",
        board,
        rows,
        rayon::current_num_threads()
    );
    let bars = Bars::default();
    let progress: &dyn Progress = if a.quiet { &Silent } else { &bars };
    let g = generate(&region, limits, progress)?;
    let header = TableFile::write(&output, &region, limits, &g.codec, &g.entries)?;
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
        "file: {size} bytes, {:.2} bytes/entry, {}-byte values",
        size as f64 / r.stored.max(1) as f64,
        header.value_bytes
    );
    println!("time: {:.2} s", r.seconds);
    if let Some(kib) = r.peak_kib {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}

fn info(a: InfoArgs) -> CliResult {
    let t = TableFile::open(&a.file)?;
    // The histogram reads every entry anyway: check every block first, on all cores.
    t.verify_all(&Bars::default())?;
    let h = &t.header;
    let size = std::fs::metadata(&a.file)?.len();
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
        "entries: {} ({:.2} bytes/entry), {}-byte values, {}-bit coordinate fields",
        h.entries,
        size as f64 / h.entries.max(1) as f64,
        h.value_bytes,
        h.field_bits
    );
    println!("checksum: {:08x} (verified)", h.checksum);
    let mut histogram = vec![0u64; h.max_depth as usize + 1];
    for entry in t.tree.iter() {
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
    match tb.explain(&pos) {
        Ok(w) => println!(
            "win in {} (moves of the side to move), best move {}",
            w.depth,
            pos.move_text(w.best_move)
        ),
        Err(Unknown::Damaged(c)) => return Err(tb.table().damaged(c).into()),
        Err(why) => println!("unknown: {why}"),
    }
    Ok(())
}

fn verify(a: VerifyArgs) -> CliResult {
    let tb = Tablebase::open(&a.file)?;
    tb.verify_all(&Bars::default())?;
    println!(
        "checksum ok: {} entries, {} {} rows",
        tb.table().tree.len(),
        tb.header().board,
        tb.header().rows
    );
    let r = breakthrough::tablebase::verify::verify_sample(&tb, a.samples, a.seed);
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
