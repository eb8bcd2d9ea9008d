//! Endgame tables and databases opened from Python, and what a probe of one says.

use super::{error, py_repr, Game, State};
use crate::erased::Opened;
use pyo3::prelude::*;
use std::path::PathBuf;

/// What a table says of a position.
#[pyclass(module = "quasar", get_all)]
pub(crate) struct ProbeResult {
    /// `"win"`, `"loss"` or `"draw"` for the side to move.
    result: &'static str,
    /// Plies to the end with best play, when the table keeps distances.
    plies: Option<u32>,
    /// A move that achieves the result, when the table knows one.
    #[pyo3(name = "move")]
    best: Option<String>,
}

#[pymethods]
impl ProbeResult {
    fn __repr__(&self) -> String {
        format!(
            "<quasar.ProbeResult {} plies={} move={}>",
            self.result,
            self.plies.map_or("None".into(), |p| p.to_string()),
            py_repr(self.best.as_deref())
        )
    }
}

/// An endgame table or database file (or sliced folder), opened once per game and size
/// and probed from Python.
#[pyclass(module = "quasar")]
pub(crate) struct Table {
    path: PathBuf,
    opened: Opened,
}

#[pymethods]
impl Table {
    /// The table at `path`; it is read at the first probe of each game and size, or at
    /// once for `game` when one is given.
    #[new]
    #[pyo3(signature = (path, game=None))]
    fn new(py: Python<'_>, path: PathBuf, game: Option<&Game>) -> PyResult<Table> {
        if !path.exists() {
            return Err(error(format!("no table at {}", path.display())));
        }
        let table = Table {
            path,
            opened: Opened::default(),
        };
        if let Some(game) = game {
            let start = game.inner.start().map_err(error)?;
            py.detach(|| start.probe(&table.path, &table.opened))
                .map_err(error)?;
        }
        Ok(table)
    }

    /// The table at `path` (the same as `Table(path, game)`).
    #[staticmethod]
    #[pyo3(signature = (path, game=None))]
    fn open(py: Python<'_>, path: PathBuf, game: Option<&Game>) -> PyResult<Table> {
        Table::new(py, path, game)
    }

    /// What the table proves of `state`, or `None` where it has no answer (a position
    /// outside it, or a finished game).
    fn probe(&self, py: Python<'_>, state: &State) -> PyResult<Option<ProbeResult>> {
        let position = state.inner.boxed();
        let probed = py
            .detach(|| position.probe(&self.path, &self.opened))
            .map_err(error)?;
        Ok(probed.map(|p| ProbeResult {
            result: p.result,
            plies: p.plies,
            best: p.best,
        }))
    }

    /// The table's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    fn __repr__(&self) -> String {
        format!("quasar.Table({:?})", self.path.display().to_string())
    }
}
