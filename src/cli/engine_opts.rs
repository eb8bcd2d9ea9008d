//! Search options shared by `bestmove`, `play` and `gtp` (they fill the same
//! [`EngineSettings`] as the arena's `mcts:` specs), and the text of a search report.

use super::output::{length_text, result_word};
use engine::ab_player::{AbEval, AbSettings};
use engine::duration::parse_duration;
use engine::engine::{DefaultEngine, EngineChoice, EngineReport, SearcherSettings};
use engine::net::NetSpec;
use engine::settings::{EngineSettings, MIN_NODES};
use engine::setup::GameSetup;
use mcts::{Parallelism, Report};
use quasar_core::progress::{SearchInfo, SearchValue};
use quasar_core::Limit;
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

/// Which of the game's evaluations alpha-beta searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalKind {
    /// Its own (for Breakthrough the reference: material, advancement, piece safety)
    Ab,
    /// MCTS's (for Breakthrough the same with each piece on its home row weighted)
    Mcts,
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

/// Reads `--c` as the `c=` key reads it.
fn net_spec(text: &str) -> Result<NetSpec, String> {
    NetSpec::parse(text).map_err(String::from)
}

fn exploration(text: &str) -> Result<f64, String> {
    engine::settings::exploration(text).map_err(str::to_string)
}

/// Reads `--nodes`: at least [`MIN_NODES`].
fn nodes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= MIN_NODES => Ok(n),
        Ok(n) => Err(format!("{n} is too small: give at least {MIN_NODES}")),
        Err(_) => Err(format!("'{text}' is not a whole number of nodes")),
    }
}

