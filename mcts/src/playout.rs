//! The playout interface every game's policy implements, and the uniform policy that
//! serves any game.

use quasar_core::{Game, GameResult, Oracle, Outcome};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;

/// What a playout may use besides the position: randomness, a move buffer, the oracle and
/// the ply cap. Built once per search thread, so playouts allocate nothing.
pub struct PlayoutContext<'a, G: Game> {
    /// The thread's random source.
    pub rng: &'a mut Xoshiro256PlusPlus,
    /// A reusable move buffer.
    pub moves: &'a mut Vec<G::Move>,
    /// The oracle whose `guess` may end the playout.
    pub oracle: Option<&'a dyn Oracle<G>>,
    /// Consult the oracle every this many plies (0: never).
    pub oracle_every: u32,
    /// Plies after which the playout stops as a draw (games that can cycle).
    pub max_plies: u32,
}

impl<G: Game> PlayoutContext<'_, G> {
    /// The oracle's guess at ply `ply` of the playout, as an outcome, when one is due.
    #[inline]
    pub fn consult(&self, pos: &G, ply: u32) -> Option<Outcome> {
        let oracle = self.oracle?;
        if self.oracle_every == 0 || ply % self.oracle_every != 0 {
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
