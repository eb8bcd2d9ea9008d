//! The prober: loads a table, answers a real position under the spec's sound rule (Black
//! to move through the colour flip), says why when it cannot, and implements the
//! engine's [`Oracle`].

use crate::tablebase::cache::{DepthCache, DEFAULT_SLOTS_LOG2};
use crate::tablebase::dense::DenseDepths;
use crate::tablebase::generate::Generated;
use crate::tablebase::key::Entry;
use crate::tablebase::region::{wins_at_depth_two, Config, Region};
use crate::tablebase::resident::Resident;
use crate::tablebase::slices::Rows;
use crate::tablebase::store::{Corrupt, Header, Lookup, TableFile, TableFileError, Tree};
use crate::{Board, Move, Position, BLACK};
use quasar_core::progress::Progress;
use quasar_core::{GameResult, Oracle, ProvenOutcome, Side};
use std::fmt;
use std::path::Path;

mod geometry;
#[cfg(test)]
mod tests;

use geometry::{winning_step, Geometry};

/// Why a probe cannot claim a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// The table is for another board.
    OtherBoard,
    /// The game is already over.
    GameOver,
    /// No piece of the side to move stands in the region.
    NoPieceInRegion,
    /// The region holds more pieces than the table's limits cover.
    BeyondLimits {
        /// Pieces of the side to move in the region.
        own: u32,
        /// Opponent pieces in the region.
        opponent: u32,
    },
    /// An opponent piece is so close to its goal that no stored win (depth >= 2) is
    /// certain to come first.
    OpponentTooClose {
        /// Its row, counted from the side to move's home row.
        row: u32,
    },
    /// The region configuration has no forced win (infinite depth): not in the table.
    NoForcedWin,
    /// The table has a win of this depth, but the sound rule allows at most `allowed`.
    TooSlow {
        /// The stored depth.
        depth: u32,
        /// The largest depth the sound rule accepts here.
        allowed: u32,
    },
    /// The table data that would answer is damaged: an error, never a claim.
    Damaged(Corrupt),
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unknown::OtherBoard => write!(f, "the table is for another board size"),
            Unknown::GameOver => write!(f, "the game is already over"),
            Unknown::NoPieceInRegion => {
                write!(f, "the side to move has no piece in the table's rows")
            }
            Unknown::BeyondLimits { own, opponent } => write!(
                f,
                "the region holds {own} pieces of the side to move and {opponent} of the opponent, beyond the table's piece limits"
            ),
            Unknown::OpponentTooClose { row } => write!(
                f,
                "an opponent piece on row {row} (counted from the mover's home row) may reach its goal before any stored win"
            ),
            Unknown::NoForcedWin => write!(
                f,
                "no forced win inside the table's rows (the configuration is not stored)"
            ),
            Unknown::TooSlow { depth, allowed } => write!(
                f,
                "the table has a win in {depth} moves, but the opponent may win first: the sound rule accepts at most {allowed} here"
            ),
            Unknown::Damaged(c @ (Corrupt::MissingSlice { .. } | Corrupt::Incomplete { .. })) => {
                write!(f, "{c}")
            }
            Unknown::Damaged(c) => write!(f, "the table is damaged: {c}"),
        }
    }
}

/// A certain win found by a probe, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// Moves of the side to move until it wins (the effective depth `D`).
    pub depth: u32,
    /// A move achieving it, in the probed position's cells.
    pub best_move: Move,
}

/// A loaded tablebase.
#[derive(Debug)]
pub struct Tablebase {
    table: TableFile,
    region: Region,
    race_guess: bool,
    /// Answers already read, in front of the table (`None`: every probe reads the table,
    /// the default for a copy in memory).
    cache: Option<DepthCache>,
    /// A small sliced table's depths copied into memory (`None`: probes read the files).
    resident: Option<Resident>,
    /// A small generated table's depths by dense rank, one byte each (`None`: probes read
    /// the tree); only the exact solver asks for it.
    dense: Option<DenseDepths>,
    /// Probes go through [`Tablebase::explain`] with its colour flip (the slow path kept
    /// for comparison; off by default).
    slow: bool,
    /// What the bitboard tests of a probe need, precomputed for the table's board.
    geometry: Geometry,
}

