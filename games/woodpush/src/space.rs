//! Every Woodpush position of one width as a perfect index for the `retro` solvers: both sides
//! to move, every placement of pieces on the strip (or every placement of at most a few
//! pieces, an endgame that play falls into), and each ko state a position of its own.

use crate::board::{bits, Board, Kind, MAX_WIDTH};
use crate::position::{ko_possible, Position};
use quasar_core::{combin, Side};
use rayon::prelude::*;
use retro::{Child, PerfectIndex, RetroGame};

/// The widest strip the index of every placement covers (3^16 placements).
pub const MAX_INDEX_WIDTH: u32 = 16;

/// The most placements an index of few pieces may number (its offsets are 32-bit).
pub const MAX_PLACEMENTS: u64 = 1 << 26;

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
    /// A width of 1 to [`MAX_WIDTH`] beyond [`MAX_INDEX_WIDTH`], without a piece limit.
    #[error("width {0} cannot be indexed whole: use 1 to {MAX_INDEX_WIDTH}, or limit the pieces (widths up to {MAX_WIDTH})")]
    Width(u32),
    /// No strip of the game: 0 cells, or more than [`MAX_WIDTH`].
    #[error("width {0}: a Woodpush strip has 1 to {MAX_WIDTH} cells")]
    NoStrip(u32),
    /// A piece limit below 2 (a game needs a piece of each side).
    #[error("a limit of {0} pieces holds no game: give 2 or more")]
    Pieces(u32),
    /// Too many placements of at most this many pieces on this width.
    #[error("{placements} placements of at most {pieces} pieces on {width} cells are too many to index (at most {MAX_PLACEMENTS}): use fewer pieces or a narrower strip")]
    TooLarge {
        /// The strip width.
        width: u32,
        /// The piece limit.
        pieces: u32,
        /// The placements it would number.
        placements: u64,
    },
}

/// How the placements of pieces on the strip are numbered.
#[derive(Clone, Debug)]
enum Numbering {
    /// Every placement: base-3 digits from cell 1 (0 empty, 1 Left, 2 Right).
    Ternary,
    /// Placements of at most `max` pieces, in groups by pieces `n` and Left pieces `l`
    /// (`n` from 0, then `l` from 0); within a group by the colex rank of the occupied
    /// cells, then by the colex rank of which of them hold Left pieces.
    Few {
        /// The most pieces on the strip.
        max: u32,
        /// The first number of group `(n, l)`, at `n * (n + 1) / 2 + l`, and one past the end.
        first: Vec<u32>,
    },
}

/// The index: per side, the first number of each placement's positions (no ko first, then
/// one ko state per eligible piece from the lowest cell).
#[derive(Clone, Debug)]
pub struct WoodpushSpace {
    width: u32,
    ko_states: KoStates,
    numbering: Numbering,
    /// `offsets[side][placement]`, with one extra entry: the side's position count.
    offsets: [Vec<u32>; 2],
    /// Placements in all (`3^width` without a piece limit).
    placements: u32,
    /// Every position's strip decoded (Left mask, Right mask << 32), so the solvers' hot
    /// loops never search `offsets`.
    decoded: Vec<u64>,
    /// Every position's ko (the forbidden piece's bit index + 1; 0: none).
    kos: Vec<u8>,
}

impl WoodpushSpace {
    /// The index of every position on a strip of `width` cells.
    pub fn new(width: u32, ko_states: KoStates) -> Result<WoodpushSpace, SpaceError> {
        if !(1..=MAX_WIDTH).contains(&width) {
            return Err(SpaceError::NoStrip(width));
        }
        if width > MAX_INDEX_WIDTH {
            return Err(SpaceError::Width(width));
        }
        Ok(WoodpushSpace::build(width, ko_states, Numbering::Ternary))
    }

    /// The index of every position with at most `max_pieces` pieces (of both sides together)
    /// on a strip of `width` cells: closed under moves, since pieces only leave the strip.
    pub fn few_pieces(
        width: u32,
        max_pieces: u32,
        ko_states: KoStates,
    ) -> Result<WoodpushSpace, SpaceError> {
        if !(1..=MAX_WIDTH).contains(&width) {
            return Err(SpaceError::NoStrip(width));
        }
        if max_pieces < 2 {
            return Err(SpaceError::Pieces(max_pieces));
        }
        let max = max_pieces.min(width);
        let mut first = Vec::new();
        let mut total = 0u64;
        for n in 0..=max {
            for l in 0..=n {
                first.push(total as u32);
                total += binomial(width, n) as u64 * binomial(n, l) as u64;
                if total > MAX_PLACEMENTS {
                    return Err(SpaceError::TooLarge {
                        width,
                        pieces: max_pieces,
                        placements: (0..=max)
                            .map(|n| binomial(width, n) as u64 * (1u64 << n))
                            .sum(),
                    });
                }
            }
        }
        first.push(total as u32);
        Ok(WoodpushSpace::build(
            width,
            ko_states,
            Numbering::Few { max, first },
        ))
    }

