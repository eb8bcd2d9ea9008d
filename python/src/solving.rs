//! Exact solving from Python: Breakthrough's prover (df-pn for the winner, a bounded
//! search for the length) with its proof file, and the independent check of a proof.

use breakthrough::solve::{self, Options, ProofFile};
use breakthrough::tablebase::Tablebase;
use breakthrough::Position;
use quasar_core::Game;
use std::path::Path;

/// A solved position, with no game type left.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The winner: 0 for the first player, 1 for the second.
    pub winner: usize,
    /// Plies to the end with perfect play.
    pub plies: u32,
    /// The principal line, as move texts.
    pub line: Vec<String>,
    /// Nodes searched for the winner and for the length.
    pub nodes: u64,
    /// Seconds for the winner, the length and the proof.
    pub seconds: f64,
    /// Records written to the proof file, when one was asked for.
    pub records: Option<u64>,
}

/// Solves the Breakthrough position `pos`, writing its proof to `proof` when given, with a
/// row-limited table at `table` as proven leaves.
pub fn solve_breakthrough(
    pos: &Position,
    proof: Option<&Path>,
    table: Option<&Path>,
    memory_mib: usize,
) -> Result<Solved, String> {
    if pos.outcome().is_some() {
        return Err("the game is over: there is nothing to solve".into());
    }
    let tb = match table {
        Some(path) => Some(Tablebase::open_for(path, pos.board()).map_err(|e| e.to_string())?),
        None => None,
    };
    let options = Options {
        tablebase: tb.as_ref(),
        table_bytes: memory_mib << 20,
        proof,
        ..Options::default()
    };
    let s = solve::solve(pos, &options, &solve::Silent).map_err(|e| e.to_string())?;
    let mut at = *pos;
    let line = s
        .line
        .iter()
        .map(|&mv| {
            let text = at.move_text(mv);
            at.play(mv);
            text
        })
        .collect();
    Ok(Solved {
        winner: s.winner.index(),
        plies: s.plies,
        line,
        nodes: s.winner_nodes + s.length_nodes,
        seconds: s.winner_seconds + s.length_seconds + s.proof_seconds,
        records: s.proof.map(|p| p.records),
    })
}

/// What a checked proof establishes: its position, winner, plies and records checked.
pub fn check_breakthrough(path: &Path) -> Result<(String, usize, Option<u32>, u64, u64), String> {
    let file = ProofFile::open(path).map_err(|e| e.to_string())?;
    let view = file.view::<Position>().map_err(|e| e.to_string())?;
    let report = solve::check_view(&view, &solve::Silent).map_err(|e| e.to_string())?;
    let winner = view
        .verdict
        .winner()
        .ok_or_else(|| format!("{}: the proof names no winner", path.display()))?;
    Ok((
        view.root.position_text(),
        winner.index(),
        view.verdict.plies(),
        report.records,
        report.claims,
    ))
}
