//! The JSON Lines game record: one finished game per line, appended and flushed at once,
//! read back to resume an interrupted match (a truncated last line is dropped), locked
//! against a second run and checked for games recorded twice.

use crate::game::EndReason;
use engine::player::MoveInfo;
use quasar_core::GameResult;
use quasar_file::{self as file, FileError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Who won a recorded game, by the side that moved first or second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The side that moves first won.
    First,
    /// The side that moves second won.
    Second,
    /// Nobody won.
    Draw,
}

/// One finished game as a line of the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game as `--game` names it (`breakthrough`).
    pub game: String,
    /// The game's size parameters (`6x6`).
    pub params: String,
    /// Player A of the pairing (its spec text).
    pub player_a: String,
    /// Player B of the pairing.
    pub player_b: String,
    /// The game's number within the pairing: opening `number / 2`, A moves first when even.
    pub number: u32,
    /// The opening's number.
    pub opening: u32,
    /// The spec of the player that moved first.
    pub first: String,
    /// The spec of the player that moved second.
    pub second: String,
    /// The match seed that generated the openings and the players' seeds.
    pub seed: u64,
    /// The opening's random plies.
    pub opening_plies: u32,
    /// The first player's budget per move, as text (`100ms`, `5000 sims`).
    pub first_budget: String,
    /// The second player's budget per move.
    pub second_budget: String,
    /// Plies after which the game would have been stopped as a draw.
    pub ply_cap: u32,
    /// The opening's moves from the start position.
    pub opening_moves: Vec<String>,
    /// The moves played after the opening.
    pub moves: Vec<String>,
    /// Wall-clock milliseconds of each move in `moves`.
    pub times_ms: Vec<f64>,
    /// Who won.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: EndReason,
    /// The game's own words for the end, or those of a forfeit (illegal move, overrun,
    /// engine error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Every player of the match, in the order given (which orders the pairings); empty in
    /// records written before it was kept. `arena report` checks that merged records agree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// The match's games per pairing when this game was played (a resumed match may ask
    /// for more); `None` in older records. `arena report` counts missing games by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_per_pairing: Option<u32>,
    /// The position the moves start from (after the opening), in the game's text; `None`
    /// in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// What the mover's search said about each move in `moves` (`null` where it said
    /// nothing); empty in older records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search: Vec<Option<MoveInfo>>,
    /// The openings file the start came from, by content hash and order
    /// (`file 0123456789abcdef, sequential`); `None` for openings of random plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_file: Option<String>,
    /// The start's 1-based line in the openings file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_line: Option<u32>,
    /// Under a clock, the milliseconds left on the mover's clock after each move in `moves`
    /// (its increment added; `null` for a side without a clock); empty without clocks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks_ms: Vec<Option<u64>>,
    /// The resign and draw rules the match ran under (`none`, or as `--resign` and `--draw`
    /// read them); `None` in records written before rules were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_rules: Option<String>,
}

impl GameRecord {
    /// Where the match's openings came from, as the record check and `arena report`
    /// compare it: the openings file (`file HASH, ORDER`) or `N random plies`.
    pub fn openings_text(&self) -> String {
        match &self.openings_file {
            Some(f) => f.clone(),
            None => format!("{} random plies", self.opening_plies),
        }
    }

    /// Whether player A moved first.
    pub fn a_moves_first(&self) -> bool {
        self.number.is_multiple_of(2)
    }

    /// The result for the side that moved first.
    pub fn first_result(&self) -> GameResult {
        match self.winner {
            Winner::First => GameResult::Win,
            Winner::Second => GameResult::Loss,
            Winner::Draw => GameResult::Draw,
        }
    }

    /// The result for player A.
    pub fn a_result(&self) -> GameResult {
        if self.a_moves_first() {
            self.first_result()
        } else {
            self.first_result().flip()
        }
    }
}

