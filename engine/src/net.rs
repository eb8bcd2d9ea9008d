//! Which learned evaluation a player searches with: the `net=` key of both players' specs
//! and the `--net` flag.

use std::fmt;
use std::path::PathBuf;

/// A player's choice of learned evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSpec {
    /// The game's hand-written evaluation (`net=off`).
    Off,
    /// The model the game ships with (`net=builtin`).
    Builtin,
    /// A model file from `quasar train fit` (`net=FILE`).
    File(PathBuf),
}

impl NetSpec {
    /// Reads a `net=` value: `off`, `builtin` or a file's path.
    pub fn parse(value: &str) -> Result<NetSpec, &'static str> {
        match value {
            "" => Err("give a model file, builtin or off"),
            "off" => Ok(NetSpec::Off),
            "builtin" => Ok(NetSpec::Builtin),
            path => Ok(NetSpec::File(PathBuf::from(path))),
        }
    }
}

impl fmt::Display for NetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetSpec::Off => f.write_str("off"),
            NetSpec::Builtin => f.write_str("builtin"),
            NetSpec::File(p) => write!(f, "{}", p.display()),
        }
    }
}
