//! Woodpush solved: every position of one width scored exactly (optionally also by the
//! paper's interleaved passes, for comparison), with win/loss distances, as a table that
//! answers MCTS as an [`Oracle`].

use crate::board::{bits, Kind};
use crate::position::{Move, Position};
use crate::space::{KoStates, SpaceError, WoodpushSpace};
use quasar_core::{Game, GameResult, Oracle, ProvenOutcome, Side};
use retro::scored::{solve_exact, solve_interleaved, ExactReport, InterleavedReport, ScoreTable};
use retro::wdl::{solve_wdl, Method, WdlOptions, WdlReport, WdlTable};
use retro::{PerfectIndex, ProgressFn, Reversed};
use std::time::Instant;

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Which ko states are positions (the paper's counts come out with `Reachable`).
    pub ko_states: KoStates,
    /// Also run the paper's interleaved passes and count where their scores differ.
    pub paper: bool,
    /// Use every core.
    pub parallel: bool,
    /// Solve only the positions with at most this many pieces (an endgame table; wider
    /// strips than a whole solve takes); `None`: every position.
    pub max_pieces: Option<u32>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            ko_states: KoStates::Reachable,
            paper: false,
            parallel: true,
            max_pieces: None,
        }
    }
}

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The width cannot be indexed.
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// The framework refused.
    #[error(transparent)]
    Retro(#[from] retro::SolveError),
}

/// The paper's interleaved analysis next to the exact solve.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperComparison {
    /// What the interleaved passes did and found.
    pub report: InterleavedReport,
    /// Positions whose interleaved score differs from the exact one.
    pub disagreements: u64,
    /// The start position's interleaved score (when the width has a start).
    pub start: Option<i32>,
}

/// What a solve found and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// Strip width.
    pub width: u32,
    /// Positions with Left to move and with Right to move.
    pub positions_per_side: [u64; 2],
    /// The start position's score (positive: Left wins by that much), when the width has one
    /// and the table holds it.
    pub start_score: Option<i32>,
    /// Plies to the end from the start with the fastest win / slowest loss, when decided.
    pub start_plies: Option<u32>,
    /// Unfinished positions that are draws (endless play), per side to move.
    pub draws_per_side: [u64; 2],
    /// Positions Left wins and positions Right wins.
    pub wins: [u64; 2],
    /// The exact scored solve.
    pub exact: ExactReport,
    /// The win/loss distance solve (backward with counters).
    pub wdl: WdlReport,
    /// The paper's passes, when asked for.
    pub paper: Option<PaperComparison>,
    /// Wall-clock seconds for the whole solve.
    pub seconds: f64,
}

/// The solved values of every position of one width.
#[derive(Clone, Debug)]
pub struct WoodpushTable {
    space: WoodpushSpace,
    scores: ScoreTable,
    wdl: WdlTable,
}

/// Solves every position of a strip of `width` cells; `progress` hears of each phase.
pub fn solve(
    width: u32,
    options: SolveOptions,
    progress: ProgressFn<'_>,
) -> Result<(WoodpushTable, SolveReport), SolveError> {
    let start = Instant::now();
    let space = match options.max_pieces {
        None => WoodpushSpace::new(width, options.ko_states)?,
        Some(max) => WoodpushSpace::few_pieces(width, max, options.ko_states)?,
    };
    let rev = Reversed::new(&space)?;
    let (scores, exact) = solve_exact(&rev, progress)?;
    let wdl_options = WdlOptions {
        parallel: options.parallel,
        ..WdlOptions::default()
    };
    let (wdl, wdl_report) = solve_wdl(&rev, Method::Counters, wdl_options, progress)?;
    let start_index = Position::start(width)
        .ok()
        .filter(|p| space.contains(p))
        .map(|p| space.rank(&p));
    let paper = options.paper.then(|| {
        let (t, report) = solve_interleaved(&rev, options.parallel, progress);
        let disagreements = (0..PerfectIndex::size(&space))
            .filter(|&p| t.score(p) != scores.score(p))
            .count() as u64;
        PaperComparison {
            report,
            disagreements,
            start: start_index.map(|s| t.score(s)),
        }
    });
    let table = WoodpushTable { space, scores, wdl };
    let counts = table.counts();
    let report = SolveReport {
        width,
        positions_per_side: counts.positions_per_side,
        start_score: start_index.map(|s| table.scores.score(s)),
        start_plies: start_index
            .filter(|&s| table.wdl.winner(s).is_some())
            .map(|s| table.wdl.plies.get(s)),
        draws_per_side: counts.draws_per_side,
        wins: [exact.first_wins, exact.second_wins],
        exact,
        wdl: wdl_report,
        paper,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((table, report))
}

/// What a table holds, counted over its positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableCounts {
    /// Positions with Left to move and with Right to move.
    pub positions_per_side: [u64; 2],
    /// Unfinished positions that are draws (endless play), per side to move.
    pub draws_per_side: [u64; 2],
    /// Positions Left wins and positions Right wins.
    pub wins: [u64; 2],
}

