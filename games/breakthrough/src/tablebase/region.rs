//! The region of a row-limited table: its geometry, region configurations on local
//! bitboards, their moves, the left-right mirror and the Gödel key (thesis eq. 4.1).

use crate::{Board, Position};
use quasar_core::grid;
use std::fmt;

/// Largest `rows * width` whose base-3 key fits a `u64` (`3^40 < 2^64`).
pub const MAX_KEY_CELLS: u32 = 40;

/// Bad table parameters (board, rows, limits); the message says which and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RegionError(pub String);

/// Optional piece limits of a table; a configuration beyond any of them is not covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// At most this many White pieces in the region.
    pub max_white: Option<u32>,
    /// At most this many Black pieces in the region.
    pub max_black: Option<u32>,
    /// At most this many pieces of both colours in the region.
    pub max_pieces: Option<u32>,
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits {
        max_white: None,
        max_black: None,
        max_pieces: None,
    };

    /// True when no limit is set.
    pub fn is_none(&self) -> bool {
        *self == Limits::NONE
    }

    /// True when `white` White and `black` Black pieces are within every limit.
    #[inline]
    pub fn allows(&self, white: u32, black: u32) -> bool {
        self.max_white.is_none_or(|p| white <= p)
            && self.max_black.is_none_or(|q| black <= q)
            && self.max_pieces.is_none_or(|t| white + black <= t)
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: Option<u32>| v.map_or("-".to_string(), |x| x.to_string());
        write!(
            f,
            "max-white {} max-black {} max-pieces {}",
            show(self.max_white),
            show(self.max_black),
            show(self.max_pieces)
        )
    }
}

/// A region configuration on local bitboards: bit `j * W + c` is local row `j` (row
/// `R + j` of the board, `j = 0` is row `R`) and column `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    /// White pieces, on local rows `0..n-2` (row `n-2` only transiently, after a White move).
    pub white: u64,
    /// Black pieces, on local rows `1..n`.
    pub black: u64,
}

/// A move in local cell numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalMove {
    /// Local cell the piece leaves.
    pub from: u32,
    /// Local cell the piece reaches.
    pub to: u32,
}

/// The geometry of one table: board, row count, and lookup tables for keys and mirrors.
#[derive(Clone, Debug)]
pub struct Region {
    board: Board,
    rows: u32,
    width: u32,
    /// 0-based board row of local row 0 (`R - 1`).
    base_row: u32,
    row_mask: u64,
    white_cells: u64,
    black_cells: u64,
    goal_minus_one: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// Base-3 value of a row's bit pattern, leftmost column most significant.
    base3: Vec<u64>,
    /// `3^(W * j)` for local row `j`.
    row_weight: Vec<u64>,
}