impl Tablebase {
    /// Opens a table file, checking its header and size (see [`TableFile::open`]).
    pub fn open(path: &Path) -> Result<Tablebase, TableFileError> {
        Ok(Tablebase::from_table(TableFile::open(path)?))
    }

    /// Opens a table file that must be for `board` (a table of another board is refused).
    pub fn open_for(path: &Path, board: Board) -> Result<Tablebase, TableFileError> {
        let tb = Tablebase::open(path)?;
        if tb.header().board != board {
            return Err(TableFileError::Invalid {
                path: path.to_path_buf(),
                msg: format!("a {} table, but the board is {board}", tb.header().board),
            });
        }
        Ok(tb)
    }

    /// A tablebase over a table already loaded.
    pub fn from_table(table: TableFile) -> Tablebase {
        let resident = table.tree.as_sliced().and_then(Resident::load);
        Tablebase {
            geometry: Geometry::new(&table.region),
            // A copy in memory is read without the answer cache: its slot check costs
            // about what the byte read it saves does (see `docs/results/archive/probes-in-playouts.md`).
            cache: match resident {
                Some(_) => None,
                None => DepthCache::new(&table.region, DEFAULT_SLOTS_LOG2),
            },
            resident,
            region: table.region.clone(),
            table,
            race_guess: false,
            dense: None,
            slow: false,
        }
    }

    /// Holds a compressed table whole when it fits `bytes` (or `bytes` is 0), else through
    /// a block cache of `bytes` shared by every thread probing it (the engine's
    /// `--table-cache`); other tables are left as they are.
    pub fn with_table_cache(mut self, bytes: u64) -> Tablebase {
        if let Tree::Compressed(t) = &mut self.table.tree {
            t.set_cache_bytes(bytes);
        }
        self
    }

    /// Sets the answer cache to `2^slots_log2` slots (0: no cache; also none when the
    /// region's configurations do not fit its slots).
    pub fn with_cache_slots(mut self, slots_log2: u32) -> Tablebase {
        self.cache = DepthCache::new(&self.region, slots_log2);
        self
    }

    /// Copies a sliced table of at most [`crate::tablebase::resident::RESIDENT_MAX_BYTES`]
    /// into memory (on by default), or drops the copy so that probes read the slice files
    /// (the answer cache stays as it is: none by default for a copied table).
    pub fn with_resident(mut self, on: bool) -> Tablebase {
        self.resident = match (on, self.table.tree.as_sliced()) {
            (true, Some(s)) if self.resident.is_none() => Resident::load(s),
            (true, _) => self.resident,
            (false, _) => None,
        };
        self
    }

    /// Makes a sliced table check each slice whole when it is first opened, as without a
    /// block index (for comparisons; slices opened so far are closed).
    pub fn without_block_index(mut self) -> Tablebase {
        if let Tree::Sliced(s) = &mut self.table.tree {
            s.drop_block_index();
        }
        self
    }

    /// Bytes of the sliced table copied into memory (0 when probes read the files).
    pub fn resident_bytes(&self) -> usize {
        self.resident.as_ref().map_or(0, Resident::bytes)
    }

    /// Slots of the answer cache (0 when there is none).
    pub fn cache_slots(&self) -> usize {
        self.cache.as_ref().map_or(0, |c| c.len())
    }

    /// Makes the engine's probes take the general path of [`Tablebase::explain`] (colour
    /// flip, every step checked, no cache): the speed before the fast path, for benches.
    pub fn with_slow_probes(mut self, on: bool) -> Tablebase {
        self.slow = on;
        self
    }

    /// A tablebase held in memory, straight from the generator.
    pub fn from_generated(g: &Generated) -> Tablebase {
        Tablebase::from_table(TableFile::in_memory(
            &g.region, g.limits, &g.codec, &g.entries,
        ))
    }

    /// A tablebase held in memory, straight from the generator, whose probes read its
    /// depths from one byte a configuration when it has at most
    /// [`crate::tablebase::dense::DENSE_MAX_LEN`] configurations (8 MB for 5x6 with 4 rows).
    pub fn from_generated_dense(g: &Generated) -> Tablebase {
        let mut tb = Tablebase::from_generated(g);
        tb.dense = DenseDepths::build(g);
        tb
    }

