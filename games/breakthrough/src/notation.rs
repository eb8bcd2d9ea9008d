//! Text in and out: the FEN-like position text, cell names, move text and the diagram.

use super::board::{Board, Move, Position, BLACK, WHITE};
use crate::error::{CellError, Illegal, MoveError, PositionError};
use quasar_core::{Game, Outcome, Side};
use std::fmt::Write;

impl Board {
    /// The name of a cell, for example `a1` or `f6`.
    pub fn square_name(&self, sq: u8) -> String {
        let col = (b'a' + self.col(sq) as u8) as char;
        format!("{col}{}", self.row(sq) + 1)
    }

    /// Reads a cell name such as `c3`; returns the cell and how many bytes it used.
    fn parse_square_prefix(&self, text: &str) -> Result<(u8, usize), CellError> {
        let bytes = text.as_bytes();
        let letter = *bytes.first().ok_or(CellError::Missing)?;
        if !letter.is_ascii_lowercase() {
            return Err(CellError::NoLetter {
                text: text.to_string(),
                last: self.last_col_letter(),
            });
        }
        let col = (letter - b'a') as u32;
        if col >= self.width() {
            return Err(CellError::ColumnOff {
                letter: letter as char,
                board: *self,
                last: self.last_col_letter(),
            });
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(CellError::NoRow {
                letter: letter as char,
                text: text.to_string(),
            });
        }
        let row: u32 = text[1..1 + digits]
            .parse()
            .map_err(|_| CellError::BadRow(text.to_string()))?;
        if row == 0 || row > self.height() {
            return Err(CellError::RowOff {
                letter: letter as char,
                row,
                board: *self,
                last: self.last_col_letter(),
                height: self.height(),
            });
        }
        Ok((self.square(col, row - 1), 1 + digits))
    }

    /// Reads a cell name such as `c3`.
    pub fn parse_square(&self, text: &str) -> Result<u8, CellError> {
        let (sq, used) = self.parse_square_prefix(text)?;
        if used != text.len() {
            return Err(CellError::Trailing(text.to_string()));
        }
        Ok(sq)
    }

    fn last_col_letter(&self) -> char {
        (b'a' + self.width() as u8 - 1) as char
    }
}

