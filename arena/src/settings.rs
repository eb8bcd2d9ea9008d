//! How quasar's MCTS player searches: one set of settings that the command line's engine
//! flags and the arena's `mcts:key=value` specs both fill, and the `mcts::Config` it builds.

use crate::clock::{TimeControl, TimeControlError};
use crate::duration::{format_duration, parse_duration, DurationError};
use mcts::{ChildProbes, Config, Leaf, Limits, Parallelism};
use std::fmt;
use std::num::NonZeroU32;
use std::path::PathBuf;

/// The keys an `mcts:` spec takes, for error messages.
pub const KEYS: &str =
    "tb, rule, every, c, playout, time, sims, tc, threads, parallel, nodes, seed, \
                        eval-after, capture-weight, win-in-one, stop-threats, probe-children, \
                        imb, prior, prior-depth, net, leaf, expand-after, verdicts, guard";

/// The most virtual visits `prior=N` may give a new node.
pub const MAX_PRIOR: u32 = 10_000;

/// The deepest shallow search `prior-depth=D` may ask of every expansion.
pub const MAX_PRIOR_DEPTH: u32 = 4;

/// The fewest tree nodes a search may be given (a smaller budget fills at the first move).
pub const MIN_NODES: usize = 1000;

/// What a game's MCTS uses where the settings name nothing, measured per game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// Playouts consult a table at every this many turns of each side (0: at expansion only).
    pub oracle_every: u32,
    /// UCT's exploration constant.
    pub c: f64,
}

impl Default for SearchDefaults {
    /// A table consulted at every ply, and `mcts::Config`'s exploration constant.
    fn default() -> Self {
        SearchDefaults {
            oracle_every: 1,
            c: Config::<()>::default().c,
        }
    }
}

/// Which playouts the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutKind {
    /// Uniformly random moves to the end of the game (the policy switches are ignored).
    Uniform,
    /// The game's own playout policy with the enhancements the switches leave on.
    Policy,
}

/// How a table's knowledge is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProbeRule {
    /// Only what the table proves (a sound rule), at expansion and in playouts.
    #[default]
    Sound,
    /// Playouts may also stop on the table's looser heuristic rule (for Breakthrough the
    /// thesis' race rule); it never proves a node.
    Race,
}

/// A table file to consult and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// The table file.
    pub path: PathBuf,
    /// How its knowledge is used.
    pub rule: ProbeRule,
}

/// The playout policy's switches; `None` leaves the game's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutSettings {
    /// Uniform or the game's policy.
    pub kind: Option<PlayoutKind>,
    /// Take a win in one move when there is one.
    pub win_in_one: Option<bool>,
    /// Block (capture) a piece that would win next move.
    pub stop_threats: Option<bool>,
    /// Weight of the game's favoured captures against 1 for other moves (1: off).
    pub capture_weight: Option<u32>,
    /// Plies after which the evaluation decides a playout (0: play to the end).
    pub eval_after: Option<u32>,
}

impl PlayoutSettings {
    /// The keys of the switches that are set, in the order `mcts:` specs print them;
    /// `playout` only for `uniform` (the game's own policy is every game's default).
    pub fn given_keys(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.kind == Some(PlayoutKind::Uniform), "playout"),
            (self.eval_after.is_some(), "eval-after"),
            (self.capture_weight.is_some(), "capture-weight"),
            (self.win_in_one.is_some(), "win-in-one"),
            (self.stop_threats.is_some(), "stop-threats"),
        ]
        .into_iter()
        .filter_map(|(given, key)| given.then_some(key))
    }
}

