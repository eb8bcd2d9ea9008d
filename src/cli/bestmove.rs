//! `quasar bestmove`: search one position and print the move with the search statistics.

use super::engine_opts::{describe_engine_report, info_text, line_text, value_text, EngineArgs};
use super::output::{print_json, result_word, Proven};
use super::{position_from, CliResult};
use crate::games::{with_game, CliGame, GameArgs};
use engine::engine::{Engine, EngineReport, Line};
use engine::setup::GameSetup;
use quasar_core::progress::{SearchInfo, SearchValue, Watch};
use quasar_core::Game;
use quasar_core::Limit;
use serde::Serialize;
use std::time::Duration;

/// Search a position and print the best move and the statistics.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The position, e.g. "BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w" (default: the start; its size
    /// is the board's, and a size option given must agree with it)
    #[arg(long)]
    position: Option<String>,
    /// Also print every root move's visits, value and proof
    #[arg(long)]
    moves: bool,
    /// Print one JSON object (keys in docs/player.md) instead of text; an error prints
    /// {"error": "..."}
    #[arg(long)]
    json: bool,
    /// Print a progress line while searching: alpha-beta one per finished depth, MCTS one a
    /// second and one at the end (depth or simulations, value, nodes, rate, time,
    /// principal variation); with --json each is a JSON object on its own line
    #[arg(long)]
    info: bool,
    /// Search until interrupted: Ctrl-C (SIGINT or SIGTERM) stops the search and prints the
    /// best move so far; it ends by itself only when the position is proven or alpha-beta
    /// reaches its deepest iteration
    #[arg(long, conflicts_with_all = ["time", "sims"])]
    infinite: bool,
    /// Also show the N best root moves, best first: MCTS's most visited with their visits
    /// and values; alpha-beta's best, then the best of the rest searched to the same depth
    /// (each a further search)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    multipv: Option<u32>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    with_game!(args.game, S, given => run_game::<S>(&args, given))
}

fn run_game<S: CliGame>(args: &Args, given: Option<S>) -> CliResult {
    let (setup, pos) = position_from::<S>(given, args.position.as_deref())?;
    let choice = args.engine.choice(&setup)?;
    let mut engine = Engine::new(&setup, &choice, 0)?;
    let mut limit = choice.limit;
    let mut watch = Watch::none();
    if args.infinite {
        // No count is reached in practice: the search ends on the signal's flag.
        limit = Limit::Count(u64::MAX);
        watch.stop = Some(crate::signals::graceful().0);
    }
    let json = args.json;
    let mut print_info = |info: &SearchInfo<<S::Game as Game>::Move>| {
        if json {
            // A value that cannot be written as JSON is left out rather than stopping the search.
            if let Ok(line) = serde_json::to_string(&InfoLine::of(&pos, info)) {
                println!("{line}");
            }
        } else {
            println!("{}", info_text(&pos, info));
        }
    };
    if args.info {
        watch.observer = Some(&mut print_info);
        watch.interval = Duration::from_secs(1);
    }
    let report = engine.search_with(&pos, limit, &mut watch);
    drop(watch);
    let lines = match args.multipv {
        Some(n) => engine.lines(&pos, &report, n as usize),
        None => Vec::new(),
    };
    engine::engine::warn_damage_once(engine.damage());
    if args.json {
        let mut answer = Answer::of(&setup, &pos, &report);
        if args.multipv.is_some() {
            answer.lines = Some(lines.iter().map(|l| LineAnswer::of(&pos, l)).collect());
        }
        return print_json(&answer);
    }
    print!("{}", describe_engine_report(&pos, &report, args.moves));
    for (k, l) in lines.iter().enumerate() {
        println!("{}", multipv_text(&pos, k + 1, l));
    }
    Ok(())
}

/// One of `--multipv`'s lines as text: `multipv 2 b2-b3 visits 812 value 0.534 pv b2-b3 e7-e6`
/// (alpha-beta: `depth` for `visits`).
fn multipv_text<G: Game>(pos: &G, rank: usize, l: &Line<G::Move>) -> String {
    let what = match (l.visits, l.depth) {
        (Some(v), _) => format!("visits {v}"),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => String::new(),
    };
    format!(
        "multipv {rank} {} {what} value {} pv {}",
        pos.move_text(l.mv),
        value_text(&l.value),
        line_text(pos, &l.pv)
    )
}

/// A value as `bestmove --json` writes it: the mean score, the evaluation or the proof.
fn json_value(v: &SearchValue) -> (Option<f64>, Option<i32>, Option<Proven>) {
    match *v {
        SearchValue::Mean(m) => (Some(m), None, None),
        SearchValue::Eval(e) => (None, Some(e), None),
        SearchValue::Proven { result, plies } => (
            None,
            None,
            Some(Proven {
                result: result_word(result),
                plies,
                plies_exact: false,
            }),
        ),
    }
}

