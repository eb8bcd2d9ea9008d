//! The search against plain negamax on a random game tree (no transpositions: the values
//! must be equal), and against a brute-force solve of a take-away game (transpositions and
//! proven results).

use crate::{AlphaBeta, Config, Limit, Score, SearchError};
use quasar_core::testing::{Brute, Nim};
use quasar_core::{
    splitmix64, Detail, Evaluation, Game, GameResult, Outcome, ParseError, Side, Verdict,
};
use std::sync::Arc;

/// A random game tree: a node is its path's hash; it has 1 to 4 children, ends after
/// `height` plies (or earlier, by the hash) with a win for either side or a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tree {
    id: u64,
    ply: u32,
    height: u32,
}

impl Tree {
    fn branching(&self) -> u8 {
        1 + (splitmix64(self.id ^ 0xb) % 4) as u8
    }
}

fn unsupported() -> ParseError {
    ParseError::Move(Detail::message("no notation"))
}

impl Game for Tree {
    type Move = u8;
    fn side_to_move(&self) -> Side {
        Side::after_plies(self.ply)
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend(0..self.branching());
        }
    }
    fn play(&mut self, mv: u8) {
        self.id = splitmix64(self.id.wrapping_mul(31) ^ (mv as u64 + 1));
        self.ply += 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        let early = self.ply > 2 && splitmix64(self.id ^ 0xe) % 9 == 0;
        if self.ply < self.height && !early {
            return None;
        }
        Some(match splitmix64(self.id) % 3 {
            0 => Outcome::Win(Side::First),
            1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }
    fn hash(&self) -> u64 {
        self.id
    }
    fn parse_move(&self, _: &str) -> Result<u8, ParseError> {
        Err(unsupported())
    }
    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn position_text(&self) -> String {
        self.id.to_string()
    }
    fn parse_position(_: &str) -> Result<Self, ParseError> {
        Err(unsupported())
    }
}

/// A pseudo-random evaluation, with moves 0 called tactical and a verdict on some nodes.
struct TreeEval;

impl Evaluation<Tree> for TreeEval {
    fn evaluate(&self, pos: &Tree) -> i32 {
        (splitmix64(pos.id ^ 0x5) % 2001) as i32 - 1000
    }
    fn scale(&self) -> f64 {
        100.0
    }
    fn is_tactical(&self, _: &Tree, mv: u8) -> bool {
        mv == 0
    }
    fn verdict(&self, pos: &Tree) -> Option<Verdict> {
        (splitmix64(pos.id ^ 0x7) % 17 == 0).then_some(Verdict {
            result: GameResult::Win,
            plies: 3,
        })
    }
    fn name(&self) -> &'static str {
        "random"
    }
}

/// [`TreeEval`] in a variant: scoring a node's children together (counting the batches it
/// gave), or calling every node whose hash is a multiple of 3 not quiet.
struct Variant {
    batches: Option<std::sync::atomic::AtomicU64>,
    restless: bool,
}

impl Variant {
    fn together() -> Variant {
        Variant {
            batches: Some(Default::default()),
            restless: false,
        }
    }

    fn restless() -> Variant {
        Variant {
            batches: None,
            restless: true,
        }
    }

    fn quiet(pos: &Tree) -> bool {
        splitmix64(pos.id ^ 0x9) % 3 != 0
    }
}

impl Evaluation<Tree> for Variant {
    fn evaluate(&self, pos: &Tree) -> i32 {
        TreeEval.evaluate(pos)
    }
    fn scale(&self) -> f64 {
        TreeEval.scale()
    }
    fn is_tactical(&self, pos: &Tree, mv: u8) -> bool {
        TreeEval.is_tactical(pos, mv)
    }
    fn verdict(&self, pos: &Tree) -> Option<Verdict> {
        TreeEval.verdict(pos)
    }
    fn is_quiet(&self, pos: &Tree) -> bool {
        !self.restless || Variant::quiet(pos)
    }
    fn evaluate_children(&self, pos: &Tree, moves: &[u8], out: &mut Vec<i32>) -> bool {
        let Some(batches) = &self.batches else {
            return false;
        };
        batches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        out.clear();
        out.extend(moves.iter().map(|&m| {
            let mut c = pos.clone();
            c.play(m);
            TreeEval.evaluate(&c)
        }));
        true
    }
    fn name(&self) -> &'static str {
        "random, a variant"
    }
}

/// Plain negamax with the same leaves, verdicts and distances as the search.
fn negamax(pos: &Tree, depth: u32, ply: u32) -> i32 {
    negamax_quiet(pos, depth, ply, 0)
}

