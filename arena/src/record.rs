//! The JSON Lines game record: one finished game per line, appended and flushed at once,
//! read back to resume an interrupted match (a truncated last line is dropped).

use crate::game::Reason;
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Who won a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// White (the side that moves first) won.
    White,
    /// Black won.
    Black,
    /// Nobody won.
    Draw,
}

/// One finished game as a line of the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Player A of the pairing (its spec text).
    pub player_a: String,
    /// Player B of the pairing.
    pub player_b: String,
    /// The game's number within the pairing: opening `game / 2`, A is White when even.
    pub game: u32,
    /// The opening's number.
    pub opening: u32,
    /// The spec of the player that had White.
    pub white: String,
    /// The spec of the player that had Black.
    pub black: String,
    /// The board, `WxH`.
    pub board: String,
    /// The match seed that generated the openings and the players' seeds.
    pub seed: u64,
    /// The opening's random plies.
    pub opening_plies: u32,
    /// White's budget per move, as text (`100ms`, `5000 sims`).
    pub white_budget: String,
    /// Black's budget per move.
    pub black_budget: String,
    /// The opening's moves from the start position.
    pub opening_moves: Vec<String>,
    /// The moves played after the opening.
    pub moves: Vec<String>,
    /// Wall-clock milliseconds of each move in `moves`.
    pub times_ms: Vec<f64>,
    /// Who won.
    pub result: Winner,
    /// Why the game ended.
    pub reason: Reason,
    /// Words for a forfeit (illegal move, overrun, engine error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl GameRecord {
    /// Whether player A had White.
    pub fn a_is_white(&self) -> bool {
        self.game % 2 == 0
    }
}

/// A problem with the record file, with its path.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read, created or written.
    #[error("record {path}: {source}")]
    Io {
        /// The record's path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line that is not the last does not parse.
    #[error("record {path}, line {line}: not a game record ({message}); fix or move the file, or use another --record")]
    BadLine {
        /// The record's path.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What the JSON parser said.
        message: String,
    },
}

/// What reading a record found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Whether an unfinished last line (a write cut short) was dropped.
    pub dropped_partial_line: bool,
}

/// Reads every game of a record; a missing file is an empty record. An unparsable last line
/// without its newline is the trace of an interrupted write and is dropped; elsewhere a bad
/// line is an error.
pub fn load(path: &Path) -> Result<Loaded, RecordError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(source) => {
            return Err(RecordError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let mut loaded = Loaded::default();
    let ends_cleanly = text.ends_with('\n');
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(g) => loaded.games.push(g),
            Err(_) if i + 1 == lines.len() && !ends_cleanly => {
                loaded.dropped_partial_line = true;
            }
            Err(e) => {
                return Err(RecordError::BadLine {
                    path: path.to_path_buf(),
                    line: i + 1,
                    message: e.to_string(),
                })
            }
        }
    }
    Ok(loaded)
}

/// Appends games to a record, one line each, flushed before `append` returns; shared by the
/// threads that play games.
pub struct RecordWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl RecordWriter {
    /// Opens `path` for appending (creating it and its directory); a partial last line left
    /// by an interrupted write is cut off first, so the next line starts cleanly.
    pub fn open(path: &Path) -> Result<RecordWriter, RecordError> {
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        if let Ok(bytes) = fs::read(path) {
            if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let f = OpenOptions::new().write(true).open(path).map_err(io)?;
                f.set_len(keep as u64).map_err(io)?;
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(RecordWriter {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// The record's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one game as one line and flushes it.
    pub fn append(&self, game: &GameRecord) -> Result<(), RecordError> {
        let mut line = serde_json::to_string(game).expect("a game record always serialises");
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // One write of the whole line: a crash leaves at most one partial last line.
        file.write_all(line.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|source| RecordError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u32) -> GameRecord {
        GameRecord {
            player_a: "random".into(),
            player_b: "gtp:./x".into(),
            game,
            opening: game / 2,
            white: if game % 2 == 0 { "random" } else { "gtp:./x" }.into(),
            black: if game % 2 == 0 { "gtp:./x" } else { "random" }.into(),
            board: "6x6".into(),
            seed: 1,
            opening_plies: 2,
            white_budget: "100ms".into(),
            black_budget: "100ms".into(),
            opening_moves: vec!["a2-a3".into(), "b5-b4".into()],
            moves: vec!["c2-c3".into()],
            times_ms: vec![0.25],
            result: Winner::Black,
            reason: Reason::Illegal,
            detail: Some("chose a1-a4".into()),
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("quasar-record-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = fs::remove_file(&p);
        p
    }

    #[test]
    fn records_round_trip_and_truncation_is_tolerated() {
        let path = temp("round.jsonl");
        let w = RecordWriter::open(&path).unwrap();
        w.append(&sample(0)).unwrap();
        w.append(&sample(1)).unwrap();
        drop(w);
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.games, vec![sample(0), sample(1)]);
        assert!(!loaded.dropped_partial_line);

        // A write cut short: half of a third line.
        let full = serde_json::to_string(&sample(2)).unwrap();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&full.as_bytes()[..full.len() / 2]).unwrap();
        drop(f);
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.games.len(), 2);
        assert!(loaded.dropped_partial_line);

        // Reopening cuts the partial line so the next game starts on its own line.
        let w = RecordWriter::open(&path).unwrap();
        w.append(&sample(3)).unwrap();
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.games, vec![sample(0), sample(1), sample(3)]);
        assert!(!loaded.dropped_partial_line);
    }

    #[test]
    fn a_bad_middle_line_is_an_error() {
        let path = temp("bad.jsonl");
        let good = serde_json::to_string(&sample(0)).unwrap();
        fs::write(&path, format!("{good}\nnot json\n{good}\n")).unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn the_line_format_is_stable() {
        let line = serde_json::to_string(&sample(1)).unwrap();
        assert!(line.starts_with(r#"{"player_a":"random","player_b":"gtp:./x","game":1,"opening":0,"white":"gtp:./x""#), "{line}");
        assert!(
            line.contains(r#""result":"black","reason":"illegal","detail":"chose a1-a4""#),
            "{line}"
        );
    }
}
