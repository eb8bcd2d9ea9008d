//! The board geometry (sizes and edge masks), the [`Position`] and the [`Move`].

use crate::error::{BoardError, PositionError};
use quasar_core::Side;
use std::fmt;
use std::str::FromStr;

/// White moves first and up the board.
pub const WHITE: Side = Side::First;
/// Black moves second and down the board.
pub const BLACK: Side = Side::Second;

/// A board size with the bit masks that move generation needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    cells: u64,
    not_first_col: u64,
    not_last_col: u64,
    first_row: u64,
    last_row: u64,
}

impl Board {
    /// The largest column or row count any legal board has (3 x 21).
    pub const MAX_SIDE: u8 = 21;

    /// A `width x height` board; both at least 3 and at most 64 cells.
    pub fn new(width: u32, height: u32) -> Result<Board, BoardError> {
        if width < 3 || height < 3 {
            return Err(BoardError::TooSmall { width, height });
        }
        // Multiplied in u64: `--board 3x1431655766` must not wrap around to a small board.
        let num_cells = width as u64 * height as u64;
        if num_cells > 64 {
            return Err(BoardError::TooManyCells {
                width,
                height,
                cells: num_cells,
            });
        }
        let cells = if width * height == 64 {
            u64::MAX
        } else {
            (1u64 << (width * height)) - 1
        };
        let first_row = (1u64 << width) - 1;
        let last_row = first_row << (width * (height - 1));
        let mut first_col = 0u64;
        for r in 0..height {
            first_col |= 1u64 << (r * width);
        }
        let last_col = first_col << (width - 1);
        Ok(Board {
            width: width as u8,
            height: height as u8,
            cells,
            not_first_col: cells & !first_col,
            not_last_col: cells & !last_col,
            first_row,
            last_row,
        })
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// Number of cells, `width * height`.
    #[inline]
    pub fn num_cells(&self) -> u32 {
        self.width() * self.height()
    }

    /// Mask of every cell of the board.
    #[inline]
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// Mask of every cell not in column `a`.
    #[inline]
    pub fn not_first_col(&self) -> u64 {
        self.not_first_col
    }

    /// Mask of every cell not in the last column.
    #[inline]
    pub fn not_last_col(&self) -> u64 {
        self.not_last_col
    }

    /// Mask of row 1 (White's home row, Black's goal).
    #[inline]
    pub fn first_row(&self) -> u64 {
        self.first_row
    }

    /// Mask of row `H` (Black's home row, White's goal).
    #[inline]
    pub fn last_row(&self) -> u64 {
        self.last_row
    }

    /// Mask of row `row` (0-based from the bottom).
    #[inline]
    pub fn row_mask(&self, row: u32) -> u64 {
        self.first_row << (row * self.width())
    }

    /// The cell index of column `col` and row `row`, both 0-based.
    #[inline]
    pub fn square(&self, col: u32, row: u32) -> u8 {
        (row * self.width() + col) as u8
    }

    /// The 0-based column of a cell.
    #[inline]
    pub fn col(&self, sq: u8) -> u32 {
        sq as u32 % self.width()
    }

    /// The 0-based row of a cell.
    #[inline]
    pub fn row(&self, sq: u8) -> u32 {
        sq as u32 / self.width()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads `WxH`: `W` columns, `H` rows.
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let bad = || BoardError::Malformed(s.to_string());
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let w: u32 = w.parse().map_err(|_| bad())?;
        let h: u32 = h.parse().map_err(|_| bad())?;
        Board::new(w, h)
    }
}

/// A Breakthrough move: a piece steps from one cell to the next row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Cell the piece leaves.
    pub from: u8,
    /// Cell the piece reaches (a capture when an opponent piece stands there).
    pub to: u8,
}

/// A Breakthrough position: the board size, both sides' pieces and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) board: Board,
    pub(super) white: u64,
    pub(super) black: u64,
    pub(super) side: Side,
}

impl Position {
    /// The start position: each side fills its two home rows, White to move.
    ///
    /// Panics on a board with fewer than 4 rows, where the two sides' home rows would
    /// overlap; use [`Position::try_start`] for a board that comes from user input.
    pub fn start(board: Board) -> Position {
        match Position::try_start(board) {
            Ok(pos) => pos,
            Err(e) => panic!("{e}"),
        }
    }

    /// The start position, or an error on a board with fewer than 4 rows (3-row boards
    /// hold positions, for example tablebase regions, but have no start position).
    pub fn try_start(board: Board) -> Result<Position, BoardError> {
        if board.height() < 4 {
            return Err(BoardError::NoStart(board));
        }
        let w = board.width();
        let white = board.first_row | (board.first_row << w);
        let black = board.last_row | (board.last_row >> w);
        Ok(Position {
            board,
            white,
            black,
            side: WHITE,
        })
    }

    /// A position from piece masks; fails if they overlap or leave the board, or if both
    /// sides have already won.
    pub fn from_parts(
        board: Board,
        white: u64,
        black: u64,
        side: Side,
    ) -> Result<Position, PositionError> {
        if white & black != 0 {
            return Err(PositionError::Overlap);
        }
        if (white | black) & !board.cells != 0 {
            return Err(PositionError::OffBoard(board));
        }
        let white_won = white & board.last_row != 0 || black == 0;
        let black_won = black & board.first_row != 0 || white == 0;
        if white_won && black_won {
            return Err(PositionError::BothWon);
        }
        Ok(Position {
            board,
            white,
            black,
            side,
        })
    }

    /// The board size.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// Bitboard of White's pieces.
    #[inline]
    pub fn white(&self) -> u64 {
        self.white
    }

    /// Bitboard of Black's pieces.
    #[inline]
    pub fn black(&self) -> u64 {
        self.black
    }

    /// The pieces of `side`.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        match side {
            Side::First => self.white,
            Side::Second => self.black,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// True when `mv` captures a piece in this position.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        (self.white | self.black) & (1u64 << mv.to) != 0
    }

    /// A hash of the pieces and the side to move (a strong mix, not a Zobrist table: two
    /// multiplications beat sixty table lookups and collide no more often).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        let mut h = self.white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .black
                .rotate_left(29)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (self.side as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 32)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::from_fen(s)
    }
}
