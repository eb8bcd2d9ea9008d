//! Every win the prober claims on positions from random games survives an exact search of
//! the real game to the claimed depth.

use breakthrough::tablebase::{generate, Limits, Region, Tablebase};
use breakthrough::{Board, Move, Position};
use quasar_core::exact::ExactSolver;
use quasar_core::{Game, GameResult, Oracle, Outcome};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;

/// A proof of a claimed win in the real game: the claimed move is played, then every
/// reply of the opponent under the real rules, and the prober must claim a win again, of
/// no greater depth, at every position that follows, until the mover actually wins.
/// White's moves come from the table (a witness); Black's are all enumerated, so a
/// completed proof is a real forced win whatever the table says.
struct Prover<'a> {
    tb: &'a Tablebase,
    proven: HashSet<(u64, u64, bool)>,
    nodes: u64,
}

/// Why a proof stopped.
#[derive(Debug)]
enum Stop {
    /// The claim is false: the position and what went wrong.
    Refuted(String),
    /// The proof tree grew past the budget (not a verdict).
    Budget,
}

impl Prover<'_> {
    fn prove(&mut self, pos: &Position, budget: u64) -> Result<(), Stop> {
        let key = (
            pos.white(),
            pos.black(),
            pos.side() == quasar_core::Side::First,
        );
        if self.proven.contains(&key) {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes > budget {
            return Err(Stop::Budget);
        }
        let me = pos.side();
        let claim = self
            .tb
            .probe(pos)
            .ok_or_else(|| Stop::Refuted(format!("{pos:?}: the claim lapsed")))?;
        assert_eq!(claim.result, GameResult::Win);
        let mv: Move = claim.best_move.expect("a claimed win names its move");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            return Err(Stop::Refuted(format!(
                "{pos:?}: best move {mv:?} is illegal"
            )));
        }
        let mut child = *pos;
        child.play(mv);
        if child.outcome() != Some(Outcome::Win(me)) {
            let mut replies = Vec::new();
            child.legal_moves(&mut replies);
            for r in replies {
                let mut g = child;
                g.play(r);
                match g.outcome() {
                    Some(Outcome::Win(s)) if s == me => continue,
                    Some(_) => {
                        return Err(Stop::Refuted(format!(
                            "{pos:?}: after {mv:?} the reply {r:?} wins for the opponent"
                        )))
                    }
                    None => {}
                }
                match self.tb.probe(&g) {
                    Some(_) if depth(self.tb, &g) <= depth(self.tb, pos) => {
                        self.prove(&g, budget)?
                    }
                    other => {
                        return Err(Stop::Refuted(format!(
                            "{pos:?} (depth {}): after {mv:?} {r:?} the claim became {other:?}",
                            depth(self.tb, pos)
                        )))
                    }
                }
            }
        }
        self.proven.insert(key);
        Ok(())
    }
}

/// Exact search of the real game: does the side to move win within `k` of its own moves,
/// whatever the opponent does? (For depth-1 claims, which are real-move counts.)
fn wins_within(pos: &Position, k: u32) -> bool {
    if k == 0 {
        return false;
    }
    let me = pos.side();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&m| {
        let mut child = *pos;
        child.play(m);
        child.outcome() == Some(Outcome::Win(me))
            || (k > 1 && {
                let mut replies = Vec::new();
                child.legal_moves(&mut replies);
                replies.iter().all(|&r| {
                    let mut g = child;
                    g.play(r);
                    match g.outcome() {
                        Some(Outcome::Win(s)) => s == me,
                        None => wins_within(&g, k - 1),
                        _ => false,
                    }
                })
            })
    })
}

fn check_random_games(w: u32, h: u32, n: u32, limits: Limits, games: u32) -> (u32, u32) {
    let board = Board::new(w, h).unwrap();
    let g = generate(
        &Region::new(board, n).unwrap(),
        limits,
        &breakthrough::tablebase::Silent,
    )
    .unwrap();
    let tb = Tablebase::from_generated(&g);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut claims, mut deep) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::start(board);
        while pos.outcome().is_none() {
            if let Some(p) = tb.probe(&pos) {
                // The claimed plies bound the real game: the exact solver never needs more.
                let bound = p.plies.expect("the table knows its distances");
                if let Some(s) = ExactSolver::<Position>::new(20_000).solve(&pos, bound + 8) {
                    assert_eq!(s.result, GameResult::Win, "{pos:?}");
                    assert!(
                        s.plies <= bound,
                        "{pos:?}: {} plies, claimed {bound}",
                        s.plies
                    );
                }
                if depth(&tb, &pos) <= 2 {
                    // Effective depth 1 or 2 with no defence in between is a real-move
                    // horizon for depth 1; check it by plain search too.
                    assert!(
                        depth(&tb, &pos) != 1 || wins_within(&pos, 1),
                        "{pos:?}: win in 1 fails"
                    );
                }
                let mut prover = Prover {
                    tb: &tb,
                    proven: HashSet::new(),
                    nodes: 0,
                };
                match prover.prove(&pos, 200_000) {
                    Ok(()) => {
                        claims += 1;
                        if depth(&tb, &pos) >= 2 {
                            deep += 1;
                        }
                    }
                    Err(Stop::Budget) => {}
                    Err(Stop::Refuted(why)) => {
                        panic!("claimed win in {} fails: {why}", depth(&tb, &pos))
                    }
                }
            }
            let mv = pos.random_move(&mut rng).expect("game not over");
            pos.play(mv);
        }
    }
    eprintln!("{w}x{h} rows {n} {limits}: {claims} claims proven ({deep} of depth >= 2)");
    (claims, deep)
}

#[test]
fn claims_on_6x6_with_3_rows_survive_exact_search() {
    let (claims, deep) = check_random_games(6, 6, 3, Limits::NONE, 300);
    assert!(
        deep > 50,
        "too few claims to test: {claims} ({deep} of depth >= 2)"
    );
}

#[test]
fn claims_on_5x5_with_3_rows_survive_exact_search() {
    let (claims, deep) = check_random_games(5, 5, 3, Limits::NONE, 300);
    assert!(
        deep > 50,
        "too few claims to test: {claims} ({deep} of depth >= 2)"
    );
}

#[test]
fn claims_on_5x5_with_4_rows_survive_exact_search() {
    let (claims, deep) = check_random_games(5, 5, 4, Limits::NONE, 300);
    assert!(
        deep > 50,
        "too few claims to test: {claims} ({deep} of depth >= 2)"
    );
}

#[test]
fn claims_on_6x6_with_4_rows_and_3_white_survive_exact_search() {
    let limits = Limits {
        max_white: Some(3),
        max_black: None,
        max_pieces: None,
    };
    let (claims, deep) = check_random_games(6, 6, 4, limits, 200);
    assert!(
        deep > 50,
        "too few claims to test: {claims} ({deep} of depth >= 2)"
    );
}

/// The table's depth `D` (the winner's moves) for a position it claims.
fn depth(tb: &Tablebase, pos: &Position) -> u32 {
    tb.explain(pos).expect("a claimed position").depth
}
