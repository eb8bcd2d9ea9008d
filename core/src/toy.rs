//! A toy game for the core's own tests: two piles, each move takes one or two stones from
//! one pile, and who takes the last stone wins. Its const parameter injects a bug.

use crate::game::{Detail, Game, Outcome, ParseError, Side};

// Bugs the toy can carry, chosen by its const parameter.
pub const NONE: u8 = 0;
pub const MOVE_TEXT: u8 = 1;
pub const HASH_HISTORY: u8 = 2;
pub const MISSING_MOVE: u8 = 3;
pub const ENDLESS: u8 = 4;
pub const BAD_MIRROR: u8 = 5;
pub const TEXT_DROPS_SIDE: u8 = 6;
/// Every position hashes to 0: correct, but a table that trusts the hash breaks.
pub const CONSTANT_HASH: u8 = 7;

#[derive(Clone, Copy, Debug)]
pub struct Piles<const BUG: u8> {
    piles: [u8; 2],
    side: Side,
    /// The last move; not part of the position (Eq ignores it), but the buggy hash reads it.
    last: Option<(u8, u8)>,
}

impl<const BUG: u8> PartialEq for Piles<BUG> {
    fn eq(&self, other: &Self) -> bool {
        self.piles == other.piles && self.side == other.side
    }
}
impl<const BUG: u8> Eq for Piles<BUG> {}

impl<const BUG: u8> Piles<BUG> {
    pub fn new(a: u8, b: u8) -> Self {
        Piles {
            piles: [a, b],
            side: Side::First,
            last: None,
        }
    }

    pub fn mirror(&self) -> Self {
        let mut m = *self;
        if BUG != BAD_MIRROR {
            m.piles.swap(0, 1);
        }
        m
    }

    pub fn mirror_move(&self, (pile, n): (u8, u8)) -> (u8, u8) {
        (1 - pile, n)
    }
}

impl<const BUG: u8> Game for Piles<BUG> {
    type Move = (u8, u8);

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<(u8, u8)>) {
        moves.clear();
        if BUG == ENDLESS && self.piles == [0, 0] {
            moves.push((0, 0));
        }
        for pile in 0..2 {
            for n in 1..=2 {
                if BUG == MISSING_MOVE && (pile, n) == (1, 2) {
                    continue;
                }
                if self.piles[pile as usize] >= n {
                    moves.push((pile, n));
                }
            }
        }
    }

    fn play(&mut self, (pile, n): (u8, u8)) {
        self.piles[pile as usize] -= n;
        self.side = self.side.opponent();
        self.last = Some((pile, n));
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.piles == [0, 0] && BUG != ENDLESS).then_some(Outcome::Win(self.side.opponent()))
    }

    fn hash(&self) -> u64 {
        if BUG == CONSTANT_HASH {
            return 0;
        }
        let mut h = (self.piles[0] as u64) << 16 | (self.piles[1] as u64) << 8 | self.side as u64;
        if BUG == HASH_HISTORY {
            h ^= self
                .last
                .map_or(0, |(p, n)| (p as u64 + 1) << 40 | (n as u64) << 44);
        }
        crate::rng::splitmix64(h)
    }

    fn parse_move(&self, text: &str) -> Result<(u8, u8), ParseError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        legal
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| ParseError::Move(Detail::message(format!("no move '{text}'"))))
    }

    fn move_text(&self, (pile, n): (u8, u8)) -> String {
        let n = if BUG == MOVE_TEXT { 1 } else { n };
        format!("{}{n}", if pile == 0 { 'a' } else { 'b' })
    }

    fn position_text(&self) -> String {
        let side = if self.side == Side::First { "f" } else { "s" };
        format!("{} {} {side}", self.piles[0], self.piles[1])
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let bad = || ParseError::Position(Detail::message(format!("bad position '{text}'")));
        let f: Vec<&str> = text.split(' ').collect();
        let [a, b, side] = f[..] else {
            return Err(bad());
        };
        let mut pos = Self::new(a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        pos.side = match side {
            "f" => Side::First,
            "s" if BUG != TEXT_DROPS_SIDE => Side::Second,
            "s" => Side::First,
            _ => return Err(bad()),
        };
        Ok(pos)
    }
}
