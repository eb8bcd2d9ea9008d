//! An exact solver for small positions (a depth-first proof search with a transposition
//! table), and the [`ExactOracle`] that offers it to MCTS as endgame knowledge on tiny
//! boards; tests use both as an independent source of truth.

use crate::game::{Game, GameResult, Outcome};
use crate::oracle::{Oracle, ProvenOutcome};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A proven value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Win or loss for the side to move (draws are never claimed).
    pub result: GameResult,
    /// Plies to the end with best play: the fastest win, the slowest loss.
    pub plies: u32,
    /// A move achieving it (`None` in a finished game).
    pub best_move: Option<M>,
}

/// What the table knows of a position: it wins within `win_at` plies (0: not known) and
/// does not win within `no_win_upto` plies.
#[derive(Clone, Copy, Default)]
struct Bounds {
    win_at: u8,
    no_win_upto: u8,
}

/// A table key: the position itself, found by [`Game::hash`] and confirmed with `==`, so
/// two positions whose 64-bit hashes collide never share bounds.
#[derive(Clone, PartialEq, Eq)]
struct Key<G>(G);

impl<G: Game> Hash for Key<G> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash());
    }
}

/// Passes the game's hash through: it is already well mixed, so hashing it again is waste.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The exact solver; keep one alive to share its table over several positions.
pub struct ExactSolver<G: Game> {
    table: HashMap<Key<G>, Bounds, BuildHasherDefault<PassThrough>>,
    buffers: Vec<Vec<G::Move>>,
    nodes: u64,
    node_limit: u64,
}

impl<G: Game> fmt::Debug for ExactSolver<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExactSolver")
            .field("table_entries", &self.table.len())
            .field("nodes", &self.nodes)
            .field("node_limit", &self.node_limit)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Default for ExactSolver<G> {
    fn default() -> Self {
        Self::new(u64::MAX)
    }
}

impl<G: Game> ExactSolver<G> {
    /// A solver that gives up (answers `None`) after visiting `node_limit` positions.
    pub fn new(node_limit: u64) -> Self {
        ExactSolver {
            table: HashMap::default(),
            buffers: Vec::new(),
            nodes: 0,
            node_limit,
        }
    }

