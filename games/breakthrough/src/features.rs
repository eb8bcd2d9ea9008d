//! Breakthrough's features for a learned evaluation: an n-tuple network. Each rectangular
//! window of the board (2x3 and 3x2 cells by default) in each place is one tuple, and each
//! way its cells can be filled (empty, the mover's piece, the opponent's) is one feature;
//! with the counts of both sides' pieces as one more. The board is seen from the side to
//! move (its pieces move up), so a position and its colour-flipped twin are one; and a
//! window and its left-right mirror share their weights, so a position and its mirror
//! image score alike.

use crate::transform::flip_rows;
use crate::{Board, Position};
use learn::{Active, Features, Identity};
use quasar_core::Side;

/// One window in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    /// The cell of its bottom left corner.
    shift: u32,
    rows: u32,
    cols: u32,
    /// Read it mirrored: it shares the weights of its mirror image on the left.
    mirrored: bool,
    /// It is its own mirror image (the middle place of a row): a pattern and its mirror
    /// image are one feature.
    centre: bool,
    /// Its first feature.
    base: u32,
}

/// An n-tuple feature set of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NTuple {
    board: Board,
    shapes: Vec<(u32, u32)>,
    windows: Vec<Window>,
    material: u32,
    len: u32,
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
                    windows.push(Window {
                        shift: r * w + c,
                        rows,
                        cols,
                        mirrored,
                        centre: twin == c,
                        base,
                    });
                }
            }
        }
        let material = next;
        let per_side = 2 * w + 1;
        NTuple {
            board,
            shapes: shapes.to_vec(),
            windows,
            material,
            len: material + per_side * per_side,
        }
    }

    /// The pieces of a window `x` bits wide at `shift` of `bb`, a row of the window each
    /// `cols` bits, mirrored left to right when asked.
    #[inline]
    fn code(&self, bb: u64, win: &Window) -> usize {
        let w = self.board.width();
        let row = (1u64 << win.cols) - 1;
        let mut code = 0usize;
        for k in 0..win.rows {
            let mut bits = ((bb >> (win.shift + k * w)) & row) as usize;
            if win.mirrored {
                bits = reverse(bits, win.cols);
            }
            code |= bits << (k * win.cols);
        }
        code
    }
}

/// The low `n` bits of `x` (n <= 3) in reverse order.
#[inline]
fn reverse(x: usize, n: u32) -> usize {
    match n {
        1 => x,
        2 => ((x & 1) << 1) | (x >> 1),
        _ => ((x & 1) << 2) | (x & 2) | (x >> 2),
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
            features: format!("ntuple-{}-v1", shapes.join("+")),
        }
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    fn active(&self, pos: &Position, out: &mut Active) {
        out.clear();
        let me = pos.side();
        let (mut own, mut opp) = (pos.pieces(me), pos.pieces(me.opponent()));
        if me == Side::Second {
            own = flip_rows(&self.board, own);
            opp = flip_rows(&self.board, opp);
        }
        for win in &self.windows {
            let mut t = TERNARY[self.code(own, win)] + 2 * TERNARY[self.code(opp, win)];
            if win.centre {
                let m = Window {
                    mirrored: true,
                    ..*win
                };
                t = t.min(TERNARY[self.code(own, &m)] + 2 * TERNARY[self.code(opp, &m)]);
            }
            out.push(win.base + t as u32);
        }
        let per_side = 2 * self.board.width() + 1;
        out.push(self.material + own.count_ones() * per_side + opp.count_ones());
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
            let (r0, c0) = (win.shift / 6, win.shift % 6);
            let mut t = 0u32;
            let mut p = 1u32;
            for k in 0..win.rows {
                for j in 0..win.cols {
                    let c = if win.mirrored {
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
            if !win.centre {
                assert_eq!(got[i], win.base + t, "window {i}");
            }
        }
        assert_eq!(*got.last().unwrap(), f.material + 11 * 13 + 10);
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
            .filter(|w| w.rows == 2 && w.shift < 7)
            .collect();
        assert_eq!(row0.iter().filter(|w| w.mirrored).count(), 2);
        assert_eq!(row0[0].base, row0[4].base);
    }
}
