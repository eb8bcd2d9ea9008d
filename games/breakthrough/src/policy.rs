//! The Breakthrough playout policy of strong programs (win in one, stop a winning threat,
//! prefer undefended captures), with early termination by an evaluation function and by
//! the oracle.

use crate::{Move, Position, Targets};
use mcts::{PlayoutContext, PlayoutPolicy};
use quasar_core::bits::{self, Bits, WithBits};
use quasar_core::{Outcome, Side};

/// The Breakthrough playout policy; each enhancement can be switched off for experiments.
/// With everything off it is a uniform playout on bitboards (the fastest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakthroughPolicy {
    /// Take a winning move (reach the goal row, capture the last piece) when there is one.
    pub win_in_one: bool,
    /// Capture an opponent piece that would win on its next move, when possible.
    pub stop_threats: bool,
    /// Weight of a capture of an undefended piece against 1 for other moves (1: off; the
    /// literature uses 4).
    pub capture_weight: u32,
    /// After this many plies the evaluation function decides the playout (`None`: off).
    pub eval_after: Option<u32>,
    /// The weight of a piece on its home row in that evaluation (see [`crate::eval::HOME`]).
    pub home: i32,
}

impl Default for BreakthroughPolicy {
    /// The full policy: every enhancement on, early termination after 20 plies.
    fn default() -> Self {
        BreakthroughPolicy {
            win_in_one: true,
            stop_threats: true,
            capture_weight: 4,
            eval_after: Some(20),
            home: crate::eval::HOME,
        }
    }
}

impl BreakthroughPolicy {
    /// Uniform random moves to the end of the game.
    pub fn uniform() -> Self {
        BreakthroughPolicy {
            win_in_one: false,
            stop_threats: false,
            capture_weight: 1,
            eval_after: None,
            home: 0,
        }
    }
}

/// Masks a side needs: its goal row, the cells its pieces attack, its pre-goal row.
#[inline]
pub(crate) fn attacks(pos: &Position, side: Side) -> u64 {
    let b = pos.board();
    let w = b.width();
    let p = pos.pieces(side);
    match side {
        Side::First => ((p & b.not_first_col()) << (w - 1)) | ((p & b.not_last_col()) << (w + 1)),
        Side::Second => ((p & b.not_first_col()) >> (w + 1)) | ((p & b.not_last_col()) >> (w - 1)),
    }
}

/// The goal row of `side`.
#[inline]
pub(crate) fn goal(pos: &Position, side: Side) -> u64 {
    match side {
        Side::First => pos.board().last_row(),
        Side::Second => pos.board().first_row(),
    }
}

/// Pieces of `side` that could step onto the goal row if it were their turn.
#[inline]
pub(crate) fn threats(pos: &Position, side: Side) -> u64 {
    let b = pos.board();
    let w = b.width();
    let own = pos.pieces(side);
    let empty = b.cells() & !(pos.white() | pos.black());
    let g = goal(pos, side);
    match side {
        Side::First => {
            let pre = own & (g >> w);
            let st = (pre << w) & empty;
            let l = ((pre & b.not_first_col()) << (w - 1)) & !own & g;
            let r = ((pre & b.not_last_col()) << (w + 1)) & !own & g;
            (st >> w) | ((l >> (w - 1)) & pre) | ((r >> (w + 1)) & pre)
        }
        Side::Second => {
            let pre = own & (g << w);
            let st = (pre >> w) & empty;
            let l = ((pre & b.not_first_col()) >> (w + 1)) & !own & g;
            let r = ((pre & b.not_last_col()) >> (w - 1)) & !own & g;
            (st << w) | ((l << (w + 1)) & pre) | ((r << (w - 1)) & pre)
        }
    }
}

/// The evaluation function of early termination, from the view of the side to move:
/// threats first (a piece that wins next turn decides the game, as does an opponent's
/// threat that no capture answers), then the sign of MCTS's evaluation (material,
/// advancement, piece safety and `home` a piece on its home row,
/// [`crate::eval::safety_balance`]). Returns the outcome it predicts; an exactly level
/// score is a draw (half a point).
pub fn evaluate(pos: &Position, home: i32) -> Outcome {
    let me = pos.side();
    let opp = me.opponent();
    if threats(pos, me) != 0 {
        return Outcome::Win(me);
    }
    let opp_threats = threats(pos, opp);
    if opp_threats != 0 {
        // One threatening piece that we can capture is answered; otherwise it wins.
        if opp_threats.count_ones() > 1 || attacks(pos, me) & opp_threats == 0 {
            return Outcome::Win(opp);
        }
    }
    match crate::eval::safety_balance(pos, home) {
        s if s > 0 => Outcome::Win(me),
        s if s < 0 => Outcome::Win(opp),
        _ => Outcome::Draw,
    }
}

