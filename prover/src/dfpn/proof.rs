//! A winner-only proof read off df-pn's own table: the winning move it proved at each of
//! the winner's turns, every reply of the loser below it, and a search of its own where
//! the bounded table has let a position go. Each record gets the bound its sub-proof
//! needs (1 + the chosen reply's, 1 + the largest of the loser's), so no length search
//! runs: the facts df-pn found are used as they stand instead of being proven again
//! within a bound.

use super::{solve_root, Dfpn, PlyLists, INF, REPORT_EVERY};
use crate::check::MAX_CLAIM_PLIES;
use crate::instance::{Instance, MoveOf, ProverPosition, Quick};
use crate::proof::{Record, RecordKind};
use crate::proof_writer::ProofWriter;
use crate::solve::stop_error;
use crate::{SolveError, Status, LOOSE_BOUND, PLACE_LEVELS};
use quasar_core::{Game, Outcome, Side};
use std::path::Path;

/// Visits between two looks at the interrupt flag (writing does not tick the saver).
const INTERRUPT_EVERY: u64 = 1 << 6;

/// The writer's state while it walks the proof.
struct Walk<'w, I: Instance> {
    out: &'w mut ProofWriter<I::Pos>,
    winner: Side,
    /// The loser's moves, one list a turn of the loser on the path.
    moves: PlyLists<MoveOf<I>>,
    /// Positions of the winner visited that still needed a record.
    visits: u64,
    /// Where the walk is in the loser's first moves (see [`Status::place`]).
    place: [(u16, u16); PLACE_LEVELS],
    /// The loser's turns the walk is below.
    depth: usize,
}

