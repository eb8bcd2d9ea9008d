//! The `quasar._quasar` extension: games in OpenSpiel's shape, searches with the GIL
//! released, tables opened once and probed. The `quasar` package re-exports it and adds
//! what is plain Python (records as data frames, the OpenSpiel bot).

mod erased;
mod matches;
mod searching;
mod solving;
mod tables;

use breakthrough::BreakthroughSetup;
use checkers::CheckersSetup;
use chinese_checkers::CcSetup;
use erased::{AnyGame, AnyState, GameOf};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use quasar_core::Limit;
use quasar_core::{Outcome, Side};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use woodpush::WoodpushSetup;

create_exception!(
    quasar,
    QuasarError,
    PyValueError,
    "Bad input to quasar: an illegal action, a position of another game or size, a bad engine spec or table."
);

/// Text as Python's `repr` writes a string or `None`.
fn py_repr(text: Option<&str>) -> String {
    match text {
        Some(t) => format!("'{t}'"),
        None => "None".into(),
    }
}

/// OpenSpiel's player id of a finished game's state.
const TERMINAL: i64 = -4;

fn error(message: impl Into<String>) -> PyErr {
    QuasarError::new_err(message.into())
}

/// The names `load_game` takes.
const GAMES: [&str; 4] = ["breakthrough", "woodpush", "chinese-checkers", "checkers"];

/// A parameter's value as text, whether given as a number or a string.
fn text_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.str()?.to_string())
}

fn number(name: &str, text: &str) -> PyResult<u32> {
    text.trim()
        .parse()
        .map_err(|_| error(format!("{name}={text:?} is not a whole number")))
}

/// The game `name` with the command line's size options as keywords.
fn game_of(name: &str, params: Vec<(String, String)>) -> PyResult<Box<dyn AnyGame>> {
    let takes: &[&str] = match name {
        "breakthrough" => &["board"],
        "woodpush" => &["width", "pieces"],
        "chinese-checkers" => &["pieces"],
        "checkers" => &[],
        _ => {
            return Err(error(format!(
                "no game {name:?}: quasar plays {}",
                GAMES.join(", ")
            )))
        }
    };
    let mut given = std::collections::HashMap::new();
    for (key, value) in params {
        let key = match key.as_str() {
            "pieces_per_side" => "pieces".to_string(),
            _ => key,
        };
        if !takes.contains(&key.as_str()) {
            let what = match takes {
                [] => "no parameters".to_string(),
                _ => takes.join(", "),
            };
            return Err(error(format!(
                "{key} is not a parameter of {name}: it takes {what}"
            )));
        }
        given.insert(key, value);
    }
    let size = |e: engine::setup::SetupError| error(e.to_string());
    let game: Box<dyn AnyGame> = match name {
        "breakthrough" => {
            let setup = match given.get("board") {
                Some(b) => BreakthroughSetup {
                    board: b
                        .trim()
                        .parse()
                        .map_err(|e| error(format!("board={b:?}: {e}")))?,
                },
                None => BreakthroughSetup::default(),
            };
            Box::new(GameOf(setup))
        }
        "woodpush" => {
            let default = WoodpushSetup::default();
            let width = match given.get("width") {
                Some(w) => number("width", w)?,
                None => default.width,
            };
            let pieces = match given.get("pieces") {
                Some(k) => number("pieces", k)?,
                None => default.pieces,
            };
            Box::new(GameOf(WoodpushSetup::checked(width, pieces).map_err(size)?))
        }
        "chinese-checkers" => {
            let setup = match given.get("pieces") {
                Some(k) => CcSetup::checked(number("pieces", k)?).map_err(size)?,
                None => CcSetup::default(),
            };
            Box::new(GameOf(setup))
        }
        _ => Box::new(GameOf(CheckersSetup)),
    };
    game.start().map_err(error)?;
    Ok(game)
}

/// A game and size: makes states and says how actions and observations are shaped.
#[pyclass(module = "quasar")]
struct Game {
    inner: Box<dyn AnyGame>,
}

#[pymethods]
impl Game {
    /// The game's name, as `load_game` and `--game` take it.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The size, as records write it ("8x8", "width 9").
    #[getter]
    fn params(&self) -> String {
        self.inner.params()
    }

    /// The start position, or the position `position` (its text, as `State.position()`
    /// gives it and the command line's `--position` takes it).
    #[pyo3(signature = (position=None))]
    fn new_initial_state(&self, position: Option<&str>) -> PyResult<State> {
        let inner = match position {
            Some(text) => self.inner.parse(text),
            None => self.inner.start(),
        };
        Ok(State {
            inner: inner.map_err(error)?,
        })
    }

    /// One more than the largest action number of any move of this game and size.
    fn num_distinct_actions(&self) -> u64 {
        self.inner.action_count()
    }