impl PlayoutPolicy<Position> for BreakthroughPolicy {
    fn run(&self, pos: &mut Position, ctx: &mut PlayoutContext<'_, Position>) -> Outcome {
        if *self == BreakthroughPolicy::uniform() && (ctx.oracle.is_none() || ctx.oracle_every == 0)
        {
            // Nothing to check between moves: the bare bitboard playout (Breakthrough
            // always ends, so the ply cap cannot matter).
            return pos.random_playout(ctx.rng);
        }
        bits::dispatch(PolicyPlayout {
            policy: self,
            pos,
            ctx,
        })
    }
}

/// The policy's playout as a job for [`bits::dispatch`]: each ply's move choice uses
/// `pdep`, so the loop is compiled once per instruction set.
struct PolicyPlayout<'a, 'c> {
    policy: &'a BreakthroughPolicy,
    pos: &'a mut Position,
    ctx: &'a mut PlayoutContext<'c, Position>,
}

impl WithBits for PolicyPlayout<'_, '_> {
    type Output = Outcome;

    #[inline(always)]
    fn run<B: Bits>(self, bits: B) -> Outcome {
        self.policy.playout_with(bits, self.pos, self.ctx)
    }
}

impl BreakthroughPolicy {
    /// The playout of [`PlayoutPolicy::run`] past the uniform shortcut.
    #[inline(always)]
    fn playout_with<B: Bits>(
        &self,
        bits: B,
        pos: &mut Position,
        ctx: &mut PlayoutContext<'_, Position>,
    ) -> Outcome {
        if let Some(o) = pos.result() {
            return o;
        }
        let eval_after = self.eval_after.unwrap_or(u32::MAX);
        let mut ply = 0u32;
        loop {
            if ply > 0 {
                if let Some(o) = ctx.consult(pos, ply) {
                    return o;
                }
            }
            if ply >= eval_after {
                return evaluate(pos, self.home);
            }
            if ply >= ctx.max_plies {
                return Outcome::Draw;
            }
            let me = pos.side();
            let t = pos.targets();
            let n = t.count();
            if n == 0 {
                return Outcome::Win(me.opponent());
            }
            let opp_pieces = pos.pieces(me.opponent());
            if self.win_in_one {
                let all = t.left | t.straight | t.right;
                let caps = (t.left | t.right) & opp_pieces;
                if all & goal(pos, me) != 0 || (opp_pieces.count_ones() == 1 && caps != 0) {
                    return Outcome::Win(me);
                }
            }
            let mut chosen = None;
            if self.stop_threats {
                let danger = threats(pos, me.opponent());
                if danger != 0 {
                    let stop = t.captures_onto(danger);
                    let k = stop.count();
                    if k > 0 {
                        let pick = ctx.below(k);
                        chosen = Some(pos.nth_move_with(bits, &stop, pick));
                    } else if self.win_in_one {
                        // No win now and the threat cannot be captured: it wins next move.
                        return Outcome::Win(me.opponent());
                    }
                }
            }
            let mv = match chosen {
                Some(mv) => mv,
                None => self.pick(bits, pos, &t, n, opp_pieces, ctx),
            };
            pos.make_move(mv);
            ply += 1;
            let to = 1u64 << mv.to;
            if to & goal(pos, me) != 0 || pos.pieces(pos.side()) == 0 {
                return Outcome::Win(me);
            }
        }
    }

    /// A move by the capture weighting (uniform when the weight is 1).
    #[inline(always)]
    fn pick<B: Bits>(
        &self,
        bits: B,
        pos: &Position,
        t: &Targets,
        n: u32,
        opp_pieces: u64,
        ctx: &mut PlayoutContext<'_, Position>,
    ) -> Move {
        if self.capture_weight > 1 {
            let undefended = opp_pieces & !attacks(pos, pos.side().opponent());
            let good = t.captures_onto(undefended);
            let g = good.count();
            if g > 0 {
                let heavy = g * self.capture_weight;
                let r = ctx.below(heavy + n - g);
                if r < heavy {
                    return pos.nth_move_with(bits, &good, r / self.capture_weight);
                }
                let rest = Targets {
                    left: t.left & !undefended,
                    straight: t.straight,
                    right: t.right & !undefended,
                };
                return pos.nth_move_with(bits, &rest, r - heavy);
            }
        }
        let k = ctx.below(n);
        pos.nth_move_with(bits, t, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A playout's context with no oracle, ended as a draw after 1000 plies.
    fn context<'a>(
        rng: &'a mut Xoshiro256PlusPlus,
        moves: &'a mut Vec<Move>,
    ) -> PlayoutContext<'a, Position> {
        PlayoutContext {
            rng,
            moves,
            oracle: None,
            oracle_every: 0,
            max_plies: 1000,
        }
    }