fn words<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    line_text(pos, line)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// `bestmove --info --json`: a progress line, with the final answer's names for its figures.
#[derive(Serialize)]
struct InfoLine {
    /// Always `"info"`: the final answer has no such key.
    info: &'static str,
    depth: Option<u32>,
    simulations: Option<u64>,
    value: Option<f64>,
    eval: Option<i32>,
    proven: Option<Proven>,
    nodes: u64,
    rate: f64,
    seconds: f64,
    pv: Vec<String>,
}

impl InfoLine {
    fn of<G: Game>(pos: &G, info: &SearchInfo<G::Move>) -> InfoLine {
        let (value, eval, proven) = json_value(&info.value);
        InfoLine {
            info: "info",
            depth: info.depth,
            simulations: info.simulations,
            value,
            eval,
            proven,
            nodes: info.nodes,
            rate: info.rate().round(),
            seconds: info.elapsed.as_secs_f64(),
            pv: words(pos, &info.pv),
        }
    }
}

/// One `--multipv` line in `bestmove --json`'s `lines`.
#[derive(Serialize)]
struct LineAnswer {
    #[serde(rename = "move")]
    mv: String,
    visits: Option<u64>,
    value: Option<f64>,
    eval: Option<i32>,
    proven: Option<Proven>,
    depth: Option<u32>,
    pv: Vec<String>,
}

impl LineAnswer {
    fn of<G: Game>(pos: &G, l: &Line<G::Move>) -> LineAnswer {
        let (value, eval, proven) = json_value(&l.value);
        LineAnswer {
            mv: pos.move_text(l.mv),
            visits: l.visits,
            value,
            eval,
            proven,
            depth: l.depth,
            pv: words(pos, &l.pv),
        }
    }
}

/// `bestmove --json`: the same keys for both searches (`null` where one has no such figure).
#[derive(Serialize)]
struct Answer {
    game: &'static str,
    size: String,
    position: String,
    to_move: String,
    engine: &'static str,
    best_move: Option<String>,
    pv: Vec<String>,
    /// MCTS: the mean score for the side to move, from 0 to 1.
    value: Option<f64>,
    /// Alpha-beta: the evaluation for the side to move, in the evaluation's units.
    eval: Option<i32>,
    proven: Option<Proven>,
    simulations: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    seconds: f64,
    threads: Option<usize>,
    /// With `--multipv`: the best root moves, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<Vec<LineAnswer>>,
}

impl Answer {
    fn of<S: GameSetup>(
        setup: &S,
        pos: &S::Game,
        r: &EngineReport<<S::Game as Game>::Move>,
    ) -> Answer {
        let mut a = Answer {
            game: S::NAME,
            size: setup.params(),
            position: pos.position_text(),
            to_move: <S::Game as Game>::side_name(pos.side_to_move()).to_string(),
            engine: "mcts",
            best_move: r.best_move().map(|m| pos.move_text(m)),
            pv: Vec::new(),
            value: None,
            eval: None,
            proven: None,
            simulations: None,
            nodes: None,
            depth: None,
            seconds: 0.0,
            threads: None,
            lines: None,
        };
        let words = |line: &[<S::Game as Game>::Move]| -> Vec<String> {
            let text = line_text(pos, line);
            text.split_whitespace().map(str::to_string).collect()
        };
        match r {
            EngineReport::Mcts(m) => {
                a.pv = words(&m.pv);
                a.value = Some(m.value);
                a.proven = m.proven.map(|p| Proven {
                    result: result_word(p.result),
                    plies: p.known_plies(),
                    plies_exact: false,
                });
                a.simulations = Some(m.simulations);
                a.nodes = Some(m.tree_nodes as u64);
                a.seconds = m.elapsed.as_secs_f64();
                a.threads = Some(m.threads);
            }
            EngineReport::AlphaBeta(b) => {
                a.engine = "ab";
                a.pv = words(&b.pv);
                match b.score {
                    alphabeta::Score::Eval(v) => a.eval = Some(v),
                    score @ alphabeta::Score::Proven { result, .. } => {
                        a.proven = Some(Proven {
                            result: result_word(result),
                            plies: score.known_plies(),
                            plies_exact: false,
                        })
                    }
                }
                a.nodes = Some(b.nodes);
                a.depth = Some(b.depth);
                a.seconds = b.elapsed.as_secs_f64();
                a.threads = Some(1);
            }
            EngineReport::GameOver => a.engine = "ab",
        }
        a
    }
}
