//! The proof-number search over the master tree: growing it, picking the leaves for the
//! next jobs, taking their results, and bringing values and numbers up to the root.

use super::*;

impl<P: ProverPosition> JobTree<P> {
    /// Expands leaf `i` (a leaf of the tree) into its children; returns how many.
    pub fn expand(&mut self, i: u32) -> Result<u32, TreeError> {
        let pos = self.position(i);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let first = self.nodes.len() as u32;
        for mv in &moves {
            let mut child = pos;
            child.play(*mv);
            let mut node = Node::leaf(child.raw_key(), i, P::move_code(*mv));
            match child.outcome() {
                None => node.value = settled_by_rules(&child),
                Some(Outcome::Win(s)) => {
                    node.value = if s == child.side_to_move() {
                        Value::Win(0)
                    } else {
                        Value::Loss(0)
                    };
                }
                Some(_) => return Err(TreeError::Draw(child.position_text())),
            }
            self.nodes.push(node);
            self.canon.push(JobTree::canon(&child));
        }
        let n = &mut self.nodes[i as usize];
        n.state = NodeState::Expanded;
        n.first_child = first;
        n.children = moves.len() as u32;
        n.job = NONE;
        Ok(moves.len() as u32)
    }

    /// Expands every unsolved leaf less than `plies` plies below the root (the first jobs
    /// then start from many leaves at once).
    pub fn expand_to(&mut self, plies: u32) -> Result<(), TreeError> {
        let mut level = vec![0u32];
        for _ in 0..plies {
            let mut next = Vec::new();
            for i in level {
                let n = self.nodes[i as usize];
                if n.state == NodeState::Leaf && !n.value.known() {
                    let first = self.nodes.len() as u32;
                    let k = self.expand(i)?;
                    next.extend(first..first + k);
                }
            }
            level = next;
        }
        self.update(1);
        Ok(())
    }

    /// The nodes whose own jobs are running (issued, not yet fed back).
    pub fn running(&self) -> Vec<u32> {
        (0..self.nodes.len() as u32)
            .filter(|&i| {
                let n = &self.nodes[i as usize];
                n.state == NodeState::Running && n.job == i
            })
            .collect()
    }

    /// Picks up to `n` more leaves for jobs, the most-proving first (each pick counts as
    /// running while the next is picked, so the picks are distinct), and marks them
    /// running. A leaf of the same position as a running job waits for that job instead.
    pub fn select(&mut self, n: usize) -> Vec<u32> {
        self.update(VIRTUAL);
        let mut by_key: HashMap<Key, u32> = self
            .running()
            .into_iter()
            .map(|i| (self.canon[i as usize], i))
            .collect();
        let mut picked = Vec::new();
        while picked.len() < n && !self.root_value().known() {
            let mut i = 0u32;
            while self.nodes[i as usize].state == NodeState::Expanded {
                let best = self.nodes[i as usize]
                    .child_ids()
                    .filter(|&c| !self.nodes[c as usize].value.known())
                    .min_by_key(|&c| self.numbers[c as usize].1);
                match best {
                    Some(c) => i = c,
                    None => break,
                }
            }
            let node = self.nodes[i as usize];
            if node.state != NodeState::Leaf || node.value.known() {
                // Every unsolved leaf is running already.
                break;
            }
            let job = match by_key.get(&self.canon[i as usize]) {
                Some(&j) => j,
                None => {
                    by_key.insert(self.canon[i as usize], i);
                    picked.push(i);
                    self.nodes[i as usize].tries = node.tries.saturating_add(1);
                    i
                }
            };
            let n = &mut self.nodes[i as usize];
            n.state = NodeState::Running;
            n.job = job;
            self.numbers[i as usize] = (VIRTUAL, VIRTUAL);
            let mut up = node.parent;
            while up != NONE {
                self.update_node(up as usize, VIRTUAL);
                up = self.nodes[up as usize].parent;
            }
        }
        self.update(1);
        picked
    }

