//! Search options shared by `bestmove`, `play` and `gtp`, duration parsing, and the text
//! that describes a search report.

use breakthrough::tablebase::Tablebase;
use breakthrough::{Board, Move, Position};
use breakthrough::{BreakthroughPolicy, BreakthroughSearcher};
use mcts::{Config, Limits, Parallelism, Report, Searcher};
use quasar_core::{Game, GameResult, Side};
use std::fmt::Write;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Reads `500ms`, `2s`, `1.5s` or `1m` into a duration.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(format!(
            "bad duration '{text}': give a unit, for example 500ms, 2s or 1.5s"
        ));
    };
    let value: f64 = num.trim().parse().map_err(|_| {
        format!("bad duration '{text}': expected a number before the unit, for example 1.5s")
    })?;
    if !value.is_finite() || value <= 0.0 || value * scale > 1e7 {
        return Err(format!(
            "bad duration '{text}': it must be positive and below 10^7 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// Which playouts the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayoutKind {
    /// Uniform random moves to the end of the game (the enhancement switches are ignored).
    Uniform,
    /// The Breakthrough policy with the enhancements the switches leave on.
    Policy,
}

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ParallelKind {
    /// One tree per thread, merged at the root (reproducible with --sims)
    Root,
    /// One tree shared by all threads, with virtual loss (not reproducible)
    Tree,
}

/// How the engine searches.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// Time per move, e.g. 500ms, 2s, 1.5s
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub time: Duration,
    /// Run exactly this many simulations per move instead of using --time
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub sims: Option<u64>,
    /// Seed of the random numbers (identical seeds and --sims give identical moves)
    #[arg(long, default_value_t = 0x5eed)]
    pub seed: u64,
    /// Search threads (see --parallel)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// With --threads above 1: root (a tree per thread) or tree (one shared tree)
    #[arg(long = "parallel", value_enum, default_value_t = ParallelKind::Root)]
    pub parallel: ParallelKind,
    /// UCT exploration constant c of w/n + c*sqrt(ln t / n)
    #[arg(long, default_value_t = 0.7)]
    pub c: f64,
    /// Playout kind
    #[arg(long, value_enum, default_value_t = PlayoutKind::Policy)]
    pub playout: PlayoutKind,
    /// Policy: plies after which the evaluation function decides a playout (0: play to the end)
    #[arg(long, default_value_t = 20)]
    pub eval_after: u32,
    /// Policy: weight of captures of undefended pieces against 1 for other moves (1: off)
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub capture_weight: u32,
    /// Policy: do not take wins in one automatically
    #[arg(long)]
    pub no_win_in_one: bool,
    /// Policy: do not capture pieces that threaten to win next move
    #[arg(long)]
    pub no_stop_threats: bool,
    /// Most tree nodes (24 bytes each on 8x8 Breakthrough)
    #[arg(long, default_value_t = 1 << 23)]
    pub nodes: usize,
    /// Consult the oracle inside playouts every K plies (0: never; needs an oracle)
    #[arg(long, default_value_t = 1)]
    pub oracle_every: u32,
    /// Tablebase file (from `quasar tablebase build`) to consult at expansion and in playouts
    #[arg(long, value_name = "FILE")]
    pub tb: Option<PathBuf>,
    /// With --tb: also end playouts by the thesis' race rule (never used as a proof)
    #[arg(long, requires = "tb")]
    pub race: bool,
}

impl EngineArgs {
    /// The search configuration these options describe.
    pub fn config(&self) -> Result<Config<BreakthroughPolicy>, String> {
        if !self.c.is_finite() || self.c < 0.0 {
            return Err(format!("--c {} must be a number >= 0", self.c));
        }
        if self.nodes < 1000 {
            return Err(format!(
                "--nodes {} is too small: give at least 1000",
                self.nodes
            ));
        }
        let playout = match self.playout {
            PlayoutKind::Uniform => BreakthroughPolicy::uniform(),
            PlayoutKind::Policy => BreakthroughPolicy {
                win_in_one: !self.no_win_in_one,
                stop_threats: !self.no_stop_threats,
                capture_weight: self.capture_weight,
                eval_after: (self.eval_after > 0).then_some(self.eval_after),
            },
        };
        Ok(Config {
            c: self.c,
            playout,
            node_budget: self.nodes,
            threads: self.threads as usize,
            parallelism: match self.parallel {
                ParallelKind::Root => Parallelism::Root,
                ParallelKind::Tree => Parallelism::Tree,
            },
            oracle_in_playouts: NonZeroU32::new(self.oracle_every),
            seed: self.seed,
            ..Config::default()
        })
    }

    /// The per-move limit: `--sims` when given, else `--time`.
    pub fn limits(&self) -> Limits {
        match self.sims {
            Some(n) => Limits::Simulations(n.max(1)),
            None => Limits::Time(self.time),
        }
    }

    /// The searcher, consulting the `--tb` table when one is given for `board`.
    pub fn searcher(&self, board: Board) -> Result<BreakthroughSearcher, String> {
        let config = self.config()?;
        let Some(path) = &self.tb else {
            return Ok(Searcher::without_oracle(config));
        };
        let table = Tablebase::open_for(path, board).map_err(|e| format!("--tb {e}"))?;
        Ok(Searcher::new(
            config,
            Arc::new(table.with_race_guess(self.race)),
        ))
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "White",
        Side::Second => "Black",
    }
}

/// The moves of a line from `pos`, in move text.
pub fn line_text(pos: &Position, line: &[Move]) -> String {
    let mut p = *pos;
    let mut out = Vec::new();
    for &mv in line {
        out.push(p.move_text(mv));
        p.play(mv);
    }
    out.join(" ")
}

/// The search statistics as lines of text: move, simulations and rate, value, principal
/// variation, proven status and tree size (and every root move with `moves`).
pub fn describe_report(pos: &Position, r: &Report<Move>, moves: bool) -> String {
    let me = side_name(pos.side());
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
            format!("{what} for {me} in {} plies", p.plies)
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
                Some(p) => format!(" proven {:?} in {}", p.result, p.plies),
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

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        for bad in ["500", "abc", "-1s", "0s", "1.5", "ms", "nans"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
