//! The one `quasar solve` of every game, over the prover: the winner (or a draw), the
//! exact length, the line and the proof, or one length bound (`--within`), the root's
//! moves (`--list-children`), a job's piece of the proof (`--shard`) and their merge
//! (`--merge`), or a `--check`. A game gives only its root, its table and its defaults
//! ([`SolveGame`]).

use super::{handle_stop, print_costs, stopped, Interrupt};
use crate::cli::output::{length_text, print_json};
use crate::cli::CliResult;
use prover::draws::{Value, Valued};
use prover::{Instance, Options, ProofFile, ProofSummary, ProverPosition, SolveError};
use quasar_cli::progress::Bars;
use quasar_cli::{SolveGame, SolveOptions as Args, SolvePos};
use quasar_core::measure::peak_memory_kib;
use quasar_core::{Game, Outcome, Shard, Side};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs `quasar solve` for the game `S` (the options it does not take refused before).
pub(crate) fn run<S: SolveGame>(args: &Args) -> CliResult {
    if let (false, Some(out)) = (args.merge.is_empty(), &args.proof) {
        return merge::<SolvePos<S>>(&args.merge, out);
    }
    if args.shard.is_some() && args.check.is_none() && args.proof.is_none() {
        return Err("--shard I/N names a job's share of a --check or of a --out proof".into());
    }
    if let Some(file) = &args.check {
        return check::<S>(file, args);
    }
    if let Some(dir) = &args.tree {
        return super::tree::run::<SolvePos<S>>(args, S::NAME, dir, || S::solve_root(args));
    }
    let root = S::solve_root(args)?;
    if let Some(o) = root.outcome() {
        return Err(format!(
            "{}: the game is over, {}, so there is {}",
            root.position_text(),
            match o {
                Outcome::Win(w) => format!("{} has won", SolvePos::<S>::side_name(w)),
                Outcome::Draw => "a draw".into(),
            },
            if args.list_children {
                "no move to list"
            } else {
                "nothing to solve"
            }
        )
        .into());
    }
    let inst = S::prover(&root);
    if args.list_children {
        // A table only when given: the moves are listed at once, never after a build.
        let tb = match args.tb {
            Some(_) => S::solve_table(args, &root)?.0,
            None => None,
        };
        return list_children(&inst, &root, tb.as_ref());
    }
    let memory = args.memory.unwrap_or_else(|| S::solve_memory_mib(&root));
    if let Some(free) = available_mib() {
        if memory > free {
            eprintln!(
                "warning: --memory {memory} MiB is more than the {free} MiB this machine has \
                 free now; the system may kill the search when the table fills"
            );
        }
    }
    // Before hours of search, not after them.
    if let Some(path) = &args.proof {
        quasar_cli::paths::writable(path, "--out")?;
    }
    if let Some(path) = &args.checkpoint {
        quasar_cli::paths::writable(path, "--checkpoint")?;
    }
    // Installed before the table is built: a signal during the build stops the search at
    // its first look at the flag.
    let interrupt = Interrupt::install()?;
    let (tb, table_text) = S::solve_table(args, &root)?;
    let options = Options {
        tablebase: tb.as_ref(),
        table_bytes: usize::try_from(memory << 20)
            .map_err(|_| format!("--memory {memory} MiB does not fit this machine's addresses"))?,
        proof: args.proof.as_deref(),
        proof_shard: args.shard.unwrap_or(Shard::WHOLE),
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: std::time::Duration::from_secs(args.checkpoint_every),
        stop_after: args.stop_after,
        length_pn_from: args
            .length_pn_from
            .unwrap_or_else(|| S::length_pn_from(&root)),
        interrupt: Some(&interrupt.raised),
        winner_only: args
            .winner_only
            .map(|bound| bound.unwrap_or(prover::LOOSE_BOUND)),
        ..Options::default()
    };
    let bars = Bars::new(!args.quiet);
    let answer = Answer::<S> {
        root,
        table: table_text,
        args,
    };
    if let Some(plies) = args.within {
        let result = match S::MAY_DRAW {
            true => prover::test_bound_with_draws(&inst, &root, &options, plies, &bars),
            false => prover::test_bound(&inst, &root, &options, plies, &bars).map(|t| {
                let valued = valued_of(t.winner, t.winner_nodes, t.winner_seconds);
                (valued, Some(t))
            }),
        };
        return match handle_stop(result, &bars, &interrupt, None) {
            Err(SolveError::Stopped { nodes, saved }) => answer.stopped(nodes, saved),
            other => {
                let (valued, test) = other?;
                answer.within(plies, &valued, test.as_ref())
            }
        };
    }
    let result = match S::MAY_DRAW {
        true => prover::solve_with_draws(&inst, &root, &options, &bars),
        false => prover::solve(&inst, &root, &options, &bars).map(|s| prover::Drawn {
            valued: valued_of(s.winner, s.winner_nodes, s.winner_seconds),
            win: Some(s),
            draw_proof: None,
        }),
    };
    match handle_stop(result, &bars, &interrupt, args.proof.as_deref()) {
        Err(SolveError::Stopped { nodes, saved }) => answer.stopped(nodes, saved),
        other => answer.solved(&other?),
    }
}