    /// The exact value of `pos` if a win or loss is forced within `max_plies` plies
    /// (at most 255), else `None` (also when the node limit runs out).
    pub fn solve(&mut self, pos: &G, max_plies: u32) -> Option<Solution<G::Move>> {
        let max = max_plies.min(255);
        if let Some(o) = pos.outcome() {
            return match o.result_for(pos.side_to_move()) {
                GameResult::Draw => None,
                result => Some(Solution {
                    result,
                    plies: 0,
                    best_move: None,
                }),
            };
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for d in 1..=max {
            if self.wins_within(pos, d, 0)? {
                let mv = self.winning_move(pos, &moves, d)?;
                return Some(Solution {
                    result: GameResult::Win,
                    plies: d,
                    best_move: Some(mv),
                });
            }
            if d >= 2 && self.loses_within(pos, d, 0)? {
                // The slowest loss: the move after which the opponent needs the most plies.
                let mut best = (0, None);
                for &mv in &moves {
                    let mut child = pos.clone();
                    child.play(mv);
                    let mut e = 0;
                    if child.outcome().is_none() {
                        e = (1..d).find(|&e| self.wins_within(&child, e, 0) == Some(true))?;
                    }
                    if best.1.is_none() || e > best.0 {
                        best = (e, Some(mv));
                    }
                }
                return Some(Solution {
                    result: GameResult::Loss,
                    plies: d,
                    best_move: best.1,
                });
            }
        }
        None
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn winning_move(&mut self, pos: &G, moves: &[G::Move], d: u32) -> Option<G::Move> {
        let side = pos.side_to_move();
        for &mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let wins = match child.outcome() {
                Some(o) => o == Outcome::Win(side),
                None => self.child_lost_for(&child, side, d - 1, 0)?,
            };
            if wins {
                return Some(mv);
            }
        }
        None
    }

    /// True when `child` (reached by a move of `side`) is won for `side` within `d` plies.
    fn child_lost_for(
        &mut self,
        child: &G,
        side: crate::game::Side,
        d: u32,
        ply: usize,
    ) -> Option<bool> {
        if child.side_to_move() == side {
            self.wins_within(child, d, ply)
        } else {
            self.loses_within(child, d, ply)
        }
    }

    /// Whether the side to move (in an unfinished `pos`) forces a win within `d` plies;
    /// `None` when the node limit ran out.
    fn wins_within(&mut self, pos: &G, d: u32, ply: usize) -> Option<bool> {
        if d == 0 {
            return Some(false);
        }
        let key = Key(pos.clone());
        let b = self.table.get(&key).copied().unwrap_or_default();
        if b.win_at != 0 && d >= b.win_at as u32 {
            return Some(true);
        }
        if d <= b.no_win_upto as u32 {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return None;
        }
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        let side = pos.side_to_move();
        let mut found = Some(false);
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let wins = match child.outcome() {
                Some(o) => Some(o == Outcome::Win(side)),
                None => self.child_lost_for(&child, side, d - 1, ply + 1),
            };
            match wins {
                Some(true) => {
                    found = Some(true);
                    break;
                }
                Some(false) => {}
                None => {
                    found = None;
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        let won = found?;
        let e = self.table.entry(key).or_default();
        if won {
            if e.win_at == 0 || (d as u8) < e.win_at {
                e.win_at = d as u8;
            }
        } else if d as u8 > e.no_win_upto {
            e.no_win_upto = d as u8;
        }
        Some(won)
    }

    /// Whether the side to move (in an unfinished `pos`) loses within `d` plies whatever
    /// it plays.
    fn loses_within(&mut self, pos: &G, d: u32, ply: usize) -> Option<bool> {
        if d == 0 {
            return Some(false);
        }
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        pos.legal_moves(&mut moves);
        let side = pos.side_to_move();
        let opp = side.opponent();
        let mut all = Some(!moves.is_empty());
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let lost = match child.outcome() {
                Some(o) => Some(o == Outcome::Win(opp)),
                None => self.child_lost_for(&child, opp, d - 1, ply + 1),
            };
            match lost {
                Some(true) => {}
                Some(false) => {
                    all = Some(false);
                    break;
                }
                None => {
                    all = None;
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        all
    }
}

/// An oracle backed by [`ExactSolver`]: it proves what a search of `max_plies` plies
/// within `node_limit` positions can. Meant for tiny boards (tests, experiments).
/// Depths follow the tablebase's convention: the winner's moves.
#[derive(Clone, Copy, Debug)]
pub struct ExactOracle {
    /// Deepest proof searched, in plies.
    pub max_plies: u32,
    /// Positions one probe may visit before it gives up.
    pub node_limit: u64,
}

impl<G: Game> Oracle<G> for ExactOracle {
    fn probe(&self, pos: &G) -> Option<ProvenOutcome<G::Move>> {
        let mut solver = ExactSolver::<G>::new(self.node_limit);
        let s = solver.solve(pos, self.max_plies)?;
        Some(ProvenOutcome {
            result: s.result,
            plies: Some(s.plies),
            best_move: s.best_move,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{Piles, CONSTANT_HASH, NONE};

    /// Take-one-or-two piles are won for the side to move exactly when the piles' sizes
    /// modulo 3 differ (their Grundy values, `n mod 3`, do not cancel).
    fn check<const BUG: u8>() {
        let mut solver = ExactSolver::<Piles<BUG>>::default();
        for a in 0..7 {
            for b in 0..7 {
                if a + b == 0 {
                    continue;
                }
                let s = solver.solve(&Piles::<BUG>::new(a, b), 20).expect("solved");
                let wins = a % 3 != b % 3;
                let want = if wins {
                    GameResult::Win
                } else {
                    GameResult::Loss
                };
                assert_eq!(s.result, want, "piles {a} and {b}");
            }
        }
    }

    #[test]
    fn solves_the_toy_game() {
        check::<NONE>();
    }

    #[test]
    fn colliding_hashes_do_not_mix_positions() {
        // Every position hashes to 0: a table keyed by the hash alone would hand one
        // position's bounds to all of them.
        check::<CONSTANT_HASH>();
    }
}
