//! The 32 playable squares as bitboards (bit `s` is square `s + 1` of the standard
//! numbering), the neighbour and jump tables, and the move generator: compulsory captures,
//! multi-jumps that stop on promotion, and plain steps.

use quasar_core::Side;

/// No square (a table entry off the board).
pub const NONE: u8 = 32;

/// Squares of Black's far row (29-32), where a black man becomes a king.
pub const BLACK_PROMOTION: u32 = 0xF000_0000;
/// Squares of White's far row (1-4), where a white man becomes a king.
pub const WHITE_PROMOTION: u32 = 0x0000_000F;

/// Row (0 = squares 1-4, Black's back row) and column (0-7) of square index `s`.
pub const fn row_col(s: u8) -> (i32, i32) {
    let r = (s / 4) as i32;
    let i = (s % 4) as i32;
    (r, if r % 2 == 0 { 2 * i + 1 } else { 2 * i })
}

const fn square_at(r: i32, c: i32) -> u8 {
    if r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0 {
        NONE
    } else {
        (r * 4 + c / 2) as u8
    }
}

/// Directions: toward higher rows (Black's forward) left and right, then toward lower rows.
const DIRS: [(i32, i32); 4] = [(1, -1), (1, 1), (-1, -1), (-1, 1)];

const fn table(step: i32) -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let (r, c) = row_col(s as u8);
        let mut d = 0;
        while d < 4 {
            t[s][d] = square_at(r + step * DIRS[d].0, c + step * DIRS[d].1);
            d += 1;
        }
        s += 1;
    }
    t
}

/// The diagonal neighbour of each square in each direction.
pub static NEIGHBOUR: [[u8; 4]; 32] = table(1);
/// The square two steps away in each direction (where a jump lands).
pub static JUMP: [[u8; 4]; 32] = table(2);

/// Squares of the rows 1, 3, 5 and 7 of the standard numbering (row indices 0, 2, 4, 6),
/// whose dark squares are the odd columns.
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// The other rows, whose dark squares are the even columns.
const ODD_ROWS: u32 = !EVEN_ROWS;
/// The first dark square of each row.
const FIRST_OF_ROW: u32 = 0x1111_1111;
/// The last dark square of each row.
const LAST_OF_ROW: u32 = 0x8888_8888;

/// Every square of `p` moved one step in direction `d` (as [`NEIGHBOUR`]), those that
/// would leave the board dropped: the whole set at once, which is what a test for any
/// capture or step needs.
#[inline(always)]
const fn shifted(p: u32, d: usize) -> u32 {
    // Within a row a square's index is its column halved; the step's index difference
    // depends on whether the row's dark squares are the odd or the even columns.
    match d {
        0 => ((p & EVEN_ROWS) << 4) | ((p & ODD_ROWS & !FIRST_OF_ROW) << 3),
        1 => ((p & EVEN_ROWS & !LAST_OF_ROW) << 5) | ((p & ODD_ROWS) << 4),
        2 => ((p & EVEN_ROWS) >> 4) | ((p & ODD_ROWS & !FIRST_OF_ROW) >> 5),
        _ => ((p & EVEN_ROWS & !LAST_OF_ROW) >> 3) | ((p & ODD_ROWS) >> 4),
    }
}

/// The direction opposite `d`.
#[inline(always)]
const fn opposite(d: usize) -> usize {
    3 - d
}

/// The directions a piece of `side` may move in: bits 0-1 forward for Black, 2-3 for
/// White, all four for a king.
#[inline]
fn directions(side: Side, king: bool) -> u32 {
    match (king, side) {
        (true, _) => 0b1111,
        (false, Side::First) => 0b0011,
        (false, Side::Second) => 0b1100,
    }
}

/// The promotion row of `side`'s men.
#[inline]
pub fn promotion_row(side: Side) -> u32 {
    match side {
        Side::First => BLACK_PROMOTION,
        Side::Second => WHITE_PROMOTION,
    }
}

/// One move: a step (`jumps == 0`) or a capture of `jumps` jumps whose directions are the
/// 2-bit fields of `dirs`, lowest first; `captured` holds the jumped squares. Two capture
/// paths with the same end are different moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
    /// Jumps made (0 for a step).
    pub jumps: u8,
    /// Direction of each jump, 2 bits each, first jump lowest.
    pub dirs: u32,
    /// The squares of the captured pieces.
    pub captured: u32,
}

impl Move {
    /// The squares the piece lands on, in order (one for a step).
    pub fn landings(&self) -> impl Iterator<Item = u8> + '_ {
        let mut at = self.from;
        let steps = self.jumps.max(1);
        (0..steps).map(move |k| {
            at = if self.jumps == 0 {
                self.to
            } else {
                JUMP[at as usize][(self.dirs >> (2 * k) & 3) as usize]
            };
            at
        })
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }
}

/// Where the pieces stand: each side's pieces, and which pieces are kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Black's pieces.
    pub black: u32,
    /// White's pieces.
    pub white: u32,
    /// The kings of both sides.
    pub kings: u32,
}

