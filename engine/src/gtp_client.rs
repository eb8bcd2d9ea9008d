//! An external engine as a [`Player`] of any game: spawns its command and speaks GTP
//! version 2 to it (`boardsize`, `clear_board`, `play`, `genmove`, `quit`), with xboard's
//! `setboard` for a game that starts from another position than the standard one; and its
//! factory.

use crate::player::{Budget, Player, PlayerError, PlayerFactory};
use quasar_core::{Game, Side};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long commands other than `genmove` may take (an engine may load tables at
/// `boardsize` or `clear_board`).
const SETUP_WAIT: Duration = Duration::from_secs(60);

/// Extra wait past the budget before giving up on `genmove`, so that the arena's own clock,
/// not this read, decides whether the move was late.
const READ_SLACK: Duration = Duration::from_millis(200);

/// Lines of the engine's standard error kept for error messages.
const STDERR_TAIL: usize = 5;

/// The longest line an engine may send, in bytes: a GTP reply line is a move or a short
/// message, and an endless line must not fill the memory.
const MAX_LINE: usize = 64 * 1024;

/// The most lines one reply may have (blank lines before it included).
const MAX_REPLY_LINES: usize = 10_000;

/// The most bytes one reply may have.
const MAX_REPLY_BYTES: usize = 1 << 20;

/// Lines read ahead of the arena: an engine that writes faster than its replies are read
/// waits on its pipe rather than growing a queue.
const QUEUED_LINES: usize = 1024;

/// What the reader of an engine's output passes on.
#[derive(Debug)]
enum Output {
    /// One line, without its line end.
    Line(String),
    /// A line longer than [`MAX_LINE`]: the reader stopped there.
    TooLong,
}

/// One line of `r` of at most `max` bytes: `Ok(None)` at the end of the input, `Err(n)`
/// with the bytes read when no line end came within `max`. Invalid UTF-8 is replaced.
fn read_bounded(
    r: &mut impl BufRead,
    max: usize,
) -> std::io::Result<Result<Option<String>, usize>> {
    let mut bytes = Vec::new();
    r.by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(Ok(None));
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > max {
        return Ok(Err(bytes.len()));
    }
    Ok(Ok(Some(String::from_utf8_lossy(&bytes).into_owned())))
}

/// Passes `stdout`'s lines to `tx` until the end, an error, a closed channel or a line
/// past [`MAX_LINE`].
fn forward_lines(stdout: impl std::io::Read, tx: SyncSender<Output>) {
    let mut r = BufReader::new(stdout);
    loop {
        let out = match read_bounded(&mut r, MAX_LINE) {
            Ok(Ok(Some(line))) => Output::Line(line),
            Ok(Err(_)) => Output::TooLong,
            Ok(Ok(None)) | Err(_) => return,
        };
        let last = matches!(out, Output::TooLong);
        if tx.send(out).is_err() || last {
            return;
        }
    }
}

/// An external GTP engine: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpSpec {
    /// The command line as given (for names and records).
    pub text: String,
    /// The program followed by its arguments, split as a POSIX shell would.
    pub argv: Vec<String>,
}

/// A running GTP engine playing one game of `G`.
#[derive(Debug)]
pub struct GtpPlayer<G> {
    text: String,
    boardsize: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    standard: Option<G>,
    timed: bool,
}

/// The GTP colour of a side: the first letter of the game's own name for it, in lower
/// case (`w` and `b` for Breakthrough's White and Black).
pub fn colour<G: Game>(side: Side) -> String {
    G::side_name(side)
        .chars()
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().collect())
}

impl<G: Game> GtpPlayer<G> {
    /// Starts the engine's program (not through a shell) with piped stdin/stdout; each game
    /// begins with `boardsize` (the game setup's command) and `clear_board`.
    pub fn spawn(spec: &GtpSpec, boardsize: String) -> Result<GtpPlayer<G>, PlayerError> {
        let spawn_error = |source| PlayerError::Spawn {
            command: spec.text.clone(),
            source,
        };
        let Some((program, args)) = spec.argv.split_first() else {
            return Err(spawn_error(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the command is empty",
            )));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        // Reads on a thread so that a silent engine can be timed out with `recv_timeout`.
        std::thread::spawn(move || forward_lines(stdout, tx));
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            let mut r = BufReader::new(stderr);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                // A line past the limit is kept in pieces: only the last few are kept.
                match r
                    .by_ref()
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut bytes)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                if t.len() == STDERR_TAIL {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(GtpPlayer {
            text: spec.text.clone(),
            boardsize,
            stdin: child.stdin.take(),
            child,
            lines,
            stderr_tail,
            standard: None,
            timed: false,
        })
    }

