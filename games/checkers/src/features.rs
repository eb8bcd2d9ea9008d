//! Checkers' features for a learned evaluation: each piece on its square, the counts of
//! pieces and of kings, and an n-tuple network of small windows. A window is four dark
//! squares (two rows by four columns of the board, or four rows by two), and each way its
//! squares can be filled (empty, the mover's man or king, the opponent's man or king) is
//! one feature. The board is seen from the side to move, its men moving toward higher
//! rows, so that a position and its colour-reversed twin (the board turned half round)
//! activate the same features.

use crate::board::{promotion_row, row_col, Board, Move};
use crate::play::Checkers;
use learn::{Active, Features, Identity};
use quasar_core::Side;

/// What a square can hold, seen from the mover: 0 empty, 1 its man, 2 its king, 3 the
/// opponent's man, 4 the opponent's king.
const STATES: u32 = 5;
/// Squares a window holds.
const WINDOW_SQUARES: usize = 4;
/// Features a window has: every filling of its squares.
const WINDOW_FEATURES: u32 = STATES.pow(WINDOW_SQUARES as u32);
/// The piece kinds of the piece-square features (the mover's men and kings, the
/// opponent's men and kings) times the 32 squares.
const PIECE_SQUARES: u32 = 4 * 32;
/// A side has at most 12 pieces: counts 0 to 12.
const COUNTS: u32 = 13;
/// The first feature of the (mover's pieces, opponent's pieces) counts.
const PIECE_COUNTS: u32 = PIECE_SQUARES;
/// The first feature of the (mover's kings, opponent's kings) counts.
const KING_COUNTS: u32 = PIECE_COUNTS + COUNTS * COUNTS;
/// The first window feature.
const WINDOWS_BASE: u32 = KING_COUNTS + COUNTS * COUNTS;

/// The windows' squares (0 to 31), each window's first square the lowest digit of its
/// base-5 number.
const fn windows() -> [[u8; WINDOW_SQUARES]; 56] {
    let mut out = [[0u8; WINDOW_SQUARES]; 56];
    let mut n = 0;
    // Two rows by four columns, at columns 0, 2 and 4: two dark squares in each row.
    let mut r = 0;
    while r < 7 {
        let mut c = 0;
        while c <= 4 {
            out[n] = rectangle(r, c, 2, 4);
            n += 1;
            c += 2;
        }
        r += 1;
    }
    // Four rows by two columns: one dark square in each row.
    let mut r = 0;
    while r < 5 {
        let mut c = 0;
        while c < 7 {
            out[n] = rectangle(r, c, 4, 2);
            n += 1;
            c += 1;
        }
        r += 1;
    }
    assert!(n == 56);
    out
}

/// The four dark squares of the `rows` by `cols` rectangle whose lowest corner is row
/// `r0`, column `c0`, in square order.
const fn rectangle(r0: i32, c0: i32, rows: i32, cols: i32) -> [u8; WINDOW_SQUARES] {
    let mut out = [0u8; WINDOW_SQUARES];
    let mut n = 0;
    let mut s = 0;
    while s < 32 {
        let (r, c) = row_col(s as u8);
        if r >= r0 && r < r0 + rows && c >= c0 && c < c0 + cols {
            out[n] = s as u8;
            n += 1;
        }
        s += 1;
    }
    assert!(n == WINDOW_SQUARES);
    out
}

/// The windows of the feature set.
static WINDOWS: [[u8; WINDOW_SQUARES]; 56] = windows();

/// For each square, the windows holding it, as the bits of a mask (56 windows fit).
static SQUARE_WINDOWS: [u64; 32] = square_windows();

const fn square_windows() -> [u64; 32] {
    let w = windows();
    let mut out = [0u64; 32];
    let mut i = 0;
    while i < w.len() {
        let mut k = 0;
        while k < WINDOW_SQUARES {
            out[w[i][k] as usize] |= 1 << i;
            k += 1;
        }
        i += 1;
    }
    out
}

/// A window's feature (its index among all features) where the squares hold `state`.
#[inline(always)]
fn window_feature(i: usize, state: &[u8; 32]) -> u32 {
    let mut code = 0u32;
    for &s in WINDOWS[i].iter().rev() {
        code = code * STATES + state[s as usize] as u32;
    }
    WINDOWS_BASE + i as u32 * WINDOW_FEATURES + code
}

