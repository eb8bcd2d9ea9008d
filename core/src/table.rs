//! The one face of an opened endgame table of any game ([`EndgameTable`]): what it is, the
//! value of a position given as text, and a check of its values against the rules, each as
//! structured data that a program prints as text or JSON. Each game's crate implements it
//! with its own knowledge (value names, notation, what a check re-derives); the program
//! has one `info`, one `probe` and one `verify` for every game's tables, as one probe and
//! verify path serves every material class of a chess tablebase.

use crate::progress::Progress;
use crate::GameResult;
use std::fmt;
use std::path::{Path, PathBuf};

/// An opened table of one game, read through the same three questions as every other.
pub trait EndgameTable: Sized {
    /// The game's name, as `--game` takes it (`breakthrough`, `chinese-checkers`).
    const GAME: &'static str;

    /// Why a table cannot be opened, read or asked about (each game's own, typed).
    type Error: std::error::Error + Send + Sync + 'static;

    /// Opens the table file or directory at `path`, checking what opening checks (a header,
    /// a manifest); a directory with missing or damaged parts may still open, so that probes
    /// of the parts that are there answer.
    fn open(path: &Path) -> Result<Self, Self::Error>;

    /// What the table is and holds, after checking every checksum (reported to `progress`);
    /// an error when it is damaged.
    fn info(&self, progress: &dyn Progress) -> Result<TableInfo, Self::Error>;

    /// The table's answer about the position written as `position` in the game's notation;
    /// an error when the text is no position or the table cannot hold it.
    fn probe(&self, position: &str) -> Result<TableProbe, Self::Error>;

    /// Checks the checksums, then the values against the rules (every position, or the
    /// sample `options` chooses), reporting to `progress`; disagreements are counted in the
    /// report, not returned as errors.
    fn verify(
        &self,
        options: &VerifyOptions,
        progress: &dyn Progress,
    ) -> Result<VerifyReport, Self::Error>;

    /// The same table read through a block cache of `bytes` where its form reads one (a
    /// compressed table larger than the cache); the default, for forms read whole, ignores
    /// it.
    fn with_cache(self, bytes: u64) -> Self {
        let _ = bytes;
        self
    }

    /// Opens the table at `path` read through a block cache of `bytes` where its form
    /// reads one; a form that must know the cache before it reads anything (so as not to
    /// read whole what it would then read a block at a time) overrides it.
    fn open_cached(path: &Path, bytes: u64) -> Result<Self, Self::Error> {
        Ok(Self::open(path)?.with_cache(bytes))
    }
}

/// How a table is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One file of plain values.
    Plain,
    /// A directory of slice files of plain values.
    Sliced,
    /// A directory of compressed (entropy-coded run-length) files.
    Compressed,
}

impl Form {
    /// `plain`, `sliced` or `compressed`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Plain => "plain",
            Form::Sliced => "sliced",
            Form::Compressed => "compressed",
        }
    }
}

/// A structured value of a table's facts, as JSON can hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    /// Nothing (JSON `null`).
    Null,
    /// Yes or no.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A fraction.
    Float(f64),
    /// Words.
    Text(String),
    /// Values in order.
    List(Vec<Fact>),
    /// Named values in order.
    Map(Vec<(String, Fact)>),
}

impl Fact {
    /// A map of `(name, count)` pairs: a histogram or counts by class.
    pub fn counts<K: fmt::Display>(pairs: impl IntoIterator<Item = (K, u64)>) -> Fact {
        Fact::Map(
            pairs
                .into_iter()
                .map(|(k, n)| (k.to_string(), Fact::from(n)))
                .collect(),
        )
    }