impl WoodpushTable {
    /// Counts the table's positions, draws and wins (a pass over every position).
    pub fn counts(&self) -> TableCounts {
        let space = &self.space;
        let mut c = TableCounts {
            positions_per_side: [space.side_size(Side::First), space.side_size(Side::Second)],
            draws_per_side: [0; 2],
            wins: [0; 2],
        };
        for p in 0..PerfectIndex::size(space) {
            match self.scores.score(p) {
                0 if !space.unrank(p).board.is_over() => {
                    c.draws_per_side[retro::RetroGame::mover(space, p).index()] += 1;
                }
                0 => {}
                s => c.wins[usize::from(s < 0)] += 1,
            }
        }
        c
    }

    /// The score of the paper's start on this width, when the table holds it.
    pub fn start_score(&self) -> Option<i32> {
        Position::start(self.width())
            .ok()
            .and_then(|p| self.score(&p))
    }
}

impl WoodpushTable {
    /// The index the table is keyed by.
    pub fn space(&self) -> &WoodpushSpace {
        &self.space
    }

    /// The strip width.
    pub fn width(&self) -> u32 {
        self.space.width()
    }

    /// The score of `pos` with best play (positive: Left wins by that much; 0: a draw), or
    /// `None` for a position of another width or ko state outside the index.
    pub fn score(&self, pos: &Position) -> Option<i32> {
        self.space
            .contains(pos)
            .then(|| self.scores.score(self.space.rank(pos)))
    }

    /// The score of position number `index`.
    pub fn score_at(&self, index: u64) -> i32 {
        self.scores.score(index)
    }

    /// The win/loss table (results and plies) by position number.
    pub fn wdl(&self) -> &WdlTable {
        &self.wdl
    }

    /// The score table by position number.
    pub fn scores(&self) -> &ScoreTable {
        &self.scores
    }

    /// Reassembles a table from its parts (a loaded file); `None` when the sizes disagree.
    pub fn from_parts(space: WoodpushSpace, scores: ScoreTable, wdl: WdlTable) -> Option<Self> {
        let n = PerfectIndex::size(&space);
        (scores.len() == n && wdl.len() == n).then_some(WoodpushTable { space, scores, wdl })
    }

    /// A move that keeps the best result: the fastest win, the slowest loss, or a move that
    /// keeps a draw. (A win's move may score less than the best score: it makes sure of the
    /// win, which score-optimal moves in a cycle need not.)
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        if !self.space.contains(pos) || pos.board.is_over() {
            return None;
        }
        let me = self.space.rank(pos);
        let target = self.wdl.value(me, pos.side);
        let mut best: Option<(Move, u32)> = None;
        for i in bits(pos.board.pieces(pos.side)) {
            for kind in [Kind::Forward, Kind::Push] {
                let mv = Move {
                    cell: i as u8,
                    kind,
                };
                if !pos.is_legal(mv) {
                    continue;
                }
                let c = self.space.rank(&pos.after(mv));
                let v = self.wdl.value(c, pos.side.opponent());
                let keeps = v.result == target.result.flip()
                    && match target.result {
                        GameResult::Win => v.plies + 1 == target.plies,
                        GameResult::Loss => v.plies + 1 == target.plies,
                        GameResult::Draw => true,
                    };
                if keeps && best.is_none_or(|(_, p)| v.plies > p) {
                    best = Some((mv, v.plies));
                }
            }
        }
        best.map(|(m, _)| m)
    }
}

impl Oracle<Position> for WoodpushTable {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        if !self.space.contains(pos) {
            return None;
        }
        if let Some(o) = pos.outcome() {
            return Some(ProvenOutcome {
                result: o.result_for(pos.side_to_move()),
                plies: Some(0),
                best_move: None,
            });
        }
        let v = self.wdl.value(self.space.rank(pos), pos.side);
        Some(ProvenOutcome {
            result: v.result,
            plies: (v.result != GameResult::Draw).then_some(v.plies),
            best_move: self.best_move(pos),
        })
    }

    /// The result alone, without the search for a move that keeps it (playouts ask often).
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        if !self.space.contains(pos) {
            return None;
        }
        if let Some(o) = pos.outcome() {
            return Some(o.result_for(pos.side_to_move()));
        }
        Some(self.wdl.value(self.space.rank(pos), pos.side).result)
    }
}
