//! Move generation, making moves, the end of the game, and the fast uniform playout.

use super::board::{Move, Position, BLACK, WHITE};
use quasar_core::{Outcome, Side};
use rand::RngCore;

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

/// The `n`-th set bit (0-based) of `bb` as a one-bit mask; `bb` has more than `n` set bits.
#[inline]
pub fn select_bit_mask(bb: u64, n: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees the instruction exists on the compile target.
        unsafe { core::arch::x86_64::_pdep_u64(1u64 << n, bb) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut b = bb;
        for _ in 0..n {
            b &= b - 1;
        }
        b & b.wrapping_neg()
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
    pub fn random_move<R: RngCore>(&self, rng: &mut R) -> Option<Move> {
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
        let (to_bit, dir) = locate(t.left, t.straight, t.right, k);
        let to = to_bit.trailing_zeros();
        Move {
            from: self.origin(to, dir) as u8,
            to: to as u8,
        }
    }

    /// Plays uniformly random moves until the game ends and returns the winner.
    #[inline]
    pub fn random_playout<R: RngCore>(&mut self, rng: &mut R) -> Outcome {
        self.random_playout_plies(rng).0
    }

    /// Plays uniformly random moves until the game ends; returns the winner and the number
    /// of plies played. Draws the same random numbers and picks the same moves as calling
    /// [`Position::random_move`] and [`Position::make_move`] until [`Position::result`]
    /// says the game is over, only faster.
    pub fn random_playout_plies<R: RngCore>(&mut self, rng: &mut R) -> (Outcome, u32) {
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
                let Some((to_bit, dir)) = pick(rng, left, straight, right) else {
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
            let Some((to_bit, dir)) = pick(rng, left, straight, right) else {
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

/// A uniformly random destination among three direction masks, drawn exactly as
/// [`Position::random_move`] draws it, as a one-bit mask with its direction (0 left,
/// 1 straight, 2 right).
#[inline(always)]
fn pick<R: RngCore>(rng: &mut R, left: u64, straight: u64, right: u64) -> Option<(u64, u32)> {
    let n = left.count_ones() + straight.count_ones() + right.count_ones();
    if n == 0 {
        return None;
    }
    let k = (((rng.next_u64() >> 32) * n as u64) >> 32) as u32;
    Some(locate(left, straight, right, k))
}

/// The `k`-th destination of the three masks taken in order, as a one-bit mask, and which
/// mask holds it.
#[inline(always)]
fn locate(left: u64, straight: u64, right: u64, k: u32) -> (u64, u32) {
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
    (select_bit_mask(mask, index), dir)
}