    fn build(width: u32, ko_states: KoStates, numbering: Numbering) -> WoodpushSpace {
        let placements = match &numbering {
            Numbering::Ternary => 3u32.pow(width),
            Numbering::Few { first, .. } => *first.last().expect("groups"),
        };
        let board_of = |b: u32| placement_board(&numbering, b, width);
        // The eligible pieces of every placement and side, found once and in parallel.
        let masks: [Vec<u32>; 2] = [Side::First, Side::Second].map(|side| {
            (0..placements)
                .into_par_iter()
                .map(|b| eligible(board_of(b), side, ko_states))
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
        let size = (offsets[0][placements as usize] + offsets[1][placements as usize]) as usize;
        let mut decoded = Vec::with_capacity(size);
        let mut kos = Vec::with_capacity(size);
        for m in &masks {
            for (b, &mask) in m.iter().enumerate() {
                let board = board_of(b as u32);
                let cells = board.left as u64 | (board.right as u64) << 32;
                decoded.push(cells);
                kos.push(0);
                for q in bits(mask) {
                    decoded.push(cells);
                    kos.push(q as u8 + 1);
                }
            }
        }
        WoodpushSpace {
            width,
            ko_states,
            numbering,
            offsets,
            placements,
            decoded,
            kos,
        }
    }

    /// The most pieces a position of the index holds (`None`: every placement).
    pub fn max_pieces(&self) -> Option<u32> {
        match self.numbering {
            Numbering::Ternary => None,
            Numbering::Few { max, .. } => Some(max),
        }
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
            && self
                .max_pieces()
                .is_none_or(|max| pos.board.occupied().count_ones() <= max)
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

/// The strip of placement number `b` (below the number of placements).
fn placement_board(numbering: &Numbering, b: u32, width: u32) -> Board {
    match numbering {
        Numbering::Ternary => ternary_board(b, width),
        Numbering::Few { max, first } => {
            let g = first.partition_point(|&f| f <= b) - 1;
            let (n, l) = group_of(g as u32);
            debug_assert!(n <= *max);
            let within = b - first[g];
            let patterns = binomial(n, l);
            let occ = colex_unrank(within / patterns, n, width);
            let left = colex_unrank_in(within % patterns, l, occ);
            Board {
                left,
                right: occ & !left,
                width,
            }
        }
    }
}

/// The pieces `n` and Left pieces `l` of group number `g` (`g = n * (n + 1) / 2 + l`).
fn group_of(g: u32) -> (u32, u32) {
    let mut n = 0;
    while (n + 1) * (n + 2) / 2 <= g {
        n += 1;
    }
    (n, g - n * (n + 1) / 2)
}

/// n choose k (0 when k > n); a width is at most 31 cells, so every count fits a `u32`.
#[inline]
fn binomial(n: u32, k: u32) -> u32 {
    combin::binomial(n, k) as u32
}

/// The colex rank of a mask among masks with as many bits.
#[inline]
fn colex_rank(m: u32) -> u32 {
    combin::colex_rank(m.into()) as u32
}

/// The colex rank of `m` among the subsets of `domain` with as many bits.
#[inline]
fn colex_rank_in(m: u32, domain: u32) -> u32 {
    combin::colex_rank_in(m.into(), domain.into()) as u32
}

/// The mask of `k` bits below bit `width` whose colex rank is `r`.
fn colex_unrank(r: u32, k: u32, width: u32) -> u32 {
    combin::colex_unrank(r.into(), k, width) as u32
}

/// The subset of `domain` with `k` bits whose colex rank is `r`.
fn colex_unrank_in(r: u32, k: u32, domain: u32) -> u32 {
    combin::colex_unrank_in(r.into(), k, domain.into()) as u32
}

/// The strip of ternary placement number `b`: base-3 digits from cell 1 (0 empty, 1 Left,
/// 2 Right).
#[inline]
fn ternary_board(mut b: u32, width: u32) -> Board {
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

/// The placement number of a strip (an unrelated number for a strip outside the index).
#[inline]
fn placement_number(numbering: &Numbering, board: Board) -> u32 {
    match numbering {
        Numbering::Ternary => ternary(board.left) + 2 * ternary(board.right),
        Numbering::Few { max, first } => {
            let occ = board.occupied();
            let (n, l) = (occ.count_ones(), board.left.count_ones());
            if n > *max {
                return 0;
            }
            first[(n * (n + 1) / 2 + l) as usize]
                + colex_rank(occ) * binomial(n, l)
                + colex_rank_in(board.left, occ)
        }
    }
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
        let placement = placement_number(&self.numbering, p.board);
        let start = self.offsets[p.side.index()][placement as usize] as u64;
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
                left: d as u32,
                right: (d >> 32) as u32,
                width: self.width,
            },
            side: RetroGame::mover(self, index),
            ko: self.kos[index as usize].checked_sub(1),
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
