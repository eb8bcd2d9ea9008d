//! The reverse of a game's move graph (predecessor lists in one flat array), built from
//! `successors` for games without their own unmoves.

use crate::space::{Child, RetroGame};
use crate::SolveError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Positions per parallel block: large enough to amortise a move buffer per block.
const BLOCK: u64 = 1 << 14;

/// Predecessor lists of every position; a list has one entry per move leading there.
pub struct ReverseGraph {
    offsets: Vec<u64>,
    preds: Vec<u32>,
    /// Forward expansions spent building it (two per position).
    pub expansions: u64,
}

impl ReverseGraph {
    /// Builds the graph with two passes of `successors` over every unfinished position.
    pub fn build<G: RetroGame + ?Sized>(game: &G) -> Result<ReverseGraph, SolveError> {
        let n = game.size();
        if n > u32::MAX as u64 {
            return Err(SolveError::TooLarge(n));
        }
        let blocks = n.div_ceil(BLOCK);
        let indegree: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
        let each_edge = |f: &(dyn Fn(u64, u64) + Sync)| -> u64 {
            (0..blocks)
                .into_par_iter()
                .map(|b| {
                    let mut buf = Vec::new();
                    let mut expanded = 0;
                    for pos in b * BLOCK..((b + 1) * BLOCK).min(n) {
                        if game.terminal(pos).is_some() {
                            continue;
                        }
                        game.successors(pos, &mut buf);
                        expanded += 1;
                        for c in &buf {
                            if let Child::Pos(c) = *c {
                                f(pos, c);
                            }
                        }
                    }
                    expanded
                })
                .sum()
        };
        let first = each_edge(&|_, c| {
            indegree[c as usize].fetch_add(1, Relaxed);
        });
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let mut total = 0u64;
        offsets.push(0);
        for d in &indegree {
            total += d.load(Relaxed) as u64;
            offsets.push(total);
        }
        let cursor: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
        let slots: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        let second = each_edge(&|p, c| {
            let k = cursor[c as usize].fetch_add(1, Relaxed) as u64;
            slots[(offsets[c as usize] + k) as usize].store(p as u32, Relaxed);
        });
        let mut preds: Vec<u32> = slots.into_iter().map(AtomicU32::into_inner).collect();
        // Parallel filling leaves each list in any order; sorted lists make solves reproducible.
        let mut rest: &mut [u32] = &mut preds;
        let mut lists = Vec::with_capacity(n as usize);
        for w in offsets.windows(2) {
            let (list, tail) = rest.split_at_mut((w[1] - w[0]) as usize);
            lists.push(list);
            rest = tail;
        }
        lists.par_iter_mut().for_each(|l| l.sort_unstable());
        Ok(ReverseGraph {
            offsets,
            preds,
            expansions: first + second,
        })
    }

    /// The positions with a move to `pos`.
    #[inline]
    pub fn predecessors(&self, pos: u64) -> &[u32] {
        let p = pos as usize;
        &self.preds[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }

    /// The number of moves in the graph.
    pub fn edges(&self) -> u64 {
        self.preds.len() as u64
    }
}

/// Where a backward solver gets predecessors: the game's unmoves or a built reverse graph.
pub(crate) enum Preds<'a, G: RetroGame + ?Sized> {
    /// The game's own `predecessors`.
    Game(&'a G),
    /// The reverse graph.
    Graph(ReverseGraph),
}

impl<'a, G: RetroGame + ?Sized> Preds<'a, G> {
    /// The game's unmoves when it has them, else a reverse graph built now.
    pub(crate) fn for_game(game: &'a G) -> Result<Preds<'a, G>, SolveError> {
        if game.has_predecessors() {
            Ok(Preds::Game(game))
        } else {
            ReverseGraph::build(game).map(Preds::Graph)
        }
    }

    /// Forward expansions spent on building the reverse graph.
    pub(crate) fn build_expansions(&self) -> u64 {
        match self {
            Preds::Game(_) => 0,
            Preds::Graph(g) => g.expansions,
        }
    }

    /// Clears `out` and writes the predecessors of `pos`.
    #[inline]
    pub(crate) fn get(&self, pos: u64, out: &mut Vec<u64>) {
        match self {
            Preds::Game(g) => g.predecessors(pos, out),
            Preds::Graph(r) => {
                out.clear();
                out.extend(r.predecessors(pos).iter().map(|&p| p as u64));
            }
        }
    }
}

/// A game together with its built reverse graph, so several backward solves share one build.
pub struct Reversed<'a, G: RetroGame + ?Sized> {
    /// The game.
    pub game: &'a G,
    /// Its reverse graph.
    pub graph: ReverseGraph,
}

impl<'a, G: RetroGame + ?Sized> Reversed<'a, G> {
    /// Builds the reverse graph of `game`.
    pub fn new(game: &'a G) -> Result<Reversed<'a, G>, SolveError> {
        Ok(Reversed {
            game,
            graph: ReverseGraph::build(game)?,
        })
    }
}

impl<G: RetroGame + ?Sized> RetroGame for Reversed<'_, G> {
    fn size(&self) -> u64 {
        self.game.size()
    }
    #[inline]
    fn mover(&self, pos: u64) -> quasar_core::Side {
        self.game.mover(pos)
    }
    #[inline]
    fn terminal(&self, pos: u64) -> Option<i32> {
        self.game.terminal(pos)
    }
    #[inline]
    fn successors(&self, pos: u64, out: &mut Vec<Child>) {
        self.game.successors(pos, out)
    }
    fn has_exits(&self) -> bool {
        self.game.has_exits()
    }
    fn has_predecessors(&self) -> bool {
        true
    }
    #[inline]
    fn predecessors(&self, pos: u64, out: &mut Vec<u64>) {
        out.clear();
        out.extend(self.graph.predecessors(pos).iter().map(|&p| p as u64));
    }
}
