//! Speed measurements behind `quasar bench`: move generation and uniformly random
//! playouts on one thread, each run for a fixed time and reported as rates.

use crate::Position;
use quasar_core::measure::time_playouts;
pub use quasar_core::measure::{movegen_rate, MovegenRate, PlayoutRate};

/// Plays uniformly random games from `pos` for about `seconds` with a generator seeded by
/// `seed`, through [`Position::random_playout_plies`].
pub fn playout_rate(pos: &Position, seed: u64, seconds: f64) -> PlayoutRate {
    time_playouts(pos, seed, seconds, |p, rng| p.random_playout_plies(rng))
}

/// The plain playout loop (`random_move`, `make_move`, `result` each ply), timed like
/// [`playout_rate`] for comparison with the fused playout.
pub fn plain_playout_rate(pos: &Position, seed: u64, seconds: f64) -> PlayoutRate {
    time_playouts(pos, seed, seconds, |p, rng| {
        let mut plies = 0;
        loop {
            if let Some(o) = p.result() {
                return (o, plies);
            }
            let mv = p.random_move(rng).expect("an unfinished game has a move");
            p.make_move(mv);
            plies += 1;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn playouts_of_one_seed_repeat() {
        let pos = Position::start(Board::new(5, 5).unwrap());
        let a = playout_rate(&pos, 3, 0.0);
        let b = plain_playout_rate(&pos, 3, 0.0);
        // Both stop after the first 256 games: the same games, since both draw alike.
        assert_eq!(
            (a.playouts, a.plies, a.first_wins),
            (256, b.plies, b.first_wins)
        );
    }
}
