//! The solved game: the `retro` solvers over [`CcSpace`] (the paper's variants over both
//! sides to move) or over the first player's positions only ([`CcMirror`], the second
//! player's being their colour-swapped images), the table with its probes and best moves as
//! an MCTS oracle, its file, and its verification against the rules.

use crate::board::cells;
use crate::position::{destinations, Move, Position};
use crate::space::CcSpace;
use quasar_core::{Game, GameResult, Oracle, ProvenOutcome, Side, SplitMix64};
use rayon::prelude::*;
use retro::symmetric::{solve_mirror, MirrorError, MirrorGame, MirrorOptions, MirrorReport};
use retro::wdl::{solve_wdl, Method, WdlOptions, WdlReport};
use retro::{PackedArray, PerfectIndex, ProgressFn, Section, TableFile, TableFileError};
use std::path::Path;

/// The game name in table file headers.
pub const GAME: &str = "chinese-checkers";
const RESULTS: u32 = 1;
const PLIES: u32 = 2;

/// The first player's positions of a [`CcSpace`] as a [`MirrorGame`]: each child and parent
/// (the second player to move) turned half round with the colours swapped.
#[derive(Debug)]
pub struct CcMirror(pub CcSpace);

impl MirrorGame for CcMirror {
    fn size(&self) -> u64 {
        self.0.half()
    }

    fn lost(&self, pos: u64) -> bool {
        self.0.unrank_pos(pos).has_won(Side::Second)
    }

    fn child_count(&self, pos: u64) -> u32 {
        let p = self.0.unrank_pos(pos);
        let occ = p.occupied();
        cells(p.pieces[0])
            .map(|c| destinations(occ & !(1 << c), c).count_ones())
            .sum()
    }

    fn predecessors(&self, pos: u64, out: &mut Vec<u64>) {
        out.clear();
        let p = self.0.unrank_pos(pos);
        let occ = p.occupied();
        for at in cells(p.pieces[1]) {
            for from in cells(destinations(occ & !(1 << at), at)) {
                let mut parent = p;
                parent.pieces[1] ^= (1 << from) | (1 << at);
                parent.side = Side::Second;
                if !parent.has_won(Side::First) {
                    out.push(self.0.rank_pos(&parent.flipped()));
                }
            }
        }
    }
}

/// A solved table: for every position (or, when `mirror`, for the first player's positions,
/// the second's read through their images) the result and the plies to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CcTable {
    space: CcSpace,
    /// Whether only the first player's half is stored.
    mirror: bool,
    /// Full: 0 draw, 1 first player wins, 2 second wins. Mirror: 0 draw, 1 the mover
    /// wins, 2 it loses (the mover being the first player there, the two agree).
    results: PackedArray,
    plies: PackedArray,
}

/// Why a file is not a usable Chinese Checkers table.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file is unreadable or damaged.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// Another game's table, or inconsistent contents.
    #[error("{0}")]
    NotOurs(String),
}

/// What [`CcTable::verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Positions checked.
    pub positions: u64,
    /// Positions whose value is not the negamax of their children's (with exact plies).
    pub inconsistent: u64,
    /// The first such position.
    pub first_inconsistent: Option<Position>,
}