    fn playouts(pos: &Position, policy: BreakthroughPolicy, n: u64) -> [u32; 3] {
        let mut counts = [0; 3];
        let mut moves = Vec::new();
        for seed in 0..n {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut ctx = context(&mut rng, &mut moves);
            let mut p = *pos;
            match policy.run(&mut p, &mut ctx) {
                Outcome::Win(Side::First) => counts[0] += 1,
                Outcome::Win(Side::Second) => counts[1] += 1,
                Outcome::Draw => counts[2] += 1,
            }
        }
        counts
    }

    #[test]
    fn win_in_one_is_always_taken() {
        // White's d5 piece can step to row 6; uniform playouts sometimes miss it and Black's
        // b2 piece then wins.
        let pos = Position::from_fen("6/3W2/5B/6/1B4/W5 w").unwrap();
        let with = BreakthroughPolicy {
            win_in_one: true,
            ..BreakthroughPolicy::uniform()
        };
        assert_eq!(playouts(&pos, with, 200), [200, 0, 0]);
        let without = playouts(&pos, BreakthroughPolicy::uniform(), 200);
        assert!(without[1] > 0, "{without:?}");
    }

    #[test]
    fn a_capturable_threat_is_captured() {
        // Black's b2 piece wins next move unless White's a1 or c1 piece captures it. The
        // evaluation decides after one ply: after the capture White is three pieces to one
        // (a White win), after any other move Black's threat stands (a Black win).
        let pos = Position::from_fen("5B/6/W5/6/1B4/W1W3 w").unwrap();
        let policy = BreakthroughPolicy {
            stop_threats: true,
            eval_after: Some(1),
            ..BreakthroughPolicy::uniform()
        };
        assert_eq!(playouts(&pos, policy, 200), [200, 0, 0]);
        let uniform = BreakthroughPolicy {
            eval_after: Some(1),
            ..BreakthroughPolicy::uniform()
        };
        let counts = playouts(&pos, uniform, 200);
        assert!(counts[1] > 0, "{counts:?}");
    }

    #[test]
    fn undefended_captures_weigh_four_times_as_much() {
        // White c3 can capture the undefended Black b4 (c3xb4) or the defended d4 (c3xd4:
        // e5 guards it); 6 moves in all (a1-a2, a1-b2, c3-c4, c3xb4, c3xd4, ...).
        let pos = Position::from_fen("6/4B1/1B1B2/2W3/6/W5 w").unwrap();
        let t = pos.targets();
        let n = t.count();
        let policy = BreakthroughPolicy::default();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut moves = Vec::new();
        let mut ctx = context(&mut rng, &mut moves);
        let target = Move { from: 14, to: 19 };
        let draws = 20_000;
        let hits = (0..draws)
            .filter(|_| {
                policy.pick(
                    quasar_core::bits::Portable,
                    &pos,
                    &t,
                    n,
                    pos.black(),
                    &mut ctx,
                ) == target
            })
            .count() as f64;
        // One heavy move of weight 4 among n - 1 moves of weight 1.
        let p = 4.0 / (4.0 + (n - 1) as f64);
        let sigma = (p * (1.0 - p) / draws as f64).sqrt();
        assert!(
            (hits / draws as f64 - p).abs() < 4.0 * sigma,
            "{hits} of {draws}, p {p}"
        );
    }

    #[test]
    fn evaluation_decides_by_material_advancement_and_threats() {
        // Black to move with a piece on row 2 that can step to row 1: a win.
        let p = Position::from_fen("6/6/6/WWW3/1B4/6 b").unwrap();
        assert_eq!(evaluate(&p, 0), Outcome::Win(Side::Second));
        // Three White pieces against one Black, nothing near a goal: White is ahead.
        let p = Position::from_fen("6/4B1/6/6/WWW3/6 b").unwrap();
        assert_eq!(evaluate(&p, 0), Outcome::Win(Side::First));
        // Mirror-symmetric material and advancement: level, a draw.
        let p = Position::from_fen("6/B5/6/6/5W/6 w").unwrap();
        assert_eq!(evaluate(&p, 0), Outcome::Draw);
        // White's b1 piece stays home while both Black pieces have stepped forward: the
        // advancement favours Black, the home row White.
        let p = Position::from_fen("6/B4B/6/6/5W/1W4 w").unwrap();
        assert_eq!(evaluate(&p, 0), Outcome::Win(Side::Second));
        assert_eq!(evaluate(&p, crate::eval::HOME), Outcome::Win(Side::First));
        // Two White threats Black cannot both answer.
        let p = Position::from_fen("6/W3W1/6/BBBB2/6/6 b").unwrap();
        assert_eq!(evaluate(&p, 0), Outcome::Win(Side::First));
        let _ = Board::new(6, 6);
    }
}
