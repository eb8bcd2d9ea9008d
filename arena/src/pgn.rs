//! PGN-style game records of every game (PDN for checkers): the tags of a tournament game,
//! the movetext in the game's own notation with each move's search information and time as
//! a comment, and a reader of such files. A game supplies only its notation (moves, positions,
//! side names) and its [`RecordStyle`].

use crate::game::EndReason;
use crate::record::{GameRecord, Winner};
use engine::player::MoveInfo;
use engine::setup::{GameSetup, RecordStyle};
use quasar_core::{Game, Outcome, Side};
use std::path::{Path, PathBuf};

mod parse;
mod record;
#[cfg(test)]
mod tests;
mod write;

pub use parse::parse;
pub use record::to_record;
pub use write::{game_text, match_text, write_match};

/// A problem with a PGN-style file.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// A tag line that is not `[Name "value"]`.
    #[error("line {line}: not a tag: {text:?} (write tags as [Name \"value\"])")]
    Tag {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A comment that never closes.
    #[error("line {line}: a comment opened with '{{' is never closed")]
    OpenComment {
        /// 1-based line of the opening brace.
        line: usize,
    },
    /// A closing bracket or brace that nothing opened, or a tag inside a variation.
    #[error("line {line}: unexpected '{found}'")]
    Unexpected {
        /// 1-based line number.
        line: usize,
        /// The character.
        found: char,
    },
    /// No game in the text.
    #[error("no game in the file (expected tags such as [Event \"...\"] and moves)")]
    Empty,
    /// A game that is not one of a quasar arena match.
    #[error(
        "{why}: not a game of a quasar arena match (its games.pgn, or games.pdn for checkers)"
    )]
    NotArena {
        /// What is missing or wrong.
        why: String,
    },
}

/// One game read from a PGN-style file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    /// The tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves, as written.
    pub moves: Vec<String>,
    /// The comment after each move, if any.
    pub comments: Vec<Option<String>>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// The 1-based line of the file where the game begins.
    pub line: usize,
}

impl PgnGame {
    /// The value of the tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The record file beside a JSON Lines record: the same name with the game's extension.
pub fn path_beside(record: &Path, style: &RecordStyle) -> PathBuf {
    record.with_extension(style.extension)
}

/// The result token of a record: `1-0` when the side that moves first won, `*` when the
/// game was left unfinished.
pub fn result_token(rec: &GameRecord) -> &'static str {
    if rec.reason == EndReason::Unfinished {
        return "*";
    }
    match rec.winner {
        Winner::First => "1-0",
        Winner::Second => "0-1",
        Winner::Draw => "1/2-1/2",
    }
}

/// A game played outside a match (`quasar play`), to be saved as a record.
#[derive(Clone, Debug)]
pub struct LoneGame<G: Game> {
    /// The position the game started from.
    pub start: G,
    /// The names of the players of the first and the second side.
    pub players: [String; 2],
    /// Their budgets per move as text (`100ms`, `2000 sims`; `-` for a person).
    pub budgets: [String; 2],
    /// The moves played.
    pub moves: Vec<G::Move>,
    /// The time each move took.
    pub times: Vec<std::time::Duration>,
    /// What the mover's search said about each move, when it says.
    pub infos: Vec<Option<MoveInfo>>,
    /// Who won and why; `None` while the game is unfinished.
    pub end: Option<(Outcome, EndReason)>,
}

impl<G: Game> LoneGame<G> {
    /// A game about to start from `start`.
    pub fn new(start: G, players: [String; 2], budgets: [String; 2]) -> LoneGame<G> {
        LoneGame {
            start,
            players,
            budgets,
            moves: Vec::new(),
            times: Vec::new(),
            infos: Vec::new(),
            end: None,
        }
    }

    /// The game as a record of `setup`'s game (a match of one game).
    pub fn record<S: GameSetup<Game = G>>(&self, setup: &S) -> GameRecord {
        let mut pos = self.start.clone();
        let moves = self
            .moves
            .iter()
            .map(|&mv| {
                let t = pos.move_text(mv);
                pos.play(mv);
                t
            })
            .collect();
        let (outcome, reason) = self.end.unwrap_or((Outcome::Draw, EndReason::Unfinished));
        let detail = match reason {
            EndReason::Win | EndReason::Draw => setup.end_detail(&pos),
            EndReason::Resigned => Some("resigned".into()),
            _ => None,
        };
        let [first, second] = self.players.clone();
        let [first_budget, second_budget] = self.budgets.clone();
        GameRecord {
            game: S::NAME.to_string(),
            params: setup.params(),
            player_a: first.clone(),
            player_b: second.clone(),
            number: 0,
            opening: 0,
            first,
            second,
            seed: 0,
            opening_plies: 0,
            first_budget,
            second_budget,
            ply_cap: 0,
            opening_moves: Vec::new(),
            moves,
            times_ms: self.times.iter().map(|d| d.as_secs_f64() * 1e3).collect(),
            winner: match outcome {
                Outcome::Win(Side::First) => Winner::First,
                Outcome::Win(Side::Second) => Winner::Second,
                Outcome::Draw => Winner::Draw,
            },
            reason,
            detail,
            players: Vec::new(),
            games_per_pairing: None,
            start: Some(self.start.position_text()),
            search: self.infos.clone(),
            openings_file: None,
            opening_line: None,
            clocks_ms: Vec::new(),
            value_rules: None,
        }
    }

