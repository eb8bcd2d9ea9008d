//! Player specs as the command line names them: `mcts[:key=value,...]`, `ab[:key=value,...]`,
//! `random[:seed=S]`
//! and `gtp:<command line>`, read from and printed back to the same text.

use crate::ab_player::{AbSettingError, AbSettings};
use crate::gtp_client::GtpSpec;
use crate::settings::options::{keys_text, EngineOption, GameTexts, Scope};
use crate::settings::{EngineSettings, SettingError};
use std::fmt;
use std::str::FromStr;

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// quasar's MCTS with these settings (a table, limits, policy switches).
    Mcts(EngineSettings),
    /// quasar's alpha-beta search with these settings (a table, a time, a depth cap).
    AlphaBeta(AbSettings),
    /// Uniformly random legal moves; `random:seed=S` names a distinct random player.
    Random {
        /// Mixed into each game's seed, so two random players differ.
        seed: Option<u64>,
    },
    /// An external program that speaks GTP version 2 on stdin/stdout.
    Gtp(GtpSpec),
}

/// What is wrong with a spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecProblem {
    /// Nothing before the colon.
    #[error("empty player: use mcts, mcts:tb=FILE, ab, random or gtp:<command>")]
    Empty,
    /// A kind other than mcts, random and gtp.
    #[error("unknown player kind '{0}': use mcts, mcts:key=value,..., ab, ab:key=value,..., random or gtp:<command>")]
    UnknownKind(String),
    /// `random:` with something other than `seed=N`.
    #[error("'random' takes only seed=N (to tell two random players apart)")]
    RandomKeys,
    /// `gtp:` without a command.
    #[error("give the engine's command after 'gtp:', for example 'gtp:./engine --gtp'")]
    NoCommand,
    /// A command line with an unclosed quote or a trailing backslash.
    #[error("the command '{0}' has an unclosed quote or a lone backslash at its end")]
    Unsplittable(String),
    /// A bad `mcts:` setting.
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// A bad `ab:` setting.
    #[error(transparent)]
    AbSetting(#[from] AbSettingError),
}

/// A bad player spec: the spec as given and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad player '{spec}': {problem}")]
pub struct SpecError {
    /// The spec text as given.
    pub spec: String,
    /// What is wrong and what would be right.
    pub problem: SpecProblem,
}

impl PlayerSpec {
    /// The help of a player spec: each kind, with the keys of the options' table and the
    /// texts `games` give for each (the games a playout switch is of).
    pub fn help(games: &dyn Fn(&EngineOption) -> GameTexts) -> String {
        format!(
            "A player: mcts[:KEY=VALUE,...] with keys {}; ab[:KEY=VALUE,...] (alpha-beta) with \
             keys {}; random[:seed=S]; or gtp:<command line>. A key takes the values of the \
             flag of its name (see quasar bestmove --help). Two players play a match; more \
             play a round robin",
            keys_text(Scope::Mcts, games),
            keys_text(Scope::AlphaBeta, games)
        )
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random { seed: None } => f.write_str("random"),
            PlayerSpec::Random { seed: Some(s) } => write!(f, "random:seed={s}"),
            PlayerSpec::Gtp(g) => write!(f, "gtp:{}", g.text),
            PlayerSpec::AlphaBeta(a) => with_keys(f, "ab", a),
            PlayerSpec::Mcts(m) => with_keys(f, "mcts", m),
        }
    }
}