/// Everything that shapes quasar's MCTS player; `None` leaves the default (of `mcts::Config`,
/// of the game's policy, or of the match for the seed and the limit).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineSettings {
    /// The table file to consult (`tb=FILE`).
    pub table: Option<PathBuf>,
    /// How the table is used (`rule=sound|race`); needs a table.
    pub rule: Option<ProbeRule>,
    /// Playouts consult the table at every K-th turn of each side (`every=K`; 0: only at
    /// expansion).
    pub oracle_every: Option<u32>,
    /// UCT's exploration constant (`c=0.4`).
    pub c: Option<f64>,
    /// The playout policy and its switches.
    pub playout: PlayoutSettings,
    /// The per-move limit (`time=100ms` or `sims=20000`).
    pub limit: Option<Limits>,
    /// A clock of this player's own in the arena (`tc=10s+0.1s`), instead of `limit`.
    pub clock: Option<TimeControl>,
    /// Search threads (`threads=2`).
    pub threads: Option<usize>,
    /// How several threads share the work (`parallel=root|tree`).
    pub parallelism: Option<Parallelism>,
    /// The most tree nodes (`nodes=N`).
    pub nodes: Option<usize>,
    /// A fixed seed (`seed=7`).
    pub seed: Option<u64>,
    /// When a new node's children are probed
    /// (`probe-children=expansion|next-visit|first-visit`); needs a table.
    pub child_probes: Option<ChildProbes>,
    /// The weight of implicit minimax backups in selection (`imb=0.4`; 0: off); needs a
    /// game with an evaluation.
    pub imb: Option<f64>,
    /// Virtual visits of node priors from the evaluation (`prior=20`; 0: off); needs a
    /// game with an evaluation.
    pub prior: Option<u32>,
    /// Plies of alpha-beta behind each new node's evaluation (`prior-depth=2`; 0: the
    /// evaluation alone); a forced result it finds proves the node. Needs an evaluation.
    pub prior_depth: Option<u32>,
    /// The learned evaluation behind priors, implicit minimax backups and shallow searches
    /// (`net=FILE|builtin|off`; the game's default when unset).
    pub net: Option<crate::net::NetSpec>,
    /// What scores a simulation at an unproven leaf (`leaf=playout|eval`).
    pub leaf: Option<Leaf>,
    /// Real visits a leaf has before it is expanded (`expand-after=N`, from 1).
    pub expand_after: Option<u32>,
    /// Whether the game's sound verdicts prove nodes at expansion (`verdicts=on|off`).
    pub verdicts: Option<bool>,
    /// The share of each move's time an alpha-beta search spends checking MCTS's choice
    /// (`guard=0.3`; 0: off); needs a game with an evaluation.
    pub guard: Option<f64>,
}

