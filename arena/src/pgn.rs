//! PGN-style game records of every game (PDN for checkers): the tags of a tournament game,
//! the movetext in the game's own notation with each move's search information and time as
//! a comment, and a reader of such files. A game supplies only its notation (moves, positions,
//! side names) and its [`RecordStyle`].

use crate::game::EndReason;
use crate::record::{GameRecord, Winner};
use crate::setup::{GameSetup, RecordStyle};
use quasar_core::{Game, Side};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The longest line of movetext, as PGN asks.
const LINE: usize = 79;

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
    /// No game in the text.
    #[error("no game in the file (expected tags such as [Event \"...\"] and moves)")]
    Empty,
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

/// The result token of a record: `1-0` when the side that moves first won.
pub fn result_token(winner: Winner) -> &'static str {
    match winner {
        Winner::First => "1-0",
        Winner::Second => "0-1",
        Winner::Draw => "1/2-1/2",
    }
}

/// PGN's word for how a game ended.
fn termination(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Win | EndReason::Draw | EndReason::Resigned => "normal",
        EndReason::Time => "time forfeit",
        EndReason::Illegal => "rules infraction",
        EndReason::Crash => "abandoned",
        EndReason::PlyCap => "adjudication",
    }
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Text inside a comment may not close it.
fn comment_text(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

/// One game as PGN-style text, ending with a blank line. `event` names the match, `round`
/// numbers the game in it. The start position goes into a `FEN` tag when it is not the
/// setup's standard start; an unreadable start is taken as the standard one.
pub fn game_text<S: GameSetup>(setup: &S, rec: &GameRecord, event: &str, round: &str) -> String {
    let style = setup.record_style();
    let standard = setup.start().ok();
    let start = rec
        .start
        .as_deref()
        .and_then(|t| S::Game::parse_position(t).ok())
        .or_else(|| standard.clone());
    let to_move = start.as_ref().map_or(Side::First, |p| p.side_to_move());
    let names = [
        <S::Game as Game>::side_name(Side::First),
        <S::Game as Game>::side_name(Side::Second),
    ];
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "?".into()),
        ("Date", "????.??.??".into()),
        ("Round", round.to_string()),
        (names[0], rec.first.clone()),
        (names[1], rec.second.clone()),
        ("Result", result_token(rec.winner).into()),
        ("Game", rec.game.clone()),
        ("Parameters", rec.params.clone()),
    ];
    tags.extend(style.tags.iter().cloned());
    if rec.first_budget == rec.second_budget {
        tags.push(("TimeControl", format!("{}/move", rec.first_budget)));
    } else {
        tags.push(("TimeControl", "?".into()));
    }
    let mut text = String::new();
    for (name, value) in &tags {
        let _ = writeln!(text, "[{name} \"{}\"]", quote(value));
    }
    if rec.first_budget != rec.second_budget {
        for (name, budget) in names.iter().zip([&rec.first_budget, &rec.second_budget]) {
            let _ = writeln!(text, "[{name}TimeControl \"{}/move\"]", quote(budget));
        }
    }
    let _ = writeln!(text, "[Termination \"{}\"]", termination(rec.reason));
    let _ = writeln!(text, "[PlyCount \"{}\"]", rec.moves.len());
    if let (Some(start), Some(standard)) = (&start, &standard) {
        if start != standard {
            let _ = writeln!(text, "[SetUp \"1\"]");
            let _ = writeln!(text, "[FEN \"{}\"]", quote(&start.position_text()));
        }
    }
    if !rec.opening_moves.is_empty() {
        let _ = writeln!(text, "[Opening \"{}\"]", quote(&rec.opening_moves.join(" ")));
    }
    text.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut side = to_move;
    let mut number = 1;
    for (i, mv) in rec.moves.iter().enumerate() {
        if side == Side::First {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(mv.clone());
        let mut parts = Vec::new();
        if let Some(Some(info)) = rec.search.get(i) {
            let c = info.comment();
            if !c.is_empty() {
                parts.push(c);
            }
        }
        if let Some(ms) = rec.times_ms.get(i) {
            parts.push(format!("{:.3}s", ms / 1000.0));
        }
        if !parts.is_empty() {
            tokens.push(format!("{{{}}}", comment_text(&parts.join(", "))));
        }
        if side == Side::Second {
            number += 1;
        }
        side = side.opponent();
    }
    if let Some(detail) = &rec.detail {
        tokens.push(format!("{{{}}}", comment_text(detail)));
    }
    tokens.push(result_token(rec.winner).to_string());
    let mut line = String::new();
    for t in tokens {
        // A comment's words may wrap; a move never does.
        for word in split_comment(&t) {
            if !line.is_empty() && line.len() + 1 + word.len() > LINE {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// A comment token as words (so that long comments wrap), any other token whole.
fn split_comment(token: &str) -> Vec<String> {
    if token.starts_with('{') {
        token.split(' ').map(str::to_string).collect()
    } else {
        vec![token.to_string()]
    }
}

/// The games of a match as one PGN-style text, numbered `pairing.game` from 1 in the order
/// of `players` (the match's players; a game of another pairing counts as pairing 0).
pub fn match_text<S: GameSetup>(setup: &S, players: &[String], games: &[GameRecord]) -> String {
    let pairs = crate::matchup::pairings(players.len());
    let mut text = String::new();
    for g in games {
        let pairing = pairs
            .iter()
            .position(|&(a, b)| players[a] == g.player_a && players[b] == g.player_b)
            .map_or(0, |i| i + 1);
        let event = format!("quasar arena: {} vs {}", g.player_a, g.player_b);
        let round = format!("{pairing}.{}", g.number + 1);
        text.push_str(&game_text(setup, g, &event, &round));
    }
    text
}

/// Writes `text` to `path` through a temporary file beside it, so that a reader never sees
/// half a file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Reads every game of a PGN-style text: tags, moves, comments and result; move numbers,
/// NAGs (`$1`) and variations in parentheses are skipped.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut chars = text.char_indices().peekable();
    let mut line = 1;
    let mut depth = 0u32;
    let finish = |game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        if !game.tags.is_empty() || !game.moves.is_empty() {
            games.push(std::mem::take(game));
        }
    };
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                chars.next();
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            '[' if depth == 0 => {
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                let raw = text[i..end].trim_end();
                if in_moves {
                    finish(&mut game, &mut games);
                    in_moves = false;
                }
                let tag = parse_tag(raw).ok_or_else(|| PgnError::Tag {
                    line,
                    text: raw.to_string(),
                })?;
                game.tags.push(tag);
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
            }
            '{' => {
                let start_line = line;
                let Some(close) = text[i..].find('}') else {
                    return Err(PgnError::OpenComment { line: start_line });
                };
                let body = &text[i + 1..i + close];
                line += body.matches('\n').count();
                if depth == 0 {
                    if let Some(last) = game.comments.last_mut() {
                        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
                        *last = Some(match last.take() {
                            Some(before) => format!("{before} {body}"),
                            None => body,
                        });
                    }
                }
                while chars.peek().is_some_and(|&(j, _)| j <= i + close) {
                    chars.next();
                }
            }
            ';' => {
                while chars.peek().is_some_and(|&(_, c)| c != '\n') {
                    chars.next();
                }
            }
            '(' => {
                depth += 1;
                chars.next();
            }
            ')' => {
                depth = depth.saturating_sub(1);
                chars.next();
            }
            _ => {
                let end = text[i..]
                    .find(|c: char| c.is_whitespace() || "{}()[];".contains(c))
                    .map_or(text.len(), |e| i + e);
                let word = &text[i..end];
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
                in_moves = true;
                if depth > 0 || word.starts_with('$') {
                    continue;
                }
                if matches!(
                    word,
                    "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1" | "0-0"
                ) {
                    game.result = word.to_string();
                    finish(&mut game, &mut games);
                    in_moves = false;
                    continue;
                }
                let mv = strip_number(word);
                if !mv.is_empty() {
                    game.moves.push(mv.to_string());
                    game.comments.push(None);
                }
            }
        }
    }
    finish(&mut game, &mut games);
    if games.is_empty() {
        return Err(PgnError::Empty);
    }
    Ok(games)
}

