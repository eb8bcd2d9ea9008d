//! `quasar arena`: a match between two players, or a round robin among more, with a record
//! that resumes, the thesis' table on the terminal and CSV, JSON and SVG files; one job's
//! share of a match (`--shard i/N`), and `arena report`, which merges the records of one
//! match into its report.

use super::CliResult;
use crate::games::{option_texts, with_game, CliGame, GameArgs};
use arena::game::Adjudicator;
use arena::html;
use arena::matchup::{run_match, Contestant, MatchConfig};
use arena::openings::{OpeningBook, OpeningsOrder};
use arena::pgn;
use arena::report;
use arena::stats::{Sprt, SprtDecision};
use arena::value_rules::{DrawRule, ResignRule, ValueRules};
use engine::clock::TimeControl;
use engine::duration::parse_duration;
use engine::factory::build_factory;
use engine::settings::{limit_text, ProbeRule, TableSpec};
use engine::spec::PlayerSpec;
use quasar_cli::progress::Bars;
use quasar_core::Limit;
use quasar_core::{Game, Shard, Side};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

mod merged_report;

use merged_report::run_report;
pub(crate) use merged_report::verify_game;
pub use merged_report::ReportArgs;

/// Play matches between players and report win rates.
///
/// Without --player it runs the main job: the engine with a small cached 6x6 tablebase
/// against the engine without it.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: MatchArgs,
}

/// What `arena` does besides playing a match.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Merge the records of one match (its shards' records, or runs of it) into one report:
    /// every game counted once, all played alike (same game, size, players, seed, openings,
    /// ply cap and budgets), else an error naming the difference
    #[command(after_help = super::examples::REPORT)]
    Report(ReportArgs),
}