/// A flag that is also an `mcts:` key: its value is read by the key's own parser
/// ([`EngineSettings::set`]), so the flag and the key take the same values.
fn key(name: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone + Send + Sync {
    move |text: &str| {
        EngineSettings::default()
            .set(name, text)
            .map(|()| text.to_string())
            .map_err(|e| e.to_string())
    }
}

/// How the engine searches. Each MCTS option is a flag of the same name as its `mcts:` key
/// (`--every 2` is `every=2`), read by the same parser; the flags' old names stay as hidden
/// aliases.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// The search: mcts or ab (alpha-beta, its own evaluation unless --eval). --time, --sims
    /// (a node count for ab), --seed and --tb serve both; --depth, --hash and --eval select
    /// ab, the other options mcts [default: the best player found for the game and board:
    /// breakthrough: ab with --eval mcts from 8 rows, mcts below; woodpush: ab;
    /// chinese-checkers: ab; checkers: mcts]
    #[arg(long, value_enum)]
    pub engine: Option<EngineKind>,
    /// Alpha-beta: the deepest iteration, in plies, within --time [default: 64]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Alpha-beta: the transposition table's size in MiB [default: 64]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: Option<u64>,
    /// Alpha-beta: the evaluation it searches with, its own or MCTS's (on 8x8 Breakthrough
    /// alpha-beta with MCTS's is the strongest player found) [default: ab with --engine ab;
    /// without it, the default player's]
    #[arg(long, value_enum)]
    pub eval: Option<EvalKind>,
    /// Time per move, e.g. 500ms, 2s, 1.5s, 900us
    #[arg(long, default_value = "100ms", value_parser = parse_duration)]
    pub time: Duration,
    /// Run exactly this many simulations per move instead of using --time
    #[arg(long, value_parser = simulations)]
    pub sims: Option<u64>,
    /// Seed of the random numbers (identical seeds and --sims give identical moves)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// MCTS: search threads (see --parallel) [default: 1, as every search: a search's
    /// threads are asked for, while work split into independent pieces (the arena's games,
    /// a table's build, a proof's check) takes every core unless --jobs or --threads says]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// MCTS: with --threads above 1, root (a tree per thread) or tree (one shared tree)
    /// [default: root]
    #[arg(long = "parallel", value_enum)]
    pub parallel: Option<ParallelArg>,
    /// UCT exploration constant c of w/n + c*sqrt(ln t / n) [default: 0.4 for Breakthrough,
    /// 0.2 from 8 rows up with --leaf eval, 0.7 for the other games]
    #[arg(long, value_parser = exploration)]
    pub c: Option<f64>,
    /// Playouts: uniform (random moves to the end) or full (the game's policy with the
    /// switches below) [default: full]
    #[arg(long, value_name = "uniform|full", value_parser = key("playout"))]
    pub playout: Option<String>,
    /// Policy: plies after which the evaluation function decides a playout (0: play to the
    /// end) [default: the game's, 20 for Breakthrough]
    #[arg(long, value_name = "N", value_parser = key("eval-after"))]
    pub eval_after: Option<String>,
    /// Policy: weight of captures of undefended pieces against 1 for other moves (1: off)
    /// [default: the game's, 4 for Breakthrough]
    #[arg(long, value_name = "W", value_parser = key("capture-weight"))]
    pub capture_weight: Option<String>,
    /// Policy: take wins in one automatically [default: on]
    #[arg(long, value_name = "on|off", value_parser = key("win-in-one"))]
    pub win_in_one: Option<String>,
    /// Policy: capture pieces that threaten to win next move [default: on]
    #[arg(long, value_name = "on|off", value_parser = key("stop-threats"))]
    pub stop_threats: Option<String>,
    /// Prove nodes at expansion by the game's sound verdicts (Breakthrough: a win on the
    /// next move, a threat no capture answers) [default: on]
    #[arg(long, value_name = "on|off", value_parser = key("verdicts"))]
    pub verdicts: Option<String>,
    #[arg(long, hide = true, conflicts_with = "win_in_one")]
    no_win_in_one: bool,
    #[arg(long, hide = true, conflicts_with = "stop_threats")]
    no_stop_threats: bool,
    #[arg(long, hide = true, conflicts_with = "verdicts")]
    no_verdicts: bool,
    /// Implicit minimax backups: weight alpha of the evaluation's minimax value against the
    /// playout mean in selection (0: off) [default: the game's]
    #[arg(long, value_name = "ALPHA", value_parser = key("imb"))]
    pub imb: Option<String>,
    /// Node priors: virtual visits each new node starts with, scored at the evaluation's
    /// winning chance (0: off) [default: the game's]
    #[arg(long, value_name = "N", value_parser = key("prior"))]
    pub prior: Option<String>,
    /// Plies of alpha-beta over the evaluation behind each new node's value (0: the
    /// evaluation alone); a forced result it finds proves the node [default: the game's]
    #[arg(long, value_name = "D", value_parser = key("prior-depth"))]
    pub prior_depth: Option<String>,
    /// What scores a simulation at an unproven leaf: playout (the policy plays it out) or
    /// eval (the evaluation's winning chance, no playout; needs --imb or --prior above 0)
    /// [default: the game's]
    #[arg(long, value_name = "playout|eval", value_parser = key("leaf"))]
    pub leaf: Option<String>,
    /// Real visits a leaf has before it is expanded [default: 1]
    #[arg(long, value_name = "N", value_parser = key("expand-after"))]
    pub expand_after: Option<String>,
    /// Blunder guard: the share of each move's time a short alpha-beta search spends
    /// checking MCTS's choice, vetoing a move that lets the opponent force a win (0: off)
    /// [default: the game's]
    #[arg(long, value_name = "SHARE", value_parser = key("guard"))]
    pub guard: Option<String>,
    /// Forced-result checks: each node that reaches VISITS real visits is searched PLIES
    /// deep for a forced win or loss, which proves it (off: none) [default: the game's]
    #[arg(long, value_name = "VISITS/PLIES", value_parser = key("check"))]
    pub check: Option<String>,
    /// MCTS: most tree nodes (24 bytes each on 8x8 Breakthrough) [default: 8388608]
    #[arg(long, value_parser = nodes)]
    pub nodes: Option<usize>,
    /// Tablebase file (from `quasar tablebase build`) to consult at expansion and in playouts
    #[arg(long, value_name = "FILE")]
    pub tb: Option<PathBuf>,
    /// The learned evaluation both engines search with: a model file from `quasar train
    /// fit`, builtin (the model the game ships for the board) or off (the hand-written
    /// evaluation) [default: builtin for MCTS where the game ships a model, else off]
    #[arg(long, value_name = "FILE|builtin|off", value_parser = net_spec)]
    pub net: Option<NetSpec>,
    /// With --tb: consult the table inside playouts at every K-th turn of each side (1:
    /// every ply; 0: only at expansion) [default: the game's; for Breakthrough every ply up
    /// to 7 rows, 0 from 8]
    #[arg(long, value_name = "K", alias = "oracle-every", requires = "tb", value_parser = key("every"))]
    pub every: Option<String>,
    /// With --tb: sound (only what the table proves) or race (playouts also end by the
    /// table's looser rule, Breakthrough's race rule; never a proof) [default: sound]
    #[arg(long, value_name = "sound|race", requires = "tb", value_parser = key("rule"))]
    pub rule: Option<String>,
    #[arg(long, hide = true, requires = "tb", conflicts_with = "rule")]
    race: bool,
    /// With --tb: when a new node's children are probed: expansion, next-visit or
    /// first-visit [default: expansion]
    #[arg(long, value_name = "WHEN", requires = "tb", value_parser = key("probe-children"))]
    pub probe_children: Option<String>,
}