/// A setting that cannot be taken; each message names the key and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// A key no setting has.
    #[error("unknown key '{key}' (keys: {KEYS})")]
    UnknownKey {
        /// The key as given.
        key: String,
    },
    /// An item without `=`.
    #[error("'{item}' is not key=value (keys: {KEYS})")]
    NotKeyValue {
        /// The item as given.
        item: String,
    },
    /// A key given twice.
    #[error("'{key}' is given twice")]
    Twice {
        /// The key.
        key: String,
    },
    /// A value that does not read or is out of range.
    #[error("{key}={value}: {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the value must be.
        expected: &'static str,
    },
    /// Two of `time=`, `sims=` and `tc=`, or one of them twice.
    #[error("'{key}={value}' conflicts with the limit already given ({previous}): give one of time=, sims= or tc=, once")]
    LimitTwice {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// The limit given before, as text.
        previous: String,
    },
    /// A table option without a table.
    #[error("'{key}' needs a tablebase: add tb=FILE")]
    NeedsTable {
        /// The key.
        key: String,
    },
    /// A `time=` value that is not a duration.
    #[error("time: {0}")]
    Duration(#[from] DurationError),
    /// A `tc=` value that is not a time control.
    #[error("tc: {0}")]
    TimeControl(#[from] TimeControlError),
}

/// A player's own limit as text, for a conflict: `100ms`, `5000 sims` or `10s+100ms clock`.
fn own_limit_text(limit: Option<Limits>, clock: Option<TimeControl>) -> Option<String> {
    match (limit, clock) {
        (Some(l), _) => Some(limit_text(l)),
        (None, Some(tc)) => Some(format!("{tc} clock")),
        (None, None) => None,
    }
}

/// A per-move limit as text: `100ms` or `5000 sims`.
pub fn limit_text(limit: Limits) -> String {
    match limit {
        Limits::Time(d) => format_duration(d),
        Limits::Simulations(n) => format!("{n} sims"),
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, SettingError> {
    match value {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(bad(key, value, "use on or off")),
    }
}

/// The largest exploration constant accepted: far beyond it UCT's exploration term swamps
/// the results, and a huge one (`1e300`) overflows the arithmetic.
pub const MAX_EXPLORATION: f64 = 100.0;

/// The exploration constant `text` gives (`c=` and `--c`): a number from 0 to
/// [`MAX_EXPLORATION`]; else what it must be.
pub fn exploration(text: &str) -> Result<f64, &'static str> {
    match text.parse::<f64>() {
        // `contains` is false for NaN.
        Ok(c) if (0.0..=MAX_EXPLORATION).contains(&c) => Ok(c),
        _ => Err("the exploration constant must be a number from 0 to 100, such as 0.4"),
    }
}

fn bad(key: &str, value: &str, expected: &'static str) -> SettingError {
    SettingError::BadValue {
        key: key.into(),
        value: value.into(),
        expected,
    }
}

fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    expected: &'static str,
) -> Result<T, SettingError> {
    value.parse().map_err(|_| bad(key, value, expected))
}

impl EngineSettings {
    /// Reads `key=value,...` (the part of an `mcts:` spec after the colon); an empty text
    /// gives the defaults.
    pub fn parse_keys(text: &str) -> Result<EngineSettings, SettingError> {
        let mut s = EngineSettings::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SettingError::NotKeyValue { item: item.into() })?;
            s.set(key.trim(), value.trim())?;
        }
        for (key, given) in [
            ("rule", s.rule.is_some()),
            ("every", s.oracle_every.is_some()),
            ("probe-children", s.child_probes.is_some()),
        ] {
            if given && s.table.is_none() {
                return Err(SettingError::NeedsTable { key: key.into() });
            }
        }
        Ok(s)
    }

    /// The table to consult and how, when one is set.
    pub fn table_spec(&self) -> Option<TableSpec> {
        self.table.as_ref().map(|path| TableSpec {
            path: path.clone(),
            rule: self.rule.unwrap_or_default(),
        })
    }

    /// Sets one key (`_` and `-` alike) from its text; a key may be set once.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let key = key.replace('_', "-");
        let key = key.as_str();
        if value.is_empty() {
            return Err(bad(key, value, "give a value"));
        }
        let twice = || SettingError::Twice { key: key.into() };
        fn once<T>(
            slot: &mut Option<T>,
            v: T,
            twice: impl Fn() -> SettingError,
        ) -> Result<(), SettingError> {
            if slot.is_some() {
                return Err(twice());
            }
            *slot = Some(v);
            Ok(())
        }
        match key {
            "tb" => once(&mut self.table, PathBuf::from(value), twice)?,
            "rule" => {
                let rule = match value {
                    "sound" => ProbeRule::Sound,
                    "race" => ProbeRule::Race,
                    _ => return Err(bad(key, value, "use rule=sound or rule=race")),
                };
                once(&mut self.rule, rule, twice)?;
            }
            "every" => once(
                &mut self.oracle_every,
                number(
                    key,
                    value,
                    "expected a whole number of plies (0: only at expansion)",
                )?,
                twice,
            )?,
            "c" => {
                let c = exploration(value).map_err(|why| bad(key, value, why))?;
                once(&mut self.c, c, twice)?;
            }
            "playout" => {
                let kind = match value {
                    "uniform" => PlayoutKind::Uniform,
                    "full" | "policy" => PlayoutKind::Policy,
                    _ => return Err(bad(key, value, "use playout=uniform or playout=full")),
                };
                once(&mut self.playout.kind, kind, twice)?;
            }
            "sims" | "time" | "tc" => {
                if let Some(previous) = own_limit_text(self.limit, self.clock) {
                    return Err(SettingError::LimitTwice {
                        key: key.into(),
                        value: value.into(),
                        previous,
                    });
                }
                if key == "tc" {
                    self.clock = Some(value.parse()?);
                    return Ok(());
                }
                self.limit = Some(if key == "sims" {
                    let n: u64 = number(key, value, "expected a whole number")?;
                    if n == 0 {
                        return Err(bad(key, value, "at least one simulation is needed"));
                    }
                    Limits::Simulations(n)
                } else {
                    Limits::Time(parse_duration(value)?)
                });
            }
            "threads" => {
                let n: usize = number(key, value, "expected a whole number")?;
                if n == 0 || n > 256 {
                    return Err(bad(key, value, "give 1 to 256 threads"));
                }
                once(&mut self.threads, n, twice)?;
            }
            "parallel" => {
                let p = match value {
                    "root" => Parallelism::Root,
                    "tree" => Parallelism::Tree,
                    _ => return Err(bad(key, value, "use parallel=root or parallel=tree")),
                };
                once(&mut self.parallelism, p, twice)?;
            }
            "nodes" => {
                let n: usize = number(key, value, "expected a whole number")?;
                if n < MIN_NODES {
                    return Err(bad(key, value, "give at least 1000 nodes"));
                }
                once(&mut self.nodes, n, twice)?;
            }
            "seed" => once(
                &mut self.seed,
                number(key, value, "expected a whole number")?,
                twice,
            )?,
            "eval-after" => once(
                &mut self.playout.eval_after,
                number(
                    key,
                    value,
                    "expected a whole number of plies (0: play to the end)",
                )?,
                twice,
            )?,
            "capture-weight" => {
                let w: u32 = number(key, value, "expected a whole number from 1 to 1000")?;
                if !(1..=1000).contains(&w) {
                    return Err(bad(key, value, "expected a whole number from 1 to 1000"));
                }
                once(&mut self.playout.capture_weight, w, twice)?;
            }
            "imb" => {
                let a: f64 = number(key, value, "expected a weight from 0 to 1, such as 0.4")?;
                if !(0.0..=1.0).contains(&a) {
                    return Err(bad(key, value, "the weight must be from 0 to 1 (0: off)"));
                }
                once(&mut self.imb, a, twice)?;
            }
            "prior" => {
                let n: u32 = number(key, value, "expected a whole number of virtual visits")?;
                if n > MAX_PRIOR {
                    return Err(bad(
                        key,
                        value,
                        "give at most 10000 virtual visits (0: off)",
                    ));
                }
                once(&mut self.prior, n, twice)?;
            }
            "prior-depth" => {
                let d: u32 = number(key, value, "expected a whole number of plies from 0 to 4")?;
                if d > MAX_PRIOR_DEPTH {
                    return Err(bad(
                        key,
                        value,
                        "give at most 4 plies (0: the evaluation alone)",
                    ));
                }
                once(&mut self.prior_depth, d, twice)?;
            }
            "net" => once(
                &mut self.net,
                crate::net::NetSpec::parse(value).map_err(|e| bad(key, value, e))?,
                twice,
            )?,
            "leaf" => once(
                &mut self.leaf,
                match value {
                    "playout" => Leaf::Playout,
                    "eval" => Leaf::Evaluation,
                    _ => return Err(bad(key, value, "expected playout or eval")),
                },
                twice,
            )?,
            "expand-after" => {
                let n: u32 = number(
                    key,
                    value,
                    "expected a whole number of visits from 1 to 1000",
                )?;
                if !(1..=1000).contains(&n) {
                    return Err(bad(
                        key,
                        value,
                        "expected a whole number of visits from 1 to 1000",
                    ));
                }
                once(&mut self.expand_after, n, twice)?;
            }
            "verdicts" => once(&mut self.verdicts, on_off(key, value)?, twice)?,
            "guard" => {
                let a: f64 = number(key, value, "expected a share of the time, such as 0.3")?;
                if !(0.0..=0.9).contains(&a) {
                    return Err(bad(key, value, "the share must be from 0 to 0.9 (0: off)"));
                }
                once(&mut self.guard, a, twice)?;
            }
            "win-in-one" => once(&mut self.playout.win_in_one, on_off(key, value)?, twice)?,
            "stop-threats" => once(&mut self.playout.stop_threats, on_off(key, value)?, twice)?,
            "probe-children" => {
                let when = match value {
                    "expansion" => ChildProbes::Expansion,
                    "next-visit" => ChildProbes::NextVisit,
                    "first-visit" => ChildProbes::FirstVisit,
                    _ => {
                        return Err(bad(
                            key,
                            value,
                            "use probe-children=expansion, next-visit or first-visit",
                        ))
                    }
                };
                once(&mut self.child_probes, when, twice)?;
            }
            _ => return Err(SettingError::UnknownKey { key: key.into() }),
        }
        Ok(())
    }

    /// The search configuration with `policy` (built by the game from [`Self::playout`]);
    /// `seed` serves when the settings fix none, the game's `defaults`
    /// ([`GameSetup::search_defaults`](crate::setup::GameSetup::search_defaults)) for
    /// `every` and `c` when they name none.
    pub fn config<P>(&self, policy: P, seed: u64, defaults_of_game: SearchDefaults) -> Config<P> {
        let defaults = Config {
            playout: (),
            ..Config::<()>::default()
        };
        Config {
            c: self.c.unwrap_or(defaults_of_game.c),
            playout: policy,
            node_budget: self.nodes.unwrap_or(defaults.node_budget),
            threads: self.threads.unwrap_or(defaults.threads),
            parallelism: self.parallelism.unwrap_or(defaults.parallelism),
            oracle_in_playouts: NonZeroU32::new(
                self.oracle_every.unwrap_or(defaults_of_game.oracle_every),
            ),
            expand_after: self.expand_after.unwrap_or(defaults.expand_after),
            child_probes: self.child_probes.unwrap_or(defaults.child_probes),
            max_playout_plies: defaults.max_playout_plies,
            seed: self.seed.unwrap_or(seed),
            // The game's defaults apply in `GameSetup::mcts_config`, which knows whether
            // the game has an evaluation.
            imb: self.imb.unwrap_or(defaults.imb),
            prior: self.prior.unwrap_or(defaults.prior),
            prior_depth: self.prior_depth.unwrap_or(defaults.prior_depth),
            leaf: self.leaf.unwrap_or(defaults.leaf),
        }
    }
}

