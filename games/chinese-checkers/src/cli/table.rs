//! `quasar tablebase` for Chinese Checkers: solve `K` pieces a side with one of the paper's
//! solvers (or over half the space with counters, resumable), and print a table's contents,
//! a probe and a verification.

use super::CcSetup;
use crate::opened::{value_text, OpenedTable};
use crate::solve::{method_of, solve_full, solve_half, CcTable, GAME};
use crate::Position;
use quasar_cli::progress::Bars;
use quasar_cli::CliGame;
use quasar_cli::CliResult;
use quasar_cli::{BuildOptions, NoOptions};
use quasar_cli::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use quasar_file::OutputLock;
use retro::symmetric::MirrorOptions;
use retro::wdl::WdlOptions;
use std::path::{Path, PathBuf};

/// Chinese Checkers' own options of `tablebase build`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CcBuildArgs {
    /// Chinese Checkers: pieces a side (1 to 6) [default: 2]
    #[arg(long, value_name = "K")]
    pub pieces_per_side: Option<u32>,
    /// Chinese Checkers solver: half (counters over the first player's positions, exact
    /// plies, resumable; the default), counters, backward or forward (the paper's, over both
    /// sides to move, with --win-only --layered --direct --no-dup)
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// Paper variant: prove first-player wins only
    #[arg(long)]
    pub win_only: bool,
    /// Paper variant: use only positions solved in earlier iterations (exact plies)
    #[arg(long)]
    pub layered: bool,
    /// Paper variant: settle the parents a new position wins at once
    #[arg(long)]
    pub direct: bool,
    /// Paper variant (backward): expand each solved position once
    #[arg(long)]
    pub no_dup: bool,
    /// One thread, positions in index order (the paper's single-thread counts)
    #[arg(long)]
    pub sequential: bool,
    /// Half solver: the checkpoint file, written every 60 s and resumed from when present
    /// [default: <output>.ckpt]
    #[arg(long, value_name = "FILE")]
    // The comment is the option's help, printed as written: `<output>` is no HTML tag.
    #[allow(rustdoc::invalid_html_tags)]
    pub checkpoint: Option<PathBuf>,
}

impl OwnTableOptions for CcBuildArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        let cover = [(self.pieces_per_side.is_some(), "--pieces-per-side")];
        let build = [
            (self.solver.is_some(), "--solver"),
            (self.win_only, "--win-only"),
            (self.layered, "--layered"),
            (self.direct, "--direct"),
            (self.no_dup, "--no-dup"),
            (self.sequential, "--sequential"),
            (self.checkpoint.is_some(), "--checkpoint"),
        ];
        let role = |r| move |&(given, flag): &(bool, &'static str)| given.then_some((flag, r));
        let cover = cover.iter().filter_map(role(OptionRole::Cover));
        cover
            .chain(build.iter().filter_map(role(OptionRole::Build)))
            .collect()
    }
}

impl TableGame for CcSetup {
    type Table = OpenedTable;

    type TableArgs = CcBuildArgs;

    type CompressArgs = NoOptions;

    const TABLE_KIND: &'static str = "Chinese Checkers";

    const TABLE_OPTIONS: TableOptions = TableOptions {
        build: &[
            "--pieces-per-side",
            "--pieces",
            "--solver",
            "--win-only",
            "--layered",
            "--direct",
            "--no-dup",
            "--sequential",
            "--checkpoint",
        ],
        plan: None,
        plan_note: "",
        verify: &["--samples", "--seed"],
        cache: false,
        take: "--pieces-per-side K (1 to 6)",
    };

    fn owns_table(_: &Path, head: &[u8]) -> bool {
        retro::file::game_in_header(head).as_deref() == Some(GAME)
    }

    /// K pieces a side with one of the solvers, into `cc-k<K>.qrt` by default.
    fn build(a: &BuildOptions, own: &CcBuildArgs) -> CliResult {
        let k = own
            .pieces_per_side
            .or(a.pieces)
            .unwrap_or(CcSetup::default_size().pieces);
        crate::CcSpace::new(k)?;
        let output = a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("cc-k{k}.qrt")));
        quasar_cli::paths::writable(&output, "--out")?;
        build(k, own, &output, a.quiet)
    }
}