impl Position {
    /// Reads the position text of the spec, for example `BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w`;
    /// the board size comes from the text.
    pub fn from_fen(text: &str) -> Result<Position, PositionError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(PositionError::Empty)?;
        let side = match fields.next() {
            Some("w") | Some("W") => WHITE,
            Some("b") | Some("B") => BLACK,
            Some(other) => return Err(PositionError::BadSide(other.to_string())),
            None => return Err(PositionError::MissingSide),
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::TrailingText(extra.to_string()));
        }
        let rows: Vec<&str> = placement.split('/').collect();
        let mut parsed: Vec<Vec<Option<Side>>> = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let rank = rows.len() - i;
            let mut cells = Vec::new();
            let mut chars = row.char_indices().peekable();
            while let Some((pos, c)) = chars.next() {
                match c {
                    'W' => cells.push(Some(WHITE)),
                    'B' => cells.push(Some(BLACK)),
                    '0'..='9' => {
                        let mut end = pos + 1;
                        while let Some(&(p, d)) = chars.peek() {
                            if !d.is_ascii_digit() {
                                break;
                            }
                            end = p + 1;
                            chars.next();
                        }
                        let run: usize =
                            row[pos..end]
                                .parse()
                                .map_err(|_| PositionError::BadNumber {
                                    rank,
                                    row: row.to_string(),
                                })?;
                        if run == 0 || run > Board::MAX_SIDE as usize {
                            return Err(PositionError::BadRun {
                                run,
                                rank,
                                row: row.to_string(),
                            });
                        }
                        cells.extend(std::iter::repeat_n(None, run));
                    }
                    other => {
                        return Err(PositionError::BadChar {
                            found: other,
                            rank,
                            row: row.to_string(),
                        });
                    }
                }
            }
            parsed.push(cells);
        }
        let height = parsed.len() as u32;
        let width = parsed[0].len() as u32;
        for (i, cells) in parsed.iter().enumerate() {
            if cells.len() as u32 != width {
                return Err(PositionError::UnequalRows {
                    rank: height as usize - i,
                    cells: cells.len(),
                    height,
                    width,
                });
            }
        }
        let board = Board::new(width, height)?;
        let (mut white, mut black) = (0u64, 0u64);
        for (i, cells) in parsed.iter().enumerate() {
            let row = height - 1 - i as u32;
            for (col, cell) in cells.iter().enumerate() {
                let bit = 1u64 << board.square(col as u32, row);
                match cell {
                    Some(Side::First) => white |= bit,
                    Some(Side::Second) => black |= bit,
                    None => {}
                }
            }
        }
        Position::from_parts(board, white, black, side)
    }

    /// The piece on the cell at `col`, `row` as the texts write it (`W`, `B`), if any.
    fn piece_char(&self, col: u32, row: u32) -> Option<char> {
        let bit = 1u64 << self.board.square(col, row);
        if self.white & bit != 0 {
            Some('W')
        } else if self.black & bit != 0 {
            Some('B')
        } else {
            None
        }
    }

    /// The position text of the spec.
    pub fn to_fen(&self) -> String {
        let b = self.board;
        let mut out = String::new();
        for row in (0..b.height()).rev() {
            let mut empty = 0;
            for col in 0..b.width() {
                let Some(c) = self.piece_char(col, row) else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    let _ = write!(out, "{empty}");
                    empty = 0;
                }
                out.push(c);
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if row > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == WHITE { " w" } else { " b" });
        out
    }

    /// The move as `b2-b3` or `b2xc3`.
    pub fn format_move(&self, mv: Move) -> String {
        let sep = if self.is_capture(mv) { 'x' } else { '-' };
        format!(
            "{}{sep}{}",
            self.board.square_name(mv.from),
            self.board.square_name(mv.to)
        )
    }

    /// Reads a move (`b2-b3`, `b2xc3`, `b2b3`, with an optional trailing `*`) and checks
    /// that it is legal here.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let t = t.strip_suffix('*').unwrap_or(t).to_ascii_lowercase();
        let bad_cell = |cell| MoveError::BadCell {
            text: text.to_string(),
            cell,
        };
        let (from, used) = self.board.parse_square_prefix(&t).map_err(bad_cell)?;
        let rest = &t[used..];
        let (sep, rest) = match rest.as_bytes().first() {
            Some(b'-') => (Some('-'), &rest[1..]),
            Some(b'x') => (Some('x'), &rest[1..]),
            _ => (None, rest),
        };
        let to = self.board.parse_square(rest).map_err(bad_cell)?;
        let mv = Move { from, to };
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if !legal.contains(&mv) {
            let why = if let Some(o) = self.result() {
                Illegal::GameOver {
                    winner: match o {
                        Outcome::Win(side) => side_name(side),
                        Outcome::Draw => "nobody",
                    },
                }
            } else if self.pieces(self.side) & (1u64 << from) == 0 {
                Illegal::NoPiece {
                    side: side_name(self.side),
                    cell: self.board.square_name(from),
                }
            } else {
                Illegal::NotAMove {
                    legal: legal.iter().map(|&m| self.format_move(m)).collect(),
                }
            };
            return Err(MoveError::Illegal {
                text: text.to_string(),
                why,
            });
        }
        let capture = self.is_capture(mv);
        match sep {
            Some('x') if !capture => Err(MoveError::NotACapture(text.to_string())),
            Some('-') if capture => Err(MoveError::UnmarkedCapture(text.to_string())),
            _ => Ok(mv),
        }
    }

    /// A board diagram with coordinates, top row first, and the side to move.
    pub fn diagram(&self) -> String {
        let b = self.board;
        let mut out = String::new();
        for row in (0..b.height()).rev() {
            let _ = write!(out, "{:>2} ", row + 1);
            for col in 0..b.width() {
                out.push(' ');
                out.push(self.piece_char(col, row).unwrap_or('.'));
            }
            out.push('\n');
        }
        out.push_str("   ");
        for col in 0..b.width() {
            out.push(' ');
            out.push((b'a' + col as u8) as char);
        }
        out.push('\n');
        match self.result() {
            Some(Outcome::Win(side)) => {
                let _ = writeln!(out, "game over: {} wins", side_name(side));
            }
            Some(Outcome::Draw) => out.push_str("game over: a draw\n"),
            None => {
                let _ = writeln!(out, "{} to move", side_name(self.side));
            }
        }
        out
    }
}

/// "White" or "Black".
fn side_name(side: Side) -> &'static str {
    <Position as Game>::side_name(side)
}
