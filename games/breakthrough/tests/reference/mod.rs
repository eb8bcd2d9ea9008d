//! A deliberately plain second Breakthrough implementation for the tests: an array board,
//! its own position text, move generation and end-of-game rules, written from the spec
//! (`docs/games/breakthrough.md`, its rules) and sharing no code with
//! the engine. Slow on purpose: every rule is spelled out cell by cell.
#![allow(dead_code)]
// Index loops are the point of this plain implementation: they read like the rules.
#![allow(clippy::needless_range_loop)]

use quasar_core::SplitMix64;
use rand::Rng;

/// Boards of many shapes (width, height), from the smallest to the longest.
pub const BOARDS: &[(usize, usize)] = &[
    (3, 4),
    (4, 3),
    (3, 5),
    (5, 5),
    (6, 6),
    (8, 8),
    (7, 4),
    (4, 7),
    (4, 16),
    (16, 4),
    (3, 21),
    (21, 3),
    (6, 10),
    (9, 7),
];

/// What stands on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    White,
    Black,
}

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    White,
    Black,
}

/// A position: `cells[row][col]`, row 0 is row 1 (White's home row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Vec<Cell>>,
    pub white_to_move: bool,
}

/// A move from `(col, row)` to `(col, row)`, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: (usize, usize),
    pub to: (usize, usize),
}

impl RefMove {
    /// The cells as row-major indices from a1 = 0 (the numbering the spec fixes).
    pub fn indices(&self, width: usize) -> (u8, u8) {
        (
            (self.from.1 * width + self.from.0) as u8,
            (self.to.1 * width + self.to.0) as u8,
        )
    }
}

fn cell_name(col: usize, row: usize) -> String {
    let letter = (b'a' + col as u8) as char;
    format!("{}{}", letter, row + 1)
}

/// Appends the run of empty cells that the digits read so far (`number`) give to `row`,
/// and clears them: nothing when there are none.
fn push_empty_run(row: &mut Vec<Cell>, number: &mut String) -> Result<(), String> {
    if number.is_empty() {
        return Ok(());
    }
    let n: usize = number.parse().map_err(|_| "bad number".to_string())?;
    if n == 0 || n > 64 {
        return Err("run too long".to_string());
    }
    row.extend(std::iter::repeat_n(Cell::Empty, n));
    number.clear();
    Ok(())
}

impl RefPos {
    /// The start position: two full rows per side, White to move.
    pub fn start(width: usize, height: usize) -> RefPos {
        let mut cells = vec![vec![Cell::Empty; width]; height];
        for col in 0..width {
            cells[0][col] = Cell::White;
            cells[1][col] = Cell::White;
            cells[height - 1][col] = Cell::Black;
            cells[height - 2][col] = Cell::Black;
        }
        RefPos {
            width,
            height,
            cells,
            white_to_move: true,
        }
    }

    /// A random placement of pieces on a `w x h` board, `fill` percent of cells occupied,
    /// either side to move; it may be finished, or have both sides on their goal rows.
    pub fn random_placement(w: usize, h: usize, fill: u64, rng: &mut SplitMix64) -> RefPos {
        let mut cells = vec![vec![Cell::Empty; w]; h];
        for row in cells.iter_mut() {
            for cell in row.iter_mut() {
                if rng.next_u64() % 100 < fill {
                    *cell = if rng.next_u64() & 1 == 0 {
                        Cell::White
                    } else {
                        Cell::Black
                    };
                }
            }
        }
        RefPos {
            width: w,
            height: h,
            cells,
            white_to_move: rng.next_u64() & 1 == 0,
        }
    }

