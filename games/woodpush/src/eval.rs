//! Woodpush's evaluation for searches that stop early: the forward moves each side's pieces
//! have left before they leave the strip (the game's own score of a finished strip, read
//! on an unfinished one), the tempo the side to move spends, and the sound verdict of a push
//! that drives the opponent's last piece off.

use crate::board::{bits, Board, Kind};
use crate::position::{Move, Position};
use quasar_core::{Evaluation, Side, Verdict};

/// One forward move a piece has left before it leaves the strip.
pub const MOVE: i32 = 10;
/// What the side to move gives up by having to move: every forward move spends one of its
/// own moves, so with equal counts the mover runs out first (normal play).
pub const TEMPO: i32 = MOVE / 2;

/// The forward moves `side`'s pieces have left: a Left piece on bit `i` leaves after
/// `width - i` of them, a Right piece after `i + 1` ([`Board::score`] of a finished strip).
#[inline]
fn moves_left(board: Board, side: Side) -> i32 {
    let own = board.pieces(side);
    let n = own.count_ones() as i32;
    let bit_sum: i32 = bits(own).map(|i| i as i32).sum();
    match side {
        Side::First => board.width as i32 * n - bit_sum,
        Side::Second => bit_sum + n,
    }
}

/// The moves-left evaluation of Woodpush; stateless (the width is in each position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WoodpushEval;

impl Evaluation<Position> for WoodpushEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let me = pos.side;
        MOVE * (moves_left(pos.board, me) - moves_left(pos.board, me.opponent())) - TEMPO
    }

    fn scale(&self) -> f64 {
        // Two moves ahead wins most games: the mover can give one back and still lead.
        (2 * MOVE) as f64
    }

    /// Pushes move the opponent's pieces toward their exit and may drive one off.
    #[inline]
    fn is_tactical(&self, _: &Position, mv: Move) -> bool {
        mv.kind == Kind::Push
    }

    /// A push that drives the opponent's last piece off the strip wins at once (the pusher
    /// itself stays on, one cell back).
    fn verdict(&self, pos: &Position) -> Option<Verdict> {
        let me = pos.side;
        let b = pos.board;
        // A push shifts one run a cell and only the piece at the strip's end leaves: the
        // opponent must be down to one piece for a push to finish it.
        if b.pieces(me.opponent()).count_ones() != 1 {
            return None;
        }
        bits(b.pieces(me))
            .filter(|&i| b.can_push(me, i) && pos.ko != Some(i as u8))
            .any(|i| {
                let after = b.apply(me, i, Kind::Push);
                after.pieces(me.opponent()) == 0 && after.pieces(me) != 0
            })
            .then_some(Verdict::WIN_IN_ONE)
    }

    fn name(&self) -> &'static str {
        "moves-left"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quasar_core::Game;
    use quasar_core::GameResult;

    /// The score written out cell by cell from the 1-based numbering, as documented.
    fn by_hand(pos: &Position) -> i32 {
        let w = pos.board.width as i32;
        let left_to_go = |side: Side| {
            let mut s = 0;
            for cell in 1..=w {
                let bit = 1u32 << (cell - 1);
                if pos.board.pieces(side) & bit != 0 {
                    // Left leaves past cell w, Right past cell 1.
                    s += if side == Side::First {
                        w + 1 - cell
                    } else {
                        cell
                    };
                }
            }
            s
        };
        MOVE * (left_to_go(pos.side) - left_to_go(pos.side.opponent())) - TEMPO
    }

    /// The colour-flipped twin: the strip mirrored with colours swapped, the other side to
    /// move, the ko on the mirrored piece.
    fn flipped(pos: &Position) -> Position {
        Position {
            board: pos.board.mirror(),
            side: pos.side.opponent(),
            ko: pos.ko.map(|q| (pos.board.width - 1 - q as u32) as u8),
        }
    }

    #[test]
    fn the_start_is_a_tempo_down_and_the_value_matches_the_definition() {
        let mut rng = quasar_core::SplitMix64::new(7);
        let mut moves = Vec::new();
        let mut seen = 0;
        for (width, pieces) in [(7, 2), (9, 2), (12, 3), (20, 3), (31, 8)] {
            let start = Position::start_with(width, pieces).unwrap();
            assert_eq!(WoodpushEval.evaluate(&start), -TEMPO, "{width}");
            for _game in 0..10 {
                let mut p = start;
                for _ply in 0..500 {
                    if p.outcome().is_some() {
                        break;
                    }
                    assert_eq!(
                        WoodpushEval.evaluate(&p),
                        by_hand(&p),
                        "{}",
                        p.position_text()
                    );
                    assert_eq!(
                        WoodpushEval.evaluate(&flipped(&p)),
                        WoodpushEval.evaluate(&p)
                    );
                    seen += 1;
                    p.legal_moves(&mut moves);
                    let i = rng.below(moves.len());
                    p.play(moves[i]);
                }
            }
        }
        assert!(seen > 500, "{seen}");
    }

    #[test]
    fn the_verdict_is_a_push_off_of_the_last_piece_exactly() {
        let mut rng = quasar_core::SplitMix64::new(9);
        let mut moves = Vec::new();
        let (mut wins, mut seen) = (0, 0);
        for width in [6, 7, 8, 9] {
            for _game in 0..100 {
                let mut p = Position::start(width).unwrap();
                for _ply in 0..300 {
                    if p.outcome().is_some() {
                        break;
                    }
                    p.legal_moves(&mut moves);
                    let me = p.side;
                    let now = moves
                        .iter()
                        .any(|&m| p.after(m).outcome() == Some(quasar_core::Outcome::Win(me)));
                    // Only pushes can win at once: a forward move never takes a piece.
                    assert_eq!(
                        WoodpushEval.verdict(&p).is_some(),
                        now,
                        "{}",
                        p.position_text()
                    );
                    wins += usize::from(now);
                    seen += 1;
                    let i = rng.below(moves.len());
                    p.play(moves[i]);
                }
            }
        }
        assert!(wins > 20, "{wins} of {seen}");
        // Right's piece on cell 8 pushes Left's last piece, on cell 9 at the edge, off.
        let p = Position::parse_position("....R..RL R").unwrap();
        assert_eq!(
            WoodpushEval.verdict(&p),
            Some(Verdict {
                result: GameResult::Win,
                plies: 1
            })
        );
    }
}
