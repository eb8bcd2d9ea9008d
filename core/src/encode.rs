//! Moves as numbers and positions as planes of cells: what learning code and interfaces in
//! OpenSpiel's shape (integer actions, observation tensors) read.

use crate::game::{Game, Side};

/// The planes of a game's observation: their names and the grid each covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planes {
    /// Each plane's name, in order ("White", "Black", "empty").
    pub names: &'static [&'static str],
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
}

impl Planes {
    /// Numbers in an observation: planes times rows times columns.
    pub fn len(&self) -> usize {
        self.names.len() * self.rows * self.cols
    }

    /// True when the observation holds no number.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of `(plane, row, col)` in an observation (plane-major, then rows).
    pub fn at(&self, plane: usize, row: usize, col: usize) -> usize {
        (plane * self.rows + row) * self.cols + col
    }
}

/// A game's moves numbered in a range fixed by its size, and its positions as 0/1 planes.
pub trait Encode: Game {
    /// One more than the largest number a move of a position of this size can have.
    fn action_count(&self) -> u64;

    /// The number of `mv`, a legal move of this position: the same move of any position
    /// has the same number, and two legal moves of one position never share one.
    fn action(&self, mv: Self::Move) -> u64;

    /// The observation's planes, the same for every position of this size.
    fn planes(&self) -> Planes;

    /// Writes the position into `out` (zeroed, [`Planes::len`] long) as 1s on the planes
    /// of what stands on each cell; cells off the board are 0 on every plane.
    fn observe(&self, out: &mut [f32]);
}

/// Checks `pos`'s encoding: its legal moves have distinct numbers below the count, and its
/// observation has one 1 per cell at most. Returns what is wrong, for tests.
pub fn check_encoding<G: Encode>(pos: &G) -> Result<(), String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut seen: Vec<u64> = moves.iter().map(|&m| pos.action(m)).collect();
    if let Some(&a) = seen.iter().find(|&&a| a >= pos.action_count()) {
        return Err(format!(
            "action {a} is not below the count {}",
            pos.action_count()
        ));
    }
    seen.sort_unstable();
    if seen.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!(
            "two moves share a number in {}",
            pos.position_text()
        ));
    }
    let planes = pos.planes();
    let mut out = vec![0.0; planes.len()];
    pos.observe(&mut out);
    for r in 0..planes.rows {
        for c in 0..planes.cols {
            let on: f32 = (0..planes.names.len())
                .map(|p| out[planes.at(p, r, c)])
                .sum();
            if on > 1.0 || out.iter().any(|&x| x != 0.0 && x != 1.0) {
                return Err(format!("cell ({r}, {c}) is on {on} planes"));
            }
        }
    }
    Ok(())
}

/// The plane of a side's pieces where the planes list the first side's pieces first.
pub fn side_plane(side: Side) -> usize {
    side.index()
}

/// [`check_encoding`] at every ply of `games` random games from `start` (at most 500
/// plies each), for the games' tests.
pub fn check_random_games<G: Encode>(start: &G, games: u32, seed: u64) -> Result<(), String> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..500 {
            check_encoding(&pos)?;
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
        }
    }
    Ok(())
}
