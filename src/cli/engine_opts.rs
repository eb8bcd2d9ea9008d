//! Search options shared by `bestmove`, `play` and `gtp` (they fill the same
//! [`EngineSettings`] as the arena's `mcts:` specs), and the text of a search report.

use super::output::{length_text, result_word};
use arena::ab_player::AbSettings;
use arena::duration::parse_duration;
use arena::engine::{EngineChoice, EngineReport, Family};
use arena::settings::{
    EngineSettings, PlayoutKind, PlayoutSettings, ProbeRule, MAX_PRIOR, MIN_NODES,
};
use mcts::{Limits, Parallelism, Report};
use quasar_core::{Game, GameResult};
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Which search picks the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// Monte Carlo Tree Search with the MCTS-solver (the default player)
    Mcts,
    /// Alpha-beta with the game's evaluation (iterative deepening, PVS, a hash table)
    #[value(alias = "alphabeta")]
    Ab,
}

/// Which playouts the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayoutArg {
    /// Uniform random moves to the end of the game (the enhancement switches are ignored).
    Uniform,
    /// The game's policy with the enhancements the switches leave on.
    #[value(alias = "full")]
    Policy,
}

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ParallelArg {
    /// One tree per thread, merged at the root (reproducible with --sims)
    Root,
    /// One tree shared by all threads, with virtual loss (not reproducible)
    Tree,
}

/// Reads `--sims`: a whole number of at least one.
pub fn simulations(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("at least one simulation is needed".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number of simulations")),
    }
}

/// Reads `--c`: a number >= 0.
fn exploration(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(c) if c.is_finite() && c >= 0.0 => Ok(c),
        _ => Err(format!("'{text}' is not a number >= 0")),
    }
}

/// Reads `--imb`: a weight from 0 to 1.
fn imb_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(a) if (0.0..=1.0).contains(&a) => Ok(a),
        _ => Err(format!("'{text}' is not a weight from 0 to 1 (0: off)")),
    }
}

/// Reads `--prior`: at most [`MAX_PRIOR`] virtual visits.
fn prior_visits(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_PRIOR => Ok(n),
        _ => Err(format!(
            "'{text}' is not a whole number of virtual visits from 0 to {MAX_PRIOR}"
        )),
    }
}

/// Reads `--nodes`: at least [`MIN_NODES`].
fn nodes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= MIN_NODES => Ok(n),
        Ok(n) => Err(format!("{n} is too small: give at least {MIN_NODES}")),
        Err(_) => Err(format!("'{text}' is not a whole number of nodes")),
    }
}