    /// Bytes of the dense depths (0 when probes read the tree).
    pub fn dense_bytes(&self) -> usize {
        self.dense.as_ref().map_or(0, DenseDepths::bytes)
    }

    /// Makes [`Oracle::guess`] use the thesis' looser race rule as well (never `probe`).
    pub fn with_race_guess(mut self, on: bool) -> Tablebase {
        self.race_guess = on;
        self
    }

    /// The file header.
    pub fn header(&self) -> &Header {
        &self.table.header
    }

    /// The loaded table.
    pub fn table(&self) -> &TableFile {
        &self.table
    }

    /// The region.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// Checks every block of the table now (a probe checks a block when it first reads it).
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<(), TableFileError> {
        self.table.verify_all(progress)
    }

    /// Why the table is incomplete (a sliced table with slices not built, or cut short),
    /// naming the first such slice: probes of those slices are errors, so a search uses the
    /// table only where it is intact.
    pub fn incomplete(&self) -> Option<TableFileError> {
        if let Some(t) = self.table.tree.as_compressed() {
            return t.completeness().err();
        }
        self.table.tree.as_sliced()?.completeness().err()
    }

    /// The first damaged block a probe ran into, as an error naming the file: a search
    /// that consulted the table may call this afterwards to report what it could not use.
    pub fn damage(&self) -> Option<TableFileError> {
        self.table
            .tree
            .first_damage()
            .map(|c| self.table.damaged(c))
    }

    /// The stored entry of a configuration (White to move, no White piece on `H-1`),
    /// with the move mirrored back when its mirror image is the stored member.
    #[inline]
    pub fn lookup(&self, c: Config) -> Result<Option<Entry>, Corrupt> {
        let (key, mirrored) = self.region.key_pair(c);
        let Some(value) = self.table.tree.get(key.min(mirrored))? else {
            return Ok(None);
        };
        let mut e = self.table.codec.decode(value);
        if mirrored < key {
            e.best_move = self.region.board().mirror_move(e.best_move);
        }
        Ok(Some(e))
    }

    /// The sound answer for White to move.
    #[inline]
    fn probe_white(&self, pos: &Position) -> Result<Win, Unknown> {
        let b = pos.board();
        if b != self.region.board() {
            return Err(Unknown::OtherBoard);
        }
        let (white, black) = (pos.white(), pos.black());
        if white & b.last_row() != 0 || black & b.first_row() != 0 || white == 0 || black == 0 {
            return Err(Unknown::GameOver);
        }
        let w = b.width();
        let below_goal = b.row_mask(b.height() - 2);
        if white & below_goal != 0 {
            let best_move = winning_step(pos, white & below_goal).ok_or(Unknown::GameOver)?;
            return Ok(Win {
                depth: 1,
                best_move,
            });
        }
        // Cheap rejections first, from the bitboards alone.
        let lowest = self.region.lowest_row();
        let black_row = black.trailing_zeros() / w + 1;
        let allowed = if black_row <= lowest {
            lowest.min(black_row - 1)
        } else {
            lowest
        };
        if allowed < 2 {
            return Err(Unknown::OpponentTooClose { row: black_row });
        }
        let c = self.region.config_of(pos);
        if c.white == 0 {
            return Err(Unknown::NoPieceInRegion);
        }
        let (own, opponent) = (c.white.count_ones(), c.black.count_ones());
        if !self.table.header.limits.allows(own, opponent) {
            return Err(Unknown::BeyondLimits { own, opponent });
        }
        let e = self
            .lookup(c)
            .map_err(Unknown::Damaged)?
            .ok_or(Unknown::NoForcedWin)?;
        if e.depth > allowed {
            return Err(Unknown::TooSlow {
                depth: e.depth,
                allowed,
            });
        }
        Ok(Win {
            depth: e.depth,
            best_move: e.best_move,
        })
    }

    /// A certain win for the side to move, or why there is none to claim
    /// ([`Unknown::Damaged`] when the data that would answer fails its check).
    pub fn explain(&self, pos: &Position) -> Result<Win, Unknown> {
        if pos.side() == BLACK {
            let flipped = pos.flip_colours();
            let win = self.probe_white(&flipped)?;
            Ok(Win {
                depth: win.depth,
                best_move: flipped.flip_move(win.best_move),
            })
        } else {
            self.probe_white(pos)
        }
    }

