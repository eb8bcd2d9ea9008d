//! Breakthrough's features for a learned evaluation: an n-tuple network. Each rectangular
//! window of the board (2x3 and 3x2 cells by default) in each place is one tuple, and each
//! way its cells can be filled (empty, the mover's piece, the opponent's) is one feature;
//! with the counts of both sides' pieces as one more. The board is seen from the side to
//! move (its pieces move up), so a position and its colour-flipped twin are one; and a
//! window and its left-right mirror share their weights, so a position and its mirror
//! image score alike.

use crate::transform::flip_rows;
use crate::{Board, Move, Position};
use learn::{Active, Features, Identity};
use quasar_core::bits::{self, Bits, WithBits};
use quasar_core::Side;

/// One window in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    /// Its width in cells.
    cols: u32,
    /// On the right half: read mirrored, so that it shares the weights of its mirror
    /// image on the left.
    mirrored: bool,
    /// It is its own mirror image (the middle place of a row): a pattern and its mirror
    /// image are one feature.
    centre: bool,
    /// Its first feature.
    base: u32,
    /// Its cells on the board seen from the mover.
    mask: u64,
    /// How its cells' bits (row by row, as `pext` gathers them) read as a base-3 number:
    /// [`TERNARY`], or for a window read mirrored its shape's mirror table.
    table: &'static [u16; 64],
}

/// An n-tuple feature set of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NTuple {
    board: Board,
    shapes: Vec<(u32, u32)>,
    windows: Vec<Window>,
    material: u32,
    len: u32,
    /// For each cell (seen from the mover), the windows holding it, one bit a window; empty
    /// where there are more than 128 windows (a child is then read whole).
    cell_windows: Vec<u128>,
}

/// The model shipped for `board`, as its file's bytes: trained by `quasar train` on
/// self-play of the default player (the commands are in `docs/training.md`); `None` for a
/// board without one.
pub fn builtin_model(board: Board) -> Option<&'static [u8]> {
    match (board.width(), board.height()) {
        (6, 6) => Some(include_bytes!("../nets/6x6.qsrmodel")),
        (8, 8) => Some(include_bytes!("../nets/8x8.qsrmodel")),
        _ => None,
    }
}

