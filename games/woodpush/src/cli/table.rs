//! `quasar tablebase` for Woodpush: solve a width (or its positions of few pieces) into a
//! table file, and print a table's contents, a probe and a verification.

use super::WoodpushSetup;
use crate::opened::{covers_text, score_text, OpenedTable};
use crate::store::GAME;
use crate::{solve, Position, SolveOptions, SolveReport, WoodpushTable};
use quasar_cli::progress::Bars;
use quasar_cli::CliGame;
use quasar_cli::CliResult;
use quasar_cli::{BuildOptions, NoOptions};
use quasar_cli::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use quasar_core::Game;
use quasar_file::OutputLock;
use std::path::{Path, PathBuf};

/// Woodpush's own options of `tablebase build`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WoodpushTableArgs {
    /// Woodpush strip width (1 to 16 whole; up to 31 with --max-pieces) [default: 7]
    #[arg(long, value_name = "N")]
    pub width: Option<u32>,
}

impl OwnTableOptions for WoodpushTableArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        [(self.width.is_some(), "--width")]
            .into_iter()
            .filter(|(given, _)| *given)
            .map(|(_, flag)| (flag, OptionRole::Cover))
            .collect()
    }
}

impl TableGame for WoodpushSetup {
    type Table = OpenedTable;

    type TableArgs = WoodpushTableArgs;

    type CompressArgs = NoOptions;

    const TABLE_KIND: &'static str = "Woodpush";

    const TABLE_OPTIONS: TableOptions = TableOptions {
        build: &["--width", "--max-pieces"],
        plan: None,
        plan_note: "",
        verify: &[],
        cache: false,
        take: "--width N (and --max-pieces K for an endgame table)",
    };

    fn owns_table(_: &Path, head: &[u8]) -> bool {
        retro::file::game_in_header(head).as_deref() == Some(GAME)
    }

    /// A whole width, or with `--max-pieces` its positions of at most that many pieces,
    /// into `woodpush-w<N>[-p<K>].qrt` by default.
    fn build(a: &BuildOptions, own: &WoodpushTableArgs) -> CliResult {
        let width = own.width.unwrap_or(WoodpushSetup::default_size().width);
        let output = a.out.clone().unwrap_or_else(|| {
            let pieces = a.max_pieces.map_or(String::new(), |k| format!("-p{k}"));
            PathBuf::from(format!("woodpush-w{width}{pieces}.qrt"))
        });
        // Before the solve, not after it: a bad output path should cost nothing.
        quasar_cli::paths::writable(&output, "--out")?;
        build(width, a.max_pieces, &output, a.quiet)
    }
}

/// What a table holds, in words: the game, the width and, for an endgame table, its piece
/// limit.
fn kind_text(t: &WoodpushTable) -> String {
    format!("woodpush {}", covers_text(t))
}

/// Solves `width` (only positions of at most `max_pieces` pieces when given) and writes the
/// table to `output`, printing the start's value, the draws, the work and the time.
fn build(width: u32, max_pieces: Option<u32>, output: &Path, quiet: bool) -> CliResult {
    // Before the solve, held to the end: a bad or busy output costs nothing.
    let lock = OutputLock::acquire(output)?;
    let options = SolveOptions {
        max_pieces,
        ..SolveOptions::default()
    };
    let bars = Bars::new(!quiet);
    let solved = solve(width, options, &bars);
    bars.finish();
    let (table, r) = solved?;
    table.to_file().save_under(output, &lock)?;
    let size = std::fs::metadata(output)?.len();
    println!("table {}: {}", output.display(), kind_text(&table));
    print_report(&r);
    println!("file: {size} bytes");
    println!(
        "time: {:.3} s on {} threads",
        r.seconds,
        rayon::current_num_threads()
    );
    Ok(())
}

fn print_report(r: &SolveReport) {
    let [l, rr] = r.positions_per_side;
    println!(
        "positions: {} ({l} with Left to move, {rr} with Right to move)",
        l + rr
    );
    match (r.start_score, Position::start(r.width)) {
        (Some(s), Ok(p)) => println!(
            "start {}: {}{}",
            p.position_text(),
            score_text(s),
            r.start_plies
                .map_or(String::new(), |n| format!(", the game ends in {n} plies"))
        ),
        _ => println!("start: not in the table"),
    }
    print_draws_and_wins(r.draws_per_side, r.wins);
    println!(
        "work: exact scores {} thresholds, {} forward and {} backward expansions ({:.3} s); \
         distances {} layers, {} backward expansions ({:.3} s)",
        r.exact.thresholds,
        r.exact.forward_expansions,
        r.exact.backward_expansions,
        r.exact.seconds,
        r.wdl.iterations,
        r.wdl.backward_expansions,
        r.wdl.seconds
    );
}

/// Prints the draws and wins of a table by side (Left first), as its build and `info` say them.
fn print_draws_and_wins(draws_per_side: [u64; 2], wins: [u64; 2]) {
    println!(
        "draws (no side can force an end): {} with Left to move, {} with Right to move",
        draws_per_side[0], draws_per_side[1]
    );
    println!(
        "wins: Left {} positions, Right {} positions",
        wins[0], wins[1]
    );
}
