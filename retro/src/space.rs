//! The traits a game implements to be solved: a perfect index of its positions (or of one
//! slice), and the moves between indexed positions.

use quasar_core::Side;

/// A child of a position: another indexed position, or a position outside the index (a
/// capture into a slice solved before) whose value is already known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// An indexed position.
    Pos(u64),
    /// A known value outside the index: a score from the first player's point of view
    /// (positive: the first player wins; 0: a draw) and the plies to the end.
    Exit {
        /// Score for the first player; win/draw/loss solvers use its sign.
        score: i32,
        /// Plies to the end with best play from that child.
        plies: u32,
    },
}

/// A perfect index: every number below `size` names one position and every position one
/// number, so value arrays need no keys.
pub trait PerfectIndex {
    /// The position type the index names.
    type State;
    /// The number of positions.
    fn size(&self) -> u64;
    /// The number of `state` (below `size`).
    fn rank(&self, state: &Self::State) -> u64;
    /// The position numbered `index` (below `size`).
    fn unrank(&self, index: u64) -> Self::State;
}

/// A game over indexed positions, as the solvers see it. The first player (`Side::First`,
/// max) wants the score high, the second (min) wants it low.
pub trait RetroGame: Sync {
    /// The number of positions, numbered from 0.
    fn size(&self) -> u64;

    /// The side to move in position `pos`.
    fn mover(&self, pos: u64) -> Side;

    /// The value of a finished position, for the first player: positive when it won (a
    /// score, or 1 in a win/draw/loss game), negative when it lost, 0 for a drawn end.
    fn terminal(&self, pos: u64) -> Option<i32>;

    /// Clears `out` and writes the children of a position that is not finished. A position
    /// with no children that is not terminal is lost for its mover (normal play).
    fn successors(&self, pos: u64, out: &mut Vec<Child>);

    /// Whether some position has an [`Child::Exit`] child; backward solvers then start with
    /// one forward sweep, since such positions have no solved child inside the index.
    fn has_exits(&self) -> bool {
        false
    }

    /// The number of children of an unfinished position when known without generating them
    /// (a built reverse graph counts them); solvers that need counts use it to save a pass.
    fn child_count(&self, pos: u64) -> Option<u32> {
        let _ = pos;
        None
    }

    /// Whether [`RetroGame::predecessors`] is implemented ("unmoves"); when not, backward
    /// solvers build the reverse of the move graph from `successors`.
    fn has_predecessors(&self) -> bool {
        false
    }

    /// Clears `out` and writes every indexed position that has `pos` among its children
    /// (once per move that leads there). Only called when `has_predecessors` is true.
    fn predecessors(&self, pos: u64, out: &mut Vec<u64>) {
        let _ = pos;
        out.clear();
    }
}

/// Checks that `unrank` and `rank` are inverse over the whole index; the first index where
/// they are not, if any. For tests of a game's index.
pub fn first_index_mismatch<I: PerfectIndex>(index: &I) -> Option<u64> {
    (0..index.size()).find(|&i| index.rank(&index.unrank(i)) != i)
}
