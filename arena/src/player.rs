//! Players: the trait the arena drives, the per-move budget, player specs parsed from short
//! text (`mcts:tb=...`, `random`, `gtp:<command>`), and the factories that build players.

use crate::gtp_client::GtpPlayer;
use breakthrough::{Board, Move, Position};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// What one move may cost: wall-clock time or a number of simulations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Think for this long (wall clock) per move.
    Time(Duration),
    /// Run this many simulations per move, however long they take.
    Sims(u64),
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Time(d) => f.write_str(&format_duration(*d)),
            Limit::Sims(n) => write!(f, "{n} sims"),
        }
    }
}

/// The budget of one move: the limit the player should aim for, and the longest the arena
/// waits before the move counts as an overrun (which loses the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the player is asked to spend.
    pub limit: Limit,
    /// A move that takes longer than this (wall clock, as the arena measures it) loses.
    pub max_wait: Duration,
}

impl Budget {
    /// A budget whose overrun limit is `limit` plus `tolerance` for time limits, and
    /// `sims_safeguard` for simulation limits (so a hung engine cannot stall a match).
    pub fn new(limit: Limit, tolerance: Duration, sims_safeguard: Duration) -> Budget {
        let max_wait = match limit {
            Limit::Time(t) => t + tolerance,
            Limit::Sims(_) => sims_safeguard,
        };
        Budget { limit, max_wait }
    }
}

/// Why a player could not be built or could not give a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The player cannot be built here (a missing program, a missing or unsuitable table).
    #[error("{0}")]
    Unavailable(String),
    /// The player resigned the game.
    #[error("resigned")]
    Resigned,
    /// The player answered with text that is not a legal move here.
    #[error("{0}")]
    Illegal(String),
    /// The player gave no answer within the wait the budget allows.
    #[error("no answer within {}", format_duration(*.0))]
    NoAnswer(Duration),
    /// An external program failed: it crashed, closed its pipes or refused a command.
    #[error("{0}")]
    Engine(String),
}

/// A participant in games: it is told the opening, asked for moves, and shown the opponent's
/// replies (so a player that keeps a search tree can reuse it).
///
/// The arena calls, per game: [`Player::new_game`] once, then for each ply either
/// [`Player::choose`] (its own turn; the returned move is then played if legal) or
/// [`Player::opponent_played`] (the other side's move).
pub trait Player: Send {
    /// A short name for tables and records.
    fn name(&self) -> String;

    /// Starts a new game from `start` after the opening moves `opening` (already played).
    fn new_game(&mut self, start: &Position, opening: &[Move]) -> Result<(), PlayerError>;

    /// The move to play in `pos` (this player's turn) within `budget`.
    fn choose(&mut self, pos: &Position, budget: &Budget) -> Result<Move, PlayerError>;

    /// The opponent played `mv` in `before`.
    fn opponent_played(&mut self, before: &Position, mv: Move) -> Result<(), PlayerError> {
        let _ = (before, mv);
        Ok(())
    }
}

/// Builds a fresh [`Player`] for every game from what it loaded once (a tablebase is loaded
/// once per match and shared by every game, every thread).
pub trait PlayerFactory: Send + Sync {
    /// The name of the players it builds.
    fn name(&self) -> String;

    /// The limit this player's spec sets, overriding the match's (`time=`/`sims=` keys).
    fn own_limit(&self) -> Option<Limit> {
        None
    }

    /// A player for one game; `seed` differs per game and side so games differ but repeat.
    fn make(&self, seed: u64) -> Result<Box<dyn Player>, PlayerError>;
}

/// A bad player spec; the message names the spec, the key and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad player '{spec}': {message}")]
pub struct SpecError {
    /// The spec text as given.
    pub spec: String,
    /// What is wrong and what would be right.
    pub message: String,
}

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// quasar's MCTS, with or without a tablebase.
    Mcts(MctsSpec),
    /// Uniformly random legal moves; `random:seed=S` names a distinct random player.
    Random {
        /// Mixed into each game's seed, so two random players differ.
        seed: Option<u64>,
    },
    /// An external program that speaks GTP version 2 on stdin/stdout.
    Gtp(GtpSpec),
}

