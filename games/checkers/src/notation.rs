//! PDN text: positions in the FEN form `B:W21,22,K30:B1,2,3` (side to move, then each
//! side's squares, `K` before a king, ranges such as `1-12` accepted) and moves `9-13`,
//! `22x15x6`.

use crate::board::{Board, Move, BLACK_PROMOTION, WHITE_PROMOTION};
use quasar_core::Side;

/// Why a position or move text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not of the form `SIDE:WLIST:BLIST`.
    #[error("expected PDN FEN such as `B:W21,22,K30:B1,2,3` (side to move, then each side's squares), got {0:?}")]
    Fields(String),
    /// The side to move is not `B` or `W`.
    #[error("bad side to move {0:?}: write `B` or `W`")]
    Side(String),
    /// A square is not a number from 1 to 32 (optionally after `K`, or a range `a-b`).
    #[error(
        "bad square {0:?}: squares are numbered 1 to 32, a king written `K30`, a range `1-12`"
    )]
    Square(String),
    /// A square listed twice.
    #[error("square {0} is listed twice")]
    Twice(u8),
    /// A man on its own promotion row, where it would already be a king.
    #[error("a man on square {0} stands on its own far row: write it as a king, `K{0}`")]
    ManOnFarRow(u8),
    /// More pieces for a side than the 12 it starts with (a man never becomes two pieces).
    #[error("{side} has {count} pieces, more than the 12 a side starts with: not a position of the game")]
    TooMany {
        /// The side, as the game names it.
        side: &'static str,
        /// Its men and kings.
        count: u32,
    },
    /// No piece on the board at all.
    #[error("no piece on the board: not a position of the game (a side without pieces has lost, but both cannot be)")]
    Empty,
    /// A move text that is not `a-b` or `axbx...`.
    #[error("bad move {0:?}: write a step as `9-13` and a capture as `22x15` or `22x15x6`")]
    Move(String),
}

fn parse_square(t: &str) -> Result<u8, NotationError> {
    match t.trim().parse::<u8>() {
        Ok(n @ 1..=32) => Ok(n - 1),
        _ => Err(NotationError::Square(t.to_string())),
    }
}

fn list(text: &str, pieces: &mut u32, kings: &mut u32) -> Result<(), NotationError> {
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (king, rest) = match item.strip_prefix(['K', 'k']) {
            Some(r) => (true, r),
            None => (false, item),
        };
        let range = match rest.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (parse_square(a)?, parse_square(b)?);
                if a > b {
                    return Err(NotationError::Square(item.to_string()));
                }
                a..=b
            }
            None => {
                let a = parse_square(rest)?;
                a..=a
            }
        };
        for s in range {
            if *pieces >> s & 1 == 1 {
                return Err(NotationError::Twice(s + 1));
            }
            *pieces |= 1 << s;
            if king {
                *kings |= 1 << s;
            }
        }
    }
    Ok(())
}

/// Reads a FEN: the board and the side to move.
pub fn parse_fen(text: &str) -> Result<(Board, Side), NotationError> {
    let text = text.trim().trim_end_matches('.');
    let mut fields = text.split(':');
    let side = match fields.next().map(str::trim) {
        Some("B" | "b") => Side::First,
        Some("W" | "w") => Side::Second,
        Some(other) => return Err(NotationError::Side(other.to_string())),
        None => return Err(NotationError::Fields(text.to_string())),
    };
    let mut b = Board::default();
    let (mut seen_w, mut seen_b) = (false, false);
    for f in fields {
        let f = f.trim();
        let (colour, rest) = f.split_at(f.chars().next().map_or(0, char::len_utf8));
        let (pieces, seen) = match colour {
            "W" | "w" => (&mut b.white, &mut seen_w),
            "B" | "b" => (&mut b.black, &mut seen_b),
            _ => return Err(NotationError::Fields(text.to_string())),
        };
        if *seen {
            return Err(NotationError::Fields(text.to_string()));
        }
        *seen = true;
        list(rest, pieces, &mut b.kings)?;
    }
    if !(seen_w && seen_b) {
        return Err(NotationError::Fields(text.to_string()));
    }
    check_board(&b)?;
    Ok((b, side))
}

