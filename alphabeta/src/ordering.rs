//! Move ordering: the table move, then tactical moves (captures), then the two killer moves
//! of the ply, then the rest by the history heuristic.

use std::hash::{Hash, Hasher};

/// Moves' history scores live in this many slots, indexed by a hash of the move (moves are
/// opaque to a generic search; collisions only blur the ordering).
const HISTORY_SLOTS: usize = 1 << 14;

const TABLE_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;

/// A multiply-rotate hasher for small keys: moves are a few bytes.
#[derive(Default)]
struct SmallHasher(u64);

impl Hasher for SmallHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

#[inline]
fn slot<M: Hash>(mv: &M) -> usize {
    let mut h = SmallHasher::default();
    mv.hash(&mut h);
    h.finish() as usize & (HISTORY_SLOTS - 1)
}

/// Killer moves per ply and history scores, kept across the iterations of one search.
pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> Ordering<M> {
    /// Empty killers for `max_ply` plies and a zero history.
    pub fn new(max_ply: usize) -> Ordering<M> {
        Ordering {
            killers: vec![[None; 2]; max_ply + 1],
            history: vec![0; HISTORY_SLOTS],
        }
    }

    /// Forgets the killers and ages the history, for a new search.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    /// The ordering score of `mv` at `ply` (higher first).
    #[inline]
    pub fn score(&self, mv: M, ply: usize, table_move: Option<M>, tactical: bool) -> i32 {
        if Some(mv) == table_move {
            return TABLE_MOVE;
        }
        if tactical {
            return TACTICAL + self.history[slot(&mv)].min(KILLER - 1);
        }
        let k = self.killers[ply];
        if k[0] == Some(mv) {
            return KILLER + 1;
        }
        if k[1] == Some(mv) {
            return KILLER;
        }
        self.history[slot(&mv)]
    }

    /// Records that quiet move `mv` caused a cut-off at `ply` with `depth` plies left.
    #[inline]
    pub fn cutoff(&mut self, mv: M, ply: usize, depth: u32, tactical: bool) {
        let h = &mut self.history[slot(&mv)];
        *h = h.saturating_add((depth * depth) as i32).min(KILLER - 1);
        if !tactical {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
    }
}

/// Sorts `moves` by `scores`, highest first (insertion sort: move lists are short, and
/// this allocates nothing).
#[inline]
pub fn sort_by_score<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    for i in 1..moves.len() {
        let (m, s) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < s {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = m;
        scores[j] = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_move_then_tactical_then_killers_then_history() {
        let mut o: Ordering<u16> = Ordering::new(4);
        o.cutoff(7, 1, 3, false);
        o.cutoff(8, 1, 2, false);
        o.cutoff(9, 2, 5, false);
        let mut moves = [1u16, 7, 8, 9, 5, 6];
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&m| o.score(m, 1, Some(6), m == 5))
            .collect();
        sort_by_score(&mut moves, &mut scores);
        // 6 the table move, 5 tactical, 8 then 7 the killers (latest first), then 9 by
        // history, then 1.
        assert_eq!(moves, [6, 5, 8, 7, 9, 1]);
    }
}
