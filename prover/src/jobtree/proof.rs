//! The proof of a settled tree: its own records and its jobs' proofs (mirrored for a node
//! whose job solved its mirror image), merged into one file.

use super::*;
use crate::proof::write_proof_file;

/// A job whose proof the tree's proof needs: its node, and whether it is needed mirrored.
type Need = (u32, bool);

impl<P: ProverPosition> JobTree<P> {
    /// The proof of the settled root: the tree's own records (the winner's move at each
    /// of its nodes in the proof, with its bound) and the jobs whose proofs complete it.
    fn plan(&self) -> Result<(Verdict, Vec<Record>, Vec<Need>), TreeError> {
        let verdict = self.verdict().ok_or_else(|| {
            let (pn, dn) = self.numbers[0];
            TreeError::Unsettled(format!("root proof/disproof numbers {pn}/{dn}"))
        })?;
        let winner = verdict.winner().expect("a win");
        let mut records = Vec::new();
        let mut jobs = Vec::new();
        let plies = self.bound(0, winner, &mut records, &mut jobs)?;
        jobs.sort_unstable();
        jobs.dedup();
        Ok((Verdict::Win { winner, plies }, records, jobs))
    }

    /// The bound within which `winner` wins from node `i` (which the tree proves won for
    /// it), adding the records and jobs that prove it.
    fn bound(
        &self,
        i: u32,
        winner: Side,
        records: &mut Vec<Record>,
        jobs: &mut Vec<Need>,
    ) -> Result<u32, TreeError> {
        let node = self.nodes[i as usize];
        let pos = self.position(i);
        let inconsistent = || TreeError::Damaged {
            path: PathBuf::from("tree"),
            msg: format!("node {i}'s value disagrees with its children"),
        };
        let plies = match node.value {
            Value::Win(p) if pos.side_to_move() == winner => p,
            Value::Loss(p) if pos.side_to_move() != winner => p,
            _ => return Err(inconsistent()),
        };
        if pos.outcome().is_some() {
            return Ok(0);
        }
        if node.job != NONE {
            jobs.push((node.job, self.mirrors_job(i)));
            return Ok(plies as u32);
        }
        if node.state != NodeState::Expanded {
            // A leaf the rules settled ([`settled_by_rules`]): its winning moves.
            return rule_records(&pos, winner, plies, records).ok_or_else(inconsistent);
        }
        if pos.side_to_move() == winner {
            // The child lost for its side to move that is won soonest.
            let c = node
                .child_ids()
                .filter(|&c| matches!(self.nodes[c as usize].value, Value::Loss(_)))
                .min_by_key(|&c| match self.nodes[c as usize].value {
                    Value::Loss(p) => p,
                    _ => u8::MAX,
                })
                .ok_or_else(inconsistent)?;
            let below = self.bound(c, winner, records, jobs)?;
            let b = below + 1;
            let mv = P::code_move(self.nodes[c as usize].mv);
            records.push(Record::new(&pos, RecordKind::Move, mv, b));
            Ok(b)
        } else {
            let mut worst = 0;
            for c in node.child_ids() {
                worst = worst.max(self.bound(c, winner, records, jobs)?);
            }
            Ok(worst + 1)
        }
    }

    /// Writes the proof of the settled root to `out`: the tree's records and the proofs of
    /// the jobs below them, merged as [`crate::merge()`] merges shards.
    pub fn write_proof(&self, layout: &Layout, out: &Path) -> Result<ProofSummary, TreeError> {
        let lock = OutputLock::acquire(out)?;
        let (verdict, mut records, jobs) = self.plan()?;
        let winner = verdict.winner().expect("a win");
        for &(j, mirror) in &jobs {
            if mirror {
                write_mirrored::<P>(&layout.proof(j), &layout.mirror_proof(j))?;
            }
        }
        let path = |&(j, mirror): &Need| match mirror {
            true => layout.mirror_proof(j),
            false => layout.proof(j),
        };
        let files = jobs
            .iter()
            .map(|n| ProofFile::open(&path(n)))
            .collect::<Result<Vec<_>, _>>()?;
        let views = files
            .iter()
            .map(ProofFile::view::<P>)
            .collect::<Result<Vec<_>, _>>()?;
        for (view, need) in views.iter().zip(&jobs) {
            let (j, mirror) = *need;
            let own = self.position(j);
            let expected = match mirror {
                true => own.mirrored().unwrap_or(own),
                false => own,
            };
            let bad = |msg: String| TreeError::BadResult { node: j, msg };
            if view.root.raw_key() != expected.raw_key() {
                return Err(bad(format!(
                    "{} is the proof of {}, not of {}: remove the job's files and run it again",
                    path(need).display(),
                    view.root.position_text(),
                    expected.position_text()
                )));
            }
            let held = match self.nodes[j as usize].value {
                Value::Win(p) | Value::Loss(p) => p as u32,
                Value::Unknown => 0,
            };
            match view.verdict {
                Verdict::Win { winner: w, plies } if w == winner && plies <= held => {}
                v => {
                    return Err(bad(format!(
                        "{} proves that {}, but its result said {} wins within {held} plies: \
                         remove the job's files and run it again",
                        path(need).display(),
                        v.text(&view.root),
                        P::side_name(winner)
                    )))
                }
            }
        }
        sort_records(&mut records, true);
        let merged = merge_views(&views, records, &self.root, verdict, out, &lock)?;
        drop(views);
        drop(files);
        for &(j, mirror) in &jobs {
            if mirror {
                let _ = std::fs::remove_file(layout.mirror_proof(j));
            }
        }
        Ok(merged)
    }
}