    /// The side to move's region configuration as White to move (what
    /// [`Region::config_of`] gives after the colour flip), read straight from the
    /// bitboards: no flip of the whole board.
    #[inline]
    fn view(&self, pos: &Position, mover: Side) -> Config {
        let r = &self.region;
        let w = r.width();
        let (white, black) = match mover {
            Side::First => {
                let shift = (r.lowest_row() - 1) * w;
                (pos.white() >> shift, pos.black() >> shift)
            }
            Side::Second => {
                // Black's region is board rows 1..n; board row n - j (from 1) is its local
                // row j after the flip, columns unchanged.
                let n = r.rows();
                let (mut own, mut other) = (0, 0);
                for j in 0..n {
                    let s = (n - 1 - j) * w;
                    own |= r.row_bits(pos.black() >> s, 0) << (j * w);
                    other |= r.row_bits(pos.white() >> s, 0) << (j * w);
                }
                (own, other)
            }
        };
        Config {
            white: white & (r.white_cells() | r.goal_minus_one()),
            black: black & r.black_cells(),
        }
    }

    /// The stored depth of `c` (no White piece on row `H-1`, at least one White piece),
    /// through the answer cache.
    #[inline]
    fn stored_depth(&self, c: Config) -> Result<Option<u32>, Corrupt> {
        if let Some(dense) = &self.dense {
            return Ok(dense.depth(c));
        }
        let Some(cache) = &self.cache else {
            return self.table_depth(c);
        };
        if let Some(d) = cache.get(c) {
            return Ok(d);
        }
        let d = self.table_depth(c)?;
        cache.put(c, d);
        Ok(d)
    }

    /// The depth [`Tablebase::lookup`] gives for `c`, read without the best move: a sliced
    /// table answers with one digit (its `Lookup::get` would recompute the best move from
    /// every successor, microseconds a probe), a slice not built as "not stored".
    #[inline]
    pub fn table_depth(&self, c: Config) -> Result<Option<u32>, Corrupt> {
        match &self.table.tree {
            Tree::Sliced(s) => {
                let cap = s.slicing().cap();
                let d = match &self.resident {
                    Some(r) => r.depth(c)?,
                    None => s.depth(c)?,
                };
                Ok(d.filter(|&d| d < cap).map(u32::from))
            }
            Tree::Compressed(t) => {
                let cap = t.slicing().cap();
                Ok(t.depth(c)?.filter(|&d| d < cap).map(u32::from))
            }
            Tree::Static(_) => Ok(self.lookup(c)?.map(|e| e.depth)),
        }
    }

    /// The depth of the win the sound rule claims for the side to move, or `None`: the
    /// answer of [`Tablebase::explain`] (the tests compare them on random positions) read
    /// without the colour flip and through the answer cache; a damaged block claims
    /// nothing. This is what the engine asks at every playout ply (inlined whole: as a
    /// call, a probe that the bitboards reject cost 8x8 playouts 10 ns a ply, 6 inlined).
    #[inline(always)]
    pub fn claim_depth(&self, pos: &Position) -> Option<u32> {
        match self.claim_step(pos) {
            Step::Known(d) => d,
            Step::Lookup { mover, allowed } => {
                let depth = self.mover_depth(pos, mover).ok()??;
                (depth <= allowed).then_some(depth)
            }
        }
    }

    /// The stored depth of the side to move's configuration (no piece of it on its row
    /// `H-1`, at least one in its region): a copy in memory without the answer cache reads
    /// it from the bitboards' row patterns, everything else through the configuration.
    #[inline(always)]
    fn mover_depth(&self, pos: &Position, mover: Side) -> Result<Option<u32>, Corrupt> {
        match (&self.resident, &self.cache) {
            (Some(r), None) => {
                // The bitboards have ruled depth 2 out (`claim_step`).
                let d = r.depth_beyond_two(self.rows(pos, mover))?;
                Ok(d.filter(|&d| d < r.cap()).map(u32::from))
            }
            _ => self.stored_depth(self.view(pos, mover)),
        }
    }

