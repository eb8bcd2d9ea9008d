//! Settings as `key=value` text: reading each key once, with its checks, and printing them back.

use super::options::{self, EngineOption, Scope};
use super::{
    exploration, limit_text, quiescence, EngineSettings, PlayoutKind, ProbeRule, SettingError,
    MAX_PRIOR, MAX_PRIOR_DEPTH, MIN_NODES,
};
use crate::clock::TimeControl;
use crate::duration::{format_duration, parse_duration};
use mcts::{ChildProbes, Leaf, Parallelism};
use quasar_core::Limit;
use quasar_file::cache::{format_cache_size, parse_cache_size};
use std::fmt;
use std::ops::RangeBounds;
use std::path::PathBuf;

/// A player's own limit as text, for a conflict: `100ms`, `5000 sims` or `10s+100ms clock`.
fn own_limit_text(limit: Option<Limit>, clock: Option<TimeControl>) -> Option<String> {
    match (limit, clock) {
        (Some(l), _) => Some(limit_text(l)),
        (None, Some(tc)) => Some(format!("{tc} clock")),
        (None, None) => None,
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, SettingError> {
    match value {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(bad(key, value, "use on or off")),
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

/// `value` as a number in `range`: `expected` when it is no number, `outside` when it is
/// one out of the range.
fn within<T: std::str::FromStr + PartialOrd>(
    key: &str,
    value: &str,
    range: impl RangeBounds<T>,
    expected: &'static str,
    outside: &'static str,
) -> Result<T, SettingError> {
    let n = number(key, value, expected)?;
    if !range.contains(&n) {
        return Err(bad(key, value, outside));
    }
    Ok(n)
}

/// The option of the `mcts:` key `key` (`_` and `-` alike), or the error that lists the keys.
fn option(key: &str) -> Result<&'static EngineOption, SettingError> {
    let key = key.replace('_', "-");
    options::key_of(Scope::Mcts, &key).ok_or(SettingError::UnknownKey { key })
}

impl EngineSettings {
    /// Reads `key=value,...` (the part of an `mcts:` spec after the colon); an empty text
    /// gives the defaults.
    pub fn parse_keys(text: &str) -> Result<EngineSettings, SettingError> {
        let mut s = EngineSettings::default();
        let mut needs_table = None;
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SettingError::NotKeyValue { item: item.into() })?;
            let option = option(key.trim())?;
            s.set(option.name, value.trim())?;
            if option.needs_table {
                needs_table = needs_table.or(Some(option.name));
            }
        }
        match needs_table {
            Some(key) if s.table.is_none() => Err(SettingError::NeedsTable { key: key.into() }),
            _ => Ok(s),
        }
    }

    /// Sets one key (`_` and `-` alike) from its text; a key may be set once.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let key = option(key)?.name;
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
            "table-cache" => {
                let bytes = parse_cache_size(value).map_err(|why| bad(key, value, why))?;
                once(&mut self.table_cache, bytes, twice)?;
            }
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
                    Limit::Count(n)
                } else {
                    Limit::Time(parse_duration(value)?)
                });
            }
            "threads" => {
                let n = within(
                    key,
                    value,
                    1..=256,
                    "expected a whole number",
                    "give 1 to 256 threads",
                )?;
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
                let n = within(
                    key,
                    value,
                    MIN_NODES..,
                    "expected a whole number",
                    "give at least 1000 nodes",
                )?;
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
                let expected = "expected a whole number from 1 to 1000";
                let w = within(key, value, 1..=1000, expected, expected)?;
                once(&mut self.playout.capture_weight, w, twice)?;
            }
            "imb" => {
                let expected = "expected a weight from 0 to 1, such as 0.4";
                let a = within(
                    key,
                    value,
                    0.0..=1.0,
                    expected,
                    "the weight must be from 0 to 1 (0: off)",
                )?;
                once(&mut self.imb, a, twice)?;
            }
            "imb-decided" => {
                let expected = "expected a winning chance from 0.5 to 1, such as 0.9, or off";
                let p = if value == "off" {
                    None
                } else {
                    Some(within(key, value, 0.5..=1.0, expected, expected)?)
                };
                once(&mut self.imb_decided, p, twice)?;
            }
            "prior" => {
                let expected = "expected a whole number of virtual visits";
                let n = within(
                    key,
                    value,
                    ..=MAX_PRIOR,
                    expected,
                    "give at most 10000 virtual visits (0: off)",
                )?;
                once(&mut self.prior, n, twice)?;
            }
            "prior-depth" => {
                let expected = "expected a whole number of plies from 0 to 4";
                let d = within(
                    key,
                    value,
                    ..=MAX_PRIOR_DEPTH,
                    expected,
                    "give at most 4 plies (0: the evaluation alone)",
                )?;
                once(&mut self.prior_depth, d, twice)?;
            }
            "quiesce" => {
                let q = quiescence(value).map_err(|why| bad(key, value, why))?;
                once(&mut self.quiesce, q, twice)?;
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
                let expected = "expected a whole number of visits from 1 to 1000";
                let n = within(key, value, 1..=1000, expected, expected)?;
                once(&mut self.expand_after, n, twice)?;
            }
            "verdicts" => once(&mut self.verdicts, on_off(key, value)?, twice)?,
            "guard" => {
                let expected = "expected a share of the time, such as 0.3";
                let a = within(
                    key,
                    value,
                    0.0..=0.9,
                    expected,
                    "the share must be from 0 to 0.9 (0: off)",
                )?;
                once(&mut self.guard, a, twice)?;
            }
            "check" => {
                // The message names mcts::Check::MAX_DEPTH, 12.
                let expected = "expected VISITS/PLIES, such as 20/4 (visits from 1, plies from 1 to 12), or off";
                let check = if value == "off" {
                    None
                } else {
                    let (a, d) = value
                        .split_once('/')
                        .ok_or_else(|| bad(key, value, expected))?;
                    match (a.parse::<u32>(), d.parse::<u32>()) {
                        (Ok(after), Ok(depth))
                            if after >= 1 && (1..=mcts::Check::MAX_DEPTH).contains(&depth) =>
                        {
                            Some(mcts::Check { after, depth })
                        }
                        _ => return Err(bad(key, value, expected)),
                    }
                };
                once(&mut self.check, check, twice)?;
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
            // Unreached: `option` took only the table's keys, and a test reads each of them.
            _ => return Err(SettingError::UnknownKey { key: key.into() }),
        }
        Ok(())
    }
}

