//! Move generation, making moves, the end of the game, and the fast uniform playout.

use super::board::{Move, Position, BLACK, WHITE};
use quasar_core::bits::{self, Bits, Bmi2, Portable, WithBits};
use quasar_core::{Outcome, Side};
use rand::Rng;

/// The destination cells of every legal move of the side to move, one mask per direction;
/// each destination belongs to exactly one move, so the three masks list the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Targets {
    /// Destinations of diagonal moves toward column `a` (the from-cell is to their right).
    pub left: u64,
    /// Destinations of straight moves.
    pub straight: u64,
    /// Destinations of diagonal moves away from column `a`.
    pub right: u64,
}

impl Targets {
    /// Number of legal moves.
    #[inline]
    pub fn count(&self) -> u32 {
        self.left.count_ones() + self.straight.count_ones() + self.right.count_ones()
    }

    /// Only the diagonal moves onto `cells` (the captures of the pieces there).
    #[inline]
    pub fn captures_onto(&self, cells: u64) -> Targets {
        Targets {
            left: self.left & cells,
            straight: 0,
            right: self.right & cells,
        }
    }

    /// True when there is no legal move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.left | self.straight | self.right == 0
    }
}

impl Position {
    /// The three destination masks of the side to move.
    #[inline]
    pub fn targets(&self) -> Targets {
        let b = &self.board;
        let w = b.width();
        let empty = b.cells() & !(self.white | self.black);
        match self.side {
            Side::First => {
                let own = self.white;
                let not_own = b.cells() & !own;
                Targets {
                    left: ((own & b.not_first_col()) << (w - 1)) & not_own,
                    straight: (own << w) & empty,
                    right: ((own & b.not_last_col()) << (w + 1)) & not_own,
                }
            }
            Side::Second => {
                let own = self.black;
                let not_own = b.cells() & !own;
                Targets {
                    left: ((own & b.not_first_col()) >> (w + 1)) & not_own,
                    straight: (own >> w) & empty,
                    right: ((own & b.not_last_col()) >> (w - 1)) & not_own,
                }
            }
        }
    }

    /// The from-cell of a move to `to` in direction `dir` (0 left, 1 straight, 2 right).
    #[inline]
    fn origin(&self, to: u32, dir: u32) -> u32 {
        let w = self.board.width();
        // White comes from below (to - w + 1 - dir), Black from above (to + w + 1 - dir).
        match self.side {
            Side::First => to + 1 - dir - w,
            Side::Second => to + w + 1 - dir,
        }
    }

    /// Writes every legal move, ordered by from-cell and then to-cell (the tablebase's
    /// tie-break order), into `moves`.
    pub fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.result().is_some() {
            return;
        }
        let t = self.targets();
        let w = self.board.width();
        let mut own = self.pieces(self.side);
        while own != 0 {
            let from = own.trailing_zeros();
            own &= own - 1;
            let (l, s, r) = match self.side {
                Side::First => (from + w - 1, from + w, from + w + 1),
                Side::Second => (
                    from.wrapping_sub(w + 1),
                    from.wrapping_sub(w),
                    from.wrapping_sub(w - 1),
                ),
            };
            for (to, mask) in [(l, t.left), (s, t.straight), (r, t.right)] {
                if to < 64 && mask & (1u64 << to) != 0 {
                    moves.push(Move {
                        from: from as u8,
                        to: to as u8,
                    });
                }
            }
        }
    }

    /// Plays `mv`, which must be legal; a piece on the destination is captured.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        match self.side {
            Side::First => {
                self.white ^= from | to;
                self.black &= !to;
            }
            Side::Second => {
                self.black ^= from | to;
                self.white &= !to;
            }
        }
        self.side = self.side.opponent();
    }

    /// The outcome once the game is over: a piece on the goal row, a side without pieces,
    /// or a side to move without a legal move.
    #[inline]
    pub fn result(&self) -> Option<Outcome> {
        if self.white & self.board.last_row() != 0 || self.black == 0 {
            return Some(Outcome::Win(WHITE));
        }
        if self.black & self.board.first_row() != 0 || self.white == 0 {
            return Some(Outcome::Win(BLACK));
        }
        if self.targets().is_empty() {
            return Some(Outcome::Win(self.side.opponent()));
        }
        None
    }

    /// A uniformly random legal move, chosen without building a move list; `None` when
    /// the side to move has no move. Does not check whether the game is already over.
    #[inline]
    pub fn random_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        let t = self.targets();
        let n = t.count();
        if n == 0 {
            return None;
        }
        let pick = (((rng.next_u64() >> 32) * n as u64) >> 32) as u32;
        Some(self.nth_move(&t, pick))
    }

    /// The `k`-th move of `t` (left destinations first, then straight, then right).
    #[inline]
    pub fn nth_move(&self, t: &Targets, k: u32) -> Move {
        match Bmi2::detect() {
            Some(b) => self.nth_move_with(b, t, k),
            None => self.nth_move_with(Portable, t, k),
        }
    }

    /// [`Position::nth_move`] with the given bit operations, for loops run through
    /// [`bits::dispatch`].
    #[inline(always)]
    pub fn nth_move_with<B: Bits>(&self, bits: B, t: &Targets, k: u32) -> Move {
        let (to_bit, dir) = locate(bits, t.left, t.straight, t.right, k);
        let to = to_bit.trailing_zeros();
        Move {
            from: self.origin(to, dir) as u8,
            to: to as u8,
        }
    }

    /// Plays uniformly random moves until the game ends and returns the winner.
    #[inline]
    pub fn random_playout<R: Rng>(&mut self, rng: &mut R) -> Outcome {
        self.random_playout_plies(rng).0
    }

    /// Plays uniformly random moves until the game ends; returns the winner and the number
    /// of plies played. Draws the same random numbers and picks the same moves as calling
    /// [`Position::random_move`] and [`Position::make_move`] until [`Position::result`]
    /// says the game is over, only faster.
    pub fn random_playout_plies<R: Rng>(&mut self, rng: &mut R) -> (Outcome, u32) {
        bits::dispatch(Playout { pos: self, rng })
    }

    #[inline(always)]
    fn playout_with<B: Bits, R: Rng>(&mut self, bits: B, rng: &mut R) -> (Outcome, u32) {
        if let Some(o) = self.result() {
            return (o, 0);
        }
        // The two sides alternate in straight-line code, so each half-move knows its
        // direction at compile time and the pieces stay in registers.
        let b = self.board;
        let w = b.width();
        let cells = b.cells();
        let (nfc, nlc) = (b.not_first_col(), b.not_last_col());
        let (goal_white, goal_black) = (b.last_row(), b.first_row());
        let (mut white, mut black) = (self.white, self.black);
        let mut plies = 0u32;
        let mut white_to_move = self.side == WHITE;
        let outcome = loop {
            if white_to_move {
                let not_own = cells & !white;
                let left = ((white & nfc) << (w - 1)) & not_own;
                let straight = (white << w) & !(white | black) & cells;
                let right = ((white & nlc) << (w + 1)) & not_own;
                let Some((to_bit, dir)) = pick(bits, rng, left, straight, right) else {
                    self.side = WHITE;
                    break Outcome::Win(BLACK);
                };
                // From below: w - 1 cells back for a left step, w + 1 for a right one.
                white ^= to_bit | (to_bit >> (w - 1 + dir));
                black &= !to_bit;
                plies += 1;
                if to_bit & goal_white != 0 || black == 0 {
                    self.side = BLACK;
                    break Outcome::Win(WHITE);
                }
            }
            white_to_move = true;
            let not_own = cells & !black;
            let left = ((black & nfc) >> (w + 1)) & not_own;
            let straight = (black >> w) & !(white | black);
            let right = ((black & nlc) >> (w - 1)) & not_own;
            let Some((to_bit, dir)) = pick(bits, rng, left, straight, right) else {
                self.side = BLACK;
                break Outcome::Win(WHITE);
            };
            black ^= to_bit | (to_bit << (w + 1 - dir));
            white &= !to_bit;
            plies += 1;
            if to_bit & goal_black != 0 || white == 0 {
                self.side = WHITE;
                break Outcome::Win(BLACK);
            }
        };
        // Leave the final position behind, as playing the moves one by one would.
        self.white = white;
        self.black = black;
        (outcome, plies)
    }
}