    /// Takes the results of finished jobs: a solved leaf gets its value (and so does every
    /// leaf of the same position or its mirror image); a leaf whose job ran out of nodes
    /// stays running for its next run, which resumes from the checkpoint with twice the
    /// nodes, until the job has had its runs: then the leaf is expanded, and so are the
    /// leaves that waited for it (their children share jobs with its children). With the
    /// jobs' files at `layout` (and unless [`JobTree::fresh_children`]), the children of
    /// an expanded leaf start from the numbers its job's checkpoint left for them
    /// ([`JobTree::seed_of`]), read before the checkpoint is removed. Then the values and
    /// numbers are brought up to the root.
    pub fn feed(
        &mut self,
        results: &[JobResult],
        layout: Option<&Layout>,
    ) -> Result<Fed, TreeError> {
        let mut fed = Fed::default();
        for r in results {
            let i = r.node;
            let bad = |msg: &str| TreeError::BadResult {
                node: i,
                msg: msg.to_string(),
            };
            let node = *self
                .nodes
                .get(i as usize)
                .ok_or_else(|| bad("no such node in the tree"))?;
            if node.state != NodeState::Running || node.job != i {
                // Fed already (a feed repeated after a crash), or issued by another tree.
                continue;
            }
            match r.outcome {
                JobOutcome::Solved { winner, plies } => {
                    let plies = u8::try_from(plies)
                        .ok()
                        .filter(|&p| p < u8::MAX)
                        .ok_or_else(|| bad("a length of 255 plies or more cannot be kept"))?;
                    let mover = self.position(i).side_to_move();
                    let n = &mut self.nodes[i as usize];
                    n.state = NodeState::Leaf;
                    n.value = if winner == mover {
                        Value::Win(plies)
                    } else {
                        Value::Loss(plies)
                    };
                    self.solved.insert(self.canon[i as usize], i);
                    self.totals.solved += 1;
                    fed.solved += 1;
                }
                JobOutcome::OutOfNodes if (node.tries as u64) < self.totals.job_runs => {
                    self.nodes[i as usize].tries = node.tries + 1;
                    self.totals.reissued += 1;
                    fed.reissued += 1;
                }
                JobOutcome::OutOfNodes => {
                    let learned = match layout {
                        Some(l) if !self.fresh_children => self.learned(l, i)?,
                        _ => HashMap::new(),
                    };
                    let waiting: Vec<u32> = (0..self.nodes.len() as u32)
                        .filter(|&w| {
                            let n = &self.nodes[w as usize];
                            w != i && n.state == NodeState::Running && n.job == i
                        })
                        .collect();
                    self.totals.expanded += 1;
                    for w in std::iter::once(i).chain(waiting) {
                        let first = self.nodes.len() as u32;
                        fed.children += self.expand(w)? as u64;
                        fed.expanded += 1;
                        for c in first..self.nodes.len() as u32 {
                            self.seed_child(c, &learned, &mut fed);
                        }
                    }
                }
            }
            // A run resumed from its checkpoint counts on from the last run's nodes.
            self.totals.nodes += r.nodes.saturating_sub(node.nodes);
            self.nodes[i as usize].nodes = r.nodes;
            self.totals.seconds += r.seconds;
        }
        self.totals.feeds += 1;
        self.update(1);
        Ok(fed)
    }

    /// What the stopped job of node `i` left for its root's children in its checkpoint:
    /// each child's starting numbers by its position's key ([`JobTree::seed_of`]); none
    /// without a checkpoint.
    fn learned(&self, layout: &Layout, i: u32) -> Result<HashMap<Key, (u32, u32)>, TreeError> {
        let path = layout.checkpoint(i);
        let bad = |e: String| TreeError::BadResult {
            node: i,
            msg: format!(
                "its checkpoint cannot be read ({e}); remove {} and feed again (the leaf's \
                 children then start afresh)",
                path.display()
            ),
        };
        let Some(c) = Checkpoint::<P>::read(&path).map_err(|e| bad(e.to_string()))? else {
            return Ok(HashMap::new());
        };
        c.matches(&self.position(i), &path)
            .map_err(|e| bad(e.to_string()))?;
        Ok(c.children
            .iter()
            .map(|c| (c.key, JobTree::<P>::seed_of(c.pn, c.dn)))
            .collect())
    }

    /// A leaf's starting numbers from the numbers `pn` and `dn` df-pn left for its position
    /// (for its side to move): a position df-pn solved starts at 1 on its solved side and
    /// [`SOLVED_SEED`] on the other (its proof still needs a job), any other at its
    /// numbers, at least 1 and below [`SOLVED_SEED`].
    pub fn seed_of(pn: u32, dn: u32) -> (u32, u32) {
        match (pn, dn) {
            (0, _) => (1, SOLVED_SEED),
            (_, 0) => (SOLVED_SEED, 1),
            _ => (pn.clamp(1, SOLVED_SEED - 1), dn.clamp(1, SOLVED_SEED - 1)),
        }
    }