    /// A map from the given names to values.
    pub fn map<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Fact)>) -> Fact {
        Fact::Map(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl From<bool> for Fact {
    fn from(v: bool) -> Fact {
        Fact::Bool(v)
    }
}

impl From<u64> for Fact {
    fn from(v: u64) -> Fact {
        // Counts of positions stay far below 2^63.
        Fact::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

impl From<usize> for Fact {
    fn from(v: usize) -> Fact {
        Fact::from(v as u64)
    }
}

impl From<u32> for Fact {
    fn from(v: u32) -> Fact {
        Fact::Int(v.into())
    }
}

impl From<i32> for Fact {
    fn from(v: i32) -> Fact {
        Fact::Int(v.into())
    }
}

impl From<f64> for Fact {
    fn from(v: f64) -> Fact {
        Fact::Float(v)
    }
}

impl From<String> for Fact {
    fn from(v: String) -> Fact {
        Fact::Text(v)
    }
}

impl From<&str> for Fact {
    fn from(v: &str) -> Fact {
        Fact::Text(v.to_string())
    }
}

impl<T: Into<Fact>> From<Option<T>> for Fact {
    fn from(v: Option<T>) -> Fact {
        v.map_or(Fact::Null, Into::into)
    }
}

/// One fact of a table under a key: its value for the structured form, its words for the
/// text form (a line `key words: words`), or both.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The key (`format_version`); the text line's label is the key with spaces for
    /// underscores (`format version`).
    pub key: String,
    /// The value in the structured form; `None` for a line of the text form only.
    pub value: Option<Fact>,
    /// The words after the label in the text form; `None` for a value of the structured
    /// form only.
    pub text: Option<String>,
}

impl Row {
    /// A value in both forms, the text form writing it as it is.
    pub fn fact(key: &str, value: impl Into<Fact>) -> Row {
        let value = value.into();
        Row {
            key: key.into(),
            text: Some(value.to_string()),
            value: Some(value),
        }
    }

    /// A value in both forms, the text form in the given words.
    pub fn worded(key: &str, value: impl Into<Fact>, text: impl Into<String>) -> Row {
        Row {
            key: key.into(),
            value: Some(value.into()),
            text: Some(text.into()),
        }
    }

    /// A value of the structured form only (the text form says it in another line).
    pub fn data(key: &str, value: impl Into<Fact>) -> Row {
        Row {
            key: key.into(),
            value: Some(value.into()),
            text: None,
        }
    }

    /// A line of the text form only (the structured form holds its parts under other keys).
    pub fn line(key: &str, text: impl Into<String>) -> Row {
        Row {
            key: key.into(),
            value: None,
            text: Some(text.into()),
        }
    }

    /// The label of the text line: the key with spaces for underscores.
    pub fn label(&self) -> String {
        self.key.replace('_', " ")
    }
}

/// How many of a table's positions hold one class of value (a depth, wins of one side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCount {
    /// The class in the game's words (`D =  2`, `first-player wins`).
    pub class: String,
    /// Positions of that class.
    pub count: u64,
}

impl ClassCount {
    /// `count` positions of the class named `class`.
    pub fn new(class: impl Into<String>, count: u64) -> ClassCount {
        ClassCount {
            class: class.into(),
            count,
        }
    }
}

/// Counts laid out in columns, one line a part of the table (checkers: a slice and side
/// to move), with a header line of column names.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Grid {
    /// The column names.
    pub columns: Vec<String>,
    /// The lines, a cell a column.
    pub lines: Vec<Vec<String>>,
}

/// What an opened table is and holds.
#[derive(Debug)]
pub struct TableInfo {
    /// The table file or directory.
    pub path: PathBuf,
    /// How it is stored.
    pub form: Form,
    /// The form in words (`plain: capped depths packed 4 a byte`).
    pub form_text: String,
    /// What the table covers, in words (`5x5, 3 rows`, `up to 3 pieces`).
    pub covers: String,
    /// Positions (or entries, for a table that stores some of its positions) held.
    pub positions: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// What the value classes count, as a heading (`depth histogram`).
    pub classes_title: String,
    /// Positions of each class of value, in the game's order; empty classes are left out.
    pub classes: Vec<ClassCount>,
    /// The game's own facts, in the order the text form prints them.
    pub rows: Vec<Row>,
    /// Counts by part of the table, for the text form.
    pub grid: Option<Grid>,
    /// Why the table is not whole (slices not built yet), found after the facts above: the
    /// text form prints them, then this; the structured form only this.
    pub incomplete: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl TableInfo {
    /// Positions a byte on disk.
    pub fn positions_per_byte(&self) -> f64 {
        self.positions as f64 / self.bytes.max(1) as f64
    }
}

/// A table's answer about one position, the same shape for every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableProbe {
    /// The position as the game writes it.
    pub position: String,
    /// The side to move, in the game's words.
    pub to_move: String,
    /// The result for the side to move; `None` when the table cannot say.
    pub result: Option<GameResult>,
    /// Plies until the game ends, when the table knows them.
    pub plies: Option<u32>,
    /// Whether `plies` is exact (else an upper bound).
    pub plies_exact: bool,
    /// A move that keeps the value, in the game's notation, when the table gives one.
    pub best_move: Option<String>,
    /// What else the table says (a depth, a score, a distance to conversion), or why the
    /// answer is unknown.
    pub detail: Option<String>,
    /// Each move's value after it, in words, for the text form (empty where the game
    /// lists none).
    pub moves: Vec<(String, String)>,
    /// What the answer rests on but is not whole (a missing slice of the directory),
    /// said once before the answer.
    pub warnings: Vec<String>,
}

/// Which positions `verify` checks, for tables checked by sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VerifyOptions {
    /// Positions (or entries) to re-derive; `None`: the game's own choice.
    pub samples: Option<u64>,
    /// The seed of the sample; `None`: the game's default.
    pub seed: Option<u64>,
    /// Also write the table's block index, for the tables that have one.
    pub write_index: bool,
}

