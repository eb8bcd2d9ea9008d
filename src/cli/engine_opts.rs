//! Search options shared by `bestmove`, `play` and `gtp` (they fill the same
//! [`EngineSettings`] as the arena's `mcts:` specs), and the text of a search report.

use super::output::{length_text, result_word};
use clap::{Arg, ArgAction, ArgMatches, Command};
use engine::ab_player::{AbSettings, MAX_HASH_MIB};
use engine::duration::parse_duration;
use engine::engine::{DefaultEngine, EngineChoice, EngineReport, SearcherSettings};
use engine::net::NetSpec;
use engine::settings::options::{EngineOption, Scope, OPTIONS};
use engine::settings::{EngineSettings, MIN_NODES};
use engine::setup::GameSetup;
use mcts::Report;
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

/// Reads `--net` as the `net=` key reads it.
fn net_spec(text: &str) -> Result<NetSpec, String> {
    NetSpec::parse(text).map_err(String::from)
}

/// Reads `--c` as the `c=` key reads it.
fn exploration(text: &str) -> Result<f64, String> {
    engine::settings::exploration(text).map_err(str::to_string)
}

/// Reads `--quiesce` as the `quiesce=` keys of both searches read it.
fn quiescence(text: &str) -> Result<u32, String> {
    engine::settings::quiescence(text).map_err(str::to_string)
}

/// Reads `--nodes`: at least [`MIN_NODES`].
fn nodes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= MIN_NODES => Ok(n),
        Ok(n) => Err(format!("{n} is too small: give at least {MIN_NODES}")),
        Err(_) => Err(format!("'{text}' is not a whole number of nodes")),
    }
}

/// A flag that is also a key: its value is read by the key's own parser
/// ([`EngineSettings::set`] for an `mcts:` key, else [`AbSettings::set`]), so the flag and
/// the key take the same values.
fn key(
    option: &'static EngineOption,
) -> impl Fn(&str) -> Result<String, String> + Clone + Send + Sync {
    move |text: &str| {
        let read = if option.mcts_key {
            EngineSettings::default()
                .set(option.name, text)
                .map_err(|e| e.to_string())
        } else {
            AbSettings::default()
                .set(option.name, text)
                .map_err(|e| e.to_string())
        };
        read.map(|()| text.to_string())
    }
}

/// The flag of `option`, with its name, aliases, value name and help from the table. Most
/// flags read their values with their key's parser; a few have a type of their own, which
/// gives the help its list of values or the error its range, and accepts no more than the
/// key does.
fn flag(option: &'static EngineOption) -> Arg {
    use clap::builder::EnumValueParser;
    use clap::value_parser;
    let arg = Arg::new(option.name)
        .long(option.name)
        .aliases(option.aliases)
        .value_name(option.value_name)
        .help(option.help_with(&crate::games::option_texts(option)))
        .action(ArgAction::Set);
    let arg = match option.name {
        "engine" => arg.value_parser(EnumValueParser::<EngineKind>::new()),
        "time" => arg.value_parser(parse_duration).default_value("100ms"),
        "sims" => arg.value_parser(simulations),
        "seed" => arg.value_parser(value_parser!(u64)).default_value("1"),
        "tb" => arg.value_parser(value_parser!(PathBuf)),
        "table-cache" => arg.value_parser(|text: &str| quasar_file::cache::parse_cache_size(text)),
        "net" => arg.value_parser(net_spec),
        "depth" => arg.value_parser(value_parser!(u32).range(1..=64)),
        "quiesce" => arg.value_parser(quiescence),
        "hash" => arg.value_parser(value_parser!(u64).range(1..=MAX_HASH_MIB as u64)),
        "eval" => arg.value_parser(EnumValueParser::<EvalKind>::new()),
        "threads" => arg.value_parser(value_parser!(u32).range(1..=256)),
        "parallel" => arg.value_parser(EnumValueParser::<ParallelArg>::new()),
        "c" => arg.value_parser(exploration),
        "nodes" => arg.value_parser(nodes),
        _ => arg.value_parser(key(option)),
    };
    if option.needs_table {
        arg.requires("tb")
    } else {
        arg
    }
}

/// Every engine flag of the table and its hidden switches (`--race`, `--no-verdicts`).
fn flags() -> impl Iterator<Item = Arg> {
    OPTIONS.iter().filter(|o| o.flag).flat_map(|option| {
        let switches = option.switches.iter().map(move |switch| {
            let arg = Arg::new(switch.flag)
                .long(switch.flag)
                .hide(true)
                .action(ArgAction::SetTrue)
                .conflicts_with(option.name);
            if option.needs_table {
                arg.requires("tb")
            } else {
                arg
            }
        });
        std::iter::once(flag(option)).chain(switches)
    })
}

