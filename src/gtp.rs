//! The GTP version 2 engine for any game: one command line in, one reply out, with the
//! game setup, the move history, the time settings and the searcher; `serve` runs the loop.
//! `lz-analyze` answers with a stream of `info` lines, Leela Zero's convention that GUIs
//! read, until the next command line arrives.

use engine::clock::{move_time, ClockState};
use engine::engine::{Engine, EngineChoice};
use engine::setup::{GameSetup, SetupError};
use quasar_core::progress::{SearchInfo, SearchValue, Watch};
use quasar_core::Limit;
use quasar_core::{Game, Side};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

mod serving;
#[cfg(test)]
mod tests;

pub use serving::serve;

/// The commands this engine knows, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "setboard",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "lz-analyze",
    "quit",
];

/// `lz-analyze`'s interval between two `info` lines without one given, in centiseconds.
const ANALYZE_INTERVAL_CS: u64 = 100;

/// Time settings of GTP: main time, then `byo_time` for every `byo_stones` moves.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: Duration,
    byo_time: Duration,
    byo_stones: u32,
}

/// Time left for one side, as the controller last told it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeLeft {
    time: Duration,
    stones: u32,
}

/// A GTP reply: success or failure text, and whether the session ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// True for `=`, false for `?`.
    pub ok: bool,
    /// The reply text (may be empty or span lines).
    pub text: String,
    /// True after `quit`.
    pub quit: bool,
}

/// The longest command line read: longer ones are answered `?` and read past, never held.
pub const MAX_LINE: usize = 16 << 10;
/// The longest error text: the start of a long quoted argument is enough to find it.
const MAX_ERROR: usize = 300;

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: true,
            text: text.into(),
            quit: false,
        }
    }

    /// An error; its text is cut to [`MAX_ERROR`] characters, as it may quote a junk line.
    fn err(text: impl Into<String>) -> Reply {
        let text: String = text.into();
        Reply {
            ok: false,
            text: quasar_file::shorten(&text, MAX_ERROR).into_owned(),
            quit: false,
        }
    }

    /// The reply as GTP writes it, with the command id if there was one, and the blank
    /// line that ends it.
    pub fn render(&self, id: Option<&str>) -> String {
        let mark = if self.ok { '=' } else { '?' };
        let id = id.unwrap_or("");
        if self.text.is_empty() {
            format!("{mark}{id}\n\n")
        } else {
            format!("{mark}{id} {}\n\n", self.text.trim_end())
        }
    }
}

/// The GTP engine state.
pub struct GtpEngine<S: GameSetup> {
    setup: S,
    engine: EngineChoice,
    pos: S::Game,
    history: Vec<S::Game>,
    searcher: Engine<S>,
    settings: Option<TimeSettings>,
    left: [Option<TimeLeft>; 2],
    /// The interval of an analysis the last command asked for, which [`serve`] runs.
    analysis: Option<Duration>,
}

/// A side's GTP colour word: the game's name for it in lower case (`white`).
fn colour_name<G: Game>(side: Side) -> String {
    G::side_name(side).to_lowercase()
}

