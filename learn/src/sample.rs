//! Labelled positions, as the shards of self-play write them: a text file with a header
//! line naming the game and size, then one position a line with what is known of it, for
//! the side to move: the game's outcome, the search's value, and the table's exact value.
//!
//! ```text
//! # quasar samples v1 breakthrough 6x6
//! BBBBBB/BBBBBB/6/2W3/WW1WWW/WWWWWW b<TAB>1<TAB>0.547<TAB>-
//! ```

use quasar_file::{self as qfile, FileError};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The first words of a shard's header line.
const MAGIC: &str = "# quasar samples v1";
/// Larger than any shard: a bigger file is refused before it is read.
const MAX_SHARD: u64 = 1 << 30;

/// One position and what is known of it, each value the side to move's score in `[0, 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position in the game's text.
    pub position: String,
    /// How the game it was played in ended.
    pub outcome: f32,
    /// The search's value of it, when a search was run.
    pub search: Option<f32>,
    /// The table's exact value, when a table holds it.
    pub exact: Option<f32>,
}

impl Sample {
    /// The training target: the exact value where there is one, else the outcome and the
    /// search's value mixed, `outcome_weight` of the outcome (the outcome alone without a
    /// search).
    pub fn target(&self, outcome_weight: f32) -> f32 {
        match (self.exact, self.search) {
            (Some(e), _) => e,
            (None, Some(s)) => outcome_weight * self.outcome + (1.0 - outcome_weight) * s,
            (None, None) => self.outcome,
        }
    }
}

/// Why a shard cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The file cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line is not a sample.
    #[error("{path}: line {line}: {msg}")]
    Line {
        /// The shard.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        msg: String,
    },
}

/// The header line of a shard of `game` at size `params`.
pub fn header(game: &str, params: &str) -> String {
    format!("{MAGIC} {game} {params}")
}

/// Writes `samples` of `game` at size `params` to `path` atomically: a shard is there
/// whole or not at all, so an interrupted run is resumed by the shards it lacks.
pub fn write_shard(
    path: &Path,
    game: &str,
    params: &str,
    samples: &[Sample],
) -> Result<(), FileError> {
    let mut text = header(game, params);
    text.push('\n');
    let value = |v: Option<f32>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
    for s in samples {
        debug_assert!(!s.position.contains(['\t', '\n']));
        let _ = writeln!(
            text,
            "{}\t{}\t{}\t{}",
            s.position,
            s.outcome,
            value(s.search),
            value(s.exact)
        );
    }
    qfile::write(path, text.as_bytes())
}

/// The samples of the shard at `path`, which must be of `game` at size `params`.
pub fn read_shard(path: &Path, game: &str, params: &str) -> Result<Vec<Sample>, SampleError> {
    let text = qfile::read_to_string(path, MAX_SHARD, "samples shard")?;
    let bad = |line: usize, msg: String| SampleError::Line {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let mut lines = text.lines();
    let want = header(game, params);
    match lines.next() {
        Some(h) if h == want => {}
        Some(h) if h.starts_with(MAGIC) => {
            return Err(bad(
                1,
                format!(
                    "samples of {}, not of {game} {params}",
                    h[MAGIC.len()..].trim()
                ),
            ))
        }
        _ => return Err(bad(1, format!("not a samples shard (it starts '{MAGIC}')"))),
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        let f: Vec<&str> = line.split('\t').collect();
        let [position, outcome, search, exact] = f[..] else {
            return Err(bad(n, format!("{} fields, not 4", f.len())));
        };
        let score = |t: &str| -> Result<f32, SampleError> {
            match t.parse::<f32>() {
                Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
                _ => Err(bad(
                    n,
                    format!("'{}' is not a score from 0 to 1", qfile::shorten(t, 20)),
                )),
            }
        };
        let optional = |t: &str| -> Result<Option<f32>, SampleError> {
            if t == "-" {
                Ok(None)
            } else {
                score(t).map(Some)
            }
        };
        out.push(Sample {
            position: position.to_string(),
            outcome: score(outcome)?,
            search: optional(search)?,
            exact: optional(exact)?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("learn-sample-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_shard_reads_back_and_targets_prefer_the_table() {
        let p = dir("round").join("s.tsv");
        let samples = vec![
            Sample {
                position: "a b".into(),
                outcome: 1.0,
                search: Some(0.5),
                exact: None,
            },
            Sample {
                position: "c".into(),
                outcome: 0.0,
                search: Some(0.25),
                exact: Some(1.0),
            },
        ];
        write_shard(&p, "toy", "3", &samples).unwrap();
        let back = read_shard(&p, "toy", "3").unwrap();
        assert_eq!(back, samples);
        assert_eq!(back[0].target(0.5), 0.75);
        assert_eq!(back[1].target(0.5), 1.0);
        let e = read_shard(&p, "toy", "4").unwrap_err().to_string();
        assert!(e.contains("line 1: samples of toy 3, not of toy 4"), "{e}");
    }

    #[test]
    fn a_bad_line_is_named() {
        let p = dir("bad").join("s.tsv");
        std::fs::write(
            &p,
            format!("{}\nx\t1\t-\t-\ny\t2\t-\t-\n", header("toy", "3")),
        )
        .unwrap();
        let e = read_shard(&p, "toy", "3").unwrap_err().to_string();
        assert!(e.contains("line 3: '2' is not a score"), "{e}");
    }
}