impl EngineArgs {
    /// The options given that are `mcts:` keys, as key and value (the old switches as the
    /// values they stand for).
    fn keyed(&self) -> Vec<(&'static str, &str)> {
        let off = |given: bool| given.then_some("off");
        [
            ("playout", self.playout.as_deref()),
            ("eval-after", self.eval_after.as_deref()),
            ("capture-weight", self.capture_weight.as_deref()),
            (
                "win-in-one",
                self.win_in_one.as_deref().or(off(self.no_win_in_one)),
            ),
            (
                "stop-threats",
                self.stop_threats.as_deref().or(off(self.no_stop_threats)),
            ),
            (
                "verdicts",
                self.verdicts.as_deref().or(off(self.no_verdicts)),
            ),
            ("imb", self.imb.as_deref()),
            ("prior", self.prior.as_deref()),
            ("prior-depth", self.prior_depth.as_deref()),
            ("leaf", self.leaf.as_deref()),
            ("expand-after", self.expand_after.as_deref()),
            ("guard", self.guard.as_deref()),
            ("check", self.check.as_deref()),
            ("every", self.every.as_deref()),
            ("rule", self.rule.as_deref().or(self.race.then_some("race"))),
            ("probe-children", self.probe_children.as_deref()),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
    }

    /// The settings these options describe: the same builder the arena's specs fill.
    pub fn settings(&self) -> EngineSettings {
        let mut s = EngineSettings {
            table: self.tb.clone(),
            c: self.c,
            limit: Some(self.limits()),
            threads: self.threads.map(|t| t as usize),
            parallelism: self.parallel.map(|p| match p {
                ParallelArg::Root => Parallelism::Root,
                ParallelArg::Tree => Parallelism::Tree,
            }),
            nodes: self.nodes,
            seed: Some(self.seed),
            net: self.net.clone(),
            ..EngineSettings::default()
        };
        for (key, value) in self.keyed() {
            // Each value was read by this key's parser when the flag was parsed.
            s.set(key, value)
                .expect("a flag's value reads as its key's");
        }
        s
    }

    /// The first MCTS-only option given, by its flag's name.
    fn mcts_option(&self) -> Option<&'static str> {
        let given = [
            ("c", self.c.is_some()),
            ("threads", self.threads.is_some()),
            ("parallel", self.parallel.is_some()),
            ("nodes", self.nodes.is_some()),
        ];
        self.keyed()
            .first()
            .map(|&(key, _)| key)
            .or_else(|| given.into_iter().find(|&(_, g)| g).map(|(name, _)| name))
    }

