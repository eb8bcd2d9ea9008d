//! `quasar solve --tree DIR init|next|feed|status|proof`: a job-level proof search. The
//! master tree lives in DIR (`prover::jobtree`); `next` writes one shell line per job to
//! `DIR/jobs.txt` (a plain `quasar solve` of a leaf with its own proof and checkpoint
//! files, its JSON answer renamed into place only when complete), GNU parallel or a Slurm
//! array runs them, and `feed` reads their answers back (a job that stopped runs again
//! from its checkpoint, until its leaf is expanded). No process of ours talks to another:
//! every step reads and writes files, so any of them may be killed and run again.

use crate::cli::CliResult;
use prover::jobtree::{self, JobOutcome, JobResult, JobTree, Layout, NodeState, TreeError};
use prover::ProverPosition;
use quasar_cli::SolveOptions as Args;
pub use quasar_cli::TreeAction;
use quasar_core::Side;
use quasar_file::OutputLock;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Nodes a job searches unless `--job-nodes` says: about 10 to 30 s of one core on
/// Breakthrough, so a killed job loses little and a batch's jobs end close together.
const DEFAULT_JOB_NODES: u64 = 20_000_000;

/// Runs a leaf's job gets unless `--job-runs` says: 1 + 2 + 4 + 8 = 15 times `--job-nodes`
/// before the leaf is expanded.
const DEFAULT_JOB_RUNS: u64 = 4;