    /// Gives the new child `c` the numbers `learned` holds for its position or, for a
    /// child of a leaf that waited for a mirror image's job, for its mirror image.
    fn seed_child(&mut self, c: u32, learned: &HashMap<Key, (u32, u32)>, fed: &mut Fed) {
        let node = self.nodes[c as usize];
        if learned.is_empty() || node.value.known() {
            return;
        }
        let pos = self.position(c);
        let seed = learned
            .get(&node.key)
            .or_else(|| pos.mirrored().and_then(|m| learned.get(&m.raw_key())));
        if let Some(&seed) = seed {
            self.nodes[c as usize].seed = seed;
            fed.seeded += 1;
            fed.solved_seeds += (seed.0 == SOLVED_SEED || seed.1 == SOLVED_SEED) as u64;
        }
    }

    /// Recomputes every node's value and numbers from its children, leaves first (each
    /// node comes after its parent), with running leaves at `running` each.
    pub(super) fn update(&mut self, running: u64) {
        if self.canon.len() != self.nodes.len() {
            self.canon = (0..self.nodes.len() as u32)
                .map(|i| JobTree::canon(&self.position(i)))
                .collect();
        }
        self.numbers.resize(self.nodes.len(), (1, 1));
        for i in (0..self.nodes.len()).rev() {
            self.update_node(i, running);
        }
    }

    /// Recomputes node `i` from its children (already up to date).
    fn update_node(&mut self, i: usize, running: u64) {
        let node = self.nodes[i];
        let mut value = node.value;
        let mut job = node.job;
        match node.state {
            NodeState::Expanded => {
                value = Value::Unknown;
                job = NONE;
                let (mut pn, mut dn) = (INF, 0u64);
                let (mut best_loss, mut worst_win, mut all_won) = (None::<u8>, 0u8, true);
                for c in node.child_ids() {
                    let child = &self.nodes[c as usize];
                    match child.value {
                        Value::Loss(p) => best_loss = Some(best_loss.map_or(p, |b| b.min(p))),
                        Value::Win(p) => worst_win = worst_win.max(p),
                        Value::Unknown => all_won = false,
                    }
                    let (cp, cd) = self.numbers[c as usize];
                    pn = pn.min(cd);
                    dn = dn.saturating_add(cp);
                }
                if let Some(p) = best_loss {
                    value = Value::Win(p.saturating_add(1));
                } else if all_won {
                    value = Value::Loss(worst_win.saturating_add(1));
                } else if let Some(&j) = self.solved.get(&self.canon[i]) {
                    // The same position (or its mirror image) solved by a job elsewhere
                    // settles this one.
                    value = self.nodes[j as usize].value;
                    job = j;
                }
                if !value.known() {
                    // Unsolved: neither number is infinite.
                    self.numbers[i] = (pn.min(INF - 1), dn.min(INF - 1));
                }
            }
            NodeState::Running | NodeState::Leaf if !value.known() => {
                if let Some(&j) = self.solved.get(&self.canon[i]) {
                    value = self.nodes[j as usize].value;
                    job = j;
                } else if node.state == NodeState::Running {
                    let waits = self.nodes[node.job as usize];
                    if node.job != i as u32 && waits.state != NodeState::Running {
                        // The job it waited for was expanded instead: open again.
                        self.nodes[i].state = NodeState::Leaf;
                        job = NONE;
                        self.numbers[i] = (node.seed.0 as u64, node.seed.1 as u64);
                    } else {
                        self.numbers[i] = (running, running);
                    }
                } else {
                    self.numbers[i] = (node.seed.0 as u64, node.seed.1 as u64);
                }
                if value.known() {
                    self.nodes[i].state = NodeState::Leaf;
                }
            }
            _ => {}
        }
        match value {
            Value::Win(_) => self.numbers[i] = (0, INF),
            Value::Loss(_) => self.numbers[i] = (INF, 0),
            Value::Unknown => {}
        }
        self.nodes[i].value = value;
        self.nodes[i].job = job;
    }
}

/// The value of the unfinished `pos` by the rules alone, as the proof checker sees it: a
/// win in one ply when a move of the side to move ends the game, a loss in two when every
/// move lets the other side end it at once; otherwise unknown. A leaf settled so needs no
/// job (one would spend its start-up, the table's allocation and build, on it), and
/// [`JobTree::write_proof`] writes the winning moves itself.
pub fn settled_by_rules<P: ProverPosition>(pos: &P) -> Value {
    if pos.wins_at_once() {
        return Value::Win(1);
    }
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let lost = !moves.is_empty()
        && moves.iter().all(|&mv| {
            let mut child = *pos;
            child.play(mv);
            match child.outcome() {
                Some(o) => o == Outcome::Win(me.opponent()),
                None => child.wins_at_once(),
            }
        });
    if lost {
        Value::Loss(2)
    } else {
        Value::Unknown
    }
}