/// How the engine searches: a flag for each option of the engine's table ([`OPTIONS`]), of
/// the same name as its `mcts:` or `ab:` key (`--every 2` is `every=2`) and read by the same
/// parser; the flags' old names stay as hidden aliases. The options of both searches are
/// typed fields; each search's own options are kept as text, which its settings read.
#[derive(Clone, Debug)]
pub struct EngineArgs {
    /// `--engine`: the search.
    pub engine: Option<EngineKind>,
    /// `--time`: the time per move.
    pub time: Duration,
    /// `--sims`: simulations (alpha-beta: nodes) per move instead of the time.
    pub sims: Option<u64>,
    /// `--seed`: the seed of the random numbers.
    pub seed: u64,
    /// `--tb`: a table to consult.
    pub tb: Option<PathBuf>,
    /// `--table-cache`: the cache a compressed table larger than it is read through, in
    /// bytes.
    pub table_cache: Option<u64>,
    /// `--net`: the learned evaluation.
    pub net: Option<NetSpec>,
    /// `--quiesce`: the most plies past the horizon through positions that are not quiet.
    pub quiesce: Option<u32>,
    /// The options of one search given, each with its text (a switch as the value it stands
    /// for), in the command line's order.
    given: Vec<(&'static EngineOption, String)>,
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(flags())
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        cmd.args(flags())
    }
}

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for option in OPTIONS.iter().filter(|o| o.flag && o.scope != Scope::Both) {
            if let Some(text) = m.get_raw(option.name).and_then(|mut v| v.next()) {
                let text = text.to_string_lossy().into_owned();
                given.push((m.index_of(option.name), option, text));
            }
            for switch in option.switches.iter().filter(|s| m.get_flag(s.flag)) {
                given.push((m.index_of(switch.flag), option, switch.value.to_string()));
            }
        }
        given.sort_by_key(|&(at, _, _)| at);
        Ok(EngineArgs {
            engine: m.get_one::<EngineKind>("engine").copied(),
            time: *m.get_one::<Duration>("time").expect("a default"),
            sims: m.get_one::<u64>("sims").copied(),
            seed: *m.get_one::<u64>("seed").expect("a default"),
            tb: m.get_one::<PathBuf>("tb").cloned(),
            table_cache: m.get_one::<u64>("table-cache").copied(),
            net: m.get_one::<NetSpec>("net").cloned(),
            quiesce: m.get_one::<u32>("quiesce").copied(),
            given: given.into_iter().map(|(_, o, text)| (o, text)).collect(),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl EngineArgs {
    /// The options of `scope`'s search given, as key and value.
    fn given(&self, scope: Scope) -> impl Iterator<Item = (&'static str, &str)> {
        self.given
            .iter()
            .filter(move |(o, _)| o.scope == scope)
            .map(|(o, text)| (o.name, text.as_str()))
    }

    /// The settings these options describe: the same builder the arena's specs fill.
    pub fn settings(&self) -> EngineSettings {
        let mut s = EngineSettings {
            table: self.tb.clone(),
            table_cache: self.table_cache,
            limit: Some(self.limits()),
            seed: Some(self.seed),
            net: self.net.clone(),
            quiesce: self.quiesce,
            ..EngineSettings::default()
        };
        for (key, value) in self.given(Scope::Mcts) {
            // Each value was read by this key's parser, or a stricter one, when parsed.
            s.set(key, value)
                .expect("a flag's value reads as its key's");
        }
        s
    }

    /// Alpha-beta's settings from these options, with the evaluation of the game's `default`
    /// player where it is alpha-beta and neither `--eval` nor `--net` names one. The limit is the choice's, not a setting: alpha-beta's settings
    /// hold a time and no node count.
    fn ab_settings(&self, default: Option<DefaultEngine>) -> AbSettings {
        let mut s = AbSettings {
            table: self.tb.clone(),
            table_cache: self.table_cache,
            net: self.net.clone(),
            quiesce: self.quiesce,
            ..AbSettings::default()
        };
        for (key, value) in self.given(Scope::AlphaBeta) {
            s.set(key, value)
                .expect("a flag's value reads as its key's");
        }
        // The default evaluation yields to whichever one the user chose, model or not.
        if s.eval.is_none() && s.net.is_none() {
            match default {
                Some(DefaultEngine::AlphaBeta(eval)) => s.eval = Some(eval),
                Some(DefaultEngine::LearnedAlphaBeta) => s.net = Some(NetSpec::Builtin),
                Some(DefaultEngine::Mcts) | None => {}
            }
        }
        s
    }

    /// The first MCTS-only option given, by its flag's name.
    fn mcts_option(&self) -> Option<&'static str> {
        self.given(Scope::Mcts).next().map(|(key, _)| key)
    }

    /// The first alpha-beta-only option given, by its flag's name.
    fn ab_option(&self) -> Option<&'static str> {
        self.given(Scope::AlphaBeta).next().map(|(key, _)| key)
    }

    /// The searcher these options choose for `setup`, or why they do not fit together
    /// (alpha-beta options with MCTS, MCTS options with alpha-beta, a playout switch the
    /// game's policy does not have). Without `--engine` one engine's own options select
    /// it, and none select the game's default player.
    pub fn choice<S: GameSetup>(&self, setup: &S) -> Result<EngineChoice, String> {
        let (mcts_option, ab_option) = (self.mcts_option(), self.ab_option());
        let (kind, default) = match (self.engine, mcts_option, ab_option) {
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
                ab => (EngineKind::Ab, Some(ab)),
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
                Ok(EngineChoice {
                    searcher: SearcherSettings::AlphaBeta(self.ab_settings(default)),
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

/// The moves of a line from `pos`, in move text (up to its first illegal move).
pub fn line_text<G: Game>(pos: &G, line: &[G::Move]) -> String {
    engine::player::line_texts(pos, line).join(" ")
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

#[cfg(test)]
mod table_tests;