/// Jobs `next` issues unless `--jobs` says: two per core of this machine, so that GNU
/// parallel keeps every core busy while the batch's last jobs end.
fn default_jobs() -> usize {
    2 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Seconds since the Unix epoch.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `text` quoted for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Runs `--tree DIR ACTION` for positions of `P` of the game `game` (its `--game` name);
/// `root` gives the position `init` starts from.
pub(crate) fn run<P: ProverPosition>(
    args: &Args,
    game: &str,
    dir: &Path,
    root: impl FnOnce() -> Result<P, Box<dyn std::error::Error>>,
) -> CliResult {
    let layout = Layout::new(dir);
    let action = args
        .tree_action
        .ok_or("--tree DIR needs an action: init, next, feed, status or proof")?;
    if action != TreeAction::Init {
        for (given, flag) in [
            (args.board.is_some(), "--board"),
            (args.position.is_some(), "--position"),
            (args.memory.is_some(), "--memory"),
            (args.tb.is_some(), "--tb"),
            (args.tb_rows.is_some(), "--tb-rows"),
            (args.no_tb, "--no-tb"),
            (args.length_pn_from.is_some(), "--length-pn-from"),
            (args.job_nodes.is_some(), "--job-nodes"),
            (args.job_runs.is_some(), "--job-runs"),
            (args.expand_plies.is_some(), "--expand-plies"),
            (args.fresh_children, "--fresh-children"),
        ] {
            if given {
                return Err(format!(
                    "{flag} goes with `--tree DIR init`: the tree keeps the options it was \
                     started with"
                )
                .into());
            }
        }
    }
    if args.jobs.is_some() && action != TreeAction::Next {
        return Err("--jobs goes with `--tree DIR next`".into());
    }
    if args.proof.is_some() != (action == TreeAction::Proof) {
        return Err("--out FILE goes with `--tree DIR proof` (and that needs it)".into());
    }
    match action {
        TreeAction::Init => init::<P>(args, &layout, root()?),
        TreeAction::Next => next::<P>(args, game, &layout),
        TreeAction::Feed => feed::<P>(&layout),
        TreeAction::Status => {
            let (tree, _lock) = jobtree::open::<P>(&layout)?;
            print_status(&tree, &layout);
            Ok(())
        }
        TreeAction::Proof => proof::<P>(&layout, args.proof.as_deref().expect("checked")),
    }
}

/// `init`: a tree of `root` alone, expanded `--expand-plies` plies, with the options
/// every job is run with.
fn init<P: ProverPosition>(args: &Args, layout: &Layout, root: P) -> CliResult {
    let mut options = Vec::new();
    if let Some(m) = args.memory {
        options.push(format!("--memory {m}"));
    }
    if let Some(tb) = &args.tb {
        // Jobs run elsewhere (another folder, another machine of a shared file system).
        let tb = std::fs::canonicalize(tb).map_err(|e| format!("--tb {}: {e}", tb.display()))?;
        options.push(format!("--tb {}", quote(&tb.display().to_string())));
    }
    if let Some(rows) = args.tb_rows {
        options.push(format!("--tb-rows {rows}"));
    }
    if args.no_tb {
        options.push("--no-tb".into());
    }
    if let Some(k) = args.length_pn_from {
        options.push(format!("--length-pn-from {k}"));
    }
    let job_nodes = args.job_nodes.unwrap_or(DEFAULT_JOB_NODES);
    let job_runs = args.job_runs.unwrap_or(DEFAULT_JOB_RUNS);
    let mut tree = JobTree::new(root, job_nodes, job_runs, options.join(" "), now())?;
    tree.fresh_children = args.fresh_children;
    tree.expand_to(args.expand_plies.unwrap_or(1))?;
    jobtree::create(layout, &tree)?;
    let c = tree.counts();
    println!(
        "job tree {} of {}: {} leaves ({} positions up to the mirror), jobs of {job_nodes} \
         nodes and up to {job_runs} runs; go on with `quasar solve --tree {} next`",
        layout.dir.display(),
        root.position_text(),
        c.open,
        tree.open_positions(),
        layout.dir.display()
    );
    Ok(())
}

/// The job file of `layout`: one shell line per job.
fn jobs_file(layout: &Layout) -> std::path::PathBuf {
    layout.dir.join("jobs.txt")
}

/// `next`: the jobs issued before whose answers are missing (killed, never run, or to run
/// again from their checkpoints), then the most-proving leaves, up to `--jobs`, written to
/// DIR/jobs.txt.
fn next<P: ProverPosition>(args: &Args, game: &str, layout: &Layout) -> CliResult {
    let (mut tree, lock) = jobtree::open::<P>(layout)?;
    let jobs = args.jobs.map_or_else(default_jobs, |n| n as usize);
    let mut ids: Vec<u32> = tree
        .running()
        .into_iter()
        .filter(|&i| !layout.result(i).exists())
        .collect();
    let again = ids.len();
    let waiting = tree.running().len() - again;
    let fresh = tree.select(jobs.saturating_sub(ids.len() + waiting));
    ids.extend(&fresh);
    tree.save(&layout.tree(), &lock)?;
    // The job lines name absolute paths: GNU parallel or Slurm may run them elsewhere.
    let exe = std::env::current_exe().map_err(|e| format!("cannot find quasar itself: {e}"))?;
    let jobs_dir = std::fs::canonicalize(layout.jobs())
        .map_err(|e| format!("{}: {e}", layout.jobs().display()))?;
    let abs = Layout::new(jobs_dir.parent().expect("the jobs folder is in the tree's"));
    let mut text = String::new();
    for &i in &ids {
        let pos = tree.position(i);
        let (proof, out, result) = (abs.proof(i), abs.output(i), abs.result(i));
        let q = |p: &Path| quote(&p.display().to_string());
        text.push_str(&format!(
            "{} solve --game {game} --position {} {} --stop-after {} --checkpoint {} \
             --winner-only --quiet --json --out {} > {} && mv {} {}\n",
            quote(&exe.display().to_string()),
            quote(&pos.position_text()),
            tree.note,
            tree.run_nodes(i),
            q(&abs.checkpoint(i)),
            q(&proof),
            q(&out),
            q(&out),
            q(&result),
        ));
    }
    let path = jobs_file(layout);
    let jobs_lock = OutputLock::acquire(&path)?;
    quasar_file::write_with(&path, &jobs_lock, |f| {
        std::io::Write::write_all(f, text.as_bytes())
    })?;
    if let Some(v) = tree.verdict() {
        println!(
            "the root is settled ({}): no jobs; write the proof with `quasar solve --tree {} \
             proof --out FILE`",
            v.text(&tree.root),
            layout.dir.display()
        );
        return Ok(());
    }
    println!(
        "{} jobs in {} ({again} issued again, {} new{}); run them, e.g. `parallel -j N < {}`, \
         then `quasar solve --tree {} feed`",
        ids.len(),
        path.display(),
        fresh.len(),
        match waiting {
            0 => String::new(),
            n => format!(", {n} finished to feed"),
        },
        path.display(),
        layout.dir.display()
    );
    Ok(())
}

/// A finished job's answer from its result file (its position's side to move `mover`);
/// `None` while it has none.
fn read_result(layout: &Layout, node: u32, mover: Side) -> Result<Option<JobResult>, TreeError> {
    let bad = |msg: String| TreeError::BadResult { node, msg };
    let path = layout.result(node);
    let text = match quasar_file::read_to_string(&path, 1 << 20, "job result") {
        Ok(t) => t,
        Err(e) if e.is_not_found() => {
            // A job that failed leaves its answer, an error, under the output's name.
            let out = layout.output(node);
            if let Ok(t) = std::fs::read_to_string(&out) {
                if let Some(msg) = serde_json::from_str::<serde_json::Value>(&t)
                    .ok()
                    .and_then(|v| v["error"].as_str().map(str::to_string))
                {
                    return Err(bad(format!(
                        "it failed: {msg} ({}); fix the cause, remove the file and run \
                         `next` again",
                        out.display()
                    )));
                }
            }
            return Ok(None);
        }
        Err(e) => return Err(e.into()),
    };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        bad(format!(
            "{} is no solve answer ({e}); remove it and run `next` again",
            path.display()
        ))
    })?;
    let nodes = v["nodes"].as_u64().unwrap_or(0);
    if v["stopped"].as_bool() == Some(true) {
        return Ok(Some(JobResult {
            node,
            outcome: JobOutcome::OutOfNodes,
            nodes,
            seconds: 0.0,
        }));
    }
    let (Some(to_move), Some(plies)) = (v["winner_to_move"].as_bool(), v["plies"].as_u64()) else {
        return Err(bad(format!(
            "{} names no winner and length (a draw, or not a solve's answer): the job tree \
             proves wins only",
            path.display()
        )));
    };
    Ok(Some(JobResult {
        node,
        outcome: JobOutcome::Solved {
            winner: if to_move { mover } else { mover.opponent() },
            plies: plies.min(u32::MAX as u64) as u32,
        },
        nodes,
        seconds: v["seconds"].as_f64().unwrap_or(0.0),
    }))
}

