//! `quasar bestmove`: search one position and print the move with the search statistics.

use super::engine_opts::{describe_engine_report, line_text, EngineArgs};
use super::output::{print_json, result_word, Proven};
use super::{position_from, CliResult};
use crate::games::{with_game, CliGame, GameArgs};
use arena::engine::{Engine, EngineReport};
use arena::setup::GameSetup;
use quasar_core::Game;
use serde::Serialize;

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
    let report = engine.search(&pos, choice.limit);
    arena::engine::warn_damage_once(engine.damage());
    if args.json {
        return print_json(&Answer::of(&setup, &pos, &report));
    }
    print!("{}", describe_engine_report(&pos, &report, args.moves));
    Ok(())
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
