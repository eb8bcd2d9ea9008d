//! Matches of any game: every pairing of the players plays each opening twice with the
//! sides swapped, games run in parallel, each finished game goes to the record at once, and
//! a match resumes from its record without replaying a finished game. A match can be split
//! into shards (`--shard i/N`), one job of a cluster each, whose records merge into the
//! whole match (`crate::merge`).

use crate::game::Adjudicator;
use crate::openings::OpeningBook;
use crate::record::{GameRecord, RecordWriter};
use crate::stats::{Sprt, SprtDecision, Tally};
use crate::value_rules::ValueRules;
use engine::clock::TimeControl;
use engine::player::PlayerFactory;
use engine::random_player::random_move;
use engine::setup::GameSetup;
use quasar_core::progress::Progress;
use quasar_core::splitmix64 as mix;
use quasar_core::Limit;
use quasar_core::{Game, Shard};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod error;
mod play;
#[cfg(test)]
mod tests;

pub use error::{InvalidGame, MatchError, Mismatch, SettingsError};
use play::{budget_text, move_texts, play_one};

/// The settings of a match, shared by all its pairings.
#[derive(Clone, Debug)]
pub struct MatchConfig<S: GameSetup> {
    /// The game and its size parameters.
    pub setup: S,
    /// Games per pairing: game `g` uses opening `g / 2`, and player A moves first when `g`
    /// is even.
    pub games: u32,
    /// The per-move limit of players whose spec sets none.
    pub limit: Limit,
    /// A clock for each side instead of `limit`, for players whose spec sets no limit.
    pub clock: Option<TimeControl>,
    /// How far past a time limit a move may run before it loses.
    pub tolerance: Duration,
    /// The longest a move under a simulation limit may take before it loses.
    pub sims_safeguard: Duration,
    /// Random plies from the start position that make each opening (0: the start itself);
    /// 0 with an openings file.
    pub opening_plies: u32,
    /// The openings file's positions, which replace the random openings.
    pub book: Option<Arc<OpeningBook<S::Game>>>,
    /// Seeds the openings and the players.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Plies after which a game is stopped as a draw.
    pub ply_cap: u32,
    /// Stop early when this test decides (matches of two players only, unsharded).
    pub sprt: Option<Sprt>,
    /// This job's share of the match ([`in_share`]); [`Shard::WHOLE`] plays it all.
    pub shard: Shard,
    /// A table that ends each game as soon as it proves the result (`None`: play on).
    pub adjudicator: Option<Adjudicator<S::Game>>,
    /// The resign and draw rules by the players' values (`--resign`, `--draw`).
    pub value_rules: ValueRules,
    /// Raised by the caller to stop the match after the games in progress (`None`: play
    /// it all); the record keeps every finished game, so a rerun resumes.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl<S: GameSetup> MatchConfig<S> {
    /// Where the openings come from, as records keep it ([`GameRecord::openings_text`]).
    pub fn openings_text(&self) -> String {
        match &self.book {
            Some(book) => book.describe(),
            None => format!("{} random plies", self.opening_plies),
        }
    }

    /// Opening `index`: the openings file's position for it, or `opening_plies` random
    /// plies from the start drawn from the seed.
    pub fn opening(&self, index: u32) -> Result<Opening<S::Game>, MatchError> {
        Ok(match &self.book {
            Some(book) => {
                let at = book.pick(self.seed, index);
                Opening {
                    start: at.position.clone(),
                    moves: Vec::new(),
                    line: Some(at.line),
                }
            }
            None => Opening {
                start: self.setup.start()?,
                moves: opening(&self.setup, self.opening_plies, self.seed, index)?,
                line: None,
            },
        })
    }
}

/// Where a game starts: a position and the moves played from it before the players take
/// over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening<G: Game> {
    /// The position the opening's moves start from (the game's start, or an openings
    /// file's position).
    pub start: G,
    /// The opening's moves (random plies; none from an openings file).
    pub moves: Vec<G::Move>,
    /// The position's line in the openings file.
    pub line: Option<u32>,
}

impl<G: Game> Opening<G> {
    /// The position after the opening's moves.
    pub fn after(&self) -> G {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.play(mv);
        }
        pos
    }
}

/// A player of the match: the spec text that names it in records, and its factory.
pub struct Contestant<G: Game> {
    /// The spec as text; the record keys games by it.
    pub spec: String,
    /// Builds the player of each game.
    pub factory: Arc<dyn PlayerFactory<G>>,
}

impl<G: Game> std::fmt::Debug for Contestant<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The spec names the player; its factory need not print itself.
        f.debug_struct("Contestant")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
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

/// Whether game `g` of pairing `pi` lies in `shard`'s share of a match of `games` games per
/// pairing. The match is split by opening: unit `pi * openings + g / 2` (both colours of one
/// opening of one pairing) goes to every N-th job, so both colours of an opening are played
/// by one job on one machine (a fair pair under a time limit on mixed hardware) and each
/// job's own table is balanced in colours.
pub fn in_share(shard: Shard, games: u32, pi: usize, g: u32) -> bool {
    let openings = games.div_ceil(2) as usize;
    shard.takes(pi * openings + (g / 2) as usize)
}