impl Board {
    /// The start: Black on 1-12, White on 21-32, no kings.
    pub const START: Board = Board {
        black: 0x0000_0FFF,
        white: 0xFFF0_0000,
        kings: 0,
    };

    /// The pieces of `side`.
    #[inline]
    pub fn pieces(&self, side: Side) -> u32 {
        match side {
            Side::First => self.black,
            Side::Second => self.white,
        }
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.black | self.white
    }

    /// The pieces of `side` that may move in each direction: all of them forward, the
    /// kings backward as well.
    #[inline(always)]
    fn movers(&self, side: Side) -> [u32; 4] {
        let all = self.pieces(side);
        let kings = all & self.kings;
        match side {
            Side::First => [all, all, kings, kings],
            Side::Second => [kings, kings, all, all],
        }
    }

    /// The pieces of `side` that can jump (whose moves are captures, when there is one).
    #[inline]
    pub fn jumpers(&self, side: Side) -> u32 {
        let enemy = self.pieces(side.opponent());
        let empty = !self.occupied();
        let movers = self.movers(side);
        let mut out = 0;
        for (d, &m) in movers.iter().enumerate() {
            // Back from the empty landing squares over an enemy piece.
            let back = opposite(d);
            out |= m & shifted(shifted(empty, back) & enemy, back);
        }
        out
    }

    /// The pieces of `side` with an empty square next to them in a direction they move
    /// in.
    #[inline]
    fn steppers(&self, side: Side) -> u32 {
        let empty = !self.occupied();
        let movers = self.movers(side);
        let mut out = 0;
        for (d, &m) in movers.iter().enumerate() {
            out |= m & shifted(empty, opposite(d));
        }
        out
    }

    /// Whether `side` has a capture (compulsory when it does).
    #[inline]
    pub fn has_capture(&self, side: Side) -> bool {
        self.jumpers(side) != 0
    }

    /// Writes every legal move of `side` into `out` (cleared first): the captures when
    /// there is one, else the steps.
    pub fn moves(&self, side: Side, out: &mut Vec<Move>) {
        out.clear();
        if self.has_capture(side) {
            self.captures(side, out);
        } else {
            self.steps(side, out);
        }
    }

    /// Whether `side` has any legal move.
    #[inline]
    pub fn has_move(&self, side: Side) -> bool {
        self.has_capture(side) || self.has_step(side)
    }

    /// Whether `side` has a step (a move to an adjacent empty square), capture or not.
    #[inline]
    pub fn has_step(&self, side: Side) -> bool {
        self.steppers(side) != 0
    }

    fn steps(&self, side: Side, out: &mut Vec<Move>) {
        let empty = !self.occupied();
        // In the order of squares, then of directions.
        let mut p = self.steppers(side);
        while p != 0 {
            let s = p.trailing_zeros() as usize;
            p &= p - 1;
            let mut dirs = directions(side, self.kings >> s & 1 == 1);
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                let n = NEIGHBOUR[s][d];
                if n != NONE && empty >> n & 1 == 1 {
                    out.push(Move {
                        from: s as u8,
                        to: n,
                        jumps: 0,
                        dirs: 0,
                        captured: 0,
                    });
                }
            }
        }
    }

    fn captures(&self, side: Side, out: &mut Vec<Move>) {
        let enemy = self.pieces(side.opponent());
        let mut p = self.jumpers(side);
        while p != 0 {
            let s = p.trailing_zeros() as u8;
            p &= p - 1;
            let king = self.kings >> s & 1 == 1;
            // The mover's square is empty while it jumps; jumped pieces stay until the end.
            let empty = !self.occupied() | 1 << s;
            let walk = Walk {
                from: s,
                enemy,
                empty,
                dirs: directions(side, king),
                promotion: if king { 0 } else { promotion_row(side) },
            };
            walk.extend(s, 0, 0, 0, out);
        }
    }

    /// The board after `side` plays `mv`.
    #[inline]
    pub fn after(&self, side: Side, mv: Move) -> Board {
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to;
        let mut b = *self;
        let was_king = b.kings & from != 0;
        b.kings &= !(from | mv.captured);
        if was_king || to & promotion_row(side) != 0 {
            b.kings |= to;
        }
        match side {
            Side::First => {
                b.black = (b.black & !from) | to;
                b.white &= !mv.captured;
            }
            Side::Second => {
                b.white = (b.white & !from) | to;
                b.black &= !mv.captured;
            }
        }
        b
    }

    /// The board with colours exchanged and turned half round: Black's pieces become
    /// White's on the opposite squares (square `s` to `33 - s`).
    #[inline]
    pub fn reversed(&self) -> Board {
        Board {
            black: self.white.reverse_bits(),
            white: self.black.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }
}

/// One piece's capture search.
struct Walk {
    from: u8,
    enemy: u32,
    empty: u32,
    dirs: u32,
    promotion: u32,
}