/// How the engine searches.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// The search: mcts or ab (alpha-beta); --time, --sims (a node count for ab) and --tb
    /// serve both, --depth and --hash only ab, the other options only mcts [default: ab for
    /// chinese-checkers, where it wins clearly; mcts for the other games]
    #[arg(long, value_enum)]
    pub engine: Option<EngineKind>,
    /// Alpha-beta: the deepest iteration, in plies, within --time [default: 64]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Alpha-beta: the transposition table's size in MiB [default: 64]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: Option<u64>,
    /// Time per move, e.g. 500ms, 2s, 1.5s, 900us
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub time: Duration,
    /// Run exactly this many simulations per move instead of using --time
    #[arg(long, value_parser = simulations)]
    pub sims: Option<u64>,
    /// Seed of the random numbers (identical seeds and --sims give identical moves)
    #[arg(long, default_value_t = 0x5eed)]
    pub seed: u64,
    /// Search threads (see --parallel)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// With --threads above 1: root (a tree per thread) or tree (one shared tree)
    #[arg(long = "parallel", value_enum, default_value_t = ParallelArg::Root)]
    pub parallel: ParallelArg,
    /// UCT exploration constant c of w/n + c*sqrt(ln t / n)
    #[arg(long, default_value_t = 0.7, value_parser = exploration)]
    pub c: f64,
    /// Playout kind
    #[arg(long, value_enum, default_value_t = PlayoutArg::Policy)]
    pub playout: PlayoutArg,
    /// Policy: plies after which the evaluation function decides a playout (0: play to the
    /// end) [default: the game's, 20 for Breakthrough]
    #[arg(long)]
    pub eval_after: Option<u32>,
    /// Policy: weight of captures of undefended pieces against 1 for other moves (1: off)
    /// [default: the game's, 4 for Breakthrough]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub capture_weight: Option<u32>,
    /// Policy: do not take wins in one automatically
    #[arg(long)]
    pub no_win_in_one: bool,
    /// Policy: do not capture pieces that threaten to win next move
    #[arg(long)]
    pub no_stop_threats: bool,
    /// Do not prove nodes at expansion by the game's sound verdicts (Breakthrough: a win
    /// on the next move, a threat no capture answers)
    #[arg(long)]
    pub no_verdicts: bool,
    /// Implicit minimax backups: weight alpha of the evaluation's minimax value against the
    /// playout mean in selection (0: off; needs a game with an evaluation) [default: the
    /// game's]
    #[arg(long, value_parser = imb_weight)]
    pub imb: Option<f64>,
    /// Node priors: virtual visits each new node starts with, scored at the evaluation's
    /// winning chance (0: off; needs a game with an evaluation) [default: the game's]
    #[arg(long, value_parser = prior_visits)]
    pub prior: Option<u32>,
    /// Most tree nodes (24 bytes each on 8x8 Breakthrough)
    #[arg(long, default_value_t = 1 << 23, value_parser = nodes)]
    pub nodes: usize,
    /// Consult the oracle inside playouts at every K-th turn of each side (1: every ply; 0:
    /// only at expansion; needs an oracle) [default: the game's; for Breakthrough every ply up to 7 rows, 0 from 8]
    #[arg(long)]
    pub oracle_every: Option<u32>,
    /// Tablebase file (from `quasar tablebase build`) to consult at expansion and in playouts
    #[arg(long, value_name = "FILE")]
    pub tb: Option<PathBuf>,
    /// With --tb: also end playouts by the table's looser rule (for Breakthrough the
    /// thesis' race rule; never used as a proof)
    #[arg(long, requires = "tb")]
    pub race: bool,
}

impl EngineArgs {
    /// The settings these options describe: the same builder the arena's specs fill.
    pub fn settings(&self) -> EngineSettings {
        EngineSettings {
            table: self.tb.clone(),
            rule: self.race.then_some(ProbeRule::Race),
            oracle_every: self.oracle_every,
            c: Some(self.c),
            playout: PlayoutSettings {
                kind: Some(match self.playout {
                    PlayoutArg::Uniform => PlayoutKind::Uniform,
                    PlayoutArg::Policy => PlayoutKind::Policy,
                }),
                win_in_one: self.no_win_in_one.then_some(false),
                stop_threats: self.no_stop_threats.then_some(false),
                capture_weight: self.capture_weight,
                eval_after: self.eval_after,
            },
            limit: Some(self.limits()),
            threads: Some(self.threads as usize),
            parallelism: Some(match self.parallel {
                ParallelArg::Root => Parallelism::Root,
                ParallelArg::Tree => Parallelism::Tree,
            }),
            nodes: Some(self.nodes),
            seed: Some(self.seed),
            child_probes: None,
            imb: self.imb,
            prior: self.prior,
            verdicts: self.no_verdicts.then_some(false),
        }
    }

