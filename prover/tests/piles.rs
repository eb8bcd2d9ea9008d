//! The prover on a game that is not Breakthrough: two piles, a move takes one or two
//! stones from one pile, and who takes the last stone wins. Its winners and exact lengths
//! are checked against plain minimax, with and without the piles' symmetry, and its proofs
//! pass the checker while a proof with a record less, or claiming a move less, does not;
//! a job tree (jobs of a few nodes each, some of them lost and issued again) finds the
//! same winners, and its merged proof passes the checker, with an expanded leaf's children
//! starting from the numbers its job left (or afresh).

use prover::jobtree::{self, JobOutcome, JobResult, JobTree, Layout, NodeState, TreeError, Value};
use prover::{Instance, Key, Options, Proof, ProverPosition, SolveError};
use quasar_core::progress::Silent;
use quasar_core::{Detail, Game, Outcome, ParseError, Side};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Piles {
    piles: [u8; 2],
    side: Side,
}

impl Game for Piles {
    type Move = (u8, u8);

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<(u8, u8)>) {
        moves.clear();
        for pile in 0..2 {
            for n in 1..=2 {
                if self.piles[pile as usize] >= n {
                    moves.push((pile, n));
                }
            }
        }
    }

    fn play(&mut self, (pile, n): (u8, u8)) {
        self.piles[pile as usize] -= n;
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.piles == [0, 0]).then(|| Outcome::Win(self.side.opponent()))
    }

    fn hash(&self) -> u64 {
        u64::from_le_bytes([self.piles[0], self.piles[1], self.side as u8, 0, 0, 0, 0, 0])
    }

    fn parse_move(&self, text: &str) -> Result<(u8, u8), ParseError> {
        Err(ParseError::Move(Detail::message(format!(
            "no move text: {text}"
        ))))
    }

    fn move_text(&self, (pile, n): (u8, u8)) -> String {
        format!("{n}@{pile}")
    }

    fn position_text(&self) -> String {
        format!("{}-{} {:?}", self.piles[0], self.piles[1], self.side)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Err(ParseError::Position(Detail::message(format!(
            "no position text: {text}"
        ))))
    }
}

impl ProverPosition for Piles {
    fn raw_key(&self) -> Key {
        Key {
            a: self.piles[0] as u64 | (self.piles[1] as u64) << 8,
            b: 0,
            side: self.side as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Piles, String> {
        Piles::from_params([0, 0], key)
    }

    fn key_bytes(&self) -> usize {
        2
    }

    fn params(&self) -> [u8; 2] {
        [0, 0]
    }

    fn owns_params(params: [u8; 2]) -> bool {
        params == [0, 0]
    }

    fn from_params(_: [u8; 2], key: &Key) -> Result<Piles, String> {
        if key.a >> 16 != 0 || key.b != 0 || key.side > 1 {
            return Err("not two piles".into());
        }
        Ok(Piles {
            piles: [key.a as u8, (key.a >> 8) as u8],
            side: if key.side == 0 {
                Side::First
            } else {
                Side::Second
            },
        })
    }

    fn move_code((pile, n): (u8, u8)) -> u16 {
        u16::from_le_bytes([n, pile])
    }

    fn code_move(code: u16) -> (u8, u8) {
        let [n, pile] = code.to_le_bytes();
        (pile, n)
    }

    /// The piles swapped: the rules do not tell them apart.
    fn mirrored(&self) -> Option<Piles> {
        Some(Piles {
            piles: [self.piles[1], self.piles[0]],
            ..*self
        })
    }

    fn mirrored_move(&self, (pile, n): (u8, u8)) -> (u8, u8) {
        (1 - pile, n)
    }
}

/// The rules alone (every default of [`Instance`]).
struct Plain;

impl Instance for Plain {
    type Pos = Piles;
    type Table = ();
}

/// The piles' symmetry: a position and its piles swapped have one key.
struct Mirror;

impl Instance for Mirror {
    type Pos = Piles;
    type Table = ();

    fn key_mirrored(&self, pos: &Piles) -> (Key, bool) {
        let swapped = Piles {
            piles: [pos.piles[1], pos.piles[0]],
            ..*pos
        };
        let (k, m) = (pos.raw_key(), swapped.raw_key());
        if m < k {
            (m, true)
        } else {
            (k, false)
        }
    }

    fn mirror_move(&self, (pile, n): (u8, u8)) -> (u8, u8) {
        (1 - pile, n)
    }
}

/// Plies to the end with perfect play for the unfinished `pos`: positive when the side to
/// move wins (it hurries), negative when it loses (it delays).
fn minimax(pos: &Piles, memo: &mut HashMap<Piles, i32>) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<i32> = None;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = if child.outcome().is_some() {
            1
        } else {
            let c = minimax(&child, memo);
            if c < 0 {
                1 - c
            } else {
                -(c + 1)
            }
        };
        best = Some(match best {
            None => v,
            Some(b) if v > 0 && (b < 0 || v < b) => v,
            Some(b) if v < 0 && b < 0 && v < b => v,
            Some(b) => b,
        });
    }
    let v = best.expect("an unfinished position has a move");
    memo.insert(*pos, v);
    v
}

