//! PGN-style game records of every game (PDN for checkers): the tags of a tournament game,
//! the movetext in the game's own notation with each move's search information and time as
//! a comment, and a reader of such files. A game supplies only its notation (moves, positions,
//! side names) and its [`RecordStyle`].

use crate::game::EndReason;
use crate::player::MoveInfo;
use crate::record::{GameRecord, Winner};
use crate::setup::{GameSetup, RecordStyle};
use quasar_core::{Game, Outcome, Side};
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
    let per_move = |b: &str| match (b, b.parse::<crate::clock::TimeControl>()) {
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
            parts.push(format!("[%clk {}]", crate::clock::clk(left)));
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
    ) -> Result<(), quasar_core::file::FileError> {
        let text = game_text(setup, &self.record(setup), "quasar play", "1");
        quasar_core::file::write(path, text.as_bytes())
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

/// A game of an arena's PGN-style record as the JSON Lines record holds it, for `arena
/// report`: the match's tags (`Round`, `Seed`, `Openings`, `PlyCap`, `Player1`...) give
/// its place and settings, the time control tags its budgets, the move comments what each
/// search said, its time and its clock (`[%clk]`, to a tenth of a second). Principal
/// variations are not in the file.
pub fn to_record(g: &PgnGame) -> Result<GameRecord, PgnError> {
    let missing = |tag: &'static str| PgnError::NotArena {
        why: format!("it has no {tag} tag"),
    };
    let tag = |name: &'static str| g.tag(name).ok_or_else(|| missing(name));
    let bad = |name: &str, value: &str| PgnError::NotArena {
        why: format!("its {name} tag {value:?} does not read"),
    };
    let number_of = |name: &'static str| -> Result<u32, PgnError> {
        let v = tag(name)?;
        v.parse().map_err(|_| bad(name, v))
    };
    let players: Vec<String> = (1..)
        .map_while(|i| g.tag(&format!("Player{i}")).map(str::to_string))
        .collect();
    if players.len() < 2 {
        return Err(missing("Player1 and Player2"));
    }
    let round = tag("Round")?;
    let (pairing, number) = round
        .split_once('.')
        .and_then(|(p, n)| Some((p.parse::<usize>().ok()?, n.parse::<u32>().ok()?)))
        .filter(|&(p, n)| p >= 1 && n >= 1)
        .ok_or_else(|| bad("Round", round))?;
    let &(a, b) = crate::matchup::pairings(players.len())
        .get(pairing - 1)
        .ok_or_else(|| bad("Round", round))?;
    let (player_a, player_b) = (players[a].clone(), players[b].clone());
    let number = number - 1;
    let (first, second) = match number % 2 {
        0 => (player_a.clone(), player_b.clone()),
        _ => (player_b.clone(), player_a.clone()),
    };
    let openings = tag("Openings")?;
    let (opening_plies, openings_file) = match openings.strip_suffix(" random plies") {
        Some(n) => (n.parse().map_err(|_| bad("Openings", openings))?, None),
        None if openings.starts_with("file ") => (0, Some(openings.to_string())),
        None => return Err(bad("Openings", openings)),
    };
    // Sides with budgets of their own have a `<Side>TimeControl` tag each, in side order.
    let sides: Vec<&str> = g
        .tags
        .iter()
        .filter(|(n, _)| n.len() > "TimeControl".len() && n.ends_with("TimeControl"))
        .map(|(_, v)| v.as_str())
        .collect();
    let budgets = match sides[..] {
        [first, second] => [first, second],
        _ => [tag("TimeControl")?; 2],
    };
    let [first_budget, second_budget] = budgets.map(budget_of_pgn);
    let result = g.result.as_str();
    let winner = winner_of(result).ok_or_else(|| bad("Result", result))?;
    let reason = tag("Reason")?;
    let reason = EndReason::from_name(reason).ok_or_else(|| bad("Reason", reason))?;
    let mut times_ms = Vec::new();
    let mut search = Vec::new();
    let mut clocks_ms = Vec::new();
    for c in &g.comments {
        let (info, time, clock) = read_comment(c.as_deref().unwrap_or(""));
        search.push(info);
        times_ms.push(time.unwrap_or(0.0));
        clocks_ms.push(clock);
    }
    if clocks_ms.iter().all(Option::is_none) {
        clocks_ms.clear();
    }
    if search.iter().all(Option::is_none) {
        search.clear();
    }
    Ok(GameRecord {
        game: tag("Game")?.to_string(),
        params: tag("Parameters")?.to_string(),
        player_a,
        player_b,
        number,
        opening: number / 2,
        first,
        second,
        seed: {
            let seed = tag("Seed")?;
            seed.parse().map_err(|_| bad("Seed", seed))?
        },
        opening_plies,
        first_budget,
        second_budget,
        ply_cap: number_of("PlyCap")?,
        opening_moves: g
            .tag("Opening")
            .map(|o| o.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        moves: g.moves.clone(),
        times_ms,
        winner,
        reason,
        detail: g.tag("TerminationDetails").map(str::to_string),
        players,
        games_per_pairing: match g.tag("GamesPerPairing") {
            Some(_) => Some(number_of("GamesPerPairing")?),
            None => None,
        },
        start: g.tag("FEN").map(str::to_string),
        search,
        openings_file,
        opening_line: match g.tag("OpeningLine") {
            Some(_) => Some(number_of("OpeningLine")?),
            None => None,
        },
        clocks_ms,
        value_rules: g.tag("Adjudication").map(str::to_string),
    })
}