/// Options of a match.
#[derive(clap::Args)]
pub struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    // The help lists each player's keys from the engine's table of options.
    #[arg(long = "player", value_name = "SPEC", help = PlayerSpec::help(&option_texts))]
    players: Vec<PlayerSpec>,
    /// Games per pairing; even, so that each opening is played with both colours
    #[arg(long)]
    games: Option<u32>,
    /// Games played at once (each player's own search threads, threads=N, come on top)
    /// [default: every core]
    #[arg(long)]
    jobs: Option<usize>,
    /// Wall-clock time per move [default: 100ms]
    #[arg(long, value_parser = parse_duration, conflicts_with = "sims")]
    time: Option<Duration>,
    /// Simulations per move instead of a time
    #[arg(long, value_parser = super::engine_opts::simulations)]
    sims: Option<u64>,
    /// A clock for each side instead of a time per move: BASE+INCREMENT (e.g. 10s+0.1s, or
    /// 1m alone), in seconds as cutechess-cli writes it (2+0.05), or MOVES/BASE+INCREMENT
    /// (40/60+0.5: BASE again after every 40 moves of a side); inf: no clock, as without
    /// --tc. The engine spends a share of its time left, and a player whose clock runs out
    /// (past --tolerance) loses on time. A player's own time=, sims= or tc= still wins
    #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["time", "sims"],
          value_parser = clock_option)]
    tc: Option<Clock>,
    /// How far past --time a move may run before it loses
    #[arg(long, value_parser = parse_duration, default_value = "50ms")]
    tolerance: Duration,
    /// Random plies from the start that make each opening (0: every game from the start)
    #[arg(long, default_value_t = 2)]
    openings_plies: u32,
    /// Start positions instead of random openings: one a line in the game's text (as
    /// --position takes it; blank lines and # comments skipped), each played with both
    /// colours; more --games than twice the positions go through the file again
    #[arg(long, value_name = "FILE", conflicts_with = "openings_plies")]
    openings: Option<PathBuf>,
    /// The order of the openings file's positions: sequential (the file's) or random
    /// (shuffled by --seed, anew on each pass through the file)
    #[arg(
        long,
        value_name = "ORDER",
        default_value = "sequential",
        requires = "openings"
    )]
    openings_order: OpeningsOrder,
    /// Seed of the openings and of the players
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// JSON Lines record of finished games; a match resumes from it [default:
    /// OUT/games.jsonl; with --shard i/N, OUT/games-shard-i-of-N.jsonl]; its PGN-style copy
    /// is written beside it (FILE.pgn; FILE.pdn for checkers); not a name the run's other
    /// files take (FILE.pgn, OUT/report.json...)
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Play only this job's share of the match, for a cluster: every N-th opening of every
    /// pairing, both colours, from the i-th (i from 1, as Slurm's --array=1-N and GNU
    /// parallel's {#} number jobs). Games keep their numbers and seeds, so `arena report`
    /// merges the shards' records into the whole match; a shard writes its record only
    #[arg(long, value_name = "i/N", conflicts_with = "sprt")]
    shard: Option<Shard>,
    /// Directory for the match's files: the record games.jsonl (unless --record puts it
    /// elsewhere) and its copy games.pgn (games.pdn for checkers), the report report.html,
    /// report.json, pairings.csv, winrates.svg, and with three or more players
    /// crosstable.csv and ratings.csv (a --shard writes its record only)
    #[arg(short, long, default_value = "arena-results")]
    out: PathBuf,
    /// Stop early by a sequential probability ratio test: elo0=0,elo1=50[,alpha=0.05,beta=0.05]
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Plies after which a game is stopped and scored as a draw (1 or more)
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    ply_cap: u32,
    /// A table (any table `tablebase build` makes for this game and size) that ends a game
    /// as soon as it proves the result, recorded as adjudicated; `players`: every table the
    /// players name with tb= (a file called players: ./players); no table adjudicates by
    /// default
    #[arg(long, value_name = "TABLE|players")]
    adjudicate: Option<PathBuf>,
    /// End a game as lost for a side when, for N consecutive moves of each player, both
    /// players' values give that side an expected score of at most S:
    /// movecount=N,score=S (e.g. movecount=3,score=0.05); a player reporting no value (a
    /// GTP engine, random) is never adjudicated this way
    #[arg(long, value_name = "movecount=N,score=S")]
    resign: Option<ResignRule>,
    /// End a game as a draw when, after move M, for N consecutive moves of each player,
    /// both players' values stay within S of even (0.5): movenumber=M,movecount=N,score=S
    /// (e.g. movenumber=20,movecount=5,score=0.05)
    #[arg(long, value_name = "movenumber=M,movecount=N,score=S")]
    draw: Option<DrawRule>,
    /// Where the main job keeps its tablebase
    #[arg(long, default_value = "tables")]
    cache: PathBuf,
    /// Do not show progress (a bar in a terminal, a line every 5 seconds when standard
    /// error is piped)
    #[arg(long, alias = "no-progress")]
    quiet: bool,
    /// The player rated 0 in a round robin's rating list [default: the first]
    #[arg(long, value_name = "SPEC")]
    anchor: Option<String>,
}

/// `--tc`'s value: a clock, or none (`inf`).
#[derive(Clone, Copy, Debug)]
struct Clock(Option<TimeControl>);

fn clock_option(text: &str) -> Result<Clock, String> {
    engine::clock::parse_clock_option(text)
        .map(Clock)
        .map_err(|e| e.to_string())
}

/// How long a move under a simulation limit may take before it is lost as hung.
const SIMS_SAFEGUARD: Duration = Duration::from_secs(60);

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Some(Command::Report(r)) => run_report(r),
        None => {
            let args = args.play;
            with_game!(args.game, S, given => run_game::<S>(args, given))
        }
    }
}

