//! quasar's alpha-beta search as an arena player of any game with an evaluation: its
//! `ab:key=value` settings, the factory that loads a table once per match, and the player.

use crate::clock::{TimeControl, TimeControlError};
use crate::duration::{format_duration, parse_duration, DurationError};
use crate::engine::{Engine, EnginePlayer};
use crate::player::{Player, PlayerError, PlayerFactory};
use crate::settings::options::{self, Scope};
use crate::settings::{KeyText, ProbeRule, TableSpec};
use crate::setup::{GameSetup, SetupError};
use crate::spec::PlayerSpec;
use alphabeta::{AlphaBeta, Config};
use quasar_core::Limit;
use quasar_core::{Evaluation, Oracle};
use quasar_file::cache::parse_cache_size;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The keys an `ab:` spec takes, for error messages (from the options' table).
pub const AB_KEYS: &str = crate::settings::options::AB_KEYS;

/// The largest transposition table an `ab:` spec may ask for, in MiB.
pub const MAX_HASH_MIB: usize = 1 << 16;

/// Everything that shapes the alpha-beta player; `None` leaves the default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbSettings {
    /// A table consulted at every node below the root (`tb=FILE`).
    pub table: Option<PathBuf>,
    /// The cache a compressed table larger than it is read through, in bytes
    /// (`table-cache=MiB`).
    pub table_cache: Option<u64>,
    /// The per-move time, overriding the match's (`time=1s`).
    pub time: Option<Duration>,
    /// A clock of this player's own, overriding the match's limit (`tc=10s+0.1s`).
    pub clock: Option<TimeControl>,
    /// The deepest iteration (`depth=8`), within the time budget.
    pub depth: Option<u32>,
    /// The most plies past the horizon through positions that are not quiet (`quiesce=16`).
    pub quiesce: Option<u32>,
    /// The transposition table's size in MiB (`hash=64`).
    pub hash_mib: Option<usize>,
    /// Which of the game's evaluations it searches with (`eval=mcts`).
    pub eval: Option<AbEval>,
    /// A learned evaluation instead (`net=FILE|builtin`; `off` or unset: `eval=`'s).
    pub net: Option<crate::net::NetSpec>,
}

/// The evaluation an alpha-beta player searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbEval {
    /// Alpha-beta's own (`eval=ab`, the default): for Breakthrough the reference
    /// evaluation, material, advancement and piece safety.
    Ab,
    /// MCTS's (`eval=mcts`): for Breakthrough alpha-beta's with each piece on its home row
    /// weighted as well; the same as `ab` for games that weigh nothing differently.
    Mcts,
}

