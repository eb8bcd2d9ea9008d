//! An external engine as a [`Player`]: spawns its command and speaks GTP version 2 to it
//! (`boardsize`, `clear_board`, `play`, `genmove`, `quit`).

use crate::player::{Budget, GtpSpec, Player, PlayerError};
use breakthrough::{Board, Move, Position};
use quasar_core::Side;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
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

/// A running GTP engine playing one game.
pub struct GtpPlayer {
    text: String,
    board: Board,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

/// The GTP colour of a side: White moves first in Breakthrough.
fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "w",
        Side::Second => "b",
    }
}

impl GtpPlayer {
    /// Starts the engine's program (not through a shell) with piped stdin/stdout.
    pub fn spawn(spec: &GtpSpec, board: Board) -> Result<GtpPlayer, PlayerError> {
        let (program, args) = spec
            .argv
            .split_first()
            .ok_or_else(|| PlayerError::Unavailable("empty GTP command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                PlayerError::Unavailable(format!("cannot start GTP engine '{}': {e}", spec.text))
            })?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::channel();
        // Reads on a thread so that a silent engine can be timed out with `recv_timeout`.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                if t.len() == STDERR_TAIL {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(GtpPlayer {
            text: spec.text.clone(),
            board,
            stdin: child.stdin.take(),
            child,
            lines,
            stderr_tail,
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
        let said = if tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended with: {}", tail.join(" | "))
        };
        PlayerError::Engine(format!("GTP engine '{}' {what}{status}{said}", self.text))
    }

    /// Sends one command and returns the text of a `=` reply; a `?` reply is an error.
    fn command(&mut self, cmd: &str, wait: Duration) -> Result<String, PlayerError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.died("is no longer running"));
        };
        if writeln!(stdin, "{cmd}")
            .and_then(|_| stdin.flush())
            .is_err()
        {
            return Err(self.died(&format!("closed its input before '{cmd}'")));
        }
        let deadline = Instant::now() + wait;
        let mut reply: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
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
                Err(RecvTimeoutError::Timeout) => return Err(PlayerError::NoAnswer(wait)),
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
                return Err(PlayerError::Engine(format!(
                    "GTP engine '{}' answered '{cmd}' with '{first}', which is not a GTP reply (= or ?)",
                    self.text
                )))
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
            Err(PlayerError::Engine(format!(
                "GTP engine '{}' refused '{cmd}': {text}",
                self.text
            )))
        }
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> String {
        format!("gtp:{}", self.text)
    }

    fn new_game(&mut self, start: &Position, opening: &[Move]) -> Result<(), PlayerError> {
        // GTP's boardsize takes one number; other shapes are sent as width and height, and an
        // engine that refuses them must get the board on its own command line.
        let size = if self.board.width() == self.board.height() {
            format!("boardsize {}", self.board.width())
        } else {
            format!("boardsize {} {}", self.board.width(), self.board.height())
        };
        self.command(&size, SETUP_WAIT)?;
        self.command("clear_board", SETUP_WAIT)?;
        let mut pos = *start;
        for &mv in opening {
            let cmd = format!("play {} {}", colour(pos.side()), pos.format_move(mv));
            self.command(&cmd, SETUP_WAIT)?;
            pos.make_move(mv);
        }
        Ok(())
    }

    fn choose(&mut self, pos: &Position, budget: &Budget) -> Result<Move, PlayerError> {
        let cmd = format!("genmove {}", colour(pos.side()));
        let answer = self.command(&cmd, budget.max_wait + READ_SLACK)?;
        let word = answer.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(PlayerError::Resigned);
        }
        pos.parse_move_text(word).map_err(|e| {
            PlayerError::Illegal(format!(
                "'{}' answered genmove with '{answer}': {e}",
                self.text
            ))
        })
    }

    fn opponent_played(&mut self, before: &Position, mv: Move) -> Result<(), PlayerError> {
        let cmd = format!("play {} {}", colour(before.side()), before.format_move(mv));
        self.command(&cmd, SETUP_WAIT).map(|_| ())
    }
}

impl Drop for GtpPlayer {
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
