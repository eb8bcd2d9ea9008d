//! The databases as an MCTS oracle: a position in a slice present is proven at expansion,
//! a playout that enters one ends with its value, and a search whose root they know plays
//! the move [`crate::endgame::choose`] picks under the draw rules of play (by the distance
//! files where they are loaded).

use crate::board::Move;
use crate::db::{Database, Wdl};
use crate::endgame::{self, Distance};
use crate::play::Checkers;
use crate::position::Position;
use quasar_core::{Game, GameResult, Oracle, ProvenOutcome};

impl Oracle<Position> for Database {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        self.probe_position(pos).map(|w| ProvenOutcome {
            result: w.result(),
            plies: None,
            best_move: None,
        })
    }

    #[inline]
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        self.probe_position(pos).map(Wdl::result)
    }

    #[inline]
    fn prefetch_children(&self, pos: &Position, moves: &[Move]) {
        for &mv in moves {
            let c = pos.after(mv);
            self.prefetch(&c.board, c.side);
        }
    }

    fn damage(&self) -> Option<String> {
        Database::damage(self)
    }
}

impl Oracle<Checkers> for Database {
    /// The game-theoretic value: the draw rules of play are not in the databases.
    #[inline]
    fn probe(&self, g: &Checkers) -> Option<ProvenOutcome<Move>> {
        if g.outcome().is_some() {
            return None;
        }
        Oracle::<Position>::probe(self, &g.pos)
    }

    #[inline]
    fn guess(&self, g: &Checkers) -> Option<GameResult> {
        self.probe_position(&g.pos).map(Wdl::result)
    }

    /// Each child's value read starts before the first is probed (MCTS probes them all).
    #[inline]
    fn prefetch_children(&self, g: &Checkers, moves: &[Move]) {
        Oracle::<Position>::prefetch_children(self, &g.pos, moves);
    }

    /// A block read through the table cache that failed its CRC-32, naming the file.
    fn damage(&self) -> Option<String> {
        Database::damage(self)
    }

    /// The value under the rules of play with the move that converts a win, resists a loss
    /// or sets traps in a draw (the first winning move would shuffle into a draw by rule).
    fn probe_root(&self, g: &Checkers) -> Option<ProvenOutcome<Move>> {
        // With distance files loaded, a win converts by the shortest way and a loss resists
        // longest; without them `choose` searches and scores moves instead.
        let distance = self.has_distances().then_some(self as &dyn Distance);
        let (result, mv) = endgame::choose(self, distance, g)?;
        Some(ProvenOutcome {
            result,
            plies: None,
            best_move: Some(mv),
        })
    }
}