/// An external GTP engine: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpSpec {
    /// The command line as given (for names and records).
    pub text: String,
    /// The program followed by its arguments, split as a shell would (quotes, backslashes).
    pub argv: Vec<String>,
}

/// The playout policy of the MCTS player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly random moves to the end of the game.
    Uniform,
    /// The engine's full policy (winning moves, blocks, captures, early termination).
    Full,
}

/// How the MCTS player's tablebase claims a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeRule {
    /// The spec's sound rule: only wins that hold whatever Black does outside the region.
    Sound,
    /// The thesis' looser race rule.
    Race,
}

/// The settings of an MCTS player; `None` leaves the engine's default.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MctsSpec {
    /// The tablebase file to consult (`tb=FILE`); none plays without one.
    pub tablebase: Option<PathBuf>,
    /// The probe rule of the tablebase (`rule=sound|race`).
    pub rule: Option<ProbeRule>,
    /// UCT's exploration constant (`c=0.4`).
    pub exploration: Option<f64>,
    /// The playout policy (`playout=uniform|full`).
    pub playout: Option<Playout>,
    /// A per-move limit that overrides the match's (`time=100ms` or `sims=20000`).
    pub limit: Option<Limit>,
    /// Search threads (`threads=2`).
    pub threads: Option<usize>,
    /// A fixed seed (`seed=7`); without it each game gets its own seed from the match.
    pub seed: Option<u64>,
    /// Playouts consult the tablebase every K plies (`every=K`; 0: only at expansion).
    pub probe_every: Option<u32>,
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random { seed: None } => f.write_str("random"),
            PlayerSpec::Random { seed: Some(s) } => write!(f, "random:seed={s}"),
            PlayerSpec::Gtp(g) => write!(f, "gtp:{}", g.text),
            PlayerSpec::Mcts(m) => {
                f.write_str("mcts")?;
                let mut keys = Vec::new();
                if let Some(tb) = &m.tablebase {
                    keys.push(format!("tb={}", tb.display()));
                }
                if let Some(r) = m.rule {
                    keys.push(format!(
                        "rule={}",
                        match r {
                            ProbeRule::Sound => "sound",
                            ProbeRule::Race => "race",
                        }
                    ));
                }
                if let Some(c) = m.exploration {
                    keys.push(format!("c={c}"));
                }
                if let Some(p) = m.playout {
                    keys.push(format!(
                        "playout={}",
                        match p {
                            Playout::Uniform => "uniform",
                            Playout::Full => "full",
                        }
                    ));
                }
                match m.limit {
                    Some(Limit::Time(d)) => keys.push(format!("time={}", format_duration(d))),
                    Some(Limit::Sims(n)) => keys.push(format!("sims={n}")),
                    None => {}
                }
                if let Some(t) = m.threads {
                    keys.push(format!("threads={t}"));
                }
                if let Some(s) = m.seed {
                    keys.push(format!("seed={s}"));
                }
                if let Some(k) = m.probe_every {
                    keys.push(format!("every={k}"));
                }
                if !keys.is_empty() {
                    write!(f, ":{}", keys.join(","))?;
                }
                Ok(())
            }
        }
    }
}

const MCTS_KEYS: &str = "tb, rule, every, c, playout, sims, time, threads, seed";

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// Reads `random`, `gtp:<command line>`, `mcts` or `mcts:key=value,...`.
    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let err = |message: String| SpecError {
            spec: text.to_string(),
            message,
        };
        let t = text.trim();
        let (kind, rest) = match t.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r)),
            None => (t, None),
        };
        match kind {
            "random" => match rest.map(str::trim) {
                None => Ok(PlayerSpec::Random { seed: None }),
                Some(r) => match r.strip_prefix("seed=").map(str::parse::<u64>) {
                    Some(Ok(s)) => Ok(PlayerSpec::Random { seed: Some(s) }),
                    _ => Err(err(
                        "'random' takes only seed=N (to tell two random players apart)".into(),
                    )),
                },
            },
            "gtp" => {
                let line = rest.unwrap_or("").trim();
                let argv = split_command_line(line).map_err(err)?;
                if argv.is_empty() {
                    return Err(err(
                        "give the engine's command after 'gtp:', for example 'gtp:./engine --gtp'"
                            .into(),
                    ));
                }
                Ok(PlayerSpec::Gtp(GtpSpec {
                    text: line.to_string(),
                    argv,
                }))
            }
            "mcts" => parse_mcts_keys(rest.unwrap_or("")).map(PlayerSpec::Mcts).map_err(err),
            "" => Err(err(
                "empty player: use mcts, mcts:tb=FILE, random or gtp:<command>".into(),
            )),
            other => Err(err(format!(
                "unknown player kind '{other}': use mcts, mcts:key=value,..., random or gtp:<command>"
            ))),
        }
    }
}

