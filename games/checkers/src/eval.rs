//! Checkers' evaluation for searches that stop early: material with kings worth more than
//! men, the advancement of men, the guard of the back row, and the sound verdict of a
//! capture that takes the opponent's last pieces.

use crate::board::{row_col, Board, Move};
use crate::play::Checkers;
use quasar_core::{Evaluation, Side, Verdict};

/// A man, in evaluation units.
pub const MAN: i32 = 100;
/// A king: more than a man (it moves both ways), less than a man and a half.
pub const KING: i32 = 140;
/// One row a man has advanced toward its crowning row.
pub const ROW: i32 = 3;
/// A man still on its own back row, which keeps the opponent's men from crowning there.
pub const BACK_GUARD: i32 = 8;
/// The opponent pieces at most which the verdict looks for a capture of them all: the
/// moves are generated only in such sparse endings, so the middle game pays nothing.
const VERDICT_PIECES: u32 = 4;

/// The rows of `side`'s men counted from its own back row, per square: Black moves toward
/// higher rows, White toward lower ones.
const fn advance_table(side: Side) -> [i32; 32] {
    let mut t = [0; 32];
    let mut s = 0;
    while s < 32 {
        let r = row_col(s as u8).0;
        t[s] = match side {
            Side::First => r,
            Side::Second => 7 - r,
        };
        s += 1;
    }
    t
}

/// The squares of each side's own back row: Black's row 0 (1-4), White's row 7 (29-32).
const BACK_ROW: [u32; 2] = [0x0000_000F, 0xF000_0000];
static ADVANCE: [[i32; 32]; 2] = [advance_table(Side::First), advance_table(Side::Second)];

/// Material, advancement and back-row guard for English checkers; stateless.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckersEval;

impl CheckersEval {
    /// The score of `side`'s pieces alone.
    #[inline]
    fn side_score(board: &Board, side: Side) -> i32 {
        let own = board.pieces(side);
        let kings = own & board.kings;
        let men = own & !board.kings;
        let mut advance = 0;
        let mut m = men;
        while m != 0 {
            advance += ADVANCE[side.index()][m.trailing_zeros() as usize];
            m &= m - 1;
        }
        MAN * men.count_ones() as i32
            + KING * kings.count_ones() as i32
            + ROW * advance
            + BACK_GUARD * (men & BACK_ROW[side.index()]).count_ones() as i32
    }
}

impl Evaluation<Checkers> for CheckersEval {
    #[inline]
    fn evaluate(&self, g: &Checkers) -> i32 {
        let me = g.pos.side;
        Self::side_score(&g.pos.board, me) - Self::side_score(&g.pos.board, me.opponent())
    }

    fn scale(&self) -> f64 {
        // A man up wins most games between equal players; half of one, three in four.
        (MAN / 2) as f64
    }

    #[inline]
    fn is_tactical(&self, _: &Checkers, mv: Move) -> bool {
        mv.is_capture()
    }

    /// A position where the side to move must capture is not quiet: the material it
    /// counts is about to change, so a search resolves the exchange before it trusts it.
    #[inline]
    fn is_quiet(&self, g: &Checkers) -> bool {
        !g.pos.board.has_capture(g.pos.side)
    }

    /// A capture that takes every opponent piece wins at once: the opponent, without
    /// pieces, has no move, which ends the game before any draw rule is looked at.
    fn verdict(&self, g: &Checkers) -> Option<Verdict> {
        let b = &g.pos.board;
        let me = g.pos.side;
        let theirs = b.pieces(me.opponent());
        if theirs.count_ones() > VERDICT_PIECES || !b.has_capture(me) {
            return None;
        }
        let mut moves = Vec::new();
        b.moves(me, &mut moves);
        moves
            .iter()
            .any(|m| m.captured == theirs)
            .then_some(Verdict::WIN_IN_ONE)
    }

    fn name(&self) -> &'static str {
        "material+advance"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use quasar_core::Game;

    fn game(fen: &str) -> Checkers {
        Checkers::new(Position::from_fen(fen).unwrap())
    }

    /// The score written out square by square from the 1-32 numbering, as documented.
    fn by_hand(g: &Checkers) -> i32 {
        let b = g.pos.board;
        let score = |side: Side| {
            let mut s = 0;
            for n in 1..=32u32 {
                let bit = 1u32 << (n - 1);
                if b.pieces(side) & bit == 0 {
                    continue;
                }
                if b.kings & bit != 0 {
                    s += KING;
                    continue;
                }
                let row = ((n - 1) / 4) as i32;
                let advanced = if side == Side::First { row } else { 7 - row };
                s += MAN + ROW * advanced;
                let back = if side == Side::First { n <= 4 } else { n >= 29 };
                if back {
                    s += BACK_GUARD;
                }
            }
            s
        };
        score(g.pos.side) - score(g.pos.side.opponent())
    }

    #[test]
    fn the_start_is_level_and_the_value_matches_the_definition() {
        assert_eq!(CheckersEval.evaluate(&Checkers::default()), 0);
        let mut rng = quasar_core::SplitMix64::new(5);
        let mut moves = Vec::new();
        let mut seen = 0;
        for _game in 0..30 {
            let mut g = Checkers::default();
            while g.outcome().is_none() {
                assert_eq!(
                    CheckersEval.evaluate(&g),
                    by_hand(&g),
                    "{}",
                    g.position_text()
                );
                // The colour-flipped twin scores the same for its mover.
                let twin = Checkers::new(g.pos.reversed());
                assert_eq!(CheckersEval.evaluate(&twin), CheckersEval.evaluate(&g));
                seen += 1;
                g.legal_moves(&mut moves);
                let k = rng.below(moves.len());
                g.play(moves[k]);
            }
        }
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn kings_outweigh_men_and_advanced_men_outweigh_home_ones() {
        // Black to move: a king against a man is good for it; the same with colours
        // exchanged, mover to mover.
        assert!(CheckersEval.evaluate(&game("B:W32:BK1")) > 0);
        assert_eq!(
            CheckersEval.evaluate(&game("B:W32:BK1")),
            CheckersEval.evaluate(&game("W:WK32:B1"))
        );
        // A black man on 25 (row 6) against a white man on 29 (White's back row, guarding).
        assert_eq!(
            CheckersEval.evaluate(&game("B:W29:B25")),
            ROW * 6 - BACK_GUARD
        );
    }

    #[test]
    fn verdicts_follow_the_rules() {
        let win = Some(Verdict::WIN_IN_ONE);
        // Black's man on 14 jumps White's 18 and 27 in one move: White has nothing left.
        assert_eq!(CheckersEval.verdict(&game("B:W18,27:B14")), win);
        // A third white piece stays on the board: no verdict.
        assert_eq!(CheckersEval.verdict(&game("B:W18,27,32:B14")), None);
        // No capture at all: no verdict.
        assert_eq!(CheckersEval.verdict(&game("B:W32:B1")), None);
    }
}
