//! `quasar arena`: a match between two players, or a round robin among more, with a record
//! that resumes, the thesis' table on the terminal and CSV, JSON and SVG files.

use super::CliResult;
use arena::defaults;
use arena::matchup::{run_match, Contestant, MatchConfig};
use arena::player::{build_factory, parse_duration, Limit, PlayerSpec};
use arena::report;
use arena::stats::{Sprt, SprtDecision};
use breakthrough::Board;
use std::path::PathBuf;
use std::time::Duration;

/// Play matches between players and report win rates.
///
/// Without --player it runs the main job: the engine with a small cached 6x6 tablebase
/// against the engine without it.
#[derive(clap::Args)]
pub struct Args {
    /// A player: mcts[:KEY=VALUE,...] with keys tb=FILE, rule=sound|race, c=0.4,
    /// playout=uniform|full, time=100ms or sims=N, threads=N, seed=S; random[:seed=S]; or
    /// gtp:<command line>. Two players play a match; more play a round robin
    #[arg(long = "player", value_name = "SPEC")]
    players: Vec<PlayerSpec>,
    /// Games per pairing; even, so that each opening is played with both colours
    #[arg(long)]
    games: Option<u32>,
    /// Games played at once [default: all cores]
    #[arg(long)]
    jobs: Option<usize>,
    /// Wall-clock time per move [default: 100ms]
    #[arg(long, value_parser = parse_duration, conflicts_with = "sims")]
    time: Option<Duration>,
    /// Simulations per move instead of a time
    #[arg(long)]
    sims: Option<u64>,
    /// How far past --time a move may run before it loses
    #[arg(long, value_parser = parse_duration, default_value = "50ms")]
    tolerance: Duration,
    /// Random plies from the start that make each opening (0: every game from the start)
    #[arg(long, default_value_t = 2)]
    openings_plies: u32,
    /// Seed of the openings and of the players
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board size WxH
    #[arg(long, default_value = "6x6")]
    board: Board,
    /// JSON Lines record of finished games; a match resumes from it [default: OUT/games.jsonl]
    #[arg(long)]
    record: Option<PathBuf>,
    /// Directory for pairings.csv, crosstable.csv, report.json and winrates.svg
    #[arg(long, default_value = "arena-results")]
    out: PathBuf,
    /// Stop early by a sequential probability ratio test: elo0=0,elo1=50[,alpha=0.05,beta=0.05]
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Plies after which a game is stopped and scored as a draw
    #[arg(long, default_value_t = 1000)]
    ply_cap: u32,
    /// Where the main job keeps its tablebase
    #[arg(long, default_value = "tables")]
    cache: PathBuf,
    /// Do not draw the progress bar
    #[arg(long)]
    no_progress: bool,
}

/// How long a move under a simulation limit may take before it is lost as hung.
const SIMS_SAFEGUARD: Duration = Duration::from_secs(60);

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    let (specs, board, games) = if args.players.is_empty() {
        let bars = super::tablebase::Bars::default();
        let silent = breakthrough::tablebase::Silent;
        let progress: &dyn breakthrough::tablebase::Progress =
            if args.no_progress { &silent } else { &bars };
        let specs = defaults::main_job_players(&args.cache, progress)?;
        let (w, h) = defaults::MAIN_BOARD;
        let board = Board::new(w, h)?;
        (specs, board, args.games.unwrap_or(defaults::MAIN_GAMES))
    } else if args.players.len() == 1 {
        return Err("give at least two --player options (or none for the main job)".into());
    } else {
        (args.players, args.board, args.games.unwrap_or(20))
    };
    if games == 0 || games % 2 == 1 {
        return Err(format!(
            "--games {games}: give an even number, so that each opening is played with both colours"
        )
        .into());
    }
    let limit = match (args.sims, args.time) {
        (Some(0), _) => return Err("--sims 0: at least one simulation is needed".into()),
        (Some(n), _) => Limit::Sims(n),
        (None, Some(t)) => Limit::Time(t),
        (None, None) => Limit::Time(Duration::from_millis(100)),
    };
    let jobs = match args.jobs {
        Some(0) => return Err("--jobs 0: at least one game must run".into()),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut players = Vec::new();
    for spec in &specs {
        let factory = build_factory(spec, board).map_err(|e| format!("player '{spec}': {e}"))?;
        players.push(Contestant {
            spec: spec.to_string(),
            factory,
        });
    }
    let cfg = MatchConfig {
        board,
        games,
        limit,
        tolerance: args.tolerance,
        sims_safeguard: SIMS_SAFEGUARD,
        opening_plies: args.openings_plies,
        seed: args.seed,
        jobs,
        ply_cap: args.ply_cap,
        sprt: args.sprt,
        progress: !args.no_progress,
    };
    let record = args
        .record
        .clone()
        .unwrap_or_else(|| args.out.join("games.jsonl"));
    let outcome = run_match(&cfg, &players, &record)?;
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
    let rep = report::summarize(&names, &outcome.games);
    println!(
        "{board}, {} per move, {games} games per pairing, openings of {} random plies (seed {})\n",
        limit, cfg.opening_plies, cfg.seed
    );
    print!("{}", report::markdown(&rep));
    let written = report::write_files(&rep, &args.out)
        .map_err(|e| format!("cannot write the report into {}: {e}", args.out.display()))?;
    let list: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("wrote {}", list.join(", "));
    Ok(())
}