fn parse_mcts_keys(text: &str) -> Result<MctsSpec, String> {
    let mut spec = MctsSpec::default();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("'{item}' is not key=value (keys: {MCTS_KEYS})"))?;
        let (key, value) = (key.trim(), value.trim());
        if value.is_empty() {
            return Err(format!("'{key}' has no value"));
        }
        let once = |present: bool| {
            if present {
                Err(format!("'{key}' is given twice"))
            } else {
                Ok(())
            }
        };
        match key {
            "tb" => {
                once(spec.tablebase.is_some())?;
                spec.tablebase = Some(PathBuf::from(value));
            }
            "rule" => {
                once(spec.rule.is_some())?;
                spec.rule = Some(match value {
                    "sound" => ProbeRule::Sound,
                    "race" => ProbeRule::Race,
                    _ => return Err(format!("rule={value}: use rule=sound or rule=race")),
                });
            }
            "c" => {
                once(spec.exploration.is_some())?;
                let c: f64 = value
                    .parse()
                    .map_err(|_| format!("c={value}: expected a number such as 0.4"))?;
                if !c.is_finite() || c < 0.0 {
                    return Err(format!("c={value}: the exploration constant must be >= 0"));
                }
                spec.exploration = Some(c);
            }
            "playout" => {
                once(spec.playout.is_some())?;
                spec.playout = Some(match value {
                    "uniform" => Playout::Uniform,
                    "full" => Playout::Full,
                    _ => {
                        return Err(format!(
                            "playout={value}: use playout=uniform or playout=full"
                        ))
                    }
                });
            }
            "sims" | "time" => {
                if let Some(prev) = spec.limit {
                    return Err(format!(
                        "'{key}={value}' conflicts with the limit already given ({prev}): give time= or sims=, once"
                    ));
                }
                spec.limit = Some(if key == "sims" {
                    let n: u64 = value
                        .parse()
                        .map_err(|_| format!("sims={value}: expected a whole number"))?;
                    if n == 0 {
                        return Err("sims=0: at least one simulation is needed".into());
                    }
                    Limit::Sims(n)
                } else {
                    Limit::Time(parse_duration(value).map_err(|e| format!("time={value}: {e}"))?)
                });
            }
            "threads" => {
                once(spec.threads.is_some())?;
                let n: usize = value
                    .parse()
                    .map_err(|_| format!("threads={value}: expected a whole number"))?;
                if n == 0 {
                    return Err("threads=0: at least one thread is needed".into());
                }
                spec.threads = Some(n);
            }
            "seed" => {
                once(spec.seed.is_some())?;
                spec.seed = Some(
                    value
                        .parse()
                        .map_err(|_| format!("seed={value}: expected a whole number"))?,
                );
            }
            "every" => {
                once(spec.probe_every.is_some())?;
                spec.probe_every = Some(value.parse().map_err(|_| {
                    format!(
                        "every={value}: expected a whole number of plies (0: only at expansion)"
                    )
                })?);
            }
            _ => return Err(format!("unknown key '{key}' (keys: {MCTS_KEYS})")),
        }
    }
    if spec.probe_every.is_some() && spec.tablebase.is_none() {
        return Err("every= needs a tablebase: add tb=FILE".into());
    }
    if spec.rule.is_some() && spec.tablebase.is_none() {
        return Err("rule= needs a tablebase: add tb=FILE".into());
    }
    Ok(spec)
}