/// The value of a game without draws, as df-pn found it: `winner`, in `nodes` and
/// `seconds` (counted as the first side's search).
fn valued_of(winner: Side, nodes: u64, seconds: f64) -> Valued {
    Valued {
        value: Value::Win(winner),
        nodes: [nodes, 0],
        seconds,
        outright: false,
    }
}

/// What the answers of a search of `root` print, the game's and the table's names.
struct Answer<'a, S: SolveGame> {
    root: SolvePos<S>,
    table: String,
    args: &'a Args,
}

impl<S: SolveGame> Answer<'_, S> {
    /// The keys every JSON answer starts with: the game, its own (the board), the position.
    fn json(&self) -> serde_json::Value {
        let mut keys = serde_json::Map::new();
        keys.insert("game".into(), S::NAME.into());
        keys.extend(S::json_keys(&self.root));
        keys.insert("position".into(), self.root.position_text().into());
        serde_json::Value::Object(keys)
    }

    /// The JSON answer with the table and `rest`'s keys.
    fn json_with(&self, rest: serde_json::Value) -> serde_json::Value {
        let mut answer = self.json();
        answer["table"] = self.table.clone().into();
        if let (Some(all), serde_json::Value::Object(more)) = (answer.as_object_mut(), rest) {
            all.extend(more);
        }
        answer
    }

    /// A side's name.
    fn side(s: Side) -> &'static str {
        SolvePos::<S>::side_name(s)
    }

    /// Whether `winner` is the side to move, in words.
    fn mover_text(&self, winner: Side) -> &'static str {
        if winner == self.root.side_to_move() {
            "the side to move"
        } else {
            "the side not to move"
        }
    }

    /// The value's name: the winner's, or `draw`.
    fn value_name(value: Value) -> &'static str {
        match value {
            Value::Win(w) => Self::side(w),
            Value::Draw => "draw",
        }
    }

    /// The first two lines of a text answer.
    fn print_head(&self) {
        println!("position: {}", self.root.position_text());
        println!("table: {}", self.table);
    }

    /// A draw's value and what finding it cost.
    fn print_draw(&self, valued: &Valued, tail: &str) {
        let first = Self::side(Side::First);
        let second = Self::side(Side::Second);
        println!("value: a draw (neither {first} nor {second} can force a win){tail}");
        let nodes = valued.nodes[0] + valued.nodes[1];
        if valued.outright {
            println!("nodes: {nodes} (every position reachable, valued outright)");
        } else {
            println!(
                "nodes: {} ({first} cannot win) + {} ({second} cannot win) = {nodes}",
                valued.nodes[0], valued.nodes[1]
            );
        }
        println!("time: {:.3} s", valued.seconds);
    }

    /// How the winner was found, for the costs' line.
    fn how(valued: &Valued) -> &'static str {
        match valued.outright {
            true => "positions valued outright",
            false => "df-pn",
        }
    }

    /// The answer of a search that `--stop-after` stopped.
    fn stopped(&self, nodes: u64, saved: Option<PathBuf>) -> CliResult {
        stopped(self.json(), nodes, saved.as_deref(), self.args.json)
    }

    /// The answer of `--within plies`: the bound `test` answered, or a draw.
    fn within(&self, plies: u32, valued: &Valued, test: Option<&prover::BoundTest>) -> CliResult {
        if self.args.json {
            let nodes = valued.nodes[0] + valued.nodes[1];
            return print_json(&self.json_with(serde_json::json!({
                "value": Self::value_name(valued.value),
                "winner": test.map(|t| Self::side(t.winner)),
                "winner_to_move": test.map(|t| t.winner == self.root.side_to_move()),
                "within": plies,
                "holds": test.is_some_and(|t| t.holds),
                "nodes": test.map_or(nodes, |t| t.winner_nodes + t.length_nodes),
                "seconds": test.map_or(valued.seconds, |t| t.winner_seconds + t.length_seconds),
            })));
        }
        self.print_head();
        let Some(t) = test else {
            self.print_draw(valued, &format!("; no side wins within {plies} plies"));
            return Ok(());
        };
        println!(
            "winner: {} ({}); wins within {plies} plies: {}",
            Self::side(t.winner),
            self.mover_text(t.winner),
            if t.holds {
                "yes"
            } else {
                "no (perfect play lasts longer)"
            }
        );
        print_costs(
            (t.winner_nodes, t.length_nodes),
            (t.winner_seconds, t.length_seconds),
            Self::how(valued),
            "bound",
        );
        Ok(())
    }

    /// What the proof line calls the file written: a proof, or one job's piece.
    fn proof_what(&self) -> String {
        match self.args.shard {
            Some(shard) if shard != Shard::WHOLE => {
                format!("proof piece {shard} (not a whole proof: --merge every piece)")
            }
            _ => "proof".to_string(),
        }
    }

    /// The JSON of a proof written.
    fn proof_json(&self, p: &ProofSummary) -> serde_json::Value {
        serde_json::json!({
            "file": p.path.display().to_string(),
            "records": p.records,
            "claims": p.claims,
            "bytes": p.bytes,
            "whole": self.args.shard.is_none_or(|sh| sh == Shard::WHOLE),
        })
    }

    /// The answer of a solve: a win with its length, line and proof, or a draw.
    fn solved(&self, drawn: &prover::Drawn<SolvePos<S>>) -> CliResult {
        let valued = &drawn.valued;
        let solution = drawn.win.as_ref();
        let mut line = Vec::new();
        if let Some(s) = solution {
            let mut pos = self.root;
            for &mv in &s.line {
                line.push(pos.move_text(mv));
                pos.play(mv);
            }
        }
        let proof = solution
            .and_then(|s| s.proof.as_ref())
            .or(drawn.draw_proof.as_ref());
        if self.args.json {
            let nodes = valued.nodes[0] + valued.nodes[1];
            return print_json(&self.json_with(serde_json::json!({
                "value": Self::value_name(valued.value),
                "winner": solution.map(|s| Self::side(s.winner)),
                "winner_to_move": solution.map(|s| s.winner == self.root.side_to_move()),
                "plies": solution.map(|s| s.plies),
                "plies_exact": solution.map(|s| s.plies_exact),
                "line": line,
                "nodes": solution.map_or(nodes, |s| s.winner_nodes + s.length_nodes),
                "seconds": solution.map_or(valued.seconds, |s| s.winner_seconds + s.length_seconds),
                "proof": proof.map(|p| self.proof_json(p)),
            })));
        }
        self.print_head();
        let Some(s) = solution else {
            self.print_draw(valued, "");
            if let Some(p) = proof {
                println!(
                    "{}: {} ({} records: each side's moves that keep the other from winning, {} bytes)",
                    self.proof_what(),
                    p.path.display(),
                    p.records,
                    p.bytes
                );
            }
            return Ok(());
        };
        if s.plies_exact {
            println!(
                "winner: {} ({}); perfect play lasts {}{}",
                Self::side(s.winner),
                self.mover_text(s.winner),
                length_text(s.plies, true).trim_start_matches("in "),
                S::to_leaves(self.args)
            );
        } else {
            println!(
                "winner: {} ({}); wins within {} plies (the proof's bound, not the exact length)",
                Self::side(s.winner),
                self.mover_text(s.winner),
                s.plies
            );
        }
        if !line.is_empty() {
            println!("principal line: {}", line.join(" "));
        }
        print_costs(
            (s.winner_nodes, s.length_nodes),
            (s.winner_seconds, s.length_seconds),
            Self::how(valued),
            // Without the exact length, what follows the winner's search settles the
            // proof's bound.
            if s.plies_exact { "length" } else { "bound" },
        );
        if let Some(p) = &s.proof {
            let resumed = match p.resumed {
                0 => String::new(),
                n => format!(", resuming {n} records an earlier run had written"),
            };
            println!(
                "{}: {} ({} records, {} table claims, {} bytes, written in {:.3} s{resumed}; set of written positions {} MiB)",
                self.proof_what(),
                p.path.display(),
                p.records,
                p.claims,
                p.bytes,
                s.proof_seconds,
                p.seen_bytes >> 20
            );
        }
        Ok(())
    }
}

