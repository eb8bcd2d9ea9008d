//! A playout that searches instead of playing: a shallow alpha-beta search of the leaf,
//! its value turned into a win or a loss with the evaluation's winning chance, for MCTS
//! players whose game has an evaluation (a minimax hybrid in the sense of Baier and
//! Winands, "MCTS-Minimax Hybrids", 2015).

use crate::score::PROVEN;
use crate::search::{AlphaBeta, Config};
use mcts::{PlayoutContext, PlayoutPolicy};
use quasar_core::{win_chance, Evaluation, Game, Outcome};
use std::fmt;
use std::sync::{Arc, Mutex};

/// Bytes of each playout searcher's transposition table: small enough to stay in cache.
const TABLE_BYTES: usize = 1 << 18;

/// The search playout; each clone (each MCTS thread) gets its own searcher.
pub struct SearchPlayout<G: Game> {
    eval: Arc<dyn Evaluation<G>>,
    depth: u32,
    searcher: Mutex<AlphaBeta<G>>,
}

impl<G: Game> SearchPlayout<G> {
    /// Playouts that search `depth` plies (1 to 8) with `eval` at the leaves.
    pub fn new(eval: Arc<dyn Evaluation<G>>, depth: u32) -> SearchPlayout<G> {
        let depth = depth.clamp(1, 8);
        let searcher = AlphaBeta::new(
            Config {
                table_bytes: TABLE_BYTES,
                max_depth: depth + 1,
            },
            Arc::clone(&eval),
        );
        SearchPlayout {
            eval,
            depth,
            searcher: Mutex::new(searcher),
        }
    }

    /// The plies each playout searches.
    pub fn depth(&self) -> u32 {
        self.depth
    }
}

impl<G: Game> Clone for SearchPlayout<G> {
    fn clone(&self) -> Self {
        SearchPlayout::new(Arc::clone(&self.eval), self.depth)
    }
}

impl<G: Game> fmt::Debug for SearchPlayout<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SearchPlayout({}, depth {})",
            self.eval.name(),
            self.depth
        )
    }
}

impl<G: Game> PlayoutPolicy<G> for SearchPlayout<G> {
    fn run(&self, pos: &mut G, ctx: &mut PlayoutContext<'_, G>) -> Outcome {
        if let Some(o) = pos.outcome() {
            return o;
        }
        let me = pos.side_to_move();
        let value = {
            // Each clone is one thread's: the lock is never contended.
            let mut s = match self.searcher.lock() {
                Ok(s) => s,
                Err(poisoned) => poisoned.into_inner(),
            };
            s.value(pos, self.depth)
        };
        let p = if value > PROVEN {
            1.0
        } else if value < -PROVEN {
            0.0
        } else {
            win_chance(value, self.eval.scale())
        };
        // A win with the leaf's winning chance: MCTS's mean then estimates that chance.
        let draw = ctx.below(1 << 30) as f64 / (1u64 << 30) as f64;
        if draw < p {
            Outcome::Win(me)
        } else {
            Outcome::Win(me.opponent())
        }
    }
}
