//! Speed measurements behind `quasar bench`: move generation and uniformly random
//! playouts on one thread, each run for a fixed time and reported as rates.

use crate::{Move, Position, WHITE};
use quasar_core::{Game, Outcome};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// What a move-generation run counted: perft to `depth`, repeated until time was up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovegenRate {
    /// The perft depth of each repetition.
    pub depth: u32,
    /// Complete perft runs (a last, partial run adds its finished subtrees to the counts).
    pub runs: u64,
    /// Leaves counted (the last ply is counted from the move list, not played).
    pub leaves: u64,
    /// Calls of `legal_moves` (one per interior node).
    pub calls: u64,
    /// Moves those calls wrote.
    pub moves: u64,
    /// Wall-clock seconds of all repetitions.
    pub seconds: f64,
}

impl MovegenRate {
    /// Perft leaves per second.
    pub fn leaves_per_second(&self) -> f64 {
        self.leaves as f64 / self.seconds
    }

    /// `legal_moves` calls per second.
    pub fn calls_per_second(&self) -> f64 {
        self.calls as f64 / self.seconds
    }

    /// Moves generated per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds
    }
}

/// What a playout run counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutRate {
    /// Playouts completed.
    pub playouts: u64,
    /// Plies played in them.
    pub plies: u64,
    /// Playouts White won.
    pub white_wins: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl PlayoutRate {
    /// Playouts per second.
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }

    /// Average plies per playout.
    pub fn plies_per_playout(&self) -> f64 {
        self.plies as f64 / self.playouts.max(1) as f64
    }

    /// Plies per second.
    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.seconds
    }

    /// Share of playouts White won.
    pub fn white_win_share(&self) -> f64 {
        self.white_wins as f64 / self.playouts.max(1) as f64
    }
}

/// Perft that also counts `legal_moves` calls and generated moves, one buffer per ply.
fn counting_perft(pos: &Position, buffers: &mut [Vec<Move>], counts: &mut MovegenRate) -> u64 {
    if buffers.is_empty() || pos.outcome().is_some() {
        return 1;
    }
    let (mine, rest) = buffers.split_first_mut().expect("checked non-empty");
    pos.legal_moves(mine);
    counts.calls += 1;
    counts.moves += mine.len() as u64;
    if rest.is_empty() {
        return mine.len() as u64;
    }
    let mut total = 0;
    for &mv in mine.iter() {
        let mut child = *pos;
        child.play(mv);
        total += counting_perft(&child, rest, counts);
    }
    total
}

/// Runs perft from `pos` for about `seconds`. The depth grows while the next depth is
/// predicted to fit the time; then the subtrees under the first moves are counted one after
/// another, round and round, until the time is up, so the run overshoots by one subtree at
/// most and every counted leaf belongs to a finished subtree.
pub fn movegen_rate(pos: &Position, seconds: f64) -> MovegenRate {
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut first_moves = Vec::new();
    pos.legal_moves(&mut first_moves);
    let children: Vec<Position> = first_moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play(mv);
            child
        })
        .collect();
    let mut depth = 1;
    let mut previous_leaves = 1u64;
    loop {
        let mut counts = empty_movegen(depth);
        let start = Instant::now();
        run_perft(pos, &mut counts);
        let took = start.elapsed();
        let growth = counts.leaves as f64 / previous_leaves.max(1) as f64;
        previous_leaves = counts.leaves;
        // A tree that stops growing (every game over) also ends the search for depth.
        let next_fits = took.as_secs_f64() * growth.max(1.0) <= budget.as_secs_f64() / 2.0;
        if !next_fits || growth < 1.01 || depth >= 40 {
            break;
        }
        depth += 1;
    }
    let mut counts = empty_movegen(depth);
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let start = Instant::now();
    if children.is_empty() || depth == 1 {
        loop {
            counts.leaves += counting_perft(pos, &mut buffers, &mut counts);
            counts.runs += 1;
            if start.elapsed() >= budget {
                break;
            }
        }
    } else {
        'timed: loop {
            // The root's own legal_moves call, once per round.
            counts.calls += 1;
            counts.moves += children.len() as u64;
            for child in &children {
                counts.leaves += counting_perft(child, &mut buffers[1..], &mut counts);
                if start.elapsed() >= budget {
                    break 'timed;
                }
            }
            counts.runs += 1;
        }
    }
    counts.seconds = start.elapsed().as_secs_f64();
    counts
}

fn empty_movegen(depth: u32) -> MovegenRate {
    MovegenRate {
        depth,
        runs: 0,
        leaves: 0,
        calls: 0,
        moves: 0,
        seconds: 0.0,
    }
}

fn run_perft(pos: &Position, counts: &mut MovegenRate) {
    let mut buffers: Vec<Vec<Move>> = (0..counts.depth).map(|_| Vec::with_capacity(64)).collect();
    counts.leaves += counting_perft(pos, &mut buffers, counts);
    counts.runs += 1;
}

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

/// Runs `playout` (returning the winner and the plies played) from copies of `pos` for
/// about `seconds`.
fn time_playouts(
    pos: &Position,
    seed: u64,
    seconds: f64,
    mut playout: impl FnMut(&mut Position, &mut Xoshiro256PlusPlus) -> (Outcome, u32),
) -> PlayoutRate {
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut rate = PlayoutRate {
        playouts: 0,
        plies: 0,
        white_wins: 0,
        seconds: 0.0,
    };
    let start = Instant::now();
    loop {
        // Reading the clock every playout would cost a noticeable share of one.
        for _ in 0..256 {
            let mut p = *pos;
            let (outcome, plies) = playout(&mut p, &mut rng);
            rate.playouts += 1;
            rate.plies += plies as u64;
            if outcome == Outcome::Win(WHITE) {
                rate.white_wins += 1;
            }
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    rate.seconds = start.elapsed().as_secs_f64();
    rate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use quasar_core::perft;

    #[test]
    fn counting_perft_counts_what_perft_counts() {
        let pos = Position::start(Board::new(6, 6).unwrap());
        let mut counts = empty_movegen(4);
        run_perft(&pos, &mut counts);
        assert_eq!(counts.leaves, perft(&pos, 4));
        // Interior nodes are the positions of depth 0..3 that are not finished.
        let interior: u64 = (0..4).map(|d| perft(&pos, d)).sum();
        assert_eq!(counts.calls, interior);
        // Every move of an interior node makes a node one ply deeper.
        let children: u64 = (1..=4).map(|d| perft(&pos, d)).sum();
        assert_eq!(counts.moves, children);
    }

    #[test]
    fn playouts_of_one_seed_repeat() {
        let pos = Position::start(Board::new(5, 5).unwrap());
        let a = playout_rate(&pos, 3, 0.0);
        let b = plain_playout_rate(&pos, 3, 0.0);
        // Both stop after the first 256 games: the same games, since both draw alike.
        assert_eq!(
            (a.playouts, a.plies, a.white_wins),
            (256, b.plies, b.white_wins)
        );
    }
}