fn solve_with<I: Instance<Pos = Piles, Table = ()>>(inst: &I, root: &Piles) -> (Side, u32) {
    let options = Options {
        table_bytes: 1 << 16,
        ..Options::default()
    };
    let s = prover::solve(inst, root, &options, &Silent).expect("solved");
    (s.winner, s.plies)
}

#[test]
fn winners_and_lengths_are_those_of_minimax_with_and_without_the_symmetry() {
    let mut memo = HashMap::new();
    let mut wins = [0, 0];
    for a in 0..=7u8 {
        for b in 0..=7u8 {
            for side in [Side::First, Side::Second] {
                let root = Piles {
                    piles: [a, b],
                    side,
                };
                if root.outcome().is_some() {
                    continue;
                }
                let v = minimax(&root, &mut memo);
                let want = if v > 0 {
                    (side, v as u32)
                } else {
                    (side.opponent(), (-v) as u32)
                };
                wins[(v > 0) as usize] += 1;
                assert_eq!(solve_with(&Plain, &root), want, "{root:?}");
                assert_eq!(solve_with(&Mirror, &root), want, "{root:?} mirrored");
            }
        }
    }
    // Both verdicts occur: (a, b) loses for the side to move when both are multiples of 3.
    assert!(wins[0] > 10 && wins[1] > 50, "{wins:?}");
}

/// Checks that `proof` fails the checker without any one of its records at `indices`.
fn each_record_is_needed(proof: &Proof<Piles>, indices: impl IntoIterator<Item = usize>) {
    for i in indices {
        let mut holed = proof.clone();
        holed.records.remove(i);
        assert!(
            prover::check(&holed).is_err(),
            "{:?} without record {i}",
            proof.root
        );
    }
}

