//! Exact solving from Python through the generic prover: Breakthrough (df-pn for the
//! winner, a bounded search for the length), Woodpush and Chinese Checkers (a win or a
//! draw, then a win's length), each with its proof file, and the independent check of a
//! proof of any of them.

use breakthrough::solve::Options;
use prover::draws::Value;
use prover::{Instance, ProofError, ProofFile, ProverPosition};
use quasar_core::progress::Silent;
use quasar_core::Game;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A solved position, with no game type left.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The winner: 0 for the first player, 1 for the second, `None` for a draw.
    pub winner: Option<usize>,
    /// Plies to the end with perfect play, for a win.
    pub plies: Option<u32>,
    /// A win's principal line, as move texts.
    pub line: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Records written to the proof file, when one was asked for.
    pub records: Option<u64>,
}

/// What a proof file establishes once checked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The game the proof is of.
    pub game: &'static str,
    /// The position proved.
    pub position: String,
    /// The winner: 0, 1, or `None` for a draw.
    pub winner: Option<usize>,
    /// Plies within which the winner wins.
    pub plies: Option<u32>,
    /// Records checked.
    pub records: u64,
    /// Table claims re-derived by plain search.
    pub claims: u64,
}

fn texts<P: Game>(root: &P, line: &[P::Move]) -> Vec<String> {
    let mut at = root.clone();
    line.iter()
        .map(|&mv| {
            let text = at.move_text(mv);
            at.play(mv);
            text
        })
        .collect()
}

/// What a solve was asked for, whatever the game: where its table and proof file are, the
/// memory of its transposition table, and the flag that stops it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The table whose positions are the search's leaves.
    pub table: Option<&'a Path>,
    /// Where the proof file goes, when one is asked for.
    pub proof: Option<&'a Path>,
    /// The transposition table's size in MiB.
    pub memory_mib: usize,
    /// Set to stop the search.
    pub stop: &'a AtomicBool,
}

impl<'a> Request<'a> {
    fn options<T>(&self, tb: Option<&'a T>) -> prover::Options<'a, T> {
        prover::Options {
            tablebase: tb,
            table_bytes: self.memory_mib << 20,
            proof: self.proof,
            interrupt: Some(self.stop),
            ..prover::Options::default()
        }
    }

    /// Solves the Breakthrough position `pos`, with a row-limited table as leaves.
    pub fn breakthrough(&self, pos: &breakthrough::Position) -> Result<Solved, String> {
        let tb = self
            .table
            .map(|path| breakthrough::tablebase::Tablebase::open_for(path, pos.board()))
            .transpose()
            .map_err(|e| e.to_string())?;
        let options: Options = self.options(tb.as_ref());
        let s = breakthrough::solve::solve(pos, &options, &Silent).map_err(|e| e.to_string())?;
        Ok(Solved {
            winner: Some(s.winner.index()),
            plies: Some(s.plies),
            line: texts(pos, &s.line),
            nodes: s.winner_nodes + s.length_nodes,
            seconds: s.winner_seconds + s.length_seconds + s.proof_seconds,
            records: s.proof.map(|p| p.records),
        })
    }

    /// Solves `root` of a game that may draw, with the table `load` reads as leaves.
    pub fn drawing<I: Instance, E: std::fmt::Display>(
        &self,
        inst: &I,
        root: &I::Pos,
        load: impl FnOnce(&Path) -> Result<I::Table, E>,
    ) -> Result<Solved, String> {
        let tb = self
            .table
            .map(load)
            .transpose()
            .map_err(|e| e.to_string())?;
        let options = self.options(tb.as_ref());
        let d =
            prover::solve_with_draws(inst, root, &options, &Silent).map_err(|e| e.to_string())?;
        let winner = match d.valued.value {
            Value::Win(side) => Some(side.index()),
            Value::Draw => None,
        };
        let summary = d
            .win
            .as_ref()
            .and_then(|s| s.proof.as_ref())
            .or(d.draw_proof.as_ref());
        Ok(Solved {
            winner,
            plies: d.win.as_ref().map(|s| s.plies),
            line: d
                .win
                .as_ref()
                .map_or_else(Vec::new, |s| texts(root, &s.line)),
            nodes: d.valued.nodes[0]
                + d.valued.nodes[1]
                + d.win.as_ref().map_or(0, |s| s.length_nodes),
            seconds: d.valued.seconds + d.win.as_ref().map_or(0.0, |s| s.length_seconds),
            records: summary.map(|p| p.records),
        })
    }
}

/// Checks `file` as a proof of the game `P`; `None` when it is a proof of another game.
fn check_as<P: ProverPosition>(
    file: &ProofFile,
    game: &'static str,
) -> Option<Result<Checked, String>> {
    let view = match file.view::<P>() {
        Ok(view) => view,
        Err(ProofError::OtherGame { .. }) => return None,
        Err(e) => return Some(Err(e.to_string())),
    };
    Some(
        prover::check_view(&view, &Silent)
            .map(|r| Checked {
                game,
                position: view.root.position_text(),
                winner: view.verdict.winner().map(|w| w.index()),
                plies: view.verdict.plies(),
                records: r.records,
                claims: r.claims,
            })
            .map_err(|e| e.to_string()),
    )
}

/// Checks the proof at `path`, of Breakthrough, Woodpush or Chinese Checkers.
pub fn check(path: &Path) -> Result<Checked, String> {
    let file = ProofFile::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    check_as::<breakthrough::Position>(&file, "breakthrough")
        .or_else(|| check_as::<woodpush::Position>(&file, "woodpush"))
        .or_else(|| check_as::<chinese_checkers::Position>(&file, "chinese-checkers"))
        .unwrap_or_else(|| {
            Err(format!(
                "{}: not a proof of Breakthrough, Woodpush or Chinese Checkers (`quasar solve --check` reads checkers' with its databases)",
                path.display()
            ))
        })
        .map_err(|e| format!("{}: {e}", path.display()))
}
