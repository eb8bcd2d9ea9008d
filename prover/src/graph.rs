//! The value of a position whose reachable positions are few, outright: every position
//! reachable from it before a settled one (a finished game, a quick verdict, a table's
//! result) is listed, then a fixpoint settles them as a retrograde solver does (a position
//! is won when a move reaches a lost one, lost when every move reaches a won one; the
//! rest are draws). Cycles are exact here, where the searches by proof numbers must
//! search again each result that leaned on a repetition. Settling the positions in the order
//! of their distance to the end also gives each won or lost one its exact length under
//! perfect play, so that a win's length and proof need no search of their own.

use crate::draws::Value;
use crate::instance::{Instance, MoveOf, Quick};
use crate::tt::{BuildMix, Key};
use quasar_core::{Game, GameResult, Outcome, Side};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// What is known of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Open,
    Won,
    Lost,
}

/// A move's end: a listed position, or a settled one with its result for its mover and
/// the plies from it to the game's end ([`UNKNOWN_PLIES`] for a table's result).
#[derive(Clone, Copy)]
enum End {
    Listed(u32),
    Settled(GameResult, u8),
}

/// The plies to the end of a position a table settles: the table knows its value only.
const UNKNOWN_PLIES: u8 = u8::MAX;

/// Listed positions' indexes by key.
type Index = HashMap<Key, u32, BuildMix>;

/// Every position reachable from a root before a settled one, with its value.
#[derive(Debug)]
pub struct Graph {
    /// Each listed position's index, by the instance's key.
    index: Index,
    /// Each listed position's state for its side to move.
    state: Vec<State>,
    /// Each won or lost position's plies to the game's end when the winner wins the
    /// fastest and the loser loses the slowest (0 for draws).
    plies: Vec<u32>,
    /// False when a line ended on a table's result, whose plies are unknown: `plies`
    /// then orders the positions but are not their lengths.
    exact: bool,
}

impl Graph {
    /// Positions listed.
    pub fn len(&self) -> usize {
        self.state.len()
    }

    /// True when nothing was listed (never: the root always is).
    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// The value of `pos` when it was listed.
    pub fn value_of<I: Instance>(&self, inst: &I, pos: &I::Pos) -> Option<Value> {
        let me = pos.side_to_move();
        Some(
            match self.state[*self.index.get(&inst.key(pos))? as usize] {
                State::Won => Value::Win(me),
                State::Lost => Value::Win(me.opponent()),
                State::Open => Value::Draw,
            },
        )
    }

    /// Whether `winner` wins from the listed `pos` within `d` plies whatever the loser
    /// does, when the graph knows the exact lengths (`None`: not listed, or a line ended
    /// on a table's result).
    pub fn wins_within<I: Instance>(
        &self,
        inst: &I,
        pos: &I::Pos,
        winner: Side,
        d: u32,
    ) -> Option<bool> {
        if !self.exact {
            return None;
        }
        let i = *self.index.get(&inst.key(pos))? as usize;
        let wins = if pos.side_to_move() == winner {
            State::Won
        } else {
            State::Lost
        };
        Some(self.state[i] == wins && self.plies[i] <= d)
    }

    /// True when every won or lost position's exact length is known.
    pub fn knows_lengths(&self) -> bool {
        self.exact
    }
}

/// The value of the unfinished `root` and the graph of the positions listed, when at most
/// `limit` positions are reachable before a settled one; `None` beyond, or once
/// `interrupt` is raised.
pub fn value<I: Instance>(
    inst: &I,
    tb: Option<&I::Table>,
    root: &I::Pos,
    limit: usize,
    interrupt: Option<&AtomicBool>,
) -> Option<(Value, Graph)> {
    let graph = solve(inst, tb, root, limit, interrupt)?;
    Some((graph.value_of(inst, root)?, graph))
}

/// Positions listed between two looks at the interrupt flag.
const LOOK_EVERY: usize = 1 << 12;

