//! The playout policy: take a move that wins at once when there is one, else a uniform move.

use crate::position::Position;
use mcts::{PlayoutContext, PlayoutPolicy};
use quasar_core::{Game, Outcome};

/// Uniform random playouts that never miss a move that removes the opponent's last piece.
#[derive(Clone, Copy, Debug, Default)]
pub struct WoodpushPolicy;

impl PlayoutPolicy<Position> for WoodpushPolicy {
    fn run(&self, pos: &mut Position, ctx: &mut PlayoutContext<'_, Position>) -> Outcome {
        let mut ply = 0;
        loop {
            if let Some(o) = pos.outcome() {
                return o;
            }
            if ply >= ctx.max_plies {
                // Play can cycle through pushes; the cap ends such a playout as a draw.
                return Outcome::Draw;
            }
            if ply > 0 {
                if let Some(o) = ctx.consult(pos, ply) {
                    return o;
                }
            }
            pos.moves_into(ctx.moves);
            let n = ctx.moves.len() as u32;
            if n == 0 {
                return Outcome::Draw;
            }
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
            let mv = match winning {
                Some(m) => m,
                None => {
                    let k = ctx.below(n) as usize;
                    ctx.moves[k]
                }
            };
            pos.play(mv);
            ply += 1;
        }
    }
}
