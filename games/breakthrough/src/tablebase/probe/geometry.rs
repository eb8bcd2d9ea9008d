//! The table's board seen from each side to move, for the bitboard tests of a probe.

use crate::tablebase::region::Region;
use crate::{Move, Position};
use quasar_core::Side;

/// The table's board seen from each side to move, for the bitboard tests of a probe.
#[derive(Clone, Debug)]
pub(super) struct Geometry {
    /// The board's width and height.
    pub(super) size: (u32, u32),
    /// The region's row count.
    pub(super) rows: u32,
    /// One row's cells, at the bottom.
    pub(super) row_mask: u64,
    /// By [`Side::index`] of the side to move.
    pub(super) sides: [SideGeometry; 2],
}

/// The board seen from one side to move.
#[derive(Clone, Debug)]
pub(super) struct SideGeometry {
    /// The mover's row `H-1`, counted from its home row: a piece there wins in one.
    pub(super) pre_goal: u64,
    /// The bit of column `a` of the mover's rows `H-2`, `H-1` and `H`.
    pub(super) top_rows: [u32; 3],
    /// Cells of the mover's region pieces (its rows `R..H-2`).
    pub(super) own_cells: u64,
    /// Cells of the opponent's region pieces (the mover's rows `R+1..H`).
    pub(super) opp_cells: u64,
    /// Each cell's row, counted from the mover's home row (from 1).
    pub(super) row: [u8; 64],
    /// The bit of column `a` of the region's local row `j` (the mover's row `R + j`), for
    /// the rows a sliced table numbers (at most 4; unused for more).
    pub(super) local_row: [u32; 4],
}

impl Geometry {
    pub(super) fn new(region: &Region) -> Geometry {
        let b = region.board();
        let (w, h, lowest) = (b.width(), b.height(), region.lowest_row());
        let side = |mover: Side| {
            // The mover's row `r` (from 1) is board row `r` for White, `h + 1 - r` for
            // Black (the same map both ways); local row `j` of the region is the mover's
            // row `lowest + j`.
            let board_row = |r: u32| match mover {
                Side::First => r,
                Side::Second => h + 1 - r,
            };
            let to_board = |local: u64| {
                (0..region.rows()).fold(0, |a, j| {
                    a | region.row_bits(local, j) << ((board_row(lowest + j) - 1) * w)
                })
            };
            let mut row = [0u8; 64];
            for (cell, r) in row.iter_mut().enumerate().take((w * h) as usize) {
                *r = board_row(cell as u32 / w + 1) as u8;
            }
            let mut local_row = [0; 4];
            for (j, at) in local_row
                .iter_mut()
                .enumerate()
                .take(region.rows() as usize)
            {
                *at = (board_row(lowest + j as u32) - 1) * w;
            }
            SideGeometry {
                pre_goal: b.row_mask(board_row(h - 1) - 1),
                top_rows: [h - 2, h - 1, h].map(|r| (board_row(r) - 1) * w),
                own_cells: to_board(region.white_cells()),
                opp_cells: to_board(region.black_cells()),
                row,
                local_row,
            }
        };
        Geometry {
            size: (w, h),
            rows: region.rows(),
            row_mask: (1 << w) - 1,
            sides: [side(Side::First), side(Side::Second)],
        }
    }
}

/// The first move (from-cell, then to-cell ascending) of a piece on `H-1` onto row `H`.
#[inline]
pub(super) fn winning_step(pos: &Position, mut pieces: u64) -> Option<Move> {
    let b = pos.board();
    let w = b.width();
    let (white, black) = (pos.white(), pos.black());
    while pieces != 0 {
        let from = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let col = from % w;
        let candidates = [
            (col > 0).then(|| from + w - 1),
            Some(from + w),
            (col + 1 < w).then(|| from + w + 1),
        ];
        for (i, to) in candidates.into_iter().enumerate() {
            let Some(to) = to else { continue };
            let bit = 1u64 << to;
            let ok = if i == 1 {
                (white | black) & bit == 0
            } else {
                white & bit == 0
            };
            if ok {
                return Some(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }
    None
}