/// The unfinished roots of 200 random trees, with their seeds.
fn roots() -> impl Iterator<Item = (u64, Tree)> {
    (0..200u64).filter_map(|seed| {
        let root = Tree {
            id: splitmix64(seed),
            ply: 0,
            height: 9,
        };
        root.outcome().is_none().then_some((seed, root))
    })
}

/// A searcher of random trees with a small table.
fn tree_searcher(eval: Arc<dyn Evaluation<Tree>>) -> AlphaBeta<Tree> {
    AlphaBeta::new(
        Config {
            table_bytes: 1 << 16,
            max_depth: 12,
            ..Config::default()
        },
        eval,
    )
}

#[test]
fn values_equal_plain_negamax_at_every_depth() {
    for (seed, root) in roots() {
        let mut ab = tree_searcher(Arc::new(TreeEval));
        for depth in 1..=7 {
            ab.clear();
            let r = ab.search(&root, Limit::Depth(depth)).unwrap();
            let want = negamax(&root, depth, 0);
            let got = match r.score {
                Score::Eval(v) => v,
                Score::Proven { result, plies } => crate::score::proven(result, 0, plies),
            };
            // A proven result stops the deepening early; it must be the true one.
            if r.depth < depth {
                assert!(got.abs() > crate::PROVEN, "seed {seed} depth {depth}");
                assert_eq!(got, negamax(&root, r.depth, 0), "seed {seed}");
                continue;
            }
            assert_eq!(got, want, "seed {seed} depth {depth}");
            // The move played reaches that value.
            let mut child = root.clone();
            child.play(r.best_move);
            assert_eq!(
                -negamax(&child, depth - 1, 1),
                want,
                "seed {seed} depth {depth}"
            );
        }
    }
}

/// Plain negamax that searches a node at the horizon on while it is not quiet and its
/// ply is below `horizon`.
fn negamax_quiet(pos: &Tree, depth: u32, ply: u32, horizon: u32) -> i32 {
    let side = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return crate::score::proven(o.result_for(side), ply, 0);
    }
    if ply > 0 {
        if let Some(v) = TreeEval.verdict(pos) {
            return crate::score::proven(v.result, ply, v.plies);
        }
    }
    let depth = if depth == 0 && ply < horizon && !Variant::quiet(pos) {
        1
    } else {
        depth
    };
    if depth == 0 {
        return TreeEval.evaluate(pos);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = pos.clone();
            c.play(m);
            -negamax_quiet(&c, depth - 1, ply + 1, horizon)
        })
        .max()
        .unwrap()
}

#[test]
fn positions_that_are_not_quiet_are_searched_past_the_horizon_as_far_as_allowed() {
    let mut differ = 0;
    for (seed, root) in roots().take(80) {
        for quiescence in [0, 1, 3] {
            let mut ab = AlphaBeta::new(
                Config {
                    table_bytes: 1 << 16,
                    max_depth: 12,
                    quiescence,
                },
                Arc::new(Variant::restless()),
            );
            for depth in 1..=5 {
                ab.clear();
                let r = ab.search(&root, Limit::Depth(depth)).unwrap();
                let got = match r.score {
                    Score::Eval(v) => v,
                    Score::Proven { result, plies } => crate::score::proven(result, 0, plies),
                };
                if r.depth < depth {
                    // A proven result ends the deepening early.
                    assert!(got.abs() > crate::PROVEN, "seed {seed} depth {depth}");
                    continue;
                }
                let want = negamax_quiet(&root, depth, 0, depth + quiescence);
                assert_eq!(
                    got, want,
                    "seed {seed} depth {depth} quiescence {quiescence}"
                );
                differ += usize::from(quiescence > 0 && want != negamax(&root, depth, 0));
            }
        }
    }
    assert!(differ > 20, "quiescence changed only {differ} values");
}

#[test]
fn children_scored_together_search_exactly_as_one_by_one() {
    let mut batches = 0;
    for (seed, root) in roots().take(60) {
        for depth in 1..=6 {
            let one = tree_searcher(Arc::new(TreeEval))
                .search(&root, Limit::Depth(depth))
                .unwrap();
            let eval = Arc::new(Variant::together());
            let together = tree_searcher(eval.clone())
                .search(&root, Limit::Depth(depth))
                .unwrap();
            assert_eq!(
                (
                    together.score,
                    together.best_move,
                    together.nodes,
                    together.depth
                ),
                (one.score, one.best_move, one.nodes, one.depth),
                "seed {seed} depth {depth}"
            );
            batches += eval
                .batches
                .as_ref()
                .unwrap()
                .load(std::sync::atomic::Ordering::Relaxed);
        }
    }
    assert!(batches > 0, "no frontier node scored its children together");
}

