//! `quasar tablebase`: build, inspect, probe and verify row-limited tables, drawing the
//! library's progress as bars.

use super::CliResult;
use crate::games::GameName;
use crate::progress::Bars;
use breakthrough::tablebase::store::Lookup;
use breakthrough::tablebase::{
    generate, Limits, Progress, Region, Silent, TableFile, Tablebase, Unknown,
};
use breakthrough::{Board, Position};
use quasar_core::Game;
use std::path::PathBuf;

/// Tablebase subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Compute D for every region configuration and write the table file
    Build(BuildArgs),
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
    /// Board size WxH
    #[arg(long, default_value = "6x6")]
    board: Board,
    /// Rows of the region (3 ..= H-1)
    #[arg(long, default_value_t = 3)]
    rows: u32,
    /// At most this many White pieces in the region
    #[arg(long)]
    max_white: Option<u32>,
    /// At most this many Black pieces in the region
    #[arg(long)]
    max_black: Option<u32>,
    /// At most this many pieces in the region
    #[arg(long)]
    max_pieces: Option<u32>,
    /// Output file (default: tb-<board>-r<rows>[-w<P>][-b<Q>][-t<T>].qtb)
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

/// Options of `tablebase info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Table file
    file: PathBuf,
}

/// Options of `tablebase probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Table file
    file: PathBuf,
    /// Position text, e.g. "6/6/2W3/6/6/6 w"
    #[arg(long)]
    position: String,
}

/// Options of `tablebase verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    game: GameName,
    /// Table file
    file: PathBuf,
    /// Entries (and random configurations) to re-derive; each re-derivation searches
    /// the configuration's whole region game, so large tables take seconds per sample
    #[arg(long, default_value_t = 100)]
    samples: u64,
    /// Seed of the sample
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the subcommand.
pub fn run(cmd: Command) -> CliResult {
    match cmd {
        Command::Build(a) => match a.game {
            GameName::Breakthrough => build(a),
        },
        Command::Info(a) => match a.game {
            GameName::Breakthrough => info(a),
        },
        Command::Probe(a) => match a.game {
            GameName::Breakthrough => probe(a),
        },
        Command::Verify(a) => match a.game {
            GameName::Breakthrough => verify(a),
        },
    }
}

fn print_histogram(histogram: &[u64]) {
    for (d, &n) in histogram.iter().enumerate() {
        if n > 0 {
            println!("  D = {d:>2}: {n}");
        }
    }
}

fn build(a: BuildArgs) -> CliResult {
    let limits = Limits {
        max_white: a.max_white,
        max_black: a.max_black,
        max_pieces: a.max_pieces,
    };
    let region = Region::new(a.board, a.rows)?;
    let output = a.output.unwrap_or_else(|| {
        let mut name = format!("tb-{}-r{}", a.board, a.rows);
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
        a.board,
        a.rows,
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
        a.board,
        a.rows
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
