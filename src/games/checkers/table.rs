//! `quasar tablebase` for checkers: build the endgame databases into a directory (all of
//! them, one slice, or one job's share of a wave), print the plan, and print, probe and
//! verify a directory of slice files.

use super::CheckersSetup;
use crate::cli::output::{print_json, ProbeAnswer, TableInfo};
use crate::cli::tablebase::{BuildArgs, CompressArgs, VerifyArgs};
use crate::cli::CliResult;
use crate::games::registration::{OptionRole, OwnTableOptions, TableGame, TableOptions};
use checkers::build::MAX_DISTANCE;
use checkers::db::{
    build_with, BuildOptions, Built, Database, DbError, SliceTable, Wdl, DIRECTORY, GAME,
};
use checkers::slice::MAX_PIECES;
use checkers::{Position, Slice};
use quasar_core::{Game, Plan, Selection, Side};
use quasar_file::slices::{SliceDir, SliceDirError};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The pieces asked for, checked.
fn pieces(p: Option<u32>) -> Result<u32, Box<dyn std::error::Error>> {
    match p {
        Some(n @ 1..=MAX_PIECES) => Ok(n),
        Some(n) => Err(format!(
            "--max-pieces {n}: checkers databases take 1 to {MAX_PIECES} pieces in all"
        )
        .into()),
        None => Err(
            "checkers databases need --max-pieces N (pieces on the board in all, e.g. 5)".into(),
        ),
    }
}

/// Checkers' own options of `tablebase build`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CkBuildArgs {
    /// Checkers: also write each slice's distance-to-conversion file (<slice>.qdc, one byte
    /// a position: four times the win/draw/loss file; off by default for that reason)
    #[arg(long)]
    pub distance: bool,
}

impl OwnTableOptions for CkBuildArgs {
    fn given(&self) -> Vec<(&'static str, OptionRole)> {
        match self.distance {
            true => vec![("--distance", OptionRole::Build)],
            false => Vec::new(),
        }
    }
}

/// The flags of a checkers build that its plan takes too.
const PLAN: &[&str] = &["--max-pieces", "--pieces", "--slice", "--wave", "--shard"];

impl TableGame for CheckersSetup {
    type TableArgs = CkBuildArgs;

    const TABLE_KIND: &'static str = "checkers";

    const TABLE_OPTIONS: TableOptions = TableOptions {
        build: &[
            "--max-pieces",
            "--pieces",
            "--slice",
            "--wave",
            "--shard",
            "--distance",
        ],
        plan: Some(PLAN),
        plan_note: "",
        verify: &[],
        take: "--max-pieces N (pieces on the board in all) and -o DIR",
    };

    /// One slice file, or a database directory (its manifest says so, or it has none and
    /// holds slice files).
    fn owns_table(path: &Path, head: &[u8]) -> bool {
        retro::file::game_in_header(head).as_deref() == Some(GAME)
            || SliceDir::looks_like(path, &DIRECTORY)
    }

    /// The databases of 1 to N pieces (or the selected slices) into `checkers-p<N>`.
    fn build(a: &BuildArgs) -> CliResult {
        build(
            a.max_pieces.or(a.pieces),
            a.selection(),
            a.out.as_deref(),
            &a.games.checkers,
            a.quiet,
        )
    }

    /// The slices of 1 to N pieces in dependency waves.
    fn plan(a: &BuildArgs) -> Result<Plan, Box<dyn std::error::Error>> {
        Ok(Slice::plan(pieces(a.max_pieces.or(a.pieces))?))
    }

    fn info(path: &Path, json: bool) -> CliResult {
        info(path, json)
    }

    fn probe(path: &Path, text: &str, json: bool) -> CliResult {
        probe(path, text, json)
    }

    /// Every position, checked whole.
    fn verify(path: &Path, _: &VerifyArgs) -> CliResult {
        verify(path)
    }

    fn compress(path: &Path, a: &CompressArgs) -> CliResult {
        compress(path, a)
    }
}