/// The records that prove a leaf the rules settled ([`settled_by_rules`]) won for
/// `winner` within `plies`: its winning move when `winner` is to move and wins in one, or
/// the winning move after each reply when the other side is to move and loses in two;
/// `None` when the rules do not settle it so.
fn rule_records<P: ProverPosition>(
    pos: &P,
    winner: Side,
    plies: u8,
    records: &mut Vec<Record>,
) -> Option<u32> {
    let wins = |p: &P| {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        moves.into_iter().find(|&mv| {
            let mut child = *p;
            child.play(mv);
            child.outcome() == Some(Outcome::Win(winner))
        })
    };
    if pos.side_to_move() == winner {
        let mv = wins(pos).filter(|_| plies >= 1)?;
        records.push(Record::new(pos, RecordKind::Move, mv, 1));
        return Some(1);
    }
    if plies < 2 {
        return None;
    }
    let mut replies = Vec::new();
    pos.legal_moves(&mut replies);
    for r in replies {
        let mut child = *pos;
        child.play(r);
        match child.outcome() {
            Some(o) if o == Outcome::Win(winner) => {}
            Some(_) => return None,
            None => records.push(Record::new(&child, RecordKind::Move, wins(&child)?, 1)),
        }
    }
    Some(2)
}

/// Writes to `dst` the proof `src` holds, mirrored ([`ProverPosition::mirrored`]): every
/// record's position and move seen in the mirror image, which proves the mirrored root
/// (the rules are symmetric), sorted and indexed anew.
fn write_mirrored<P: ProverPosition>(src: &Path, dst: &Path) -> Result<(), TreeError> {
    let file = ProofFile::open(src)?;
    let view = file.view::<P>()?;
    let bad = |msg: String| {
        TreeError::Proof(ProofError::Invalid(format!(
            "{}: {msg}; remove the job's files and run it again",
            src.display()
        )))
    };
    let mirror = |pos: &P| {
        pos.mirrored()
            .ok_or_else(|| bad("the game has no mirror image".into()))
    };
    let root = mirror(&view.root)?;
    let mut records = Vec::with_capacity(view.len() as usize);
    for k in 0..view.len() {
        let r = view
            .record(k)
            .ok_or_else(|| bad(format!("record {k} is of an unknown kind")))?;
        let pos = view
            .root
            .with_key(&r.key())
            .map_err(|e| bad(format!("record {k} holds no position: {e}")))?;
        let image = mirror(&pos)?.raw_key();
        // 0 stands for no move.
        let mv = match r.mv {
            0 => 0,
            code => P::move_code(pos.mirrored_move(P::code_move(code))),
        };
        records.push(Record {
            a: image.a,
            b: image.b,
            mv,
            ..r
        });
    }
    sort_records(&mut records, true);
    let count = records.len() as u64;
    let mut sorted = records.into_iter().peekable();
    // Sorted by hash: the writer takes them a 256th of the hash range at a time.
    let chunks = (0..256u64).map(move |part| {
        let mut chunk = Vec::new();
        while let Some(r) = sorted.next_if(|r| r.hash() >> 56 == part) {
            chunk.push(r);
        }
        Ok(chunk)
    });
    let lock = OutputLock::acquire(dst)?;
    write_proof_file(dst, &lock, &root, view.verdict, count, chunks)?;
    Ok(())
}
