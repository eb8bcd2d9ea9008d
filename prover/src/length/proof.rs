//! The principal line and the proof records of a settled length, streamed to the proof writer.

use super::{move_first, Length, INTERRUPT_EVERY};
use crate::check::MAX_CLAIM_PLIES;
use crate::dfpn::REPORT_EVERY;
use crate::instance::{Instance, MoveOf, ProverPosition, Quick};
use crate::proof::{Record, RecordKind};
use crate::proof_writer::ProofWriter;
use crate::{SolveError, Status, PLACE_LEVELS};
use quasar_core::{Game, Outcome, Shard};
use std::path::Path;

impl<I: Instance> Length<'_, I> {
    /// The principal line from `root`, whose exact distance is `dist`: the winner's
    /// fastest move and the loser's slowest, until the game ends.
    pub fn principal_line(&mut self, root: &I::Pos, mut dist: u32) -> Vec<MoveOf<I>> {
        let mut line = Vec::new();
        let mut pos = *root;
        let mut moves = Vec::new();
        while pos.outcome().is_none() && dist > 0 {
            pos.legal_moves(&mut moves);
            // The move that decided the search here first: its child's facts are in the
            // table, while another move's may take a search to settle.
            if let Some(hint) = self.table_move(&pos) {
                move_first(&mut moves, hint);
            }
            let winner_moves = pos.side_to_move() == self.winner;
            let mut chosen = None;
            for &mv in &moves {
                let mut child = pos;
                child.play(mv);
                let won = Some(Outcome::Win(self.winner));
                let ok = match (winner_moves, child.outcome()) {
                    (true, Some(o)) => Some(o) == won,
                    (true, None) => self.wins_within(&child, dist - 1),
                    // A loser's move that ends the game is its slowest only when forced.
                    (false, Some(o)) => Some(o) == won && dist == 1,
                    // A child of exact distance dist - 1: not won within dist - 3 (or,
                    // where the winner may also win on the loser's move, dist - 2).
                    (false, None) => {
                        let shorter = if I::Pos::LAST_MOVER_WINS { 3 } else { 2 };
                        dist < shorter || !self.wins_within(&child, dist - shorter)
                    }
                };
                if ok {
                    chosen = Some(mv);
                    break;
                }
            }
            let Some(mv) = chosen else { break };
            line.push(mv);
            pos.play(mv);
            dist -= 1;
        }
        line
    }

    /// Writes to `out` a proof that the winner wins from `pos` (the winner to move)
    /// within `d` plies: one move here, every reply below.
    /// Returns the bound of the record that proves `pos` (`d`, or less when
    /// [`Length::tight`]).
    pub fn emit_winner(
        &mut self,
        pos: &I::Pos,
        d: u32,
        out: &mut ProofWriter<I::Pos>,
    ) -> Result<u32, SolveError> {
        if let Some(b) = out.written_bound(pos).filter(|&b| b <= d) {
            return Ok(b);
        }
        // Counted by visits, not records: records come in runs as the proof unwinds.
        self.proof_nodes += 1;
        if self.proof_nodes % INTERRUPT_EVERY == 0 && self.saver.interrupt_raised() {
            // The checkpoint at the holding bound was saved before the proof began, and the
            // writer saves what it has written when dropped.
            return Err(SolveError::Interrupted {
                nodes: self.winner_nodes + self.nodes,
                saved: self.saver.path().map(Path::to_path_buf),
            });
        }
        if self.proof_nodes % REPORT_EVERY == 0 {
            Status::proof(out, self.proof_place).report(self.progress);
        }
        let mut moves = Vec::new();
        let quick = self.geo.quick(pos);
        if quick != Quick::WinInOne {
            // A position the table proves won ends the proof here when the checker's plain
            // search can re-derive the length it must be won within.
            if d <= MAX_CLAIM_PLIES as u32 || self.tight {
                if let Some((c, mv)) = self.geo.claim(self.tb, pos) {
                    // A tight proof records the claim's own bound, under a loose `d` too.
                    let b = if self.tight { c.min(d) } else { d };
                    if b <= MAX_CLAIM_PLIES as u32 {
                        out.push(&Record::new(pos, RecordKind::Claim, mv, b))?;
                        return Ok(b);
                    }
                }
            }
        }
        self.geo.moves(pos, quick, &mut moves);
        if quick == Quick::WinInOne {
            // The move that ends the game first: a proof needs nothing below it.
            moves.sort_by_key(|&m| {
                let mut child = *pos;
                child.play(m);
                child.outcome().is_none()
            });
        } else if d >= self.pn_from {
            // The proof-number search proved one move here and may have left the others
            // open: that move first, or the writer would settle them by a search. (Below,
            // the depth-first search's own order, which refuted the moves before it.)
            if let Some(hint) = self.table_move(pos) {
                move_first(&mut moves, hint);
            }
        }
        for &mv in &moves {
            let mut child = *pos;
            child.play(mv);
            let outcome = child.outcome();
            if outcome.is_some_and(|o| o != Outcome::Win(self.winner)) {
                continue;
            }
            let finished = outcome.is_some();
            if finished || self.wins_within(&child, d - 1) {
                let mut bound = if finished { 1 } else { d };
                // Written after the replies' records (the proof below never meets this
                // position again: no move can be undone), so that whatever the writer has
                // written is finished and a stopped run resumes from it.
                if !finished {
                    let below = self.emit_loser(&child, d - 1, out, Shard::WHOLE)?;
                    if self.tight {
                        bound = below + 1;
                    }
                }
                // In a game with cycles the proof below may have met this position again
                // and recorded it with a smaller bound, which serves.
                if let Some(b) = out.written_bound(pos).filter(|&b| b <= bound) {
                    return Ok(b);
                }
                out.push(&Record::new(pos, RecordKind::Move, mv, bound))?;
                return Ok(bound);
            }
        }
        Err(SolveError::Internal(format!(
            "no move of {} wins within {d} plies, though the search said so",
            pos.position_text()
        )))
    }

    /// Writes `share`'s piece of the proof that the winner wins from `root` within `d`
    /// plies: the sub-proofs of its share of the loser's first replies, below the root when
    /// the loser moves there, else below `first` (the principal line's first move, the same
    /// for every job resumed from one checkpoint), then the root's record.
    pub fn emit_share(
        &mut self,
        root: &I::Pos,
        d: u32,
        first: Option<MoveOf<I>>,
        share: Shard,
        out: &mut ProofWriter<I::Pos>,
    ) -> Result<u32, SolveError> {
        if root.side_to_move() != self.winner {
            return self.emit_loser(root, d, out, share);
        }
        if let Some(b) = out.written_bound(root).filter(|&b| b <= d) {
            return Ok(b);
        }
        let mv = first.ok_or_else(|| SolveError::Internal("no principal line".into()))?;
        let mut child = *root;
        child.play(mv);
        let bound = if child.outcome().is_some() {
            1
        } else {
            let below = self.emit_loser(&child, d - 1, out, share)?;
            if self.tight {
                below + 1
            } else {
                d
            }
        };
        out.push(&Record::new(root, RecordKind::Move, mv, bound))?;
        Ok(bound)
    }

    /// Writes proofs for every reply of the loser (to move in `pos`) within `d` plies, or
    /// for `share`'s share of them (replies `k` from 0 that it [takes](Shard::takes)).
    /// Returns the bound `pos` is won within: 1 + the largest of the replies' records (1
    /// when every reply ends the game).
    pub fn emit_loser(
        &mut self,
        pos: &I::Pos,
        d: u32,
        out: &mut ProofWriter<I::Pos>,
        share: Shard,
    ) -> Result<u32, SolveError> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let level = self.proof_depth;
        self.proof_depth += 1;
        let result = self.emit_replies(pos, d, &moves, level, share, out);
        if level < PLACE_LEVELS {
            self.proof_place[level] = (0, 0);
        }
        self.proof_depth -= 1;
        result
    }

    /// [`Length::emit_loser`]'s loop over the loser's `moves`, at the loser's `level`-th
    /// turn below the root.
    fn emit_replies(
        &mut self,
        pos: &I::Pos,
        d: u32,
        moves: &[MoveOf<I>],
        level: usize,
        share: Shard,
        out: &mut ProofWriter<I::Pos>,
    ) -> Result<u32, SolveError> {
        let mut worst = 0;
        for (k, &mv) in moves.iter().enumerate() {
            if !share.takes(k) {
                continue;
            }
            if level < PLACE_LEVELS {
                self.proof_place[level] = (k as u16 + 1, moves.len() as u16);
            }
            let mut child = *pos;
            child.play(mv);
            match child.outcome() {
                // A loser's move that hands the winner the game needs no proof.
                Some(o) if o == Outcome::Win(self.winner) => continue,
                None if d >= 2 => {}
                _ => {
                    return Err(SolveError::Internal(format!(
                        "the loser's move {} from {} is not refuted within {d} plies",
                        pos.move_text(mv),
                        pos.position_text()
                    )))
                }
            }
            worst = worst.max(self.emit_winner(&child, d - 1, out)?);
        }
        Ok(worst + 1)
    }
}