    /// The first alpha-beta-only option given, by its flag's name.
    fn ab_option(&self) -> Option<&'static str> {
        [
            ("depth", self.depth.is_some()),
            ("hash", self.hash.is_some()),
            ("eval", self.eval.is_some()),
        ]
        .into_iter()
        .find(|&(_, g)| g)
        .map(|(name, _)| name)
    }

    /// The searcher these options choose for `setup`, or why they do not fit together
    /// (alpha-beta options with MCTS, MCTS options with alpha-beta, a playout switch the
    /// game's policy does not have). Without `--engine` one engine's own options select
    /// it, and none select the game's default player.
    pub fn choice<S: GameSetup>(&self, setup: &S) -> Result<EngineChoice, String> {
        let (mcts_option, ab_option) = (self.mcts_option(), self.ab_option());
        let (kind, default_eval) = match (self.engine, mcts_option, ab_option) {
            (Some(kind), _, _) => (kind, None),
            (None, Some(m), Some(a)) => {
                return Err(format!(
                    "--{m} is an MCTS option and --{a} an alpha-beta one: leave one out, or \
                     name the engine with --engine mcts or --engine ab"
                ))
            }
            (None, Some(_), None) => (EngineKind::Mcts, None),
            (None, None, _) => match setup.default_engine() {
                DefaultEngine::Mcts if ab_option.is_some() => (EngineKind::Ab, None),
                DefaultEngine::Mcts => (EngineKind::Mcts, None),
                DefaultEngine::AlphaBeta(eval) => (EngineKind::Ab, Some(eval)),
            },
        };
        match kind {
            EngineKind::Mcts => {
                if let Some(a) = ab_option {
                    return Err(format!(
                        "--{a} is an alpha-beta option, and the engine is MCTS: add --engine \
                         ab or leave --{a} out"
                    ));
                }
                let settings = self.settings();
                let theirs = setup.playout_keys();
                if let Some(key) = settings.playout.given_keys().find(|k| !theirs.contains(k)) {
                    return Err(format!(
                        "--{key} is not an option of {}: {}",
                        S::NAME,
                        setup.playout_text()
                    ));
                }
                Ok(EngineChoice {
                    searcher: SearcherSettings::Mcts(settings),
                    limit: self.limits(),
                })
            }
            EngineKind::Ab => {
                if let Some(m) = mcts_option {
                    return Err(format!(
                        "--{m} is an MCTS option, and the engine is alpha-beta: add --engine \
                         mcts or leave --{m} out"
                    ));
                }
                let eval = self.eval.map(|e| match e {
                    EvalKind::Ab => AbEval::Ab,
                    EvalKind::Mcts => AbEval::Mcts,
                });
                // The limit is the choice's, not a setting: alpha-beta's settings hold a
                // time and no node count.
                Ok(EngineChoice {
                    searcher: SearcherSettings::AlphaBeta(AbSettings {
                        table: self.tb.clone(),
                        time: None,
                        clock: None,
                        depth: self.depth,
                        hash_mib: self.hash.map(|m| m as usize),
                        eval: eval.or(default_eval),
                        net: self.net.clone(),
                    }),
                    limit: self.limits(),
                })
            }
        }
    }

    /// The per-move limit: `--sims` when given, else `--time`.
    pub fn limits(&self) -> Limit {
        match self.sims {
            Some(n) => Limit::Count(n),
            None => Limit::Time(self.time),
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

/// A search's value as progress and analysis lines write it: MCTS's mean score (`0.537`),
/// alpha-beta's evaluation (`+35`), or a proof with its length when known (`win/9`, `draw`).
pub fn value_text(v: &SearchValue) -> String {
    match *v {
        SearchValue::Mean(m) => format!("{m:.3}"),
        SearchValue::Eval(e) => format!("{e:+}"),
        SearchValue::Proven { result, plies } => match plies {
            Some(n) if result != GameResult::Draw => format!("{}/{n}", result_word(result)),
            _ => result_word(result).to_string(),
        },
    }
}

/// A progress line as text: `info depth 4 value +35 nodes 5120 rate 812000 time 0.006 pv
/// a2-a3 f7-f6` (MCTS: `simulations` for `depth`, a value from 0 to 1).
pub fn info_text<G: Game>(pos: &G, info: &SearchInfo<G::Move>) -> String {
    let what = match (info.depth, info.simulations) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(n)) => format!("simulations {n}"),
        (None, None) => String::new(),
    };
    format!(
        "info {what} value {} nodes {} rate {:.0} time {:.3} pv {}",
        value_text(&info.value),
        info.nodes,
        info.rate(),
        info.elapsed.as_secs_f64(),
        line_text(pos, &info.pv)
    )
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
        score @ alphabeta::Score::Proven { result, .. } => {
            // The same words as MCTS's report.
            let length = match score.known_plies() {
                Some(n) => length_text(n, false),
                None => "(by a table without distances)".to_string(),
            };
            let _ = writeln!(s, "proven {} for {me} {length}", result_word(result));
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
mod tests;