/// `feed`: every running job's answer that is there, then the progress.
fn feed<P: ProverPosition>(layout: &Layout) -> CliResult {
    let (mut tree, lock) = jobtree::open::<P>(layout)?;
    let mut results = Vec::new();
    for i in tree.running() {
        // The answer says whether the side to move wins; the tree knows which side that is.
        let mover = tree.position(i).side_to_move();
        if let Some(r) = read_result(layout, i, mover)? {
            results.push(r);
        }
    }
    // The checkpoints of the leaves it expands are read here, before they are removed.
    let fed = tree.feed(&results, Some(layout))?;
    // A job that runs again loses its answer first, so that `next` issues it; a crash
    // before the tree is saved issues that run once more, with the nodes it had.
    for r in &results {
        let n = &tree.nodes[r.node as usize];
        if n.state == NodeState::Running && n.job == r.node {
            remove(&layout.result(r.node))?;
        }
    }
    tree.save(&layout.tree(), &lock)?;
    // An expanded job's files are of no more use (a solved one's proof is kept for the
    // final proof, its checkpoint is not).
    for r in &results {
        if tree.nodes[r.node as usize].state == NodeState::Expanded {
            remove(&layout.result(r.node))?;
            remove(&layout.proof(r.node))?;
            let _ = std::fs::remove_dir_all(prover::proof_writer::scratch_folder(
                &layout.proof(r.node),
            ));
        }
    }
    let removed = remove_stale_checkpoints(&tree, layout)?;
    println!(
        "fed {} answers: {} leaves solved, {} run again from their checkpoints, {} expanded \
         into {} children ({} starting from their parent's job's numbers, {} of them solved \
         there); {removed} checkpoints of settled or expanded leaves removed",
        results.len(),
        fed.solved,
        fed.reissued,
        fed.expanded,
        fed.children,
        fed.seeded,
        fed.solved_seeds
    );
    print_status(&tree, layout);
    Ok(())
}