/// Solves and writes the table, printing counts, the start's value, the work and the time.
fn build(k: u32, a: &CcBuildArgs, output: &Path, quiet: bool) -> CliResult {
    // Before the solve, held to the end: a bad or busy output costs nothing.
    let lock = OutputLock::acquire(output)?;
    let solver = a.solver.as_deref().unwrap_or("half");
    let progress = Bars::new(!quiet);
    let (table, work) = if solver == "half" {
        if a.win_only || a.layered || a.direct || a.no_dup {
            return Err(
                "--win-only, --layered, --direct and --no-dup are the paper's variants: \
                        give --solver backward or forward"
                    .into(),
            );
        }
        let options = MirrorOptions {
            checkpoint: Some(
                a.checkpoint
                    .clone()
                    .unwrap_or_else(|| output.with_extension("ckpt")),
            ),
            checkpoint_every: 60.0,
        };
        let (t, r) = solve_half(k, &options, &progress)?;
        let resumed = r
            .resumed_after
            .map_or(String::new(), |l| format!(", resumed after layer {l}"));
        let work = format!(
            "solver: half (counters over the {} first-player positions; plies exact)\n\
             expansions: {} forward (child counts), {} backward\n\
             iterations: {} layers{resumed}\n\
             time: {:.3} s on {} threads ({:.2} M positions/s of the whole space)",
            r.positions,
            r.forward_expansions,
            r.backward_expansions,
            r.layers,
            r.seconds,
            rayon::current_num_threads(),
            2.0 * r.positions as f64 / r.seconds / 1e6
        );
        (t, work)
    } else {
        let Some(method) = method_of(solver) else {
            return Err(
                format!("--solver {solver}: give half, counters, backward or forward").into(),
            );
        };
        let o = WdlOptions {
            win_only: a.win_only,
            layered: a.layered,
            direct: a.direct,
            no_dup: a.no_dup,
            parallel: !a.sequential,
        };
        let (t, r) = solve_full(k, method, o, &progress)?;
        let work = format!(
            "solver: {solver}{}{}{}{}{}\n\
             expansions: {} forward, {} backward\n\
             iterations: {}\n\
             time: {:.3} s on {} threads ({:.2} M positions/s); plies {}",
            if o.layered { " layered" } else { "" },
            if o.direct { " direct" } else { "" },
            if o.win_only { " win-only" } else { "" },
            if o.no_dup { " no-dup" } else { "" },
            if o.parallel { "" } else { " sequential" },
            r.forward_expansions,
            r.backward_expansions,
            r.iterations,
            r.seconds,
            if o.parallel {
                rayon::current_num_threads()
            } else {
                1
            },
            r.positions as f64 / r.seconds / 1e6,
            if r.plies_exact {
                "exact"
            } else {
                "an upper bound on wins (not layered)"
            }
        );
        (t, work)
    };
    progress.finish();
    table.to_file().save_under(output, &lock)?;
    println!(
        "table {}: chinese-checkers 7x7, {k} pieces a side",
        output.display()
    );
    print_counts(&table);
    println!("{work}");
    println!("file: {} bytes", std::fs::metadata(output)?.len());
    Ok(())
}

fn print_counts(t: &CcTable) {
    let c = t.counts();
    let win_only_note = if c.second_wins == 0 && c.draws > 0 {
        " (a win-only solve: losses are not proven, so they count as undecided)"
    } else {
        ""
    };
    println!(
        "positions: {} (both sides to move){}",
        c.positions,
        if t.is_mirror() {
            ", half stored: the second player's are the first's turned round"
        } else {
            ""
        }
    );
    println!(
        "first-player wins: {}, losses: {}, draws: {}{win_only_note}",
        c.first_wins, c.second_wins, c.draws
    );
    if let Ok(start) = Position::start(t.k()) {
        println!("start: {}", value_text(t, &start));
    }
}
