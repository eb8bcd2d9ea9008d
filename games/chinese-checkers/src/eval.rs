//! Chinese Checkers' evaluation for searches that stop early: the race of each side's
//! pieces to its goal corner (rows still to go), a penalty on the piece left furthest
//! behind, the tempo of the side to move, and the sound verdict of a win on the next move.

use crate::board::{cells, coords};
use crate::position::{Move, Position};
use quasar_core::{Evaluation, Side, Verdict};

/// The row of the bottom tip (rows are `p + q`, 0 at the top tip).
const LAST_ROW: i32 = 12;

/// One row of the diamond a piece still has to cross toward its goal tip.
pub const ROW: i32 = 10;
/// Each row the rearmost piece still has to cross, on top of [`ROW`]: a piece left behind
/// loses the hops the others offer and ends up walking alone.
pub const LAGGARD: i32 = 4;
/// The side to move is about one row ahead in the race: its next move gains it.
pub const TEMPO: i32 = ROW;

/// The rows from `cell` to `side`'s goal tip: the first player heads for the bottom tip
/// (row 12), the second for the top one (row 0). On the rhombus a piece needs at least
/// this many steps, so it is the hex distance to the tip.
#[inline]
fn rows_to_go(side: Side, cell: usize) -> i32 {
    let (p, q) = coords(cell);
    match side {
        Side::First => LAST_ROW - (p + q),
        Side::Second => p + q,
    }
}

/// Table of [`rows_to_go`] per side and cell.
fn rows_table() -> [[i32; crate::board::CELLS]; 2] {
    [Side::First, Side::Second].map(|side| std::array::from_fn(|c| rows_to_go(side, c)))
}

/// The race evaluation of two-player Chinese Checkers; holds its row table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CcEval {
    rows: [[i32; crate::board::CELLS]; 2],
}

impl Default for CcEval {
    fn default() -> Self {
        CcEval::new()
    }
}

impl CcEval {
    /// The evaluation (the same for every number of pieces).
    pub fn new() -> CcEval {
        CcEval { rows: rows_table() }
    }

    /// What `side` still has to run: rows of every piece, and extra for the rearmost.
    #[inline]
    fn distance(&self, pos: &Position, side: Side) -> i32 {
        let rows = &self.rows[side.index()];
        let (mut sum, mut worst) = (0, 0);
        for c in cells(pos.pieces[side.index()]) {
            sum += rows[c];
            worst = worst.max(rows[c]);
        }
        ROW * sum + LAGGARD * worst
    }

    /// Whether the side to move fills its goal on this move: exactly one goal cell is
    /// empty and a piece from outside the goal reaches it (one of its own then stands there).
    fn wins_now(pos: &Position) -> bool {
        let me = pos.side;
        let goal = pos.goal(me);
        let holes = goal & !pos.occupied();
        if holes.count_ones() != 1 {
            return false;
        }
        cells(pos.pieces[me.index()] & !goal).any(|from| pos.destinations(from) & holes != 0)
    }
}

impl Evaluation<Position> for CcEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let me = pos.side;
        self.distance(pos, me.opponent()) - self.distance(pos, me) + TEMPO
    }

    fn scale(&self) -> f64 {
        // Two moves ahead in the race (a step and a short hop, about three rows) wins most
        // games between equal players.
        (3 * ROW) as f64
    }

    /// No move captures; moves that gain many rows (long hop chains) are the ones that
    /// change the race, so they are tried early.
    #[inline]
    fn is_tactical(&self, pos: &Position, mv: Move) -> bool {
        crate::policy::gain(pos.side, mv) >= 2
    }

    fn verdict(&self, pos: &Position) -> Option<Verdict> {
        CcEval::wins_now(pos).then_some(Verdict::WIN_IN_ONE)
    }

    fn name(&self) -> &'static str {
        "race"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{far_area, CELLS};
    use quasar_core::Game;
    use quasar_core::GameResult;

    /// The score written out from axial coordinates cell by cell, as documented.
    fn by_hand(pos: &Position) -> i32 {
        let run = |side: Side| {
            let mut sum = 0;
            let mut worst = 0;
            for c in 0..CELLS {
                if pos.pieces[side.index()] >> c & 1 == 0 {
                    continue;
                }
                let (p, q) = coords(c);
                // The tip is (6, 6) for the first player, (0, 0) for the second.
                let d = match side {
                    Side::First => (6 - p) + (6 - q),
                    Side::Second => p + q,
                };
                sum += d;
                worst = worst.max(d);
            }
            ROW * sum + LAGGARD * worst
        };
        run(pos.side.opponent()) - run(pos.side) + TEMPO
    }

    #[test]
    fn the_start_is_level_and_the_value_matches_the_definition() {
        let e = CcEval::new();
        let mut rng = quasar_core::SplitMix64::new(3);
        let mut moves = Vec::new();
        let mut seen = 0;
        for k in 1..=6 {
            let start = Position::start(k).unwrap();
            assert_eq!(e.evaluate(&start), TEMPO, "k = {k}");
            for _game in 0..4 {
                let mut p = start;
                // Random games wander for thousands of plies; a few hundred suffice.
                for _ply in 0..300 {
                    if p.outcome().is_some() {
                        break;
                    }
                    assert_eq!(e.evaluate(&p), by_hand(&p), "{}", p.position_text());
                    // The colour-flipped twin scores the same for its mover.
                    assert_eq!(e.evaluate(&p.flipped()), e.evaluate(&p));
                    seen += 1;
                    p.legal_moves(&mut moves);
                    let i = rng.below(moves.len());
                    p.play(moves[i]);
                }
            }
        }
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn the_verdict_is_a_win_on_the_next_move_exactly() {
        let e = CcEval::new();
        let mut rng = quasar_core::SplitMix64::new(8);
        let mut moves = Vec::new();
        let (mut wins, mut seen) = (0, 0);
        for k in [1, 2, 3] {
            for _game in 0..40 {
                let mut p = Position::start(k).unwrap();
                for _ply in 0..400 {
                    if p.outcome().is_some() {
                        break;
                    }
                    p.legal_moves(&mut moves);
                    let now = moves.iter().any(|&m| p.after(m).has_won(p.side));
                    let v = e.verdict(&p);
                    assert_eq!(v.is_some(), now, "{}", p.position_text());
                    wins += usize::from(now);
                    seen += 1;
                    // Forward-leaning play reaches the goals: the better of two moves.
                    let (a, b) = (moves[rng.below(moves.len())], moves[rng.below(moves.len())]);
                    let gain = |m| crate::policy::gain(p.side, m);
                    p.play(if gain(b) > gain(a) { b } else { a });
                }
            }
        }
        assert!(wins > 20 && seen > 1000, "{wins} of {seen}");
        // A hand-made case: one piece a side, the first player one step from cell 48.
        let p = Position {
            pieces: [1 << 47, 1 << 24],
            side: Side::First,
        };
        assert_eq!(far_area(1), 1 << 48);
        assert_eq!(
            e.verdict(&p),
            Some(Verdict {
                result: GameResult::Win,
                plies: 1
            })
        );
    }
}
