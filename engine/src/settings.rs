//! How quasar's MCTS player searches: one set of settings that the command line's engine
//! flags and the arena's `mcts:key=value` specs both fill, and the `mcts::Config` it builds.

use crate::clock::{TimeControl, TimeControlError};
use crate::duration::{format_duration, DurationError};
use mcts::{ChildProbes, Config, Leaf, Parallelism};
use quasar_core::Limit;
use std::num::NonZeroU32;
use std::path::PathBuf;

mod keys;
pub mod options;
#[cfg(test)]
mod tests;

pub(crate) use keys::KeyText;

/// The keys an `mcts:` spec takes, for error messages (from [`options::OPTIONS`]).
pub const KEYS: &str = options::MCTS_KEYS;

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
    /// The cache a compressed table larger than it is read through, in bytes (`None`: the
    /// default, [`quasar_file::cache::DEFAULT_CACHE_BYTES`]); a table that fits is read whole.
    pub cache_bytes: Option<u64>,
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
    /// The cache a compressed table larger than it is read through, in bytes
    /// (`table-cache=MiB`); needs a table.
    pub table_cache: Option<u64>,
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
    pub limit: Option<Limit>,
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
    /// The winning chance from which a node's children are ranked by their minimax values
    /// alone (`imb-decided=0.9`; `off`: `imb` everywhere); needs `imb` above 0.
    pub imb_decided: Option<Option<f64>>,
    /// Virtual visits of node priors from the evaluation (`prior=20`; 0: off); needs a
    /// game with an evaluation.
    pub prior: Option<u32>,
    /// Plies of alpha-beta behind each new node's evaluation (`prior-depth=2`; 0: the
    /// evaluation alone); a forced result it finds proves the node. Needs an evaluation.
    pub prior_depth: Option<u32>,
    /// The most plies a new node's value is searched past its horizon through positions
    /// that are not quiet (`quiesce=16`; 0: none).
    pub quiesce: Option<u32>,
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
    /// A forced-result search from each node at a number of visits (`check=20/4`: at 20
    /// visits, 4 plies; `check=off`); needs a game with an evaluation.
    pub check: Option<Option<mcts::Check>>,
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

/// A per-move limit as text: `100ms` or `5000 sims`.
pub fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::Time(d) => format_duration(d),
        Limit::Count(n) => format!("{n} sims"),
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

/// The most plies past the horizon `quiesce=` and `--quiesce` accept, for either search.
pub const MAX_QUIESCENCE: u32 = 64;

/// The plies past the horizon `text` gives (`quiesce=` and `--quiesce`, both searches): a
/// whole number from 0 to [`MAX_QUIESCENCE`]; else what it must be.
pub fn quiescence(text: &str) -> Result<u32, &'static str> {
    match text.parse::<u32>() {
        Ok(q) if q <= MAX_QUIESCENCE => Ok(q),
        _ => Err("expected a whole number of plies from 0 to 64"),
    }
}

impl EngineSettings {
    /// The table to consult and how, when one is set.
    pub fn table_spec(&self) -> Option<TableSpec> {
        self.table.as_ref().map(|path| TableSpec {
            path: path.clone(),
            rule: self.rule.unwrap_or_default(),
            cache_bytes: self.table_cache,
        })
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
            imb_decided: self.imb_decided.unwrap_or(defaults.imb_decided),
            prior: self.prior.unwrap_or(defaults.prior),
            prior_depth: self.prior_depth.unwrap_or(defaults.prior_depth),
            quiescence: self.quiesce.unwrap_or(defaults.quiescence),
            leaf: self.leaf.unwrap_or(defaults.leaf),
            check: self.check.unwrap_or(defaults.check),
        }
    }
}
