//! A game of an arena's PGN-style record read back as the JSON Lines record holds it.

use super::{winner_of, PgnError, PgnGame};
use crate::game::EndReason;
use crate::record::GameRecord;
use engine::player::MoveInfo;

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
    match tag.parse::<engine::clock::TimeControl>() {
        Ok(tc) if tag.contains('+') => tc.to_string(),
        _ => tag.to_string(),
    }
}

/// A move comment as [`game_text`](super::game_text) writes it (`value 0.620, score +35,
/// 1234 sims, depth 8, 0.012s, [%clk 0:00:09.8]`): what the search said, the move's
/// milliseconds and the clock's milliseconds after it.
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
