//! Position and move text. A position is the 13 rows of the diamond from the top tip, each
//! left to right (`X` the first player, `O` the second, `.` empty), joined by `/`, then the
//! side to move: the 2-piece start is `X/X./.../..../...../....../......./....../...../..../.../.O/O X`.
//! A move is its two cells, `a1-b1` (`-` optional); cell `c4` is `p = 2, q = 3`.

use crate::board::{self, cell_name, parse_cell, CELLS, MAX_PIECES, ROW_START};
use crate::position::{Move, Position};
use quasar_core::Side;

/// Why text is not a position or a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not rows and a side.
    #[error("'{0}': a position is 13 rows of X, O and . (1, 2, ..., 7, ..., 2, 1 cells) joined by '/', a space, then X or O to move")]
    Shape(String),
    /// A row of the wrong length or with another character.
    #[error("row {row} '{text}': it needs {len} cells, each X, O or .")]
    Row {
        /// Row from the top tip, from 1.
        row: usize,
        /// The row's text.
        text: String,
        /// The cells it must have.
        len: usize,
    },
    /// The sides' piece counts differ or are out of range.
    #[error("X has {0} pieces and O has {1}: both sides need the same number, 1 to {MAX_PIECES}")]
    Pieces(u32, u32),
    /// Both sides fill the other's home: the game ended when the first of them did.
    #[error("both X and O have every piece in the other's home: not a position of the game (it ended when the first side got there)")]
    BothHome,
    /// Not a move's text.
    #[error("'{0}': a move is two cells such as a1-b2 (column a..g, row 1..7)")]
    Move(String),
    /// A move the position does not allow.
    #[error("{0} is not a legal move here (type the piece's cell and where it ends)")]
    Illegal(String),
}

/// The character of cell `c` in the position's text and diagram: `X`, `O` or `.` (empty).
fn cell_char(pos: &Position, c: usize) -> char {
    if pos.pieces[0] >> c & 1 == 1 {
        'X'
    } else if pos.pieces[1] >> c & 1 == 1 {
        'O'
    } else {
        '.'
    }
}

/// The position's text.
pub fn position_text(pos: &Position) -> String {
    let mut s = String::with_capacity(64);
    for r in 0..13 {
        if r > 0 {
            s.push('/');
        }
        for c in ROW_START[r]..ROW_START[r + 1] {
            s.push(cell_char(pos, c));
        }
    }
    s.push_str(match pos.side {
        Side::First => " X",
        Side::Second => " O",
    });
    s
}

/// Reads a position's text.
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let shape = || NotationError::Shape(text.trim().to_string());
    let mut words = text.split_whitespace();
    let (Some(rows), Some(side), None) = (words.next(), words.next(), words.next()) else {
        return Err(shape());
    };
    let side = match side {
        "X" | "x" => Side::First,
        "O" | "o" => Side::Second,
        _ => return Err(shape()),
    };
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() != 13 {
        return Err(shape());
    }
    let mut pieces = [0u64; 2];
    for (r, row) in rows.iter().enumerate() {
        let len = ROW_START[r + 1] - ROW_START[r];
        let bad = || NotationError::Row {
            row: r + 1,
            text: row.to_string(),
            len,
        };
        if row.chars().count() != len {
            return Err(bad());
        }
        for (k, ch) in row.chars().enumerate() {
            let c = ROW_START[r] + k;
            match ch {
                'X' | 'x' => pieces[0] |= 1 << c,
                'O' | 'o' => pieces[1] |= 1 << c,
                '.' => {}
                _ => return Err(bad()),
            }
        }
    }
    let (a, b) = (pieces[0].count_ones(), pieces[1].count_ones());
    if a != b || !(1..=MAX_PIECES).contains(&a) {
        return Err(NotationError::Pieces(a, b));
    }
    debug_assert!(pieces[0] >> CELLS == 0);
    let pos = Position { pieces, side };
    if pos.has_won(Side::First) && pos.has_won(Side::Second) {
        return Err(NotationError::BothHome);
    }
    Ok(pos)
}

/// A move's text, `a1-b1`.
pub fn move_text(mv: Move) -> String {
    format!(
        "{}-{}",
        cell_name(mv.from as usize),
        cell_name(mv.to as usize)
    )
}

/// Reads a move's text (`a1-b1` or `a1b1`); legality is the position's to check.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let bad = || NotationError::Move(t.to_string());
    let compact: String = t.chars().filter(|&c| c != '-').collect();
    if !compact.is_ascii() || compact.len() != 4 || t.matches('-').count() > 1 {
        return Err(bad());
    }
    let from = parse_cell(&compact[..2]).ok_or_else(bad)?;
    let to = parse_cell(&compact[2..]).ok_or_else(bad)?;
    Ok(Move {
        from: from as u8,
        to: to as u8,
    })
}

/// A diagram: the diamond drawn row by row, centred, with each row's first cell name.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    for r in 0..13 {
        let len = ROW_START[r + 1] - ROW_START[r];
        s.push_str(&" ".repeat(7 - len));
        for c in ROW_START[r]..ROW_START[r + 1] {
            s.push(cell_char(pos, c));
            s.push(' ');
        }
        s.push_str(&format!(
            "{}  {}\n",
            " ".repeat(7 - len),
            board::cell_name(ROW_START[r])
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_home_is_refused() {
        let swapped = "O/O./.../..../...../....../......./....../...../..../.../.X/X X";
        assert!(matches!(
            parse_position(swapped),
            Err(NotationError::BothHome)
        ));
        let start = "X/X./.../..../...../....../......./....../...../..../.../.O/O X";
        assert!(parse_position(start).is_ok());
    }

    #[test]
    fn the_start_reads_back() {
        let p = Position::start(2).unwrap();
        let t = position_text(&p);
        assert_eq!(
            t,
            "X/X./.../..../...../....../......./....../...../..../.../.O/O X"
        );
        assert_eq!(parse_position(&t).unwrap(), p);
        assert!(parse_position("X/X./... X").is_err());
        assert!(parse_position(&t.replace(" X", " Z")).is_err());
        assert!(matches!(
            parse_position(&t.replace("X/X.", "X/..")),
            Err(NotationError::Pieces(1, 2))
        ));
    }

    #[test]
    fn moves_read_back() {
        let m = Move { from: 0, to: 8 };
        assert_eq!(parse_move(&move_text(m)).unwrap(), m);
        assert_eq!(parse_move("a1b1").unwrap(), parse_move("a1-b1").unwrap());
        for bad in ["", "a1", "a1-b", "a1--b1", "h1-a1", "é1-a1"] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
    }
}
