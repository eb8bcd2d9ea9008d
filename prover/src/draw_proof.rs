//! The proof of a draw: for each side, a strategy that keeps the other from winning,
//! written as that side's move at every position of it where it is to move. The other
//! side's moves are all implied, and play may come back to a recorded position, since
//! play that goes on forever is a draw; the checker verifies that the records are closed
//! under the other side's moves and that no line through them ends in its win.
//!
//! The holding moves are chosen by the rules alone, never by a table, so that the checker
//! needs nothing but the rules: where a position is listed outright
//! ([`crate::graph::solve`]) its value decides, elsewhere a search for the other side's
//! win ([`Attack`]) from the child of each candidate move.

use crate::checkpoint::Saver;
use crate::draws::{Attack, Value};
use crate::graph::Graph;
use crate::instance::{Instance, MoveOf, ProverPosition};
use crate::proof::{write_proof_file, Record, RecordKind, Verdict};
use crate::proof_writer::ProofSummary;
use crate::solve::{stop_error, Options, SolveError};
use crate::tt::Key;
use quasar_core::progress::Progress;
use quasar_core::{Game, Outcome, Side};
use quasar_file::OutputLock;
use std::collections::HashSet;
use std::path::Path;

/// Writes to `path` the proof that neither side can force a win from the unfinished
/// `root`, which [`crate::draws::value`] found a draw (`graph`: the positions it listed,
/// if it found it outright; else they are listed here, when few enough); each side's
/// search has a table of `options.table_bytes` bytes, and `options.interrupt` stops it.
/// With `options.proof_shard`, only that job's piece, for [`crate::merge()`].
pub fn write_draw_proof<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    path: &Path,
    progress: &dyn Progress,
    graph: Option<Graph>,
) -> Result<ProofSummary, SolveError> {
    let lock = OutputLock::acquire(path).map_err(crate::ProofError::from)?;
    // The holding moves are chosen by the rules alone: a graph that ended lines at the
    // table's positions cannot serve, and is listed again without it.
    let graph = match graph.filter(|_| options.tablebase.is_none()) {
        Some(g) => Some(g),
        None => crate::graph::solve(inst, None, root, inst.graph_limit(root), options.interrupt),
    };
    let mut records = Vec::new();
    for holder in [Side::First, Side::Second] {
        let mut holding = Holding {
            inst,
            graph: graph.as_ref(),
            search: None,
            holder,
            options: *options,
            progress,
        };
        holding.strategy(root, &mut records)?;
    }
    // Each position is recorded once: a strategy visits it once, and the two sides' records
    // are of different sides to move.
    crate::proof::sort_records(&mut records, false);
    let expected = records.len() as u64;
    Ok(write_proof_file(
        path,
        &lock,
        root,
        Verdict::Draw,
        expected,
        std::iter::once(Ok(records)),
    )?)
}

/// What picks one side's holding moves.
struct Holding<'a, 'g, I: Instance> {
    inst: &'a I,
    graph: Option<&'g Graph>,
    /// The search for the other side's win, made when a position outside the graph first
    /// needs it (a graph that lists every reachable position needs none, and its table
    /// and the search's are then never held at once).
    search: Option<Attack<'a, I>>,
    holder: Side,
    /// The solve's options: the search's table size, checkpoint pace and interrupt.
    options: Options<'a, I::Table>,
    progress: &'a dyn Progress,
}

impl<I: Instance> Holding<'_, '_, I> {
    /// True when the other side cannot force a win from `pos`.
    fn holds(&mut self, pos: &I::Pos) -> Result<bool, SolveError> {
        let attacker = self.holder.opponent();
        if let Some(o) = pos.outcome() {
            return Ok(o != Outcome::Win(attacker));
        }
        if let Some(v) = self.graph.and_then(|g| g.value_of(self.inst, pos)) {
            return Ok(v != Value::Win(attacker));
        }
        let search = match &mut self.search {
            Some(s) => s,
            None => {
                let o = &self.options;
                let saver = Saver::new(None, o.checkpoint_every, None).interruptible(o.interrupt);
                self.search.insert(Attack::new(
                    self.inst,
                    None,
                    attacker,
                    o.table_bytes,
                    self.progress,
                    saver,
                )?)
            }
        };
        match search.wins(pos) {
            Some(wins) => Ok(!wins),
            None => {
                let nodes = search.nodes();
                Err(stop_error(&mut search.saver, nodes))
            }
        }
    }

    /// The first of `moves` (the holder's, in `pos`) after which the other side cannot
    /// force a win.
    fn first_holding(
        &mut self,
        pos: &I::Pos,
        moves: &[MoveOf<I>],
    ) -> Result<Option<MoveOf<I>>, SolveError> {
        for &mv in moves {
            let mut child = *pos;
            child.play(mv);
            if self.holds(&child)? {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    /// Appends to `records` the holder's move at every position of its strategy from
    /// `root`: every move of the other side is followed, one of the holder's.
    /// With a shard of [`Options::proof_shard`], only its share of the other side's first
    /// moves is followed (the root's record is in every piece, the same in each): the
    /// pieces' records together are the whole strategy's, each closed under the moves it
    /// follows, so any one piece's record of a position serves in their merge.
    fn strategy(&mut self, root: &I::Pos, records: &mut Vec<Record>) -> Result<(), SolveError> {
        let share = self.options.proof_shard;
        let mut seen: HashSet<Key> = HashSet::new();
        // Each position with whether the other side's first turn is still ahead of it.
        let mut stack = vec![(*root, true)];
        let mut moves: Vec<MoveOf<I>> = Vec::new();
        while let Some((pos, first)) = stack.pop() {
            if pos.outcome().is_some() || !seen.insert(pos.raw_key()) {
                continue;
            }
            pos.legal_moves(&mut moves);
            let child = |mv: MoveOf<I>| {
                let mut c = pos;
                c.play(mv);
                c
            };
            if pos.side_to_move() != self.holder {
                let shared = moves.iter().enumerate();
                stack.extend(
                    shared
                        .filter(|&(k, _)| !first || share.takes(k))
                        .map(|(_, &mv)| (child(mv), false)),
                );
                continue;
            }
            // A move back into the strategy first: it adds nothing to the proof.
            let known = moves.iter().copied().find(|&mv| {
                let c = child(mv);
                match c.outcome() {
                    Some(o) => o != Outcome::Win(self.holder.opponent()),
                    None => seen.contains(&c.raw_key()),
                }
            });
            let chosen = match known {
                Some(mv) => Some(mv),
                None => self.first_holding(&pos, &moves)?,
            };
            let Some(mv) = chosen else {
                return Err(SolveError::Internal(format!(
                    "{}: no move of {} holds the draw the searches found",
                    pos.position_text(),
                    I::Pos::side_name(self.holder)
                )));
            };
            records.push(Record::new(&pos, RecordKind::Move, mv, 0));
            stack.push((child(mv), first));
        }
        Ok(())
    }
}