/// `TERNARY[x]`: the bits of `x` as base-3 digits (bit `k` a `3^k`).
const TERNARY: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut x = 0;
    while x < 64 {
        let (mut v, mut p, mut k) = (0u16, 1u16, 0);
        while k < 6 {
            if x & (1 << k) != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
};

/// `TERNARY` of a code whose rows of `cols` bits are each read right to left.
const fn mirrored_ternary(cols: u32) -> [u16; 64] {
    let mut t = [0u16; 64];
    let mut x = 0usize;
    while x < 64 {
        let mut m = 0usize;
        let mut k = 0;
        while k < 6 {
            if x & (1 << k) != 0 {
                let (row, col) = (k as u32 / cols, k as u32 % cols);
                m |= 1 << (row * cols + (cols - 1 - col));
            }
            k += 1;
        }
        t[x] = if m < 64 { TERNARY[m] } else { 0 };
        x += 1;
    }
    t
}

/// The mirror tables of windows 0 to 3 columns wide.
static MIRRORED: [[u16; 64]; 4] = [
    TERNARY,
    mirrored_ternary(1),
    mirrored_ternary(2),
    mirrored_ternary(3),
];

/// The default windows: 2 rows by 3 columns and 3 rows by 2.
pub const DEFAULT_SHAPES: [(u32, u32); 2] = [(2, 3), (3, 2)];

impl NTuple {
    /// The default feature set of `board`.
    pub fn new(board: Board) -> NTuple {
        NTuple::with_shapes(board, &DEFAULT_SHAPES)
    }

    /// The windows of `shapes` (rows by columns, at most 6 cells each) in every place on
    /// `board`, and the piece counts.
    pub fn with_shapes(board: Board, shapes: &[(u32, u32)]) -> NTuple {
        let (w, h) = (board.width(), board.height());
        let mut windows = Vec::new();
        let mut next = 0u32;
        for &(rows, cols) in shapes {
            assert!(rows * cols <= 6, "a window has at most 6 cells");
            if rows > h || cols > w {
                continue;
            }
            let configs = 3u32.pow(rows * cols);
            for r in 0..=h - rows {
                // The left half's places have weights of their own; the right half's
                // read their mirror image there.
                let mut bases = Vec::new();
                for c in 0..=w - cols {
                    let twin = w - cols - c;
                    let (mirrored, base) = if twin < c {
                        (true, bases[twin as usize])
                    } else {
                        let b = next;
                        next += configs;
                        (false, b)
                    };
                    bases.push(base);
                    let row = (1u64 << cols) - 1;
                    let mask = (0..rows).fold(0u64, |m, k| m | row << ((r + k) * w + c));
                    windows.push(Window {
                        cols,
                        mirrored,
                        centre: twin == c,
                        base,
                        mask,
                        table: if mirrored {
                            &MIRRORED[cols as usize]
                        } else {
                            &TERNARY
                        },
                    });
                }
            }
        }
        let material = next;
        let per_side = 2 * w + 1;
        let cell_windows = if windows.len() <= 128 {
            (0..w * h)
                .map(|cell| {
                    windows
                        .iter()
                        .enumerate()
                        .filter(|(_, win)| win.mask >> cell & 1 != 0)
                        .fold(0u128, |m, (i, _)| m | 1 << i)
                })
                .collect()
        } else {
            Vec::new()
        };
        NTuple {
            board,
            shapes: shapes.to_vec(),
            windows,
            material,
            // Both counts, then their difference alone (which generalises over counts).
            len: material + per_side * per_side + 2 * per_side - 1,
            cell_windows,
        }
    }
}

impl NTuple {
    /// `side`'s pieces and its opponent's in `pos`, seen from `side`: its pieces move up.
    #[inline]
    fn seen_from(&self, pos: &Position, side: Side) -> (u64, u64) {
        let (own, opp) = (pos.pieces(side), pos.pieces(side.opponent()));
        if side == Side::Second {
            (flip_rows(&self.board, own), flip_rows(&self.board, opp))
        } else {
            (own, opp)
        }
    }
}

impl Features<Position> for NTuple {
    fn identity(&self) -> Identity {
        let shapes: Vec<String> = self
            .shapes
            .iter()
            .map(|(r, c)| format!("{r}x{c}"))
            .collect();
        Identity {
            game: "breakthrough".into(),
            params: format!("{}x{}", self.board.width(), self.board.height()),
            features: format!("ntuple-{}-v2", shapes.join("+")),
        }
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    fn active(&self, pos: &Position, out: &mut Active) {
        out.clear();
        let (own, opp) = self.seen_from(pos, pos.side());
        // Compiled once per instruction set: `pext` and `popcnt` inline only where enabled.
        bits::dispatch(Extract {
            features: self,
            own,
            opp,
            out,
        });
    }

    /// A child differs from its parent in the two cells of its move: only the windows
    /// holding them are read again (about a quarter of them on 8x8), against the parent's
    /// windows read once from the child's side.
    fn child_sums(
        &self,
        pos: &Position,
        moves: &[Move],
        weights: &[f32],
        each: &mut dyn FnMut(usize, f32),
    ) -> bool {
        if self.cell_windows.is_empty() {
            return false;
        }
        // The children's mover is the parent's opponent: the board is seen from it.
        let mover = pos.side().opponent();
        let (own, opp) = self.seen_from(pos, mover);
        let flip = mover == Side::Second;
        bits::dispatch(ChildSums {
            features: self,
            own,
            opp,
            flip,
            moves,
            weights,
            each,
        });
        true
    }
}

/// The feature of window `win` where the mover has `own` and the opponent `opp`.
#[inline(always)]
fn window_feature<B: Bits>(bits: B, win: &Window, own: u64, opp: u64) -> u32 {
    // `pext` gathers a window's cells row by row: its code as `TERNARY` reads it.
    let (o, q) = (
        bits.pext(own, win.mask) as usize,
        bits.pext(opp, win.mask) as usize,
    );
    let mut t = win.table[o] + 2 * win.table[q];
    if win.centre {
        let m = &MIRRORED[win.cols as usize];
        t = t.min(m[o] + 2 * m[q]);
    }
    win.base + t as u32
}

/// The two piece-count features of a mover with `mine` pieces against `theirs`.
#[inline(always)]
fn count_features(f: &NTuple, mine: u32, theirs: u32) -> [u32; 2] {
    let per_side = 2 * f.board.width() + 1;
    [
        f.material + mine * per_side + theirs,
        f.material + per_side * per_side + per_side - 1 + mine - theirs,
    ]
}

/// The weight sums of a position's children from the parent's pieces seen from the
/// children's mover, as a job for [`bits::dispatch`].
struct ChildSums<'a> {
    features: &'a NTuple,
    own: u64,
    opp: u64,
    /// Whether cells are seen with the rows flipped.
    flip: bool,
    moves: &'a [Move],
    weights: &'a [f32],
    each: &'a mut dyn FnMut(usize, f32),
}

impl WithBits for ChildSums<'_> {
    type Output = ();

    #[inline(always)]
    fn run<B: Bits>(self, bits: B) {
        let ChildSums {
            features: f,
            own,
            opp,
            flip,
            moves,
            weights,
            each,
        } = self;
        let mut old = [0f32; 128];
        let mut total = 0f32;
        for (i, win) in f.windows.iter().enumerate() {
            old[i] = weights[window_feature(bits, win, own, opp) as usize];
            total += old[i];
        }
        let (w, h) = (f.board.width(), f.board.height());
        let seen = |cell: u8| {
            let c = cell as u32;
            if flip {
                (h - 1 - c / w) * w + c % w
            } else {
                c
            }
        };
        for (k, mv) in moves.iter().enumerate() {
            let (from, to) = (seen(mv.from), seen(mv.to));
            // The opponent (the parent's mover) goes from `from` to `to`, taking what of
            // the children's mover stood there.
            let mine = own & !(1u64 << to);
            let theirs = opp & !(1u64 << from) | 1u64 << to;
            let mut sum = total;
            let mut touched = f.cell_windows[from as usize] | f.cell_windows[to as usize];
            while touched != 0 {
                let i = touched.trailing_zeros() as usize;
                touched &= touched - 1;
                sum += weights[window_feature(bits, &f.windows[i], mine, theirs) as usize] - old[i];
            }
            for c in count_features(f, mine.count_ones(), theirs.count_ones()) {
                sum += weights[c as usize];
            }
            each(k, sum);
        }
    }
}

