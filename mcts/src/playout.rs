//! The playout interface every game's policy implements, and the uniform policy that
//! serves any game.

use quasar_core::{Game, GameResult, Oracle, Outcome};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;

/// What a playout may use besides the position: randomness, a move buffer, the oracle and
/// the ply cap. Built once per search thread, so playouts allocate nothing.
#[derive(Debug)]
pub struct PlayoutContext<'a, G: Game> {
    /// The thread's random source.
    pub rng: &'a mut Xoshiro256PlusPlus,
    /// A reusable move buffer.
    pub moves: &'a mut Vec<G::Move>,
    /// The oracle whose `guess` may end the playout.
    pub oracle: Option<&'a dyn Oracle<G>>,
    /// Consult the oracle at every this many turns of each side (0: never; see [`consult_due`]).
    pub oracle_every: u32,
    /// Plies after which the playout stops as a draw (games that can cycle).
    pub max_plies: u32,
}

/// Whether a playout consults its oracle at `ply` when asked every `every` plies (0:
/// never): at every `every`-th turn of each side, plies `2k-1` and `2k`, `4k-1` and `4k`, ...
/// for `k = every`. Plies `k, 2k, 3k` would, for an even `k`, always find the same side to
/// move, so only that side's wins could end a playout.
#[inline]
pub fn consult_due(every: u32, ply: u32) -> bool {
    every != 0 && ply.div_ceil(2) % every == 0
}

impl<G: Game> PlayoutContext<'_, G> {
    /// The oracle's guess at ply `ply` of the playout, as an outcome, when one is due.
    #[inline]
    pub fn consult(&self, pos: &G, ply: u32) -> Option<Outcome> {
        let oracle = self.oracle?;
        if !consult_due(self.oracle_every, ply) {
            return None;
        }
        let side = pos.side_to_move();
        oracle.guess(pos).map(|r| match r {
            GameResult::Win => Outcome::Win(side),
            GameResult::Loss => Outcome::Win(side.opponent()),
            GameResult::Draw => Outcome::Draw,
        })
    }

    /// A uniform random number below `n` (which is positive).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.rng.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// A way to finish a game from a position: the simulation step of MCTS.
pub trait PlayoutPolicy<G: Game>: Clone + Send + Sync + fmt::Debug + 'static {
    /// Plays from `pos` (not finished) until the game ends or the policy, the oracle or the
    /// ply cap decides, and returns the outcome; `pos` is left wherever the playout stopped.
    fn run(&self, pos: &mut G, ctx: &mut PlayoutContext<'_, G>) -> Outcome;
}

/// Uniformly random legal moves for any game, through [`Game::legal_moves`].
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPolicy;

impl<G: Game> PlayoutPolicy<G> for UniformPolicy {
    fn run(&self, pos: &mut G, ctx: &mut PlayoutContext<'_, G>) -> Outcome {
        // A game without moves that does not report an outcome is treated as drawn.
        play_out(
            pos,
            ctx,
            |_| Outcome::Draw,
            |_, ctx| {
                let k = ctx.below(ctx.moves.len() as u32) as usize;
                ctx.moves[k]
            },
        )
    }
}

/// The loop every move-by-move policy shares: stop at the game's end, the ply cap (a draw:
/// games that can cycle) or the oracle's guess (from the second ply, when due); else
/// generate the moves into the context's buffer and play the one `pick` chooses from that
/// non-empty buffer. `stuck` is the outcome when the side to move has no move.
#[inline]
pub fn play_out<G: Game>(
    pos: &mut G,
    ctx: &mut PlayoutContext<'_, G>,
    stuck: impl Fn(&G) -> Outcome,
    mut pick: impl FnMut(&G, &mut PlayoutContext<'_, G>) -> G::Move,
) -> Outcome {
    let mut ply = 0;
    loop {
        if let Some(o) = pos.outcome() {
            return o;
        }
        if ply >= ctx.max_plies {
            return Outcome::Draw;
        }
        if ply > 0 {
            if let Some(o) = ctx.consult(pos, ply) {
                return o;
            }
        }
        pos.legal_moves(ctx.moves);
        if ctx.moves.is_empty() {
            return stuck(pos);
        }
        let mv = pick(pos, ctx);
        pos.play(mv);
        ply += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::consult_due;

    #[test]
    fn the_oracle_is_due_as_often_for_either_side_to_move() {
        for k in 1..=6u32 {
            // Plies 1..=12k: each side to move 6k times; due at every k-th turn of each.
            let due: Vec<u32> = (1..=12 * k).filter(|&p| consult_due(k, p)).collect();
            let odd = due.iter().filter(|&&p| p % 2 == 1).count();
            assert_eq!((odd, due.len() - odd), (6, 6), "every {k}: {due:?}");
            assert!(
                due.windows(2).all(|w| w[1] - w[0] <= 2 * k),
                "every {k}: {due:?}"
            );
        }
        assert!((1..100).all(|p| consult_due(1, p) && !consult_due(0, p)));
    }
}
