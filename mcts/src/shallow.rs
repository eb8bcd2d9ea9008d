//! A shallow alpha-beta search over the game's evaluation, so that the values expansion
//! gives new children see a few plies of tactics (the minimax node priors of Baier and
//! Winands, "MCTS-Minimax Hybrids with State Evaluations", 2018). Its forced results are
//! sound: every move is searched but where the evaluation's forced moves say the others
//! lose, and the verdicts it stops at are sound.

use quasar_core::{Evaluation, Game, GameResult, EVAL_LIMIT};

/// A forced win's value at the searched position; a win `p` plies away scores `WIN - p`.
const WIN: i32 = EVAL_LIMIT + 4096;
/// Values beyond this are forced results.
const DECIDED: i32 = EVAL_LIMIT;

/// What a shallow search found for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShallowValue {
    /// A forced result within the searched plies, and the plies to the end.
    Proven(GameResult, u32),
    /// The evaluation backed up by minimax.
    Eval(i32),
}

/// The move buffers of a shallow search (one per ply), kept so that a search allocates
/// nothing once they have grown.
pub struct Shallow<G: Game> {
    moves: Vec<Vec<G::Move>>,
    /// Positions the current search has visited.
    nodes: u64,
    /// The most positions it may visit; beyond them it gives up.
    limit: u64,
    /// Whether it gave up: then every node returns 0, so nothing is proven.
    aborted: bool,
    /// The deepest ply a line may reach through positions that are not quiet.
    quiet_horizon: u32,
}

impl<G: Game> Default for Shallow<G> {
    fn default() -> Self {
        Shallow {
            moves: Vec::new(),
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            quiet_horizon: 0,
        }
    }
}

impl<G: Game> Shallow<G> {
    /// The value of `pos` (not over) for its side to move, searched `depth` plies deep and
    /// up to `quiescence` plies further through positions that are not quiet.
    pub fn value(
        &mut self,
        eval: &dyn Evaluation<G>,
        pos: &G,
        depth: u32,
        quiescence: u32,
    ) -> ShallowValue {
        self.ready(depth + quiescence, u64::MAX);
        self.quiet_horizon = depth + quiescence;
        let v = self.node(eval, pos, depth, -WIN - 1, WIN + 1, 0, false);
        if v > DECIDED {
            ShallowValue::Proven(GameResult::Win, (WIN - v) as u32)
        } else if v < -DECIDED {
            ShallowValue::Proven(GameResult::Loss, (WIN + v) as u32)
        } else {
            ShallowValue::Eval(v)
        }
    }

    /// A forced result for the side to move of `pos` (not over) within `depth` plies, if
    /// there is one; the evaluation's scores play no part, only the game's ends and its
    /// verdicts. Two null-window searches (a win, then a loss), so that a position with no
    /// forced result costs little more than proving there is none. A win's plies are at
    /// most those given (the search cuts off once one is found), a loss's at most too.
    /// The two searches visit at most `limit` positions together; past them the answer
    /// is `None`.
    pub fn forced(
        &mut self,
        eval: &dyn Evaluation<G>,
        pos: &G,
        depth: u32,
        limit: u64,
    ) -> Option<(GameResult, u32)> {
        self.ready(depth, limit);
        self.quiet_horizon = 0;
        let v = self.node(eval, pos, depth, DECIDED, DECIDED + 1, 0, true);
        if v > DECIDED {
            return Some((GameResult::Win, (WIN - v) as u32));
        }
        let v = self.node(eval, pos, depth, -DECIDED - 1, -DECIDED, 0, true);
        (v < -DECIDED).then(|| (GameResult::Loss, (WIN + v) as u32))
    }

    /// Buffers for `depth` plies and a fresh count of positions against `limit`.
    fn ready(&mut self, depth: u32, limit: u64) {
        while self.moves.len() < depth as usize + 1 {
            self.moves.push(Vec::with_capacity(64));
        }
        self.nodes = 0;
        self.limit = limit;
        self.aborted = false;
    }

    /// Negamax with alpha-beta: captures and other tactical moves first. With
    /// `forced_only`, the horizon scores 0, so that only forced results count.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        eval: &dyn Evaluation<G>,
        pos: &G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        forced_only: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.aborted || self.nodes > self.limit {
            // A search cut short knows nothing: 0 is no forced result, whichever side
            // the window asks about, and every node above returns it unchanged.
            self.aborted = true;
            return 0;
        }
        if let Some(o) = pos.outcome() {
            return decided(o.result_for(pos.side_to_move()), ply);
        }
        if let Some(v) = eval.verdict(pos) {
            return decided(v.result, ply + v.plies);
        }
        // A position that is not quiet is searched a ply further, up to the quiet horizon.
        let depth = if depth == 0 && ply < self.quiet_horizon && !eval.is_quiet(pos) {
            1
        } else {
            depth
        };
        if depth == 0 {
            if forced_only {
                return 0;
            }
            return eval.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        if !eval.forced_moves(pos, &mut moves) || moves.is_empty() {
            pos.legal_moves(&mut moves);
        }
        // Tactical moves first: a stable partition is not needed, only their cut-offs.
        let mut front = 0;
        for i in 0..moves.len() {
            if eval.is_tactical(pos, moves[i]) {
                moves.swap(front, i);
                front += 1;
            }
        }
        let mut best = if moves.is_empty() { 0 } else { -WIN - 1 };
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let v = -self.node(eval, &child, depth - 1, -beta, -alpha, ply + 1, forced_only);
            if self.aborted {
                self.moves[p] = moves;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[p] = moves;
        best
    }
}

/// The value of `result` for the side to move, `plies` from the searched position.
fn decided(result: GameResult, plies: u32) -> i32 {
    let d = plies.min(4000) as i32;
    match result {
        GameResult::Win => WIN - d,
        GameResult::Loss => -(WIN - d),
        GameResult::Draw => 0,
    }
}
