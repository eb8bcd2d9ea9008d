//! The writer of PGN-style text: a game's tags and its movetext with comments, and a whole match.

use super::result_token;
use crate::game::EndReason;
use crate::record::GameRecord;
use engine::setup::GameSetup;
use quasar_core::{Game, Side};
use std::fmt::Write as _;
use std::path::Path;

/// The longest line of movetext, as PGN asks.
const LINE: usize = 79;

/// PGN's word for how a game ended.
fn termination(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Win | EndReason::Draw | EndReason::Resigned => "normal",
        EndReason::Time => "time forfeit",
        EndReason::Illegal => "rules infraction",
        EndReason::Crash => "abandoned",
        EndReason::PlyCap | EndReason::Adjudicated => "adjudication",
        EndReason::Unfinished => "unterminated",
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
        ("Result", result_token(rec).into()),
        ("Game", rec.game.clone()),
        ("Parameters", rec.params.clone()),
    ];
    tags.extend(style.tags.iter().cloned());
    // `-`, PGN's "no time control", stands for a person; a clock is PGN's `base+increment`
    // in seconds.
    let per_move = |b: &str| match (b, b.parse::<engine::clock::TimeControl>()) {
        ("-", _) => "-".to_string(),
        (b, Ok(tc)) if b.contains('+') => tc.pgn(),
        (b, _) => format!("{b}/move"),
    };
    if rec.first_budget == rec.second_budget {
        tags.push(("TimeControl", per_move(&rec.first_budget)));
    } else {
        tags.push(("TimeControl", "?".into()));
    }
    let mut text = String::new();
    for (name, value) in &tags {
        let _ = writeln!(text, "[{name} \"{}\"]", quote(value));
    }
    if rec.first_budget != rec.second_budget {
        for (name, budget) in names.iter().zip([&rec.first_budget, &rec.second_budget]) {
            let _ = writeln!(text, "[{name}TimeControl \"{}\"]", quote(&per_move(budget)));
        }
    }
    let _ = writeln!(text, "[Termination \"{}\"]", termination(rec.reason));
    if let Some(detail) = &rec.detail {
        let _ = writeln!(text, "[TerminationDetails \"{}\"]", quote(detail));
    }
    let _ = writeln!(text, "[PlyCount \"{}\"]", rec.moves.len());
    let _ = writeln!(text, "[Reason \"{}\"]", rec.reason.name());
    // What makes the game one of its match, so that `arena report` reads it back.
    if !rec.players.is_empty() {
        let _ = writeln!(text, "[Seed \"{}\"]", rec.seed);
        let _ = writeln!(text, "[Openings \"{}\"]", quote(&rec.openings_text()));
        if let Some(line) = rec.opening_line {
            let _ = writeln!(text, "[OpeningLine \"{line}\"]");
        }
        let _ = writeln!(text, "[PlyCap \"{}\"]", rec.ply_cap);
        if let Some(n) = rec.games_per_pairing {
            let _ = writeln!(text, "[GamesPerPairing \"{n}\"]");
        }
        if let Some(rules) = &rec.value_rules {
            let _ = writeln!(text, "[Adjudication \"{}\"]", quote(rules));
        }
        for (i, p) in rec.players.iter().enumerate() {
            let _ = writeln!(text, "[Player{} \"{}\"]", i + 1, quote(p));
        }
    }
    if let (Some(start), Some(standard)) = (&start, &standard) {
        if start != standard {
            let _ = writeln!(text, "[SetUp \"1\"]");
            let _ = writeln!(text, "[FEN \"{}\"]", quote(&start.position_text()));
        }
    }
    if !rec.opening_moves.is_empty() {
        let _ = writeln!(
            text,
            "[Opening \"{}\"]",
            quote(&rec.opening_moves.join(" "))
        );
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
        if let Some(Some(ms)) = rec.clocks_ms.get(i) {
            let left = std::time::Duration::from_millis(*ms);
            parts.push(format!("[%clk {}]", engine::clock::clk(left)));
        }
        if !parts.is_empty() {
            tokens.push(format!("{{{}}}", comment_text(&parts.join(", "))));
        }
        if side == Side::Second {
            number += 1;
        }
        side = side.opponent();
    }
    tokens.push(result_token(rec).to_string());
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

/// Writes the games of a match (see [`match_text`]) to `path`, atomically.
pub fn write_match<S: GameSetup>(
    path: &Path,
    setup: &S,
    players: &[String],
    games: &[GameRecord],
) -> Result<(), quasar_file::FileError> {
    quasar_file::write(path, match_text(setup, players, games).as_bytes())
}
