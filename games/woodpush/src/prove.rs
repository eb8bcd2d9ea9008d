//! Woodpush as an instance of the generic prover: a position's key (both strips, the
//! width and the ko), a code of each move, and a solved table (whole or of few pieces)
//! as the searches' leaves. Woodpush draws by endless play and a move may lose its own
//! mover the game, so it is solved by [`prover::solve_with_draws`].

use crate::board::{Board, Kind, MAX_WIDTH};
use crate::position::{ko_possible, Move, Position};
use crate::solve::WoodpushTable;
use prover::{Instance, Key, ProverPosition};
use quasar_core::{GameResult, Side};
use retro::PerfectIndex;

/// The first byte of a Woodpush proof's parameters, which no other game's uses.
pub const PROOF_TAG: u8 = b'W';

/// Woodpush's knowledge for the prover: none beyond the rules, and a table's results.
#[derive(Clone, Copy, Debug, Default)]
pub struct WoodpushProver;

impl Instance for WoodpushProver {
    type Pos = Position;
    type Table = WoodpushTable;

    fn claim(&self, tb: Option<&WoodpushTable>, pos: &Position) -> Option<(u32, Move)> {
        let t = tb?;
        if !t.space().contains(pos) {
            return None;
        }
        let v = t.wdl().value(t.space().rank(pos), pos.side);
        if v.result != GameResult::Win {
            return None;
        }
        Some((v.plies, t.best_move(pos)?))
    }

    fn claim_plies(&self, tb: Option<&WoodpushTable>, pos: &Position) -> Option<u32> {
        let t = tb?;
        if !t.space().contains(pos) {
            return None;
        }
        let v = t.wdl().value(t.space().rank(pos), pos.side);
        (v.result == GameResult::Win).then_some(v.plies)
    }

    fn table_result(&self, tb: Option<&WoodpushTable>, pos: &Position) -> Option<GameResult> {
        let t = tb?;
        t.space()
            .contains(pos)
            .then(|| t.wdl().value(t.space().rank(pos), pos.side).result)
    }

    fn table_fits(&self, tb: &WoodpushTable, root: &Position) -> Result<(), String> {
        if tb.width() == root.board.width {
            Ok(())
        } else {
            Err(format!(
                "the table is of width {}, the position of width {}",
                tb.width(),
                root.board.width
            ))
        }
    }
}

impl ProverPosition for Position {
    const LAST_MOVER_WINS: bool = false;

    /// Left's strip in the low half of `a`, Right's in the high; the ko's piece plus one
    /// (0: none) in `b`.
    fn raw_key(&self) -> Key {
        Key {
            a: self.board.left as u64 | (self.board.right as u64) << 32,
            b: self.ko.map_or(0, |q| q as u64 + 1),
            side: self.side as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Position, String> {
        position_of(self.board.width, key)
    }

    fn params(&self) -> [u8; 2] {
        [PROOF_TAG, self.board.width as u8]
    }

    fn owns_params(params: [u8; 2]) -> bool {
        params[0] == PROOF_TAG
    }

    fn from_params(params: [u8; 2], key: &Key) -> Result<Position, String> {
        if params[0] != PROOF_TAG {
            return Err("not a proof of Woodpush".into());
        }
        position_of(params[1] as u32, key)
    }

    /// The cell times two, plus one for a push, plus one (never 0).
    fn move_code(mv: Move) -> u16 {
        mv.cell as u16 * 2 + (mv.kind == Kind::Push) as u16 + 1
    }

    fn code_move(code: u16) -> Move {
        let c = code.saturating_sub(1);
        Move {
            cell: (c / 2).min(u8::MAX as u16) as u8,
            kind: if c % 2 == 1 {
                Kind::Push
            } else {
                Kind::Forward
            },
        }
    }
}

/// The position of `key` on a strip of `width` cells, or why there is none.
fn position_of(width: u32, key: &Key) -> Result<Position, String> {
    if !(1..=MAX_WIDTH).contains(&width) {
        return Err(format!("width {width} is not a Woodpush strip"));
    }
    let full = (1u64 << width) - 1;
    let (left, right) = (key.a & 0xffff_ffff, key.a >> 32);
    if left & !full != 0 || right & !full != 0 || left & right != 0 || key.side > 1 {
        return Err(format!("no strip of width {width} has these pieces"));
    }
    let board = Board {
        left: left as u32,
        right: right as u32,
        width,
    };
    let side = if key.side == 0 {
        Side::First
    } else {
        Side::Second
    };
    let ko = match key.b {
        0 => None,
        q if q <= width as u64 && ko_possible(board, side, q as u32 - 1) => Some(q as u8 - 1),
        _ => return Err("a ko that play cannot produce".into()),
    };
    let pos = Position { board, side, ko };
    Ok(pos)
}