/// A budget as the JSON Lines record writes it, from a time control tag: `100ms/move` is
/// `100ms`, PGN's `10+0.1` the clock `10s+100ms`; anything else is kept as written.
fn budget_of_pgn(tag: &str) -> String {
    if let Some(per_move) = tag.strip_suffix("/move") {
        return per_move.to_string();
    }
    match tag.parse::<crate::clock::TimeControl>() {
        Ok(tc) if tag.contains('+') => tc.to_string(),
        _ => tag.to_string(),
    }
}

/// A move comment as [`game_text`] writes it (`value 0.620, score +35, 1234 sims, depth 8,
/// 0.012s, [%clk 0:00:09.8]`): what the search said, the move's milliseconds and the
/// clock's milliseconds after it.
fn read_comment(comment: &str) -> (Option<MoveInfo>, Option<f64>, Option<u64>) {
    let mut info = MoveInfo::default();
    let (mut time, mut clock) = (None, None);
    for part in comment.split(", ").map(str::trim) {
        if let Some(v) = part.strip_prefix("value ") {
            info.value = v.parse().ok();
        } else if let Some(v) = part.strip_prefix("score ") {
            info.score = Some(v.to_string());
        } else if let Some(v) = part.strip_suffix(" sims") {
            info.sims = v.parse().ok();
        } else if let Some(v) = part.strip_prefix("depth ") {
            info.depth = v.parse().ok();
        } else if let Some(v) = part
            .strip_prefix("[%clk ")
            .and_then(|c| c.strip_suffix(']'))
        {
            clock = read_clk(v);
        } else if let Some(v) = part.strip_suffix('s').and_then(|t| t.parse::<f64>().ok()) {
            time = Some(v * 1000.0);
        }
    }
    let said = info != MoveInfo::default();
    (said.then_some(info), time, clock)
}

/// Milliseconds of a `%clk` value, `h:mm:ss.s`.
fn read_clk(text: &str) -> Option<u64> {
    let mut parts = text.rsplitn(3, ':');
    let s: f64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next()?.parse().ok()?;
    let h: u64 = parts.next().map_or(Some(0), |h| h.parse().ok())?;
    (s.is_finite() && s >= 0.0).then(|| (h * 3600 + m * 60) * 1000 + (s * 1000.0).round() as u64)
}

/// Why a record cannot be read for a replay.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] quasar_core::file::FileError),
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
    let text = quasar_core::file::read_to_string(path, MAX_RECORD, "game record")?;
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

/// Writes the games of a match (see [`match_text`]) to `path`, atomically.
pub fn write_match<S: GameSetup>(
    path: &Path,
    setup: &S,
    players: &[String],
    games: &[GameRecord],
) -> Result<(), quasar_core::file::FileError> {
    quasar_core::file::write(path, match_text(setup, players, games).as_bytes())
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
        for (text, line, found) in [
            (
                "[Event \"x\"]\n\n1. 11-15 {a {nested} comment} 23-19 *\n",
                3,
                '}',
            ),
            ("[Event \"x\"]\n1. a2-a3 {x}} *\n", 2, '}'),
            ("]\n", 1, ']'),
            ("1. a2-a3 (1. b2-b3 [Event \"y\"]) *\n", 1, '['),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert_eq!(e, format!("line {line}: unexpected '{found}'"), "{text:?}");
        }
    }
}