    /// The observation tensor's shape: (planes, rows, columns).
    fn observation_tensor_shape(&self) -> (usize, usize, usize) {
        let (names, rows, cols) = self.inner.planes();
        (names.len(), rows, cols)
    }

    /// The observation planes' names, in order.
    fn observation_planes(&self) -> Vec<&'static str> {
        self.inner.planes().0
    }

    /// Always 2: every quasar game has two players.
    fn num_players(&self) -> u32 {
        2
    }

    fn __repr__(&self) -> String {
        format!(
            "<quasar.Game {} {}>",
            self.inner.name(),
            self.inner.params()
        )
    }

    fn __eq__(&self, other: &Game) -> bool {
        self.inner.name() == other.inner.name() && self.inner.params() == other.inner.params()
    }
}

/// A position of a game, with the actions played since it was made.
#[pyclass(module = "quasar")]
struct State {
    inner: Box<dyn AnyState>,
}

/// OpenSpiel passes a player before the action or text; quasar's states know it.
fn last_of<'py>(
    args: &Bound<'py, pyo3::types::PyTuple>,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    match args.len() {
        1 | 2 => args.get_item(args.len() - 1),
        n => Err(error(format!(
            "{what} takes one argument (or a player and one), got {n}"
        ))),
    }
}

impl State {
    /// The Python object of a state.
    pub(crate) fn of(inner: Box<dyn AnyState>) -> State {
        State { inner }
    }
}

#[pymethods]
impl State {
    /// The player to move: 0 for the first, 1 for the second, -4 once the game is over.
    fn current_player(&self) -> i64 {
        match self.inner.outcome() {
            Some(_) => TERMINAL,
            None => self.inner.side() as i64,
        }
    }

    /// The legal moves' action numbers (none once the game is over).
    fn legal_actions(&self) -> Vec<u64> {
        self.inner.legal_actions()
    }

    /// The move text of a legal action: `action_to_string(action)`, or OpenSpiel's
    /// `action_to_string(player, action)`.
    #[pyo3(signature = (*args))]
    fn action_to_string(&self, args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<String> {
        let action: u64 = last_of(args, "action_to_string")?.extract()?;
        self.inner.action_text(action).map_err(error)
    }

    /// The action of a legal move's text: `string_to_action(text)`, or OpenSpiel's
    /// `string_to_action(player, text)`.
    #[pyo3(signature = (*args))]
    fn string_to_action(&self, args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<u64> {
        let text: String = last_of(args, "string_to_action")?.extract()?;
        let action = self.inner.text_action(&text).map_err(error)?;
        self.inner.action_text(action).map_err(error)?;
        Ok(action)
    }

    /// Plays a legal action; an illegal one raises `QuasarError` and changes nothing.
    fn apply_action(&mut self, action: u64) -> PyResult<()> {
        self.inner.apply(action).map_err(error)
    }

    /// Plays a legal move given as text (`"b2-b3"`).
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        let action = self.inner.text_action(text).map_err(error)?;
        self.inner.apply(action).map_err(error)
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// Each player's return: 1 for a win, -1 for a loss, 0 for a draw or a game going on.
    fn returns(&self) -> [f64; 2] {
        match self.inner.outcome() {
            Some(Outcome::Win(Side::First)) => [1.0, -1.0],
            Some(Outcome::Win(Side::Second)) => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }

    /// The winner's player number, `None` for a draw or a game going on.
    fn winner(&self) -> Option<usize> {
        match self.inner.outcome() {
            Some(Outcome::Win(side)) => Some(side.index()),
            _ => None,
        }
    }

    /// A copy that plays on independently.
    fn clone(&self) -> State {
        State {
            inner: self.inner.boxed(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The game and size of this state.
    fn get_game(&self) -> Game {
        Game {
            inner: self.inner.game(),
        }
    }

    /// The position's text: `Game.new_initial_state(position=...)` and the command
    /// line's `--position` read it back.
    fn position(&self) -> String {
        self.inner.position()
    }

    /// The actions played since the state was made.
    fn history(&self) -> Vec<u64> {
        self.inner.history().to_vec()
    }

    /// Moves played since the state was made.
    fn move_number(&self) -> usize {
        self.inner.history().len()
    }

    /// The position as a float32 array of shape (planes, rows, columns), 1 where a plane's
    /// piece stands; the same for both players (the games have perfect information).
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = player;
        let (names, rows, cols) = self.inner.game().planes();
        let values = self.inner.observe();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let numpy = py.import("numpy")?;
        let flat = numpy.call_method1("frombuffer", (PyBytes::new(py, &bytes), "<f4"))?;
        flat.call_method1("reshape", ((names.len(), rows, cols),))
    }

    /// `games` uniformly random games from here, played in Rust: a dict of the first
    /// player's wins, the second's, draws, and games unfinished after 10,000 plies.
    #[pyo3(signature = (games, seed=0))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let state = self.inner.boxed();
        let [first, second, draws, unfinished] = py.detach(move || state.playouts(games, seed));
        let out = PyDict::new(py);
        out.set_item("first", first)?;
        out.set_item("second", second)?;
        out.set_item("draws", draws)?;
        out.set_item("unfinished", unfinished)?;
        Ok(out)
    }

    /// The game's default engine as a player spec (`mcts`, `ab:eval=mcts`).
    fn default_engine(&self) -> String {
        self.inner.default_engine()
    }

    fn __str__(&self) -> String {
        self.inner.diagram()
    }

    fn __repr__(&self) -> String {
        let game = self.inner.game();
        format!(
            "<quasar.State {} {}: {:?}>",
            game.name(),
            game.params(),
            self.inner.position()
        )
    }
}

/// Runs `job` on a thread of its own while this one, between short sleeps without the GIL,
/// lets Python's signal handlers run: on Ctrl-C (or any exception a handler raises) it
/// raises `stop`, waits for `job` to wind down, and returns the exception.
fn run_interruptibly<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let running = scope.spawn(job);
        while !running.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(20)));
            if let Err(signal) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = running.join();
                return Err(signal);
            }
        }
        running
            .join()
            .map_err(|_| error("the call failed inside quasar (a bug)"))
    })
}