/// Refuses a board no game reaches: a square of both sides, more than 12 pieces a side,
/// no piece at all, a man on its own far row.
pub fn check_board(b: &Board) -> Result<(), NotationError> {
    if let Some(s) = (b.black & b.white).checked_ilog2() {
        return Err(NotationError::Twice(s as u8 + 1));
    }
    for (side, pieces) in [("Black", b.black), ("White", b.white)] {
        if pieces.count_ones() > 12 {
            return Err(NotationError::TooMany {
                side,
                count: pieces.count_ones(),
            });
        }
    }
    if b.black | b.white == 0 {
        return Err(NotationError::Empty);
    }
    let men_far = (b.black & !b.kings & BLACK_PROMOTION) | (b.white & !b.kings & WHITE_PROMOTION);
    if men_far != 0 {
        return Err(NotationError::ManOnFarRow(
            men_far.trailing_zeros() as u8 + 1,
        ));
    }
    Ok(())
}

fn squares_text(pieces: u32, kings: u32) -> String {
    (0..32u8)
        .filter(|s| pieces >> s & 1 == 1)
        .map(|s| {
            let k = if kings >> s & 1 == 1 { "K" } else { "" };
            format!("{k}{}", s + 1)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The FEN of a board with a side to move: `B:W21,22,K30:B1,2,3`.
pub fn fen(b: &Board, side: Side) -> String {
    let s = match side {
        Side::First => 'B',
        Side::Second => 'W',
    };
    format!(
        "{s}:W{}:B{}",
        squares_text(b.white, b.kings),
        squares_text(b.black, b.kings)
    )
}

/// A move's text: `9-13`, or `22x15x6` through every landing square.
pub fn move_text(mv: &Move) -> String {
    let mut s = (mv.from + 1).to_string();
    let sep = if mv.is_capture() { 'x' } else { '-' };
    for at in mv.landings() {
        s.push(sep);
        s.push_str(&(at + 1).to_string());
    }
    s
}

/// The squares of a move text (`9-13` or `22x15x6`) and whether it is a capture; which
/// legal move it names is for the position to decide.
pub fn parse_move_squares(text: &str) -> Result<(Vec<u8>, bool), NotationError> {
    let t = text.trim();
    let bad = || NotationError::Move(text.to_string());
    let capture = t.contains(['x', 'X', ':']);
    let parts: Vec<&str> = if capture {
        t.split(['x', 'X', ':']).collect()
    } else {
        t.split('-').collect()
    };
    if parts.len() < 2 || (!capture && parts.len() != 2) {
        return Err(bad());
    }
    let squares = parts
        .iter()
        .map(|p| parse_square(p).map_err(|_| bad()))
        .collect::<Result<Vec<u8>, _>>()?;
    Ok((squares, capture))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_positions_are_refused() {
        let kings: Vec<String> = (1..=13).map(|s| format!("K{s}")).collect();
        let e = parse_fen(&format!("W:W{}:B30", kings.join(","))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "White has 13 pieces, more than the 12 a side starts with: not a position of the game"
        );
        let e = parse_fen("B:W1-4:B5-32").unwrap_err();
        assert!(e.to_string().starts_with("Black has 28 pieces"), "{e}");
        assert!(matches!(parse_fen("W:W:B"), Err(NotationError::Empty)));
        assert!(
            parse_fen("W:W:B1-12").is_ok(),
            "one side without pieces has lost"
        );
    }

    #[test]
    fn fen_reads_back() {
        let (b, side) = parse_fen("B:W21,22,K30:B1,2,3").unwrap();
        assert_eq!(side, Side::First);
        assert_eq!(b.white, 1 << 20 | 1 << 21 | 1 << 29);
        assert_eq!(b.kings, 1 << 29);
        assert_eq!(fen(&b, side), "B:W21,22,K30:B1,2,3");
        let (s, _) = parse_fen("B:W21-32:B1-12").unwrap();
        assert_eq!(s, Board::START);
        for bad in [
            "",
            "X:W1:B2",
            "B:W1",
            "B:W33:B1",
            "B:W5:B5",
            "B:W5:B30",
            "B:W1,K1:B9",
            "B:W5:B9:B10",
        ] {
            assert!(parse_fen(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn move_text_reads_back() {
        assert_eq!(parse_move_squares("9-13").unwrap(), (vec![8, 12], false));
        assert_eq!(
            parse_move_squares("22x15x6").unwrap(),
            (vec![21, 14, 5], true)
        );
        for bad in ["9", "9-13-17", "x", "0-4", "9-", "a-b"] {
            assert!(parse_move_squares(bad).is_err(), "{bad:?}");
        }
    }
}