/// Why a solve could not run.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// An unplayable number of pieces.
    #[error(transparent)]
    Pieces(#[from] crate::position::PiecesError),
    /// The framework's solver refused.
    #[error(transparent)]
    Retro(#[from] retro::SolveError),
    /// The half-space solver stopped (its checkpoint).
    #[error(transparent)]
    Mirror(#[from] MirrorError),
}

/// Counts of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Positions in the space (both sides to move).
    pub positions: u64,
    /// Positions the first player wins (either side to move).
    pub first_wins: u64,
    /// Positions the second player wins.
    pub second_wins: u64,
    /// Draws.
    pub draws: u64,
}

/// Solves `k` pieces a side over the whole space with one of the paper's solvers.
pub fn solve_full(
    k: u32,
    method: Method,
    options: WdlOptions,
    progress: ProgressFn<'_>,
) -> Result<(CcTable, WdlReport), SolveError> {
    let space = CcSpace::new(k)?;
    let (t, report) = solve_wdl(&space, method, options, progress)?;
    Ok((
        CcTable {
            space,
            mirror: false,
            results: t.results,
            plies: t.plies,
        },
        report,
    ))
}

/// Solves `k` pieces a side over the first player's positions (half the space), with
/// exact plies, checkpointing as `options` say.
pub fn solve_half(
    k: u32,
    options: &MirrorOptions,
    progress: ProgressFn<'_>,
) -> Result<(CcTable, MirrorReport), SolveError> {
    let space = CcSpace::new(k)?;
    let (t, report) = solve_mirror(&CcMirror(space), options, progress)?;
    Ok((
        CcTable {
            space,
            mirror: true,
            results: t.results,
            plies: t.plies,
        },
        report,
    ))
}

impl CcTable {
    /// The index.
    pub fn space(&self) -> &CcSpace {
        &self.space
    }

    /// Pieces a side.
    pub fn k(&self) -> u32 {
        self.space.k()
    }

    /// Whether only the first player's half is stored.
    pub fn is_mirror(&self) -> bool {
        self.mirror
    }

    /// The value of a position with the table's pieces for its side to move: the result
    /// and the plies to the end (0 for a draw). `None` for another number of pieces.
    pub fn value(&self, pos: &Position) -> Option<(GameResult, u32)> {
        if !self.space.contains(pos) {
            return None;
        }
        let (i, mover_is_first) = if self.mirror {
            let canon = if pos.side == Side::First {
                *pos
            } else {
                pos.flipped()
            };
            (self.space.rank_pos(&canon), true)
        } else {
            (self.space.rank_pos(pos), pos.side == Side::First)
        };
        let r = match (self.results.get(i), mover_is_first) {
            (0, _) => GameResult::Draw,
            (1, true) | (2, false) => GameResult::Win,
            _ => GameResult::Loss,
        };
        Some((r, self.plies.get(i)))
    }

    /// A move that keeps the position's value by the shortest win, the longest loss, or
    /// any draw; `None` when the game is over or the table does not hold it.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        let (me, plies) = self.value(pos)?;
        let mut moves = Vec::new();
        pos.moves_into(&mut moves);
        let mut best: Option<(Move, u32)> = None;
        for &mv in &moves {
            let (r, p) = self.value(&pos.after(mv))?;
            let keeps = r == me.flip() && (me == GameResult::Draw || p + 1 == plies);
            if keeps && best.is_none() {
                best = Some((mv, p));
            }
        }
        best.map(|(m, _)| m)
    }

    /// Positions by result, over both sides to move.
    pub fn counts(&self) -> Counts {
        let n = self.results.len();
        let (mut w1, mut w2, mut d) = (0u64, 0u64, 0u64);
        for i in 0..n {
            match self.results.get(i) {
                1 => w1 += 1,
                2 => w2 += 1,
                _ => d += 1,
            }
        }
        if self.mirror {
            // Each first-player position's image has the second player to move with the
            // same result for its mover: a mover's win there is a second-player win.
            Counts {
                positions: 2 * n,
                first_wins: w1 + w2,
                second_wins: w2 + w1,
                draws: 2 * d,
            }
        } else {
            Counts {
                positions: n,
                first_wins: w1,
                second_wins: w2,
                draws: d,
            }
        }
    }

    /// The table as a file.
    pub fn to_file(&self) -> TableFile {
        TableFile {
            game: GAME.into(),
            params: [self.k(), self.mirror as u32, 0, 0, 0, 0, 0, 0],
            positions: self.results.len(),
            sections: vec![
                Section {
                    tag: RESULTS,
                    offset: 0,
                    values: self.results.clone(),
                },
                Section {
                    tag: PLIES,
                    offset: 0,
                    values: self.plies.clone(),
                },
            ],
        }
    }

    /// Writes the table to `path` (through a temporary file renamed when complete).
    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        self.to_file().save(path)
    }

    /// Reads a table, checking its checksum and sizes.
    pub fn load(path: &Path) -> Result<CcTable, LoadError> {
        CcTable::from_file(TableFile::load(path)?).map_err(|e| match e {
            // The file's own errors name it; what the contents say does not.
            LoadError::NotOurs(m) => LoadError::NotOurs(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// A table from a file's contents.
    pub fn from_file(f: TableFile) -> Result<CcTable, LoadError> {
        if f.game != GAME {
            return Err(LoadError::NotOurs(format!(
                "a table of {}, not of Chinese Checkers",
                f.game
            )));
        }
        let space = CcSpace::new(f.params[0]).map_err(|e| LoadError::NotOurs(e.to_string()))?;
        let mirror = match f.params[1] {
            0 => false,
            1 => true,
            m => return Err(LoadError::NotOurs(format!("unknown layout {m}"))),
        };
        let want = if mirror {
            space.half()
        } else {
            PerfectIndex::size(&space)
        };
        let get = |tag: u32, what: &str| {
            f.section(tag)
                .map(|s| s.values.clone())
                .filter(|v| v.len() == want)
                .ok_or_else(|| LoadError::NotOurs(format!("no {what} section of {want} values")))
        };
        Ok(CcTable {
            space,
            mirror,
            results: get(RESULTS, "results")?,
            plies: get(PLIES, "plies")?,
        })
    }

    /// Checks positions against their moves: a finished position is lost in 0 plies, a win
    /// has a child lost for the opponent in one ply less and none sooner, a loss has every
    /// child won by the opponent and the slowest in one ply less, a draw has no lost child
    /// and a drawn one. All positions when `samples` is `None`, else that many at random.
    pub fn verify(&self, samples: Option<u64>, seed: u64) -> VerifyReport {
        self.verify_reporting(samples, seed, &quasar_core::progress::Silent)
    }

    /// [`CcTable::verify`], reporting the positions checked to `progress`.
    pub fn verify_reporting(
        &self,
        samples: Option<u64>,
        seed: u64,
        progress: &dyn quasar_core::progress::Progress,
    ) -> VerifyReport {
        /// Positions a unit of work: few progress calls, and work for every core.
        const CHUNK: usize = 1 << 12;
        let n = PerfectIndex::size(&self.space);
        let check = |i: u64, buf: &mut Vec<Move>| -> bool {
            let pos = self.space.unrank_pos(i);
            let Some((r, plies)) = self.value(&pos) else {
                return false;
            };
            if pos.outcome().is_some() {
                return r == GameResult::Loss && plies == 0;
            }
            pos.moves_into(buf);
            let kids: Vec<(GameResult, u32)> = buf
                .iter()
                .filter_map(|&m| self.value(&pos.after(m)))
                .collect();
            let fastest_win = kids
                .iter()
                .filter(|k| k.0 == GameResult::Loss)
                .map(|k| k.1 + 1)
                .min();
            match r {
                GameResult::Win => fastest_win == Some(plies),
                GameResult::Loss => {
                    kids.iter().all(|k| k.0 == GameResult::Win)
                        && kids.iter().map(|k| k.1 + 1).max() == Some(plies)
                }
                GameResult::Draw => {
                    fastest_win.is_none() && kids.iter().any(|k| k.0 == GameResult::Draw)
                }
            }
        };
        let picks: Vec<u64> = match samples {
            None => (0..n).collect(),
            Some(s) => {
                let mut rng = SplitMix64::new(seed);
                (0..s).map(|_| rng.below(n as usize) as u64).collect()
            }
        };
        progress.begin("checking positions against their moves", picks.len() as u64);
        let bad: Vec<u64> = picks
            .par_chunks(CHUNK)
            .map_init(Vec::new, |buf, part| {
                let bad: Vec<u64> = part.iter().copied().filter(|&i| !check(i, buf)).collect();
                progress.advance(part.len() as u64);
                bad
            })
            .flatten()
            .collect();
        progress.end();
        VerifyReport {
            positions: picks.len() as u64,
            inconsistent: bad.len() as u64,
            first_inconsistent: bad.first().map(|&i| self.space.unrank_pos(i)),
        }
    }
}

impl Oracle<Position> for CcTable {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        if let Some(o) = pos.outcome() {
            return Some(ProvenOutcome {
                result: o.result_for(pos.side_to_move()),
                plies: Some(0),
                best_move: None,
            });
        }
        let (r, plies) = self.value(pos)?;
        Some(ProvenOutcome {
            result: r,
            plies: (r != GameResult::Draw).then_some(plies),
            best_move: self.best_move(pos),
        })
    }

    fn guess(&self, pos: &Position) -> Option<GameResult> {
        if let Some(o) = pos.outcome() {
            return Some(o.result_for(pos.side_to_move()));
        }
        self.value(pos).map(|v| v.0)
    }
}

/// Parses a solver name: `forward`, `backward`, `counters`.
pub fn method_of(name: &str) -> Option<Method> {
    match name {
        "forward" => Some(Method::Forward),
        "backward" => Some(Method::Backward),
        "counters" => Some(Method::Counters),
        _ => None,
    }
}