    /// The mover's row patterns that number its configuration in a sliced table (what
    /// [`Slicing::rows_of`](crate::tablebase::slices::Slicing::rows_of) gives of
    /// [`Tablebase::view`]), each read by one shift from the bitboards.
    #[inline(always)]
    fn rows(&self, pos: &Position, mover: Side) -> Rows {
        let g = &self.geometry;
        let at = &g.sides[mover.index()].local_row;
        let (own, opp) = (pos.pieces(mover), pos.pieces(mover.opponent()));
        let row = |bb: u64, j: usize| ((bb >> at[j]) & g.row_mask) as u32;
        let n = g.rows as usize;
        Rows {
            low: row(own, 0),
            shared: if n == 4 {
                row(own, 1) | (row(opp, 1) << g.size.0)
            } else {
                0
            },
            pre_goal: row(opp, n - 2),
            top: row(opp, n - 1),
        }
    }

    /// [`Tablebase::claim_depth`] up to the table: its answer when the bitboards decide
    /// it, else the configuration to look up and the largest depth the sound rule accepts.
    #[inline(always)]
    fn claim_step(&self, pos: &Position) -> Step {
        let b = pos.board();
        let g = &self.geometry;
        if (b.width(), b.height()) != g.size {
            return Step::Known(None);
        }
        let (white, black) = (pos.white(), pos.black());
        if white & b.last_row() != 0 || black & b.first_row() != 0 || white == 0 || black == 0 {
            return Step::Known(None);
        }
        let mover = pos.side();
        let side = &g.sides[mover.index()];
        if pos.pieces(mover) & side.pre_goal != 0 {
            return Step::Known(Some(1));
        }
        // The opponent's piece nearest the mover's home row, its row by a table (a
        // division by the width here cost a quarter of a rejected probe).
        let nearest = match mover {
            Side::First => black.trailing_zeros(),
            Side::Second => 63 - white.leading_zeros(),
        };
        let opponent_row = u32::from(side.row[nearest as usize]);
        let lowest = self.region.lowest_row();
        let allowed = if opponent_row <= lowest {
            lowest.min(opponent_row - 1)
        } else {
            lowest
        };
        if allowed < 2 {
            return Step::Known(None);
        }
        // No mover piece is on row `H-1` here, so these are the configuration's pieces:
        // count them before assembling it (on 8x8 with a piece limit nearly every
        // playout probe ends at the limit).
        let own = pos.pieces(mover) & side.own_cells;
        let limits = self.table.header.limits;
        if own == 0
            || (!limits.is_none()
                && !limits.allows(
                    own.count_ones(),
                    (pos.pieces(mover.opponent()) & side.opp_cells).count_ones(),
                ))
        {
            return Step::Known(None);
        }
        // Depth 2 is decided from the bitboards (see `wins_at_depth_two`); a claim of
        // depth 3 or more needs the table, and the sound rule may not allow one.
        let g = &self.geometry;
        let [run_at, mid_at, top_at] = side.top_rows;
        let row = |bb: u64, at: u32| ((bb >> at) & g.row_mask) as u32;
        let opp = pos.pieces(mover.opponent());
        let (run, mid, top) = (
            row(pos.pieces(mover), run_at),
            row(opp, mid_at),
            row(opp, top_at),
        );
        if wins_at_depth_two(run, mid, top, g.size.0) {
            return Step::Known(Some(2));
        }
        if allowed == 2 {
            return Step::Known(None);
        }
        Step::Lookup { mover, allowed }
    }

    /// The thesis' race rule: the mover's stored depth (sound rule or not) against the
    /// opponent's, a heuristic only; nothing when a damaged block would decide it.
    fn race(&self, pos: &Position) -> Option<GameResult> {
        if pos.board() != self.region.board() {
            return None;
        }
        let depth_of = |side: Side| -> Result<Option<u32>, Corrupt> {
            let c = self.view(pos, side);
            if c.white & self.region.goal_minus_one() != 0 {
                return Ok(Some(1));
            }
            if c.white == 0 {
                return Ok(None);
            }
            self.stored_depth(c)
        };
        let mine = depth_of(pos.side()).ok()??;
        match depth_of(pos.side().opponent()).ok()? {
            Some(theirs) if theirs < mine => Some(GameResult::Loss),
            _ => Some(GameResult::Win),
        }
    }

