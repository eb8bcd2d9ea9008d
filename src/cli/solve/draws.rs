//! `quasar solve` for the games that may draw or cycle: the value (a win or a draw) as
//! two searches, then a win's exact length, line and proof; `--check` of their proofs.

use super::{handle_stop, print_costs, Args, Interrupt, Line};
use crate::cli::output::{length_text, print_json};
use crate::cli::{position_from, CliResult, SizeRule};
use crate::games::chinese_checkers::CcSetup;
use crate::games::woodpush::WoodpushSetup;
use crate::games::{CliGame, GameName};
use checkers::db::{DbError, Wdl};
use checkers::{CheckersProver, Database, Leafed};
use chinese_checkers::{CcProver, CcTable};
use prover::draws::Value;
use prover::{Instance, Options, ProofFile, ProverPosition, SolveProgress};
use quasar_core::{Game, Shard};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;
use woodpush::{WoodpushProver, WoodpushTable};

/// Runs `quasar solve` for Woodpush, Chinese Checkers or checkers.
pub(super) fn run(args: &Args) -> CliResult {
    let name = args.game.name();
    let breakthrough_only = [
        (args.board.is_some(), "--board"),
        (args.tb_rows.is_some(), "--tb-rows"),
        (args.within.is_some(), "--within"),
        (args.list_children, "--list-children"),
        (args.checkpoint.is_some(), "--checkpoint"),
        (args.stop_after.is_some(), "--stop-after"),
        (args.length_pn_from.is_some(), "--length-pn-from"),
        (!args.merge.is_empty(), "--merge"),
        (
            args.shard.is_some() && args.check.is_none(),
            "--shard (with --proof)",
        ),
    ];
    if let Some((_, option)) = breakthrough_only.iter().find(|o| o.0) {
        return Err(format!("{option} is for Breakthrough's solve only, not {name}").into());
    }
    if args.check.is_some() && args.tb.is_some() && args.game != GameName::Checkers {
        return Err(format!(
            "--check replays a proof of {name} with the rules alone: --tb goes with --check for checkers' proofs only"
        )
        .into());
    }
    match args.game {
        GameName::Checkers => {
            if args.width.is_some() || args.pieces.is_some() {
                return Err("--width and --pieces-per-side are not checkers' options".into());
            }
            let db = args
                .tb
                .as_deref()
                .map(|dir| -> Result<&'static Database, DbError> {
                    // Positions refer to it for the whole run.
                    Ok(Box::leak(Box::new(Database::open(dir)?)))
                })
                .transpose()?;
            if let Some(file) = &args.check {
                return check::<Leafed>(file, args, name, |root| match (root.lacks_leaves(), db) {
                    (false, None) => Ok(root),
                    (true, None) => Err(format!(
                        "its leaves are the databases of {} pieces: give them with --tb DIR",
                        root.leaf_pieces()
                    )),
                    (_, Some(db)) => root.with_leaves(db),
                });
            }
            let Some(text) = &args.position else {
                return Err(
                    "checkers is solved from a given position: give --position FEN (e.g. 'B:W18,K30:B14,K1'), the start is far beyond the solver"
                        .into(),
                );
            };
            let root = Leafed::new(checkers::Position::parse_position(text)?, db);
            if let Some(w) = root.leaf() {
                return Err(format!(
                    "{text}: the databases hold this position ({} for the side to move): `quasar tablebase probe` gives it",
                    match w {
                        Wdl::Win => "a win",
                        Wdl::Draw => "a draw",
                        Wdl::Loss => "a loss",
                    }
                )
                .into());
            }
            solve(&CheckersProver, &root, None, args, name)
        }
        GameName::Woodpush => {
            if args.pieces.is_some() {
                return Err("--pieces-per-side is for Chinese Checkers' solve".into());
            }
            if let Some(file) = &args.check {
                return check::<woodpush::Position>(file, args, name, Ok);
            }
            let size = crate::games::woodpush::WoodpushSize { width: args.width };
            let given = WoodpushSetup::from_size(&size, None)?;
            let (_, root) = position_from(given, args.position.as_deref(), SizeRule::MustAgree)?;
            let tb = args.tb.as_deref().map(WoodpushTable::load).transpose()?;
            solve(&WoodpushProver, &root, tb.as_ref(), args, name)
        }
        _ => {
            if args.width.is_some() {
                return Err("--width is for Woodpush's solve".into());
            }
            if let Some(file) = &args.check {
                return check::<chinese_checkers::Position>(file, args, name, Ok);
            }
            let given = args
                .pieces
                .map(|k| CcSetup::from_size(&Default::default(), Some(k)))
                .transpose()?
                .flatten();
            let (_, root) = position_from(given, args.position.as_deref(), SizeRule::MustAgree)?;
            let tb = args.tb.as_deref().map(CcTable::load).transpose()?;
            solve(&CcProver, &root, tb.as_ref(), args, name)
        }
    }
}

