//! Every Woodpush position of one width as a perfect index for the `retro` solvers: both sides
//! to move, every placement of pieces on the strip, and each ko state a position of its own.

use crate::board::{bits, Board, Kind};
use crate::position::{ko_possible, Position};
use quasar_core::Side;
use rayon::prelude::*;
use retro::{Child, PerfectIndex, RetroGame};

/// The widest strip the index covers (3^16 placements).
pub const MAX_INDEX_WIDTH: u32 = 16;

/// Which ko states count as positions of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoStates {
    /// Those play can produce: the forbidden push is by a piece with an opponent directly
    /// behind and an empty cell behind that (see [`ko_possible`]).
    Reachable,
    /// Any push of the side to move may be the forbidden one, even where no earlier push
    /// can have led here (a superset, for comparison with the paper's counts).
    AnyPush,
}

/// Why an index cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// Width outside 1 to [`MAX_INDEX_WIDTH`].
    #[error("width {0} cannot be indexed: use 1 to {MAX_INDEX_WIDTH}")]
    Width(u32),
}

/// The index: per side, the first number of each placement's positions (no ko first, then
/// one ko state per eligible piece from the lowest cell).
#[derive(Clone, Debug)]
pub struct WoodpushSpace {
    width: u32,
    ko_states: KoStates,
    /// `offsets[side][placement]`, with one extra entry: the side's position count.
    offsets: [Vec<u32>; 2],
    /// Placements in all, `3^width`.
    placements: u32,
    /// Every position decoded (Left mask, Right mask << 16, ko + 1 << 32), so the solvers'
    /// hot loops never search `offsets`.
    decoded: Vec<u64>,
}

impl WoodpushSpace {
    /// The index of every position on a strip of `width` cells.
    pub fn new(width: u32, ko_states: KoStates) -> Result<WoodpushSpace, SpaceError> {
        if !(1..=MAX_INDEX_WIDTH).contains(&width) {
            return Err(SpaceError::Width(width));
        }
        let placements = 3u32.pow(width);
        // The eligible pieces of every placement and side, found once and in parallel.
        let masks: [Vec<u32>; 2] = [Side::First, Side::Second].map(|side| {
            (0..placements)
                .into_par_iter()
                .map(|b| eligible(placement_board(b, width), side, ko_states))
                .collect()
        });
        let offsets = [0, 1].map(|s| {
            let mut o = Vec::with_capacity(placements as usize + 1);
            let mut total = 0u32;
            for m in &masks[s] {
                o.push(total);
                total += 1 + m.count_ones();
            }
            o.push(total);
            o
        });
        let mut decoded = Vec::with_capacity(
            (offsets[0][placements as usize] + offsets[1][placements as usize]) as usize,
        );
        for m in &masks {
            for (b, &mask) in m.iter().enumerate() {
                let board = placement_board(b as u32, width);
                let cells = board.left as u64 | (board.right as u64) << 16;
                decoded.push(cells);
                for q in bits(mask) {
                    decoded.push(cells | (q as u64 + 1) << 32);
                }
            }
        }
        Ok(WoodpushSpace {
            width,
            ko_states,
            offsets,
            placements,
            decoded,
        })
    }

    /// The strip width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Which ko states the index holds.
    pub fn ko_states(&self) -> KoStates {
        self.ko_states
    }

    /// Positions with `side` to move.
    pub fn side_size(&self, side: Side) -> u64 {
        self.offsets[side.index()][self.placements as usize] as u64
    }

    /// Whether the index holds `pos` (its width, and a ko state it counts).
    pub fn contains(&self, pos: &Position) -> bool {
        pos.board.width == self.width
            && pos
                .ko
                .is_none_or(|q| eligible(pos.board, pos.side, self.ko_states) & (1 << q) != 0)
    }
}

/// The pieces of `side` whose push may be forbidden by a ko, as a mask.
#[inline]
fn eligible(b: Board, side: Side, ko: KoStates) -> u32 {
    bits(b.pieces(side))
        .filter(|&q| match ko {
            KoStates::Reachable => ko_possible(b, side, q),
            KoStates::AnyPush => b.can_push(side, q),
        })
        .fold(0, |m, q| m | 1 << q)
}

/// The strip of placement number `b`: base-3 digits from cell 1 (0 empty, 1 Left, 2 Right).
#[inline]
fn placement_board(mut b: u32, width: u32) -> Board {
    let mut board = Board::empty(width);
    for i in 0..width {
        match b % 3 {
            1 => board.left |= 1 << i,
            2 => board.right |= 1 << i,
            _ => {}
        }
        b /= 3;
    }
    board
}

/// `TERNARY[m]`: the bits of the byte `m` read as base-3 digits (bit i worth 3^i).
const TERNARY: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (mut v, mut i, mut p) = (0, 0, 1);
        while i < 8 {
            if m >> i & 1 != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// A mask of up to 16 cells read as base-3 digits.
#[inline]
fn ternary(m: u32) -> u32 {
    TERNARY[(m & 0xff) as usize] + TERNARY[(m >> 8 & 0xff) as usize] * 6561
}

/// The placement number of a strip.
#[inline]
fn placement_number(board: Board) -> u32 {
    ternary(board.left) + 2 * ternary(board.right)
}

impl PerfectIndex for WoodpushSpace {
    type State = Position;

    fn size(&self) -> u64 {
        self.side_size(Side::First) + self.side_size(Side::Second)
    }

    /// Positions outside the index (see [`WoodpushSpace::contains`]) get an unrelated number.
    #[inline]
    fn rank(&self, p: &Position) -> u64 {
        let base = match p.side {
            Side::First => 0,
            Side::Second => self.side_size(Side::First),
        };
        let start = self.offsets[p.side.index()][placement_number(p.board) as usize] as u64;
        let k = p.ko.map_or(0, |q| {
            let below = eligible(p.board, p.side, self.ko_states) & ((1u32 << q) - 1);
            1 + below.count_ones() as u64
        });
        base + start + k
    }

    #[inline]
    fn unrank(&self, index: u64) -> Position {
        let d = self.decoded[index as usize];
        Position {
            board: Board {
                left: d as u32 & 0xffff,
                right: (d >> 16) as u32 & 0xffff,
                width: self.width,
            },
            side: RetroGame::mover(self, index),
            ko: match (d >> 32) as u8 {
                0 => None,
                k => Some(k - 1),
            },
        }
    }
}

impl RetroGame for WoodpushSpace {
    fn size(&self) -> u64 {
        PerfectIndex::size(self)
    }

    #[inline]
    fn mover(&self, pos: u64) -> Side {
        if pos < self.side_size(Side::First) {
            Side::First
        } else {
            Side::Second
        }
    }

    #[inline]
    fn terminal(&self, pos: u64) -> Option<i32> {
        let p = self.unrank(pos);
        p.board.is_over().then(|| p.board.score())
    }

    #[inline]
    fn successors(&self, pos: u64, out: &mut Vec<Child>) {
        out.clear();
        let p = self.unrank(pos);
        if p.board.is_over() {
            return;
        }
        for i in bits(p.board.pieces(p.side)) {
            out.push(Child::Pos(self.rank(&p.after(crate::Move {
                cell: i as u8,
                kind: Kind::Forward,
            }))));
            if p.board.can_push(p.side, i) && p.ko != Some(i as u8) {
                out.push(Child::Pos(self.rank(&p.after(crate::Move {
                    cell: i as u8,
                    kind: Kind::Push,
                }))));
            }
        }
    }
}
