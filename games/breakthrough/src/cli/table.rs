//! `quasar tablebase` for Breakthrough: build its row-limited tables (whole, or sliced into
//! a directory), plan a sliced build, and print a table's contents, a probe and a
//! verification.

use super::BreakthroughSetup;
use crate::tablebase::opened::{per_entry, OpenedTable};
use crate::tablebase::slices::Slicing;
use crate::tablebase::store::compressed::{self, Packed};
use crate::tablebase::store::{file::MAGIC, sliced::LAYOUT, Lookup};
use crate::tablebase::{
    build_slices, generate, Limits, Progress, Region, Silent, SliceOutcome, SlicedTable, TableFile,
};
use crate::Board;
use quasar_cli::progress::Bars;
use quasar_cli::CliGame;
use quasar_cli::CliResult;
use quasar_cli::{BuildOptions, CompressOptions};
use quasar_cli::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use quasar_core::Plan;
use quasar_file::slices::SliceDir;
use std::path::{Path, PathBuf};

/// Breakthrough's own options of `tablebase build`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BreakthroughTableArgs {
    /// Breakthrough board size WxH [default: 6x6]
    #[arg(long)]
    pub board: Option<Board>,
    /// Breakthrough rows of the region (3 ..= H-1) [default: 3]
    #[arg(long)]
    pub rows: Option<u32>,
    /// Breakthrough: at most this many White pieces in the region
    #[arg(long)]
    pub max_white: Option<u32>,
    /// Breakthrough: at most this many Black pieces in the region
    #[arg(long)]
    pub max_black: Option<u32>,
    /// Breakthrough: one B-tree file instead of a directory of slices (the form of a
    /// piece-limited table, and of an output named *.qtb)
    #[arg(long, conflicts_with_all = ["slice", "wave"])]
    pub whole: bool,
}

impl OwnTableOptions for BreakthroughTableArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        [
            (self.board.is_some(), "--board"),
            (self.rows.is_some(), "--rows"),
            (self.max_white.is_some(), "--max-white"),
            (self.max_black.is_some(), "--max-black"),
        ]
        .into_iter()
        .filter(|(given, _)| *given)
        .map(|(_, flag)| (flag, OptionRole::Cover))
        .chain(self.whole.then_some(("--whole", OptionRole::Build)))
        .collect()
    }
}

/// Breakthrough's own option of `tablebase compress`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BreakthroughCompressArgs {
    /// Breakthrough: the board the sliced table must be for (it is read from the table)
    #[arg(long)]
    pub board: Option<Board>,
}

impl OwnTableOptions for BreakthroughCompressArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        self.board
            .iter()
            .map(|_| ("--board", OptionRole::Cover))
            .collect()
    }
}

/// The flags of a Breakthrough build that its plan takes too.
const PLAN: &[&str] = &["--board", "--rows", "--slice", "--wave", "--shard"];

impl TableGame for BreakthroughSetup {
    type Table = OpenedTable;

    type TableArgs = BreakthroughTableArgs;

    type CompressArgs = BreakthroughCompressArgs;

    const TABLE_KIND: &'static str = "Breakthrough";

    const TABLE_OPTIONS: TableOptions = TableOptions {
        build: &[
            "--board",
            "--rows",
            "--max-white",
            "--max-black",
            "--max-pieces",
            "--whole",
            "--slice",
            "--wave",
            "--shard",
        ],
        plan: Some(PLAN),
        plan_note: "a sliced table holds every configuration of its rows (a piece-limited \
                    table is built whole, without a plan)",
        verify: &["--samples", "--seed", "--write-index"],
        cache: true,
        take: "--board WxH and --rows R (and --max-white, --max-black, --max-pieces to limit \
               the pieces in the region)",
    };

    /// A `QUASARTB` file, or a sliced table's directory (its manifest says so, or it has
    /// none and holds slice files).
    fn owns_table(path: &Path, head: &[u8]) -> bool {
        head.starts_with(&MAGIC)
            || SliceDir::looks_like(path, &LAYOUT)
            || SliceDir::looks_like(path, &compressed::LAYOUT)
    }

    /// D for every configuration of the region: a directory of slices, or one B-tree file
    /// for a piece-limited table, an output named *.qtb or --whole.
    fn build(a: &BuildOptions, own: &BreakthroughTableArgs) -> CliResult {
        build(a, own)
    }

    /// The slices of the region in dependency waves.
    fn plan(
        _: &BuildOptions,
        own: &BreakthroughTableArgs,
    ) -> Result<Plan, Box<dyn std::error::Error>> {
        Ok(Slicing::new(&region_of(own)?)?.plan())
    }

