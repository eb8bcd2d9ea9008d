//! The loop that serves GTP: command lines read on a thread of their own, so that an
//! analysis runs until the next one arrives, and each reply written as it is made.

use super::{GtpEngine, Reply, MAX_LINE};
use engine::setup::GameSetup;
use quasar_file::Line;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// What the reading thread hands the loop.
enum Input {
    /// A line read as [`quasar_file::read_line`] returns it (never [`Line::End`]).
    Line(Vec<u8>, Line),
    /// The end of the input.
    End,
    /// Reading failed.
    Failed(io::Error),
}

/// How many lines the reading thread has handed over, and the flag of a running analysis
/// with the number of lines the loop had taken when it began.
#[derive(Default)]
struct Arrivals {
    sent: u64,
    armed: Option<(Arc<AtomicBool>, u64)>,
}

/// The command lines, read on a thread of their own so that an analysis runs until the
/// next one arrives. The channel holds one line: a flood of input waits in the pipe, not
/// in memory.
struct Lines {
    rx: mpsc::Receiver<Input>,
    arrivals: Arc<Mutex<Arrivals>>,
    taken: u64,
}

impl Lines {
    /// Starts the thread that reads `input`.
    fn start(mut input: impl BufRead + Send + 'static) -> io::Result<Lines> {
        let (tx, rx) = mpsc::sync_channel(1);
        let arrivals = Arc::new(Mutex::new(Arrivals::default()));
        let shared = arrivals.clone();
        let hand_over = move |msg: Input| -> bool {
            if tx.send(msg).is_err() {
                return false;
            }
            let mut a = shared.lock().unwrap_or_else(|e| e.into_inner());
            a.sent += 1;
            if let Some((flag, taken)) = &a.armed {
                if a.sent > *taken {
                    flag.store(true, Ordering::SeqCst);
                }
            }
            true
        };
        std::thread::Builder::new()
            .name("gtp-input".into())
            .spawn(move || loop {
                let mut bytes = Vec::new();
                let msg = match quasar_file::read_line(&mut input, &mut bytes, MAX_LINE) {
                    Ok(Line::End) => Input::End,
                    Ok(read) => Input::Line(bytes, read),
                    Err(e) => Input::Failed(e),
                };
                let too_long = matches!(msg, Input::Line(_, Line::TooLong));
                let last = matches!(msg, Input::End | Input::Failed(_));
                if !hand_over(msg) || last {
                    return;
                }
                // A line past the limit was answered as soon as it passed it; its rest is
                // read past here.
                if too_long {
                    if let Err(e) = quasar_file::skip_line(&mut input) {
                        hand_over(Input::Failed(e));
                        return;
                    }
                }
            })?;
        Ok(Lines {
            rx,
            arrivals,
            taken: 0,
        })
    }

    /// The next line, waiting for it.
    fn next(&mut self) -> Input {
        self.taken += 1;
        // The thread ends only after handing over the end or an error.
        self.rx.recv().unwrap_or(Input::End)
    }

    /// A flag raised as soon as a line after those taken arrives (at once if one has).
    fn arm(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut a = self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        if a.sent > self.taken {
            flag.store(true, Ordering::SeqCst);
        }
        a.armed = Some((flag.clone(), self.taken));
        flag
    }

    /// No analysis runs: arrivals raise no flag.
    fn disarm(&self) {
        self.arrivals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .armed = None;
    }
}

/// Serves GTP: reads commands from `input` until `quit` or the end, writing each reply
/// to `output` and flushing it. A line that is not UTF-8 gets a `?` reply (with its id,
/// when it starts with one) and the session goes on; so does a line past [`MAX_LINE`],
/// answered as soon as it passes the limit and then read past up to its end. Lines are
/// read on a thread of their own: an `lz-analyze` reply streams until the next line.
pub fn serve<S: GameSetup>(
    engine: &mut GtpEngine<S>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let mut lines = Lines::start(input)?;
    loop {
        let (bytes, read) = match lines.next() {
            Input::End => break,
            Input::Failed(e) => return Err(e),
            Input::Line(bytes, read) => (bytes, read),
        };
        let id = |bytes: &[u8]| {
            let lossy = String::from_utf8_lossy(bytes);
            lossy
                .split_whitespace()
                .next()
                .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
                .map(|w| quasar_file::shorten(w, 20).into_owned())
        };
        let answer = match (read, std::str::from_utf8(&bytes)) {
            (Line::TooLong, _) => {
                let reply = Reply::err(format!(
                    "the command line is longer than {MAX_LINE} bytes: not a GTP command"
                ));
                Some((reply.render(id(&bytes).as_deref()), false))
            }
            (_, Ok(line)) => engine.handle_line(line),
            (_, Err(_)) => {
                let reply = Reply::err("the command line is not valid UTF-8");
                Some((reply.render(id(&bytes).as_deref()), false))
            }
        };
        if let Some((reply, quit)) = answer {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
            if quit {
                break;
            }
        }
        if engine.analysis.is_some() {
            let stop = lines.arm();
            let result = engine.analyze(&mut output, stop);
            lines.disarm();
            result?;
        }
    }
    Ok(())
}
