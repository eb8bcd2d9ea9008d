//! The reverse of a game's move graph (predecessor lists in one flat array), built from
//! `successors` for games without their own unmoves.

use crate::space::{Child, RetroGame};
use crate::SolveError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Positions per parallel block: large enough to amortise a move buffer per block.
const BLOCK: u64 = 1 << 14;

/// The move graph both ways: each position's children inside the index (in move order) and
/// its predecessors (one entry per move leading there, in index order).
pub struct ReverseGraph {
    offsets: Vec<u64>,
    preds: Vec<u32>,
    forward_offsets: Vec<u64>,
    forward: Vec<u32>,
    /// Children per position (moves, and exits), counted while building.
    children: Vec<u32>,
    /// Whether some position has an exit (then successors are asked of the game again).
    exits: bool,
    /// Forward expansions spent building it (one per unfinished position).
    pub expansions: u64,
}

impl std::fmt::Debug for ReverseGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Sizes only: the arrays hold an entry per position or per move.
        f.debug_struct("ReverseGraph")
            .field("positions", &self.children.len())
            .field("edges", &self.edges())
            .field("exits", &self.exits)
            .field("expansions", &self.expansions)
            .finish_non_exhaustive()
    }
}

/// One block's share of the forward pass.
struct Block {
    /// Children inside the index per position.
    inside: Vec<u32>,
    /// Children in all per position.
    all: Vec<u32>,
    edges: Vec<u32>,
    expanded: u64,
    exits: bool,
}

impl ReverseGraph {
    /// Builds the graph with one pass of `successors` over every unfinished position.
    pub fn build<G: RetroGame + ?Sized>(game: &G) -> Result<ReverseGraph, SolveError> {
        let n = game.size();
        if n > u32::MAX as u64 {
            return Err(SolveError::TooLarge(n));
        }
        let blocks: Vec<Block> = (0..n.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let range = b * BLOCK..((b + 1) * BLOCK).min(n);
                let mut blk = Block {
                    inside: Vec::with_capacity((range.end - range.start) as usize),
                    all: Vec::with_capacity((range.end - range.start) as usize),
                    edges: Vec::new(),
                    expanded: 0,
                    exits: false,
                };
                let mut buf = Vec::new();
                for pos in range {
                    if game.terminal(pos).is_some() {
                        blk.inside.push(0);
                        blk.all.push(0);
                        continue;
                    }
                    game.successors(pos, &mut buf);
                    blk.expanded += 1;
                    let before = blk.edges.len();
                    for c in &buf {
                        match *c {
                            Child::Pos(c) => blk.edges.push(c as u32),
                            Child::Exit { .. } => blk.exits = true,
                        }
                    }
                    blk.inside.push((blk.edges.len() - before) as u32);
                    blk.all.push(buf.len() as u32);
                }
                blk
            })
            .collect();
        let mut forward_offsets = Vec::with_capacity(n as usize + 1);
        let mut forward = Vec::with_capacity(blocks.iter().map(|b| b.edges.len()).sum());
        let mut children = Vec::with_capacity(n as usize);
        let (mut expansions, mut exits) = (0, false);
        forward_offsets.push(0u64);
        for b in blocks {
            for &k in &b.inside {
                forward_offsets.push(forward_offsets.last().copied().unwrap_or(0) + k as u64);
            }
            forward.extend_from_slice(&b.edges);
            children.extend_from_slice(&b.all);
            expansions += b.expanded;
            exits |= b.exits;
        }
        let indegree: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
        forward.par_iter().for_each(|&c| {
            indegree[c as usize].fetch_add(1, Relaxed);
        });
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let mut total = 0u64;
        offsets.push(0);
        for d in &indegree {
            total += d.load(Relaxed) as u64;
            offsets.push(total);
        }
        // Filling parent by parent leaves every list sorted, so solves are reproducible.
        let mut cursor: Vec<u64> = offsets[..n as usize].to_vec();
        let mut preds = vec![0u32; total as usize];
        for p in 0..n as usize {
            for &c in &forward[forward_offsets[p] as usize..forward_offsets[p + 1] as usize] {
                preds[cursor[c as usize] as usize] = p as u32;
                cursor[c as usize] += 1;
            }
        }
        Ok(ReverseGraph {
            offsets,
            preds,
            forward_offsets,
            forward,
            children,
            exits,
            expansions,
        })
    }

    /// The children of `pos` inside the index, in move order.
    #[inline]
    pub fn successors(&self, pos: u64) -> &[u32] {
        let p = pos as usize;
        &self.forward[self.forward_offsets[p] as usize..self.forward_offsets[p + 1] as usize]
    }

    /// The positions with a move to `pos`.
    #[inline]
    pub fn predecessors(&self, pos: u64) -> &[u32] {
        let p = pos as usize;
        &self.preds[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }

    /// The number of children of `pos` (0 for a finished position).
    #[inline]
    pub fn children(&self, pos: u64) -> u32 {
        self.children[pos as usize]
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

/// A game together with its built move graph, so several solves share one build and read
/// moves from memory rather than generating them.
#[derive(Debug)]
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
        if self.graph.exits {
            self.game.successors(pos, out)
        } else {
            out.clear();
            out.extend(
                self.graph
                    .successors(pos)
                    .iter()
                    .map(|&c| Child::Pos(c as u64)),
            );
        }
    }
    fn has_exits(&self) -> bool {
        self.game.has_exits()
    }
    fn has_predecessors(&self) -> bool {
        true
    }
    #[inline]
    fn child_count(&self, pos: u64) -> Option<u32> {
        Some(self.graph.children(pos))
    }
    #[inline]
    fn predecessors(&self, pos: u64, out: &mut Vec<u64>) {
        out.clear();
        out.extend(self.graph.predecessors(pos).iter().map(|&p| p as u64));
    }
}
