//! Position text (`L.L...R.R L`, with the forbidden strip after it when a ko applies) and
//! move text (`3>`: the piece on cell 3 moves toward higher cells, `6<` toward lower ones).

use crate::board::{bits, Board, Kind, MAX_WIDTH};
use crate::position::{ko_possible, Move, Position};
use quasar_core::Side;

/// Why a position or move text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text has the wrong number of fields.
    #[error("expected `CELLS SIDE [FORBIDDEN]` such as `L.L...R.R L`, got {0:?}")]
    Fields(String),
    /// A cell is not `L`, `R` or `.`.
    #[error("bad cell {0:?}: cells are `L`, `R` or `.`")]
    Cell(char),
    /// The strip is empty or wider than supported.
    #[error("a strip of {0} cells is not supported: use 1 to {MAX_WIDTH}")]
    Width(usize),
    /// The side is not `L` or `R`.
    #[error("bad side {0:?}: the side to move is `L` or `R`")]
    Side(String),
    /// The forbidden strip is not one the direct ko can forbid here.
    #[error("{0:?} is not a strip the direct ko can forbid here: it must be the result of a push by the side to move that the opponent's last push could have undone")]
    Ko(String),
    /// No piece on the strip.
    #[error("the strip has no pieces")]
    NoPieces,
    /// A move text that is not `CELL>` or `CELL<`.
    #[error("bad move {0:?}: write the cell and the direction, such as `3>` or `6<`")]
    Move(String),
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'L',
        Side::Second => 'R',
    }
}

/// The cells of a strip as text, cell 1 first.
pub fn board_text(b: Board) -> String {
    (0..b.width)
        .map(|i| {
            if b.left & (1 << i) != 0 {
                'L'
            } else if b.right & (1 << i) != 0 {
                'R'
            } else {
                '.'
            }
        })
        .collect()
}

/// Reads the cells of a strip.
pub fn parse_board(text: &str) -> Result<Board, NotationError> {
    let n = text.chars().count();
    if n == 0 || n > MAX_WIDTH as usize {
        return Err(NotationError::Width(n));
    }
    let mut b = Board::empty(n as u32);
    for (i, c) in text.chars().enumerate() {
        match c {
            'L' => b.left |= 1 << i,
            'R' => b.right |= 1 << i,
            '.' => {}
            other => return Err(NotationError::Cell(other)),
        }
    }
    Ok(b)
}

/// The position as text: cells, side to move, and the forbidden strip when a ko applies.
pub fn position_text(p: &Position) -> String {
    let mut s = format!("{} {}", board_text(p.board), side_letter(p.side));
    if let Some(f) = p.forbidden() {
        s.push(' ');
        s.push_str(&board_text(f));
    }
    s
}

/// Reads a position; a forbidden strip must be one the direct ko can really forbid.
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(NotationError::Fields(text.to_string()));
    }
    let board = parse_board(fields[0])?;
    if board.occupied() == 0 {
        return Err(NotationError::NoPieces);
    }
    let side = match fields[1] {
        "L" => Side::First,
        "R" => Side::Second,
        other => return Err(NotationError::Side(other.to_string())),
    };
    let mut pos = Position::new(board, side);
    if let Some(f) = fields.get(2) {
        let forbidden = parse_board(f)?;
        let q = bits(board.pieces(side))
            .filter(|&q| ko_possible(board, side, q))
            .find(|&q| board.apply(side, q, Kind::Push) == forbidden)
            .ok_or_else(|| NotationError::Ko(f.to_string()))?;
        pos.ko = Some(q as u8);
    }
    Ok(pos)
}

/// The move as text: the cell (from 1) and `>` toward higher cells or `<` toward lower ones.
pub fn move_text(mv: Move, side: Side) -> String {
    let up = matches!(
        (side, mv.kind),
        (Side::First, Kind::Forward) | (Side::Second, Kind::Push)
    );
    format!("{}{}", mv.cell as u32 + 1, if up { '>' } else { '<' })
}

/// Reads a move of `side` (legality is the position's business).
pub fn parse_move(text: &str, side: Side) -> Result<Move, NotationError> {
    let bad = || NotationError::Move(text.to_string());
    let t = text.trim();
    let (num, up) = if let Some(n) = t.strip_suffix('>') {
        (n, true)
    } else if let Some(n) = t.strip_suffix('<') {
        (n, false)
    } else {
        return Err(bad());
    };
    let cell: u32 = num.parse().map_err(|_| bad())?;
    if cell == 0 || cell > MAX_WIDTH {
        return Err(bad());
    }
    let forward = up == (side == Side::First);
    Ok(Move {
        cell: (cell - 1) as u8,
        kind: if forward { Kind::Forward } else { Kind::Push },
    })
}