/// A move without a move number before it (`12.` or `12...`); a bare number is nothing.
fn strip_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    }
}

/// `[Name "value"]` as its name and unescaped value.
fn parse_tag(raw: &str) -> Option<(String, String)> {
    let inner = raw.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    for c in body.chars() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_comments_and_results_are_read() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Result \"1-0\"]\n\n1. a2-a3 {value 0.5, 0.010s} \
                    b5-b4 2. c2xb3 $1 (2. d2-d3) ; a line comment\n{the end} 1-0\n\n\
                    [Event \"x\"]\n1... 9-13 {a\ncomment} 22x15x6 1/2-1/2\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        assert_eq!(games[0].moves, vec!["a2-a3", "b5-b4", "c2xb3"]);
        assert_eq!(
            games[0].comments,
            vec![
                Some("value 0.5, 0.010s".to_string()),
                None,
                Some("the end".to_string())
            ]
        );
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].moves, vec!["9-13", "22x15x6"]);
        assert_eq!(games[1].comments[0].as_deref(), Some("a comment"));
        assert_eq!(games[1].result, "1/2-1/2");
    }

    #[test]
    fn bad_files_say_where() {
        let e = parse("[Event \"x\"]\n[Broken\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("[Broken"), "{e}");
        let e = parse("[Event \"x\"]\n1. a2-a3 {never closed\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("never closed"), "{e}");
        assert!(matches!(parse("  \n"), Err(PgnError::Empty)));
    }
}