impl Region {
    /// The region of the top `rows` rows of `board`; `3 <= rows <= H - 1` and at most
    /// [`MAX_KEY_CELLS`] cells, so that the key fits a `u64`.
    pub fn new(board: Board, rows: u32) -> Result<Region, RegionError> {
        let (w, h) = (board.width(), board.height());
        // The message names no option: the solver's and the builder's differ.
        if h < 4 {
            return Err(RegionError(format!(
                "a table covers 3 rows or more and leaves at least one row out, so {board} \
                 (of {h} rows) is too small for one: give a board of 4 rows or more"
            )));
        }
        if rows < 3 || rows > h - 1 {
            let range = match h - 1 {
                3 => "exactly 3 rows".to_string(),
                top => format!("3 to {top} rows"),
            };
            return Err(RegionError(format!(
                "a table of {board} covers {range}, not {rows}"
            )));
        }
        if rows * w > MAX_KEY_CELLS {
            return Err(RegionError(format!(
                "{rows} rows of {w} columns are {} cells; the u64 Gödel key holds at most {MAX_KEY_CELLS}",
                rows * w
            )));
        }
        let row_mask = (1u64 << w) - 1;
        let rows_mask =
            |from: u32, to: u32| -> u64 { (from..to).fold(0, |m, j| m | (row_mask << (j * w))) };
        let mut first_col = 0u64;
        for j in 0..rows {
            first_col |= 1u64 << (j * w);
        }
        let all = rows_mask(0, rows);
        let base3 = (0..1u64 << w)
            .map(|bits| (0..w).fold(0u64, |acc, c| acc * 3 + ((bits >> c) & 1)))
            .collect();
        let row_weight = (0..rows).map(|j| 3u64.pow(j * w)).collect();
        Ok(Region {
            board,
            rows,
            width: w,
            base_row: h - rows,
            row_mask,
            white_cells: rows_mask(0, rows - 2),
            black_cells: rows_mask(1, rows),
            goal_minus_one: rows_mask(rows - 2, rows - 1),
            not_first_col: all & !first_col,
            not_last_col: all & !(first_col << (w - 1)),
            base3,
            row_weight,
        })
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The row count `n`.
    #[inline]
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// The number of columns.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// `R`, the lowest row of the region, 1-based.
    #[inline]
    pub fn lowest_row(&self) -> u32 {
        self.base_row + 1
    }

    /// Local cells where a stored configuration may hold White pieces (rows `R..H-2`).
    #[inline]
    pub fn white_cells(&self) -> u64 {
        self.white_cells
    }

    /// Local cells where a configuration may hold Black pieces (rows `R+1..H`).
    #[inline]
    pub fn black_cells(&self) -> u64 {
        self.black_cells
    }

    /// Local cells of row `H-1`.
    #[inline]
    pub fn goal_minus_one(&self) -> u64 {
        self.goal_minus_one
    }

    /// Base-3 value of a row pattern, leftmost column most significant.
    #[inline]
    pub fn base3(&self, bits: u64) -> u64 {
        self.base3[bits as usize]
    }

    /// The pattern of local row `j`.
    #[inline]
    pub fn row_bits(&self, bb: u64, j: u32) -> u64 {
        (bb >> (j * self.width)) & self.row_mask
    }

    /// The region configuration of a position with White to move: its pieces shifted to
    /// local cells, White pieces on `H-1` kept (they make `D = 1`), White below `R` and
    /// Black below `R + 1` dropped. No allocation.
    #[inline]
    pub fn config_of(&self, pos: &Position) -> Config {
        let shift = self.base_row * self.width;
        Config {
            white: (pos.white() >> shift) & (self.white_cells | self.goal_minus_one),
            black: (pos.black() >> shift) & self.black_cells,
        }
    }

    /// The left-right mirror image.
    #[inline]
    pub fn mirror(&self, c: Config) -> Config {
        Config {
            white: grid::mirror_columns(c.white, self.width, self.rows),
            black: grid::mirror_columns(c.black, self.width, self.rows),
        }
    }

    /// A local cell seen in the mirror.
    #[inline]
    pub fn mirror_cell(&self, cell: u32) -> u32 {
        self.board.mirror_square(cell as u8) as u32
    }

    /// The Gödel key of thesis eq. 4.1: cells from the region's top-left, left to right,
    /// rows downward, the first cell most significant; 2 White, 1 Black, 0 empty.
    #[inline]
    pub fn key(&self, c: Config) -> u64 {
        let mut key = 0u64;
        for j in 0..self.rows {
            let w = self.base3[self.row_bits(c.white, j) as usize];
            let b = self.base3[self.row_bits(c.black, j) as usize];
            key += (2 * w + b) * self.row_weight[j as usize];
        }
        key
    }

    /// The keys of `c` and of its mirror image, in one pass over the rows.
    #[inline]
    pub fn key_pair(&self, c: Config) -> (u64, u64) {
        let (mut key, mut mirrored) = (0u64, 0u64);
        for j in 0..self.rows {
            let (wr, br) = (self.row_bits(c.white, j), self.row_bits(c.black, j));
            let wm = grid::mirror_row(wr, self.width) as usize;
            let bm = grid::mirror_row(br, self.width) as usize;
            let weight = self.row_weight[j as usize];
            key += (2 * self.base3[wr as usize] + self.base3[br as usize]) * weight;
            mirrored += (2 * self.base3[wm] + self.base3[bm]) * weight;
        }
        (key, mirrored)
    }

    /// The configuration of a key (the inverse of [`Region::key`]).
    pub fn config_of_key(&self, mut key: u64) -> Config {
        let k = self.rows * self.width;
        let mut c = Config { white: 0, black: 0 };
        for i in (0..k).rev() {
            let digit = key % 3;
            key /= 3;
            // Digit `i` (from the top-left) is local row rows-1-i/W, column i%W.
            let cell = (self.rows - 1 - i / self.width) * self.width + i % self.width;
            match digit {
                2 => c.white |= 1u64 << cell,
                1 => c.black |= 1u64 << cell,
                _ => {}
            }
        }
        c
    }

    /// The board cell of a local cell.
    #[inline]
    pub fn board_cell(&self, cell: u32) -> u8 {
        (cell + self.base_row * self.width) as u8
    }

    /// White's move destinations: (left-diagonal, straight, right-diagonal) masks.
    #[inline]
    pub fn white_targets(&self, c: Config) -> [u64; 3] {
        let w = self.width;
        let empty = !(c.white | c.black);
        [
            ((c.white & self.not_first_col) << (w - 1)) & !c.white,
            (c.white << w) & empty,
            ((c.white & self.not_last_col) << (w + 1)) & !c.white,
        ]
    }

    /// Calls `f` on every White move in the spec's order (from-cell, then to-cell,
    /// ascending); stops early when `f` returns false.
    #[inline]
    pub fn for_each_white_move(&self, c: Config, mut f: impl FnMut(LocalMove) -> bool) {
        let w = self.width;
        let [l, s, r] = self.white_targets(c);
        let mut own = c.white;
        while own != 0 {
            let from = own.trailing_zeros();
            own &= own - 1;
            for (to, mask) in [(from + w - 1, l), (from + w, s), (from + w + 1, r)] {
                if to < 64 && mask & (1u64 << to) != 0 && !f(LocalMove { from, to }) {
                    return;
                }
            }
        }
    }

    /// Calls `f` on every Black region move (including moves onto row `R`); stops early
    /// when `f` returns false.
    #[inline]
    pub fn for_each_black_move(&self, c: Config, mut f: impl FnMut(LocalMove) -> bool) {
        let w = self.width;
        let empty = !(c.white | c.black);
        let dirs = [
            (
                ((c.black & self.not_first_col) >> (w + 1)) & !c.black,
                w + 1,
            ),
            ((c.black >> w) & empty, w),
            (((c.black & self.not_last_col) >> (w - 1)) & !c.black, w - 1),
        ];
        for (mut mask, back) in dirs {
            while mask != 0 {
                let to = mask.trailing_zeros();
                mask &= mask - 1;
                if !f(LocalMove {
                    from: to + back,
                    to,
                }) {
                    return;
                }
            }
        }
    }

    /// The configuration after White's local move (Black to move, same pieces frame).
    #[inline]
    pub fn after_white(&self, c: Config, m: LocalMove) -> Config {
        let to = 1u64 << m.to;
        Config {
            white: c.white ^ (1u64 << m.from) ^ to,
            black: c.black & !to,
        }
    }

    /// The configuration after Black's region move, and whether it landed on row `R`
    /// (leaving the region, a tempo move).
    #[inline]
    pub fn after_black(&self, c: Config, m: LocalMove) -> (Config, bool) {
        let to = 1u64 << m.to;
        let leaves = m.to < self.width;
        let black = if leaves {
            c.black & !(1u64 << m.from)
        } else {
            c.black ^ (1u64 << m.from) ^ to
        };
        (
            Config {
                white: c.white & !to,
                black,
            },
            leaves,
        )
    }
}

/// Whether the side to move, with no piece on its row `H-1`, has a win of depth 2 (the
/// table's `D`, in which the opponent's moves inside the region are free), from the row
/// patterns (column `c` is bit `c`) of its pieces on its row `H-2` (`run`) and the
/// opponent's on `H-1` (`mid`) and `H` (`top`): a step onto `H-1` that no piece on `H`
/// can capture, or one whose every capture leaves such a win again. Depth 2 means exactly
/// this in the spec's recurrence (a reply must leave a piece on `H-1`, and a capture of it
/// is a free move, after which the depth must still be 2); `w` is the width.
#[inline(always)]
pub fn wins_at_depth_two(run: u32, mid: u32, top: u32, w: u32) -> bool {
    let full = (1u32 << w) - 1;
    let landing = (run & !mid) | (run >> 1) | ((run << 1) & full);
    let attacked = ((top >> 1) | (top << 1)) & full;
    // With one runner every capture leaves none: no second step.
    landing & !attacked != 0
        || (landing != 0 && run & (run - 1) != 0 && wins_through_captures(run, mid, top, w))
}

/// [`wins_at_depth_two`] when every landing cell is attacked: a step there wins only if
/// each capture of it leaves another depth-2 win (each level spends a runner and a guard).
#[inline(never)]
fn wins_through_captures(run: u32, mid: u32, top: u32, w: u32) -> bool {
    let full = (1u32 << w) - 1;
    let mut runners = run;
    while runners != 0 {
        let x = runners.trailing_zeros();
        runners &= runners - 1;
        let from = 1u32 << x;
        let mut targets = (from & !mid) | (from >> 1) | ((from << 1) & full);
        while targets != 0 {
            let c = targets.trailing_zeros();
            targets &= targets - 1;
            let to = 1u32 << c;
            let mut guards = top & ((to >> 1) | ((to << 1) & full));
            let mut holds = true;
            while guards != 0 {
                let g = guards.trailing_zeros();
                guards &= guards - 1;
                if !wins_at_depth_two(run & !from, mid | to, top & !(1 << g), w) {
                    holds = false;
                    break;
                }
            }
            if holds {
                return true;
            }
        }
    }
    false
}
