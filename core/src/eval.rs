//! The trait a game's heuristic knowledge implements for searches that stop before the end
//! of the game: an evaluation, a move-ordering hint and sound quick verdicts.

use crate::game::{Game, GameResult};

/// The largest magnitude an [`Evaluation::evaluate`] may return; searches keep the values
/// above it for proven results.
pub const EVAL_LIMIT: i32 = 1_000_000;

/// The most plies a search looks past its horizon through positions that are not quiet
/// ([`Evaluation::is_quiet`]): enough for the longest exchanges of captures, few enough
/// that a rare chain of forced moves costs little.
pub const QUIESCENCE_PLIES: u32 = 16;

/// A result that follows from the rules a few plies ahead, found without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result for the side to move.
    pub result: GameResult,
    /// Plies until the game ends with best play (exact or a bound that the rules make sure
    /// of: a win within `plies`, a loss not before `plies`).
    pub plies: u32,
}

impl Verdict {
    /// The side to move wins with its next move: the verdict of a win the rules show at once.
    pub const WIN_IN_ONE: Verdict = Verdict {
        result: GameResult::Win,
        plies: 1,
    };
}

/// Heuristic knowledge of a game: how good a position looks, which moves to try first, and
/// results the rules settle a ply or two ahead. Alpha-beta uses all three; MCTS may use the
/// evaluation for priors and implicit minimax backups.
pub trait Evaluation<G: Game>: Send + Sync {
    /// The value of `pos` (not finished) for its side to move; positive is good for it.
    /// Must stay within `-EVAL_LIMIT..=EVAL_LIMIT` and be antisymmetric as far as the game
    /// allows (a position and its colour-flipped twin score the same for their movers).
    fn evaluate(&self, pos: &G) -> i32;

    /// Roughly the evaluation at which the side to move wins three games in four: MCTS maps
    /// an evaluation `v` to a winning chance `1 / (1 + exp(-v * ln 3 / scale))`.
    fn scale(&self) -> f64;

    /// Whether `mv` changes the material or otherwise forces the play (a capture), so that
    /// a search tries it early; `false` by default.
    #[inline]
    fn is_tactical(&self, pos: &G, mv: G::Move) -> bool {
        let _ = (pos, mv);
        false
    }

    /// A result the rules settle without a search (a win on the next move, a threat that
    /// no move can answer); must be sound. `None` by default.
    #[inline]
    fn verdict(&self, pos: &G) -> Option<Verdict> {
        let _ = pos;
        None
    }

    /// [`Evaluation::verdict`] together with results that cost more to find (such as a
    /// piece no opponent can stop): MCTS asks it once for each new node, where a proof
    /// saves many simulations, while alpha-beta asks `verdict` at every node. Must be
    /// sound; by default `verdict`.
    #[inline]
    fn deep_verdict(&self, pos: &G) -> Option<Verdict> {
        self.verdict(pos)
    }

    /// The moves worth searching when the rules force the side to move (only captures of a
    /// piece about to win answer it): writes them, never none, into `moves` and returns
    /// `true`; `false` (and `moves` untouched) when every legal move must be searched.
    #[inline]
    fn forced_moves(&self, pos: &G, moves: &mut Vec<G::Move>) -> bool {
        let _ = (pos, moves);
        false
    }

    /// Whether the value of `pos` can stand without a search: `false` where the rules force
    /// a sequence that a static value cannot see (in checkers, a capture the side to move
    /// must make), so that searches look past it before they trust a value (quiescence).
    /// `true` by default.
    #[inline]
    fn is_quiet(&self, pos: &G) -> bool {
        let _ = pos;
        true
    }

    /// The value of each child of `pos` for the child's side to move, as
    /// [`Evaluation::evaluate`] gives it but for rounding: `out[i]` for `pos` after
    /// `moves[i]` (0 where that move ends the game), and `true`. An evaluation that scores
    /// a child from its parent's work (an incremental model) overrides it; the default
    /// knows no faster way than each child alone and returns `false`, leaving `out` to be
    /// ignored, so that the caller evaluates the children it plays anyway.
    fn evaluate_children(&self, pos: &G, moves: &[G::Move], out: &mut Vec<i32>) -> bool {
        let _ = (pos, moves, out);
        false
    }

