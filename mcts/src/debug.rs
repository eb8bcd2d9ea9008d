//! `Debug` for the searcher: its settings, not its trees, which are too large to print.

use crate::{PlayoutPolicy, Searcher};
use quasar_core::Game;
use std::fmt;

impl<G: Game, P: PlayoutPolicy<G>> fmt::Debug for Searcher<G, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("config", self.config())
            .finish_non_exhaustive()
    }
}
