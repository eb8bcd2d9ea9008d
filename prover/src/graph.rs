//! The value of a position whose reachable positions are few, outright: every position
//! reachable from it before a settled one (a finished game, a quick verdict, a table's
//! result) is listed, then a fixpoint settles them as a retrograde solver does (a position
//! is won when a move reaches a lost one, lost when every move reaches a won one; the
//! rest are draws). Cycles are exact here, where the searches by proof numbers must
//! search again each result that leaned on a repetition.

use crate::draws::Value;
use crate::instance::{Instance, MoveOf, Quick};
use crate::tt::Key;
use quasar_core::{Game, GameResult, Outcome};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// What is known of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Open,
    Won,
    Lost,
}

/// A move's end: a listed position, or a settled one with its result for its mover.
#[derive(Clone, Copy)]
enum End {
    Listed(u32),
    Settled(GameResult),
}

/// Every position reachable from a root before a settled one, with its value.
#[derive(Debug)]
pub struct Graph {
    /// Each listed position's index, by the instance's key.
    index: HashMap<Key, u32>,
    /// Each listed position's state for its side to move.
    state: Vec<State>,
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
    let mut index: HashMap<Key, u32> = HashMap::new();
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
            if let Some(r) = settled(inst, tb, &child) {
                ends.push(End::Settled(r));
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
    // Moves not yet known to reach a position won by its mover: at 0, lost.
    let mut open = vec![0u32; n];
    let mut state = vec![State::Open; n];
    let mut queue = Vec::new();
    for p in 0..n {
        let mine = &ends[first[p] as usize..first[p + 1] as usize];
        open[p] = mine
            .iter()
            .filter(|e| !matches!(e, End::Settled(GameResult::Win)))
            .count() as u32;
        state[p] = if mine
            .iter()
            .any(|e| matches!(e, End::Settled(GameResult::Loss)))
        {
            State::Won
        } else if open[p] == 0 {
            State::Lost
        } else {
            continue;
        };
        queue.push(p as u32);
    }
    while let Some(j) = queue.pop() {
        let lost = state[j as usize] == State::Lost;
        for &p in &preds[pred_first[j as usize] as usize..pred_first[j as usize + 1] as usize] {
            let p = p as usize;
            if state[p] != State::Open {
                continue;
            }
            if lost {
                state[p] = State::Won;
                queue.push(p as u32);
            } else {
                open[p] -= 1;
                if open[p] == 0 {
                    state[p] = State::Lost;
                    queue.push(p as u32);
                }
            }
        }
    }
    Some(Graph { index, state })
}

/// The result for its side to move of a position settled without a move: a finished
/// game, the rules' quick verdict, a table's result.
fn settled<I: Instance>(inst: &I, tb: Option<&I::Table>, pos: &I::Pos) -> Option<GameResult> {
    if let Some(o) = pos.outcome() {
        return Some(match o {
            Outcome::Win(w) if w == pos.side_to_move() => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
            Outcome::Draw => GameResult::Draw,
        });
    }
    match inst.quick(pos) {
        Quick::WinInOne => Some(GameResult::Win),
        Quick::LossInTwo => Some(GameResult::Loss),
        _ => inst.table_result(tb, pos),
    }
}