/// `--list-children`: a line per move of `root`, `MOVE<TAB>POSITION<TAB>VALUE`, one of
/// each set of moves whose positions share a key (mirror images: one answer). The value
/// is the move's for the side that makes it, where known without a search: `wins at
/// once`, `loses at once` or `draws at once` where the game ends, `wins`, `loses` or
/// `draws` where the table `tb` holds the position, else `unknown` (a job's to solve).
fn list_children<I: Instance>(inst: &I, root: &I::Pos, tb: Option<&I::Table>) -> CliResult {
    let me = root.side_to_move();
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut seen = Vec::new();
    for mv in moves {
        let mut child = *root;
        child.play(mv);
        let key = inst.key(&child);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let value = match child.outcome() {
            Some(Outcome::Win(w)) if w == me => "wins at once",
            Some(Outcome::Win(_)) => "loses at once",
            Some(Outcome::Draw) => "draws at once",
            // The table's result is for the child's side to move, the mover's opponent.
            None => match inst.table_result(tb, &child) {
                Some(quasar_core::GameResult::Win) => "loses",
                Some(quasar_core::GameResult::Loss) => "wins",
                Some(quasar_core::GameResult::Draw) => "draws",
                None => "unknown",
            },
        };
        println!("{}\t{}\t{value}", root.move_text(mv), child.position_text());
    }
    Ok(())
}