#[test]
fn forced_only_finds_exactly_the_forced_results_of_the_full_evaluation() {
    // A forced result's value does not depend on the leaves' values, so a search that
    // scores them all 0 proves what plain negamax over the evaluation proves, and the
    // rest is 0.
    let (mut proven, mut open) = (0, 0);
    for (seed, root) in roots() {
        let mut ab = tree_searcher(Arc::new(quasar_core::ForcedOnly(Arc::new(TreeEval))));
        for depth in 1..=7 {
            ab.clear();
            let r = ab.search(&root, Limit::Depth(depth)).unwrap();
            let want = negamax(&root, r.depth.max(1), 0);
            match r.score {
                Score::Eval(v) => {
                    assert!(want.abs() <= crate::PROVEN, "seed {seed} depth {depth}");
                    assert_eq!(v, 0, "seed {seed} depth {depth}");
                    open += 1;
                }
                Score::Proven { result, plies } => {
                    assert_eq!(
                        crate::score::proven(result, 0, plies),
                        want,
                        "seed {seed} depth {depth}"
                    );
                    proven += 1;
                }
            }
        }
    }
    assert!(proven > 100 && open > 100, "{proven} proven, {open} open");
}

/// The take-away positions' ply cap: out of reach, so that they are won or lost, never drawn.
const NO_CAP: u8 = u8::MAX;

struct Flat;

impl Evaluation<Nim> for Flat {
    fn evaluate(&self, pos: &Nim) -> i32 {
        pos.piles[0] as i32 - pos.piles[1] as i32
    }
    fn scale(&self) -> f64 {
        10.0
    }
    fn name(&self) -> &'static str {
        "flat"
    }
}

#[test]
fn proven_results_equal_a_brute_force_solve() {
    let mut brute = Brute::default();
    for a in 0..=9u8 {
        for b in 0..=9u8 {
            let pos = Nim::new([a, b], NO_CAP);
            let mut ab = AlphaBeta::new(Config::default(), Arc::new(Flat));
            if pos.outcome().is_some() {
                assert_eq!(
                    ab.search(&pos, Limit::Depth(4)).unwrap_err(),
                    SearchError::GameOver
                );
                continue;
            }
            let (result, plies) = brute.solve(&pos);
            let r = ab.search(&pos, Limit::Depth(40)).unwrap();
            match r.score {
                Score::Proven {
                    result: got,
                    plies: p,
                } => {
                    assert_eq!(got, result, "{a} {b}");
                    // A win is never claimed sooner than it can come, a loss never later.
                    if result == GameResult::Win {
                        assert!(p >= plies, "{a} {b}: {p} < {plies}");
                        let mut c = pos.clone();
                        c.play(r.best_move);
                        assert_eq!(brute.solve(&c).0, GameResult::Loss, "{a} {b}");
                    } else {
                        assert!(p <= plies, "{a} {b}: {p} > {plies}");
                    }
                }
                other => panic!("{a} {b}: not proven: {other:?}"),
            }
        }
    }
}

#[test]
fn limits_stop_the_search_and_still_name_a_legal_move() {
    let pos = Nim::new([40, 40], NO_CAP);
    let mut ab = AlphaBeta::new(Config::default(), Arc::new(Flat));
    let r = ab.search(&pos, Limit::Nodes(5000)).unwrap();
    assert!(r.nodes < 5000 + 2048, "{}", r.nodes);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.contains(&r.best_move));
    let t = std::time::Duration::from_millis(30);
    let r = ab.search(&pos, Limit::Time(t)).unwrap();
    assert!(legal.contains(&r.best_move) && r.depth >= 1);
}

#[test]
fn a_search_with_moves_left_out_is_the_best_of_the_others() {
    use quasar_core::progress::Watch;
    for (seed, root) in roots().take(60) {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut ab = tree_searcher(Arc::new(TreeEval));
        for depth in 1..=5 {
            // The table of the full search stays: a search with a move left out must not
            // be misled by it, nor leave a wrong root value behind.
            let full = ab.search(&root, Limit::Depth(depth)).unwrap();
            let out = [full.best_move];
            let rest = ab.search_with(&root, Limit::Depth(depth), &out, &mut Watch::none());
            if moves.len() == 1 {
                assert_eq!(rest.unwrap_err(), SearchError::NoMoveLeft, "seed {seed}");
                continue;
            }
            let r = rest.unwrap();
            assert_ne!(r.best_move, full.best_move, "seed {seed}");
            if r.depth < depth {
                continue; // stopped early by a proof
            }
            let want = moves
                .iter()
                .filter(|&&m| m != full.best_move)
                .map(|&m| {
                    let mut c = root.clone();
                    c.play(m);
                    -negamax(&c, depth - 1, 1)
                })
                .max()
                .unwrap();
            let got = match r.score {
                Score::Eval(v) => v,
                Score::Proven { result, plies } => crate::score::proven(result, 0, plies),
            };
            assert_eq!(got, want, "seed {seed} depth {depth}");
            let again = ab.search(&root, Limit::Depth(depth)).unwrap();
            assert_eq!(again.score, full.score, "seed {seed} depth {depth}");
        }
    }
}