/// What a check of a table found.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyReport {
    /// What the checksums covered, in words (`5x5 3 rows, 1234 entries`).
    pub checksums: String,
    /// What the check did besides, a line each (a block index written).
    pub rows: Vec<Row>,
    /// Positions whose values were re-derived.
    pub checked: u64,
    /// Which positions, when not simply every one (`a random sample`).
    pub which: Option<String>,
    /// How they were re-derived (`against their moves`, `by brute force`).
    pub how: String,
    /// Positions whose stored value disagrees.
    pub inconsistent: u64,
    /// The first of them, as the game writes them (at most [`VerifyReport::EXAMPLES`]).
    pub examples: Vec<String>,
}

impl VerifyReport {
    /// The most disagreements a report names.
    pub const EXAMPLES: usize = 20;
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::Null => f.write_str("none"),
            Fact::Bool(b) => write!(f, "{}", if *b { "yes" } else { "no" }),
            Fact::Int(n) => write!(f, "{n}"),
            Fact::Float(x) => write!(f, "{x:.1}"),
            Fact::Text(s) => f.write_str(s),
            Fact::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
            Fact::Map(pairs) => {
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} {v}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_read_as_words() {
        assert_eq!(Fact::from(Some(3u32)).to_string(), "3");
        assert_eq!(Fact::from(None::<u32>), Fact::Null);
        assert_eq!(Fact::from(2.26).to_string(), "2.3");
        let m = Fact::counts([("Left", 3), ("Right", 4)]);
        assert_eq!(m.to_string(), "Left 3, Right 4");
        assert_eq!(
            Fact::List(vec![1u32.into(), "a".into(), true.into()]).to_string(),
            "1, a, yes"
        );
    }

    #[test]
    fn a_row_is_labelled_by_its_key() {
        let r = Row::fact("format_version", 2u32);
        assert_eq!(
            (r.label(), r.text.as_deref()),
            ("format version".into(), Some("2"))
        );
        assert_eq!(Row::data("rows", 3u32).text, None);
        assert_eq!(Row::line("entries", "0").value, None);
    }
}