    /// Writes the game as a one-game record to `path`, atomically.
    pub fn save<S: GameSetup<Game = G>>(
        &self,
        setup: &S,
        path: &Path,
    ) -> Result<(), quasar_file::FileError> {
        let text = game_text(setup, &self.record(setup), "quasar play", "1");
        quasar_file::write(path, text.as_bytes())
    }
}

/// A recorded game as a replay needs it, read from either kind of record.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The game's name (`breakthrough`), when the record names it.
    pub game: Option<String>,
    /// The game's parameters (`6x6`), when the record gives them.
    pub params: Option<String>,
    /// The position the moves start from, when it is not the standard start.
    pub start: Option<String>,
    /// The names of the players of the first and the second side.
    pub players: [String; 2],
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// A comment on each move (search information, time), when the record has one.
    pub comments: Vec<Option<String>>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// How the game ended in words, when the record says.
    pub detail: Option<String>,
    /// The tags of a PGN-style record (empty for JSON Lines), for finding the game by them.
    pub tags: Vec<(String, String)>,
    /// Why the game ended, when the record says (the arena's records do).
    pub reason: Option<EndReason>,
    /// The 1-based line of the record where the game begins, when known.
    pub line: Option<usize>,
}

impl Replay {
    /// A game of the arena's JSON Lines record.
    pub fn of_record(rec: &GameRecord) -> Replay {
        let comments = (0..rec.moves.len())
            .map(|i| {
                let mut parts = Vec::new();
                if let Some(Some(info)) = rec.search.get(i) {
                    parts.push(info.comment());
                }
                if let Some(ms) = rec.times_ms.get(i) {
                    parts.push(format!("{:.3}s", ms / 1000.0));
                }
                parts.retain(|p| !p.is_empty());
                (!parts.is_empty()).then(|| parts.join(", "))
            })
            .collect();
        // An older record without its start: the opening's moves come first.
        let (start, moves) = match &rec.start {
            Some(s) => (Some(s.clone()), rec.moves.clone()),
            None => (
                None,
                [rec.opening_moves.clone(), rec.moves.clone()].concat(),
            ),
        };
        let mut comments: Vec<Option<String>> = comments;
        if rec.start.is_none() {
            let mut all = vec![None; rec.opening_moves.len()];
            all.append(&mut comments);
            comments = all;
        }
        Replay {
            game: Some(rec.game.clone()),
            params: Some(rec.params.clone()),
            start,
            players: [rec.first.clone(), rec.second.clone()],
            moves,
            comments,
            result: result_token(rec).to_string(),
            detail: rec.detail.clone(),
            tags: Vec::new(),
            reason: Some(rec.reason),
            line: None,
        }
    }

    /// A game of a PGN-style file; `sides` are the game's names of its sides (the tags
    /// of its players), when known.
    pub fn of_pgn(g: &PgnGame, sides: Option<[&str; 2]>) -> Replay {
        let [a, b] = sides.unwrap_or(["White", "Black"]);
        Replay {
            game: g.tag("Game").map(str::to_string),
            params: g.tag("Parameters").map(str::to_string),
            start: g.tag("FEN").map(str::to_string),
            players: [a, b].map(|s| g.tag(s).unwrap_or("?").to_string()),
            moves: g.moves.clone(),
            comments: g.comments.clone(),
            result: g.result.clone(),
            detail: g.tag("TerminationDetails").map(str::to_string),
            tags: g.tags.clone(),
            reason: g.tag("Reason").and_then(EndReason::from_name),
            line: Some(g.line),
        }
    }
}

/// The winner a result token names (`1-0`, PDN's `2-0`...); `None` for `*` and others.
pub fn winner_of(token: &str) -> Option<Winner> {
    match token {
        "1-0" | "2-0" => Some(Winner::First),
        "0-1" | "0-2" => Some(Winner::Second),
        "1/2-1/2" | "1-1" => Some(Winner::Draw),
        _ => None,
    }
}

/// Why a record cannot be read for a replay.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] quasar_file::FileError),
    /// A JSON Lines record that does not parse.
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    /// A PGN-style file that does not parse.
    #[error("{path}: {source}")]
    Pgn {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: PgnError,
    },
}

/// The largest record a replay reads.
const MAX_RECORD: u64 = 1 << 30;

/// What kind of record a file is, and its text.
#[derive(Debug)]
pub enum RecordText {
    /// The arena's JSON Lines record.
    JsonLines(crate::record::Loaded),
    /// A PGN-style file.
    Pgn(Vec<PgnGame>),
}

/// Reads a record of either kind: JSON Lines when its first character is `{`, else PGN-style.
pub fn read_record(path: &Path) -> Result<RecordText, ReadError> {
    let text = quasar_file::read_to_string(path, MAX_RECORD, "game record")?;
    if text.trim_start().starts_with('{') {
        Ok(RecordText::JsonLines(crate::record::parse(path, &text)?))
    } else {
        parse(&text)
            .map(RecordText::Pgn)
            .map_err(|source| ReadError::Pgn {
                path: path.to_path_buf(),
                source,
            })
    }
}
