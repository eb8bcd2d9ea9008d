//! The playout policy: take a move that wins at once when there is one, else a uniform move.

use crate::position::Position;
use mcts::{play_out, PlayoutContext, PlayoutPolicy};
use quasar_core::Outcome;

/// Uniform random playouts that never miss a move that removes the opponent's last piece.
#[derive(Clone, Copy, Debug, Default)]
pub struct WoodpushPolicy;

impl PlayoutPolicy<Position> for WoodpushPolicy {
    fn run(&self, pos: &mut Position, ctx: &mut PlayoutContext<'_, Position>) -> Outcome {
        // Play can cycle through pushes: the shared loop's ply cap ends such a playout.
        play_out(
            pos,
            ctx,
            |_| Outcome::Draw,
            |pos, ctx| {
                let them = pos.side.opponent();
                // A lone opponent piece that one move removes: the only case a uniform move misses.
                let winning = if pos.board.pieces(them).count_ones() == 1 {
                    ctx.moves
                        .iter()
                        .copied()
                        .find(|&m| pos.after(m).board.pieces(them) == 0)
                } else {
                    None
                };
                winning.unwrap_or_else(|| {
                    let k = ctx.below(ctx.moves.len() as u32) as usize;
                    ctx.moves[k]
                })
            },
        )
    }
}
