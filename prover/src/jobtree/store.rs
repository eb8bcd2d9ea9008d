//! The tree's file: its header, its nodes, and the folder that holds it with its jobs.

use super::*;

impl<P: ProverPosition> JobTree<P> {
    fn header(&self) -> Vec<u8> {
        let [p0, p1] = self.root.params();
        let key = self.root.raw_key();
        let mut h = FRAME.header();
        h.truncate(12);
        // Byte 14: the tree's flags (1: children start afresh).
        h.extend_from_slice(&[
            p0,
            p1,
            self.fresh_children as u8,
            self.root.side_to_move() as u8,
        ]);
        h.extend_from_slice(&key.a.to_le_bytes());
        h.extend_from_slice(&key.b.to_le_bytes());
        let t = &self.totals;
        for v in [
            self.nodes.len() as u64,
            t.job_nodes,
            t.started,
            t.solved,
            t.expanded,
            t.nodes,
            t.seconds.to_bits(),
            t.feeds,
            t.job_runs,
            t.reissued,
        ] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        h.extend_from_slice(&(self.note.len() as u64).to_le_bytes());
        debug_assert_eq!(h.len(), HEADER_BYTES);
        h
    }

    /// Writes the tree to `path` through a temporary file renamed when complete, under the
    /// `lock` of the path held by the caller: a crash leaves the previous tree intact.
    pub fn save(&self, path: &Path, lock: &OutputLock) -> Result<(), TreeError> {
        let mut bytes = self.header();
        bytes.reserve(self.nodes.len() * NODE_BYTES + self.note.len() + 4);
        for n in &self.nodes {
            let state = match n.state {
                NodeState::Leaf => 0u8,
                NodeState::Running => 1,
                NodeState::Expanded => 2,
            };
            let (kind, plies) = n.value.code();
            bytes.extend_from_slice(&n.key.a.to_le_bytes());
            bytes.extend_from_slice(&n.key.b.to_le_bytes());
            bytes.extend_from_slice(&[n.key.side, state, kind, plies]);
            bytes.extend_from_slice(&n.mv.to_le_bytes());
            bytes.extend_from_slice(&[n.tries, 0]);
            for w in [n.parent, n.job, n.first_child, n.children] {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            bytes.extend_from_slice(&n.nodes.to_le_bytes());
            bytes.extend_from_slice(&n.seed.0.to_le_bytes());
            bytes.extend_from_slice(&n.seed.1.to_le_bytes());
        }
        bytes.extend_from_slice(self.note.as_bytes());
        FRAME.seal(&mut bytes);
        file::write_with(path, lock, |f| f.write_all(&bytes))?;
        Ok(())
    }

    /// Reads the tree file `path`.
    pub fn read(path: &Path) -> Result<JobTree<P>, TreeError> {
        let bytes = file::read(path, MAX_FILE_BYTES, "job tree")?;
        JobTree::from_bytes(&bytes, path)
    }

    /// Parses the bytes of the tree file `path` (for messages).
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<JobTree<P>, TreeError> {
        let bad = |msg: &str| TreeError::Damaged {
            path: path.to_path_buf(),
            msg: msg.to_string(),
        };
        let h = FRAME.open(bytes).map_err(|e| bad(&e.to_string()))?;
        if !frame::of_game::<P>(&h) {
            return Err(TreeError::OtherGame {
                path: path.to_path_buf(),
            });
        }
        let root = frame::root_of::<P>(h, 15).map_err(|e| bad(&e))?;
        let fresh_children = match h.u8(14) {
            0 => false,
            1 => true,
            _ => return Err(bad("the tree's flags are unknown")),
        };
        let count = h.u64(32);
        let totals = Totals {
            job_nodes: h.u64(40),
            started: h.u64(48),
            solved: h.u64(56),
            expanded: h.u64(64),
            nodes: h.u64(72),
            seconds: f64::from_bits(h.u64(80)),
            feeds: h.u64(88),
            job_runs: h.u64(96),
            reissued: h.u64(104),
        };
        if !(1..=MAX_JOB_RUNS).contains(&totals.job_runs) {
            return Err(bad("the runs a job gets are out of range"));
        }
        let note_len = h.u64(112);
        let body = h.all();
        let expected = HEADER_BYTES as u128 + count as u128 * NODE_BYTES as u128 + note_len as u128;
        if count == 0 || expected != body.len() as u128 {
            return Err(bad("the node count disagrees with the file size"));
        }
        let nodes_end = HEADER_BYTES + count as usize * NODE_BYTES;
        let note = std::str::from_utf8(&body[nodes_end..])
            .map_err(|_| bad("the job options are not text"))?
            .to_string();
        let mut nodes = Vec::with_capacity(count as usize);
        for (i, b) in body[HEADER_BYTES..nodes_end]
            .chunks_exact(NODE_BYTES)
            .enumerate()
        {
            let f = quasar_file::Fields(b);
            let key = Key {
                a: f.u64(0),
                b: f.u64(8),
                side: f.u8(16),
            };
            let state = match f.u8(17) {
                0 => NodeState::Leaf,
                1 => NodeState::Running,
                2 => NodeState::Expanded,
                _ => return Err(bad(&format!("node {i} has an unknown state"))),
            };
            let value = Value::of_code(f.u8(18), f.u8(19))
                .ok_or_else(|| bad(&format!("node {i} has an unknown value")))?;
            let node = Node {
                key,
                parent: f.u32(24),
                mv: f.u16(20),
                state,
                value,
                job: f.u32(28),
                first_child: f.u32(32),
                children: f.u32(36),
                tries: f.u8(22),
                nodes: f.u64(40),
                seed: (f.u32(48), f.u32(52)),
            };
            let seeds = 1..=SOLVED_SEED;
            if !seeds.contains(&node.seed.0) || !seeds.contains(&node.seed.1) {
                return Err(bad(&format!(
                    "node {i}'s starting numbers are out of range"
                )));
            }
            // Parents before children, children inside the tree, keys of this game: the
            // passes over the tree rely on it.
            let i = i as u64;
            let parent_ok =
                (i == 0) == (node.parent == NONE) && (i == 0 || (node.parent as u64) < i);
            let children_ok = node.state != NodeState::Expanded
                || (node.first_child as u64 > i
                    && node.first_child as u64 + node.children as u64 <= count);
            let job_ok = node.job == NONE || (node.job as u64) < count;
            if !parent_ok || !children_ok || !job_ok {
                return Err(bad(&format!("node {i}'s links are out of place")));
            }
            root.with_key(&key)
                .map_err(|e| bad(&format!("node {i} holds no position: {e}")))?;
            nodes.push(node);
        }
        if nodes[0].key != root.raw_key() {
            return Err(bad("the first node is not the root"));
        }
        let mut tree = JobTree {
            root,
            nodes,
            totals,
            note,
            fresh_children,
            solved: HashMap::new(),
            canon: Vec::new(),
            numbers: Vec::new(),
        };
        tree.canon = (0..tree.nodes.len() as u32)
            .map(|i| JobTree::canon(&tree.position(i)))
            .collect();
        tree.solved = tree
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| n.job == *i as u32 && n.value.known())
            .map(|(i, _)| (tree.canon[i], i as u32))
            .collect();
        tree.update(1);
        Ok(tree)
    }
}

/// The tree of the folder `layout` names, with its file's lock held (one master at a
/// time); a folder without one is [`TreeError::Missing`].
pub fn open<P: ProverPosition>(layout: &Layout) -> Result<(JobTree<P>, OutputLock), TreeError> {
    if !layout.tree().is_file() {
        return Err(TreeError::Missing {
            path: layout.dir.clone(),
        });
    }
    let lock = OutputLock::acquire(&layout.tree())?;
    Ok((JobTree::read(&layout.tree())?, lock))
}

/// Makes the folder of `layout` (and its jobs' folder) for a new `tree` and saves it;
/// a folder holding a tree already is refused.
pub fn create<P: ProverPosition>(layout: &Layout, tree: &JobTree<P>) -> Result<(), TreeError> {
    if layout.tree().exists() {
        return Err(TreeError::Exists {
            path: layout.dir.clone(),
        });
    }
    let io = |path: &Path, e| TreeError::File(FileError::io(path, e));
    std::fs::create_dir_all(layout.jobs()).map_err(|e| io(&layout.jobs(), e))?;
    let lock = OutputLock::acquire(&layout.tree())?;
    tree.save(&layout.tree(), &lock)
}
