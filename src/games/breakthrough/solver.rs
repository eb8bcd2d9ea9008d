//! `quasar solve` for Breakthrough: its own solver (df-pn for the winner, the exact length,
//! proof files, checkpoints, shards and merges, `--within` bounds, `--list-children`) over
//! a row-limited table, and `--check` of its proofs.

use super::BreakthroughSetup;
use crate::cli::output::{length_text, print_json};
use crate::cli::solve::{handle_stop, print_costs, stopped, Args, Interrupt};
use crate::cli::{position_from, CliResult};
use crate::games::registration::SolveGame;
use crate::progress::Bars;
use breakthrough::solve::{self, Options, ProofFile, SolveError};
use breakthrough::tablebase::Tablebase;
use breakthrough::{Board, Position};
use quasar_core::measure::peak_memory_kib;
use quasar_core::{Game, Outcome, Shard, Side};
use std::path::{Path, PathBuf};
use std::time::Instant;

impl SolveGame for BreakthroughSetup {
    const SOLVE_OPTIONS: &'static [&'static str] = &[
        "--board",
        "--tb-rows",
        "--within",
        "--list-children",
        "--checkpoint",
        "--stop-after",
        "--length-pn-from",
        "--merge",
        "--shard (with --out)",
        "--tree",
        "--winner-only",
    ];

    /// A board's start (5x5 by default) or a position: the winner, the exact length, the
    /// line and the proof; or one length bound, the root's moves, a merge or a check.
    fn solve(args: &Args) -> CliResult {
        run(args)
    }
}