    /// The searcher these options choose (`default` when they name none), or why they do
    /// not fit together.
    pub fn choice(&self, default: Family) -> Result<EngineChoice, String> {
        let kind = self.engine.unwrap_or(match default {
            Family::Mcts => EngineKind::Mcts,
            Family::AlphaBeta => EngineKind::Ab,
        });
        match kind {
            EngineKind::Mcts => {
                if self.depth.is_some() || self.hash.is_some() {
                    return Err("--depth and --hash are alpha-beta options: add --engine ab".into());
                }
                Ok(EngineChoice::Mcts(self.settings()))
            }
            EngineKind::Ab => {
                let mcts_only = [
                    (self.imb.is_some(), "--imb"),
                    (self.prior.is_some(), "--prior"),
                    (self.oracle_every.is_some(), "--oracle-every"),
                    (self.eval_after.is_some(), "--eval-after"),
                    (self.capture_weight.is_some(), "--capture-weight"),
                    (self.no_win_in_one, "--no-win-in-one"),
                    (self.no_stop_threats, "--no-stop-threats"),
                    (self.no_verdicts, "--no-verdicts"),
                ];
                if let Some((_, flag)) = mcts_only.iter().find(|(given, _)| *given) {
                    let why = if self.engine.is_none() {
                        " (this game's default engine is ab)"
                    } else {
                        ""
                    };
                    return Err(format!(
                        "{flag} is an MCTS option, and the engine is alpha-beta{why}: add \
                         --engine mcts or leave {flag} out"
                    ));
                }
                if self.race {
                    return Err("--race is an MCTS playout rule; alpha-beta uses only what \
                                the table proves"
                        .into());
                }
                Ok(EngineChoice::AlphaBeta(AbSettings {
                    table: self.tb.clone(),
                    time: None,
                    depth: self.depth,
                    hash_mib: self.hash.map(|m| m as usize),
                }))
            }
        }
    }

    /// The per-move limit: `--sims` when given, else `--time`.
    pub fn limits(&self) -> Limits {
        match self.sims {
            Some(n) => Limits::Simulations(n),
            None => Limits::Time(self.time),
        }
    }
}

