//! Chinese Checkers as an instance of the generic prover: a position's key (each side's
//! cells), a code of each move, and the solved table of the same number of pieces as the
//! searches' leaves. Endless play is a draw, so it is solved by
//! [`prover::solve_with_draws`].

use crate::board::CELLS;
use crate::position::{Move, Position};
use crate::solve::CcTable;
use prover::{Instance, Key, ProverPosition};
use quasar_core::{GameResult, Side};

/// The first byte of a Chinese Checkers proof's parameters, which no other game's uses.
pub const PROOF_TAG: u8 = b'C';

/// Chinese Checkers' knowledge for the prover: none beyond the rules, and a table's
/// results.
#[derive(Clone, Copy, Debug, Default)]
pub struct CcProver;

impl Instance for CcProver {
    type Pos = Position;
    type Table = CcTable;

    fn claim(&self, tb: Option<&CcTable>, pos: &Position) -> Option<(u32, Move)> {
        match tb?.value(pos)? {
            (GameResult::Win, plies) => Some((plies, tb?.best_move(pos)?)),
            _ => None,
        }
    }

    fn claim_plies(&self, tb: Option<&CcTable>, pos: &Position) -> Option<u32> {
        match tb?.value(pos)? {
            (GameResult::Win, plies) => Some(plies),
            _ => None,
        }
    }

    /// Rows from the goal's tip summed over `side`'s pieces.
    fn distance(&self, pos: &Position, side: Side) -> u32 {
        // A piece of row r lies in 12 - r of the masks: its rows to the bottom tip.
        let bits = pos.pieces[side.index()];
        let to_bottom: u32 = ROW_MASKS.iter().map(|m| (bits & m).count_ones()).sum();
        match side {
            Side::First => to_bottom,
            Side::Second => 12 * pos.k() - to_bottom,
        }
    }

    fn table_result(&self, tb: Option<&CcTable>, pos: &Position) -> Option<GameResult> {
        tb?.value(pos).map(|v| v.0)
    }

    fn table_fits(&self, tb: &CcTable, root: &Position) -> Result<(), String> {
        if tb.k() == root.k() {
            Ok(())
        } else {
            Err(format!(
                "the table is of {} pieces a side, the position of {}",
                tb.k(),
                root.k()
            ))
        }
    }
}

impl ProverPosition for Position {
    /// Each side's cells.
    fn raw_key(&self) -> Key {
        Key {
            a: self.pieces[0],
            b: self.pieces[1],
            side: self.side as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Position, String> {
        position_of(self.k(), key)
    }

    /// One bit a cell.
    fn key_bytes(&self) -> usize {
        CELLS.div_ceil(8)
    }

    fn params(&self) -> [u8; 2] {
        [PROOF_TAG, self.k() as u8]
    }

    fn owns_params(params: [u8; 2]) -> bool {
        params[0] == PROOF_TAG
    }

    fn from_params(params: [u8; 2], key: &Key) -> Result<Position, String> {
        if params[0] != PROOF_TAG {
            return Err("not a proof of Chinese Checkers".into());
        }
        position_of(params[1] as u32, key)
    }

    /// The cell left times 49 plus the cell reached, plus one (never 0).
    fn move_code(mv: Move) -> u16 {
        mv.from as u16 * CELLS as u16 + mv.to as u16 + 1
    }

    fn code_move(code: u16) -> Move {
        let c = code.saturating_sub(1);
        Move {
            from: (c / CELLS as u16).min(u8::MAX as u16) as u8,
            to: (c % CELLS as u16) as u8,
        }
    }
}

/// For each row 0 to 11 from the top tip, the cells of it and the rows above.
const ROW_MASKS: [u64; 12] = {
    let mut m = [0u64; 12];
    let mut r = 0;
    while r < 12 {
        m[r] = (1u64 << crate::board::ROW_START[r + 1]) - 1;
        r += 1;
    }
    m
};

/// The position of `key` with `k` pieces a side, or why there is none.
fn position_of(k: u32, key: &Key) -> Result<Position, String> {
    let all = (1u64 << CELLS) - 1;
    let ok = (1..=crate::board::MAX_PIECES).contains(&k)
        && key.a & !all == 0
        && key.b & !all == 0
        && key.a & key.b == 0
        && key.a.count_ones() == k
        && key.b.count_ones() == k
        && key.side <= 1;
    if !ok {
        return Err(format!("no position of {k} pieces a side has these cells"));
    }
    Ok(Position {
        pieces: [key.a, key.b],
        side: if key.side == 0 {
            Side::First
        } else {
            Side::Second
        },
    })
}