/// `--merge PIECE... --out OUT`: the pieces of one proof of the game of `P`.
fn merge<P: ProverPosition>(pieces: &[PathBuf], out: &Path) -> CliResult {
    quasar_cli::paths::writable(out, "--out")?;
    let t = Instant::now();
    let s = prover::merge::<P>(pieces, out)?;
    println!(
        "proof: {} ({} records, {} table claims, {} bytes, merged from {} pieces in {:.3} s); check it with quasar solve --check {}",
        s.path.display(),
        s.records,
        s.claims,
        s.bytes,
        pieces.len(),
        t.elapsed().as_secs_f64(),
        s.path.display()
    );
    Ok(())
}

/// `--check FILE [--threads N] [--shard I/N]`: replays the proof with the rules alone,
/// once the game has given its root what the rules need beyond the file.
fn check<S: SolveGame>(file: &Path, args: &Args) -> CliResult {
    let t = Instant::now();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let proof = ProofFile::open(file)?;
    let mut view = proof.view::<SolvePos<S>>()?;
    view.root = S::check_root(args, file, view.root)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    let bars = Bars::new(!args.quiet);
    let r = pool.install(|| prover::check_shard(&view, shard, &bars))?;
    bars.finish();
    if args.json {
        return print_json(&serde_json::json!({
            "game": S::NAME,
            "proof": file.display().to_string(),
            "position": view.root.position_text(),
            "value": match view.verdict {
                prover::Verdict::Win { winner, .. } => SolvePos::<S>::side_name(winner),
                prover::Verdict::Draw => "draw",
            },
            "winner": view.verdict.winner().map(SolvePos::<S>::side_name),
            "plies": view.verdict.plies(),
            "plies_exact": false,
            "shard": shard.to_string(),
            "whole": shard.count() == 1,
            "records": r.records,
            "claims": r.claims,
            "claim_nodes": r.claim_nodes,
            "seconds": t.elapsed().as_secs_f64(),
        }));
    }
    let what = match shard.count() {
        1 => "proof checked".to_string(),
        n => format!("proof shard {shard} checked (the proof holds when all {n} shards pass)"),
    };
    let threads = pool.current_num_threads();
    println!(
        "{what}: {} ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s on {threads} thread{})",
        view.verdict.text(&view.root),
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64(),
        if threads == 1 { "" } else { "s" }
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    Ok(())
}

/// The memory the system could give now without swapping (Linux's MemAvailable), in MiB.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib >> 10)
}
