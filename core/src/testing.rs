//! A toy game for the searches' tests (the `testing` feature), with its brute-force
//! solution: two-pile take-away with a ply cap, small enough to solve exactly and with
//! wins, losses and draws.

use crate::{Detail, Game, GameResult, Outcome, ParseError, Side};
use std::collections::HashMap;

/// Two piles of stones; a move takes 1 to 3 stones from one pile, and whoever takes the
/// last stone wins. With stones left after `cap` plies the game is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    /// The piles.
    pub piles: [u8; 2],
    /// Plies played.
    pub ply: u8,
    /// Plies after which the game is drawn.
    pub cap: u8,
    /// Every position hashes alike, so that only `==` tells positions apart.
    pub weak_hash: bool,
}

impl Nim {
    /// The position with `piles` before any move, drawn after `cap` plies.
    pub fn new(piles: [u8; 2], cap: u8) -> Self {
        Nim {
            piles,
            ply: 0,
            cap,
            weak_hash: false,
        }
    }

    /// The legal moves as a vector.
    pub fn moves(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v
    }

    /// The position after `mv`.
    pub fn after(&self, mv: u8) -> Self {
        let mut p = self.clone();
        p.play(mv);
        p
    }
}

impl Game for Nim {
    /// `pile * 4 + stones`.
    type Move = u8;

    fn side_to_move(&self) -> Side {
        Side::after_plies(u32::from(self.ply))
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        for (p, &n) in self.piles.iter().enumerate() {
            for take in 1..=n.min(3) {
                moves.push(p as u8 * 4 + take);
            }
        }
    }

    fn play(&mut self, mv: u8) {
        self.piles[(mv / 4) as usize] -= mv % 4;
        self.ply += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.piles == [0, 0] {
            Some(Outcome::Win(self.side_to_move().opponent()))
        } else if self.ply >= self.cap {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        if self.weak_hash {
            return 0;
        }
        let key =
            u64::from_le_bytes([self.piles[0], self.piles[1], self.ply, self.cap, 0, 0, 0, 0]);
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let mv: u8 = text
            .parse()
            .map_err(|_| ParseError::Move(Detail::message("not a number")))?;
        if self.moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::IllegalMove(Detail::message("illegal move")))
        }
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn position_text(&self) -> String {
        format!(
            "{} {} {} {}",
            self.piles[0], self.piles[1], self.ply, self.cap
        )
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let n: Vec<u8> = text
            .split_whitespace()
            .map(|w| {
                w.parse()
                    .map_err(|_| ParseError::Position(Detail::message("not a number")))
            })
            .collect::<Result<_, _>>()?;
        match n[..] {
            [a, b, ply, cap] => Ok(Nim {
                ply,
                ..Nim::new([a, b], cap)
            }),
            _ => Err(ParseError::Position(Detail::message("four numbers"))),
        }
    }
}

/// The exact value of positions by plain recursion (memoised): the result for the side to
/// move and the plies to the end with best play (the fastest win, the slowest loss; a draw
/// counts its longest line, as the solver does).
#[derive(Debug, Default)]
pub struct Brute(HashMap<([u8; 2], u8, u8), (GameResult, u32)>);

impl Brute {
    /// The value of `pos` for its side to move.
    pub fn solve(&mut self, pos: &Nim) -> (GameResult, u32) {
        if let Some(o) = pos.outcome() {
            return (o.result_for(pos.side_to_move()), 0);
        }
        let key = (pos.piles, pos.ply, pos.cap);
        if let Some(&v) = self.0.get(&key) {
            return v;
        }
        let mut best: Option<(GameResult, u32)> = None;
        for mv in pos.moves() {
            let (r, d) = self.solve(&pos.after(mv));
            let mine = (r.flip(), d + 1);
            best = Some(match best {
                None => mine,
                Some(b) if rank(mine) > rank(b) => mine,
                Some(b) => b,
            });
        }
        let v = best.expect("an unfinished position has moves");
        self.0.insert(key, v);
        v
    }
}

/// Orders values for the side that chooses: wins first, the faster the better; then draws,
/// the longer the better (as the solver's plies); then losses, the slower the better.
fn rank((r, d): (GameResult, u32)) -> (u8, i64) {
    match r {
        GameResult::Win => (2, -(d as i64)),
        GameResult::Draw => (1, d as i64),
        GameResult::Loss => (0, d as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brute_force_knows_take_away() {
        let mut b = Brute::default();
        // Without a cap in reach, a single pile is lost exactly when it is a multiple of 4.
        for n in 1..12u8 {
            let (r, _) = b.solve(&Nim::new([n, 0], 40));
            assert_eq!(r == GameResult::Loss, n % 4 == 0, "pile {n}");
        }
        assert_eq!(b.solve(&Nim::new([3, 0], 40)), (GameResult::Win, 1));
        // 4: any move leaves 1-3, taken at once.
        assert_eq!(b.solve(&Nim::new([4, 0], 40)), (GameResult::Loss, 2));
        // Two equal piles are lost for the side to move (the mirror strategy)...
        assert_eq!(b.solve(&Nim::new([2, 2], 40)).0, GameResult::Loss);
        // ...unless the cap comes first.
        assert_eq!(b.solve(&Nim::new([2, 2], 2)), (GameResult::Draw, 2));
    }
}