/// Writes a searcher's spec: its `name`, then `:` and its keys when any differ from the
/// defaults.
fn with_keys(f: &mut fmt::Formatter<'_>, name: &str, keys: &dyn fmt::Display) -> fmt::Result {
    match keys.to_string() {
        keys if keys.is_empty() => f.write_str(name),
        keys => write!(f, "{name}:{keys}"),
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// Reads `random`, `gtp:<command line>`, `mcts` or `mcts:key=value,...`.
    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let err = |problem: SpecProblem| SpecError {
            spec: text.to_string(),
            problem,
        };
        let t = text.trim();
        let (kind, rest) = match t.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r)),
            None => (t, None),
        };
        match kind {
            "random" => match rest.map(str::trim) {
                None => Ok(PlayerSpec::Random { seed: None }),
                Some(r) => match r.strip_prefix("seed=").map(str::parse::<u64>) {
                    Some(Ok(s)) => Ok(PlayerSpec::Random { seed: Some(s) }),
                    _ => Err(err(SpecProblem::RandomKeys)),
                },
            },
            "gtp" => {
                let line = rest.unwrap_or("").trim();
                let argv = shlex::split(line)
                    .ok_or_else(|| err(SpecProblem::Unsplittable(line.into())))?;
                if argv.is_empty() {
                    return Err(err(SpecProblem::NoCommand));
                }
                Ok(PlayerSpec::Gtp(GtpSpec {
                    text: line.to_string(),
                    argv,
                }))
            }
            "mcts" => EngineSettings::parse_keys(rest.unwrap_or(""))
                .map(PlayerSpec::Mcts)
                .map_err(|e| err(e.into())),
            "ab" | "alphabeta" => AbSettings::parse_keys(rest.unwrap_or(""))
                .map(PlayerSpec::AlphaBeta)
                .map_err(|e| err(e.into())),
            "" => Err(err(SpecProblem::Empty)),
            other => Err(err(SpecProblem::UnknownKind(other.into()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn parse(t: &str) -> Result<PlayerSpec, String> {
        t.parse::<PlayerSpec>().map_err(|e| e.to_string())
    }

    #[test]
    fn specs_parse() {
        assert_eq!(parse("random").unwrap(), PlayerSpec::Random { seed: None });
        assert_eq!(
            parse("random:seed=4").unwrap(),
            PlayerSpec::Random { seed: Some(4) }
        );
        assert_eq!(
            parse("mcts").unwrap(),
            PlayerSpec::Mcts(EngineSettings::default())
        );
        let PlayerSpec::Mcts(m) = parse("mcts:tb=tables/6x6-r4.qtb,c=0.4,nodes=5000").unwrap()
        else {
            panic!("expected mcts");
        };
        assert_eq!(m.table, Some(PathBuf::from("tables/6x6-r4.qtb")));
        assert_eq!((m.c, m.nodes), (Some(0.4), Some(5000)));
        match parse("gtp:./engine --size '6 6' \"a b\" c\\ d").unwrap() {
            PlayerSpec::Gtp(g) => {
                assert_eq!(g.argv, vec!["./engine", "--size", "6 6", "a b", "c d"])
            }
            other => panic!("expected gtp, got {other:?}"),
        }
    }

    #[test]
    fn specs_print_back() {
        for t in [
            "random",
            "random:seed=12",
            "mcts",
            "mcts:tb=x.qtb,rule=race,c=0.4,playout=full,sims=2000,threads=2,seed=3",
            "mcts:time=100ms,parallel=tree,nodes=100000,eval-after=10",
            "gtp:./engine --gtp",
            "ab",
            "ab:tb=t.qtb,time=1s,depth=9,hash=128",
            "ab:depth=7,eval=mcts",
            "ab:eval=ab",
        ] {
            assert_eq!(parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn the_help_lists_every_key_of_the_table() {
        use crate::settings::options::OPTIONS;
        let help = PlayerSpec::help(&|_| GameTexts::default());
        let (mcts, ab) = help.split_once("; ab[").unwrap();
        for o in OPTIONS {
            let key = format!(" {}=", o.name);
            assert_eq!(mcts.contains(&key), o.mcts_key, "{key} in {mcts}");
            assert_eq!(ab.contains(&key), o.ab_key, "{key} in {ab}");
        }
    }

    #[test]
    fn bad_specs_say_why_and_quote_the_spec() {
        let cases = [
            ("mcts:depth=3", "unknown key 'depth'"),
            ("mcts:time=100", "no unit"),
            ("mcts:rule=race", "needs a tablebase"),
            ("minimax", "unknown player kind"),
            ("ab:depth=0", "from 1 to 64"),
            ("ab:c=0.4", "unknown key 'c' for the alpha-beta player"),
            ("ab:hash=-3", "MiB from 1"),
            ("ab:time=0s", "above zero"),
            ("ab:eval=efms", "expected ab (its own evaluation) or mcts"),
            ("ab:eval=mcts,eval=ab", "given twice"),
            ("", "empty player"),
            ("gtp:", "give the engine's command"),
            ("gtp:'unclosed", "unclosed"),
            ("random:x=1", "only seed=N"),
        ];
        for (spec, want) in cases {
            let e = parse(spec).expect_err(spec);
            assert!(e.contains(want), "{spec}: '{e}' should mention '{want}'");
            assert!(
                e.contains(&format!("'{spec}'")),
                "{spec}: '{e}' should quote the spec"
            );
        }
    }
}
