//! One game of a match: its players' seeds, budgets and clocks, its play and its record.

use super::{Contestant, MatchConfig, MatchError, Opening};
use crate::game::{play_adjudicated_game, EndReason, PlayedGame};
use crate::record::{GameRecord, Winner};
use engine::clock::TimeControl;
use engine::player::Budget;
use engine::settings::limit_text;
use engine::setup::GameSetup;
use quasar_core::splitmix64 as mix;
use quasar_core::{Game, Outcome, Side};

/// The seed of the player of `side` in game `game` of pairing `pair`.
fn player_seed(seed: u64, pair: usize, game: u32, side: Side) -> u64 {
    mix(seed ^ mix(((pair as u64) << 40) ^ ((game as u64) << 1) ^ side.index() as u64))
}

/// The budget of a contestant's first move: its own spec's limit, else the match's
/// clock or limit.
fn budget_of<S: GameSetup>(cfg: &MatchConfig<S>, c: &Contestant<S::Game>) -> Budget {
    match clock_of(cfg, c) {
        Some(tc) => Budget::start_of(tc, cfg.tolerance),
        None => Budget::new(
            c.factory.own_limit().unwrap_or(cfg.limit),
            cfg.tolerance,
            cfg.sims_safeguard,
        ),
    }
}

/// A contestant's clock: its spec's own (`tc=`), else the match's unless its spec sets a
/// limit a move (`time=`, `sims=`).
fn clock_of<S: GameSetup>(cfg: &MatchConfig<S>, c: &Contestant<S::Game>) -> Option<TimeControl> {
    match (c.factory.own_clock(), c.factory.own_limit()) {
        (Some(tc), _) => Some(tc),
        (None, None) => cfg.clock,
        (None, Some(_)) => None,
    }
}

/// A contestant's budget as records keep it: `100ms`, `5000 sims`, or a clock `10s+100ms`.
pub(super) fn budget_text<S: GameSetup>(cfg: &MatchConfig<S>, c: &Contestant<S::Game>) -> String {
    match clock_of(cfg, c) {
        Some(tc) => tc.to_string(),
        None => limit_text(budget_of(cfg, c).limit),
    }
}

/// The texts of `moves` played one after another from `pos`.
pub(super) fn move_texts<G: Game>(pos: &G, moves: &[G::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    moves
        .iter()
        .map(|&mv| {
            let t = pos.move_text(mv);
            pos.play(mv);
            t
        })
        .collect()
}

/// Plays game `g` of pairing `pi` (A = `a`, B = `b`) of the match among `names` and makes
/// its record.
#[allow(clippy::too_many_arguments)]
pub(super) fn play_one<S: GameSetup>(
    cfg: &MatchConfig<S>,
    pi: usize,
    g: u32,
    [a, b]: [&Contestant<S::Game>; 2],
    names: &[String],
    opening: &Opening<S::Game>,
) -> Result<GameRecord, MatchError> {
    let (first, second) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
    let make = |c: &Contestant<S::Game>, side| {
        c.factory
            .make(player_seed(cfg.seed, pi, g, side))
            .map_err(|error| MatchError::Player {
                spec: c.spec.clone(),
                error,
            })
    };
    let mut fp = make(first, Side::First)?;
    let mut sp = make(second, Side::Second)?;
    let budgets = [budget_of(cfg, first), budget_of(cfg, second)];
    let texts = [budget_text(cfg, first), budget_text(cfg, second)];
    let played = play_adjudicated_game(
        [fp.as_mut(), sp.as_mut()],
        &opening.start,
        &opening.moves,
        budgets,
        cfg.ply_cap,
        cfg.adjudicator.as_ref(),
        cfg.value_rules,
    )
    .map_err(|e| MatchError::Player {
        spec: match e.side {
            Side::First => first.spec.clone(),
            Side::Second => second.spec.clone(),
        },
        error: e.error,
    })?;
    // The players (and any engine processes) end before the record is written.
    drop((fp, sp));
    Ok(make_record(cfg, [a, b], names, g, texts, opening, played))
}

/// The record of game `g` of pairing `(a, b)` of the match among `names`.
#[allow(clippy::too_many_arguments)]
fn make_record<S: GameSetup>(
    cfg: &MatchConfig<S>,
    [a, b]: [&Contestant<S::Game>; 2],
    names: &[String],
    g: u32,
    budgets: [String; 2],
    opening: &Opening<S::Game>,
    played: PlayedGame<S::Game>,
) -> GameRecord {
    let (first, second) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
    let opening_moves = move_texts(&opening.start, &opening.moves);
    let after_opening = opening.after();
    let moves = move_texts(&after_opening, &played.moves);
    let detail = match played.reason {
        EndReason::Win | EndReason::Draw => cfg.setup.end_detail(&played.end),
        _ => played.detail,
    };
    GameRecord {
        game: S::NAME.to_string(),
        params: cfg.setup.params(),
        player_a: a.spec.clone(),
        player_b: b.spec.clone(),
        number: g,
        opening: g / 2,
        first: first.spec.clone(),
        second: second.spec.clone(),
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        first_budget: budgets[0].clone(),
        second_budget: budgets[1].clone(),
        ply_cap: cfg.ply_cap,
        opening_moves,
        moves,
        times_ms: played
            .times
            .iter()
            .map(|d| (d.as_secs_f64() * 1e7).round() / 1e4)
            .collect(),
        winner: match played.outcome {
            Outcome::Win(Side::First) => Winner::First,
            Outcome::Win(Side::Second) => Winner::Second,
            Outcome::Draw => Winner::Draw,
        },
        reason: played.reason,
        detail,
        players: names.to_vec(),
        games_per_pairing: Some(cfg.games),
        start: Some(after_opening.position_text()),
        search: played.infos,
        openings_file: cfg.book.as_ref().map(|b| b.describe()),
        clocks_ms: if played.clocks.iter().any(Option::is_some) {
            played
                .clocks
                .iter()
                .map(|c| c.map(|d| d.as_millis() as u64))
                .collect()
        } else {
            Vec::new()
        },
        opening_line: opening.line,
        value_rules: Some(cfg.value_rules.to_string()),
    }
}