/// A move's limit from `time` (seconds) or `sims`, `default` when neither is given.
fn limit_of(time: Option<f64>, sims: Option<u64>, default: Duration) -> PyResult<Limit> {
    Ok(match (time, sims) {
        (Some(_), Some(_)) => return Err(error("give time or sims, not both")),
        (_, Some(0)) => return Err(error("sims must be at least 1")),
        (_, Some(n)) => Limit::Count(n),
        (Some(t), None) if !(t.is_finite() && t > 0.0 && t <= 86_400.0) => {
            return Err(error(format!(
                "time={t} is not a number of seconds above 0 and up to a day"
            )))
        }
        (Some(t), None) => Limit::Time(Duration::from_secs_f64(t)),
        (None, None) => Limit::Time(default),
    })
}

/// The game `name` ("breakthrough", "woodpush", "chinese-checkers", "checkers") with the
/// command line's size options as keywords: `board="8x8"`; `width=9, pieces=3`;
/// `pieces=3`; none for checkers.
#[pyfunction]
#[pyo3(signature = (name, **params))]
fn load_game(name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let mut given = Vec::new();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            given.push((k.extract::<String>()?, text_of(&v)?));
        }
    }
    let name = name.trim().to_ascii_lowercase().replace('_', "-");
    Ok(Game {
        inner: game_of(&name, given)?,
    })
}

/// Plays a match of `game` between `players` (the command line's specs, such as `mcts`,
/// `ab:eval=mcts`, `random`, `gtp:./engine`, or Python callables that take a `State` and
/// return an action or a move's text), `games` games a pairing, each move within `time`
/// seconds or `sims` simulations. Games are appended to the record at `record` as they
/// finish, and a rerun resumes it. Returns the records as JSON lines.
#[pyfunction]
#[pyo3(signature = (game, players, record, games=2, time=None, sims=None, seed=1, jobs=1, openings=None, opening_plies=2, ply_cap=1000, tolerance=0.05))]
#[allow(clippy::too_many_arguments)]
fn _run_match(
    py: Python<'_>,
    game: &Game,
    players: Vec<Bound<'_, PyAny>>,
    record: PathBuf,
    games: u32,
    time: Option<f64>,
    sims: Option<u64>,
    seed: u64,
    jobs: usize,
    openings: Option<PathBuf>,
    opening_plies: u32,
    ply_cap: u32,
    tolerance: f64,
) -> PyResult<Vec<String>> {
    if players.len() < 2 {
        return Err(error("a match needs two players at least"));
    }
    if games == 0 || jobs == 0 || ply_cap == 0 {
        return Err(error("games, jobs and ply_cap must be at least 1"));
    }
    let mut entrants = Vec::new();
    for p in players {
        entrants.push(if let Ok(text) = p.extract::<String>() {
            matches::Entrant::Spec(text)
        } else if p.is_callable() {
            let name = match p.getattr("__name__") {
                Ok(n) => n.str()?.to_string(),
                Err(_) => p.get_type().name()?.to_string(),
            };
            matches::Entrant::Callable(name, std::sync::Arc::new(p.unbind()))
        } else {
            return Err(error(format!(
                "player {p} is neither a spec nor a callable"
            )));
        });
    }
    let limit = limit_of(time, sims, Duration::from_millis(100))?;
    if !(tolerance.is_finite() && (0.0..=60.0).contains(&tolerance)) {
        return Err(error(format!(
            "tolerance={tolerance} is not 0 to 60 seconds"
        )));
    }
    let interrupt = std::sync::Arc::new(AtomicBool::new(false));
    let args = matches::MatchArgs {
        games,
        limit,
        opening_plies,
        openings,
        seed,
        jobs,
        ply_cap,
        tolerance: Duration::from_secs_f64(tolerance),
        record,
        interrupt: interrupt.clone(),
    };
    let inner = game.inner.boxed_game();
    let played = run_interruptibly(py, &interrupt, || inner.play_match(&entrants, &args))?;
    played.map_err(error)
}