fn run_game<S: CliGame>(args: MatchArgs, given: Option<S>) -> CliResult {
    // Before any game, not at the report after the last one.
    folder_option(&args.out, "--out", "the report's files")?;
    if args.players.is_empty() {
        if let Some(size) = &given {
            // The main job has its own size and table: a size asked for would be ignored.
            return Err(format!(
                "a size ({}) is for a match between --player options: the main job has its \
                 own; run it without the size, or name two or more players",
                size.params()
            )
            .into());
        }
        folder_option(&args.cache, "--cache", "the main job's tables")?;
    }
    // What can be checked without the players is checked before the main job builds its
    // table, so that a typo costs nothing.
    if let Some(games) = args.games {
        even_games(games)?;
    }
    let jobs = match args.jobs {
        Some(0) => return Err("--jobs 0: at least one game must run".into()),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if let Some(path) = &args.openings {
        quasar_file::open_bounded(path, arena::openings::MAX_BYTES, "openings file")
            .map_err(|e| format!("openings file {e}"))?;
    }
    let record = args.record.clone().unwrap_or_else(|| match args.shard {
        Some(s) => args
            .out
            .join(format!("games-shard-{}-of-{}.jsonl", s.index(), s.count())),
        None => args.out.join("games.jsonl"),
    });
    // The report's files go into --out after the games: a record under one of their names
    // would be lost.
    if let Some(name) = report::file_taken_by(&record, &args.out) {
        return Err(format!(
            "--record {}: the report writes its {name} there (into --out {}), over the \
             record; give the record another name, such as games.jsonl",
            record.display(),
            args.out.display()
        )
        .into());
    }
    if record.exists() {
        // A missing record's folder is made when the match starts: only what is there
        // already (a device, a folder) is refused here.
        quasar_file::check_output(&record).map_err(|e| format!("record {e}"))?;
    }
    let main_job = args.players.is_empty();
    let (specs, setup, games) = if main_job {
        let Some(job) = S::main_job(&args.cache, !args.quiet)? else {
            return Err(format!(
                "{} has no main job: give two or more --player options",
                S::NAME
            )
            .into());
        };
        (job.players, job.setup, args.games.unwrap_or(job.games))
    } else if args.players.len() == 1 {
        return Err("give at least two --player options (or none for the main job)".into());
    } else {
        let setup = given.unwrap_or_else(|| S::default_size());
        (args.players, setup, args.games.unwrap_or(20))
    };
    even_games(games)?;
    let limit = match (args.sims, args.time) {
        (Some(n), _) => Limit::Count(n),
        (None, Some(t)) => Limit::Time(t),
        (None, None) => Limit::Time(Duration::from_millis(100)),
    };
    // The start position and the openings are checked before any player is built (a table
    // loads slowly).
    setup.start()?;
    let style = setup.record_style();
    if pgn::path_beside(&record, &style) == record {
        return Err(format!(
            "--record {}: the match writes the games' {} record beside it under the same \
             name, over it; give the record the extension .jsonl",
            record.display(),
            style.extension.to_uppercase()
        )
        .into());
    }
    let book = match &args.openings {
        Some(path) => Some(std::sync::Arc::new(OpeningBook::load(
            path,
            &setup,
            args.openings_order,
        )?)),
        None => None,
    };
    if let Some(anchor) = &args.anchor {
        if !specs.iter().any(|s| s.to_string() == *anchor) {
            let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
            return Err(format!(
                "--anchor {anchor}: not a player of the match ({})",
                names.join(", ")
            )
            .into());
        }
    }
    let mut players = Vec::new();
    for spec in &specs {
        let factory = build_factory(spec, &setup).map_err(|e| format!("player '{spec}': {e}"))?;
        players.push(Contestant {
            spec: spec.to_string(),
            factory,
        });
    }
    let adjudicator = match &args.adjudicate {
        None => None,
        Some(path) => {
            let paths = if path.as_os_str() == "players" {
                players_tables(&specs)?
            } else {
                vec![path.clone()]
            };
            let mut chain: Option<std::sync::Arc<dyn quasar_core::Oracle<S::Game>>> = None;
            // Only what a table proves adjudicates, whatever rule its player probes it by.
            for path in paths.iter().rev() {
                let spec = TableSpec {
                    path: path.clone(),
                    rule: ProbeRule::Sound,
                    cache_bytes: None,
                };
                let oracle = setup
                    .load_oracle(&spec)
                    .map_err(|e| format!("--adjudicate {}: {e}", path.display()))?;
                chain = Some(match chain {
                    None => oracle,
                    Some(rest) => std::sync::Arc::new(quasar_core::Chain::new(oracle, rest)),
                });
            }
            let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            chain.map(|oracle| Adjudicator {
                oracle,
                source: names.join(" or "),
            })
        }
    };
    let params = setup.params();
    let cfg = MatchConfig {
        setup,
        games,
        limit,
        clock: args.tc.and_then(|c| c.0),
        tolerance: args.tolerance,
        sims_safeguard: SIMS_SAFEGUARD,
        opening_plies: if book.is_some() {
            0
        } else {
            args.openings_plies
        },
        book,
        seed: args.seed,
        jobs,
        ply_cap: args.ply_cap,
        sprt: args.sprt,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        adjudicator,
        value_rules: ValueRules {
            resign: args.resign,
            draw: args.draw,
        },
        interrupt: None,
    };
    let bars = Bars::new(!args.quiet);
    let outcome = run_match(&cfg, &players, &record, &bars);
    bars.finish();
    let outcome = outcome?;
    if outcome.dropped_partial_line {
        eprintln!(
            "record {}: dropped an unfinished last line (an interrupted write)",
            record.display()
        );
    }
    eprintln!(
        "new games played: {}; resumed from {}: {} (finished games are not replayed)",
        outcome.played,
        record.display(),
        outcome.resumed
    );
    if outcome.played == 0 && outcome.resumed > 0 {
        eprintln!(
            "nothing left to play: the record {} holds every game of this match, so the \
             report is of those games; to play the match afresh, delete the record or give \
             another --out (or --record); for more games, give a larger --games",
            record.display()
        );
    }
    if let (Some((decision, llr)), Some(sprt)) = (outcome.sprt, cfg.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match decision {
            SprtDecision::Continue => "no decision yet".to_string(),
            SprtDecision::AcceptH0 => format!(
                "H0 accepted (A's advantage is about {} Elo rather than {})",
                sprt.elo0, sprt.elo1
            ),
            SprtDecision::AcceptH1 => format!(
                "H1 accepted (A's advantage is about {} Elo rather than {})",
                sprt.elo1, sprt.elo0
            ),
        };
        eprintln!(
            "SPRT elo0={} elo1={}: LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {verdict}",
            sprt.elo0, sprt.elo1
        );
    }
    let names: Vec<String> = players.iter().map(|p| p.spec.clone()).collect();
    let games_file = pgn::path_beside(&record, &cfg.setup.record_style());
    pgn::write_match(&games_file, &cfg.setup, &names, &outcome.games)?;
    eprintln!("wrote {}", games_file.display());
    let mut rep = report::summarize(
        &names,
        &outcome.games,
        <S::Game as Game>::side_name(Side::First),
    );
    if let Some(anchor) = &args.anchor {
        rep.anchor_at(anchor)?;
    }
    // The arena runs with SIGPIPE ignored (for its engines' pipes): a closed stdout is an
    // error to report, not a panic.
    // Each player's own budget (a time= or sims= key), as its games recorded it.
    let budgets: Vec<Option<String>> = names
        .iter()
        .map(|p| {
            outcome.games.iter().find_map(|g| match () {
                _ if g.first == *p => Some(g.first_budget.clone()),
                _ if g.second == *p => Some(g.second_budget.clone()),
                _ => None,
            })
        })
        .collect();
    let budget = match (budgets.iter().all(Option::is_none), cfg.clock) {
        (false, _) => budgets_text(&names, &budgets),
        (true, Some(tc)) => format!("{tc} clock"),
        (true, None) => format!("{} per move", limit_text(limit)),
    };
    let summary = format!(
        "{params}, {budget}, {games} games per pairing, {} (seed {})",
        openings_summary(&cfg.openings_text()),
        cfg.seed,
    );
    let mut out = std::io::stdout().lock();
    write!(out, "{summary}\n\n{}", report::markdown(&rep))?;
    out.flush()?;
    if let Some(shard) = args.shard {
        // Report files of a share would be overwritten by the other shards in a shared --out.
        eprintln!(
            "shard {shard}: this job's share of the match is {} games, in {}; `quasar arena \
             report` merges the shards' records into the match's report",
            outcome.games.len(),
            record.display()
        );
        return Ok(());
    }
    write_report(&rep, &args.out)?;
    let page = html::write(&args.out, &cfg.setup, &summary, &rep, &outcome.games)?;
    eprintln!("wrote {}", page.display());
    print_verdict(&rep, &page, main_job)
}

/// The run's answer in one sentence, printed last: a match's score and Elo (the main job's
/// as the table player's) and where the report's page is.
fn print_verdict(rep: &report::Report, page: &std::path::Path, main_job: bool) -> CliResult {
    let mut out = std::io::stdout().lock();
    match rep.pairings.as_slice() {
        [one] => {
            let whose = if main_job {
                "The player with the table: "
            } else {
                ""
            };
            writeln!(
                out,
                "\n{whose}{}; the report is {}",
                report::verdict(one),
                page.display()
            )?
        }
        _ => writeln!(out, "\nThe report is {}", page.display())?,
    }
    out.flush()?;
    Ok(())
}

/// Ok for a number of games that plays each opening with both colours.
fn even_games(games: u32) -> CliResult {
    if games == 0 || games % 2 == 1 {
        return Err(format!(
            "--games {games}: give an even number, so that each opening is played with both colours"
        )
        .into());
    }
    Ok(())
}

/// The openings as the report's first line says them: `openings of 2 random plies`, or
/// `openings from file 0123456789abcdef, sequential`.
fn openings_summary(openings: &str) -> String {
    if openings.starts_with("file ") {
        format!("openings from {openings}")
    } else {
        format!("openings of {openings}")
    }
}

/// Refuses a `flag` naming something other than a folder (a file, a device): it names the
/// folder, made when missing, that holds `what`.
fn folder_option(path: &std::path::Path, flag: &str, what: &str) -> CliResult {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_dir() => Err(format!(
            "{flag} {} is {}, not a folder: {flag} names the folder for {what} (made when \
             missing); give another",
            path.display(),
            quasar_file::describe(&m.file_type())
        )
        .into()),
        _ => Ok(()),
    }
}

