//! The reader of PGN-style text: tags, movetext, comments and results.

use super::{PgnError, PgnGame};

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
                if game.tags.is_empty() && game.moves.is_empty() {
                    game.line = line;
                }
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
                // A stray `}` or `]` (or a `[` inside a variation) starts no word: stopping
                // here is the only way on, since skipping it could hide a damaged record.
                if end == i {
                    return Err(PgnError::Unexpected { line, found: c });
                }
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
                    if game.tags.is_empty() && game.moves.is_empty() {
                        game.line = line;
                    }
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