#[test]
fn proofs_pass_the_checker_and_a_holed_or_shortened_one_does_not() {
    let dir = std::env::temp_dir().join(format!("prover-piles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (root, inst_mirror) in [
        (
            Piles {
                piles: [7, 5],
                side: Side::First,
            },
            false,
        ),
        (
            Piles {
                piles: [6, 3],
                side: Side::Second,
            },
            true,
        ),
    ] {
        let path = dir.join(format!("{}-{}.proof", root.piles[0], root.piles[1]));
        let options = Options {
            table_bytes: 1 << 16,
            proof: Some(&path),
            ..Options::default()
        };
        let s = if inst_mirror {
            prover::solve(&Mirror, &root, &options, &Silent)
        } else {
            prover::solve(&Plain, &root, &options, &Silent)
        }
        .unwrap();
        let proof = Proof::<Piles>::read(&path).unwrap();
        assert_eq!(
            (proof.root, proof.verdict),
            (
                root,
                prover::Verdict::Win {
                    winner: s.winner,
                    plies: s.plies
                }
            )
        );
        let report = prover::check(&proof).unwrap();
        assert_eq!(report.records, proof.records.len() as u64);
        // Proven for the winner alone, the proof states a bound of its own, no shorter
        // than the exact length, and checks.
        let loose = dir.join("loose.proof");
        let options = Options {
            proof: Some(&loose),
            winner_only: Some(prover::LOOSE_BOUND),
            ..options
        };
        let w = prover::solve(&Plain, &root, &options, &Silent).unwrap();
        let loose = Proof::<Piles>::read(&loose).unwrap();
        assert_eq!(w.winner, s.winner);
        assert!(!w.plies_exact && w.plies >= s.plies && w.plies < prover::LOOSE_BOUND);
        assert_eq!(loose.verdict.plies(), Some(w.plies));
        prover::check(&loose).unwrap();
        // One move fewer than proven is never enough.
        let short = Proof {
            verdict: prover::Verdict::Win {
                winner: s.winner,
                plies: s.plies - 1,
            },
            ..proof.clone()
        };
        assert!(
            prover::check(&short).is_err(),
            "{root:?} within {}",
            s.plies - 1
        );
        // Every record is needed: without one of them a reply has no proof.
        let n = proof.records.len();
        assert!(n >= 3, "{root:?}: {n} records");
        each_record_is_needed(&proof, [0, n / 2, n - 1]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the jobs of `ids` in this process as a runner would: each a winner-only solve of
/// its leaf stopped after the nodes of its run, resuming its checkpoint, its proof and
/// checkpoint where the tree's layout puts them.
fn run_jobs(tree: &JobTree<Piles>, layout: &Layout, ids: &[u32]) -> Vec<JobResult> {
    ids.iter()
        .map(|&i| {
            let pos = tree.position(i);
            let path = layout.proof(i);
            let checkpoint = layout.checkpoint(i);
            let options = Options {
                table_bytes: 1 << 16,
                proof: Some(&path),
                checkpoint: Some(&checkpoint),
                stop_after: Some(tree.run_nodes(i)),
                winner_only: Some(prover::LOOSE_BOUND),
                ..Options::default()
            };
            let (outcome, nodes) = match prover::solve(&Plain, &pos, &options, &Silent) {
                Ok(s) => (
                    JobOutcome::Solved {
                        winner: s.winner,
                        plies: s.plies,
                    },
                    s.winner_nodes + s.length_nodes,
                ),
                Err(SolveError::Stopped { nodes, .. }) => (JobOutcome::OutOfNodes, nodes),
                Err(e) => panic!("job {i}: {e}"),
            };
            JobResult {
                node: i,
                outcome,
                nodes,
                seconds: 0.0,
            }
        })
        .collect()
}

#[test]
fn the_rules_settle_exactly_the_wins_in_one_and_the_losses_in_two() {
    let mut memo = HashMap::new();
    let mut settled = [0; 2];
    for piles in (0..=6).flat_map(|a| (0..=6).map(move |b| [a, b])) {
        for side in [Side::First, Side::Second] {
            let pos = Piles { piles, side };
            if pos.outcome().is_some() {
                continue;
            }
            // Minimax's exact length: the winner's shortest, the loser's longest.
            let expected = match minimax(&pos, &mut memo) {
                1 => Value::Win(1),
                -2 => Value::Loss(2),
                _ => Value::Unknown,
            };
            assert_eq!(jobtree::settled_by_rules(&pos), expected, "{pos:?}");
            match expected {
                Value::Win(_) => settled[0] += 1,
                Value::Loss(_) => settled[1] += 1,
                Value::Unknown => {}
            }
        }
    }
    // [0, 1], [0, 2] and their mirrors win in one; [1, 1], [0, 3], [3, 0] lose in two.
    assert_eq!(settled, [8, 6]);
}

#[test]
fn a_job_tree_finds_the_winner_resumes_lost_jobs_and_its_merged_proof_checks() {
    let base = std::env::temp_dir().join(format!("prover-piles-tree-{}", std::process::id()));
    let mut memo = HashMap::new();
    for (piles, side) in [
        ([7, 8], Side::First),
        ([9, 6], Side::Second),
        ([8, 7], Side::Second),
    ] {
        let root = Piles { piles, side };
        let v = minimax(&root, &mut memo);
        let winner = if v > 0 { side } else { side.opponent() };
        let layout = Layout::new(&base.join(format!("{}-{}", piles[0], piles[1])));
        // Two runs a job: a stopped job runs once more from its checkpoint with 60 nodes.
        jobtree::create(
            &layout,
            &JobTree::new(root, 30, 2, "note".into(), 0).unwrap(),
        )
        .unwrap();
        let mut rounds = 0;
        let tree = loop {
            // Every round reads the tree back from its file, as each command does.
            let (mut tree, lock) = jobtree::open::<Piles>(&layout).unwrap();
            if tree.verdict().is_some() {
                break tree;
            }
            rounds += 1;
            assert!(rounds < 500, "{root:?} unsettled after 500 rounds");
            // Jobs issued before and never fed back run again, then new leaves.
            let mut ids = tree.running();
            ids.extend(tree.select(4usize.saturating_sub(ids.len())));
            // No job for a leaf the rules settle.
            for &i in &ids {
                let pos = tree.position(i);
                assert_eq!(jobtree::settled_by_rules(&pos), Value::Unknown, "{pos:?}");
            }
            tree.save(&layout.tree(), &lock).unwrap();
            let results = run_jobs(&tree, &layout, &ids);
            if rounds % 4 == 1 {
                // The jobs' results are lost (a killed batch): the next round issues them
                // again.
                continue;
            }
            tree.feed(&results, Some(&layout)).unwrap();
            tree.save(&layout.tree(), &lock).unwrap();
        };
        eprintln!(
            "{root:?}: {rounds} rounds, {} nodes, {:?}",
            tree.nodes.len(),
            tree.totals
        );
        assert_eq!(tree.note, "note");
        let verdict = tree.verdict().unwrap();
        assert_eq!(verdict.winner(), Some(winner), "{root:?}");
        assert!(verdict.plies().unwrap() >= v.unsigned_abs(), "{root:?}");
        assert!(
            tree.totals.expanded > 0 && tree.totals.solved > 0 && tree.totals.reissued > 0,
            "{:?}",
            tree.totals
        );
        // Swapped piles shared a job: some node's value (and proof) is its mirror image's.
        let mirrored = (0..tree.nodes.len() as u32)
            .filter(|&i| tree.mirrors_job(i))
            .count();
        assert!(mirrored > 0, "{root:?}");
        let out = layout.dir.join("whole.proof");
        let summary = tree.write_proof(&layout, &out).unwrap();
        let proof = Proof::<Piles>::read(&out).unwrap();
        assert_eq!((proof.root, proof.verdict), (root, verdict));
        assert_eq!(prover::check(&proof).unwrap().records, summary.records);
        // Without the tree's own record of the root (a winner to move), no proof.
        if side == winner {
            let mut holed = proof.clone();
            holed
                .records
                .retain(|r| (r.a, r.side) != (root.raw_key().a, side));
            assert!(prover::check(&holed).is_err(), "{root:?}");
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_tree_whose_jobs_solve_nothing_settles_by_expansion_and_the_rules() {
    let base = std::env::temp_dir().join(format!("prover-piles-rules-{}", std::process::id()));
    let mut memo = HashMap::new();
    for piles in [[3, 4], [5, 2], [4, 4]] {
        let root = Piles {
            piles,
            side: Side::First,
        };
        let v = minimax(&root, &mut memo);
        let layout = Layout::new(&base.join(format!("{}-{}", piles[0], piles[1])));
        // Jobs of one node and one run: each stops and its leaf is expanded.
        let mut tree = JobTree::new(root, 1, 1, String::new(), 0).unwrap();
        jobtree::create(&layout, &tree).unwrap();
        let mut jobs = 0;
        while tree.verdict().is_none() {
            let ids = tree.select(4);
            assert!(!ids.is_empty() && jobs < 1000, "{root:?}");
            jobs += ids.len();
            for &i in &ids {
                let pos = tree.position(i);
                assert_eq!(jobtree::settled_by_rules(&pos), Value::Unknown, "{pos:?}");
            }
            let results: Vec<JobResult> = ids
                .iter()
                .map(|&node| JobResult {
                    node,
                    outcome: JobOutcome::OutOfNodes,
                    nodes: 1,
                    seconds: 0.0,
                })
                .collect();
            tree.feed(&results, None).unwrap();
        }
        let verdict = tree.verdict().unwrap();
        let winner = if v > 0 {
            root.side
        } else {
            root.side.opponent()
        };
        assert_eq!(verdict.winner(), Some(winner), "{root:?}");
        assert!(verdict.plies().unwrap() >= v.unsigned_abs(), "{root:?}");
        // Every job was expanded; the leaves below them that the rules settled had none.
        assert_eq!(tree.totals.expanded, jobs as u64);
        let by_rules = (0..tree.nodes.len() as u32)
            .filter(|&i| {
                let n = &tree.nodes[i as usize];
                n.state == NodeState::Leaf
                    && n.job == jobtree::NONE
                    && n.value.known()
                    && tree.position(i).outcome().is_none()
            })
            .count();
        assert!(by_rules > 0, "{root:?}");
        // The proof is the tree's own records alone, the rules' winning moves among them.
        let out = layout.dir.join("whole.proof");
        let summary = tree.write_proof(&layout, &out).unwrap();
        let proof = Proof::<Piles>::read(&out).unwrap();
        assert_eq!((proof.root, proof.verdict), (root, verdict));
        assert_eq!(prover::check(&proof).unwrap().records, summary.records);
        // Without any one record of a position two plies or less from the end, no proof.
        let near_end: Vec<usize> = (0..proof.records.len())
            .filter(|&k| proof.records[k].bound <= 1)
            .collect();
        assert!(!near_end.is_empty(), "{root:?}");
        each_record_is_needed(&proof, near_end);
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_missing_or_damaged_tree_is_a_typed_error() {
    let base = std::env::temp_dir().join(format!("prover-piles-bad-{}", std::process::id()));
    let missing = Layout::new(&base.join("none"));
    assert!(matches!(
        jobtree::open::<Piles>(&missing),
        Err(TreeError::Missing { .. })
    ));
    let layout = Layout::new(&base.join("tree"));
    let root = Piles {
        piles: [5, 5],
        side: Side::First,
    };
    let tree = JobTree::new(root, 10, 1, String::new(), 0).unwrap();
    jobtree::create(&layout, &tree).unwrap();
    assert!(matches!(
        jobtree::create(&layout, &tree),
        Err(TreeError::Exists { .. })
    ));
    let mut bytes = std::fs::read(layout.tree()).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(layout.tree(), &bytes).unwrap();
    let e = jobtree::open::<Piles>(&layout).unwrap_err();
    assert!(matches!(e, TreeError::Damaged { .. }), "{e}");
    std::fs::write(layout.tree(), &bytes[..10]).unwrap();
    assert!(matches!(
        jobtree::open::<Piles>(&layout),
        Err(TreeError::Damaged { .. })
    ));
    // A proof before the root is settled is refused, not guessed.
    let finished = Piles {
        piles: [0, 0],
        side: Side::First,
    };
    assert!(matches!(
        JobTree::new(finished, 10, 1, String::new(), 0),
        Err(TreeError::GameOver(_))
    ));
    let e = tree
        .write_proof(&layout, &layout.dir.join("p.proof"))
        .unwrap_err();
    assert!(matches!(e, TreeError::Unsettled(_)), "{e}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// Runs a tree of `root` (jobs of `job_nodes` nodes and one run, so that a stopped job's
/// leaf is expanded at once) to the end, `batch` jobs at a time, its children seeded or
/// (`fresh`) not; the tree, checked by its proof, and the children seeded.
fn run_tree(
    root: Piles,
    job_nodes: u64,
    batch: usize,
    fresh: bool,
    dir: &str,
) -> (JobTree<Piles>, u64) {
    let base = std::env::temp_dir().join(format!("prover-piles-seed-{}", std::process::id()));
    let layout = Layout::new(&base.join(dir));
    let mut tree = JobTree::new(root, job_nodes, 1, String::new(), 0).unwrap();
    tree.fresh_children = fresh;
    jobtree::create(&layout, &tree).unwrap();
    let (mut rounds, mut seeded) = (0, 0);
    while tree.verdict().is_none() {
        rounds += 1;
        assert!(rounds < 2000, "{root:?} unsettled");
        let ids = tree.select(batch);
        let results = run_jobs(&tree, &layout, &ids);
        seeded += tree.feed(&results, Some(&layout)).unwrap().seeded;
    }
    // Read back from its file, the tree writes a proof that checks.
    let lock = quasar_file::OutputLock::acquire(&layout.tree()).unwrap();
    tree.save(&layout.tree(), &lock).unwrap();
    drop(lock);
    let (back, _lock) = jobtree::open::<Piles>(&layout).unwrap();
    assert_eq!(back.fresh_children, fresh);
    let out = layout.dir.join("whole.proof");
    let summary = back.write_proof(&layout, &out).unwrap();
    let proof = Proof::<Piles>::read(&out).unwrap();
    assert_eq!(proof.verdict, tree.verdict().unwrap());
    assert_eq!(prover::check(&proof).unwrap().records, summary.records);
    (tree, seeded)
}

#[test]
fn an_expanded_leafs_children_start_from_the_numbers_its_job_left() {
    let base = std::env::temp_dir().join(format!("prover-piles-seeds-{}", std::process::id()));
    let layout = Layout::new(&base.join("t"));
    let root = Piles {
        piles: [9, 8],
        side: Side::First,
    };
    // The root alone, one run of 40 nodes: it stops and is expanded.
    let mut tree = JobTree::new(root, 40, 1, String::new(), 0).unwrap();
    jobtree::create(&layout, &tree).unwrap();
    let ids = tree.select(1);
    assert_eq!(ids, [0]);
    let results = run_jobs(&tree, &layout, &ids);
    assert_eq!(results[0].outcome, JobOutcome::OutOfNodes);
    let saved = prover::Checkpoint::<Piles>::read(&layout.checkpoint(0))
        .unwrap()
        .unwrap();
    // df-pn had numbers for every child of the root; one of them it had solved.
    assert_eq!(saved.children.len(), 4);
    let fed = tree.feed(&results, Some(&layout)).unwrap();
    assert_eq!((fed.expanded, fed.children, fed.seeded), (1, 4, 4));
    let mut expected = Vec::new();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    for (k, mv) in moves.into_iter().enumerate() {
        let c = tree.nodes[0].first_child + k as u32;
        let mut child = root;
        child.play(mv);
        assert_eq!(tree.nodes[c as usize].key, child.raw_key());
        let left = saved
            .children
            .iter()
            .find(|r| r.key == child.raw_key())
            .unwrap();
        let seed = JobTree::<Piles>::seed_of(left.pn, left.dn);
        assert_eq!(tree.nodes[c as usize].seed, seed, "{child:?}");
        assert_ne!(seed, (1, 1), "{child:?}");
        expected.push(seed);
    }
    assert_eq!(
        fed.solved_seeds,
        expected
            .iter()
            .filter(|s| s.0 == jobtree::SOLVED_SEED || s.1 == jobtree::SOLVED_SEED)
            .count() as u64
    );
    // The root's numbers are its children's: the least disproof number, the proof
    // numbers summed.
    let pn = expected.iter().map(|s| s.1 as u64).min().unwrap();
    let dn = expected.iter().map(|s| s.0 as u64).sum::<u64>();
    assert_eq!(tree.root_numbers(), Some((pn, dn)));
    // Unseeded, the same children start at 1/1.
    let mut fresh = JobTree::new(root, 40, 1, String::new(), 0).unwrap();
    fresh.fresh_children = true;
    fresh.select(1);
    fresh.feed(&results, Some(&layout)).unwrap();
    assert_eq!(fresh.root_numbers(), Some((1, 4)));
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_seeded_tree_finds_the_winner_and_its_merged_proof_checks() {
    let mut memo = HashMap::new();
    for (piles, side) in [([7, 6], Side::First), ([8, 5], Side::Second)] {
        let root = Piles { piles, side };
        let v = minimax(&root, &mut memo);
        let winner = if v > 0 { side } else { side.opponent() };
        let name = format!("{}-{}", piles[0], piles[1]);
        let (tree, seeded) = run_tree(root, 20, 2, false, &name);
        assert_eq!(tree.verdict().unwrap().winner(), Some(winner), "{root:?}");
        assert!(tree.totals.expanded > 0 && seeded > 0, "{root:?}: {seeded}");
        // Afresh, the same winner, and no child seeded.
        let (tree, seeded) = run_tree(root, 20, 2, true, &format!("{name}-fresh"));
        assert_eq!(tree.verdict().unwrap().winner(), Some(winner), "{root:?}");
        assert!(
            tree.totals.expanded > 0 && seeded == 0,
            "{root:?}: {seeded}"
        );
    }
    let base = std::env::temp_dir().join(format!("prover-piles-seed-{}", std::process::id()));
    std::fs::remove_dir_all(&base).unwrap();
}

/// The winner of two piles by the Sprague-Grundy theorem: a pile of `n` has the value
/// `n mod 3` when a move takes one or two stones, and the mover wins when the values of
/// the piles differ.
fn grundy_winner(pos: &Piles) -> Side {
    if pos.piles[0] % 3 != pos.piles[1] % 3 {
        pos.side
    } else {
        pos.side.opponent()
    }
}

#[test]
fn a_winner_only_proof_stopped_in_its_search_resumes_searches_what_its_table_lost_and_checks() {
    let dir = std::env::temp_dir().join(format!("prover-piles-lost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, piles) in [[11, 7], [12, 9], [9, 9]].into_iter().enumerate() {
        let root = Piles {
            piles,
            side: Side::First,
        };
        let (path, checkpoint) = (
            dir.join(format!("{k}.proof")),
            dir.join(format!("{k}.ckpt")),
        );
        // A table of one bucket keeps almost nothing: the proof's writer searches again.
        let options = Options {
            table_bytes: 1,
            proof: Some(&path),
            checkpoint: Some(&checkpoint),
            winner_only: Some(prover::LOOSE_BOUND),
            ..Options::default()
        };
        let first = Options {
            stop_after: Some(50),
            ..options
        };
        match prover::solve(&Mirror, &root, &first, &Silent) {
            Err(SolveError::Stopped { .. }) => {}
            other => panic!("{piles:?}: {other:?}"),
        }
        let s = prover::solve(&Mirror, &root, &options, &Silent).unwrap();
        assert_eq!(s.winner, grundy_winner(&root), "{piles:?}");
        assert!(s.length_nodes > 0, "{piles:?}: nothing searched again");
        let proof = Proof::<Piles>::read(&path).unwrap();
        assert_eq!(proof.verdict.plies(), Some(s.plies));
        prover::check(&proof).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_winner_only_proof_interrupted_while_written_resumes_from_its_records_and_checks() {
    let dir = std::env::temp_dir().join(format!("prover-piles-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Raised from the start: the search reads it every 65,536 nodes, the proof's writer
    // every 64 positions, so each run writes some records and stops.
    let raised = std::sync::atomic::AtomicBool::new(true);
    for (k, piles) in [[40, 38], [31, 28]].into_iter().enumerate() {
        let root = Piles {
            piles,
            side: Side::Second,
        };
        let (path, checkpoint) = (
            dir.join(format!("{k}.proof")),
            dir.join(format!("{k}.ckpt")),
        );
        let options = Options {
            table_bytes: 1 << 20,
            proof: Some(&path),
            checkpoint: Some(&checkpoint),
            interrupt: Some(&raised),
            winner_only: Some(prover::LOOSE_BOUND),
            ..Options::default()
        };
        let mut stops_in_proof = 0;
        let s = loop {
            match prover::solve(&Mirror, &root, &options, &Silent) {
                Ok(s) => break s,
                Err(SolveError::Interrupted { .. }) => {
                    assert!(stops_in_proof < 1000, "{piles:?}: no end");
                    stops_in_proof += prover::proof_writer::scratch_folder(&path).exists() as u32;
                }
                Err(e) => panic!("{piles:?}: {e}"),
            }
        };
        assert!(
            stops_in_proof >= 2,
            "{piles:?}: {stops_in_proof} stops in the proof"
        );
        assert_eq!(s.winner, grundy_winner(&root), "{piles:?}");
        let proof = Proof::<Piles>::read(&path).unwrap();
        assert_eq!(proof.verdict.plies(), Some(s.plies));
        prover::check(&proof).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