/// What each square of `b` (seen from its mover, Black) holds, in the codes of
/// [`STATES`]; `piece(feature)` for each piece's piece-square feature.
#[inline(always)]
fn squares(b: &Board, mut piece: impl FnMut(u32)) -> [u8; 32] {
    let (own, opp) = (b.black, b.white);
    let mut state = [0u8; 32];
    for (kind, set) in [own & !b.kings, own & b.kings, opp & !b.kings, opp & b.kings]
        .into_iter()
        .enumerate()
    {
        let mut m = set;
        while m != 0 {
            let s = m.trailing_zeros();
            m &= m - 1;
            state[s as usize] = kind as u8 + 1;
            piece(kind as u32 * 32 + s);
        }
    }
    state
}

/// The pieces of `b` (seen from its mover, Black) counted: the mover's, the opponent's,
/// the mover's kings and the opponent's kings.
#[inline(always)]
fn counts(b: &Board) -> [u32; 4] {
    [
        b.black.count_ones(),
        b.white.count_ones(),
        (b.black & b.kings).count_ones(),
        (b.white & b.kings).count_ones(),
    ]
}

/// The (mover's pieces, opponent's pieces) count feature, and the same of kings, of the
/// [`counts`] `c`.
#[inline(always)]
fn count_features(c: [u32; 4]) -> [u32; 2] {
    // Counts above 12 come only from positions no game reaches; they share 12's weight.
    let count = |x: u32| x.min(COUNTS - 1);
    [
        PIECE_COUNTS + count(c[0]) * COUNTS + count(c[1]),
        KING_COUNTS + count(c[2]) * COUNTS + count(c[3]),
    ]
}

/// Checkers' feature set: piece-square, counts and windows, seen from the mover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquaresAndWindows;

/// The model shipped for checkers, as its file's bytes: trained by `quasar train` on
/// self-play labelled by the endgame databases (`docs/training.md`).
pub fn builtin_model() -> &'static [u8] {
    include_bytes!("../nets/checkers.qsrmodel")
}

impl SquaresAndWindows {
    /// The board seen from `side`: its pieces as Black's, moving toward higher rows.
    #[inline]
    fn seen_from(board: &Board, side: Side) -> Board {
        match side {
            Side::First => *board,
            Side::Second => board.reversed(),
        }
    }
}

impl Features<Checkers> for SquaresAndWindows {
    fn identity(&self) -> Identity {
        Identity {
            game: "checkers".into(),
            params: "8x8".into(),
            features: "squares-counts-windows4-v1".into(),
        }
    }

    fn len(&self) -> usize {
        (WINDOWS_BASE + WINDOWS.len() as u32 * WINDOW_FEATURES) as usize
    }

    #[inline]
    fn active(&self, g: &Checkers, out: &mut Active) {
        out.clear();
        let b = Self::seen_from(&g.pos.board, g.pos.side);
        let state = squares(&b, |f| out.push(f));
        for f in count_features(counts(&b)) {
            out.push(f);
        }
        for i in 0..WINDOWS.len() {
            out.push(window_feature(i, &state));
        }
    }