    /// Reads the spec's position text: rows from the top separated by '/', W, B, numbers
    /// for empty runs, then a space and `w` or `b`.
    pub fn from_fen(text: &str) -> Result<RefPos, String> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        if parts.len() != 2 {
            return Err(format!("expected 2 fields, got {}", parts.len()));
        }
        let white_to_move = match parts[1] {
            "w" => true,
            "b" => false,
            other => return Err(format!("bad side {other}")),
        };
        let mut rows_top_down: Vec<Vec<Cell>> = Vec::new();
        for row_text in parts[0].split('/') {
            let mut row = Vec::new();
            let mut number = String::new();
            for ch in row_text.chars() {
                if ch.is_ascii_digit() {
                    number.push(ch);
                    continue;
                }
                push_empty_run(&mut row, &mut number)?;
                match ch {
                    'W' => row.push(Cell::White),
                    'B' => row.push(Cell::Black),
                    _ => return Err(format!("bad character {ch}")),
                }
            }
            push_empty_run(&mut row, &mut number)?;
            rows_top_down.push(row);
        }
        let height = rows_top_down.len();
        let width = rows_top_down[0].len();
        for row in &rows_top_down {
            if row.len() != width {
                return Err("rows of different widths".to_string());
            }
        }
        if width < 3 || height < 3 || width * height > 64 {
            return Err(format!("board {width}x{height} not allowed"));
        }
        rows_top_down.reverse();
        Ok(RefPos {
            width,
            height,
            cells: rows_top_down,
            white_to_move,
        })
    }

    /// The position text.
    pub fn to_fen(&self) -> String {
        let mut row_texts = Vec::new();
        for row in (0..self.height).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for col in 0..self.width {
                let c = self.cells[row][col];
                if c == Cell::Empty {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(if c == Cell::White { 'W' } else { 'B' });
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            row_texts.push(text);
        }
        let side = if self.white_to_move { "w" } else { "b" };
        format!("{} {}", row_texts.join("/"), side)
    }

    fn count(&self, piece: Cell) -> usize {
        let mut n = 0;
        for row in &self.cells {
            for &c in row {
                if c == piece {
                    n += 1;
                }
            }
        }
        n
    }

    /// The moves of the side to move, ignoring whether the game is already over.
    fn raw_moves(&self) -> Vec<RefMove> {
        let (me, them, step): (Cell, Cell, isize) = if self.white_to_move {
            (Cell::White, Cell::Black, 1)
        } else {
            (Cell::Black, Cell::White, -1)
        };
        let mut moves = Vec::new();
        for row in 0..self.height {
            for col in 0..self.width {
                if self.cells[row][col] != me {
                    continue;
                }
                let next_row = row as isize + step;
                if next_row < 0 || next_row >= self.height as isize {
                    continue;
                }
                let next_row = next_row as usize;
                // Straight ahead: only onto an empty cell.
                if self.cells[next_row][col] == Cell::Empty {
                    moves.push(RefMove {
                        from: (col, row),
                        to: (col, next_row),
                    });
                }
                // Diagonally: onto an empty cell or an opponent piece.
                for next_col in [col as isize - 1, col as isize + 1] {
                    if next_col < 0 || next_col >= self.width as isize {
                        continue;
                    }
                    let next_col = next_col as usize;
                    let target = self.cells[next_row][next_col];
                    if target == Cell::Empty || target == them {
                        moves.push(RefMove {
                            from: (col, row),
                            to: (next_col, next_row),
                        });
                    }
                }
            }
        }
        moves
    }

    /// The winner once the game is over: a piece on the opponent's home row, an opponent
    /// with no pieces left, or a side to move without a legal move (it loses).
    pub fn winner(&self) -> Option<Winner> {
        let top = self.height - 1;
        let white_on_goal = self.cells[top].contains(&Cell::White);
        let black_on_goal = self.cells[0].contains(&Cell::Black);
        if white_on_goal || self.count(Cell::Black) == 0 {
            return Some(Winner::White);
        }
        if black_on_goal || self.count(Cell::White) == 0 {
            return Some(Winner::Black);
        }
        if self.raw_moves().is_empty() {
            return Some(if self.white_to_move {
                Winner::Black
            } else {
                Winner::White
            });
        }
        None
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.winner().is_some() {
            return Vec::new();
        }
        self.raw_moves()
    }

    /// Plays a move; whatever stood on the destination is captured.
    pub fn play(&mut self, mv: RefMove) {
        let piece = self.cells[mv.from.1][mv.from.0];
        self.cells[mv.from.1][mv.from.0] = Cell::Empty;
        self.cells[mv.to.1][mv.to.0] = piece;
        self.white_to_move = !self.white_to_move;
    }

    /// `b2-b3` or `b2xc3`.
    pub fn move_text(&self, mv: RefMove) -> String {
        let sep = if self.cells[mv.to.1][mv.to.0] == Cell::Empty {
            '-'
        } else {
            'x'
        };
        format!(
            "{}{}{}",
            cell_name(mv.from.0, mv.from.1),
            sep,
            cell_name(mv.to.0, mv.to.1)
        )
    }

    /// Leaves of the game tree `depth` plies deep; a finished game is one leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.winner().is_some() {
            return 1;
        }
        let moves = self.raw_moves();
        let mut total = 0;
        let mut child = self.clone();
        for mv in moves {
            // Play and take back on one copy instead of cloning per move.
            let captured = child.cells[mv.to.1][mv.to.0];
            child.play(mv);
            total += child.perft(depth - 1);
            child.cells[mv.from.1][mv.from.0] = child.cells[mv.to.1][mv.to.0];
            child.cells[mv.to.1][mv.to.0] = captured;
            child.white_to_move = !child.white_to_move;
        }
        total
    }

    /// Left-right mirror image.
    pub fn mirror(&self) -> RefPos {
        let mut out = self.clone();
        for row in 0..self.height {
            for col in 0..self.width {
                out.cells[row][col] = self.cells[row][self.width - 1 - col];
            }
        }
        out
    }

    /// Rows reversed, colours swapped, side to move swapped.
    pub fn flip_colours(&self) -> RefPos {
        let mut out = self.clone();
        for row in 0..self.height {
            for col in 0..self.width {
                out.cells[row][col] = match self.cells[self.height - 1 - row][col] {
                    Cell::Empty => Cell::Empty,
                    Cell::White => Cell::Black,
                    Cell::Black => Cell::White,
                };
            }
        }
        out.white_to_move = !self.white_to_move;
        out
    }
}