/// The moves of a line from `pos`, in move text.
pub fn line_text<G: Game>(pos: &G, line: &[G::Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in line {
        out.push(p.move_text(mv));
        p.play(mv);
    }
    out.join(" ")
}

/// Either search's statistics as lines of text (see [`describe_report`] and
/// [`describe_ab_report`]).
pub fn describe_engine_report<G: Game>(pos: &G, r: &EngineReport<G::Move>, moves: bool) -> String {
    match r {
        EngineReport::Mcts(r) => describe_report(pos, r, moves),
        EngineReport::AlphaBeta(r) => describe_ab_report(pos, r),
        EngineReport::GameOver => "bestmove none (the game is over)\n".to_string(),
    }
}

/// Alpha-beta's statistics as lines of text: move, nodes and rate, depth, value, principal
/// variation, proven status.
pub fn describe_ab_report<G: Game>(pos: &G, r: &alphabeta::Report<G::Move>) -> String {
    let me = G::side_name(pos.side_to_move());
    let mut s = String::new();
    let _ = writeln!(s, "bestmove {}", pos.move_text(r.best_move));
    let _ = writeln!(
        s,
        "nodes {} in {:.3} s ({:.0} per second), depth {}",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nodes_per_second(),
        r.depth
    );
    let _ = writeln!(s, "pv {}", line_text(pos, &r.pv));
    match r.score {
        alphabeta::Score::Eval(v) => {
            let _ = writeln!(s, "value {v:+} for {me} (evaluation units)");
            let _ = writeln!(s, "proven no");
        }
        score => {
            let _ = writeln!(s, "proven {score} for {me}");
        }
    }
    s
}

/// The search statistics as lines of text: move, simulations and rate, value, principal
/// variation, proven status and tree size (and every root move with `moves`).
pub fn describe_report<G: Game>(pos: &G, r: &Report<G::Move>, moves: bool) -> String {
    let me = G::side_name(pos.side_to_move());
    let mut s = String::new();
    match r.best_move {
        Some(mv) => {
            let _ = writeln!(s, "bestmove {}", pos.move_text(mv));
        }
        None => {
            let _ = writeln!(s, "bestmove none (the game is over)");
        }
    }
    let _ = writeln!(
        s,
        "simulations {} in {:.3} s ({:.0} per second, {} thread(s))",
        r.simulations,
        r.elapsed.as_secs_f64(),
        r.sims_per_second,
        r.threads
    );
    let _ = writeln!(s, "value {:.3} for {me}", r.value);
    let _ = writeln!(s, "pv {}", line_text(pos, &r.pv));
    let proven = match r.proven {
        None => "no".to_string(),
        Some(p) => {
            let what = match p.result {
                GameResult::Win => "win",
                GameResult::Loss => "loss",
                GameResult::Draw => "draw",
            };
            // The solver's plies bound the game's length: a shorter line may exist.
            match p.known_plies() {
                Some(n) => format!("{what} for {me} {}", length_text(n, false)),
                None => format!("{what} for {me} (by a table without distances)"),
            }
        }
    };
    let _ = writeln!(s, "proven {proven}");
    let _ = writeln!(
        s,
        "tree {} nodes, {} reused, node budget full: {}",
        r.tree_nodes,
        r.reused_nodes,
        if r.budget_full { "yes" } else { "no" }
    );
    if moves {
        for c in &r.children {
            let proof = match c.proven {
                Some(p) => match p.known_plies() {
                    Some(n) => format!(
                        " proven {} {}",
                        result_word(p.result),
                        length_text(n, false)
                    ),
                    None => format!(" proven {}", result_word(p.result)),
                },
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "  {:<8} visits {:>10} value {:.3}{proof}",
                pos.move_text(c.mv),
                c.visits,
                c.value
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use mcts::Config;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        engine: EngineArgs,
    }

    fn settings(args: &[&str]) -> Result<EngineSettings, clap::Error> {
        Cli::try_parse_from(std::iter::once("quasar").chain(args.iter().copied()))
            .map(|c| c.engine.settings())
    }

    #[test]
    fn the_flags_defaults_are_the_search_defaults() {
        let s = settings(&[]).unwrap();
        let ours = s.config((), 0, 1);
        let theirs = Config::<()>::default();
        assert_eq!(
            (ours.c, ours.node_budget, ours.threads),
            (theirs.c, theirs.node_budget, theirs.threads)
        );
        assert_eq!(
            (ours.parallelism, ours.seed),
            (theirs.parallelism, theirs.seed)
        );
        assert_eq!(ours.oracle_in_playouts, theirs.oracle_in_playouts);
        assert_eq!(s.playout.eval_after, None, "the game's own default");
    }

    #[test]
    fn flags_and_spec_keys_build_the_same_settings() {
        let flags = settings(&[
            "--sims",
            "300",
            "--c",
            "0.4",
            "--nodes",
            "5000",
            "--parallel",
            "tree",
            "--threads",
            "2",
            "--eval-after",
            "0",
            "--no-win-in-one",
            "--tb",
            "t.qtb",
            "--race",
            "--seed",
            "3",
            "--oracle-every",
            "2",
            "--playout",
            "uniform",
            "--imb",
            "0.25",
            "--prior",
            "8",
        ])
        .unwrap();
        let spec = EngineSettings::parse_keys(
            "sims=300,c=0.4,nodes=5000,parallel=tree,threads=2,eval-after=0,win-in-one=off,\
             tb=t.qtb,rule=race,seed=3,every=2,playout=uniform,imb=0.25,prior=8",
        )
        .unwrap();
        assert_eq!(flags, spec);
    }

    #[test]
    fn bad_values_are_refused_when_parsed() {
        for bad in [
            &["--sims", "0"][..],
            &["--c", "-1"],
            &["--nodes", "10"],
            &["--time", "5"],
            &["--imb", "-0.1"],
            &["--imb", "2"],
            &["--prior", "-1"],
            &["--prior", "100000"],
        ] {
            assert!(settings(bad).is_err(), "{bad:?}");
        }
        let ok = settings(&["--time", "900us"]).unwrap();
        assert_eq!(ok.limit, Some(Limits::Time(Duration::from_micros(900))));
    }
}