/// A problem with the record file, with its path.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file layer refused the record (a device, a FIFO, a directory).
    #[error("record {0}")]
    File(#[from] FileError),
    /// The file could not be read, created or written.
    #[error("record {path}: {source}")]
    Io {
        /// The record's path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Another run holds the record's lock.
    #[error("record {path} is in use by another quasar arena run; wait for it to finish, or give this run another --record")]
    InUse {
        /// The record's path.
        path: PathBuf,
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
    /// Two lines record the same game of the same pairing.
    #[error("record {path} holds game {number} of {player_a} vs {player_b} twice (lines {first_line} and {second_line}): \
             two runs wrote it at once or it was edited; delete one of the lines, or use another --record")]
    Duplicate {
        /// The record's path.
        path: PathBuf,
        /// The game's number.
        number: u32,
        /// Player A's spec.
        player_a: String,
        /// Player B's spec.
        player_b: String,
        /// 1-based line of the first copy.
        first_line: usize,
        /// 1-based line of the second copy.
        second_line: usize,
    },
}

/// What reading a record found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// The 1-based line of each game in the file.
    pub lines: Vec<usize>,
    /// Whether an unfinished last line (a write cut short) was dropped.
    pub dropped_partial_line: bool,
}

/// Reads the games of a record's text; an unparsable last line without its newline is the
/// trace of an interrupted write and is dropped; elsewhere a bad line is an error, and so
/// is a game recorded twice.
pub fn parse(path: &Path, text: &str) -> Result<Loaded, RecordError> {
    let mut loaded = Loaded::default();
    let ends_cleanly = text.is_empty() || text.ends_with('\n');
    let lines: Vec<&str> = text.split('\n').collect();
    let mut seen: HashMap<(String, String, u32), usize> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(g) => {
                let key = (g.player_a.clone(), g.player_b.clone(), g.number);
                if let Some(&first_line) = seen.get(&key) {
                    return Err(RecordError::Duplicate {
                        path: path.to_path_buf(),
                        number: g.number,
                        player_a: g.player_a,
                        player_b: g.player_b,
                        first_line,
                        second_line: i + 1,
                    });
                }
                seen.insert(key, i + 1);
                loaded.games.push(g);
                loaded.lines.push(i + 1);
            }
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

/// Reads every game of a record without locking it; a missing file is an empty record.
pub fn load(path: &Path) -> Result<Loaded, RecordError> {
    // A record is as long as its games: a regular file's length bounds the read.
    match file::read(path, u64::MAX, "game record") {
        Ok(bytes) => parse(path, &String::from_utf8_lossy(&bytes)),
        Err(e) if e.is_not_found() => Ok(Loaded::default()),
        Err(e) => Err(e.into()),
    }
}

/// A record opened for a match: locked against other runs until dropped, its games read,
/// and new games appended one line each, flushed before `append` returns; shared by the
/// threads that play games.
#[derive(Debug)]
pub struct RecordWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl RecordWriter {
    /// Opens (creating it and its directory) and locks `path`, reads its games, and cuts
    /// off a partial last line left by an interrupted write so the next line starts
    /// cleanly. The lock is the system's advisory file lock: it ends with the process, so a
    /// killed run leaves nothing stale behind.
    pub fn open(path: &Path) -> Result<(RecordWriter, Loaded), RecordError> {
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        // A device or a FIFO would never end (or never start): refused before opening.
        file::check_output(path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        if !file::try_lock(&file).map_err(io)? {
            return Err(RecordError::InUse {
                path: path.to_path_buf(),
            });
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let text = String::from_utf8_lossy(&bytes);
        let loaded = parse(path, &text)?;
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(keep as u64).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((
            RecordWriter {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            loaded,
        ))
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
        // One write of the whole line at the end: a crash leaves at most one partial line.
        file.seek(SeekFrom::End(0))
            .and_then(|_| file.write_all(line.as_bytes()))
            .and_then(|_| file.flush())
            .map_err(|source| RecordError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
impl GameRecord {
    /// Game `number` of the pairing (a, b) of a 6x6 Breakthrough match, for tests: A moves
    /// first in the even games, 100 ms a move; no moves, won by the first player.
    pub(crate) fn for_test(a: &str, b: &str, number: u32) -> GameRecord {
        let a_first = number.is_multiple_of(2);
        GameRecord {
            game: "breakthrough".into(),
            params: "6x6".into(),
            player_a: a.into(),
            player_b: b.into(),
            number,
            opening: number / 2,
            first: if a_first { a } else { b }.into(),
            second: if a_first { b } else { a }.into(),
            seed: 1,
            opening_plies: 0,
            first_budget: "100ms".into(),
            second_budget: "100ms".into(),
            ply_cap: 1000,
            opening_moves: vec![],
            moves: vec![],
            times_ms: vec![],
            winner: Winner::First,
            reason: EndReason::Win,
            detail: None,
            players: vec![],
            games_per_pairing: None,
            start: None,
            search: vec![],
            openings_file: None,
            opening_line: None,
            clocks_ms: Vec::new(),
            value_rules: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(number: u32) -> GameRecord {
        GameRecord {
            opening_plies: 2,
            opening_moves: vec!["a2-a3".into(), "b5-b4".into()],
            moves: vec!["c2-c3".into()],
            times_ms: vec![0.25],
            winner: Winner::Second,
            reason: EndReason::Illegal,
            detail: Some("chose a1-a4".into()),
            players: vec!["random".into(), "gtp:./x".into()],
            games_per_pairing: Some(20),
            start: Some("BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w".into()),
            search: vec![Some(MoveInfo {
                value: Some(0.5),
                sims: Some(100),
                ..MoveInfo::default()
            })],
            ..GameRecord::for_test("random", "gtp:./x", number)
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
        let (w, loaded) = RecordWriter::open(&path).unwrap();
        assert!(loaded.games.is_empty());
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
        let (w, loaded) = RecordWriter::open(&path).unwrap();
        assert!(loaded.dropped_partial_line);
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
    fn a_game_recorded_twice_is_refused() {
        let path = temp("twice.jsonl");
        let line = |n| serde_json::to_string(&sample(n)).unwrap();
        fs::write(&path, format!("{}\n{}\n{}\n", line(0), line(1), line(0))).unwrap();
        let e = load(&path).unwrap_err();
        assert!(
            matches!(
                e,
                RecordError::Duplicate {
                    number: 0,
                    first_line: 1,
                    second_line: 3,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("twice (lines 1 and 3)"), "{e}");
        assert!(RecordWriter::open(&path).is_err());
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_lock() {
        let path = temp("locked.jsonl");
        let (first, _) = RecordWriter::open(&path).unwrap();
        let e = RecordWriter::open(&path).expect_err("the record is locked");
        assert!(matches!(e, RecordError::InUse { .. }), "{e}");
        assert!(e.to_string().contains("in use by another"), "{e}");
        drop(first);
        assert!(
            RecordWriter::open(&path).is_ok(),
            "the lock ends with its writer"
        );
    }

    #[test]
    fn the_line_format_is_stable() {
        let line = serde_json::to_string(&sample(1)).unwrap();
        assert!(line.starts_with(r#"{"game":"breakthrough","params":"6x6","player_a":"random","player_b":"gtp:./x","number":1,"opening":0,"first":"gtp:./x""#), "{line}");
        assert!(
            line.contains(r#""winner":"second","reason":"illegal","detail":"chose a1-a4""#),
            "{line}"
        );
        assert!(line.contains(r#""ply_cap":1000"#), "{line}");
        assert!(
            line.ends_with(
                r#""players":["random","gtp:./x"],"games_per_pairing":20,"start":"BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w","search":[{"value":0.5,"sims":100}]}"#
            ),
            "{line}"
        );
    }

    #[test]
    fn a_record_without_the_players_list_still_reads() {
        let mut old = serde_json::to_value(sample(0)).unwrap();
        old.as_object_mut().unwrap().remove("players");
        old.as_object_mut().unwrap().remove("games_per_pairing");
        old.as_object_mut().unwrap().remove("start");
        old.as_object_mut().unwrap().remove("search");
        let g: GameRecord = serde_json::from_value(old).unwrap();
        assert!(g.players.is_empty() && g.games_per_pairing.is_none());
        assert!(g.start.is_none() && g.search.is_empty());
        let mut no_list = sample(0);
        no_list.players.clear();
        no_list.games_per_pairing = None;
        no_list.start = None;
        no_list.search.clear();
        let line = serde_json::to_string(&no_list).unwrap();
        assert!(line.ends_with(r#""detail":"chose a1-a4"}"#), "{line}");
    }
}