    /// A short name for reports and player specs (`material`, `efms+safety`).
    fn name(&self) -> &'static str;
}

/// Every evaluation prints as its name, with or without a `Debug` of its own, so that the
/// types holding one derive `Debug`.
impl<G: Game> std::fmt::Debug for dyn Evaluation<G> + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Evaluation").field(&self.name()).finish()
    }
}

/// The logit of the side to move's winning chance that an evaluation `value` stands for,
/// on the logistic curve that [`Evaluation::scale`] sets.
#[inline]
pub fn logit(value: i32, scale: f64) -> f64 {
    // ln 3: a value of one scale gives odds of three to one.
    value as f64 * 3f64.ln() / scale
}

/// Maps an evaluation to the side to move's winning chance in (0, 1), by the logistic
/// curve that [`Evaluation::scale`] sets.
#[inline]
pub fn win_chance(value: i32, scale: f64) -> f64 {
    1.0 / (1.0 + (-logit(value, scale)).exp())
}

/// A game's sound verdicts as an oracle, so that MCTS proves at expansion what the rules
/// settle a ply or two ahead. It answers nothing inside playouts (`guess`), where a game's
/// policy already plays its wins in one, and names no move.
#[derive(Debug)]
pub struct Verdicts<G: Game>(pub std::sync::Arc<dyn Evaluation<G>>);

impl<G: Game> crate::oracle::Oracle<G> for Verdicts<G> {
    #[inline]
    fn probe(&self, pos: &G) -> Option<crate::oracle::ProvenOutcome<G::Move>> {
        if pos.outcome().is_some() {
            return None;
        }
        self.0
            .deep_verdict(pos)
            .map(|v| crate::oracle::ProvenOutcome {
                result: v.result,
                plies: Some(v.plies),
                best_move: None,
            })
    }
    #[inline]
    fn guess(&self, _pos: &G) -> Option<GameResult> {
        None
    }
}

/// Another evaluation's verdicts and move ordering with every unsettled position scored
/// 0: a search with it looks for forced results only. With nothing to weigh, every node
/// is cut at the first move that settles it either way, as in a proof search, so it sees
/// a forced win plies deeper than a search over the evaluation given the same nodes.
#[derive(Debug)]
pub struct ForcedOnly<G: Game>(pub std::sync::Arc<dyn Evaluation<G>>);

impl<G: Game> Evaluation<G> for ForcedOnly<G> {
    #[inline]
    fn evaluate(&self, _pos: &G) -> i32 {
        0
    }
    fn scale(&self) -> f64 {
        self.0.scale()
    }
    #[inline]
    fn is_tactical(&self, pos: &G, mv: G::Move) -> bool {
        self.0.is_tactical(pos, mv)
    }
    #[inline]
    fn verdict(&self, pos: &G) -> Option<Verdict> {
        self.0.verdict(pos)
    }
    #[inline]
    fn deep_verdict(&self, pos: &G) -> Option<Verdict> {
        self.0.deep_verdict(pos)
    }
    #[inline]
    fn forced_moves(&self, pos: &G, moves: &mut Vec<G::Move>) -> bool {
        self.0.forced_moves(pos, moves)
    }
    fn name(&self) -> &'static str {
        "forced-only"
    }
}

#[cfg(test)]
mod tests {
    use super::win_chance;

    #[test]
    fn the_scale_is_the_value_of_three_wins_in_four() {
        assert!((win_chance(0, 100.0) - 0.5).abs() < 1e-12);
        assert!((win_chance(100, 100.0) - 0.75).abs() < 1e-12);
        assert!((win_chance(-100, 100.0) - 0.25).abs() < 1e-12);
        assert!(win_chance(10 * 100, 100.0) > 0.99);
    }
}