impl Walk {
    fn extend(&self, at: u8, taken: u32, path: u32, jumps: u8, out: &mut Vec<Move>) {
        let mut any = false;
        let mut dirs = self.dirs;
        while dirs != 0 {
            let d = dirs.trailing_zeros();
            dirs &= dirs - 1;
            let (n, j) = (
                NEIGHBOUR[at as usize][d as usize],
                JUMP[at as usize][d as usize],
            );
            if j == NONE || (self.enemy & !taken) >> n & 1 == 0 || self.empty >> j & 1 == 0 {
                continue;
            }
            any = true;
            let taken = taken | 1 << n;
            let path = path | d << (2 * jumps as u32);
            if self.promotion >> j & 1 == 1 {
                // A man reaching the far row is crowned and the move ends there.
                out.push(self.finish(j, taken, path, jumps + 1));
            } else {
                self.extend(j, taken, path, jumps + 1, out);
            }
        }
        if !any && jumps > 0 {
            out.push(self.finish(at, taken, path, jumps));
        }
    }

    fn finish(&self, to: u8, captured: u32, dirs: u32, jumps: u8) -> Move {
        Move {
            from: self.from,
            to,
            jumps,
            dirs,
            captured,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_standard_numbering() {
        // Square 1 (index 0) steps to 5 and 6; 4 only to 8; 5 only to 9; 12 only to 16.
        assert_eq!(&NEIGHBOUR[0][..2], &[4, 5]);
        assert_eq!(&NEIGHBOUR[3][..2], &[7, NONE]);
        assert_eq!(&NEIGHBOUR[4][..2], &[NONE, 8]);
        assert_eq!(&NEIGHBOUR[11][..2], &[15, NONE]);
        assert_eq!(JUMP[8][1], 17); // 9 over 14 to 18
    }

    /// Random boards of up to 24 pieces, kings among them, either side's men anywhere
    /// but on its own promotion row.
    fn random_boards(n: usize) -> Vec<Board> {
        let mut rng = quasar_core::SplitMix64::new(3);
        (0..n)
            .map(|_| {
                let (mut black, mut white) = (0u32, 0u32);
                let pieces = 1 + rng.below(24);
                for _ in 0..pieces {
                    let s = 1u32 << rng.below(32);
                    if (black | white) & s == 0 {
                        if rng.below(2) == 0 {
                            black |= s;
                        } else {
                            white |= s;
                        }
                    }
                }
                let kings = (black | white) & rng.below(1 << 32) as u32 & rng.below(1 << 32) as u32;
                let kings = kings | black & BLACK_PROMOTION | white & WHITE_PROMOTION;
                Board {
                    black,
                    white,
                    kings,
                }
            })
            .collect()
    }

    /// The jumps and steps of `side`, read square by square from the neighbour tables:
    /// an independent reading of what the whole-board shifts compute.
    fn by_tables(b: &Board, side: Side) -> (u32, u32) {
        let (enemy, empty) = (b.pieces(side.opponent()), !b.occupied());
        let (mut jumpers, mut steppers) = (0, 0);
        for s in 0..32 {
            if b.pieces(side) >> s & 1 == 0 {
                continue;
            }
            for d in 0..4 {
                if directions(side, b.kings >> s & 1 == 1) >> d & 1 == 0 {
                    continue;
                }
                let (n, j) = (NEIGHBOUR[s][d], JUMP[s][d]);
                if n != NONE && empty >> n & 1 == 1 {
                    steppers |= 1 << s;
                }
                if j != NONE && enemy >> n & 1 == 1 && empty >> j & 1 == 1 {
                    jumpers |= 1 << s;
                }
            }
        }
        (jumpers, steppers)
    }

    #[test]
    fn whole_board_shifts_find_the_pieces_the_tables_find() {
        let (mut jumps, mut blocked) = (0, 0);
        for b in random_boards(20_000) {
            for side in [Side::First, Side::Second] {
                let (jumpers, steppers) = by_tables(&b, side);
                assert_eq!(b.jumpers(side), jumpers, "{b:?} {side:?}");
                assert_eq!(b.steppers(side), steppers, "{b:?} {side:?}");
                assert_eq!(b.has_capture(side), jumpers != 0);
                assert_eq!(b.has_step(side), steppers != 0);
                jumps += (jumpers != 0) as u32;
                blocked += (b.pieces(side) != 0 && steppers == 0) as u32;
            }
        }
        assert!(
            jumps > 5_000 && blocked > 50,
            "{jumps} with a capture, {blocked} blocked"
        );
        for (s, neighbours) in NEIGHBOUR.iter().enumerate() {
            for (d, &n) in neighbours.iter().enumerate() {
                let want = if n == NONE { 0 } else { 1 << n };
                assert_eq!(shifted(1 << s, d), want, "square {s} direction {d}");
            }
        }
    }

    #[test]
    fn seven_moves_from_the_start() {
        let mut out = Vec::new();
        Board::START.moves(Side::First, &mut out);
        assert_eq!(out.len(), 7);
        Board::START.moves(Side::Second, &mut out);
        assert_eq!(out.len(), 7);
    }
}
