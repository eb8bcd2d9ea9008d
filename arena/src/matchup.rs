//! Matches: every pairing of the players plays each opening twice with colours swapped,
//! games run in parallel, each finished game goes to the record at once, and a match
//! resumes from its record without replaying a finished game.

use crate::game::{play_game, PlayedGame};
use crate::player::{Budget, Limit, PlayerError, PlayerFactory};
use crate::record::{self, GameRecord, RecordError, RecordWriter, Winner};
use crate::stats::{Sprt, SprtDecision, Tally};
use breakthrough::{Board, Move, Position};
use indicatif::{ProgressBar, ProgressStyle};
use quasar_core::splitmix64 as mix;
use quasar_core::{Outcome, Side};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The settings of a match, shared by all its pairings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The board every game is played on.
    pub board: Board,
    /// Games per pairing: game `g` uses opening `g / 2`, and player A has White when `g` is even.
    pub games: u32,
    /// The per-move limit of players whose spec sets none.
    pub limit: Limit,
    /// How far past a time limit a move may run before it loses.
    pub tolerance: Duration,
    /// The longest a move under a simulation limit may take before it loses.
    pub sims_safeguard: Duration,
    /// Random plies from the start position that make each opening (0: the start itself).
    pub opening_plies: u32,
    /// Seeds the openings and the players.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Plies after which a game is stopped as a draw.
    pub ply_cap: u32,
    /// Stop early when this test decides (matches of two players only).
    pub sprt: Option<Sprt>,
    /// Draw a progress bar on standard error (it stays hidden when that is not a terminal).
    pub progress: bool,
}

/// A player of the match: the spec text that names it in records, and its factory.
#[derive(Clone)]
pub struct Contestant {
    /// The spec as text; the record keys games by it.
    pub spec: String,
    /// Builds the player of each game.
    pub factory: Arc<dyn PlayerFactory>,
}

/// What went wrong with a match as a whole (a single game never fails: it is lost).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Reading or writing the record failed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A player could not be built for a game.
    #[error("player '{spec}': {error}")]
    Player {
        /// The player's spec.
        spec: String,
        /// Why it could not be built.
        error: PlayerError,
    },
    /// The record holds games of these players under other settings.
    #[error("{0}")]
    Mismatch(String),
    /// The settings cannot make a match.
    #[error("{0}")]
    Settings(String),
}

/// A finished (or resumed, or SPRT-stopped) match.
#[derive(Debug)]
pub struct MatchOutcome {
    /// The games of this match's pairings, resumed ones included, by pairing then number.
    pub games: Vec<GameRecord>,
    /// Games found in the record and not replayed.
    pub resumed: usize,
    /// Games played now.
    pub played: usize,
    /// Whether the record's unfinished last line was dropped.
    pub dropped_partial_line: bool,
    /// The SPRT's decision and log-likelihood ratio, when one ran.
    pub sprt: Option<(SprtDecision, f64)>,
}

/// The pairings of a match of `n` players: every unordered pair once, as `(a, b)`, `a < b`.
pub fn pairings(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}

/// Opening `index`: `plies` uniformly random moves from the start, drawn from `seed`, that
/// leave the game unfinished. The same for every pairing, so all meet the same openings.
pub fn opening(board: Board, plies: u32, seed: u64, index: u32) -> Result<Vec<Move>, String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(0x0_9e41 + index as u64)));
    let start = Position::start(board);
    for _ in 0..1000 {
        let mut pos = start;
        let mut moves = Vec::with_capacity(plies as usize);
        while moves.len() < plies as usize && pos.result().is_none() {
            let Some(mv) = pos.random_move(&mut rng) else {
                break;
            };
            pos.make_move(mv);
            moves.push(mv);
        }
        if moves.len() == plies as usize && pos.result().is_none() {
            return Ok(moves);
        }
    }
    Err(format!(
        "no {plies}-ply random opening on {board} leaves the game open in 1000 tries; use fewer --openings-plies"
    ))
}

/// The seed of the player of `side` in game `game` of pairing `pair`.
fn player_seed(seed: u64, pair: usize, game: u32, side: Side) -> u64 {
    mix(seed ^ mix(((pair as u64) << 40) ^ ((game as u64) << 1) ^ side.index() as u64))
}

/// The effective per-move limit of a contestant.
fn limit_of(cfg: &MatchConfig, c: &Contestant) -> Limit {
    c.factory.own_limit().unwrap_or(cfg.limit)
}

fn budget_text(limit: Limit) -> String {
    limit.to_string()
}

