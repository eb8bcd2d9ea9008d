//! The independent proof checker: replays every record with the rules alone (no solver
//! code, no table) and re-derives every table claim by plain search. A draw's proof is
//! checked for closure: each side's records answer every move of the other, and no line
//! through them ends in the other's win. Records are checked
//! in parallel, bucket by bucket of the file's index; each looks up its replies' records in
//! the file itself, so the checker holds nothing per record.

use crate::instance::ProverPosition;
use crate::proof::{position_hash, Proof, ProofError, ProofView, Record, RecordKind, Verdict};
use crate::tt::Key;
use quasar_core::progress::{Progress, Silent};
use quasar_core::{Outcome, Shard, Side};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The deepest table claim the checker re-derives by plain search, in plies. The plain
/// search deepens from 3 and stops at the claim's real length, so a deep bound costs little
/// more: at 21 instead of 9, a 27-ply 5x6 proof is 12 times smaller and checks as fast, and
/// 5x5's is 40 % smaller and checks faster (README, "Deeper claims").
pub const MAX_CLAIM_PLIES: u8 = 21;
/// Index buckets a parallel task checks, at most (a small proof is cut into
/// [`MIN_TASKS`] tasks, so that its shards and threads share it).
const BUCKETS_PER_TASK: u64 = 1 << 12;
/// Tasks a proof is cut into, at least, when it has that many buckets.
const MIN_TASKS: u64 = 256;
/// Slots of each thread's plain-search cache (24 bytes each: 96 MiB).
const CACHE_SLOTS: usize = 1 << 22;

/// What a checked proof establishes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Records checked.
    pub records: u64,
    /// Of those, table claims re-derived by plain search.
    pub claims: u64,
    /// Positions the plain search visited for the claims.
    pub claim_nodes: u64,
}

impl CheckReport {
    fn add(mut self, other: CheckReport) -> CheckReport {
        self.records += other.records;
        self.claims += other.claims;
        self.claim_nodes += other.claim_nodes;
        self
    }
}

/// Checks that `proof.winner` wins from `proof.root` within `proof.plies` plies (an
/// in-memory proof goes through the file's bytes, so it is checked exactly as its file).
pub fn check<P: ProverPosition>(proof: &Proof<P>) -> Result<CheckReport, ProofError> {
    let bytes = proof.to_bytes();
    check_view(
        &ProofView::<P>::parse(&bytes, Path::new("(in memory)"))?,
        &Silent,
    )
}

/// Checks the proof a file holds, on the current rayon pool's threads, reporting the
/// records checked to `progress` as the phase "check".
pub fn check_view<P: ProverPosition>(
    view: &ProofView<P>,
    progress: &dyn Progress,
) -> Result<CheckReport, ProofError> {
    check_shard(view, Shard::WHOLE, progress)
}

