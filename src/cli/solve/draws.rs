//! `quasar solve` for the games that may draw or cycle, over the generic prover: the value
//! (a win or a draw) as two searches, then a win's exact length, line and proof; `--check`
//! of their proofs. Each game's registration gives the root, its table and its name.

use super::{handle_stop, print_costs, stopped, Args, Interrupt};
use crate::cli::output::{length_text, print_json};
use crate::cli::CliResult;
use crate::progress::Bars;
use prover::draws::Value;
use prover::{Instance, Options, ProofFile, ProverPosition};
use quasar_core::{Game, Shard};
use std::path::Path;
use std::time::Instant;

/// Solves `root` with `tb` as leaves and prints the answer; `to_leaves` ends the sentence
/// of a win's length where the game's leaves end it (" to a position of the databases").
pub(crate) fn solve<I: Instance>(
    inst: &I,
    root: &I::Pos,
    tb: Option<&I::Table>,
    args: &Args,
    game: &str,
    to_leaves: &str,
) -> CliResult {
    if let Some(o) = root.outcome() {
        let how = match o {
            quasar_core::Outcome::Win(w) => format!("{} has won", I::Pos::side_name(w)),
            quasar_core::Outcome::Draw => "a draw".into(),
        };
        return Err(format!(
            "{}: the game is over ({how}), so there is nothing to solve",
            root.position_text()
        )
        .into());
    }
    if let Some(path) = &args.proof {
        crate::cli::paths::writable(path, "--out")?;
    }
    if let Some(path) = &args.checkpoint {
        crate::cli::paths::writable(path, "--checkpoint")?;
    }
    let interrupt = Interrupt::install()?;
    let table_text = match &args.tb {
        Some(path) => path.display().to_string(),
        None => "none".to_string(),
    };
    let options = Options {
        tablebase: tb,
        table_bytes: usize::try_from(args.memory.unwrap_or(512) << 20).map_err(|_| {
            format!(
                "--memory {} MiB does not fit this machine",
                args.memory.unwrap_or(512)
            )
        })?,
        proof: args.proof.as_deref(),
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: std::time::Duration::from_secs(args.checkpoint_every),
        stop_after: args.stop_after,
        interrupt: Some(&interrupt.raised),
        ..Options::default()
    };
    let bars = Bars::new(!args.quiet);
    let result = prover::solve_with_draws(inst, root, &options, &bars);
    let drawn = match handle_stop(result, &bars, &interrupt, args.proof.as_deref()) {
        Err(prover::SolveError::Stopped { nodes, saved }) => {
            let answer = serde_json::json!({"game": game, "position": root.position_text()});
            return stopped(answer, nodes, saved.as_deref(), args.json);
        }
        other => other?,
    };
    let prover::Drawn {
        valued,
        win: solution,
        draw_proof,
    } = drawn;
    let side = |s| I::Pos::side_name(s);
    let proof_summary = solution
        .as_ref()
        .and_then(|s| s.proof.as_ref())
        .or(draw_proof.as_ref());
    let mut text = Vec::new();
    if let Some(s) = &solution {
        let mut pos = *root;
        for &mv in &s.line {
            text.push(pos.move_text(mv));
            pos.play(mv);
        }
    }
    let nodes = valued.nodes[0] + valued.nodes[1];
    if args.json {
        return print_json(&serde_json::json!({
            "game": game,
            "position": root.position_text(),
            "table": table_text,
            "value": match valued.value {
                Value::Win(w) => side(w),
                Value::Draw => "draw",
            },
            "winner_to_move": solution.as_ref().map(|s| s.winner == root.side_to_move()),
            "plies": solution.as_ref().map(|s| s.plies),
            "line": text,
            "nodes": nodes + solution.as_ref().map_or(0, |s| s.length_nodes),
            "seconds": valued.seconds + solution.as_ref().map_or(0.0, |s| s.length_seconds),
            "proof": proof_summary.map(|p| serde_json::json!({
                "file": p.path.display().to_string(),
                "records": p.records,
                "claims": p.claims,
                "bytes": p.bytes,
            })),
        }));
    }
    println!("position: {}", root.position_text());
    println!("table: {table_text}");
    let first = I::Pos::side_name(quasar_core::Side::First);
    let second = I::Pos::side_name(quasar_core::Side::Second);
    let Some(s) = solution else {
        println!("value: a draw (neither {first} nor {second} can force a win)");
        if valued.outright {
            println!("nodes: {nodes} (every position reachable, valued outright)");
        } else {
            println!(
                "nodes: {} ({first} cannot win) + {} ({second} cannot win) = {nodes}",
                valued.nodes[0], valued.nodes[1]
            );
        }
        println!("time: {:.3} s", valued.seconds);
        if let Some(p) = &draw_proof {
            println!(
                "proof: {} ({} records: each side's moves that keep the other from winning, {} bytes)",
                p.path.display(),
                p.records,
                p.bytes
            );
        }
        return Ok(());
    };
    println!(
        "winner: {} ({}); perfect play lasts {}{to_leaves}",
        side(s.winner),
        if s.winner == root.side_to_move() {
            "the side to move"
        } else {
            "the side not to move"
        },
        length_text(s.plies, true).trim_start_matches("in ")
    );
    println!("principal line: {}", text.join(" "));
    print_costs(
        (nodes, s.length_nodes),
        (valued.seconds, s.length_seconds),
        if valued.outright {
            "positions valued outright"
        } else {
            "df-pn"
        },
        "length",
    );
    if let Some(p) = &s.proof {
        println!(
            "proof: {} ({} records, {} table claims, {} bytes, written in {:.3} s)",
            p.path.display(),
            p.records,
            p.claims,
            p.bytes,
            s.proof_seconds
        );
    }
    Ok(())
}

/// `--check`: replays the proof `file` of the game `P` with the rules alone, once `root`
/// has given the proof's root what the rules need beyond the file (checkers' leaves).
pub(crate) fn check<P: ProverPosition>(
    file: &Path,
    args: &Args,
    game: &str,
    root: impl FnOnce(P) -> Result<P, String>,
) -> CliResult {
    let t = Instant::now();
    let proof = ProofFile::open(file)?;
    let mut view = proof.view::<P>()?;
    view.root = root(view.root).map_err(|e| format!("{}: {e}", file.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let bars = Bars::new(!args.quiet);
    let r = pool.install(|| prover::check_shard(&view, shard, &bars))?;
    bars.finish();
    if args.json {
        return print_json(&serde_json::json!({
            "game": game,
            "proof": file.display().to_string(),
            "position": view.root.position_text(),
            "value": match view.verdict {
                prover::Verdict::Win { winner, .. } => P::side_name(winner),
                prover::Verdict::Draw => "draw",
            },
            "winner": view.verdict.winner().map(P::side_name),
            "plies": view.verdict.plies(),
            "shard": shard.to_string(),
            "whole": shard.count() == 1,
            "records": r.records,
            "claims": r.claims,
            "seconds": t.elapsed().as_secs_f64(),
        }));
    }
    println!(
        "proof checked: {} ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s)",
        view.verdict.text(&view.root),
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