/// Settings printed back as `key=value` text, joined by commas in the order they are
/// added: what `parse_keys` reads back.
#[derive(Debug, Default)]
pub(crate) struct KeyText(Vec<String>);

impl KeyText {
    /// Adds `key=value` when `value` is set.
    pub(crate) fn set(&mut self, key: &str, value: Option<impl fmt::Display>) {
        if let Some(v) = value {
            self.0.push(format!("{key}={v}"));
        }
    }

    /// Adds the keys of the table every player may consult: `tb` and `table-cache`.
    pub(crate) fn table(&mut self, table: &Option<PathBuf>, cache: Option<u64>) {
        self.set("tb", table.as_ref().map(|t| t.display()));
        self.set("table-cache", cache.map(format_cache_size));
    }
}

impl fmt::Display for KeyText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

impl fmt::Display for EngineSettings {
    /// The keys that are set, in a fixed order, as `parse_keys` reads them back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys = KeyText::default();
        keys.table(&self.table, self.table_cache);
        keys.set(
            "rule",
            self.rule.map(|r| match r {
                ProbeRule::Sound => "sound",
                ProbeRule::Race => "race",
            }),
        );
        keys.set("c", self.c);
        keys.set(
            "playout",
            self.playout.kind.map(|k| match k {
                PlayoutKind::Uniform => "uniform",
                PlayoutKind::Policy => "full",
            }),
        );
        match self.limit {
            Some(Limit::Time(d)) => keys.set("time", Some(format_duration(d))),
            Some(Limit::Count(n)) => keys.set("sims", Some(n)),
            None => {}
        }
        keys.set("tc", self.clock);
        keys.set("threads", self.threads);
        keys.set(
            "parallel",
            self.parallelism.map(|p| match p {
                Parallelism::Root => "root",
                Parallelism::Tree => "tree",
            }),
        );
        keys.set("nodes", self.nodes);
        keys.set("seed", self.seed);
        keys.set("every", self.oracle_every);
        keys.set(
            "probe-children",
            self.child_probes.map(|when| match when {
                ChildProbes::Expansion => "expansion",
                ChildProbes::NextVisit => "next-visit",
                ChildProbes::FirstVisit => "first-visit",
            }),
        );
        keys.set("eval-after", self.playout.eval_after);
        keys.set("capture-weight", self.playout.capture_weight);
        let word = |on: bool| if on { "on" } else { "off" };
        keys.set("win-in-one", self.playout.win_in_one.map(word));
        keys.set("stop-threats", self.playout.stop_threats.map(word));
        keys.set("imb", self.imb);
        keys.set(
            "imb-decided",
            self.imb_decided
                .map(|p| p.map_or_else(|| "off".to_string(), |p| p.to_string())),
        );
        keys.set("prior", self.prior);
        keys.set("prior-depth", self.prior_depth);
        keys.set("quiesce", self.quiesce);
        keys.set("net", self.net.as_ref());
        keys.set(
            "leaf",
            self.leaf.map(|l| match l {
                Leaf::Evaluation => "eval",
                Leaf::Playout => "playout",
            }),
        );
        keys.set("expand-after", self.expand_after);
        keys.set("verdicts", self.verdicts.map(word));
        keys.set("guard", self.guard);
        keys.set(
            "check",
            self.check
                .map(|c| c.map_or_else(|| "off".to_string(), |c| c.to_string())),
        );
        write!(f, "{keys}")
    }
}