/// A setting of an `ab:` spec that cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AbSettingError {
    /// A key the alpha-beta player does not have.
    #[error("unknown key '{0}' for the alpha-beta player (keys: {AB_KEYS})")]
    UnknownKey(String),
    /// An item without `=`.
    #[error("'{0}' is not key=value (keys: {AB_KEYS})")]
    NotKeyValue(String),
    /// A key given twice.
    #[error("'{0}' is given twice")]
    Twice(String),
    /// A value out of range or unreadable.
    #[error("{key}={value}: {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the value must be.
        expected: &'static str,
    },
    /// A `time=` value that is not a duration.
    #[error("time: {0}")]
    Duration(#[from] DurationError),
    /// A `tc=` value that is not a time control.
    #[error("tc: {0}")]
    TimeControl(#[from] TimeControlError),
    /// `time=` and `tc=` together.
    #[error("time= and tc= conflict: give a time a move or a clock, not both")]
    TimeAndClock,
}

impl AbSettings {
    /// Reads `key=value,...` (the part of an `ab:` spec after the colon).
    pub fn parse_keys(text: &str) -> Result<AbSettings, AbSettingError> {
        let mut s = AbSettings::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| AbSettingError::NotKeyValue(item.into()))?;
            s.set(key.trim(), value.trim())?;
        }
        Ok(s)
    }

    /// Sets one key from its text (a key of [`AB_KEYS`]); a key may be set once.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), AbSettingError> {
        let Some(option) = options::key_of(Scope::AlphaBeta, key) else {
            return Err(AbSettingError::UnknownKey(key.into()));
        };
        let key = option.name;
        let bad = |expected| AbSettingError::BadValue {
            key: key.into(),
            value: value.into(),
            expected,
        };
        let twice = || AbSettingError::Twice(key.into());
        match key {
            "tb" if self.table.is_some() => return Err(twice()),
            "tb" if value.is_empty() => return Err(bad("give a table file")),
            "tb" => self.table = Some(PathBuf::from(value)),
            "table-cache" if self.table_cache.is_some() => return Err(twice()),
            "table-cache" => self.table_cache = Some(parse_cache_size(value).map_err(bad)?),
            "time" if self.time.is_some() => return Err(twice()),
            "time" if self.clock.is_some() => return Err(AbSettingError::TimeAndClock),
            "time" => self.time = Some(parse_duration(value)?),
            "tc" if self.clock.is_some() => return Err(twice()),
            "tc" if self.time.is_some() => return Err(AbSettingError::TimeAndClock),
            "tc" => self.clock = Some(value.parse()?),
            "depth" if self.depth.is_some() => return Err(twice()),
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => self.depth = Some(d),
                _ => return Err(bad("expected a whole number of plies from 1 to 64")),
            },
            "quiesce" if self.quiesce.is_some() => return Err(twice()),
            "quiesce" => self.quiesce = Some(crate::settings::quiescence(value).map_err(bad)?),
            "hash" if self.hash_mib.is_some() => return Err(twice()),
            "hash" => match value.parse::<usize>() {
                Ok(m) if (1..=MAX_HASH_MIB).contains(&m) => self.hash_mib = Some(m),
                _ => return Err(bad("expected MiB from 1 to 65536")),
            },
            "net" if self.net.is_some() => return Err(twice()),
            "net" => self.net = Some(crate::net::NetSpec::parse(value).map_err(bad)?),
            "eval" if self.eval.is_some() => return Err(twice()),
            "eval" => match value {
                "ab" => self.eval = Some(AbEval::Ab),
                "mcts" => self.eval = Some(AbEval::Mcts),
                _ => return Err(bad("expected ab (its own evaluation) or mcts (MCTS's)")),
            },
            // Unreached: the lookup above took only the table's keys, and a test reads each.
            _ => return Err(AbSettingError::UnknownKey(key.into())),
        }
        Ok(())
    }

    /// The search configuration.
    pub fn config(&self) -> Config {
        let d = Config::default();
        Config {
            table_bytes: self.hash_mib.map_or(d.table_bytes, |m| m << 20),
            max_depth: self.depth.unwrap_or(d.max_depth),
            quiescence: self.quiesce.unwrap_or(d.quiescence),
        }
    }

    /// The searcher these settings describe for `setup`, with its table opened.
    pub fn searcher<S: GameSetup>(&self, setup: &S) -> Result<AlphaBeta<S::Game>, SetupError> {
        let (eval, oracle) = self.parts(setup)?;
        let ab = AlphaBeta::try_new(self.config(), eval)?;
        Ok(match oracle {
            Some(o) => ab.with_oracle(o),
            None => ab,
        })
    }

    /// The game's evaluation and the table, loaded.
    #[allow(clippy::type_complexity)]
    fn parts<S: GameSetup>(
        &self,
        setup: &S,
    ) -> Result<
        (
            Arc<dyn Evaluation<S::Game>>,
            Option<Arc<dyn Oracle<S::Game>>>,
        ),
        SetupError,
    > {
        let learned = match &self.net {
            None | Some(crate::net::NetSpec::Off) => None,
            Some(net) => setup.learned_evaluation(net)?,
        };
        let eval = match (learned, self.eval) {
            (Some(net), _) => Some(net),
            (None, Some(AbEval::Mcts)) => setup.mcts_evaluation(),
            (None, Some(AbEval::Ab) | None) => setup.evaluation(),
        };
        let eval = eval.ok_or_else(|| {
            SetupError::Policy(format!(
                "the alpha-beta player needs an evaluation, and {} has none yet",
                S::NAME
            ))
        })?;
        let oracle = match &self.table {
            Some(path) => Some(setup.load_oracle(&TableSpec {
                path: path.clone(),
                rule: ProbeRule::Sound,
                cache_bytes: self.table_cache,
            })?),
            None => None,
        };
        Ok((eval, oracle))
    }
}

impl fmt::Display for AbSettings {
    /// The keys that are set, in a fixed order, as `parse_keys` reads them back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys = KeyText::default();
        keys.table(&self.table, self.table_cache);
        keys.set("time", self.time.map(format_duration));
        keys.set("tc", self.clock);
        keys.set("depth", self.depth);
        keys.set("quiesce", self.quiesce);
        keys.set("hash", self.hash_mib);
        keys.set(
            "eval",
            self.eval.map(|e| match e {
                AbEval::Mcts => "mcts",
                AbEval::Ab => "ab",
            }),
        );
        keys.set("net", self.net.as_ref());
        write!(f, "{keys}")
    }
}

/// Builds alpha-beta players that share one loaded table.
#[derive(Debug)]
pub struct AbFactory<S: GameSetup> {
    settings: AbSettings,
    eval: Arc<dyn Evaluation<S::Game>>,
    oracle: Option<Arc<dyn Oracle<S::Game>>>,
}

impl<S: GameSetup> AbFactory<S> {
    /// A factory for `settings`' players on `setup`: finds the evaluation and opens the
    /// table now, so a bad setting fails before the first game.
    pub fn new(settings: AbSettings, setup: &S) -> Result<AbFactory<S>, PlayerError> {
        let (eval, oracle) = settings.parts(setup)?;
        Ok(AbFactory {
            settings,
            eval,
            oracle,
        })
    }
}

impl<S: GameSetup> PlayerFactory<S::Game> for AbFactory<S> {
    fn name(&self) -> String {
        PlayerSpec::AlphaBeta(self.settings.clone()).to_string()
    }

    fn own_limit(&self) -> Option<Limit> {
        self.settings.time.map(Limit::Time)
    }

    fn own_clock(&self) -> Option<TimeControl> {
        self.settings.clock
    }

    fn make(&self, _seed: u64) -> Result<Box<dyn Player<S::Game>>, PlayerError> {
        let ab = AlphaBeta::try_new(self.settings.config(), Arc::clone(&self.eval))
            .map_err(SetupError::from)?;
        let searcher = match &self.oracle {
            Some(o) => ab.with_oracle(Arc::clone(o)),
            None => ab,
        };
        Ok(Box::new(EnginePlayer {
            name: self.name(),
            engine: Engine::<S>::AlphaBeta(searcher),
            info: None,
        }))
    }
}