/// Opening `index`: `plies` uniformly random moves from the start, drawn from `seed`, that
/// leave the game unfinished. The same for every pairing, so all meet the same openings.
pub fn opening<S: GameSetup>(
    setup: &S,
    plies: u32,
    seed: u64,
    index: u32,
) -> Result<Vec<<S::Game as Game>::Move>, MatchError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(0x0_9e41 + index as u64)));
    let start = setup.start()?;
    let mut buffer = Vec::new();
    for _ in 0..1000 {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(plies as usize);
        while moves.len() < plies as usize && pos.outcome().is_none() {
            let Some(mv) = random_move(&pos, &mut rng, &mut buffer) else {
                break;
            };
            pos.play(mv);
            moves.push(mv);
        }
        if moves.len() == plies as usize && pos.outcome().is_none() {
            return Ok(moves);
        }
    }
    Err(SettingsError::NoOpening {
        plies,
        params: setup.params(),
    }
    .into())
}

/// Checks the settings before anything is loaded or played.
fn check<S: GameSetup>(
    cfg: &MatchConfig<S>,
    players: &[Contestant<S::Game>],
) -> Result<(), SettingsError> {
    if players.len() < 2 {
        return Err(SettingsError::TooFewPlayers);
    }
    let mut specs = HashSet::new();
    for p in players {
        if !specs.insert(p.spec.as_str()) {
            return Err(SettingsError::SamePlayerTwice(p.spec.clone()));
        }
    }
    if cfg.games == 0 {
        return Err(SettingsError::NoGames);
    }
    if cfg.sprt.is_some() && players.len() != 2 {
        return Err(SettingsError::SprtNeedsTwo);
    }
    if cfg.sprt.is_some() && cfg.shard != Shard::WHOLE {
        return Err(SettingsError::SprtInShard);
    }
    Ok(())
}