/// Runs `quasar solve` for Breakthrough (the options it does not take refused before).
fn run(args: &Args) -> CliResult {
    if let (false, Some(out)) = (args.merge.is_empty(), &args.proof) {
        return merge(&args.merge, out);
    }
    if args.shard.is_some() && args.check.is_none() && args.proof.is_none() {
        return Err("--shard I/N names a job's share of a --check or of a --out proof".into());
    }
    if let Some(file) = &args.check {
        return check(
            file,
            args.threads,
            args.shard.unwrap_or(Shard::WHOLE),
            args.quiet,
            args.json,
        );
    }
    if let Some(dir) = &args.tree {
        return crate::cli::solve::tree::run::<Position>(args, "breakthrough", dir, || {
            root_of(args)
        });
    }
    let root = root_of(args)?;
    if root.result().is_some() {
        return Err(format!(
            "{}: {}, so there is {}",
            root.to_fen(),
            game_over_text(&root),
            if args.list_children {
                "no move to list"
            } else {
                "nothing to solve"
            }
        )
        .into());
    }
    if args.list_children {
        return list_children(&root);
    }
    let memory = args
        .memory
        .unwrap_or_else(|| crate::cli::solve::default_memory_mib(root.board().num_cells().into()));
    if let Some(free) = available_mib() {
        if memory > free {
            eprintln!(
                "warning: --memory {} MiB is more than the {free} MiB this machine has free \
                 now; the system may kill the search when the table fills",
                memory
            );
        }
    }
    // Before hours of search, not after them.
    if let Some(path) = &args.proof {
        crate::cli::paths::writable(path, "--out")?;
    }
    if let Some(path) = &args.checkpoint {
        crate::cli::paths::writable(path, "--checkpoint")?;
    }
    // Installed before the table is built: a signal during the build stops the search at
    // its first look at the flag.
    let interrupt = Interrupt::install()?;
    let built = Instant::now();
    let (tb, table_text) = if args.no_tb {
        (None, "none".to_string())
    } else if let Some(path) = &args.tb {
        let tb = Tablebase::open_for(path, root.board())?;
        crate::games::breakthrough::warn_if_incomplete(path, &tb);
        let text = format!("{} ({} rows)", path.display(), tb.region().rows());
        (Some(tb), text)
    } else {
        match args.tb_rows.or_else(|| solve::default_rows(root.board())) {
            Some(rows) => {
                let tb =
                    solve::table_in_memory(root.board(), rows).map_err(|e| match args.tb_rows {
                        Some(_) => format!("--tb-rows: {e}"),
                        None => e.to_string(),
                    })?;
                let text = format!(
                    "{rows} rows, built in memory in {:.2} s",
                    built.elapsed().as_secs_f64()
                );
                (Some(tb), text)
            }
            None => (None, "none (even 3 rows are too many to build here)".into()),
        }
    };
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
            .unwrap_or_else(|| solve::default_length_pn_from(root.board())),
        interrupt: Some(&interrupt.raised),
        winner_only: args.winner_only,
        ..Options::default()
    };
    let bars = Bars::new(!args.quiet);
    if let Some(plies) = args.within {
        let result = solve::test_bound(&root, &options, plies, &bars);
        let t = match handle_stop(result, &bars, &interrupt, None) {
            Err(SolveError::Stopped { nodes, saved }) => {
                return stopped_at(&root, nodes, saved.as_deref(), args.json)
            }
            other => other?,
        };
        if args.json {
            return print_json(&solved_json(
                &root,
                &table_text,
                t.winner,
                serde_json::json!({
                    "within": plies,
                    "holds": t.holds,
                    "nodes": t.winner_nodes + t.length_nodes,
                    "seconds": t.winner_seconds + t.length_seconds,
                }),
            ));
        }
        println!("position: {}", root.to_fen());
        println!("table: {table_text}");
        println!(
            "winner: {} ({}); wins within {plies} plies: {}",
            Position::side_name(t.winner),
            mover_text(t.winner, root.side()),
            if t.holds {
                "yes"
            } else {
                "no (perfect play lasts longer)"
            }
        );
        let nodes = (t.winner_nodes, t.length_nodes);
        print_costs(
            nodes,
            (t.winner_seconds, t.length_seconds),
            "df-pn",
            "bound",
        );
        return Ok(());
    }
    let result = solve::solve(&root, &options, &bars);
    let s = match handle_stop(result, &bars, &interrupt, args.proof.as_deref()) {
        Err(SolveError::Stopped { nodes, saved }) => {
            return stopped_at(&root, nodes, saved.as_deref(), args.json)
        }
        other => other?,
    };
    let mut pos = root;
    let mut text = Vec::new();
    for &mv in &s.line {
        text.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    if args.json {
        return print_json(&solved_json(
            &root,
            &table_text,
            s.winner,
            serde_json::json!({
            "plies": s.plies,
            "plies_exact": s.plies_exact,
            "line": text,
            "nodes": s.winner_nodes + s.length_nodes,
            "seconds": s.winner_seconds + s.length_seconds,
            "proof": s.proof.as_ref().map(|p| serde_json::json!({
                "file": p.path.display().to_string(),
                "records": p.records,
                "claims": p.claims,
                "bytes": p.bytes,
                "whole": args.shard.is_none_or(|sh| sh == Shard::WHOLE),
            })),
            }),
        ));
    }
    println!("position: {}", root.to_fen());
    println!("table: {table_text}");
    if s.plies_exact {
        println!(
            "winner: {} ({}); perfect play lasts {}",
            Position::side_name(s.winner),
            mover_text(s.winner, root.side()),
            length_text(s.plies, true).trim_start_matches("in ")
        );
    } else {
        println!(
            "winner: {} ({}); wins within {} plies (the proof's bound, not the exact length)",
            Position::side_name(s.winner),
            mover_text(s.winner, root.side()),
            s.plies
        );
    }
    if !text.is_empty() {
        println!("principal line: {}", text.join(" "));
    }
    let nodes = (s.winner_nodes, s.length_nodes);
    print_costs(
        nodes,
        (s.winner_seconds, s.length_seconds),
        "df-pn",
        "length",
    );
    if let Some(p) = &s.proof {
        let resumed = match p.resumed {
            0 => String::new(),
            n => format!(", resuming {n} records an earlier run had written"),
        };
        let what = match args.shard {
            Some(shard) if shard != Shard::WHOLE => {
                format!("proof piece {shard} (not a whole proof: --merge every piece)")
            }
            _ => "proof".to_string(),
        };
        println!(
            "{what}: {} ({} records, {} table claims, {} bytes, written in {:.3} s{resumed}; set of written positions {} MiB)",
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

/// The position `args` name: a board's start (5x5 unless `--board` says), or
/// `--position`, whose size a `--board` given as well must agree with.
fn root_of(args: &Args) -> Result<Position, Box<dyn std::error::Error>> {
    // The start of a smaller board than the other commands' default, or the position's
    // own size (which --board, when given, must agree with).
    let board = match (&args.position, args.board.as_deref()) {
        (None, None) => Some(Board::new(5, 5)?),
        (_, None) => None,
        (_, Some(text)) => Some(
            text.parse::<Board>()
                .map_err(|e| format!("invalid value '{text}' for '--board <BOARD>': {e}"))?,
        ),
    };
    let given = board.map(|board| BreakthroughSetup { board });
    let (_, root) = position_from(given, args.position.as_deref())?;
    Ok(root)
}

/// `--list-children`: a line per move of `root`, `MOVE<TAB>FEN`, one of each pair of moves
/// whose positions are mirror images (they have one answer); a move that ends the game
/// gets `MOVE<TAB>wins at once` instead of a position.
fn list_children(root: &Position) -> CliResult {
    let geo = solve::leaves::Geometry::new(root.board());
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let mut seen = Vec::new();
    for mv in moves {
        let mut child = *root;
        child.make_move(mv);
        let text = root.format_move(mv);
        if child.result().is_some() {
            println!("{text}\twins at once");
            continue;
        }
        let key = geo.key(&child);
        if !seen.contains(&key) {
            seen.push(key);
            println!("{text}\t{}", child.to_fen());
        }
    }
    Ok(())
}

/// `--merge PIECE... --out OUT`.
fn merge(pieces: &[PathBuf], out: &Path) -> CliResult {
    crate::cli::paths::writable(out, "--out")?;
    let t = Instant::now();
    let s = solve::merge(pieces, out)?;
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

/// `--check FILE [--threads N] [--shard I/N] [--quiet]`.
fn check(file: &Path, threads: Option<usize>, shard: Shard, quiet: bool, json: bool) -> CliResult {
    let t = Instant::now();
    let proof = ProofFile::open(file)?;
    let view = proof.view()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    let bars = Bars::new(!quiet);
    let r = pool.install(|| solve::check_shard(&view, shard, &bars))?;
    bars.finish();
    if json {
        return print_json(&serde_json::json!({
            "game": "breakthrough",
            "proof": file.display().to_string(),
            "position": view.root.to_fen(),
            "winner": view.verdict.winner().map(Position::side_name),
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
    println!(
        "{what}: {} ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s on {} thread{})",
        view.verdict.text(&view.root),
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64(),
        pool.current_num_threads(),
        if pool.current_num_threads() == 1 { "" } else { "s" }
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

/// How the finished game `pos` ended, in words.
fn game_over_text(pos: &Position) -> String {
    match pos.result() {
        Some(Outcome::Win(side)) => {
            format!("the game is over, {} has won", Position::side_name(side))
        }
        Some(Outcome::Draw) => "the game is over, a draw".to_string(),
        None => "the game goes on".to_string(),
    }
}

/// Whether `winner` is the side to move (`mover`), in words.
fn mover_text(winner: Side, mover: Side) -> &'static str {
    if winner == mover {
        "the side to move"
    } else {
        "the side not to move"
    }
}

/// The answer of a search of `root` that `--stop-after` stopped (see [`stopped`]).
fn stopped_at(root: &Position, nodes: u64, saved: Option<&Path>, json: bool) -> CliResult {
    let game = serde_json::json!({
        "game": "breakthrough",
        "board": root.board().to_string(),
        "position": root.to_fen(),
    });
    stopped(game, nodes, saved, json)
}

/// The JSON answer of a solve or a `--within` test of `root`: the keys both share (game,
/// board, position, table, winner), then `rest`'s.
fn solved_json(
    root: &Position,
    table_text: &str,
    winner: Side,
    rest: serde_json::Value,
) -> serde_json::Value {
    let mut answer = serde_json::json!({
        "game": "breakthrough",
        "board": root.board().to_string(),
        "position": root.to_fen(),
        "table": table_text,
        "winner": Position::side_name(winner),
        "winner_to_move": winner == root.side(),
    });
    if let (Some(all), serde_json::Value::Object(more)) = (answer.as_object_mut(), rest) {
        all.extend(more);
    }
    answer
}
