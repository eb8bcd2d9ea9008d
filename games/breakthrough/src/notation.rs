//! Text in and out: the FEN-like position text, cell names, move text and the diagram.

use super::board::{Board, Move, Position, BLACK, WHITE};
use quasar_core::{ParseError, Side};
use std::fmt::Write;

impl Board {
    /// The name of a cell, for example `a1` or `f6`.
    pub fn square_name(&self, sq: u8) -> String {
        let col = (b'a' + self.col(sq) as u8) as char;
        format!("{col}{}", self.row(sq) + 1)
    }

    /// Reads a cell name such as `c3`; returns the cell and how many bytes it used.
    fn parse_square_prefix(&self, text: &str) -> Result<(u8, usize), ParseError> {
        let bytes = text.as_bytes();
        let letter = *bytes
            .first()
            .ok_or_else(|| ParseError::new("expected a cell such as c3, found nothing"))?;
        if !letter.is_ascii_lowercase() {
            return Err(ParseError::new(format!(
                "expected a column letter a-{} at '{text}'",
                self.last_col_letter()
            )));
        }
        let col = (letter - b'a') as u32;
        if col >= self.width() {
            return Err(ParseError::new(format!(
                "column '{}' is off the {self} board (columns a-{})",
                letter as char,
                self.last_col_letter()
            )));
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(ParseError::new(format!(
                "expected a row number after '{}' in '{text}'",
                letter as char
            )));
        }
        let row: u32 = text[1..1 + digits]
            .parse()
            .map_err(|_| ParseError::new(format!("bad row number in '{text}'")))?;
        if col >= self.width() || row == 0 || row > self.height() {
            return Err(ParseError::new(format!(
                "cell {}{row} is off the {self} board (columns a-{}, rows 1-{})",
                letter as char,
                self.last_col_letter(),
                self.height()
            )));
        }
        Ok((self.square(col, row - 1), 1 + digits))
    }

    /// Reads a cell name such as `c3`.
    pub fn parse_square(&self, text: &str) -> Result<u8, ParseError> {
        let (sq, used) = self.parse_square_prefix(text)?;
        if used != text.len() {
            return Err(ParseError::new(format!(
                "unexpected text after the cell in '{text}'"
            )));
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
    pub fn from_fen(text: &str) -> Result<Position, ParseError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or_else(|| {
            ParseError::new(
                "empty position: expected rows like 'BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w'",
            )
        })?;
        let side = match fields.next() {
            Some("w") | Some("W") => WHITE,
            Some("b") | Some("B") => BLACK,
            Some(other) => {
                return Err(ParseError::new(format!(
                    "bad side to move '{other}': expected 'w' or 'b'"
                )));
            }
            None => {
                return Err(ParseError::new(
                    "missing side to move: add ' w' or ' b' after the rows",
                ))
            }
        };
        if let Some(extra) = fields.next() {
            return Err(ParseError::new(format!(
                "unexpected text '{extra}' after the side to move"
            )));
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
                        let run: usize = row[pos..end].parse().map_err(|_| {
                            ParseError::new(format!("bad number in row {rank}: '{row}'"))
                        })?;
                        if run == 0 || run > Board::MAX_SIDE as usize {
                            return Err(ParseError::new(format!(
                                "bad run of {run} empty cells in row {rank}: '{row}'"
                            )));
                        }
                        cells.extend(std::iter::repeat_n(None, run));
                    }
                    other => {
                        return Err(ParseError::new(format!(
                            "unexpected '{other}' in row {rank} ('{row}'): use W, B and digits"
                        )));
                    }
                }
            }
            parsed.push(cells);
        }
        let height = parsed.len() as u32;
        let width = parsed[0].len() as u32;
        for (i, cells) in parsed.iter().enumerate() {
            if cells.len() as u32 != width {
                return Err(ParseError::new(format!(
                    "row {} has {} cells but row {height} has {width}: every row needs the same width",
                    height as usize - i,
                    cells.len()
                )));
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

    /// The position text of the spec.
    pub fn to_fen(&self) -> String {
        let b = self.board;
        let mut out = String::new();
        for row in (0..b.height()).rev() {
            let mut empty = 0;
            for col in 0..b.width() {
                let bit = 1u64 << b.square(col, row);
                let c = if self.white & bit != 0 {
                    'W'
                } else if self.black & bit != 0 {
                    'B'
                } else {
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
    pub fn parse_move_text(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        let t = t.strip_suffix('*').unwrap_or(t).to_ascii_lowercase();
        let (from, used) = self
            .board
            .parse_square_prefix(&t)
            .map_err(|e| ParseError::new(format!("bad move '{text}': {e}")))?;
        let rest = &t[used..];
        let (sep, rest) = match rest.as_bytes().first() {
            Some(b'-') => (Some('-'), &rest[1..]),
            Some(b'x') => (Some('x'), &rest[1..]),
            _ => (None, rest),
        };
        let to = self
            .board
            .parse_square(rest)
            .map_err(|e| ParseError::new(format!("bad move '{text}': {e}")))?;
        let mv = Move { from, to };
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if !legal.contains(&mv) {
            let why = if let Some(o) = self.result() {
                format!("the game is over ({o:?})")
            } else if self.pieces(self.side) & (1u64 << from) == 0 {
                format!(
                    "no {} piece stands on {}",
                    side_name(self.side),
                    self.board.square_name(from)
                )
            } else {
                let list: Vec<String> = legal.iter().map(|&m| self.format_move(m)).collect();
                format!("legal moves are {}", list.join(" "))
            };
            return Err(ParseError::new(format!("illegal move '{text}': {why}")));
        }
        let capture = self.is_capture(mv);
        match sep {
            Some('x') if !capture => Err(ParseError::new(format!(
                "'{text}' is marked as a capture but captures nothing"
            ))),
            Some('-') if capture => Err(ParseError::new(format!(
                "'{text}' captures a piece: write it with 'x'"
            ))),
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
                let bit = 1u64 << b.square(col, row);
                let c = if self.white & bit != 0 {
                    'W'
                } else if self.black & bit != 0 {
                    'B'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
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
            Some(o) => {
                let _ = writeln!(out, "game over: {o:?}");
            }
            None => {
                let _ = writeln!(out, "{} to move", side_name(self.side));
            }
        }
        out
    }
}

/// "White" or "Black".
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "White",
        Side::Second => "Black",
    }
}
