//! The proof of a settled tree: its own records and its jobs' proofs, merged into one file.

use super::*;

impl<P: ProverPosition> JobTree<P> {
    /// The proof of the settled root: the tree's own records (the winner's move at each
    /// of its nodes in the proof, with its bound) and the jobs whose proofs complete it.
    fn plan(&self) -> Result<(Verdict, Vec<Record>, Vec<u32>), TreeError> {
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
        jobs: &mut Vec<u32>,
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
            jobs.push(node.job);
            return Ok(plies as u32);
        }
        if node.state != NodeState::Expanded {
            return Err(inconsistent());
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
        let files = jobs
            .iter()
            .map(|&j| ProofFile::open(&layout.proof(j)))
            .collect::<Result<Vec<_>, _>>()?;
        let views = files
            .iter()
            .map(ProofFile::view::<P>)
            .collect::<Result<Vec<_>, _>>()?;
        for (view, &j) in views.iter().zip(&jobs) {
            let expected = self.position(j);
            let bad = |msg: String| TreeError::BadResult { node: j, msg };
            if view.root.raw_key() != expected.raw_key() {
                return Err(bad(format!(
                    "{} is the proof of {}, not of {}: remove the job's files and run it again",
                    layout.proof(j).display(),
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
                        layout.proof(j).display(),
                        v.text(&view.root),
                        P::side_name(winner)
                    )))
                }
            }
        }
        sort_records(&mut records, true);
        Ok(merge_views(
            &views, records, &self.root, verdict, out, &lock,
        )?)
    }
}