    /// A sliced table rewritten as entropy-coded run-length blocks, a line a file.
    fn compress(path: &Path, a: &CompressOptions, own: &BreakthroughCompressArgs) -> CliResult {
        compress(path, a, own)
    }
}

/// Compresses the sliced table in `from` into `a.out`, a line a file on standard error as
/// the checkers command prints them.
fn compress(from: &Path, a: &CompressOptions, own: &BreakthroughCompressArgs) -> CliResult {
    if let Some(board) = own.board {
        let t = SlicedTable::open(from)?;
        if t.region().board() != board {
            return Err(format!(
                "{}: a {} table, not {board}: give --board {} or leave it out",
                from.display(),
                t.region().board(),
                t.region().board()
            )
            .into());
        }
    }
    let block = a.block.unwrap_or(compressed::DEFAULT_BLOCK);
    let start = std::time::Instant::now();
    let (mut written, mut kept) = (0, 0);
    let quiet = a.quiet;
    let t = compressed::compress(from, &a.out, block, &mut |p| match p {
        Packed::Counted { slices, run_bytes } => {
            if !quiet {
                eprintln!(
                    "runs of {slices} slices counted ({run_bytes} bytes as bytes), {:.1} s: coding each file with one code",
                    start.elapsed().as_secs_f64()
                );
            }
        }
        Packed::Kept(file) => {
            kept += 1;
            if !quiet {
                eprintln!("{file}: coded already, kept");
            }
        }
        Packed::Written {
            file,
            plain: p,
            coded: c,
        } => {
            written += 1;
            if !quiet {
                eprintln!("{file}: {p} bytes plain, {c} coded");
            }
        }
    })?;
    let total = t.file_bytes();
    let source = SlicedTable::open(from)?.bytes() as u64;
    println!(
        "{}: {written} files written as coded blocks of {} positions, {kept} kept; {total} bytes against {source} plain ({:.1} times smaller), {:.1} s",
        a.out.display(),
        block,
        source as f64 / total.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
fn region_of(own: &BreakthroughTableArgs) -> Result<Region, Box<dyn std::error::Error>> {
    let board = own.board.unwrap_or(BreakthroughSetup::default_size().board);
    Region::new(board, own.rows.unwrap_or(3)).map_err(|e| match own.rows {
        Some(_) => format!("--rows: {e}").into(),
        None => e.into(),
    })
}

/// Whether a Breakthrough build is sliced: every table that holds all configurations of
/// its rows, unless --whole, an output named *.qtb or an existing file asks for one file.
/// Slices are 25 MB where the file is 910 MB for 6x6 with 4 rows, and the search probes
/// them several times as fast.
fn wants_slices(a: &BuildOptions, own: &BreakthroughTableArgs, limits: Limits) -> bool {
    if own.whole {
        return false;
    }
    let out = a.out.as_deref();
    // An existing file is rebuilt in its own form.
    let file = out
        .is_some_and(|o| o.is_file() || (o.extension().is_some_and(|e| e == "qtb") && !o.is_dir()));
    a.sliced() || out.is_some_and(Path::is_dir) || (limits.is_none() && !file)
}

/// Builds the selected slices of a sliced table into a directory.
fn build_sliced(a: &BuildOptions, region: Region, limits: Limits) -> CliResult {
    if !limits.is_none() {
        return Err(
            "a sliced table holds every configuration of its rows: drop --max-white, \
             --max-black and --max-pieces (a piece-limited table is built whole)"
                .into(),
        );
    }
    let (board, rows) = (region.board(), region.rows());
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tb-{board}-r{rows}.d")));
    if dir.is_file() {
        return Err(format!(
            "{} is a file: a sliced table is written to a directory (a piece-limited table \
             is one file)",
            dir.display()
        )
        .into());
    }
    quasar_file::check_output_dir(&dir).map_err(|e| format!("--out {e}"))?;
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

fn build(a: &BuildOptions, own: &BreakthroughTableArgs) -> CliResult {
    let region = region_of(own)?;
    let (board, rows) = (region.board(), region.rows());
    let limits = Limits {
        max_white: own.max_white,
        max_black: own.max_black,
        max_pieces: a.max_pieces,
    };
    if wants_slices(a, own, limits) {
        return build_sliced(a, region, limits);
    }
    let output = a.out.clone().unwrap_or_else(|| {
        let mut name = format!("tb-{}-r{}", board, rows);
        for (tag, v) in [
            ("w", limits.max_white),
            ("b", limits.max_black),
            ("t", limits.max_pieces),
        ] {
            if let Some(v) = v {
                name.push_str(&format!("-{tag}{v}"));
            }
        }
        PathBuf::from(name + ".qtb")
    });
    // Before the build, not after it: a bad output path should cost nothing.
    quasar_cli::paths::writable(&output, "--out")?;
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