/// Plays every pairing of `players` for `cfg.games` games, skipping games already in the
/// record at `record_path` and appending each new one as it finishes.
pub fn run_match(
    cfg: &MatchConfig,
    players: &[Contestant],
    record_path: &Path,
) -> Result<MatchOutcome, MatchError> {
    if players.len() < 2 {
        return Err(MatchError::Settings(
            "a match needs at least two players".into(),
        ));
    }
    let specs: HashSet<&str> = players.iter().map(|p| p.spec.as_str()).collect();
    if specs.len() != players.len() {
        return Err(MatchError::Settings(
            "the same player is named twice; the record tells players apart by their spec, so vary one (for example random and random:seed=2, or mcts:seed=1 and mcts:seed=2)".into(),
        ));
    }
    if cfg.games == 0 {
        return Err(MatchError::Settings("--games must be at least 1".into()));
    }
    if cfg.sprt.is_some() && players.len() != 2 {
        return Err(MatchError::Settings(
            "--sprt decides between two players; give exactly two".into(),
        ));
    }
    let pairs = pairings(players.len());
    let openings_needed = cfg.games.div_ceil(2);
    let openings: Vec<Vec<Move>> = (0..openings_needed)
        .map(|i| opening(cfg.board, cfg.opening_plies, cfg.seed, i))
        .collect::<Result<_, _>>()
        .map_err(MatchError::Settings)?;
    let loaded = record::load(record_path)?;

    // Keep the record's games of this match's pairings; check they were played alike.
    let mut done: Vec<Vec<Option<GameRecord>>> = vec![vec![None; cfg.games as usize]; pairs.len()];
    let mut resumed = 0;
    for g in loaded.games {
        let Some(pi) = pairs
            .iter()
            .position(|&(a, b)| players[a].spec == g.player_a && players[b].spec == g.player_b)
        else {
            continue;
        };
        let (a, b) = pairs[pi];
        let (white, black) = if g.a_is_white() {
            (&players[a], &players[b])
        } else {
            (&players[b], &players[a])
        };
        let expected = [
            ("board", cfg.board.to_string(), g.board.clone()),
            ("seed", cfg.seed.to_string(), g.seed.to_string()),
            (
                "opening plies",
                cfg.opening_plies.to_string(),
                g.opening_plies.to_string(),
            ),
            (
                "White's budget",
                budget_text(limit_of(cfg, white)),
                g.white_budget.clone(),
            ),
            (
                "Black's budget",
                budget_text(limit_of(cfg, black)),
                g.black_budget.clone(),
            ),
        ];
        for (what, now, then) in expected {
            if now != then {
                return Err(MatchError::Mismatch(format!(
                    "record {} holds game {} of {} vs {} with {what} {then}, but this match has {now}; \
                     use another --record or the same settings",
                    record_path.display(),
                    g.game,
                    g.player_a,
                    g.player_b
                )));
            }
        }
        // Same settings but other openings would mean the opening generator changed.
        if let Some(o) = openings.get(g.opening as usize) {
            let mut pos = Position::start(cfg.board);
            let texts: Vec<String> = o
                .iter()
                .map(|&mv| {
                    let t = pos.format_move(mv);
                    pos.make_move(mv);
                    t
                })
                .collect();
            if texts != g.opening_moves || g.opening != g.game / 2 {
                return Err(MatchError::Mismatch(format!(
                    "record {} holds game {} of {} vs {} with opening {:?}, but this version of quasar \
                     makes {:?} from the same seed; use another --record",
                    record_path.display(),
                    g.game,
                    g.player_a,
                    g.player_b,
                    g.opening_moves,
                    texts
                )));
            }
        }
        let slot = done[pi].get_mut(g.game as usize);
        if let Some(slot @ None) = slot {
            *slot = Some(g);
            resumed += 1;
        }
    }

    let mut pending: Vec<(usize, u32)> = Vec::new();
    for (pi, slots) in done.iter().enumerate() {
        for (g, slot) in slots.iter().enumerate() {
            if slot.is_none() {
                pending.push((pi, g as u32));
            }
        }
    }

    let tally_a = |games: &[&GameRecord]| -> Tally {
        let mut t = Tally::default();
        for g in games {
            match (g.result, g.a_is_white()) {
                (Winner::Draw, _) => t.draws += 1,
                (Winner::White, true) | (Winner::Black, false) => t.wins += 1,
                _ => t.losses += 1,
            }
        }
        t
    };
    let sprt_tally = Mutex::new(tally_a(&done[0].iter().flatten().collect::<Vec<_>>()));
    let stop = AtomicBool::new(false);
    if let Some(sprt) = &cfg.sprt {
        let t = *sprt_tally.lock().unwrap_or_else(|p| p.into_inner());
        if sprt.decide(&t) != SprtDecision::Continue {
            stop.store(true, Ordering::SeqCst);
        }
    }

    let writer = if pending.is_empty() || stop.load(Ordering::SeqCst) {
        None
    } else {
        Some(RecordWriter::open(record_path)?)
    };
    let total = pairs.len() as u64 * cfg.games as u64;
    let bar = if cfg.progress {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
            .expect("the template is valid"),
    );
    bar.set_position(resumed as u64);

    let next = AtomicUsize::new(0);
    let new_games: Mutex<Vec<(usize, GameRecord)>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<MatchError>> = Mutex::new(None);
    let fail = |e: MatchError| {
        let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
        f.get_or_insert(e);
        stop.store(true, Ordering::SeqCst);
    };
    let workers = cfg.jobs.max(1).min(pending.len());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(pi, g)) = pending.get(k) else {
                    break;
                };
                let (a, b) = pairs[pi];
                let rec = match play_one(
                    cfg,
                    pi,
                    g,
                    &players[a],
                    &players[b],
                    &openings[(g / 2) as usize],
                ) {
                    Ok(r) => r,
                    Err(e) => {
                        fail(e);
                        break;
                    }
                };
                if let Some(w) = &writer {
                    if let Err(e) = w.append(&rec) {
                        fail(e.into());
                        break;
                    }
                }
                if let Some(sprt) = &cfg.sprt {
                    let mut t = sprt_tally.lock().unwrap_or_else(|p| p.into_inner());
                    *t = {
                        let mut sum = *t;
                        let one = tally_a(&[&rec]);
                        sum.wins += one.wins;
                        sum.draws += one.draws;
                        sum.losses += one.losses;
                        sum
                    };
                    if sprt.decide(&t) != SprtDecision::Continue {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                new_games
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((pi, rec));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let new_games = new_games.into_inner().unwrap_or_else(|p| p.into_inner());
    let played = new_games.len();
    for (pi, rec) in new_games {
        let g = rec.game as usize;
        done[pi][g] = Some(rec);
    }
    let games: Vec<GameRecord> = done.into_iter().flatten().flatten().collect();
    let sprt = cfg.sprt.map(|s| {
        let t = sprt_tally.into_inner().unwrap_or_else(|p| p.into_inner());
        (s.decide(&t), s.llr(&t))
    });
    Ok(MatchOutcome {
        games,
        resumed,
        played,
        dropped_partial_line: loaded.dropped_partial_line,
        sprt,
    })
}

/// Plays game `g` of pairing `pi` (A = `a`, B = `b`) and makes its record.
fn play_one(
    cfg: &MatchConfig,
    pi: usize,
    g: u32,
    a: &Contestant,
    b: &Contestant,
    opening: &[Move],
) -> Result<GameRecord, MatchError> {
    let a_white = g % 2 == 0;
    let (white, black) = if a_white { (a, b) } else { (b, a) };
    let make = |c: &Contestant, side| {
        c.factory
            .make(player_seed(cfg.seed, pi, g, side))
            .map_err(|error| MatchError::Player {
                spec: c.spec.clone(),
                error,
            })
    };
    let mut wp = make(white, Side::First)?;
    let mut bp = make(black, Side::Second)?;
    let limits = [limit_of(cfg, white), limit_of(cfg, black)];
    let budgets = limits.map(|l| Budget::new(l, cfg.tolerance, cfg.sims_safeguard));
    let start = Position::start(cfg.board);
    let played = play_game(
        [wp.as_mut(), bp.as_mut()],
        &start,
        opening,
        budgets,
        cfg.ply_cap,
    );
    Ok(make_record(
        cfg, a, b, g, white, black, limits, &start, opening, played,
    ))
}

#[allow(clippy::too_many_arguments)]
fn make_record(
    cfg: &MatchConfig,
    a: &Contestant,
    b: &Contestant,
    g: u32,
    white: &Contestant,
    black: &Contestant,
    limits: [Limit; 2],
    start: &Position,
    opening: &[Move],
    played: PlayedGame,
) -> GameRecord {
    let mut pos = *start;
    let mut texts = |moves: &[Move]| -> Vec<String> {
        moves
            .iter()
            .map(|&mv| {
                let t = pos.format_move(mv);
                pos.make_move(mv);
                t
            })
            .collect()
    };
    let opening_moves = texts(opening);
    let moves = texts(&played.moves);
    GameRecord {
        player_a: a.spec.clone(),
        player_b: b.spec.clone(),
        game: g,
        opening: g / 2,
        white: white.spec.clone(),
        black: black.spec.clone(),
        board: cfg.board.to_string(),
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        white_budget: budget_text(limits[0]),
        black_budget: budget_text(limits[1]),
        opening_moves,
        moves,
        times_ms: played
            .times
            .iter()
            .map(|d| (d.as_secs_f64() * 1e7).round() / 1e4)
            .collect(),
        result: match played.outcome {
            Outcome::Win(Side::First) => Winner::White,
            Outcome::Win(Side::Second) => Winner::Black,
            Outcome::Draw => Winner::Draw,
        },
        reason: played.reason,
        detail: played.detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_cover_every_pair_once() {
        assert_eq!(pairings(2), vec![(0, 1)]);
        assert_eq!(pairings(4).len(), 6);
        assert_eq!(pairings(3), vec![(0, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn openings_are_legal_open_and_repeatable() {
        let board = Board::new(6, 6).unwrap();
        for i in 0..20 {
            let o = opening(board, 4, 7, i).unwrap();
            assert_eq!(o, opening(board, 4, 7, i).unwrap());
            let mut pos = Position::start(board);
            let mut legal = Vec::new();
            for &mv in &o {
                pos.generate_moves(&mut legal);
                assert!(legal.contains(&mv));
                pos.make_move(mv);
            }
            assert!(pos.result().is_none());
        }
        assert_ne!(opening(board, 4, 7, 0), opening(board, 4, 7, 1));
        assert_eq!(opening(board, 0, 7, 3).unwrap(), vec![]);
    }
}
