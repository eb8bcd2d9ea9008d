//! `quasar tablebase` for Chinese Checkers: solve `K` pieces a side with one of the paper's
//! solvers (or over half the space with counters, resumable), and print a table's contents,
//! a probe and a verification.

use super::CcSetup;
use crate::cli::output::{print_json, result_word, verify_verdict, ProbeAnswer, TableInfo};
use crate::cli::tablebase::{BuildArgs, VerifyArgs};
use crate::cli::CliResult;
use crate::games::registration::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use crate::games::CliGame;
use crate::progress::Bars;
use chinese_checkers::solve::{method_of, solve_full, solve_half, CcTable, GAME};
use chinese_checkers::Position;
use quasar_core::{Game, GameResult};
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
    type TableArgs = CcBuildArgs;

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
        take: "--pieces-per-side K (1 to 6)",
    };

    fn owns_table(_: &Path, head: &[u8]) -> bool {
        retro::file::game_in_header(head).as_deref() == Some(GAME)
    }

    /// K pieces a side with one of the solvers, into `cc-k<K>.qrt` by default.
    fn build(a: &BuildArgs) -> CliResult {
        let own = &a.games.chinese_checkers;
        let k = own
            .pieces_per_side
            .or(a.pieces)
            .unwrap_or(CcSetup::default_size().pieces);
        chinese_checkers::CcSpace::new(k)?;
        let output = a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("cc-k{k}.qrt")));
        crate::cli::paths::writable(&output, "--out")?;
        build(k, own, &output, a.quiet)
    }

    fn info(path: &Path, json: bool) -> CliResult {
        info(&CcTable::load(path)?, path, json)
    }

    fn probe(path: &Path, text: &str, json: bool) -> CliResult {
        probe(&CcTable::load(path)?, text, json)
    }

    /// Every position of a table of at most 10 million, else a sample.
    fn verify(path: &Path, a: &VerifyArgs) -> CliResult {
        verify(&CcTable::load(path)?, a.samples, a.seed)
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

fn value_text(t: &CcTable, pos: &Position) -> String {
    match t.value(pos) {
        None => "not in the table".into(),
        Some((r, plies)) => {
            let me = Position::side_name(pos.side);
            match r {
                GameResult::Draw => format!("{me} to move: a draw (or not proven)"),
                _ if plies == 0 => format!("{me} to move: the game is over, {me} has lost"),
                GameResult::Win => format!("{me} to move wins in {plies} plies"),
                GameResult::Loss => format!("{me} to move loses in {plies} plies"),
            }
        }
    }
}

/// Prints a table's facts and counts (loading checked its checksum).
fn info(t: &CcTable, path: &Path, json: bool) -> CliResult {
    let size = std::fs::metadata(path)?.len();
    if json {
        let c = t.counts();
        let start = Position::start(t.k()).ok().and_then(|p| t.value(&p));
        return print_json(&TableInfo {
            game: "chinese-checkers",
            file: path.display().to_string(),
            bytes: size,
            covers: format!("7x7, {} pieces a side", t.k()),
            positions: c.positions,
            checksum_verified: true,
            details: serde_json::json!({
                "pieces_per_side": t.k(),
                "half_stored": t.is_mirror(),
                "first_wins": c.first_wins,
                "second_wins": c.second_wins,
                "draws": c.draws,
                "start": start.map(|(r, plies)| serde_json::json!({
                    "result": result_word(r),
                    "plies": plies,
                })),
            }),
        });
    }
    println!("file: {} ({size} bytes, checksum verified)", path.display());
    println!("table: chinese-checkers 7x7, {} pieces a side", t.k());
    print_counts(t);
    Ok(())
}

/// Prints the value of one position and a move that keeps it.
fn probe(t: &CcTable, text: &str, json: bool) -> CliResult {
    let pos = Position::parse_position(text)?;
    if pos.k() != t.k() {
        return Err(format!(
            "the position has {} pieces a side but the table holds {}",
            pos.k(),
            t.k()
        )
        .into());
    }
    let value = t.value(&pos);
    let draw = matches!(value, Some((GameResult::Draw, _)));
    ProbeAnswer {
        game: "chinese-checkers",
        position: pos.position_text(),
        to_move: Position::side_name(pos.side).to_string(),
        result: value.map(|(r, _)| result_word(r)),
        plies: value.filter(|_| !draw).map(|(_, n)| n),
        // The half solver's plies are exact; the paper's solvers' may be bounds.
        plies_exact: !draw && t.is_mirror(),
        best_move: t.best_move(&pos).map(|mv| pos.move_text(mv)),
        detail: match value {
            None => Some("not in the table".into()),
            Some(_) if draw => Some("or not proven, in a table solved with --win-only".into()),
            Some(_) => None,
        },
    }
    .print(json)
}

/// `verify`: every position of a table of at most 10 million, else a sample of 100, or a
/// sample of `samples` when given; `seed` picks the sample.
fn verify(t: &CcTable, samples: Option<u64>, seed: Option<u64>) -> CliResult {
    let n = retro::PerfectIndex::size(t.space());
    let sample = samples.or((n > 10_000_000).then_some(100));
    if sample.is_none() && seed.is_some() {
        return Err(format!(
            "--seed chooses a sample, but this table of {n} positions is checked whole: \
             drop --seed, or give --samples as well"
        )
        .into());
    }
    let all = sample.is_none();
    let r = t.verify(sample, seed.unwrap_or(1));
    let which = if all {
        "every position"
    } else {
        "a random sample"
    };
    println!(
        "checksum ok; checked {} positions ({which}) against their moves: {} inconsistent",
        r.positions, r.inconsistent
    );
    verify_verdict(
        r.inconsistent,
        r.first_inconsistent.map(|p| p.position_text()),
    )
}
