//! `search` from Python: the searcher a player spec names, run on a state, and what it found.

use super::{error, limit_of, py_repr, State};
use crate::erased::Found;
use engine::ab_player::AbSettings;
use engine::engine::{EngineChoice, SearcherSettings};
use engine::net::NetSpec;
use engine::settings::EngineSettings;
use engine::spec::PlayerSpec;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// What a search found.
#[pyclass(module = "quasar", get_all)]
pub(crate) struct SearchResult {
    /// `"mcts"` or `"ab"`.
    engine: &'static str,
    /// The move to play in the game's notation; `None` for a finished game.
    #[pyo3(name = "move")]
    best: Option<String>,
    /// Its action number.
    action: Option<u64>,
    /// The mover's expected score in [0, 1] (1: a certain win).
    value: Option<f64>,
    /// The principal variation, from the move to play.
    pv: Vec<String>,
    /// `"win"`, `"loss"` or `"draw"` for the side to move when the search proved it.
    proven: Option<&'static str>,
    /// Plies to the end along the proof, when known.
    plies: Option<u32>,
    /// Simulations (MCTS) or nodes (alpha-beta).
    nodes: u64,
    /// Alpha-beta's deepest finished iteration.
    depth: Option<u32>,
    /// Alpha-beta's score as the command line prints it (`+35`, `win within 5 plies`).
    score: Option<String>,
    /// Seconds the search took.
    seconds: f64,
    /// MCTS's root moves as (move, action, visits, value), most visited first.
    root: Vec<(String, u64, u64, f64)>,
}

#[pymethods]
impl SearchResult {
    /// MCTS's visits per root move, most visited first (empty for alpha-beta).
    #[getter]
    fn visits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (text, _, visits, _) in &self.root {
            out.set_item(text, visits)?;
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!(
            "<quasar.SearchResult {} move={} value={} proven={} nodes={}>",
            self.engine,
            py_repr(self.best.as_deref()),
            self.value.map_or("None".into(), |v| format!("{v:.3}")),
            py_repr(self.proven),
            self.nodes
        )
    }
}

impl From<Found> for SearchResult {
    fn from(f: Found) -> SearchResult {
        SearchResult {
            engine: f.engine,
            best: f.best,
            action: f.action,
            value: f.value,
            pv: f.pv,
            proven: f.proven.map(|p| p.0),
            plies: f.proven.and_then(|p| p.1),
            nodes: f.nodes,
            depth: f.depth,
            score: f.score,
            seconds: f.seconds,
            root: f
                .root
                .into_iter()
                .map(|r| (r.text, r.action, r.visits, r.value))
                .collect(),
        }
    }
}

/// Searches `state` and returns the move to play with what the search found. `engine` is
/// a player spec as the command line takes it (`mcts`, `ab`, `mcts:c=0.7,imb=0.3`,
/// `ab:eval=mcts`; the game's default when `None`); `time` in seconds (1 by default) or
/// `sims` (simulations for MCTS, nodes for alpha-beta) bound it; `table` is an endgame
/// table or database to consult, `net` a learned model (`builtin`, `off` or a file).
/// The GIL is released while it searches.
#[pyfunction]
#[pyo3(signature = (state, engine=None, time=None, sims=None, table=None, net=None, seed=0, threads=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    py: Python<'_>,
    state: &State,
    engine: Option<&str>,
    time: Option<f64>,
    sims: Option<u64>,
    table: Option<PathBuf>,
    net: Option<&str>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<SearchResult> {
    // The spec and the keywords are read before the GIL is released: a bad one is an
    // error at once.
    let spec_text = engine
        .map(str::to_string)
        .unwrap_or_else(|| state.inner.default_engine());
    let spec = PlayerSpec::from_str(&spec_text).map_err(|e| error(e.to_string()))?;
    let net = net
        .map(|n| NetSpec::parse(n).map_err(|e| error(format!("net={n:?}: {e}"))))
        .transpose()?;
    let limit = limit_of(time, sims, Duration::from_secs(1))?;
    let searcher = match spec {
        PlayerSpec::Mcts(settings) => SearcherSettings::Mcts(EngineSettings {
            table: table.or(settings.table.clone()),
            net: net.or(settings.net.clone()),
            seed: settings.seed.or(Some(seed)),
            threads: threads.or(settings.threads),
            limit: Some(limit),
            ..settings
        }),
        PlayerSpec::AlphaBeta(settings) => {
            if threads.is_some_and(|t| t > 1) {
                return Err(error("alpha-beta searches on one thread: leave threads out"));
            }
            SearcherSettings::AlphaBeta(AbSettings {
                table: table.or(settings.table.clone()),
                net: net.or(settings.net.clone()),
                ..settings
            })
        }
        other => {
            return Err(error(format!(
                "engine {other} is not a searcher: use mcts, ab or their specs (mcts:c=0.7, ab:depth=6)"
            )))
        }
    };
    let choice = EngineChoice { searcher, limit };
    let position = state.inner.boxed();
    let found = py.detach(move || position.search(&choice, seed));
    found.map(SearchResult::from).map_err(error)
}