    fn died(&mut self, what: &str) -> PlayerError {
        // Give the stderr reader a moment to collect the engine's last words.
        std::thread::sleep(Duration::from_millis(20));
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!(" ({s})"),
            _ => String::new(),
        };
        let tail: Vec<String> = self
            .stderr_tail
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect();
        let stderr = if tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended with: {}", tail.join(" | "))
        };
        PlayerError::Crashed {
            engine: self.text.clone(),
            what: what.to_string(),
            status,
            stderr,
        }
    }

    /// Stops the engine at once: it broke the protocol or ran out of time, and a game it
    /// plays ends there.
    fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
    }

    /// The error of an engine that sent more than a reply may hold (it has been stopped).
    fn flooded(&self, what: &str) -> PlayerError {
        PlayerError::Protocol {
            engine: self.text.clone(),
            what: format!("{what}; it was stopped"),
        }
    }

    /// Sends one command and returns the text of a `=` reply; a `?` reply is an error.
    fn command(&mut self, cmd: &str, wait: Duration) -> Result<String, PlayerError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.died("is no longer running"));
        };
        // A write to an engine that exited fails with EPIPE (the arena ignores SIGPIPE).
        if writeln!(stdin, "{cmd}")
            .and_then(|_| stdin.flush())
            .is_err()
        {
            self.stdin = None;
            return Err(self.died(&format!("closed its input before '{cmd}'")));
        }
        let deadline = Instant::now() + wait;
        let mut reply: Vec<String> = Vec::new();
        let (mut lines, mut bytes) = (0, 0);
        loop {
            // Checked before every line: an engine that keeps a line always waiting must
            // still run out of time.
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(PlayerError::NoAnswer(wait));
            }
            match self.lines.recv_timeout(deadline - now) {
                Ok(Output::Line(line)) => {
                    lines += 1;
                    bytes += line.len() + 1;
                    if lines > MAX_REPLY_LINES || bytes > MAX_REPLY_BYTES {
                        self.kill();
                        return Err(self.flooded(&format!(
                            "answered '{cmd}' with more than {MAX_REPLY_LINES} lines or \
                             {MAX_REPLY_BYTES} bytes"
                        )));
                    }
                    let line = line.trim_end_matches('\r').to_string();
                    if reply.is_empty() {
                        if line.trim().is_empty() {
                            continue;
                        }
                        reply.push(line);
                    } else if line.trim().is_empty() {
                        break;
                    } else {
                        reply.push(line);
                    }
                }
                Ok(Output::TooLong) => {
                    self.kill();
                    return Err(self.flooded(&format!(
                        "answered '{cmd}' with a line longer than {MAX_LINE} bytes"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(PlayerError::NoAnswer(wait));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.died(&format!("exited during '{cmd}'")))
                }
            }
        }
        let first = &reply[0];
        // A reply is `=` or `?`, optionally followed by the command's id, then the text.
        let (ok, rest) = match first.as_bytes()[0] {
            b'=' => (true, &first[1..]),
            b'?' => (false, &first[1..]),
            _ => {
                return Err(PlayerError::Protocol {
                    engine: self.text.clone(),
                    what: format!(
                        "answered '{cmd}' with '{}', which is not a GTP reply (= or ?)",
                        shown(first)
                    ),
                })
            }
        };
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        let mut text = rest.to_string();
        for more in &reply[1..] {
            text.push('\n');
            text.push_str(more);
        }
        if ok {
            Ok(text)
        } else {
            Err(PlayerError::Protocol {
                engine: self.text.clone(),
                what: format!("refused '{cmd}': {}", shown(&text)),
            })
        }
    }

    /// Tells the player the position `clear_board` sets up, so that a game from any other
    /// start sends it with `setboard` (without, every game starts from `clear_board`'s).
    pub fn with_standard_start(mut self, standard: Option<G>) -> GtpPlayer<G> {
        self.standard = standard;
        self
    }

    /// `play <colour> <move>` for `mv` in `before`.
    fn play_command(before: &G, mv: G::Move) -> String {
        format!(
            "play {} {}",
            colour::<G>(before.side_to_move()),
            before.move_text(mv)
        )
    }
}

