//! What benchmarks need besides a clock: CPU time, and the move-generation and playout
//! rates `quasar bench` prints for every game (a game may time its own fast playouts with
//! [`time_playouts`]).

use crate::{Game, Outcome, Side};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// Peak resident memory of this process in KiB, from `/proc/self/status` (`None` where
/// the system has no such file).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU seconds this process has used so far (all threads, user and system), where the
/// system says; on a shared machine, rates per CPU-second are the fair per-core figure.
pub fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: `rusage` is plain integers, for which all zero bytes are a value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage only writes the struct it is given, which lives to the end.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
            return Some(t(usage.ru_utime) + t(usage.ru_stime));
        }
    }
    None
}

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
    fn empty(depth: u32) -> MovegenRate {
        MovegenRate {
            depth,
            runs: 0,
            leaves: 0,
            calls: 0,
            moves: 0,
            seconds: 0.0,
        }
    }

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
    /// Playouts the first player won.
    pub first_wins: u64,
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

    /// Share of playouts the first player won.
    pub fn first_win_share(&self) -> f64 {
        self.first_wins as f64 / self.playouts.max(1) as f64
    }
}

/// Perft that also counts `legal_moves` calls and generated moves, one buffer per ply.
fn counting_perft<G: Game>(pos: &G, buffers: &mut [Vec<G::Move>], counts: &mut MovegenRate) -> u64 {
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
        let mut child = pos.clone();
        child.play(mv);
        total += counting_perft(&child, rest, counts);
    }
    total
}

/// Runs perft from `pos` for about `seconds`. The depth grows while the next depth is
/// predicted to fit the time; then the subtrees under the first moves are counted one after
/// another, round and round, until the time is up, so the run overshoots by one subtree at
/// most and every counted leaf belongs to a finished subtree.
pub fn movegen_rate<G: Game>(pos: &G, seconds: f64) -> MovegenRate {
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut first_moves = Vec::new();
    pos.legal_moves(&mut first_moves);
    let children: Vec<G> = first_moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            child
        })
        .collect();
    let buffers =
        |depth: u32| -> Vec<Vec<G::Move>> { (0..depth).map(|_| Vec::with_capacity(64)).collect() };
    let mut depth = 1;
    let mut previous_leaves = 1u64;
    loop {
        let mut counts = MovegenRate::empty(depth);
        let start = Instant::now();
        counts.leaves += counting_perft(pos, &mut buffers(depth), &mut counts);
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
    let mut counts = MovegenRate::empty(depth);
    let mut buffers = buffers(depth);
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

/// Plays uniformly random games from `pos` (`legal_moves`, a random pick, `play` each ply)
/// for about `seconds` with a generator seeded by `seed`.
pub fn playout_rate<G: Game>(pos: &G, seed: u64, seconds: f64) -> PlayoutRate {
    let mut moves = Vec::new();
    time_playouts(pos, seed, seconds, |p, rng| {
        let mut plies = 0;
        loop {
            if let Some(o) = p.outcome() {
                return (o, plies);
            }
            p.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            p.play(mv);
            plies += 1;
        }
    })
}

/// Runs `playout` (returning the outcome and the plies played) from copies of `pos` for
/// about `seconds`.
pub fn time_playouts<G: Game>(
    pos: &G,
    seed: u64,
    seconds: f64,
    mut playout: impl FnMut(&mut G, &mut Xoshiro256PlusPlus) -> (Outcome, u32),
) -> PlayoutRate {
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut rate = PlayoutRate {
        playouts: 0,
        plies: 0,
        first_wins: 0,
        seconds: 0.0,
    };
    let start = Instant::now();
    loop {
        // Reading the clock every playout would cost a noticeable share of one.
        for _ in 0..256 {
            let mut p = pos.clone();
            let (outcome, plies) = playout(&mut p, &mut rng);
            rate.playouts += 1;
            rate.plies += plies as u64;
            if outcome == Outcome::Win(Side::First) {
                rate.first_wins += 1;
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
    use crate::perft;
    use crate::toy::Piles;

    #[test]
    fn counting_perft_counts_what_perft_counts() {
        let pos = Piles::<0>::new(3, 4);
        let mut counts = MovegenRate::empty(4);
        let mut buffers: Vec<Vec<(u8, u8)>> = (0..4).map(|_| Vec::new()).collect();
        counts.leaves = counting_perft(&pos, &mut buffers, &mut counts);
        assert_eq!(counts.leaves, perft(&pos, 4));
        // Interior nodes are the positions of depth 0..3 that are not finished.
        let interior: u64 = (0..4).map(|d| perft_unfinished(&pos, d)).sum();
        assert_eq!(counts.calls, interior);
    }

    /// Positions `depth` plies from `pos` whose game goes on.
    fn perft_unfinished(pos: &Piles<0>, depth: u32) -> u64 {
        if pos.outcome().is_some() {
            return 0;
        }
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = *pos;
                c.play(m);
                perft_unfinished(&c, depth - 1)
            })
            .sum()
    }

    #[test]
    fn generic_playouts_of_one_seed_repeat_and_count_wins() {
        let pos = Piles::<0>::new(3, 4);
        let (a, b) = (playout_rate(&pos, 3, 0.0), playout_rate(&pos, 3, 0.0));
        assert_eq!(
            (a.playouts, a.plies, a.first_wins),
            (256, b.plies, b.first_wins)
        );
        assert!(a.first_wins > 0 && a.first_wins < 256, "{a:?}");
    }
    #[test]
    #[cfg(unix)]
    fn cpu_time_grows_with_work() {
        let before = super::cpu_seconds().expect("unix reports CPU time");
        let mut x = 1u64;
        let start = std::time::Instant::now();
        while start.elapsed().as_millis() < 30 {
            x = std::hint::black_box(x.wrapping_mul(3).wrapping_add(1));
        }
        let after = super::cpu_seconds().expect("unix reports CPU time");
        assert!(after > before, "{before} -> {after}");
    }
}