/// Rewrites the databases in `from` as run-length blocks into `a.out`, a line a slice.
fn compress(from: &Path, a: &CompressArgs) -> CliResult {
    use checkers::compress::Compressed;
    if a.board.is_some() {
        return Err(
            "--board is an option of Breakthrough tables only; a checkers database's size is its own"
                .into(),
        );
    }
    let block = a.block.unwrap_or(retro::runs::DEFAULT_BLOCK);
    let start = Instant::now();
    let (mut written, mut kept, mut plain, mut runs) = (0, 0, 0u64, 0u64);
    checkers::compress::compress(from, &a.out, block, &mut |c| match *c {
        Compressed::Blocked(s) => {
            if !a.quiet {
                eprintln!("{s}: in blocks, to be coded when every slice is");
            }
        }
        Compressed::Kept(s) => {
            kept += 1;
            if !a.quiet {
                eprintln!("{s}: coded already, kept");
            }
        }
        Compressed::Written {
            slice,
            plain: p,
            runs: r,
        } => {
            written += 1;
            (plain, runs) = (plain + p, runs + r);
            if !a.quiet {
                eprintln!("{slice}: {p} bytes plain, {r} coded");
            }
        }
    })?;
    let ratio = match runs {
        0 => String::new(),
        r => format!(" ({:.1} times smaller)", plain as f64 / r as f64),
    };
    println!(
        "{}: {written} slices written as coded blocks of {} positions, {kept} kept; {runs} bytes of values against {plain} plain{ratio}, {:.1} s",
        a.out.display(),
        block,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Builds the selected slices into `dir` (default `checkers-p<N>`), skipping finished ones.
fn build(
    p: Option<u32>,
    which: Selection,
    dir: Option<&Path>,
    ck: &CkBuildArgs,
    quiet: bool,
) -> CliResult {
    let n = pieces(p)?;
    let dir: PathBuf = dir.map_or_else(
        || PathBuf::from(format!("checkers-p{n}")),
        Path::to_path_buf,
    );
    if dir.is_file() {
        return Err(format!(
            "{} is a file: -o names the databases' directory",
            dir.display()
        )
        .into());
    }
    let start = Instant::now();
    let (mut built, mut skipped) = (0, 0);
    let options = BuildOptions {
        distance: ck.distance,
    };
    build_with(&dir, n, &which, options, &mut |b| match b {
        Built::Skipped(s) => {
            skipped += 1;
            if !quiet {
                eprintln!("{s}: finished already, skipped");
            }
        }
        Built::Built(s, r) => {
            built += 1;
            if !quiet {
                eprintln!(
                    "{s}: {} positions, {} levels, {:.2} s",
                    r.positions, r.passes, r.seconds
                );
            }
        }
    })?;
    println!(
        "{}: {built} slices built, {skipped} finished already, {:.1} s on {} threads",
        dir.display(),
        start.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    Ok(())
}

/// A directory of slices with its distance files, or one slice file; with the first
/// reason the directory is not whole (slices not built, a damaged file).
fn open(path: &Path) -> Result<(Database, Option<DbError>), Box<dyn std::error::Error>> {
    if path.is_dir() {
        Ok(Database::open_partial(path, true)?)
    } else {
        let mut db = Database::new();
        db.insert(std::sync::Arc::new(SliceTable::load(path)?));
        Ok((db, None))
    }
}

/// A directory of slices (or one slice file) that must be whole: every slice of its
/// manifest built and every file intact.
fn open_whole(path: &Path) -> Result<Database, Box<dyn std::error::Error>> {
    match open(path)? {
        (db, None) => Ok(db),
        (_, Some(e)) => Err(e.into()),
    }
}

/// The bytes of a file, or of the files in a directory.
fn bytes_on_disk(path: &Path) -> u64 {
    match std::fs::read_dir(path) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum(),
        Err(_) => std::fs::metadata(path).map_or(0, |m| m.len()),
    }
}

/// Per slice and side to move: positions, wins, draws, losses.
fn info(path: &Path, json: bool) -> CliResult {
    let db = open_whole(path)?;
    if json {
        let mut total = [0u64; 4];
        let mut slices = Vec::new();
        for s in db.slices() {
            let t = db.table(s).expect("listed");
            for side in [Side::First, Side::Second] {
                let c = t.counts(side);
                slices.push(serde_json::json!({
                    "slice": s.to_string(),
                    "to_move": Position::side_name(side),
                    "positions": c.positions,
                    "wins": c.wins,
                    "draws": c.draws,
                    "losses": c.losses,
                }));
                for (a, b) in total
                    .iter_mut()
                    .zip([c.positions, c.wins, c.draws, c.losses])
                {
                    *a += b;
                }
            }
        }
        return print_json(&TableInfo {
            game: "checkers",
            file: path.display().to_string(),
            bytes: bytes_on_disk(path),
            covers: format!("up to {} pieces", db.max_pieces()),
            positions: total[0],
            checksum_verified: true,
            details: serde_json::json!({
                "max_pieces": db.max_pieces(),
                "form": form(&db),
                "slices": slices,
                "wins": total[1],
                "draws": total[2],
                "losses": total[3],
            }),
        });
    }
    println!(
        "checkers databases in {}: {} slices, up to {} pieces, {} (checksums verified)",
        path.display(),
        db.slices().len(),
        db.max_pieces(),
        form(&db)
    );
    println!("slice\tto move\tpositions\twins\tdraws\tlosses");
    let mut total = [0u64; 4];
    for s in db.slices() {
        let t = db.table(s).expect("listed");
        for side in [Side::First, Side::Second] {
            let c = t.counts(side);
            println!(
                "{s}\t{}\t{}\t{}\t{}\t{}",
                Position::side_name(side),
                c.positions,
                c.wins,
                c.draws,
                c.losses
            );
            for (a, b) in total
                .iter_mut()
                .zip([c.positions, c.wins, c.draws, c.losses])
            {
                *a += b;
            }
        }
    }
    println!(
        "all\tboth\t{}\t{}\t{}\t{}",
        total[0], total[1], total[2], total[3]
    );
    Ok(())
}

/// How the slices store their values: `plain`, `entropy-coded run-length blocks of N
/// positions` (or `... with runs as bytes`, as an earlier version wrote them), or `mixed` (a
/// directory some of whose slices were built after a compression).
fn form(db: &Database) -> String {
    let blocks: Vec<Option<(u64, bool)>> = db
        .slices()
        .iter()
        .map(|&s| {
            let t = db.table(s).expect("listed");
            t.runs_block().map(|n| (n, t.is_coded_with(n)))
        })
        .collect();
    match blocks.first() {
        Some(first) if blocks.iter().any(|b| b != first) => {
            "mixed plain and run-length blocks".into()
        }
        Some(Some((n, true))) => format!("entropy-coded run-length blocks of {n} positions"),
        Some(Some((n, false))) => format!("run-length blocks of {n} positions, runs as bytes"),
        _ => "plain".into(),
    }
}

/// The value of a position in the answer shape of every game (with plies to conversion
/// where the directory holds distance files), then in text each move's value.
fn probe(path: &Path, text: &str, json: bool) -> CliResult {
    let (db, problem) = open(path)?;
    let pos = Position::parse_position(text)?;
    // With distance files, a decided value also says how soon it converts.
    let distance = |board: &checkers::Board, side: Side, w: Wdl| match w {
        Wdl::Draw => None,
        _ => db.distance(board, side),
    };
    let plies = |d: Option<u8>| match d {
        None => String::new(),
        Some(d) if d >= MAX_DISTANCE => format!(", converts in {d} plies or more"),
        Some(d) => format!(", converts in {d} plies"),
    };
    let word = |w: Wdl| match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    };
    let Some(v) = db.probe_position(&pos) else {
        // A slice the directory must hold is named as not built (or damaged), never as
        // beyond the databases.
        if let Some(e) = db.absent(Slice::of(&pos.board)) {
            return Err(e.into());
        }
        return Err(format!(
            "{text}: slice {} is not in {} (up to {} pieces)",
            Slice::of(&pos.board),
            path.display(),
            db.max_pieces()
        )
        .into());
    };
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let children: Vec<_> = moves
        .iter()
        .map(|&m| {
            let child = pos.after(m);
            let w = db.probe_position(&child);
            let d = w.and_then(|w| distance(&child.board, child.side, w));
            (m, w, d)
        })
        .collect();
    // A move that keeps the value: to a lost child soonest, a drawn one, or, lost, to the
    // won child that converts last.
    let keep = match v {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    };
    let best = children
        .iter()
        .filter(|c| c.1 == Some(keep))
        .min_by_key(|c| match v {
            Wdl::Loss => u8::MAX - c.2.unwrap_or(0),
            _ => c.2.unwrap_or(0),
        })
        .map(|c| pos.move_text(c.0));
    let d = distance(&pos.board, pos.side, v);
    let answer = ProbeAnswer {
        game: "checkers",
        position: pos.position_text(),
        to_move: Position::side_name(pos.side).to_string(),
        result: Some(word(v)),
        plies: None,
        plies_exact: false,
        best_move: best,
        detail: Some(format!("slice {}{}", Slice::of(&pos.board), plies(d))),
    };
    // The position's slice is there; moves into slices that are not say so below.
    if let Some(e) = &problem {
        eprintln!("warning: {e}");
    }
    answer.print(json)?;
    if !json {
        for (m, w, d) in children {
            let child = pos.after(m);
            let after = match (w, db.absent(Slice::of(&child.board))) {
                (Some(w), _) => format!("{} for the opponent{}", word(w), plies(d)),
                (None, Some(DbError::Dir(SliceDirError::Damaged { .. }))) => {
                    format!("slice {} is damaged", Slice::of(&child.board))
                }
                (None, Some(_)) => format!("slice {} is not built", Slice::of(&child.board)),
                (None, None) => "not in the databases".to_string(),
            };
            println!("  {}: {after}", pos.move_text(m));
        }
    }
    Ok(())
}

/// Checks every file and every position against its moves: a win has a move to a lost
/// position, a loss only moves to won ones, a draw neither.
fn verify(path: &Path) -> CliResult {
    let db = open_whole(path)?;
    let mut checked = 0u64;
    let mut bad = Vec::new();
    let mut moves = Vec::new();
    for s in db.slices() {
        if s.dependencies().iter().any(|d| db.table(*d).is_none()) {
            continue;
        }
        let t = db.table(s).expect("listed");
        for i in 0..t.index().size() {
            let b = t.index().board(i);
            for side in [Side::First, Side::Second] {
                let pos = Position { board: b, side };
                let Some(want) = db.value(&b, side) else {
                    continue;
                };
                let got = match quasar_core::Game::outcome(&pos) {
                    Some(quasar_core::Outcome::Win(w)) if w == side => Some(Wdl::Win),
                    Some(_) => Some(Wdl::Loss),
                    None => {
                        pos.legal_moves(&mut moves);
                        let kids: Vec<Option<Wdl>> = moves
                            .iter()
                            .map(|&m| db.probe_position(&pos.after(m)))
                            .collect();
                        if kids.contains(&None) {
                            None
                        } else if kids.contains(&Some(Wdl::Loss)) {
                            Some(Wdl::Win)
                        } else if kids.iter().all(|k| *k == Some(Wdl::Win)) {
                            Some(Wdl::Loss)
                        } else {
                            Some(Wdl::Draw)
                        }
                    }
                };
                checked += 1;
                // A draw may also be "no progress possible"; a win or loss must be confirmed.
                if let Some(g) = got {
                    let consistent = g == want || (g == Wdl::Draw && want == Wdl::Draw);
                    if !consistent && bad.len() < 20 {
                        bad.push(format!(
                            "{} : stored {want:?}, its moves say {g:?}",
                            pos.position_text()
                        ));
                    }
                }
            }
        }
    }
    println!("checksums ok; {checked} positions checked against their moves");
    if bad.is_empty() {
        println!("all agree");
        Ok(())
    } else {
        for b in &bad {
            println!("MISMATCH {b}");
        }
        Err(format!("{} disagreements", bad.len()).into())
    }
}