impl<G: Game> Player<G> for GtpPlayer<G> {
    fn name(&self) -> String {
        format!("gtp:{}", self.text)
    }

    fn new_game(&mut self, start: &G, opening: &[G::Move]) -> Result<(), PlayerError> {
        let size = self.boardsize.clone();
        // Each game has a process of its own: this is its first command.
        self.command(&size, SETUP_WAIT)
            .map_err(|e| PlayerError::NotStarted(Box::new(e)))?;
        self.command("clear_board", SETUP_WAIT)?;
        if self.standard.as_ref().is_some_and(|s| s != start) {
            let cmd = format!("setboard {}", start.position_text());
            self.command(&cmd, SETUP_WAIT)?;
        }
        let mut pos = start.clone();
        for &mv in opening {
            self.command(&Self::play_command(&pos, mv), SETUP_WAIT)?;
            pos.play(mv);
        }
        Ok(())
    }

    fn choose(&mut self, pos: &G, budget: &Budget) -> Result<G::Move, PlayerError> {
        if let Some(clock) = budget.clock {
            // GTP has no increment: it is sent as a byo-yomi period of one stone, which
            // promises the engine the increment for every move once its time is spent, as
            // a Fischer clock does (quasar's own GTP engine reads it back as the
            // increment); without one, sudden death. Moves per period are Canadian
            // byo-yomi with no main time: the period's time for its stones (an increment
            // besides is only seen in the time left). Before each move, the time left (and
            // the period's stones left).
            if !self.timed {
                let cmd = match clock.period {
                    Some(p) => format!("time_settings 0 {} {}", p.time.as_secs_f64(), p.moves),
                    None => {
                        let inc = clock.increment.as_secs_f64();
                        let stones = u32::from(inc > 0.0);
                        format!(
                            "time_settings {} {inc} {stones}",
                            clock.remaining.as_secs_f64()
                        )
                    }
                };
                self.command(&cmd, SETUP_WAIT)?;
                self.timed = true;
            }
            let cmd = format!(
                "time_left {} {} {}",
                colour::<G>(pos.side_to_move()),
                clock.remaining.as_secs_f64(),
                clock.period.map_or(0, |p| p.moves_to_go)
            );
            self.command(&cmd, SETUP_WAIT)?;
        }
        let cmd = format!("genmove {}", colour::<G>(pos.side_to_move()));
        let answer = self.command(&cmd, budget.max_wait + READ_SLACK)?;
        let word = answer.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(PlayerError::Resigned);
        }
        pos.parse_move(word).map_err(|e| PlayerError::Illegal {
            player: self.text.clone(),
            answer: shown(&answer),
            reason: e.to_string(),
        })
    }

    fn opponent_played(&mut self, before: &G, mv: G::Move) -> Result<(), PlayerError> {
        self.command(&Self::play_command(before, mv), SETUP_WAIT)
            .map(|_| ())
    }
}

/// The start of an engine's text for a message or a record: a reply may be long.
fn shown(text: &str) -> String {
    const SHOWN: usize = 200;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Builds one engine process per game.
#[derive(Debug)]
pub struct GtpFactory<G> {
    spec: GtpSpec,
    boardsize: String,
    standard: Option<G>,
}

impl<G> GtpFactory<G> {
    /// A factory that starts `spec` for every game and sends it `boardsize` first;
    /// `standard` is the position `clear_board` sets up (games from elsewhere send
    /// `setboard`).
    pub fn new(spec: GtpSpec, boardsize: String, standard: Option<G>) -> GtpFactory<G> {
        GtpFactory {
            spec,
            boardsize,
            standard,
        }
    }
}

impl<G: Game> PlayerFactory<G> for GtpFactory<G> {
    fn name(&self) -> String {
        format!("gtp:{}", self.spec.text)
    }

    fn make(&self, _seed: u64) -> Result<Box<dyn Player<G>>, PlayerError> {
        Ok(Box::new(
            GtpPlayer::<G>::spawn(&self.spec, self.boardsize.clone())?
                .with_standard_start(self.standard.clone()),
        ))
    }
}

impl<G> Drop for GtpPlayer<G> {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
        }
        // A polite engine exits at `quit` (or at the end of its input); give it a moment.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