    /// [`Tablebase::race`] through the colour flip and without the cache (the slow path).
    fn race_slow(&self, pos: &Position) -> Option<GameResult> {
        let depth_of = |p: &Position| -> Result<Option<u32>, Corrupt> {
            let white_pos = if p.side() == BLACK {
                p.flip_colours()
            } else {
                *p
            };
            if white_pos.board() != self.region.board() {
                return Ok(None);
            }
            let c = self.region.config_of(&white_pos);
            if c.white & self.region.goal_minus_one() != 0 {
                return Ok(Some(1));
            }
            if c.white == 0 {
                return Ok(None);
            }
            Ok(self.lookup(c)?.map(|e| e.depth))
        };
        let mine = depth_of(pos).ok()??;
        let other =
            Position::from_parts(pos.board(), pos.white(), pos.black(), pos.side().opponent())
                .ok()?;
        match depth_of(&other).ok()? {
            Some(theirs) if theirs < mine => Some(GameResult::Loss),
            _ => Some(GameResult::Win),
        }
    }
}

/// How far the bitboards decide a sound claim.
enum Step {
    /// The claim's depth, or none, without the table.
    Known(Option<u32>),
    /// The table's depth of the mover's configuration decides: a claim when it is at most
    /// `allowed`.
    Lookup { mover: Side, allowed: u32 },
}

impl Tablebase {
    /// A sound bound on the plies the side to move needs to win `pos`, given the table's
    /// depth `depth` for it.
    ///
    /// `D` bounds the opponent's tempo moves (at most `D - 1`), not the mover's moves:
    /// every opponent move inside the region is free. Each such move lowers the sum `S` of
    /// the opponent's region pieces' heights above the region's lowest row by one at least,
    /// so the mover wins with at most `D + S` moves, within `2 (D + S) - 1` plies (`2D - 1`
    /// alone can be too short: `4/BBBB/3W/WWW1 b` has `D = 2` and takes 5 plies).
    pub fn win_plies(&self, pos: &Position, depth: u32) -> u32 {
        // Read from the bitboards in the mover's view (rows counted from its home row),
        // without flipping the board: the opponent's pieces on its rows `R+1..H`.
        let board = pos.board();
        let h = board.height();
        let lowest = self.region().lowest_row();
        let mut heights = 0;
        for row in lowest + 1..=h {
            let on_row = match pos.side() {
                Side::First => pos.black() & board.row_mask(row - 1),
                Side::Second => pos.white() & board.row_mask(h - row),
            };
            heights += on_row.count_ones() * (row - lowest);
        }
        (2 * (depth + heights)).saturating_sub(1)
    }
}

impl Oracle<Position> for Tablebase {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        // Most probes claim nothing: answer those from the fast path, and take the best
        // move (which the cache does not hold) from the full probe only for a win.
        if !self.slow && self.claim_depth(pos).is_none() {
            return None;
        }
        self.explain(pos).ok().map(|w| ProvenOutcome {
            result: GameResult::Win,
            plies: Some(self.win_plies(pos, w.depth)),
            best_move: Some(w.best_move),
        })
    }

    /// The proof without the best move (the claim's depth is all a proof needs): no colour
    /// flip and no full probe, and on a sliced table none of the successor reads that
    /// recompute a best move.
    #[inline]
    fn probe_value(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        if self.slow {
            return self.probe(pos);
        }
        let depth = self.claim_depth(pos)?;
        Some(ProvenOutcome {
            result: GameResult::Win,
            plies: Some(self.win_plies(pos, depth)),
            best_move: None,
        })
    }

    #[inline]
    fn guess(&self, pos: &Position) -> Option<GameResult> {
        if self.slow {
            return match self.explain(pos) {
                Ok(_) => Some(GameResult::Win),
                Err(_) if self.race_guess => self.race_slow(pos),
                Err(_) => None,
            };
        }
        if self.claim_depth(pos).is_some() {
            Some(GameResult::Win)
        } else if self.race_guess {
            self.race(pos)
        } else {
            None
        }
    }

    fn damage(&self) -> Option<String> {
        Tablebase::damage(self).map(|e| e.to_string())
    }
}