/// Writes the report's files into `dir` and says which.
fn write_report(rep: &report::Report, dir: &std::path::Path) -> CliResult {
    let written = report::write_files(rep, dir)
        .map_err(|e| format!("cannot write the report into {}: {e}", dir.display()))?;
    let list: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("wrote {}", list.join(", "));
    Ok(())
}

/// The budgets as the match prints them (`100ms per move`, `10s+100ms clock`) when all
/// players share one, else each player's.
fn budgets_text(players: &[String], budgets: &[Option<String>]) -> String {
    if let Some(Some(b)) = budgets.first() {
        if budgets.iter().all(|x| x.as_deref() == Some(b)) {
            return match b.contains('+') {
                true => format!("{b} clock"),
                false => format!("{b} per move"),
            };
        }
    }
    let each: Vec<String> = players
        .iter()
        .zip(budgets)
        .map(|(p, b)| match b.as_deref() {
            Some(b) if b.contains('+') => format!("{p} {b} clock"),
            Some(b) => format!("{p} {b}"),
            None => format!("{p} (no games)"),
        })
        .collect();
    match budgets.iter().flatten().any(|b| b.contains('+')) {
        true => format!("budgets: {}", each.join(", ")),
        false => format!("per move: {}", each.join(", ")),
    }
}

/// The tables the players name (`tb=FILE`), each once in the players' order, for
/// `--adjudicate players`; an error when none names one.
fn players_tables(specs: &[PlayerSpec]) -> Result<Vec<PathBuf>, String> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for spec in specs {
        let path = match spec {
            PlayerSpec::Mcts(settings) => settings.table_spec().map(|t| t.path),
            PlayerSpec::AlphaBeta(settings) => settings.table.clone(),
            PlayerSpec::Random { .. } | PlayerSpec::Gtp(_) => None,
        };
        if let Some(path) = path {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    if paths.is_empty() {
        return Err(
            "--adjudicate players: no player names a table (tb=FILE); name one with --adjudicate TABLE"
                .into(),
        );
    }
    Ok(paths)
}