impl fmt::Display for EngineSettings {
    /// The keys that are set, in a fixed order, as `parse_keys` reads them back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys: Vec<String> = Vec::new();
        if let Some(t) = &self.table {
            keys.push(format!("tb={}", t.display()));
        }
        match self.rule {
            Some(ProbeRule::Sound) => keys.push("rule=sound".into()),
            Some(ProbeRule::Race) => keys.push("rule=race".into()),
            None => {}
        }
        if let Some(c) = self.c {
            keys.push(format!("c={c}"));
        }
        match self.playout.kind {
            Some(PlayoutKind::Uniform) => keys.push("playout=uniform".into()),
            Some(PlayoutKind::Policy) => keys.push("playout=full".into()),
            None => {}
        }
        match self.limit {
            Some(Limits::Time(d)) => keys.push(format!("time={}", format_duration(d))),
            Some(Limits::Simulations(n)) => keys.push(format!("sims={n}")),
            None => {}
        }
        if let Some(tc) = self.clock {
            keys.push(format!("tc={tc}"));
        }
        if let Some(t) = self.threads {
            keys.push(format!("threads={t}"));
        }
        match self.parallelism {
            Some(Parallelism::Root) => keys.push("parallel=root".into()),
            Some(Parallelism::Tree) => keys.push("parallel=tree".into()),
            None => {}
        }
        if let Some(n) = self.nodes {
            keys.push(format!("nodes={n}"));
        }
        if let Some(s) = self.seed {
            keys.push(format!("seed={s}"));
        }
        if let Some(k) = self.oracle_every {
            keys.push(format!("every={k}"));
        }
        if let Some(when) = self.child_probes {
            keys.push(format!(
                "probe-children={}",
                match when {
                    ChildProbes::Expansion => "expansion",
                    ChildProbes::NextVisit => "next-visit",
                    ChildProbes::FirstVisit => "first-visit",
                }
            ));
        }
        if let Some(n) = self.playout.eval_after {
            keys.push(format!("eval-after={n}"));
        }
        if let Some(w) = self.playout.capture_weight {
            keys.push(format!("capture-weight={w}"));
        }
        let word = |on: bool| if on { "on" } else { "off" };
        if let Some(on) = self.playout.win_in_one {
            keys.push(format!("win-in-one={}", word(on)));
        }
        if let Some(on) = self.playout.stop_threats {
            keys.push(format!("stop-threats={}", word(on)));
        }
        if let Some(a) = self.imb {
            keys.push(format!("imb={a}"));
        }
        if let Some(n) = self.prior {
            keys.push(format!("prior={n}"));
        }
        if let Some(d) = self.prior_depth {
            keys.push(format!("prior-depth={d}"));
        }
        if let Some(n) = &self.net {
            keys.push(format!("net={n}"));
        }
        if let Some(l) = self.leaf {
            keys.push(format!(
                "leaf={}",
                if l == Leaf::Evaluation {
                    "eval"
                } else {
                    "playout"
                }
            ));
        }
        if let Some(n) = self.expand_after {
            keys.push(format!("expand-after={n}"));
        }
        if let Some(on) = self.verdicts {
            keys.push(format!("verdicts={}", word(on)));
        }
        if let Some(a) = self.guard {
            keys.push(format!("guard={a}"));
        }
        f.write_str(&keys.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults of a game whose playouts consult a table at every `k`-th turn.
    fn every(k: u32) -> SearchDefaults {
        SearchDefaults {
            oracle_every: k,
            ..SearchDefaults::default()
        }
    }
    use std::time::Duration;

    #[test]
    fn every_key_reads_and_prints_back() {
        let text = "tb=t.qtb,rule=race,c=0.4,playout=uniform,time=250ms,threads=2,parallel=tree,\
                    nodes=5000,seed=9,every=4,probe-children=next-visit,eval-after=0,capture-weight=2,\
                    win-in-one=off,stop-threats=on,imb=0.4,prior=20,prior-depth=2,verdicts=off";
        let s = EngineSettings::parse_keys(text).unwrap();
        assert_eq!(
            s.table_spec(),
            Some(TableSpec {
                path: "t.qtb".into(),
                rule: ProbeRule::Race
            })
        );
        assert_eq!(s.limit, Some(Limits::Time(Duration::from_millis(250))));
        assert_eq!(s.playout.eval_after, Some(0));
        assert_eq!(s.playout.win_in_one, Some(false));
        assert_eq!((s.imb, s.prior), (Some(0.4), Some(20)));
        assert_eq!(s.prior_depth, Some(2));
        assert_eq!(s.config((), 1, SearchDefaults::default()).prior_depth, 2);
        assert_eq!(
            (
                s.config((), 1, SearchDefaults::default()).imb,
                s.config((), 1, SearchDefaults::default()).prior
            ),
            (0.4, 20)
        );
        assert_eq!(
            s.config((), 1, SearchDefaults::default()).child_probes,
            ChildProbes::NextVisit
        );
        let d = EngineSettings::default().config((), 1, SearchDefaults::default());
        assert_eq!(d.child_probes, ChildProbes::Expansion);
        assert_eq!(s.to_string(), text.replace(' ', ""));
        assert_eq!(EngineSettings::parse_keys(&s.to_string()).unwrap(), s);
        assert_eq!(
            EngineSettings::parse_keys("").unwrap(),
            EngineSettings::default()
        );
    }

    #[test]
    fn the_config_takes_what_is_set_and_defaults_the_rest() {
        let s = EngineSettings::parse_keys("tb=t,c=0.3,nodes=4000,parallel=tree,every=0").unwrap();
        let c = s.config("policy", 77, every(1));
        assert_eq!(
            (c.c, c.node_budget, c.parallelism),
            (0.3, 4000, Parallelism::Tree)
        );
        assert_eq!(
            (c.oracle_in_playouts, c.seed, c.playout),
            (None, 77, "policy")
        );
        let d = EngineSettings::default().config((), 5, every(1));
        let want = Config::<()>::default();
        assert_eq!(
            (d.c, d.node_budget, d.threads),
            (want.c, want.node_budget, 1)
        );
        assert_eq!(d.oracle_in_playouts, want.oracle_in_playouts);
        let by_game = EngineSettings::default().config((), 5, every(0));
        assert_eq!(
            by_game.oracle_in_playouts, None,
            "the game's default when unset"
        );
        let set = EngineSettings::parse_keys("tb=t,every=3")
            .unwrap()
            .config((), 5, every(0));
        assert_eq!(
            set.oracle_in_playouts,
            NonZeroU32::new(3),
            "a set key beats the game"
        );
        let fixed = EngineSettings::parse_keys("seed=3")
            .unwrap()
            .config((), 5, every(1));
        assert_eq!(fixed.seed, 3);
    }

    #[test]
    fn bad_settings_say_why() {
        let cases = [
            ("depth=3", "unknown key 'depth'"),
            ("c=fast", "c=fast"),
            ("c=-1", "from 0 to 100"),
            (
                "c=1e300",
                "c=1e300: the exploration constant must be a number from 0 to 100",
            ),
            ("c=100.5", "from 0 to 100"),
            ("c=NaN", "from 0 to 100"),
            ("playout=smart", "playout=uniform or playout=full"),
            ("time=100", "no unit"),
            ("time=100ms,sims=5", "conflicts"),
            ("sims=0", "at least one simulation"),
            ("threads=0", "threads=0"),
            ("nodes=10", "at least 1000"),
            ("parallel=both", "parallel=root or parallel=tree"),
            ("win-in-one=maybe", "on or off"),
            ("tb", "not key=value"),
            ("tb=a,tb=b", "twice"),
            ("rule=race", "needs a tablebase"),
            ("rule=sound", "needs a tablebase"),
            ("every=4", "needs a tablebase"),
            ("probe-children=expansion", "needs a tablebase"),
            (
                "tb=x,probe-children=never",
                "expansion, next-visit or first-visit",
            ),
            ("tb=x,every=-1", "every=-1"),
            ("capture-weight=0", "1 to 1000"),
            ("imb=-0.1", "from 0 to 1"),
            ("imb=1.5", "from 0 to 1"),
            ("imb=NaN", "from 0 to 1"),
            ("imb=much", "imb=much"),
            ("prior=-3", "prior=-3"),
            ("prior=20000", "at most 10000"),
            ("prior-depth=5", "at most 4 plies"),
            ("prior-depth=-1", "prior-depth=-1"),
            ("prior-depth=deep", "prior-depth=deep"),
            ("imb=0.4,imb=0.3", "twice"),
            ("guard=0.95", "from 0 to 0.9"),
            ("guard=-0.2", "from 0 to 0.9"),
            ("guard=NaN", "from 0 to 0.9"),
            ("guard=some", "guard=some"),
        ];
        for (text, want) in cases {
            let e = EngineSettings::parse_keys(text)
                .expect_err(text)
                .to_string();
            assert!(e.contains(want), "{text}: '{e}' should mention '{want}'");
        }
    }
}