/// Reads a duration such as `100ms`, `2s`, `1.5s` or `500us`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("bad duration '{text}': expected a number and a unit, like 100ms"))?;
    let scale = match unit.trim() {
        "ms" => 1e-3,
        "s" => 1.0,
        "us" => 1e-6,
        "m" | "min" => 60.0,
        "" => {
            return Err(format!(
                "duration '{text}' has no unit: write {text}ms or {text}s"
            ))
        }
        u => {
            return Err(format!(
                "unknown unit '{u}' in '{text}': use us, ms, s or min"
            ))
        }
    };
    let secs = value * scale;
    if !secs.is_finite() || secs <= 0.0 || secs > 1e7 {
        return Err(format!("duration '{text}' must be positive and sensible"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A duration as `100ms`, `2s` or `1.5s`: the shortest exact text that reads back.
pub fn format_duration(d: Duration) -> String {
    let micros = d.as_micros();
    if micros % 1_000_000 == 0 {
        format!("{}s", micros / 1_000_000)
    } else if micros % 1000 == 0 {
        format!("{}ms", micros / 1000)
    } else {
        format!("{micros}us")
    }
}

/// Splits a command line into words as a POSIX shell would for plain words, single and
/// double quotes and backslashes (no variables, globs or pipes: the program runs directly).
pub fn split_command_line(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(format!("unclosed ' in command '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => word.push(ch),
                            Some(ch) => {
                                word.push('\\');
                                word.push(ch);
                            }
                            None => return Err(format!("unclosed \" in command '{text}'")),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(format!("unclosed \" in command '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(ch) => word.push(ch),
                    None => return Err(format!("command '{text}' ends with a lone backslash")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A player that picks uniformly among the legal moves (a baseline, and for tests).
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, _start: &Position, _opening: &[Move]) -> Result<(), PlayerError> {
        Ok(())
    }

    fn choose(&mut self, pos: &Position, _budget: &Budget) -> Result<Move, PlayerError> {
        pos.random_move(&mut self.rng)
            .ok_or_else(|| PlayerError::Engine("no legal move to choose from".into()))
    }
}

struct RandomFactory {
    seed: Option<u64>,
}

impl PlayerFactory for RandomFactory {
    fn name(&self) -> String {
        PlayerSpec::Random { seed: self.seed }.to_string()
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        let own = self
            .seed
            .map_or(0, |s| s.wrapping_mul(quasar_core::rng::GOLDEN_GAMMA) | 1);
        Ok(Box::new(RandomPlayer::new(seed ^ own)))
    }
}

struct GtpFactory {
    spec: GtpSpec,
    board: Board,
}

impl PlayerFactory for GtpFactory {
    fn name(&self) -> String {
        format!("gtp:{}", self.spec.text)
    }

    fn make(&self, _seed: u64) -> Result<Box<dyn Player>, PlayerError> {
        Ok(Box::new(GtpPlayer::spawn(&self.spec, self.board)?))
    }
}

/// Builds the factory of a spec's players for games on `board`: loads what the players share
/// (a tablebase) once, and checks that external programs can be started.
pub fn build_factory(
    spec: &PlayerSpec,
    board: Board,
) -> Result<Arc<dyn PlayerFactory>, PlayerError> {
    match spec {
        PlayerSpec::Random { seed } => Ok(Arc::new(RandomFactory { seed: *seed })),
        PlayerSpec::Gtp(g) => Ok(Arc::new(GtpFactory {
            spec: g.clone(),
            board,
        })),
        PlayerSpec::Mcts(m) => mcts_factory(m, board),
    }
}

/// The one place where quasar's MCTS (engine) and its tablebase oracle (tablebase crate)
/// become arena players: the table is loaded once here and shared by every game.
pub fn mcts_factory(spec: &MctsSpec, board: Board) -> Result<Arc<dyn PlayerFactory>, PlayerError> {
    let oracle = match &spec.tablebase {
        Some(path) => Some(crate::mcts_player::load_oracle(path, spec.rule, board)?),
        None => None,
    };
    Ok(Arc::new(crate::mcts_player::MctsFactory::new(
        spec.clone(),
        oracle,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Result<PlayerSpec, String> {
        t.parse::<PlayerSpec>().map_err(|e| e.to_string())
    }

    #[test]
    fn specs_parse() {
        assert_eq!(parse("random").unwrap(), PlayerSpec::Random { seed: None });
        assert_eq!(
            parse("random:seed=4").unwrap(),
            PlayerSpec::Random { seed: Some(4) }
        );
        assert_eq!(
            parse("mcts").unwrap(),
            PlayerSpec::Mcts(MctsSpec::default())
        );
        let m = match parse(
            "mcts:tb=tables/6x6-r4.qtb,c=0.4,playout=uniform,time=250ms,threads=2,seed=9",
        )
        .unwrap()
        {
            PlayerSpec::Mcts(m) => m,
            other => panic!("expected mcts, got {other:?}"),
        };
        assert_eq!(m.tablebase, Some(PathBuf::from("tables/6x6-r4.qtb")));
        assert_eq!(m.exploration, Some(0.4));
        assert_eq!(m.playout, Some(Playout::Uniform));
        assert_eq!(m.limit, Some(Limit::Time(Duration::from_millis(250))));
        assert_eq!(m.threads, Some(2));
        assert_eq!(m.seed, Some(9));
        match parse("gtp:./engine --size '6 6' \"a b\"").unwrap() {
            PlayerSpec::Gtp(g) => assert_eq!(g.argv, vec!["./engine", "--size", "6 6", "a b"]),
            other => panic!("expected gtp, got {other:?}"),
        }
    }

    #[test]
    fn specs_print_back() {
        for t in [
            "random",
            "random:seed=12",
            "mcts",
            "mcts:tb=x.qtb,rule=race,c=0.4,playout=full,sims=2000,threads=2,seed=3",
            "gtp:./engine --gtp",
        ] {
            assert_eq!(parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn bad_specs_say_why() {
        let cases = [
            ("mcts:depth=3", "unknown key 'depth'"),
            ("mcts:c=fast", "c=fast"),
            ("mcts:c=-1", ">= 0"),
            ("mcts:playout=smart", "playout=uniform or playout=full"),
            ("mcts:time=100", "no unit"),
            ("mcts:time=100ms,sims=5", "conflicts"),
            ("mcts:threads=0", "threads=0"),
            ("mcts:tb", "not key=value"),
            ("mcts:tb=a,tb=b", "twice"),
            ("mcts:rule=race", "needs a tablebase"),
            ("alphabeta", "unknown player kind"),
            ("gtp:", "give the engine's command"),
            ("gtp:'unclosed", "unclosed"),
            ("random:x=1", "only seed=N"),
        ];
        for (spec, want) in cases {
            let e = parse(spec).expect_err(spec);
            assert!(e.contains(want), "{spec}: '{e}' should mention '{want}'");
            assert!(e.contains(spec), "{spec}: '{e}' should quote the spec");
        }
    }

    #[test]
    fn durations_read_and_print() {
        assert_eq!(parse_duration("100ms"), Ok(Duration::from_millis(100)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250us"), Ok(Duration::from_micros(250)));
        assert!(parse_duration("0ms").is_err());
        assert!(parse_duration("fast").is_err());
        assert_eq!(format_duration(Duration::from_millis(100)), "100ms");
        assert_eq!(format_duration(Duration::from_secs(2)), "2s");
    }

    #[test]
    fn mcts_players_search_and_a_missing_table_is_refused() {
        let board = Board::new(6, 6).unwrap();
        let factory = build_factory(&parse("mcts:sims=200,c=0.5").unwrap(), board).unwrap();
        assert_eq!(factory.own_limit(), Some(Limit::Sims(200)));
        let mut player = factory.make(7).unwrap();
        let pos = Position::start(board);
        player.new_game(&pos, &[]).unwrap();
        let budget = Budget::new(Limit::Sims(200), Duration::ZERO, Duration::from_secs(60));
        let mv = player.choose(&pos, &budget).unwrap();
        let mut legal = Vec::new();
        quasar_core::Game::legal_moves(&pos, &mut legal);
        assert!(legal.contains(&mv));
        let e = build_factory(&parse("mcts:tb=/nonexistent/t.qtb").unwrap(), board)
            .err()
            .expect("no such table");
        assert!(e.to_string().contains("/nonexistent/t.qtb"), "{e}");
        assert!(parse("mcts:every=4")
            .unwrap_err()
            .contains("needs a tablebase"));
        assert!(parse("mcts:tb=x,every=-1")
            .unwrap_err()
            .contains("every=-1"));
    }
}