/// Reads a GTP colour: the game's name for a side or its first letter, in any case.
fn parse_colour<G: Game>(text: &str) -> Result<Side, String> {
    let t = text.to_lowercase();
    for side in [Side::First, Side::Second] {
        let name = colour_name::<G>(side);
        if t == name || t == engine::gtp_client::colour::<G>(side) {
            return Ok(side);
        }
    }
    // A name of one letter (Chinese Checkers' x and o) is its own first letter: said once.
    let mut words: Vec<String> = Vec::new();
    for side in [Side::First, Side::Second] {
        for word in [
            colour_name::<G>(side),
            engine::gtp_client::colour::<G>(side),
        ] {
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    let last = words.pop().unwrap_or_default();
    Err(format!(
        "invalid color '{text}': use {} or {last}",
        words.join(", ")
    ))
}

/// Reads a whole number of seconds (GTP time values are integers; fractions accepted).
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1e7).contains(&v) {
        return Err(format!("'{text}' seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(v))
}

fn parse_count(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a whole number"))
}

impl<S: GameSetup> GtpEngine<S> {
    /// An engine for `setup` that searches as `engine` says, within its limit per move
    /// unless the controller sets a clock with `time_settings` / `time_left`; an error when
    /// the setup has no start position or the settings' table cannot be opened.
    pub fn new(setup: S, engine: EngineChoice) -> Result<GtpEngine<S>, SetupError> {
        let pos = setup.start()?;
        let searcher = Engine::new(&setup, &engine, 0)?;
        Ok(GtpEngine {
            setup,
            engine,
            pos,
            history: Vec::new(),
            searcher,
            settings: None,
            left: [None, None],
            analysis: None,
        })
    }

    /// The current position.
    #[cfg(test)]
    pub fn position(&self) -> &S::Game {
        &self.pos
    }

    /// Handles one command line; `None` for blank and comment-only lines. The reply is
    /// already rendered (with `=`/`?`, the id and the closing blank line).
    pub fn handle_line(&mut self, line: &str) -> Option<(String, bool)> {
        let line = line.split('#').next().unwrap_or("");
        let clean: String = line
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let mut words = clean.split_whitespace().peekable();
        let first = words.peek()?;
        let id = if first.chars().all(|c| c.is_ascii_digit()) {
            words.next()
        } else {
            None
        };
        let Some(cmd) = words.next() else {
            let reply = Reply::err("missing command");
            return Some((reply.render(id), false));
        };
        let args: Vec<&str> = words.collect();
        let reply = self.command(cmd, &args);
        if reply.ok && self.analysis.is_some() {
            // The reply's first line; the `info` lines and the closing blank line follow.
            return Some((format!("={}\n", id.unwrap_or("")), false));
        }
        Some((reply.render(id), reply.quit))
    }

    /// Runs one command with its arguments.
    pub fn command(&mut self, cmd: &str, args: &[&str]) -> Reply {
        self.analysis = None;
        let result = match cmd {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("quasar".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args {
                [c] => Ok(COMMANDS.contains(c).to_string()),
                _ => Err("known_command takes one command name".to_string()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => self.boardsize(args),
            "clear_board" => self.clear_board(),
            "setboard" => self.setboard(args),
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => match self.history.pop() {
                Some(p) => {
                    self.pos = p;
                    Ok(String::new())
                }
                None => Err("cannot undo: no move has been played".to_string()),
            },
            "showboard" => Ok(format!("\n{}", self.setup.diagram(&self.pos))),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "lz-analyze" => self.lz_analyze(args),
            "quit" => {
                return Reply {
                    ok: true,
                    text: String::new(),
                    quit: true,
                }
            }
            other => Err(format!("unknown command '{other}'")),
        };
        match result {
            Ok(text) => Reply::ok(text),
            Err(text) => Reply::err(text),
        }
    }

    /// Back to the start position (the setup always has one: it was checked when set).
    fn clear_board(&mut self) -> Result<String, String> {
        self.pos = self.setup.start().map_err(|e| e.to_string())?;
        self.history.clear();
        self.left = [None, None];
        Ok(String::new())
    }

    /// Sets the board size (and clears the board); a new size gets a new searcher, whose
    /// table must fit it.
    fn boardsize(&mut self, args: &[&str]) -> Result<String, String> {
        let unacceptable = |e: SetupError| match e {
            SetupError::Boardsize(m) => m,
            e => format!("unacceptable size: {e}"),
        };
        let setup = self.setup.boardsize(args).map_err(unacceptable)?;
        let pos = setup.start().map_err(unacceptable)?;
        if setup != self.setup {
            self.searcher = Engine::new(&setup, &self.engine, 0).map_err(unacceptable)?;
            self.setup = setup;
        }
        self.pos = pos;
        self.history.clear();
        self.searcher.clear();
        Ok(String::new())
    }

    /// xboard's `setboard`: the position in the game's text (the board size must be the
    /// one set), with an empty history.
    fn setboard(&mut self, args: &[&str]) -> Result<String, String> {
        if args.is_empty() {
            return Err("setboard takes a position in the game's text".to_string());
        }
        let pos = S::Game::parse_position(&args.join(" ")).map_err(|e| e.to_string())?;
        let size = S::of_position(&pos);
        if size != self.setup {
            return Err(format!(
                "the position is {}, but the board is {}: send boardsize first",
                size.params(),
                self.setup.params()
            ));
        }
        self.pos = pos;
        self.history.clear();
        self.searcher.clear();
        Ok(String::new())
    }

    /// Checks that the game goes on with `side` to move; the error says why not.
    fn turn_of(&self, side: Side) -> Result<(), String> {
        if self.pos.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        if side != self.pos.side_to_move() {
            return Err(format!(
                "it is {}'s turn",
                colour_name::<S::Game>(self.pos.side_to_move())
            ));
        }
        Ok(())
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let [colour, text] = args else {
            return Err("play takes a colour and a move, e.g. 'play white b2-b3'".to_string());
        };
        let side = parse_colour::<S::Game>(colour)?;
        self.turn_of(side)
            .map_err(|e| format!("illegal move: {e}"))?;
        let mv = self.pos.parse_move(text).map_err(|e| {
            let e = e.to_string();
            if e.starts_with("illegal move") {
                e
            } else {
                format!("illegal move: {e}")
            }
        })?;
        self.history.push(self.pos.clone());
        self.pos.play(mv);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str]) -> Result<String, String> {
        let [colour] = args else {
            return Err("genmove takes a colour".to_string());
        };
        let side = parse_colour::<S::Game>(colour)?;
        self.turn_of(side)?;
        let limits = self.move_limits(side);
        let report = self.searcher.search(&self.pos, limits);
        engine::engine::warn_damage_once(self.searcher.damage());
        let mv = report
            .best_move()
            .ok_or_else(|| "no legal move".to_string())?;
        let text = self.pos.move_text(mv);
        self.history.push(self.pos.clone());
        self.pos.play(mv);
        Ok(text)
    }

    /// `lz-analyze [colour] [interval]`: checks the arguments (the colour, when given,
    /// must be the side to move; the interval is in centiseconds) and leaves the analysis
    /// for [`serve`] to run.
    fn lz_analyze(&mut self, args: &[&str]) -> Result<String, String> {
        let mut interval = ANALYZE_INTERVAL_CS;
        let mut rest = args;
        if let [first, more @ ..] = rest {
            if first.parse::<u64>().is_err() && *first != "interval" {
                let side = parse_colour::<S::Game>(first)?;
                if side != self.pos.side_to_move() {
                    return Err(format!(
                        "it is {}'s turn",
                        colour_name::<S::Game>(self.pos.side_to_move())
                    ));
                }
                rest = more;
            }
        }
        match rest {
            [] => {}
            // Leela Zero also takes the interval after the word `interval`.
            [n] | ["interval", n] => {
                interval = n
                    .parse()
                    .map_err(|_| format!("'{n}' is not a whole number of centiseconds"))?;
            }
            _ => return Err("lz-analyze takes [colour] [interval in centiseconds]".to_string()),
        }
        if self.pos.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        // At least 10 ms (each line merges the threads' statistics), at most an hour.
        self.analysis = Some(Duration::from_millis(interval.clamp(1, 360_000) * 10));
        Ok(String::new())
    }

    /// Runs the analysis `lz-analyze` asked for, if any: searches the position until `stop`
    /// is raised (or the search can learn nothing more), writing to `out` one line per
    /// interval (MCTS) or finished depth (alpha-beta) of `info move M visits N winrate W
    /// order K pv ...` entries, one for each root move with visits (alpha-beta: its one
    /// line, with its nodes for visits), and the blank line that ends the reply.
    fn analyze(&mut self, out: &mut dyn Write, stop: Arc<AtomicBool>) -> io::Result<()> {
        let Some(interval) = self.analysis.take() else {
            return Ok(());
        };
        let pos = self.pos.clone();
        // Alpha-beta's evaluations become winning chances by its evaluation's scale.
        let scale = match &self.searcher {
            Engine::AlphaBeta(ab) => ab.evaluation_scale(),
            Engine::Mcts(_) => 1.0,
        };
        let mut failed = None;
        let mut observer = |info: &SearchInfo<<S::Game as Game>::Move>| {
            if failed.is_none() {
                let line = analysis_line(&pos, info, scale);
                failed = writeln!(out, "{line}").and_then(|()| out.flush()).err();
            }
        };
        let mut watch = Watch {
            stop: Some(stop),
            observer: Some(&mut observer),
            interval,
        };
        self.searcher
            .search_with(&pos, Limit::Count(u64::MAX), &mut watch);
        drop(watch);
        engine::engine::warn_damage_once(self.searcher.damage());
        if let Some(e) = failed {
            return Err(e);
        }
        out.write_all(b"\n")?;
        out.flush()
    }

    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let [main, byo, stones] = args else {
            return Err("time_settings takes main_time byo_yomi_time byo_yomi_stones".to_string());
        };
        let s = TimeSettings {
            main: parse_seconds(main)?,
            byo_time: parse_seconds(byo)?,
            byo_stones: parse_count(stones)?,
        };
        // Zero byo-yomi time with zero stones means no time limit at all in GTP.
        self.settings = if s.main.is_zero() && s.byo_time.is_zero() && s.byo_stones == 0 {
            None
        } else {
            Some(s)
        };
        self.left = [None, None];
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let [colour, time, stones] = args else {
            return Err("time_left takes a colour, seconds and stones".to_string());
        };
        let side = parse_colour::<S::Game>(colour)?;
        self.left[side.index()] = Some(TimeLeft {
            time: parse_seconds(time)?,
            stones: parse_count(stones)?,
        });
        Ok(String::new())
    }

    /// The budget for our next move: the command-line limit without a clock; with one, what
    /// the arena's time manager ([`move_time`]) gives the clock the controller described.
    /// In main time the clock is the time left, with the byo-yomi share of a move (its
    /// time over its stones) as the increment; in a byo-yomi period (stones left, or none
    /// and no main time left: a period starts), each of its stones has an equal share,
    /// seen as the clock and given back after the move.
    fn move_limits(&self, side: Side) -> Limit {
        let Some(s) = self.settings else {
            return self.engine.limit;
        };
        let left = self.left[side.index()].unwrap_or(TimeLeft {
            time: s.main,
            stones: 0,
        });
        let byo_share = match s.byo_stones {
            0 => Duration::ZERO,
            n => s.byo_time / n,
        };
        let clock = match (left.stones, left.time.is_zero()) {
            (0, false) => ClockState {
                remaining: left.time,
                increment: byo_share,
                period: None,
            },
            (0, true) => ClockState {
                remaining: byo_share,
                increment: byo_share,
                period: None,
            },
            (n, _) => ClockState {
                remaining: left.time / n,
                increment: left.time / n,
                period: None,
            },
        };
        Limit::Time(move_time(clock))
    }
}

/// One `lz-analyze` line: an `info move M visits N winrate W order K pv ...` entry for each
/// root move with visits, most visited first (winrate in ten-thousandths for the side to
/// move, as Leela Zero writes it; the best move's principal variation in full, the others'
/// as their move alone); alpha-beta's one line has its nodes as visits. `scale` turns
/// alpha-beta's evaluation into a winning chance.
fn analysis_line<G: Game>(pos: &G, info: &SearchInfo<G::Move>, scale: f64) -> String {
    let chance = |v: &SearchValue| match *v {
        SearchValue::Mean(m) => m,
        SearchValue::Eval(e) => quasar_core::win_chance(e, scale),
        SearchValue::Proven { result, .. } => result.score(),
    };
    let winrate = |c: f64| (c.clamp(0.0, 1.0) * 10000.0).round() as u32;
    let pv = engine::player::line_texts(pos, &info.pv).join(" ");
    let mut entries = Vec::new();
    if info.moves.is_empty() {
        if let Some(&best) = info.pv.first() {
            entries.push(format!(
                "info move {} visits {} winrate {} order 0 pv {pv}",
                pos.move_text(best),
                info.nodes,
                winrate(chance(&info.value))
            ));
        }
    }
    let best = info.pv.first().copied();
    for (k, m) in info.moves.iter().filter(|m| m.visits > 0).enumerate() {
        let line = if Some(m.mv) == best {
            pv.clone()
        } else {
            pos.move_text(m.mv)
        };
        let value = if Some(m.mv) == best {
            chance(&info.value)
        } else {
            m.value
        };
        entries.push(format!(
            "info move {} visits {} winrate {} order {k} pv {line}",
            pos.move_text(m.mv),
            m.visits,
            winrate(value)
        ));
    }
    entries.join(" ")
}
