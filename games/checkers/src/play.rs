//! Checkers as played in tournaments: the rules of [`Position`] plus the draw rules of
//! play, 40 moves by each side without a capture or a man's move, and the third
//! repetition of a position. The databases ignore both (their values are game-theoretic).

use crate::board::Move;
use crate::position::{mix, Position};
use quasar_core::{Game, Outcome, ParseError, Side};

/// Plies without a capture or a man's move after which the game is drawn (40 moves each).
pub const QUIET_PLIES: usize = 80;

/// A game in play: the position, the plies since the last capture or man's move, and the
/// positions met since then (for the repetition rule).
#[derive(Clone, Debug)]
pub struct Checkers {
    /// The position on the board.
    pub pos: Position,
    /// Plies since the last capture or man's move.
    quiet: u8,
    /// Keys of the positions since the last capture or man's move, `quiet + 1` of them,
    /// the current one last.
    seen: [u64; QUIET_PLIES + 1],
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers::new(Position::START)
    }
}

impl PartialEq for Checkers {
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos && self.quiet == other.quiet && self.history() == other.history()
    }
}

impl Eq for Checkers {}

impl Checkers {
    /// A game from `pos` with no history.
    pub fn new(pos: Position) -> Checkers {
        let mut seen = [0; QUIET_PLIES + 1];
        seen[0] = pos.hash();
        Checkers {
            pos,
            quiet: 0,
            seen,
        }
    }

    /// Plies since the last capture or man's move.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet as u32
    }

    /// Keys of the positions since the last irreversible move, the current one last.
    fn history(&self) -> &[u64] {
        &self.seen[..=self.quiet as usize]
    }

    /// How often the current position has stood on the board since the last irreversible
    /// move (1 the first time).
    pub fn repetitions(&self) -> usize {
        let h = self.history();
        let now = h[h.len() - 1];
        // Only positions with the same side to move can be equal: every other ply.
        h.iter().rev().step_by(2).filter(|&&k| k == now).count()
    }

    /// Why the game is drawn by a rule of play, when it is.
    pub fn draw_rule(&self) -> Option<&'static str> {
        if self.repetitions() >= 3 {
            Some("the same position stood on the board for the third time")
        } else if self.quiet as usize >= QUIET_PLIES {
            Some("40 moves by each side without a capture or a man's move")
        } else {
            None
        }
    }
}

impl Game for Checkers {
    type Move = Move;

    const SIDE_NAMES: [&'static str; 2] = Position::SIDE_NAMES;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.pos.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.draw_rule().is_some() {
            moves.clear();
        } else {
            self.pos.legal_moves(moves);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let man = self.pos.board.kings >> mv.from & 1 == 0;
        self.pos = self.pos.after(mv);
        let key = self.pos.hash();
        if man || mv.is_capture() {
            self.quiet = 0;
        } else {
            self.quiet = self.quiet.saturating_add(1).min(QUIET_PLIES as u8);
        }
        self.seen[self.quiet as usize] = key;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.pos
            .outcome()
            .or_else(|| self.draw_rule().map(|_| Outcome::Draw))
    }

    fn hash(&self) -> u64 {
        let h = self.history();
        // Only the history that can still repeat matters; fold in the positions before
        // this one (the last key is this position's own: folding it in as well would
        // cancel it, and every position just after a capture or a man's move would share
        // one hash).
        h[..h.len() - 1]
            .iter()
            .fold(mix(self.pos.hash() ^ mix(self.quiet as u64)), |acc, &k| {
                mix(acc ^ k)
            })
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        if let Some(why) = self.draw_rule() {
            return Err(ParseError::IllegalMove(quasar_core::Detail::message(
                format!("the game is drawn ({why}): no move is legal"),
            )));
        }
        self.pos.parse_move(text)
    }

    fn move_text(&self, mv: Move) -> String {
        self.pos.move_text(mv)
    }

    fn position_text(&self) -> String {
        self.pos.position_text()
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Position::parse_position(text).map(Checkers::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut Checkers, text: &str) {
        let mv = g.parse_move(text).unwrap();
        g.play(mv);
    }

    #[test]
    fn positions_after_an_irreversible_move_hash_apart() {
        let start = Checkers::default();
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let keys: std::collections::HashSet<u64> = moves
            .iter()
            .map(|&m| {
                let mut g = start.clone();
                g.play(m);
                g.hash()
            })
            .collect();
        assert_eq!(keys.len(), moves.len());
    }

    #[test]
    fn third_repetition_draws() {
        let mut g = Checkers::parse_position("B:WK32:BK1").unwrap();
        for _ in 0..2 {
            for m in ["1-5", "32-28", "5-1", "28-32"] {
                assert_eq!(g.outcome(), None);
                play(&mut g, m);
            }
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn forty_quiet_moves_each_draw_and_a_man_resets() {
        let mut g = Checkers::parse_position("B:WK32,21:BK1,12").unwrap();
        // 79 quiet plies through positions that never repeat (distinct keys).
        g.quiet = (QUIET_PLIES - 1) as u8;
        for (k, slot) in g.seen.iter_mut().enumerate() {
            *slot = k as u64 + 1;
        }
        let mut h = g.clone();
        play(&mut g, "1-5");
        assert_eq!(g.quiet_plies(), QUIET_PLIES as u32);
        assert_eq!(g.outcome(), Some(Outcome::Draw));
        assert_eq!(
            g.draw_rule(),
            Some("40 moves by each side without a capture or a man's move")
        );
        // A man's move instead resets the count.
        play(&mut h, "12-16");
        assert_eq!(h.quiet_plies(), 0);
        assert_eq!(h.outcome(), None);
    }
}