/// The fused playout as a job for [`bits::dispatch`], so the whole loop is compiled with
/// the bit instructions it picks.
struct Playout<'a, R> {
    pos: &'a mut Position,
    rng: &'a mut R,
}

impl<R: Rng> WithBits for Playout<'_, R> {
    type Output = (Outcome, u32);

    #[inline(always)]
    fn run<B: Bits>(self, bits: B) -> (Outcome, u32) {
        self.pos.playout_with(bits, self.rng)
    }
}

/// A uniformly random destination among three direction masks, drawn exactly as
/// [`Position::random_move`] draws it, as a one-bit mask with its direction (0 left,
/// 1 straight, 2 right).
#[inline(always)]
fn pick<B: Bits, R: Rng>(
    bits: B,
    rng: &mut R,
    left: u64,
    straight: u64,
    right: u64,
) -> Option<(u64, u32)> {
    let n = left.count_ones() + straight.count_ones() + right.count_ones();
    if n == 0 {
        return None;
    }
    let k = (((rng.next_u64() >> 32) * n as u64) >> 32) as u32;
    Some(locate(bits, left, straight, right, k))
}

/// The `k`-th destination of the three masks taken in order, as a one-bit mask, and which
/// mask holds it.
#[inline(always)]
fn locate<B: Bits>(bits: B, left: u64, straight: u64, right: u64, k: u32) -> (u64, u32) {
    let cl = left.count_ones();
    let cs = straight.count_ones();
    // Which mask holds the k-th move is a coin toss for the branch predictor, so the
    // choice is made with masks instead of jumps.
    let past_left = 0u32.wrapping_sub((k >= cl) as u32);
    let past_straight = 0u32.wrapping_sub((k >= cl + cs) as u32);
    let is_left = !past_left;
    let is_straight = past_left & !past_straight;
    let wide = |m: u32| (m as i32 as i64) as u64;
    let mask =
        (left & wide(is_left)) | (straight & wide(is_straight)) | (right & wide(past_straight));
    let index = k - (cl & past_left) - (cs & past_straight);
    let dir = (past_left & 1) + (past_straight & 1);
    (bits.select(mask, index), dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use quasar_core::SplitMix64;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn both_instruction_sets_play_the_same_games() {
        let Some(fast) = Bmi2::detect() else {
            return;
        };
        let mut placements = SplitMix64::new(11);
        for (w, h) in [(8, 8), (6, 6), (3, 21), (16, 4)] {
            let start = Position::start(Board::new(w, h).unwrap());
            for seed in 0..200 {
                let (mut a, mut b) = (start, start);
                let ra = a.playout_with(fast, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
                let rb = b.playout_with(Portable, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
                assert_eq!((ra, a), (rb, b), "{w}x{h} seed {seed}");
                let t = start.targets();
                let k = placements.below(t.count() as usize) as u32;
                assert_eq!(
                    start.nth_move_with(fast, &t, k),
                    start.nth_move_with(Portable, &t, k)
                );
            }
        }
    }
}