/// Removes `path` unless it is gone already.
fn remove(path: &Path) -> Result<(), quasar_file::FileError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(quasar_file::FileError::io(path, e))
        }
        _ => Ok(()),
    }
}

/// Removes every checkpoint in the jobs' folder whose node's own job is not running any
/// more (its leaf settled or expanded, by its job or by another), unless a job holds it
/// now; returns how many.
fn remove_stale_checkpoints<P: ProverPosition>(
    tree: &JobTree<P>,
    layout: &Layout,
) -> Result<u64, TreeError> {
    let dir = layout.jobs();
    let io = |e| TreeError::File(quasar_file::FileError::io(&dir, e));
    let mut removed = 0;
    for entry in std::fs::read_dir(&dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let Some(i) = entry.file_name().to_str().and_then(Layout::checkpoint_node) else {
            continue;
        };
        let running = tree
            .nodes
            .get(i as usize)
            .is_some_and(|n| n.state == NodeState::Running && n.job == i);
        if running {
            continue;
        }
        // A job still writing it (run by hand, or by a tree of the same folder) keeps it.
        let Ok(_lock) = OutputLock::acquire(&layout.checkpoint(i)) else {
            continue;
        };
        remove(&layout.checkpoint(i))?;
        removed += 1;
    }
    Ok(removed)
}

/// The tree's progress: its nodes, the jobs fed back with their rates, the root.
fn print_status<P: ProverPosition>(tree: &JobTree<P>, layout: &Layout) {
    let c = tree.counts();
    let t = &tree.totals;
    let wall = now().saturating_sub(t.started).max(1);
    let jobs = t.solved + t.expanded + t.reissued;
    println!(
        "tree {} of {}: {} nodes ({} won and {} lost for their side to move, {} open, {} \
         running, {} inner)",
        layout.dir.display(),
        tree.root.position_text(),
        c.nodes,
        c.won,
        c.lost,
        c.open,
        c.running,
        c.inner
    );
    println!(
        "jobs: {jobs} runs fed ({} solved, {} stopped and run again with twice the nodes, {} \
         stopped in their last run and expanded) of {} nodes at first, up to {} runs; {} \
         nodes in all; {wall} s since init: {:.1} runs/h, {:.0} nodes/s",
        t.solved,
        t.reissued,
        t.expanded,
        t.job_nodes,
        t.job_runs,
        t.nodes,
        jobs as f64 * 3600.0 / wall as f64,
        t.nodes as f64 / wall as f64
    );
    match (tree.verdict(), tree.root_numbers()) {
        (Some(v), _) => println!(
            "root settled: {}; write the proof with `quasar solve --tree {} proof --out FILE`",
            v.text(&tree.root),
            layout.dir.display()
        ),
        (None, Some((pn, dn))) => {
            println!("root: proof/disproof numbers {pn}/{dn} (for the side to move)")
        }
        (None, None) => {}
    }
}

/// `proof --out FILE`: the settled root's proof, merged from the tree and its jobs.
fn proof<P: ProverPosition>(layout: &Layout, out: &Path) -> CliResult {
    quasar_cli::paths::writable(out, "--out")?;
    let (tree, _lock) = jobtree::open::<P>(layout)?;
    let t = std::time::Instant::now();
    let s = tree.write_proof(layout, out)?;
    println!(
        "proof: {} ({}; {} records, {} table claims, {} bytes, merged in {:.3} s); check it \
         with quasar solve --check {}",
        s.path.display(),
        tree.verdict()
            .expect("a proof was written")
            .text(&tree.root),
        s.records,
        s.claims,
        s.bytes,
        t.elapsed().as_secs_f64(),
        s.path.display()
    );
    Ok(())
}
