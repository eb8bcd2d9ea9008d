//! The spec's state space as a perfect index: every placement of `K` pieces a side on
//! distinct cells, for each side to move, `2 * C(49, K) * C(49 - K, K)` positions, ranked by
//! the combinatorial number system (no table of positions), with moves and unmoves for the
//! `retro` solvers.
//!
//! Number = side * half + rank(first player's cells among 49) * C(49 - K, K) + rank(second
//! player's cells among the 49 - K cells the first leaves free), each set ranked in colex
//! order (`sum C(c_i, i + 1)` over its cells `c_0 < c_1 < ...`).

use crate::board::{cells, ALL, CELLS, MAX_PIECES};
use crate::position::{destinations, PiecesError, Position};
use quasar_core::combin::{binomial, colex_rank, colex_rank_in, colex_unrank, colex_unrank_in};
use quasar_core::Side;
use retro::{Child, PerfectIndex, RetroGame};

/// The index of every position with `K` pieces a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcSpace {
    k: u32,
    /// C(49 - K, K): placements of the second player given the first's.
    second: u64,
    /// Positions with one side to move.
    half: u64,
}

impl CcSpace {
    /// The space of `k` pieces a side (1 to 6).
    pub fn new(k: u32) -> Result<CcSpace, PiecesError> {
        if !(1..=MAX_PIECES).contains(&k) {
            return Err(PiecesError::OutOfRange(k));
        }
        let n = CELLS as u32;
        let first = binomial(n, k);
        let second = binomial(n - k, k);
        Ok(CcSpace {
            k,
            second,
            half: first * second,
        })
    }

    /// Pieces a side.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Positions with one side to move (the first player's are numbered first).
    pub fn half(&self) -> u64 {
        self.half
    }

    /// The side to move of position `index`.
    #[inline]
    pub fn side_of(&self, index: u64) -> Side {
        if index < self.half {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The number of a position with `K` pieces a side.
    #[inline]
    pub fn rank_pos(&self, p: &Position) -> u64 {
        let r0 = colex_rank(p.pieces[0]);
        let r1 = colex_rank_in(p.pieces[1], ALL & !p.pieces[0]);
        let base = if p.side == Side::First { 0 } else { self.half };
        base + r0 * self.second + r1
    }

    /// The position numbered `index`.
    #[inline]
    pub fn unrank_pos(&self, index: u64) -> Position {
        let side = self.side_of(index);
        let r = index - if side == Side::First { 0 } else { self.half };
        let (r0, r1) = (r / self.second, r % self.second);
        let a = colex_unrank(r0, self.k, CELLS as u32);
        let b = colex_unrank_in(r1, self.k, ALL & !a);
        Position {
            pieces: [a, b],
            side,
        }
    }

    /// Whether a position belongs to this space (its pieces a side).
    pub fn contains(&self, p: &Position) -> bool {
        p.pieces[0].count_ones() == self.k && p.pieces[1].count_ones() == self.k
    }
}

impl PerfectIndex for CcSpace {
    type State = Position;
    fn size(&self) -> u64 {
        2 * self.half
    }
    fn rank(&self, state: &Position) -> u64 {
        self.rank_pos(state)
    }
    fn unrank(&self, index: u64) -> Position {
        self.unrank_pos(index)
    }
}

impl RetroGame for CcSpace {
    fn size(&self) -> u64 {
        2 * self.half
    }

    #[inline]
    fn mover(&self, pos: u64) -> Side {
        self.side_of(pos)
    }

    fn terminal(&self, pos: u64) -> Option<i32> {
        let p = self.unrank_pos(pos);
        quasar_core::Game::outcome(&p).map(|o| match o {
            quasar_core::Outcome::Win(Side::First) => 1,
            _ => -1,
        })
    }

    fn successors(&self, pos: u64, out: &mut Vec<Child>) {
        out.clear();
        let p = self.unrank_pos(pos);
        let me = p.side.index();
        let occ = p.occupied();
        for from in cells(p.pieces[me]) {
            for to in cells(destinations(occ & !(1 << from), from)) {
                let mut c = p;
                c.pieces[me] ^= (1 << from) | (1 << to);
                c.side = p.side.opponent();
                out.push(Child::Pos(self.rank_pos(&c)));
            }
        }
    }

    fn has_predecessors(&self) -> bool {
        true
    }

    /// Moves are reversible (a step or a hop chain run backwards, over the same pieces), so
    /// the parents are the last mover's moves from here, leaving out parents that were
    /// already won (finished positions have no moves).
    fn predecessors(&self, pos: u64, out: &mut Vec<u64>) {
        out.clear();
        let p = self.unrank_pos(pos);
        let last = p.side.opponent();
        let j = last.index();
        let occ = p.occupied();
        for at in cells(p.pieces[j]) {
            for from in cells(destinations(occ & !(1 << at), at)) {
                let mut parent = p;
                parent.pieces[j] ^= (1 << from) | (1 << at);
                parent.side = last;
                if !parent.has_won(p.side) {
                    out.push(self.rank_pos(&parent));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_the_specs() {
        assert_eq!(PerfectIndex::size(&CcSpace::new(2).unwrap()), 2_542_512);
        assert_eq!(PerfectIndex::size(&CcSpace::new(3).unwrap()), 559_352_640);
        assert!(CcSpace::new(7).is_err());
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        let s = CcSpace::new(1).unwrap();
        assert_eq!(retro::space::first_index_mismatch(&s), None);
        let s = CcSpace::new(2).unwrap();
        assert_eq!(retro::space::first_index_mismatch(&s), None);
        // K = 3 and 6: a stride through the whole index.
        for k in [3, 6] {
            let s = CcSpace::new(k).unwrap();
            let n = PerfectIndex::size(&s);
            let mut i = 0;
            while i < n {
                let p = s.unrank_pos(i);
                assert!(s.contains(&p) && p.pieces[0] & p.pieces[1] == 0);
                assert_eq!(s.rank_pos(&p), i);
                i += n / 10_007 + 1;
            }
            assert_eq!(s.rank_pos(&s.unrank_pos(n - 1)), n - 1);
        }
    }
}