/// [`NTuple`]'s features of one position (its pieces seen from the mover) as a job for
/// [`bits::dispatch`].
struct Extract<'a> {
    features: &'a NTuple,
    own: u64,
    opp: u64,
    out: &'a mut Active,
}

impl WithBits for Extract<'_> {
    type Output = ();

    #[inline(always)]
    fn run<B: Bits>(self, bits: B) {
        let Extract {
            features,
            own,
            opp,
            out,
        } = self;
        for win in &features.windows {
            out.push(window_feature(bits, win, own, opp));
        }
        for c in count_features(features, own.count_ones(), opp.count_ones()) {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quasar_core::Game;

    fn active(f: &NTuple, pos: &Position) -> Vec<u32> {
        let mut a = Active::default();
        f.active(pos, &mut a);
        let mut v = a.as_slice().to_vec();
        v.sort_unstable();
        v
    }

    /// Each window's feature recounted cell by cell from the position's text.
    #[test]
    fn each_feature_is_its_window_read_cell_by_cell() {
        let board = Board::new(6, 6).unwrap();
        let f = NTuple::new(board);
        let pos = Position::parse_position("BB1BBB/1BBBB1/2B3/1WW3/W2WWW/WWW1WW w").unwrap();
        let mut a = Active::default();
        f.active(&pos, &mut a);
        let got = a.as_slice();
        for (i, win) in f.windows.iter().enumerate() {
            // The window's bottom left cell and its rows, from its cells.
            let (r0, c0) = (win.mask.trailing_zeros() / 6, win.mask.trailing_zeros() % 6);
            let rows = win.mask.count_ones() / win.cols;
            // Its pattern read left to right, and read right to left.
            let read = |mirror: bool| {
                let (mut t, mut p) = (0u32, 1u32);
                for k in 0..rows {
                    for j in 0..win.cols {
                        let c = if mirror {
                            c0 + win.cols - 1 - j
                        } else {
                            c0 + j
                        };
                        let sq = (r0 + k) * 6 + c;
                        if pos.white() >> sq & 1 == 1 {
                            t += p;
                        } else if pos.black() >> sq & 1 == 1 {
                            t += 2 * p;
                        }
                        p *= 3;
                    }
                }
                t
            };
            let want = if win.centre {
                read(false).min(read(true))
            } else {
                read(win.mirrored)
            };
            assert_eq!(got[i], win.base + want, "window {i}");
        }
        assert_eq!(got[got.len() - 2], f.material + 11 * 13 + 10);
        assert_eq!(*got.last().unwrap(), f.material + 13 * 13 + 12 + 1);
        assert!(got.iter().all(|&i| (i as usize) < f.len()));
    }

    #[test]
    fn a_position_its_colour_flip_and_its_mirror_share_their_features() {
        let board = Board::new(8, 8).unwrap();
        let f = NTuple::new(board);
        let mut pos = Position::start(board);
        let mut rng = 7u64;
        let mut moves = Vec::new();
        for _ in 0..30 {
            if pos.outcome().is_some() {
                break;
            }
            let a = active(&f, &pos);
            assert_eq!(a, active(&f, &pos.flip_colours()));
            assert_eq!(a, active(&f, &pos.mirror()));
            pos.legal_moves(&mut moves);
            rng = quasar_core::splitmix64(rng);
            pos.play(moves[(rng % moves.len() as u64) as usize]);
        }
    }

    /// Every child's weight sum from its parent's windows equals the sum over the
    /// child's own features, on boards with and without a centre column, both sides to
    /// move, captures and wins included.
    #[test]
    fn child_sums_equal_each_childs_features_summed() {
        for (w, h) in [(6, 6), (8, 8), (5, 7), (7, 5), (3, 5)] {
            let board = Board::new(w, h).unwrap();
            let f = NTuple::new(board);
            let mut rng = 11u64 + w as u64;
            let weights: Vec<f32> = (0..f.len())
                .map(|_| {
                    rng = quasar_core::splitmix64(rng);
                    (rng % 2001) as f32 / 1000.0 - 1.0
                })
                .collect();
            let mut moves = Vec::new();
            let mut checked = 0;
            for game in 0..20u64 {
                let mut pos = Position::start(board);
                rng ^= game;
                while pos.outcome().is_none() {
                    pos.legal_moves(&mut moves);
                    let mut sums = vec![f32::NAN; moves.len()];
                    let mut order = Vec::new();
                    assert!(f.child_sums(&pos, &moves, &weights, &mut |i, sum| {
                        order.push(i);
                        sums[i] = sum;
                    }));
                    assert_eq!(order, (0..moves.len()).collect::<Vec<_>>());
                    for (&mv, &got) in moves.iter().zip(&sums) {
                        let mut child = pos;
                        child.play(mv);
                        let mut a = Active::default();
                        f.active(&child, &mut a);
                        let want: f64 = a
                            .as_slice()
                            .iter()
                            .map(|&i| weights[i as usize] as f64)
                            .sum();
                        assert!(
                            (got as f64 - want).abs() < 1e-3,
                            "{w}x{h} {pos:?} {mv:?}: {got} against {want}"
                        );
                        checked += 1;
                    }
                    rng = quasar_core::splitmix64(rng);
                    pos.play(moves[(rng % moves.len() as u64) as usize]);
                }
            }
            assert!(checked > 1000, "{w}x{h}: {checked} children");
        }
    }

    /// A learned evaluation scores a node's children at once as it scores each alone
    /// (within a unit of rounding: the sums are added in another order), and a child
    /// that ends the game at 0.
    #[test]
    fn a_learned_evaluation_scores_children_at_once_as_one_by_one() {
        use quasar_core::Evaluation;
        let board = Board::new(6, 6).unwrap();
        let f = NTuple::new(board);
        let mut model = learn::Model::zeros(f.identity(), f.len());
        let mut rng = 5u64;
        for w in model.weights.iter_mut() {
            rng = quasar_core::splitmix64(rng);
            *w = (rng % 1001) as f32 / 1000.0 - 0.5;
        }
        model.bias = 0.125;
        model.base_weight = 0.75;
        let base = std::sync::Arc::new(crate::BreakthroughEval::for_mcts(board));
        let net = learn::NetEvaluation::new(model, std::sync::Arc::new(f), base);
        let (mut moves, mut values, mut ends) = (Vec::new(), Vec::new(), 0);
        for game in 0..30u64 {
            let mut pos = Position::start(board);
            rng ^= game;
            while pos.outcome().is_none() {
                pos.legal_moves(&mut moves);
                assert!(net.evaluate_children(&pos, &moves, &mut values));
                assert_eq!(values.len(), moves.len());
                for (&mv, &got) in moves.iter().zip(&values) {
                    let mut child = pos;
                    child.play(mv);
                    if child.outcome().is_some() {
                        assert_eq!(got, 0);
                        ends += 1;
                    } else {
                        let want = net.evaluate(&child);
                        assert!(
                            (got - want).abs() <= 1,
                            "{pos:?} {mv:?}: {got} against {want}"
                        );
                    }
                }
                rng = quasar_core::splitmix64(rng);
                pos.play(moves[(rng % moves.len() as u64) as usize]);
            }
        }
        assert!(ends > 0, "some children end the game");
    }

    #[test]
    fn the_builtin_models_are_intact_and_for_their_boards() {
        for (w, h) in [(6, 6), (8, 8)] {
            let board = Board::new(w, h).unwrap();
            let f = NTuple::new(board);
            let hand = crate::BreakthroughEval::for_mcts(board);
            let id = learn::eval::identity(&f, &hand);
            let model = learn::file::from_builtin(builtin_model(board).unwrap(), &id);
            assert_eq!(model.weights.len(), f.len());
            // It prefers the side a piece up at the start: a real model, not zeros.
            let mut up = Position::parse_position(if w == 6 {
                "BBBBBB/BBBBB1/6/6/WWWWWW/WWWWWW w"
            } else {
                "BBBBBBBB/BBBBBBB1/8/8/8/8/WWWWWWWW/WWWWWWWW w"
            })
            .unwrap();
            let net = learn::NetEvaluation::new(
                model,
                std::sync::Arc::new(f.clone()),
                std::sync::Arc::new(hand),
            );
            assert!(net.logit(&up) > 0.3, "{w}x{h}");
            up = up.flip_colours();
            assert!(net.logit(&up) > 0.3, "{w}x{h}");
        }
        assert!(builtin_model(Board::new(7, 7).unwrap()).is_none());
    }

    #[test]
    fn mirrored_places_share_weights_and_the_rest_are_distinct() {
        let f = NTuple::new(Board::new(7, 6).unwrap());
        let own: Vec<u32> = f
            .windows
            .iter()
            .filter(|w| !w.mirrored)
            .map(|w| w.base)
            .collect();
        let mut sorted = own.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), own.len());
        // On 7 columns a 2x3 window has 5 places a row: 3 of their own, 2 mirrored.
        let row0: Vec<&Window> = f
            .windows
            .iter()
            .filter(|w| w.cols == 3 && w.mask.trailing_zeros() < 7)
            .collect();
        assert_eq!(row0.iter().filter(|w| w.mirrored).count(), 2);
        assert_eq!(row0[0].base, row0[4].base);
    }
}