/// Solves `root` with `tb` as leaves and prints the answer.
fn solve<I: Instance>(
    inst: &I,
    root: &I::Pos,
    tb: Option<&I::Table>,
    args: &Args,
    game: &str,
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
        crate::cli::paths::writable(path, "--proof")?;
    }
    let interrupt = Interrupt::install()?;
    let table_text = match &args.tb {
        Some(path) => path.display().to_string(),
        None => "none".to_string(),
    };
    let options = Options {
        tablebase: tb,
        table_bytes: usize::try_from(args.memory << 20)
            .map_err(|_| format!("--memory {} MiB does not fit this machine", args.memory))?,
        proof: args.proof.as_deref(),
        interrupt: Some(&interrupt.raised),
        ..Options::default()
    };
    let terminal = std::io::stderr().is_terminal();
    let line = Line {
        last: Mutex::new((Instant::now(), None)),
        start: Instant::now(),
        terminal,
    };
    let progress: &dyn SolveProgress = if args.quiet { &prover::Quiet } else { &line };
    let result = prover::solve_with_draws(inst, root, &options, progress);
    let (valued, solution) = handle_stop(
        result,
        !args.quiet && terminal,
        &interrupt,
        args.proof.as_deref(),
    )?;
    let side = |s| I::Pos::side_name(s);
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
            "proof": solution.as_ref().and_then(|s| s.proof.as_ref()).map(|p| serde_json::json!({
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
        if args.proof.is_some() {
            println!("proof: none written (a proof file proves a win; a draw has none yet)");
        }
        return Ok(());
    };
    // Checkers' game ends where its databases take over.
    let to_leaves = if args.game == GameName::Checkers && args.tb.is_some() {
        " to a position of the databases"
    } else {
        ""
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
fn check<P: ProverPosition>(
    file: &Path,
    args: &Args,
    game: &str,
    root: impl FnOnce(P) -> Result<P, String>,
) -> CliResult {
    let t = Instant::now();
    let proof = ProofFile::open(file)?;
    let mut view = proof
        .view::<P>()
        .map_err(|e| format!("{}: not a proof of {game}: {e}", file.display()))?;
    view.root = root(view.root).map_err(|e| format!("{}: {e}", file.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the checking threads: {e}"))?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let r = pool.install(|| prover::check_shard(&view, shard, &|_| {}))?;
    if args.json {
        return print_json(&serde_json::json!({
            "game": game,
            "proof": file.display().to_string(),
            "position": view.root.position_text(),
            "winner": P::side_name(view.winner),
            "plies": view.plies,
            "shard": shard.to_string(),
            "whole": shard.count() == 1,
            "records": r.records,
            "claims": r.claims,
            "seconds": t.elapsed().as_secs_f64(),
        }));
    }
    println!(
        "proof checked: {} wins from {} within {} plies ({} records, {} table claims re-derived by plain search in {} nodes, {:.2} s)",
        P::side_name(view.winner),
        view.root.position_text(),
        view.plies,
        r.records,
        r.claims,
        r.claim_nodes,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