/// Every position reachable from the unfinished `root` before a settled one, valued, when
/// there are at most `limit`; `None` beyond, or once `interrupt` is raised (the search that
/// follows stops at once on the same flag).
pub fn solve<I: Instance>(
    inst: &I,
    tb: Option<&I::Table>,
    root: &I::Pos,
    limit: usize,
    interrupt: Option<&AtomicBool>,
) -> Option<Graph> {
    let mut index = Index::default();
    let mut positions = vec![*root];
    index.insert(inst.key(root), 0);
    // Each position's moves' ends: `ends[first[i]..first[i + 1]]`.
    let (mut first, mut ends) = (vec![0u32], Vec::new());
    let mut moves: Vec<MoveOf<I>> = Vec::new();
    let mut i = 0;
    while i < positions.len() {
        if i % LOOK_EVERY == 0 && interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return None;
        }
        let pos = positions[i];
        inst.moves(&pos, inst.quick(&pos), &mut moves);
        for &mv in &moves {
            let mut child = pos;
            child.play(mv);
            if let Some((r, plies)) = settled(inst, tb, &child) {
                ends.push(End::Settled(r, plies));
                continue;
            }
            let next = positions.len() as u32;
            let at = *index.entry(inst.key(&child)).or_insert(next);
            if at == next {
                if positions.len() >= limit {
                    return None;
                }
                positions.push(child);
            }
            ends.push(End::Listed(at));
        }
        first.push(ends.len() as u32);
        i += 1;
    }
    drop(positions);
    let n = first.len() - 1;
    // Each listed position's predecessors, one a move.
    let mut pred_first = vec![0u32; n + 1];
    for e in &ends {
        if let End::Listed(j) = e {
            pred_first[*j as usize + 1] += 1;
        }
    }
    for j in 0..n {
        pred_first[j + 1] += pred_first[j];
    }
    let mut fill = pred_first.clone();
    let mut preds = vec![0u32; ends.len()];
    for p in 0..n {
        for e in &ends[first[p] as usize..first[p + 1] as usize] {
            if let End::Listed(j) = e {
                preds[fill[*j as usize] as usize] = p as u32;
                fill[*j as usize] += 1;
            }
        }
    }
    // Settled in the order of their plies to the end, as a shortest-path search: a
    // position is won at one more than its nearest lost child, lost at one more than its
    // farthest child once every move reaches a won one. `open`: moves not yet known to
    // reach a position won by its mover; `far`: the farthest such end so far; `plies`: a
    // won candidate's nearest end so far, then the final length. A position's state is
    // final when it leaves its bucket; it is a lost one exactly when no move is open.
    let mut open = vec![0u32; n];
    let mut far = vec![0u32; n];
    let mut plies = vec![u32::MAX; n];
    let mut state = vec![State::Open; n];
    let mut exact = true;
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, d: u32, p: usize| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(p as u32);
    };
    for p in 0..n {
        let mut nearest = u32::MAX;
        for e in &ends[first[p] as usize..first[p + 1] as usize] {
            match *e {
                End::Settled(r, k) => {
                    exact &= k != UNKNOWN_PLIES;
                    let k = if k == UNKNOWN_PLIES { 0 } else { k as u32 };
                    match r {
                        GameResult::Win => far[p] = far[p].max(k),
                        GameResult::Loss => {
                            nearest = nearest.min(k);
                            open[p] += 1;
                        }
                        GameResult::Draw => open[p] += 1,
                    }
                }
                End::Listed(_) => open[p] += 1,
            }
        }
        if nearest != u32::MAX {
            plies[p] = nearest + 1;
            push(&mut buckets, nearest + 1, p);
        } else if open[p] == 0 {
            plies[p] = far[p] + 1;
            push(&mut buckets, far[p] + 1, p);
        }
    }
    let mut d = 0;
    while d < buckets.len() {
        while let Some(j) = buckets[d].pop() {
            let j = j as usize;
            // A won candidate seen again at a larger length than the one it was settled at.
            if state[j] != State::Open {
                continue;
            }
            let lost = open[j] == 0;
            state[j] = if lost { State::Lost } else { State::Won };
            let here = d as u32;
            for &p in &preds[pred_first[j] as usize..pred_first[j + 1] as usize] {
                let p = p as usize;
                if state[p] != State::Open {
                    continue;
                }
                if lost {
                    if here + 1 < plies[p] {
                        plies[p] = here + 1;
                        push(&mut buckets, here + 1, p);
                    }
                } else {
                    open[p] -= 1;
                    far[p] = far[p].max(here);
                    if open[p] == 0 {
                        plies[p] = far[p] + 1;
                        push(&mut buckets, far[p] + 1, p);
                    }
                }
            }
        }
        d += 1;
    }
    for (p, s) in plies.iter_mut().zip(&state) {
        if *s == State::Open {
            *p = 0;
        }
    }
    Some(Graph {
        index,
        state,
        plies,
        exact,
    })
}

/// The result for its side to move of a position settled without a move, and its plies
/// to the game's end: a finished game (0), the rules' quick verdict (1 or 2), a table's
/// result ([`UNKNOWN_PLIES`]).
fn settled<I: Instance>(inst: &I, tb: Option<&I::Table>, pos: &I::Pos) -> Option<(GameResult, u8)> {
    if let Some(o) = pos.outcome() {
        return Some((
            match o {
                Outcome::Win(w) if w == pos.side_to_move() => GameResult::Win,
                Outcome::Win(_) => GameResult::Loss,
                Outcome::Draw => GameResult::Draw,
            },
            0,
        ));
    }
    match inst.quick(pos) {
        Quick::WinInOne => Some((GameResult::Win, 1)),
        Quick::LossInTwo => Some((GameResult::Loss, 2)),
        _ => inst.table_result(tb, pos).map(|r| (r, UNKNOWN_PLIES)),
    }
}