/// Checks the root and `shard`'s share of the records of the proof a file holds (runs of
/// buckets, dealt round the jobs): the proof holds when every one of
/// the `N` shards passes, each checked by its own job, on any machine.
pub fn check_shard<P: ProverPosition>(
    view: &ProofView<P>,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<CheckReport, ProofError> {
    let invalid = |m: String| Err(ProofError::Invalid(m));
    let root = view.root;
    if root.outcome().is_some() {
        return invalid("the root is a finished game".into());
    }
    let mut replies = Vec::new();
    match view.verdict {
        Verdict::Win { winner, plies } if root.side_to_move() == winner => {
            match view.find(&root.raw_key()) {
                Some(r) if (r.bound as u32) <= plies => {}
                _ => return invalid("no record of the root within the stated plies".into()),
            }
        }
        Verdict::Win { winner, plies } => {
            check_replies(view, winner, &root, plies, &mut replies, &"the root")?
        }
        Verdict::Draw => {
            for holder in [Side::First, Side::Second] {
                check_holds(view, holder, &root, &mut replies, &"the root")?;
            }
        }
    }
    // One worker a thread, each with its own plain-search cache, taking the next run of
    // buckets until none is left or one of them found a hole.
    let per_task = (view.buckets() / MIN_TASKS).clamp(1, BUCKETS_PER_TASK);
    let all_tasks = view.buckets().div_ceil(per_task);
    let (count, first_task) = (shard.count() as u64, shard.index() as u64 - 1);
    // This shard's tasks are first_task, first_task + count, ...
    let tasks = all_tasks.saturating_sub(first_task).div_ceil(count);
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    // Task t checks the buckets and records of these ranges.
    let buckets = |t: u64| t * per_task..((t + 1) * per_task).min(view.buckets());
    let records = |t: u64| {
        let b = buckets(t);
        view.bucket(b.start).start..view.bucket(b.end - 1).end
    };
    let shard_records = (0..tasks)
        .map(|k| records(first_task + k * count))
        .map(|r| r.end - r.start)
        .sum();
    progress.begin("check", shard_records);
    let workers = rayon::current_num_threads().min(tasks as usize).max(1);
    let report = (0..workers)
        .into_par_iter()
        .map(|_| -> Result<CheckReport, ProofError> {
            let mut plain = Plain::<P>::new();
            let (mut moves, mut replies) = (Vec::new(), Vec::new());
            let mut report = CheckReport::default();
            while !failed.load(Ordering::Relaxed) {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= tasks {
                    break;
                }
                let t = first_task + k * count;
                let checked = buckets(t).try_for_each(|b| {
                    let mut prev: Option<Record> = None;
                    for i in view.bucket(b) {
                        let r = view.record(i).ok_or_else(|| {
                            ProofError::Invalid(format!("record {i} is of an unknown kind"))
                        })?;
                        in_order(view, b, prev.as_ref(), &r)?;
                        report.records += 1;
                        report.claims +=
                            check_record(view, &r, &mut plain, &mut moves, &mut replies)? as u64;
                        prev = Some(r);
                    }
                    Ok(())
                });
                if let Err(e) = checked {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                let range = records(t);
                progress.advance(range.end - range.start);
            }
            report.claim_nodes = plain.nodes;
            Ok(report)
        })
        .try_reduce(CheckReport::default, |a, b| Ok(a.add(b)));
    progress.end();
    report
}

/// `r` belongs in bucket `b` and comes after `prev` (the bucket's record before it): a
/// record out of place could not be found, and a position recorded twice is refused.
fn in_order<P: ProverPosition>(
    view: &ProofView<P>,
    b: u64,
    prev: Option<&Record>,
    r: &Record,
) -> Result<(), ProofError> {
    let h = r.hash();
    if view.bucket_of(h) != b {
        return Err(ProofError::Invalid(
            "a record is filed under the wrong bucket".into(),
        ));
    }
    if let Some(p) = prev {
        let key = |r: &Record| (r.hash(), r.a, r.b, r.side as u8);
        if key(p) == key(r) {
            return Err(ProofError::Invalid("a position has two records".into()));
        }
        if key(p) > key(r) {
            return Err(ProofError::Invalid("the records are out of order".into()));
        }
    }
    Ok(())
}

/// Checks one record; true when it is a table claim.
fn check_record<P: ProverPosition>(
    view: &ProofView<P>,
    r: &Record,
    plain: &mut Plain<P>,
    moves: &mut Vec<P::Move>,
    replies: &mut Vec<P::Move>,
) -> Result<bool, ProofError> {
    let invalid = |m: String| Err(ProofError::Invalid(m));
    let pos = view
        .root
        .with_key(&r.key())
        .map_err(|e| ProofError::Invalid(format!("a record holds no position: {e}")))?;
    let Verdict::Win { winner, .. } = view.verdict else {
        return check_hold_record(view, r, &pos, moves, replies);
    };
    if r.side != winner || pos.outcome().is_some() {
        return invalid(format!(
            "{} is not an unfinished position with the winner to move",
            pos.position_text()
        ));
    }
    let mv = recorded_move(&pos, r, moves)?;
    if r.kind == RecordKind::Claim {
        if r.bound > MAX_CLAIM_PLIES {
            return invalid(format!(
                "{}: a claim of {} plies is too deep to re-derive",
                pos.position_text(),
                r.bound
            ));
        }
        if !plain.claim_holds(&pos, r.bound as u32, mv) {
            return invalid(format!(
                "{}: the table's win within {} plies does not hold",
                pos.position_text(),
                r.bound
            ));
        }
        return Ok(true);
    }
    let mut child = pos;
    child.play(mv);
    match child.outcome() {
        Some(Outcome::Win(w)) if w == winner && r.bound >= 1 => Ok(false),
        Some(_) => invalid(format!("{}: the move does not win", pos.position_text())),
        None => {
            check_replies(
                view,
                winner,
                &child,
                (r.bound as u32).saturating_sub(1),
                replies,
                &pos.position_text(),
            )?;
            Ok(false)
        }
    }
}

/// The record's move, when it is a legal move of `pos` (`moves` is scratch space).
fn recorded_move<P: ProverPosition>(
    pos: &P,
    r: &Record,
    moves: &mut Vec<P::Move>,
) -> Result<P::Move, ProofError> {
    pos.legal_moves(moves);
    // A code no move has (0 included) is no legal move.
    let mv = (r.mv != 0).then(|| P::code_move(r.mv));
    mv.filter(|&mv| moves.contains(&mv) && P::move_code(mv) == r.mv)
        .ok_or_else(|| {
            ProofError::Invalid(format!(
                "the move of {} is not legal there",
                pos.position_text()
            ))
        })
}

/// Checks one record of a draw's proof: an unfinished position of the side that holds,
/// whose legal move keeps the other side from winning ([`check_holds`]).
fn check_hold_record<P: ProverPosition>(
    view: &ProofView<P>,
    r: &Record,
    pos: &P,
    moves: &mut Vec<P::Move>,
    replies: &mut Vec<P::Move>,
) -> Result<bool, ProofError> {
    let invalid = |m: String| Err(ProofError::Invalid(m));
    if pos.outcome().is_some() {
        return invalid(format!("{} is a finished game", pos.position_text()));
    }
    if r.kind != RecordKind::Move {
        return invalid(format!(
            "{}: a draw's proof holds moves only, no table claims",
            pos.position_text()
        ));
    }
    let mv = recorded_move(pos, r, moves)?;
    let mut child = *pos;
    child.play(mv);
    check_holds(view, r.side, &child, replies, &pos.position_text())?;
    Ok(false)
}

/// `holder` keeps the other side from winning from `pos`: a finished game that the other
/// side has not won, a position of `holder` to move with a record, or the other side to
/// move with every move leading to one of those. Play that goes on forever is a draw, so
/// records may lead back to each other.
fn check_holds<P: ProverPosition>(
    view: &ProofView<P>,
    holder: Side,
    pos: &P,
    replies: &mut Vec<P::Move>,
    from: &dyn std::fmt::Display,
) -> Result<(), ProofError> {
    let attacker = holder.opponent();
    let held = |p: &P| match p.outcome() {
        Some(o) => o != Outcome::Win(attacker),
        None => p.side_to_move() == holder && view.find(&p.raw_key()).is_some(),
    };
    if pos.outcome().is_some() || pos.side_to_move() == holder {
        if held(pos) {
            return Ok(());
        }
        return Err(ProofError::Invalid(format!(
            "after {from}, {} {}",
            pos.position_text(),
            if pos.outcome().is_some() {
                format!("is won by {}", P::side_name(attacker))
            } else {
                format!("has no record of {}", P::side_name(holder))
            }
        )));
    }
    pos.legal_moves(replies);
    for &mv in replies.iter() {
        let mut gc = *pos;
        gc.play(mv);
        if !held(&gc) {
            return Err(ProofError::Invalid(format!(
                "after {from}, the move {} from {} leaves {} no record that holds",
                pos.move_text(mv),
                pos.position_text(),
                P::side_name(holder)
            )));
        }
    }
    Ok(())
}

/// Every move of the loser to move in `pos` must lead to a record within `d - 1` plies.
fn check_replies<P: ProverPosition>(
    view: &ProofView<P>,
    winner: Side,
    pos: &P,
    d: u32,
    replies: &mut Vec<P::Move>,
    from: &dyn std::fmt::Display,
) -> Result<(), ProofError> {
    pos.legal_moves(replies);
    for &mv in replies.iter() {
        let mut gc = *pos;
        gc.play(mv);
        // A reply that hands the winner the game needs no record.
        let ok = match gc.outcome() {
            Some(o) => o == Outcome::Win(winner),
            None => view
                .find(&gc.raw_key())
                .is_some_and(|r| (r.bound as u32) < d),
        };
        if !ok {
            return Err(ProofError::Invalid(format!(
                "after {from}, the reply {} from {} has no record within {} plies",
                pos.move_text(mv),
                pos.position_text(),
                d.saturating_sub(1)
            )));
        }
    }
    Ok(())
}

/// What the plain search knows of a position: the side to move does not win within `lo`
/// plies, and wins within `hi` (0: not known). `side == 2` marks an empty slot.
#[derive(Clone, Copy)]
struct Slot {
    a: u64,
    b: u64,
    side: u8,
    lo: u8,
    hi: u8,
}

const EMPTY: Slot = Slot {
    a: 0,
    b: 0,
    side: 2,
    lo: 0,
    hi: 0,
};

/// Plain minimax for "the side to move wins within `d` plies", with a fixed-size cache
/// of exact facts (a slot is overwritten by the next position that maps to it).
#[doc(hidden)]
pub struct Plain<P> {
    cache: Vec<Slot>,
    nodes: u64,
    game: std::marker::PhantomData<P>,
}

impl<P> std::fmt::Debug for Plain<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plain")
            .field("cache_slots", &self.cache.len())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl<P: ProverPosition> Default for Plain<P> {
    fn default() -> Self {
        Plain::new()
    }
}

impl<P: ProverPosition> Plain<P> {
    /// A search with an empty cache.
    pub fn new() -> Plain<P> {
        Plain {
            cache: vec![EMPTY; CACHE_SLOTS],
            nodes: 0,
            game: std::marker::PhantomData,
        }
    }

    fn slot(&self, key: &Key) -> usize {
        let h = position_hash(
            key.a,
            key.b,
            if key.side == 0 {
                quasar_core::Side::First
            } else {
                quasar_core::Side::Second
            },
        );
        (h as usize) & (CACHE_SLOTS - 1)
    }

    /// A table claim: the side to move wins within `d` plies. The record's move (the
    /// table's) is tried first, and when it does not do it the whole search decides, so
    /// the move only saves work, it never changes the verdict.
    pub fn claim_holds(&mut self, pos: &P, d: u32, mv: P::Move) -> bool {
        if d == 0 {
            return false;
        }
        self.nodes += 1;
        if pos.wins_at_once() {
            return true;
        }
        if d >= 3 && self.wins_after(pos, mv, d) {
            return true;
        }
        self.wins_within(pos, d)
    }

    /// True when every reply to `mv` (a move that does not end the game) leaves a win
    /// within `d - 2`.
    fn wins_after(&mut self, pos: &P, mv: P::Move, d: u32) -> bool {
        let won = Some(Outcome::Win(pos.side_to_move()));
        let mut child = *pos;
        child.play(mv);
        if child.outcome().is_some() {
            return child.outcome() == won;
        }
        !child.any_legal(|r| {
            let mut gc = child;
            gc.play(r);
            match gc.outcome() {
                Some(_) => gc.outcome() != won,
                None => !self.wins_within(&gc, d - 2),
            }
        })
    }

    fn wins_within(&mut self, pos: &P, d: u32) -> bool {
        if d == 0 {
            return false;
        }
        if d <= 2 && P::LAST_MOVER_WINS {
            // Most calls are here, and the rules answer faster than the cache; kept out
            // of it, they leave its slots to the deeper positions that are worth keeping.
            self.nodes += 1;
            return pos.wins_at_once();
        }
        let key = pos.raw_key();
        let i = self.slot(&key);
        let mut s = self.cache[i];
        if (s.a, s.b, s.side) == (key.a, key.b, key.side) {
            if s.hi != 0 && d >= s.hi as u32 {
                return true;
            }
            if d <= s.lo as u32 {
                return false;
            }
        } else {
            s = Slot {
                a: key.a,
                b: key.b,
                side: key.side,
                lo: 0,
                hi: 0,
            };
        }
        self.nodes += 1;
        // Shallow wins first: a search within `d` tries moves in order and refutes each
        // wrong one to its full depth, while most of the positions asked have a short win.
        let won = if P::LAST_MOVER_WINS {
            pos.wins_at_once() || (3..=d).step_by(2).any(|b| self.search(pos, b))
        } else {
            (1..=d).any(|b| self.search(pos, b))
        };
        if won {
            s.hi = d as u8;
        } else {
            s.lo = s.lo.max(d as u8);
        }
        self.cache[i] = s;
        won
    }

    /// The search itself: a move that wins at once, or (with 3 plies or more) one after
    /// which every reply leaves a win within `d - 2`.
    fn search(&mut self, pos: &P, d: u32) -> bool {
        let won = Some(Outcome::Win(pos.side_to_move()));
        // Where only the last mover wins, a win takes an odd number of plies.
        let least = if P::LAST_MOVER_WINS { 3 } else { 2 };
        pos.any_legal(|mv| {
            let mut child = *pos;
            child.play(mv);
            if child.outcome().is_some() {
                return child.outcome() == won;
            }
            if d < least {
                return false;
            }
            !child.any_legal(|r| {
                let mut gc = child;
                gc.play(r);
                match gc.outcome() {
                    Some(_) => gc.outcome() != won,
                    None => d < 3 || !self.wins_within(&gc, d - 2),
                }
            })
        })
    }
}
