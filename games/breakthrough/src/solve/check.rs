//! The independent proof checker: replays every record with the rules alone (no solver
//! code, no table) and re-derives every table claim by plain search.

use super::proof::{Proof, ProofError, Record, RecordKind};
use crate::{Move, Position};
use std::collections::HashMap;

/// The deepest table claim the checker re-derives by plain search, in plies.
pub const MAX_CLAIM_PLIES: u8 = 9;

/// What a checked proof establishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Records checked.
    pub records: u64,
    /// Of those, table claims re-derived by plain search.
    pub claims: u64,
    /// Positions the plain search visited for the claims.
    pub claim_nodes: u64,
}

type Key = (u64, u64, u8);

fn key_of(p: &Position) -> Key {
    (p.white(), p.black(), p.side() as u8)
}

/// Checks that `proof.winner` wins from `proof.root` within `proof.plies` plies.
pub fn check(proof: &Proof) -> Result<CheckReport, ProofError> {
    let invalid = |m: String| Err(ProofError::Invalid(m));
    let board = proof.root.board();
    let mut map: HashMap<Key, &Record> = HashMap::with_capacity(proof.records.len());
    for r in &proof.records {
        if map.insert((r.white, r.black, r.side as u8), r).is_some() {
            return invalid("a position has two records".into());
        }
    }
    let mut plain = Plain::default();
    let mut report = CheckReport {
        records: proof.records.len() as u64,
        claims: 0,
        claim_nodes: 0,
    };
    let mut moves = Vec::new();
    let mut replies = Vec::new();
    for r in &proof.records {
        let pos = Position::from_parts(board, r.white, r.black, r.side)
            .map_err(|e| ProofError::Invalid(format!("a record holds no position: {e}")))?;
        let fen = pos.to_fen();
        if r.side != proof.winner || pos.result().is_some() {
            return invalid(format!(
                "{fen} is not an unfinished position with the winner to move"
            ));
        }
        pos.generate_moves(&mut moves);
        if !moves.contains(&r.mv) {
            return invalid(format!("the move of {fen} is not legal there"));
        }
        if r.kind == RecordKind::Claim {
            if r.bound > MAX_CLAIM_PLIES {
                return invalid(format!(
                    "{fen}: a claim of {} plies is too deep to re-derive",
                    r.bound
                ));
            }
            report.claims += 1;
            if !plain.wins_within(&pos, r.bound as u32) {
                return invalid(format!(
                    "{fen}: the table's win within {} plies does not hold",
                    r.bound
                ));
            }
            continue;
        }
        let mut child = pos;
        child.make_move(r.mv);
        if child.result().is_some() {
            if child.result() != Some(quasar_core::Outcome::Win(proof.winner)) || r.bound < 1 {
                return invalid(format!("{fen}: the move does not win"));
            }
            continue;
        }
        check_replies(
            &child,
            (r.bound as u32).saturating_sub(1),
            &map,
            &mut replies,
            &fen,
        )?;
    }
    if proof.root.result().is_some() {
        return invalid("the root is a finished game".into());
    }
    if proof.root.side() == proof.winner {
        match map.get(&key_of(&proof.root)) {
            Some(r) if (r.bound as u32) <= proof.plies => {}
            _ => return invalid("no record of the root within the stated plies".into()),
        }
    } else {
        check_replies(&proof.root, proof.plies, &map, &mut replies, "the root")?;
    }
    report.claim_nodes = plain.nodes;
    Ok(report)
}

/// Every move of the loser to move in `pos` must lead to a record within `d - 1` plies.
fn check_replies(
    pos: &Position,
    d: u32,
    map: &HashMap<Key, &Record>,
    replies: &mut Vec<Move>,
    from: &str,
) -> Result<(), ProofError> {
    pos.generate_moves(replies);
    for &mv in replies.iter() {
        let mut gc = *pos;
        gc.make_move(mv);
        let ok =
            gc.result().is_none() && map.get(&key_of(&gc)).is_some_and(|r| (r.bound as u32) < d);
        if !ok {
            return Err(ProofError::Invalid(format!(
                "after {from}, the reply {} from {} has no record within {} plies",
                pos.format_move(mv),
                pos.to_fen(),
                d.saturating_sub(1)
            )));
        }
    }
    Ok(())
}

/// Plain minimax for "the side to move wins within `d` plies", memoised by position and
/// depth.
#[derive(Default)]
struct Plain {
    memo: HashMap<(Key, u32), bool>,
    nodes: u64,
}

impl Plain {
    fn wins_within(&mut self, pos: &Position, d: u32) -> bool {
        if d == 0 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(key_of(pos), d)) {
            return v;
        }
        self.nodes += 1;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut won = false;
        'outer: for mv in moves {
            let mut child = *pos;
            child.make_move(mv);
            if child.result().is_some() {
                won = true;
                break;
            }
            if d < 3 {
                continue;
            }
            let mut replies = Vec::new();
            child.generate_moves(&mut replies);
            for r in replies {
                let mut gc = child;
                gc.make_move(r);
                if gc.result().is_some() || !self.wins_within(&gc, d - 2) {
                    continue 'outer;
                }
            }
            won = true;
            break;
        }
        self.memo.insert((key_of(pos), d), won);
        won
    }
}