#[test]
fn the_watch_sees_every_finished_depth_and_its_flag_stops_the_search() {
    use quasar_core::progress::{SearchInfo, Watch};
    use std::sync::atomic::AtomicBool;
    let (_, root) = roots().next().unwrap();
    let mut ab = tree_searcher(Arc::new(TreeEval));
    let mut seen: Vec<(Option<u32>, u64, u8)> = Vec::new();
    let mut observer = |i: &SearchInfo<u8>| seen.push((i.depth, i.nodes, i.pv[0]));
    let mut watch = Watch {
        stop: None,
        observer: Some(&mut observer),
        interval: std::time::Duration::ZERO,
    };
    let r = ab
        .search_with(&root, Limit::Depth(6), &[], &mut watch)
        .unwrap();
    drop(watch);
    let depths: Vec<Option<u32>> = seen.iter().map(|s| s.0).collect();
    let want: Vec<Option<u32>> = (1..=r.depth).map(Some).collect();
    assert_eq!(depths, want);
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "nodes grow");
    assert_eq!(seen.last().unwrap().2, r.best_move);
    // A raised flag stops the search at its first look: a legal move and no depth.
    let mut watch = Watch::none();
    watch.stop = Some(Arc::new(AtomicBool::new(true)));
    let deep = Tree {
        height: 60,
        ..root.clone()
    };
    let r = ab
        .search_with(&deep, Limit::Depth(12), &[], &mut watch)
        .unwrap();
    let mut moves = Vec::new();
    deep.legal_moves(&mut moves);
    assert!(moves.contains(&r.best_move));
    assert!(
        r.nodes <= 2 * crate::limits::CHECK_EVERY,
        "{} nodes",
        r.nodes
    );
}

/// Nim known to the end, naming at the root the last winning move in the legal order (a
/// choice among equal proofs the search could not make) and no move below it.
#[derive(Debug, Default)]
struct LastWinningMove(std::sync::Mutex<Brute>);

impl LastWinningMove {
    fn value(&self, pos: &Nim) -> GameResult {
        self.0.lock().unwrap().solve(pos).0
    }
}

impl quasar_core::Oracle<Nim> for LastWinningMove {
    fn probe(&self, pos: &Nim) -> Option<quasar_core::ProvenOutcome<u8>> {
        Some(quasar_core::ProvenOutcome {
            result: self.value(pos),
            plies: None,
            best_move: None,
        })
    }

    fn probe_root(&self, pos: &Nim) -> Option<quasar_core::ProvenOutcome<u8>> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let winning = moves.into_iter().rev().find(|&m| {
            let mut c = pos.clone();
            c.play(m);
            self.value(&c) == GameResult::Loss
        });
        Some(quasar_core::ProvenOutcome {
            best_move: winning,
            ..self.probe(pos)?
        })
    }
}

#[test]
fn the_oracles_root_move_is_played_and_a_search_with_moves_left_out_searches() {
    let oracle = Arc::new(LastWinningMove::default());
    let mut played = 0;
    for a in 1..=6u8 {
        for b in 0..=6u8 {
            let pos = Nim::new([a, b], NO_CAP);
            let mut ab =
                AlphaBeta::new(Config::default(), Arc::new(Flat)).with_oracle(oracle.clone());
            let named = quasar_core::Oracle::probe_root(oracle.as_ref(), &pos).unwrap();
            let r = ab.search(&pos, Limit::Depth(6)).unwrap();
            match named.best_move {
                Some(mv) => {
                    assert_eq!((r.best_move, r.pv.clone()), (mv, vec![mv]), "{a} {b}");
                    assert!(matches!(
                        r.score,
                        Score::Proven {
                            result: GameResult::Win,
                            ..
                        }
                    ));
                    played += 1;
                    // Without that move the search looks among the others.
                    let mut legal = Vec::new();
                    pos.legal_moves(&mut legal);
                    if legal.len() > 1 {
                        let none = &mut quasar_core::progress::Watch::none();
                        let rest = ab.search_with(&pos, Limit::Depth(6), &[mv], none).unwrap();
                        assert!(rest.depth >= 1 && rest.best_move != mv, "{a} {b}");
                    }
                }
                // A lost root names no move: the search plays one of its own, proven lost.
                None => assert!(r.depth >= 1, "{a} {b}"),
            }
        }
    }
    assert!(played > 10, "{played}");
}
