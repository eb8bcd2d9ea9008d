//! `quasar tablebase` for checkers: build the endgame databases into a directory (all of
//! them, one slice, or one job's share of a wave), print the plan, and print, probe and
//! verify a directory of slice files.

use super::CheckersSetup;
use crate::db::{self, build_with, Built, DIRECTORY, GAME};
use crate::opened::OpenedTable;
use crate::slice::MAX_PIECES;
use crate::Slice;
use quasar_cli::CliResult;
use quasar_cli::{BuildOptions, CompressOptions, NoOptions};
use quasar_cli::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use quasar_core::{Plan, Selection};
use quasar_file::slices::SliceDir;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The pieces asked for, checked.
fn pieces(p: Option<u32>) -> Result<u32, Box<dyn std::error::Error>> {
    match p {
        Some(n @ 1..=MAX_PIECES) => Ok(n),
        Some(n) => Err(format!(
            "--max-pieces {n}: checkers databases take 1 to {MAX_PIECES} pieces in all"
        )
        .into()),
        None => Err(
            "checkers databases need --max-pieces N (pieces on the board in all, e.g. 5)".into(),
        ),
    }
}

/// Checkers' own options of `tablebase build`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CkBuildArgs {
    /// Checkers: also write each slice's distance-to-conversion file (<slice>.qdc, one byte
    /// a position: four times the win/draw/loss file; off by default for that reason)
    #[arg(long)]
    // The comment is the option's help, printed as written: `<slice>` is no HTML tag.
    #[allow(rustdoc::invalid_html_tags)]
    pub distance: bool,
}

impl OwnTableOptions for CkBuildArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        match self.distance {
            true => vec![("--distance", OptionRole::Build)],
            false => Vec::new(),
        }
    }
}

/// The flags of a checkers build that its plan takes too.
const PLAN: &[&str] = &["--max-pieces", "--pieces", "--slice", "--wave", "--shard"];

impl TableGame for CheckersSetup {
    type Table = OpenedTable;

    type TableArgs = CkBuildArgs;

    type CompressArgs = NoOptions;

    const TABLE_KIND: &'static str = "checkers";

    const TABLE_OPTIONS: TableOptions = TableOptions {
        build: &[
            "--max-pieces",
            "--pieces",
            "--slice",
            "--wave",
            "--shard",
            "--distance",
        ],
        plan: Some(PLAN),
        plan_note: "",
        verify: &[],
        cache: true,
        take: "--max-pieces N (pieces on the board in all) and -o DIR",
    };

    /// One slice file, or a database directory (its manifest says so, or it has none and
    /// holds slice files).
    fn owns_table(path: &Path, head: &[u8]) -> bool {
        retro::file::game_in_header(head).as_deref() == Some(GAME)
            || SliceDir::looks_like(path, &DIRECTORY)
    }

    /// The databases of 1 to N pieces (or the selected slices) into `checkers-p<N>`.
    fn build(a: &BuildOptions, own: &CkBuildArgs) -> CliResult {
        build(
            a.max_pieces.or(a.pieces),
            a.selection(),
            a.out.as_deref(),
            own,
            a.quiet,
        )
    }

    /// The slices of 1 to N pieces in dependency waves.
    fn plan(a: &BuildOptions, _: &CkBuildArgs) -> Result<Plan, Box<dyn std::error::Error>> {
        Ok(Slice::plan(pieces(a.max_pieces.or(a.pieces))?))
    }

    fn compress(path: &Path, a: &CompressOptions, _: &NoOptions) -> CliResult {
        compress(path, a)
    }
}

/// Rewrites the databases in `from` as run-length blocks into `a.out`, a line a slice.
fn compress(from: &Path, a: &CompressOptions) -> CliResult {
    use crate::compress::Compressed;
    if let Some((flag, owner)) = a.foreign.first() {
        return Err(format!(
            "{flag} is an option of {owner} tables only; a checkers database's size is its own"
        )
        .into());
    }
    let block = a.block.unwrap_or(retro::runs::DEFAULT_BLOCK);
    let start = Instant::now();
    let (mut written, mut kept, mut plain, mut runs) = (0, 0, 0u64, 0u64);
    crate::compress::compress(from, &a.out, block, &mut |c| match *c {
        Compressed::Blocked(s) => {
            if !a.quiet {
                eprintln!("{s}: in blocks, to be coded when every slice is");
            }
        }
        Compressed::Kept(s) => {
            kept += 1;
            if !a.quiet {
                eprintln!("{s}: coded already, kept");
            }
        }
        Compressed::Written {
            slice,
            plain: p,
            runs: r,
        } => {
            written += 1;
            (plain, runs) = (plain + p, runs + r);
            if !a.quiet {
                eprintln!("{slice}: {p} bytes plain, {r} coded");
            }
        }
    })?;
    let ratio = match runs {
        0 => String::new(),
        r => format!(" ({:.1} times smaller)", plain as f64 / r as f64),
    };
    println!(
        "{}: {written} slices written as coded blocks of {} positions, {kept} kept; {runs} bytes of values against {plain} plain{ratio}, {:.1} s",
        a.out.display(),
        block,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds the selected slices into `dir` (default `checkers-p<N>`), skipping finished ones.
fn build(
    p: Option<u32>,
    which: Selection,
    dir: Option<&Path>,
    ck: &CkBuildArgs,
    quiet: bool,
) -> CliResult {
    let n = pieces(p)?;
    let dir: PathBuf = dir.map_or_else(
        || PathBuf::from(format!("checkers-p{n}")),
        Path::to_path_buf,
    );
    if dir.is_file() {
        return Err(format!(
            "{} is a file: -o names the databases' directory",
            dir.display()
        )
        .into());
    }
    let start = Instant::now();
    let (mut built, mut skipped) = (0, 0);
    let options = db::BuildOptions {
        distance: ck.distance,
    };
    build_with(&dir, n, &which, options, &mut |b| match b {
        Built::Skipped(s) => {
            skipped += 1;
            if !quiet {
                eprintln!("{s}: finished already, skipped");
            }
        }
        Built::Built(s, r) => {
            built += 1;
            if !quiet {
                eprintln!(
                    "{s}: {} positions, {} levels, {:.2} s",
                    r.positions, r.passes, r.seconds
                );
            }
        }
    })?;
    println!(
        "{}: {built} slices built, {skipped} finished already, {:.1} s on {} threads",
        dir.display(),
        start.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    Ok(())
}
