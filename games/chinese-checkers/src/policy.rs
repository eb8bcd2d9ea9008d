//! The playout policy: a move that wins at once when there is one, else the more forward of
//! two uniformly drawn moves (uniform play wanders for thousands of plies, since pieces may
//! move backward).

use crate::board::coords;
use crate::position::{Move, Position};
use mcts::{play_out, PlayoutContext, PlayoutPolicy};
use quasar_core::{Outcome, Side};

/// Win-in-one, else the better of two random moves by rows gained toward the goal; or,
/// when `uniform`, uniformly random moves only.
#[derive(Clone, Copy, Debug, Default)]
pub struct CcPolicy {
    /// Plain uniform playouts (no win-in-one, no forward bias).
    pub uniform: bool,
}

/// Rows the move gains toward the mover's goal (negative when it goes back).
#[inline]
pub fn gain(side: Side, mv: Move) -> i32 {
    let row = |c: u8| {
        let (p, q) = coords(c as usize);
        p + q
    };
    let d = row(mv.to) - row(mv.from);
    if side == Side::First {
        d
    } else {
        -d
    }
}

impl PlayoutPolicy<Position> for CcPolicy {
    fn run(&self, pos: &mut Position, ctx: &mut PlayoutContext<'_, Position>) -> Outcome {
        // Play can cycle: the shared loop's ply cap ends such a playout as a draw.
        play_out(
            pos,
            ctx,
            |pos| Outcome::Win(pos.side.opponent()),
            |pos, ctx| {
                let n = ctx.moves.len() as u32;
                let me = pos.side;
                if self.uniform {
                    let i = ctx.below(n) as usize;
                    return ctx.moves[i];
                }
                if let Some(m) = ctx
                    .moves
                    .iter()
                    .copied()
                    .find(|&m| pos.after(m).has_won(me))
                {
                    return m;
                }
                let (i, j) = (ctx.below(n) as usize, ctx.below(n) as usize);
                let (a, b) = (ctx.moves[i], ctx.moves[j]);
                if gain(me, b) > gain(me, a) {
                    b
                } else {
                    a
                }
            },
        )
    }
}