    /// From the parent's board seen once from the children's mover: a move changes its
    /// piece's two squares and the captured ones, so only their piece-square features,
    /// the counts and the windows holding them (about a quarter) are read again.
    fn child_sums(
        &self,
        g: &Checkers,
        moves: &[Move],
        weights: &[f32],
        each: &mut dyn FnMut(usize, f32),
    ) -> bool {
        let mover = g.pos.side;
        let viewer = mover.opponent();
        let b = Self::seen_from(&g.pos.board, viewer);
        // Squares of the parent's orientation into the viewer's.
        let turned = viewer == Side::Second;
        let square = |s: u8| if turned { 31 - s } else { s };
        let w = |f: u32| weights[f as usize];
        let mut total = 0f32;
        let state = squares(&b, |f| total += w(f));
        let parent_counts = counts(&b);
        let count_sum = |c: [u32; 4]| {
            let [p, k] = count_features(c);
            w(p) + w(k)
        };
        // The parent's count weights, taken off each child's sum that counts anew.
        let parent_count_sum = count_sum(parent_counts);
        total += parent_count_sum;
        let mut window_sums = [0f32; 56];
        for (i, sum) in window_sums.iter_mut().enumerate() {
            *sum = w(window_feature(i, &state));
            total += *sum;
        }
        for (i, mv) in moves.iter().enumerate() {
            // The mover's pieces are the opponent's (3 a man, 4 a king) in the viewer's eyes.
            let (from, to) = (square(mv.from), square(mv.to));
            let was = state[from as usize];
            let crowned = was == 3 && promotion_row(mover) >> mv.to & 1 == 1;
            let now = if crowned { 4 } else { was };
            let mut child = state;
            let mut sum = total - w((was as u32 - 1) * 32 + from as u32);
            let mut windows = SQUARE_WINDOWS[from as usize] | SQUARE_WINDOWS[to as usize];
            let mut c = parent_counts;
            let mut taken = mv.captured;
            while taken != 0 {
                let s = square(taken.trailing_zeros() as u8) as usize;
                taken &= taken - 1;
                let k = child[s];
                sum -= w((k as u32 - 1) * 32 + s as u32);
                c[0] -= 1;
                c[2] -= (k == 2) as u32;
                child[s] = 0;
                windows |= SQUARE_WINDOWS[s];
            }
            // Emptied before filled: a king's capturing tour may end where it began.
            child[from as usize] = 0;
            child[to as usize] = now;
            sum += w((now as u32 - 1) * 32 + to as u32);
            c[3] += crowned as u32;
            sum += count_sum(c) - parent_count_sum;
            while windows != 0 {
                let k = windows.trailing_zeros() as usize;
                windows &= windows - 1;
                sum += w(window_feature(k, &child)) - window_sums[k];
            }
            each(i, sum);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use quasar_core::Game;
    use quasar_core::SplitMix64;

    /// Positions of random games from the start, each colour to move.
    fn random_positions(n: usize) -> Vec<Checkers> {
        let mut rng = SplitMix64::new(5);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < n {
            let mut g = Checkers::default();
            while g.outcome().is_none() && out.len() < n {
                out.push(g.clone());
                g.legal_moves(&mut moves);
                g.play(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    fn features(g: &Checkers) -> Vec<u32> {
        let mut a = Active::default();
        SquaresAndWindows.active(g, &mut a);
        let mut v = a.as_slice().to_vec();
        v.sort_unstable();
        v
    }

    /// The features written out from the 8x8 board, cell by cell, with the mover's men
    /// moving up: an independent reading of the same definition.
    fn by_hand(g: &Checkers) -> Vec<u32> {
        let b = g.pos.board;
        // What stands at (row, col) seen from the mover: the board turned half round when
        // White moves.
        let at = |r: i32, c: i32| -> u32 {
            let (r, c) = match g.pos.side {
                Side::First => (r, c),
                Side::Second => (7 - r, 7 - c),
            };
            let bit = 1u32 << (r * 4 + c / 2);
            let mine = b.pieces(g.pos.side) & bit != 0;
            let theirs = b.pieces(g.pos.side.opponent()) & bit != 0;
            let king = b.kings & bit != 0;
            match (mine, theirs, king) {
                (true, _, false) => 1,
                (true, _, true) => 2,
                (_, true, false) => 3,
                (_, true, true) => 4,
                _ => 0,
            }
        };
        let dark = |r: i32, c: i32| (r + c) % 2 == 1;
        let mut v = Vec::new();
        let (mut counts, mut kings) = ([0u32; 2], [0u32; 2]);
        for r in 0..8 {
            for c in (0..8).filter(|&c| dark(r, c)) {
                let s = (r * 4 + c / 2) as u32;
                match at(r, c) {
                    0 => {}
                    k => {
                        v.push((k - 1) * 32 + s);
                        counts[((k - 1) / 2) as usize] += 1;
                        kings[((k - 1) / 2) as usize] += (k % 2 == 0) as u32;
                    }
                }
            }
        }
        v.push(128 + counts[0] * 13 + counts[1]);
        v.push(128 + 169 + kings[0] * 13 + kings[1]);
        let mut base = 128 + 2 * 169;
        for (rows, cols, places) in [(2, 4, [7, 3]), (4, 2, [5, 7])] {
            for r0 in 0..places[0] {
                for k in 0..places[1] {
                    let c0 = if rows == 2 { 2 * k } else { k };
                    let (mut code, mut p) = (0, 1);
                    for r in r0..r0 + rows {
                        for c in (c0..c0 + cols).filter(|&c| dark(r, c)) {
                            code += at(r, c) * p;
                            p *= 5;
                        }
                    }
                    v.push(base + code);
                    base += 625;
                }
            }
        }
        v.sort_unstable();
        v
    }

    #[test]
    fn each_feature_is_the_board_read_square_by_square() {
        let f = SquaresAndWindows;
        assert_eq!(f.len(), 128 + 2 * 169 + 56 * 625);
        for g in random_positions(3000) {
            let got = features(&g);
            assert_eq!(got, by_hand(&g), "{}", g.position_text());
            assert!(got.iter().all(|&i| (i as usize) < f.len()));
        }
    }

    /// Every child's weight sum from its parent's board equals the sum over the child's
    /// own features: captures, multi-jumps, crowning and kings' moves included.
    #[test]
    fn child_sums_equal_each_childs_features_summed() {
        let f = SquaresAndWindows;
        let mut rng = SplitMix64::new(9);
        let weights: Vec<f32> = (0..f.len())
            .map(|_| rng.below(2001) as f32 / 1000.0 - 1.0)
            .collect();
        let (mut checked, mut captures, mut crowned) = (0, 0, 0);
        let mut moves = Vec::new();
        for g in random_positions(4000) {
            g.legal_moves(&mut moves);
            let mut sums = vec![f32::NAN; moves.len()];
            let mut order = Vec::new();
            assert!(f.child_sums(&g, &moves, &weights, &mut |i, sum| {
                order.push(i);
                sums[i] = sum;
            }));
            assert_eq!(order, (0..moves.len()).collect::<Vec<_>>());
            for (&mv, &got) in moves.iter().zip(&sums) {
                let mut child = g.clone();
                child.play(mv);
                let want: f64 = features(&child)
                    .iter()
                    .map(|&i| weights[i as usize] as f64)
                    .sum();
                assert!(
                    (got as f64 - want).abs() < 1e-3,
                    "{} {}: {got} against {want}",
                    g.position_text(),
                    g.move_text(mv)
                );
                checked += 1;
                captures += (mv.jumps > 1) as u32;
                crowned +=
                    (child.pos.board.kings.count_ones() > g.pos.board.kings.count_ones()) as u32;
            }
        }
        assert!(
            checked > 20_000 && captures > 50 && crowned > 50,
            "{checked} children, {captures} multi-jumps, {crowned} crowned"
        );
    }

    #[test]
    fn the_builtin_model_is_intact_and_for_checkers() {
        let f = SquaresAndWindows;
        let hand = crate::CheckersEval;
        let id = learn::eval::identity(&f, &hand);
        let model = learn::file::from_builtin(builtin_model(), &id);
        assert_eq!(model.weights.len(), f.len());
        let net =
            learn::NetEvaluation::new(model, std::sync::Arc::new(f), std::sync::Arc::new(hand));
        // It prefers White, a man up, whoever moves: a real model, not zeros.
        for fen in [
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12",
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12",
        ] {
            let g = Checkers::new(Position::from_fen(fen).unwrap());
            let sign = if g.pos.side == Side::Second {
                1.0
            } else {
                -1.0
            };
            assert!(sign * net.logit(&g) > 0.3, "{fen}: {}", net.logit(&g));
        }
    }

    #[test]
    fn a_position_and_its_colour_reversed_twin_share_their_features() {
        let mut kings = 0;
        for g in random_positions(2000) {
            let twin = Checkers::new(g.pos.reversed());
            assert_eq!(features(&g), features(&twin), "{}", g.position_text());
            kings += (g.pos.board.kings != 0) as usize;
        }
        assert!(kings > 100, "{kings} positions with kings");
        // And the two sides' views of one board differ (the start is its own twin).
        let mut g = Checkers::default();
        g.play(g.parse_move("11-15").unwrap());
        let other = Checkers::new(Position {
            side: Side::First,
            ..g.pos
        });
        assert_ne!(features(&g), features(&other));
    }
}