/// The records of a match's record file (JSON Lines), each replayed and checked against
/// its result; returned as JSON lines.
#[pyfunction]
fn _read_records(py: Python<'_>, path: PathBuf) -> PyResult<Vec<String>> {
    py.detach(|| matches::read(&path)).map_err(error)
}

/// An exact solution: who wins with perfect play, in how many plies, and how.
#[pyclass(module = "quasar", get_all)]
struct SolveResult {
    /// The winner: 0 for the first player, 1 for the second, `None` for a draw.
    winner: Option<usize>,
    /// Plies to the end of a win with perfect play (the winner hurries, the loser delays).
    plies: Option<u32>,
    /// A win's principal line, both sides' moves to the end.
    line: Vec<String>,
    /// Nodes searched.
    nodes: u64,
    /// Seconds taken.
    seconds: f64,
    /// The proof file written, or `None`.
    proof: Option<PathBuf>,
    /// Records in the proof file.
    records: Option<u64>,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        match (self.winner, self.plies) {
            (Some(w), Some(p)) => format!(
                "<quasar.SolveResult winner={w} plies={p} line='{}'>",
                self.line.join(" ")
            ),
            _ => "<quasar.SolveResult draw>".into(),
        }
    }
}

/// Solves a Breakthrough, Woodpush or Chinese Checkers position exactly: the winner (or a
/// draw), a win's length with perfect play and its line; `proof` writes a proof file that `check_proof` (or `quasar solve --check`)
/// verifies, `table` uses a table's proven values as leaves, `memory` is the
/// search's transposition table in MiB. The GIL is released while it solves, and Ctrl-C
/// (KeyboardInterrupt) stops it.
#[pyfunction]
#[pyo3(signature = (state, proof=None, table=None, memory=256))]
fn solve(
    py: Python<'_>,
    state: &State,
    proof: Option<PathBuf>,
    table: Option<PathBuf>,
    memory: usize,
) -> PyResult<SolveResult> {
    if !(1..=1 << 20).contains(&memory) {
        return Err(error(format!("memory={memory} MiB is not 1 to 1048576")));
    }
    let position = state.inner.boxed();
    let stop = AtomicBool::new(false);
    let s = run_interruptibly(py, &stop, || {
        position.solve(solving::Request {
            table: table.as_deref(),
            proof: proof.as_deref(),
            memory_mib: memory,
            stop: &stop,
        })
    })?
    .map_err(error)?;
    Ok(SolveResult {
        winner: s.winner,
        plies: s.plies,
        line: s.line,
        nodes: s.nodes,
        seconds: s.seconds,
        records: s.records,
        proof,
    })
}

/// Checks a proof file (Breakthrough, Woodpush or Chinese Checkers) independently of the
/// search that wrote it; returns its game, position, winner (`None` for a draw), plies and
/// the records and table claims checked.
#[pyfunction]
fn check_proof<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let c = py.detach(|| solving::check(&path)).map_err(error)?;
    let out = PyDict::new(py);
    out.set_item("game", c.game)?;
    out.set_item("position", c.position)?;
    out.set_item("winner", c.winner)?;
    out.set_item("plies", c.plies)?;
    out.set_item("records", c.records)?;
    out.set_item("claims", c.claims)?;
    Ok(out)
}

/// The names of the games `load_game` takes.
#[pyfunction]
fn registered_names() -> Vec<&'static str> {
    GAMES.to_vec()
}

#[pymodule]
fn _quasar(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("QuasarError", m.py().get_type::<QuasarError>())?;
    m.add("TERMINAL", TERMINAL)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<searching::SearchResult>()?;
    m.add_class::<tables::ProbeResult>()?;
    m.add_class::<tables::Table>()?;
    m.add_class::<SolveResult>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(registered_names, m)?)?;
    m.add_function(wrap_pyfunction!(searching::search, m)?)?;
    m.add_function(wrap_pyfunction!(_run_match, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(check_proof, m)?)?;
    m.add_function(wrap_pyfunction!(_read_records, m)?)?;
    Ok(())
}
