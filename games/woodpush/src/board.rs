//! The strip of cells as two bitmasks, the two kinds of move, and the score of a finished strip.

use quasar_core::{grid, Side};

/// The widest strip a [`Board`] holds (bits of a `u32`, less one spare bit for shifts).
pub const MAX_WIDTH: u32 = 31;

/// A strip of `width` cells: bit `i` of a mask is cell `i + 1`. Left moves toward higher cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Cells holding a Left piece.
    pub left: u32,
    /// Cells holding a Right piece.
    pub right: u32,
    /// Number of cells.
    pub width: u32,
}

/// How a piece moves: forward (slide, or jump a run) or backward (push a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// One cell forward, jumping the contiguous run in the way; may leave the board.
    Forward,
    /// One cell back, pushing the contiguous run behind; allowed with an opponent behind.
    Push,
}

impl Board {
    /// An empty strip of `width` cells (1 to [`MAX_WIDTH`]; callers check).
    pub fn empty(width: u32) -> Board {
        Board {
            left: 0,
            right: 0,
            width,
        }
    }

    /// Mask of all cells of the strip.
    #[inline]
    pub fn full(self) -> u32 {
        (1u32 << self.width) - 1
    }

    /// Cells holding any piece.
    #[inline]
    pub fn occupied(self) -> u32 {
        self.left | self.right
    }

    /// The pieces of `side` (Left is `First`).
    #[inline]
    pub fn pieces(self, side: Side) -> u32 {
        match side {
            Side::First => self.left,
            Side::Second => self.right,
        }
    }

    /// Whether the piece of `side` on bit `i` may push: an opponent piece directly behind it.
    #[inline]
    pub fn can_push(self, side: Side, i: u32) -> bool {
        match side {
            Side::First => i > 0 && self.right & (1 << (i - 1)) != 0,
            Side::Second => i + 1 < self.width && self.left & (1 << (i + 1)) != 0,
        }
    }

    /// The strip after the piece of `side` on bit `i` makes a move of `kind` (legal; unchecked).
    #[inline]
    pub fn apply(self, side: Side, i: u32, kind: Kind) -> Board {
        let occ = self.occupied();
        let bit = 1u32 << i;
        let (mut l, mut r) = (self.left, self.right);
        match (side, kind) {
            (Side::First, Kind::Forward) => {
                // Cells from i+1 up that are occupied form the run to jump; !occ >> (i+1) finds its end.
                let run = (!occ >> (i + 1)).trailing_zeros();
                let target = i + 1 + run;
                l &= !bit;
                if target < self.width {
                    l |= 1 << target;
                }
            }
            (Side::Second, Kind::Forward) => {
                // The run below i: occupied cells counted downward from i-1 (shifted to the top).
                let run = if i == 0 {
                    0
                } else {
                    (!(occ << (32 - i))).leading_zeros()
                };
                r &= !bit;
                if run < i {
                    r |= 1 << (i - 1 - run);
                }
            }
            (Side::First, Kind::Push) => {
                // The segment j..=i (the pusher and the run behind it) shifts down one cell.
                let run = if i == 0 {
                    0
                } else {
                    (!(occ << (32 - i))).leading_zeros()
                };
                let j = i - run;
                let seg = (u32::MAX >> (31 - i)) & !((1u32 << j) - 1);
                l = (l & !seg) | ((l & seg) >> 1);
                r = (r & !seg) | ((r & seg) >> 1);
            }
            (Side::Second, Kind::Push) => {
                let run = (!occ >> (i + 1)).trailing_zeros().min(self.width - 1 - i);
                let j = i + run;
                let seg = (u32::MAX >> (31 - j)) & !((1u32 << i) - 1);
                let full = self.full();
                l = ((l & !seg) | ((l & seg) << 1)) & full;
                r = ((r & !seg) | ((r & seg) << 1)) & full;
            }
        }
        Board {
            left: l,
            right: r,
            width: self.width,
        }
    }

    /// Whether the game is over: a side has no piece left.
    #[inline]
    pub fn is_over(self) -> bool {
        self.left == 0 || self.right == 0
    }

    /// The score of a finished strip: moves the winner could play in a row, positive when Left
    /// won (a Left piece on cell `p` is worth `w + 1 - p`, a Right piece `p`); 0 when empty.
    pub fn score(self) -> i32 {
        if self.right == 0 {
            bits(self.left).map(|i| (self.width - i) as i32).sum()
        } else if self.left == 0 {
            -bits(self.right).map(|i| (i + 1) as i32).sum::<i32>()
        } else {
            0
        }
    }

    /// The strip mirrored end for end with the colours swapped (the game's symmetry).
    pub fn mirror(self) -> Board {
        let flip = |m: u32| grid::mirror_row(m.into(), self.width) as u32;
        Board {
            left: flip(self.right),
            right: flip(self.left),
            width: self.width,
        }
    }
}

/// The set bits of `m`, lowest first.
#[inline]
pub fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros();
            m &= m - 1;
            Some(i)
        }
    })
}