impl<I: Instance> Dfpn<'_, I> {
    /// Writes to `out` the proof that `winner`, which [`Dfpn::winner`] found, wins from
    /// the unfinished `root`; returns the root's bound: the plies the proof's longest
    /// line takes, its records' bounds being as tight as their sub-proofs allow.
    pub fn write_proof(
        &mut self,
        root: &I::Pos,
        winner: Side,
        out: &mut ProofWriter<I::Pos>,
    ) -> Result<u32, SolveError> {
        // A node limit was the winner's search's: the proof of a win found goes to its end.
        self.saver.lift_stop_after();
        self.label = "proof search";
        let mut walk = Walk {
            out,
            winner,
            moves: PlyLists::default(),
            visits: 0,
            place: [(0, 0); PLACE_LEVELS],
            depth: 0,
        };
        if root.side_to_move() == winner {
            self.emit_winner(root, &mut walk)
        } else {
            self.emit_loser(root, &mut walk)
        }
    }

    /// The record of `pos` (the winner to move, unfinished) and the proof below it.
    fn emit_winner(&mut self, pos: &I::Pos, walk: &mut Walk<I>) -> Result<u32, SolveError> {
        if let Some(b) = walk.out.written_bound(pos) {
            return Ok(b);
        }
        self.visit(walk)?;
        let quick = self.geo.quick(pos);
        if quick != Quick::WinInOne {
            // Where the checker's own search can re-derive a table's claim, the proof
            // ends with it.
            if let Some((c, mv)) = self.geo.claim(self.tb, pos) {
                if c <= MAX_CLAIM_PLIES as u32 {
                    walk.out.push(&Record::new(pos, RecordKind::Claim, mv, c))?;
                    return Ok(c);
                }
            }
        }
        let mv = match quick {
            Quick::WinInOne => self.move_to_lost(pos, walk.winner, false)?,
            _ => self.winning_move(pos, walk.winner)?,
        };
        let mut child = *pos;
        child.play(mv);
        let bound = match child.outcome() {
            Some(o) if o == Outcome::Win(walk.winner) => 1,
            None => within_loose(1 + self.emit_loser(&child, walk)?, walk.winner)?,
            Some(_) => return Err(not_won(pos)),
        };
        // Written after the records below it (no move can be undone, so the proof below
        // never meets `pos`): whatever the writer holds is finished, and a stopped run
        // resumes from it.
        walk.out
            .push(&Record::new(pos, RecordKind::Move, mv, bound))?;
        Ok(bound)
    }

    /// The proofs below every reply of the loser (to move in the unfinished `pos`);
    /// returns 1 + the largest of their bounds. An error leaves `walk` as it was at the
    /// error: the walk ends there.
    fn emit_loser(&mut self, pos: &I::Pos, walk: &mut Walk<I>) -> Result<u32, SolveError> {
        let level = walk.depth;
        let mut moves = walk.moves.take(level);
        pos.legal_moves(&mut moves);
        walk.depth += 1;
        let mut worst = 0;
        for (k, &mv) in moves.iter().enumerate() {
            if level < PLACE_LEVELS {
                walk.place[level] = (k as u16 + 1, moves.len() as u16);
            }
            let mut child = *pos;
            child.play(mv);
            match child.outcome() {
                // A reply that hands the winner the game needs no proof.
                Some(o) if o == Outcome::Win(walk.winner) => continue,
                None => worst = worst.max(self.emit_winner(&child, walk)?),
                Some(_) => {
                    return Err(SolveError::Internal(format!(
                        "the loser's move {} from {} is not refuted, though the search said so",
                        pos.move_text(mv),
                        pos.position_text()
                    )))
                }
            }
        }
        if level < PLACE_LEVELS {
            walk.place[level] = (0, 0);
        }
        walk.depth -= 1;
        walk.moves.put(level, moves);
        within_loose(worst + 1, walk.winner)
    }

    /// Counts a visit: a progress line now and then, and a stop once the interrupt flag
    /// is raised.
    fn visit(&mut self, walk: &mut Walk<I>) -> Result<(), SolveError> {
        walk.visits += 1;
        if walk.visits % INTERRUPT_EVERY == 0 && self.saver.interrupt_raised() {
            // The writer saves what it has written when dropped; the checkpoint keeps
            // df-pn's facts.
            self.checkpoint(true);
            return Err(SolveError::Interrupted {
                nodes: self.nodes,
                saved: self.saver.path().map(Path::to_path_buf),
            });
        }
        if walk.visits % REPORT_EVERY == 0 {
            Status::proof(walk.out, walk.place).report(self.progress);
        }
        Ok(())
    }

    /// The first move of `pos` (`winner` to move) that wins the game at once, or with
    /// `settled`, that leaves the loser a position the rules or the table say it loses.
    fn move_to_lost(
        &mut self,
        pos: &I::Pos,
        winner: Side,
        settled: bool,
    ) -> Result<MoveOf<I>, SolveError> {
        let mut moves = std::mem::take(&mut self.moves);
        pos.legal_moves(&mut moves);
        let mv = moves.iter().copied().find(|&mv| {
            let mut child = *pos;
            child.play(mv);
            child.outcome() == Some(Outcome::Win(winner))
                || settled
                    && self
                        .settled(&child, self.geo.quick(&child))
                        .or_else(|| self.tt.get(&self.geo.key(&child)))
                        .is_some_and(|v| v.dn == 0)
        });
        self.moves = moves;
        mv.ok_or_else(|| not_won(pos))
    }

    /// The move df-pn proved wins `pos` (`winner` to move, unfinished), searching the
    /// position again when the table has let its entry go.
    fn winning_move(&mut self, pos: &I::Pos, winner: Side) -> Result<MoveOf<I>, SolveError> {
        let (key, mirrored) = self.geo.key_mirrored(pos);
        if let Some(mv) = self.proven_move(&key, mirrored) {
            return Ok(mv);
        }
        self.watch.reset(false);
        let solved = solve_root(|| {
            let v = self.mid(pos, key, mirrored, INF, INF, 0);
            (!self.saver.stopped).then_some(v)
        });
        let Some((pn, _)) = solved else {
            return Err(stop_error(&mut self.saver, self.nodes));
        };
        if pn != 0 {
            return Err(not_won(pos));
        }
        if let Some(mv) = self.proven_move(&key, mirrored) {
            return Ok(mv);
        }
        // The table refused the entry just made: a child lost for its mover is the move.
        self.move_to_lost(pos, winner, true)
    }

    /// The winning move the table keeps for the position of `key` (in the orientation of
    /// the position, whose key is `mirrored`), when it keeps the position proven.
    fn proven_move(&self, key: &crate::tt::Key, mirrored: bool) -> Option<MoveOf<I>> {
        let v = self.tt.get(key).filter(|v| v.pn == 0 && v.best != 0)?;
        let mv = I::Pos::code_move(v.best);
        Some(if mirrored {
            self.geo.mirror_move(mv)
        } else {
            mv
        })
    }
}

/// `bound`, when a record can state it within [`LOOSE_BOUND`]: past it the walk stops
/// at once, as the root's bound, never less than any record's, would not hold.
fn within_loose(bound: u32, winner: Side) -> Result<u32, SolveError> {
    if bound > LOOSE_BOUND {
        return Err(SolveError::NotWithin {
            winner,
            plies: LOOSE_BOUND,
        });
    }
    Ok(bound)
}

/// The error of a position the search called won that the proof finds otherwise (a bug).
fn not_won<P: ProverPosition>(pos: &P) -> SolveError {
    SolveError::Internal(format!(
        "no move of {} wins, though the search said so",
        pos.position_text()
    ))
}
