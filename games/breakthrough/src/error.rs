//! Breakthrough's typed errors for bad board sizes, position text, cell names and moves.
//! Through the [`Game`](quasar_core::Game) trait they arrive wrapped in the core's
//! [`ParseError`] kinds; [`ParseError::downcast_ref`] gets them back.

use crate::board::Board;
use quasar_core::{Detail, ParseError};

/// A board size Breakthrough cannot be played on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Text that is not `WxH`.
    #[error("bad board size '{0}': expected WxH, for example 6x6 or 8x8")]
    Malformed(String),
    /// Fewer than 3 columns or rows.
    #[error(
        "board {width}x{height} is too small: Breakthrough needs at least 3 columns and 3 rows"
    )]
    TooSmall {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
    },
    /// More than 64 cells.
    #[error("board {width}x{height} has {cells} cells; at most 64 fit a bitboard")]
    TooManyCells {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
        /// Their product.
        cells: u64,
    },
    /// A legal board with too few rows for the two home rows of each side.
    #[error("board {0} has no start position: two home rows per side need at least 4 rows")]
    NoStart(Board),
}

/// Position text that does not describe a Breakthrough position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// No text at all.
    #[error("empty position: expected rows like 'BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w'")]
    Empty,
    /// Rows without the side to move.
    #[error("missing side to move: add ' w' or ' b' after the rows")]
    MissingSide,
    /// A side to move other than `w` or `b`.
    #[error("bad side to move '{0}': expected 'w' or 'b'")]
    BadSide(String),
    /// More fields after the side to move.
    #[error("unexpected text '{0}' after the side to move")]
    TrailingText(String),
    /// A run of digits that is not a number.
    #[error("bad number in row {rank}: '{row}'")]
    BadNumber {
        /// The row's number (1 is White's home row).
        rank: usize,
        /// The row's text.
        row: String,
    },
    /// A run of no cells, or of more than any row holds.
    #[error("bad run of {run} empty cells in row {rank}: '{row}'")]
    BadRun {
        /// The run's length.
        run: usize,
        /// The row's number.
        rank: usize,
        /// The row's text.
        row: String,
    },
    /// A character other than `W`, `B` or a digit.
    #[error("unexpected '{found}' in row {rank} ('{row}'): use W, B and digits")]
    BadChar {
        /// The character.
        found: char,
        /// The row's number.
        rank: usize,
        /// The row's text.
        row: String,
    },
    /// Rows of different widths.
    #[error(
        "row {rank} has {cells} cells but row {height} has {width}: every row needs the same width"
    )]
    UnequalRows {
        /// The row that differs.
        rank: usize,
        /// Its width.
        cells: usize,
        /// The top row's number (the row count).
        height: u32,
        /// The top row's width.
        width: u32,
    },
    /// Rows that make a board Breakthrough cannot be played on.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A White and a Black piece on one cell.
    #[error("a cell holds both a White and a Black piece")]
    Overlap,
    /// Pieces beyond the board's cells.
    #[error("pieces lie outside the {0} board")]
    OffBoard(Board),
    /// A piece of each side on its goal row, or no pieces at all.
    #[error("both sides have already won (a piece on each goal row, or no pieces at all)")]
    BothWon,
}

/// A cell name that is not a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// No text.
    #[error("expected a cell such as c3, found nothing")]
    Missing,
    /// Not starting with a lowercase letter.
    #[error("expected a column letter a-{last} at '{text}'")]
    NoLetter {
        /// The text read.
        text: String,
        /// The board's last column letter.
        last: char,
    },
    /// A column beyond the board.
    #[error("column '{letter}' is off the {board} board (columns a-{last})")]
    ColumnOff {
        /// The column letter.
        letter: char,
        /// The board.
        board: Board,
        /// The board's last column letter.
        last: char,
    },
    /// A letter without a row number.
    #[error("expected a row number after '{letter}' in '{text}'")]
    NoRow {
        /// The column letter.
        letter: char,
        /// The text read.
        text: String,
    },
    /// Digits that are no number (too long).
    #[error("bad row number in '{0}'")]
    BadRow(String),
    /// A row beyond the board.
    #[error("cell {letter}{row} is off the {board} board (columns a-{last}, rows 1-{height})")]
    RowOff {
        /// The column letter.
        letter: char,
        /// The row number.
        row: u32,
        /// The board.
        board: Board,
        /// The board's last column letter.
        last: char,
        /// The board's row count.
        height: u32,
    },
    /// More text after a cell name.
    #[error("unexpected text after the cell in '{0}'")]
    Trailing(String),
}

/// Move text that names no legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A from- or to-cell that is not a cell of the board.
    #[error("bad move '{text}': {cell}")]
    BadCell {
        /// The move text.
        text: String,
        /// What is wrong with the cell.
        cell: CellError,
    },
    /// Two cells that are not a legal move here.
    #[error("illegal move '{text}': {why}")]
    Illegal {
        /// The move text.
        text: String,
        /// Why it is not legal.
        why: Illegal,
    },
    /// Written with `x` but captures nothing.
    #[error("'{0}' is marked as a capture but captures nothing")]
    NotACapture(String),
    /// A capture written with `-`.
    #[error("'{0}' captures a piece: write it with 'x'")]
    UnmarkedCapture(String),
}

/// Why a move is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over ({winner} has won)")]
    GameOver {
        /// "White" or "Black".
        winner: &'static str,
    },
    /// The from-cell holds no piece of the side to move.
    #[error("no {side} piece stands on {cell}")]
    NoPiece {
        /// "White" or "Black".
        side: &'static str,
        /// The from-cell's name.
        cell: String,
    },
    /// The piece there cannot go there.
    #[error("legal moves are {}", .legal.join(" "))]
    NotAMove {
        /// The legal moves' text.
        legal: Vec<String>,
    },
}

impl From<BoardError> for ParseError {
    fn from(e: BoardError) -> ParseError {
        ParseError::Board(Detail::new(e))
    }
}

impl From<PositionError> for ParseError {
    fn from(e: PositionError) -> ParseError {
        match e {
            PositionError::Board(b) => b.into(),
            other => ParseError::Position(Detail::new(other)),
        }
    }
}

impl From<MoveError> for ParseError {
    fn from(e: MoveError) -> ParseError {
        match e {
            MoveError::Illegal { .. } => ParseError::IllegalMove(Detail::new(e)),
            other => ParseError::Move(Detail::new(other)),
        }
    }
}