/// Plays every pairing of `players` for `cfg.games` games (those of `cfg.shard`'s share),
/// skipping games already in the record at `record_path` and appending each new one as it
/// finishes. `progress` counts games: a phase `games` of all the match's games begins,
/// those resumed from the record are reported at once as done (`status`), and each game
/// finished now advances it by one.
pub fn run_match<S: GameSetup>(
    cfg: &MatchConfig<S>,
    players: &[Contestant<S::Game>],
    record_path: &Path,
    progress: &dyn Progress,
) -> Result<MatchOutcome, MatchError> {
    check(cfg, players)?;
    let pairs = pairings(players.len());
    let openings: Vec<Opening<S::Game>> = (0..cfg.games.div_ceil(2))
        .map(|i| cfg.opening(i))
        .collect::<Result<_, _>>()?;
    let (writer, loaded) = RecordWriter::open(record_path)?;
    let names: Vec<String> = players.iter().map(|p| p.spec.clone()).collect();

    // Keep the record's games of this match's pairings; check they were played alike.
    let mut done: Vec<Vec<Option<GameRecord>>> = vec![vec![None; cfg.games as usize]; pairs.len()];
    let mut resumed = 0;
    let held = loaded.games.iter().map(|g| g.number + 1).max().unwrap_or(0);
    let standard = cfg.setup.start()?;
    for (g, line) in loaded.games.into_iter().zip(loaded.lines) {
        let pairing = pairs
            .iter()
            .position(|&(a, b)| players[a].spec == g.player_a && players[b].spec == g.player_b);
        // One record, one match: a game of other players is refused, not skipped, so that
        // the record (and the report made from it) never mixes two matches. Records written
        // before the players' list was kept name only the pairing.
        let players_then = match (g.players.is_empty(), pairing) {
            (false, _) => g.players.join(", "),
            (true, Some(_)) => names.join(", "),
            (true, None) => format!("{}, {}", g.player_a, g.player_b),
        };
        let common = [
            ("players", names.join(", "), players_then),
            ("game", S::NAME.to_string(), g.game.clone()),
            ("parameters", cfg.setup.params(), g.params.clone()),
            ("seed", cfg.seed.to_string(), g.seed.to_string()),
            ("openings", cfg.openings_text(), g.openings_text()),
            ("ply cap", cfg.ply_cap.to_string(), g.ply_cap.to_string()),
        ];
        mismatch(record_path, &g, common)?;
        // Older records do not say which rules they ran under: they are taken as they are.
        if let Some(rules) = &g.value_rules {
            let now = cfg.value_rules.to_string();
            mismatch(
                record_path,
                &g,
                [("resign and draw rules", now, rules.clone())],
            )?;
        }
        let Some(pi) = pairing else {
            // The same list of players, yet a pairing not among them: an edited record.
            let pairing = format!("{} vs {}", g.player_a, g.player_b);
            mismatch(
                record_path,
                &g,
                [("a pairing", "none such".into(), pairing)],
            )?;
            continue;
        };
        let (a, b) = pairs[pi];
        let (first, second) = if g.a_moves_first() {
            (&players[a], &players[b])
        } else {
            (&players[b], &players[a])
        };
        let budgets = [
            (
                "the first player's budget",
                budget_text(cfg, first),
                g.first_budget.clone(),
            ),
            (
                "the second player's budget",
                budget_text(cfg, second),
                g.second_budget.clone(),
            ),
        ];
        mismatch(record_path, &g, budgets)?;
        // Same settings but other openings would mean the opening generator changed.
        if let Some(o) = openings.get(g.opening as usize) {
            let made = move_texts(&o.start, &o.moves);
            let made_start = o.after().position_text();
            // Older records keep no start; their moves alone identify the opening.
            let start_differs = g.start.as_ref().is_some_and(|s| *s != made_start);
            if made != g.opening_moves || start_differs || g.opening != g.number / 2 {
                let with_start = |mut moves: Vec<String>, start: Option<String>| {
                    moves.extend(start.map(|s| format!("to {s}")));
                    moves
                };
                return Err(MatchError::Mismatch(Box::new(Mismatch::Opening {
                    path: record_path.to_path_buf(),
                    number: g.number,
                    player_a: g.player_a,
                    player_b: g.player_b,
                    recorded: with_start(g.opening_moves, g.start),
                    made: with_start(made, Some(made_start)),
                })));
            }
        }
        // A game is counted as played: its moves and result must be ones a game can have.
        if let Err(source) = crate::verify::check_game(&standard, &g) {
            return Err(MatchError::Invalid(Box::new(InvalidGame {
                path: record_path.to_path_buf(),
                line,
                number: g.number,
                player_a: g.player_a,
                player_b: g.player_b,
                source,
            })));
        }
        if g.number >= cfg.games {
            return Err(MatchError::MoreGames {
                path: record_path.to_path_buf(),
                held,
                games: cfg.games,
            });
        }
        if !in_share(cfg.shard, cfg.games, pi, g.number) {
            return Err(MatchError::Mismatch(Box::new(Mismatch::OtherShare {
                path: record_path.to_path_buf(),
                number: g.number,
                player_a: g.player_a,
                player_b: g.player_b,
                shard: cfg.shard,
            })));
        }
        if let Some(slot @ None) = done[pi].get_mut(g.number as usize) {
            *slot = Some(g);
            resumed += 1;
        }
    }

    let mut pending: Vec<(usize, u32)> = Vec::new();
    for (pi, slots) in done.iter().enumerate() {
        for (g, slot) in slots.iter().enumerate() {
            if slot.is_none() && in_share(cfg.shard, cfg.games, pi, g as u32) {
                pending.push((pi, g as u32));
            }
        }
    }

    let mut first_tally = Tally::default();
    for g in done[0].iter().flatten() {
        first_tally += Tally::of(g.a_result());
    }
    let sprt_tally = Mutex::new(first_tally);
    let stop = AtomicBool::new(false);
    if let Some(sprt) = &cfg.sprt {
        if sprt.decide(&first_tally) != SprtDecision::Continue {
            stop.store(true, Ordering::SeqCst);
        }
    }

    let total = (0..pairs.len())
        .flat_map(|pi| (0..cfg.games).map(move |g| (pi, g)))
        .filter(|&(pi, g)| in_share(cfg.shard, cfg.games, pi, g))
        .count() as u64;
    progress.begin("games", total);
    if resumed > 0 {
        progress.status("games", resumed as u64, total);
    }

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
                let interrupted = cfg
                    .interrupt
                    .as_ref()
                    .is_some_and(|i| i.load(Ordering::SeqCst));
                if stop.load(Ordering::SeqCst) || interrupted {
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
                    [&players[a], &players[b]],
                    &names,
                    &openings[(g / 2) as usize],
                ) {
                    Ok(r) => r,
                    Err(e) => {
                        fail(e);
                        break;
                    }
                };
                if let Err(e) = writer.append(&rec) {
                    fail(e.into());
                    break;
                }
                if pi == 0 {
                    if let Some(sprt) = &cfg.sprt {
                        let mut t = sprt_tally.lock().unwrap_or_else(|p| p.into_inner());
                        *t += Tally::of(rec.a_result());
                        if sprt.decide(&t) != SprtDecision::Continue {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
                new_games
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((pi, rec));
                progress.advance(1);
            });
        }
    });
    progress.end();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let new_games = new_games.into_inner().unwrap_or_else(|p| p.into_inner());
    let played = new_games.len();
    for (pi, rec) in new_games {
        let g = rec.number as usize;
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

/// The first of `settings` (what, this match's value, the recorded game's) that differs, as
/// the error that refuses the record.
fn mismatch<const N: usize>(
    path: &Path,
    g: &GameRecord,
    settings: [(&'static str, String, String); N],
) -> Result<(), MatchError> {
    for (what, now, then) in settings {
        if now != then {
            return Err(MatchError::Mismatch(Box::new(Mismatch::Setting {
                path: path.to_path_buf(),
                number: g.number,
                player_a: g.player_a.clone(),
                player_b: g.player_b.clone(),
                what,
                then,
                now,
            })));
        }
    }
    Ok(())
}
