//! Tests of the evaluation in the search: the values of implicit minimax backups against an
//! independent negamax of the tree's evaluated leaves, in both stores, and what backups and
//! priors change in a search of few simulations.

use crate::config::{Config, Parallelism};
use crate::playout::UniformPolicy;
use crate::searcher::Searcher;
use crate::shallow::{Shallow, ShallowValue};
use crate::shared::SharedTree;
use crate::store::{to_value, Proof, Store, VALUE_HALF, VALUE_ONE};
use crate::tests::run_worker;
use crate::worker::{self, Scratch, Settings, Stop, Worker};
use quasar_core::testing::{Brute, Nim};
use quasar_core::Limit;
use quasar_core::{win_chance, Evaluation, Game, GameResult};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// An evaluation with many distinct values and no meaning, so that every max matters.
struct Scrambled;

impl Evaluation<Nim> for Scrambled {
    fn evaluate(&self, pos: &Nim) -> i32 {
        let (a, b, p) = (pos.piles[0] as i32, pos.piles[1] as i32, pos.ply as i32);
        (a * 37 + b * 61 + p * 17) % 400 - 200
    }
    fn scale(&self) -> f64 {
        100.0
    }
    fn name(&self) -> &'static str {
        "scrambled"
    }
}

/// Take-away's exact rule as an evaluation: the side to move wins when the piles' sizes
/// modulo 4 differ (their Grundy values' xor is not 0).
struct Grundy;

impl Evaluation<Nim> for Grundy {
    fn evaluate(&self, pos: &Nim) -> i32 {
        if pos.piles[0] % 4 != pos.piles[1] % 4 {
            300
        } else {
            -300
        }
    }
    fn scale(&self) -> f64 {
        100.0
    }
    fn name(&self) -> &'static str {
        "grundy"
    }
}

/// The minimax value of node `id` (at `pos`) for its mover, computed afresh from the
/// evaluation of the tree's leaves: a finished leaf scores its result, an unexpanded one
/// the evaluation's chance for its mover, an expanded node one less its best child (a
/// proven child counting as its proof).
fn negamax<S: Store<u8>>(s: &S, id: S::Id, pos: &Nim, eval: &dyn Evaluation<Nim>) -> u16 {
    if !s.is_expanded(id) {
        return match pos.outcome() {
            Some(o) => match o.result_for(s.mover(id)) {
                GameResult::Win => VALUE_ONE,
                GameResult::Loss => 0,
                GameResult::Draw => VALUE_HALF,
            },
            None => to_value(1.0 - win_chance(eval.evaluate(pos), eval.scale())),
        };
    }
    let best = s
        .children(id)
        .map(|c| match s.proof(c).0 {
            Proof::Win => VALUE_ONE,
            Proof::Loss => 0,
            Proof::Draw => VALUE_HALF,
            Proof::Unknown => negamax(s, c, &pos.after(s.mv(c).unwrap()), eval),
        })
        .max()
        .unwrap();
    VALUE_ONE - best
}

/// Checks every expanded node's stored value against [`negamax`]; returns how many.
fn check_values<S: Store<u8>>(s: &S, id: S::Id, pos: &Nim, eval: &dyn Evaluation<Nim>) -> usize {
    if !s.is_expanded(id) {
        return 0;
    }
    assert_eq!(s.value(id), negamax(s, id, pos, eval), "{pos:?}");
    s.children(id)
        .map(|c| check_values(s, c, &pos.after(s.mv(c).unwrap()), eval))
        .sum::<usize>()
        + 1
}

#[test]
fn backed_up_values_are_the_negamax_of_the_evaluated_leaves() {
    let pos = Nim::new([7, 9], 30);
    let config = Config {
        playout: UniformPolicy,
        imb: 0.5,
        ..Config::default()
    };
    let eval = Scrambled;
    let settings = Settings::new(&config, None, Some(&eval as &dyn Evaluation<Nim>));
    let (w, _) = run_worker(&pos, &settings, 3, 1 << 16, 2_000);
    let checked = check_values(&w.tree, 0, &pos, &eval);
    assert!(checked > 200, "only {checked} expanded nodes");
    // The root's value is one less its best child's, which leaves differ in.
    assert_ne!(w.tree.value(0), VALUE_HALF);

    // The shared tree, driven by one thread so that no backup races another.
    let tree = SharedTree::<u8>::new(pos.side_to_move(), 1 << 16);
    let mut store = &tree;
    let mut scratch = Scratch::<Nim>::new(3, 0);
    worker::ready_root(&mut store, &pos, None, settings.heuristic, &mut scratch);
    let mut path = Vec::new();
    let flag = AtomicBool::new(false);
    let stop = Stop {
        flag: &flag,
        deadline: None,
        max_sims: 2_000,
    };
    worker::run(
        &mut store,
        &mut path,
        &mut scratch,
        &pos,
        &settings,
        &stop,
        &mut |_, _| {},
    );
    let checked = check_values(&store, store.root(), &pos, &eval);
    assert!(checked > 200, "only {checked} expanded nodes");
}

/// How many of `seeds` searches of `sims` simulations from a won take-away position play
/// a winning move, with `imb` and `prior` and the exact rule as evaluation.
fn winning_choices(imb: f64, prior: u32, sims: u64, threads: usize, p: Parallelism) -> usize {
    let pos = Nim::new([9, 14], 60);
    (0..20u64)
        .filter(|&seed| {
            let config = Config {
                playout: UniformPolicy,
                imb,
                prior,
                seed,
                threads,
                parallelism: p,
                ..Config::default()
            };
            let mut s = Searcher::with_evaluation(config, None, Some(Arc::new(Grundy)));
            let mv = s.search(&pos, Limit::Count(sims)).best_move.unwrap();
            let after = pos.after(mv);
            after.piles[0] % 4 == after.piles[1] % 4
        })
        .count()
}

#[test]
fn the_evaluation_steers_a_search_of_few_simulations_to_its_move() {
    // Six moves, two of which win; random playouts of long take-away games say little.
    let plain = winning_choices(0.0, 0, 40, 1, Parallelism::Root);
    let imb = winning_choices(0.5, 0, 40, 1, Parallelism::Root);
    let prior = winning_choices(0.0, 10, 40, 1, Parallelism::Root);
    assert!(
        plain <= 12,
        "plain MCTS found a winning move {plain} times in 20"
    );
    assert!(imb >= 19, "with backups: {imb} in 20");
    assert!(prior >= 19, "with priors: {prior} in 20");
    // Both parallel modes carry the evaluation to their helper threads.
    assert!(winning_choices(0.5, 0, 80, 2, Parallelism::Tree) >= 19);
    assert!(winning_choices(0.0, 10, 80, 2, Parallelism::Root) >= 19);
}

#[test]
fn priors_leave_expansion_to_real_visits() {
    // Every node starts with 10 virtual visits: a leaf is still expanded at its second
    // real visit, so a simulation adds at most one expanded node.
    let pos = Nim::new([7, 9], 40);
    let sims = 300;
    let config = Config {
        playout: UniformPolicy,
        prior: 10,
        ..Config::default()
    };
    let eval = Grundy;
    let settings = Settings::new(&config, None, Some(&eval as &dyn Evaluation<Nim>));
    let (w, ran) = run_worker(&pos, &settings, 1, 1 << 16, sims);
    let t = &w.tree;
    let expanded = (0..t.len() as u32).filter(|&i| t.is_expanded(i)).count() as u64;
    assert!(
        expanded <= ran + 1 && expanded >= ran / 3,
        "{expanded} of {ran}"
    );
    // The root's children: 10 virtual visits at the evaluation's chance, then real ones.
    for c in t.children(0) {
        let n = t.node(c);
        assert!(n.visits >= 10);
        if n.proof == Proof::Unknown && n.visits == 10 {
            let want = (20.0 * crate::store::chance(n.value)).round() as u32;
            assert_eq!(n.score2, want);
        }
    }
}

/// Plain negamax to `depth` without pruning, and on through positions that are not quiet
/// while the ply is below `horizon`, scoring the game's end `WIN - plies` for the winner as
/// the shallow search does: the independent check of its values.
fn plain(pos: &Nim, depth: u32, horizon: u32, eval: &dyn Evaluation<Nim>) -> ShallowValue {
    const WIN: i64 = 1 << 40;
    fn go(pos: &Nim, depth: u32, ply: u32, horizon: u32, eval: &dyn Evaluation<Nim>) -> i64 {
        if let Some(o) = pos.outcome() {
            return match o.result_for(pos.side_to_move()) {
                GameResult::Win => WIN - ply as i64,
                GameResult::Loss => -(WIN - ply as i64),
                GameResult::Draw => 0,
            };
        }
        let depth = if depth == 0 && ply < horizon && !eval.is_quiet(pos) {
            1
        } else {
            depth
        };
        if depth == 0 {
            return eval.evaluate(pos) as i64;
        }
        pos.moves()
            .into_iter()
            .map(|mv| -go(&pos.after(mv), depth - 1, ply + 1, horizon, eval))
            .max()
            .unwrap()
    }
    let v = go(pos, depth, 0, horizon, eval);
    if v > WIN / 2 {
        ShallowValue::Proven(GameResult::Win, (WIN - v) as u32)
    } else if v < -WIN / 2 {
        ShallowValue::Proven(GameResult::Loss, (WIN + v) as u32)
    } else {
        ShallowValue::Eval(v as i32)
    }
}

/// The unfinished positions of piles below `stones` each, with a near and a far cap.
fn unfinished(stones: u8) -> impl Iterator<Item = Nim> {
    (0..stones)
        .flat_map(move |a| {
            (0..stones).flat_map(move |b| [3u8, 40].map(|cap| Nim::new([a, b], cap)))
        })
        .filter(|pos| pos.outcome().is_none())
}

#[test]
fn the_shallow_search_equals_plain_negamax_and_its_proofs_are_exact() {
    let mut shallow = Shallow::<Nim>::default();
    let mut brute = Brute::default();
    let mut proofs = 0;
    for pos in unfinished(8) {
        for depth in 0..5 {
            let got = shallow.value(&Scrambled, &pos, depth, 0);
            assert_eq!(
                got,
                plain(&pos, depth, depth, &Scrambled),
                "{pos:?} depth {depth}"
            );
            // A forced result is the game's exact value and length.
            if let ShallowValue::Proven(r, plies) = got {
                assert_eq!((r, plies), brute.solve(&pos), "{pos:?} depth {depth}");
                proofs += 1;
            }
        }
    }
    assert!(proofs > 50, "only {proofs} forced results");
}

/// [`Scrambled`] with every position whose piles sum to an odd number not quiet.
struct Restless;

impl Evaluation<Nim> for Restless {
    fn evaluate(&self, pos: &Nim) -> i32 {
        Scrambled.evaluate(pos)
    }
    fn scale(&self) -> f64 {
        Scrambled.scale()
    }
    fn is_quiet(&self, pos: &Nim) -> bool {
        pos.piles.iter().map(|&p| p as u32).sum::<u32>() % 2 == 0
    }
    fn name(&self) -> &'static str {
        "scrambled, restless"
    }
}

#[test]
fn the_shallow_search_goes_past_its_horizon_while_positions_are_not_quiet() {
    let mut shallow = Shallow::<Nim>::default();
    let mut differ = 0;
    for pos in unfinished(8) {
        for depth in 0..3 {
            for quiescence in [0, 1, 4] {
                let got = shallow.value(&Restless, &pos, depth, quiescence);
                let want = plain(&pos, depth, depth + quiescence, &Restless);
                assert_eq!(got, want, "{pos:?} depth {depth} quiescence {quiescence}");
                differ += usize::from(got != plain(&pos, depth, depth, &Restless));
            }
        }
    }
    assert!(differ > 20, "quiescence changed only {differ} values");
}

#[test]
fn a_deeper_search_proves_children_at_expansion() {
    // [4, 0]: every move leaves 1 to 3 stones, which the opponent takes: the shallow search
    // of depth 1 from each child sees it, the evaluation alone does not.
    let pos = Nim::new([4, 0], 40);
    for (depth, want) in [(0, Proof::Unknown), (1, Proof::Loss)] {
        let config = Config {
            playout: UniformPolicy,
            prior_depth: depth,
            ..Config::default()
        };
        let mut w = Worker::<Nim>::new(1, 0);
        let settings = Settings::new(&config, None, Some(&Scrambled));
        w.prepare(&pos, 1 << 10, None, settings.heuristic);
        let root = w.tree.root();
        for c in w.tree.children(root) {
            assert_eq!(w.tree.proof(c).0, want, "depth {depth}");
        }
        // Every child lost: the root is proven at once, a win for the side that moved
        // into it (proofs are stored from the view of a node's mover).
        let root_proof = w.tree.proof(root).0;
        assert_eq!(root_proof == Proof::Win, depth == 1, "depth {depth}");
    }
}

/// [`Grundy`], counting its calls.
struct Counted(AtomicU64);

impl Evaluation<Nim> for Counted {
    fn evaluate(&self, pos: &Nim) -> i32 {
        self.0.fetch_add(1, Ordering::Relaxed);
        Grundy.evaluate(pos)
    }
    fn scale(&self) -> f64 {
        100.0
    }
    fn name(&self) -> &'static str {
        "counted"
    }
}

#[test]
fn a_full_tree_evaluates_no_children_it_refuses() {
    // Children are evaluated before the store takes them; once the node budget is full,
    // no expansion may evaluate any more, in either store.
    for (threads, parallelism) in [(1, Parallelism::Root), (2, Parallelism::Tree)] {
        let eval = Arc::new(Counted(Default::default()));
        let config = Config {
            playout: UniformPolicy,
            prior: 10,
            node_budget: 200,
            threads,
            parallelism,
            ..Config::default()
        };
        let mut s = Searcher::with_evaluation(config, None, Some(eval.clone()));
        let r = s.search(&Nim::new([9, 14], 60), Limit::Count(20_000));
        assert!(r.budget_full);
        let calls = eval.0.load(Ordering::Relaxed);
        // Every evaluated child became a node (none here is proven lost at creation): the
        // budget less the root. In a shared tree a thread that loses the race to expand a
        // node has evaluated its children (at most 6) in vain; a few such races are
        // allowed, not one a simulation.
        let most = if threads == 1 { 199 } else { 199 + 4 * 6 };
        assert!(
            calls <= most,
            "{calls} evaluations for a budget of 200 nodes"
        );
    }
}

/// A uniform playout policy that counts its playouts.
#[derive(Clone, Debug, Default)]
struct Counting(Arc<AtomicU64>);

impl crate::playout::PlayoutPolicy<Nim> for Counting {
    fn run(
        &self,
        pos: &mut Nim,
        ctx: &mut crate::playout::PlayoutContext<'_, Nim>,
    ) -> quasar_core::Outcome {
        self.0.fetch_add(1, Ordering::Relaxed);
        crate::playout::PlayoutPolicy::run(&UniformPolicy, pos, ctx)
    }
}

#[test]
fn leaves_scored_by_the_evaluation_run_no_playout_and_keep_its_mean() {
    use crate::config::Leaf;
    let pos = Nim::new([9, 14], 60);
    for leaf in [Leaf::Playout, Leaf::Evaluation] {
        let playouts = Arc::new(AtomicU64::new(0));
        let config = Config {
            playout: Counting(playouts.clone()),
            imb: 0.5,
            leaf,
            seed: 3,
            ..Config::default()
        };
        let mut s = Searcher::with_evaluation(config, None, Some(Arc::new(Grundy)));
        let r = s.search(&pos, Limit::Count(2000));
        let ran = playouts.load(Ordering::Relaxed);
        match leaf {
            Leaf::Playout => assert!(ran > 1000, "{ran} playouts"),
            Leaf::Evaluation => assert_eq!(ran, 0, "the evaluation scores every leaf"),
        }
        // Either way the exact rule steers the search to a winning move.
        let after = pos.after(r.best_move.unwrap());
        assert_eq!(after.piles[0] % 4, after.piles[1] % 4, "{leaf:?}");
    }
    // Without an evaluation in use the leaf falls back to a playout.
    let playouts = Arc::new(AtomicU64::new(0));
    let config = Config {
        playout: Counting(playouts.clone()),
        leaf: Leaf::Evaluation,
        ..Config::default()
    };
    let mut s = Searcher::with_evaluation(config, None, None);
    s.search(&pos, Limit::Count(200));
    assert!(playouts.load(Ordering::Relaxed) > 100);
}

#[test]
fn a_sampled_leaf_score_has_the_evaluations_mean_and_the_least_spread() {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let me = quasar_core::Side::First;
    for p in [0.0, 0.1, 0.5, 0.8, 1.0] {
        let (mut sum, n) = (0.0, 20_000);
        for _ in 0..n {
            let o = worker::sampled_outcome(p, me, &mut rng);
            let score = o.result_for(me).score();
            // A score at most half a point from the mean: never a loss when p > 1/2.
            assert!((score - p).abs() <= 0.5 + 1e-9, "{p}: {o:?}");
            sum += score;
        }
        assert!(
            (sum / n as f64 - p).abs() < 0.01,
            "{p}: mean {}",
            sum / n as f64
        );
    }
}

/// Whether `pos`'s side to move wins (or loses) by force within `depth` plies, by plain
/// negamax over the game's ends alone: the independent check of [`Shallow::forced`].
fn forced_plain(pos: &Nim, depth: u32) -> Option<GameResult> {
    if let Some(o) = pos.outcome() {
        return Some(o.result_for(pos.side_to_move())).filter(|r| *r != GameResult::Draw);
    }
    if depth == 0 {
        return None;
    }
    let kids: Vec<_> = pos
        .moves()
        .into_iter()
        .map(|mv| forced_plain(&pos.after(mv), depth - 1))
        .collect();
    if kids.contains(&Some(GameResult::Loss)) {
        Some(GameResult::Win)
    } else if kids.iter().all(|k| *k == Some(GameResult::Win)) {
        Some(GameResult::Loss)
    } else {
        None
    }
}

#[test]
fn the_forced_search_finds_exactly_the_forced_results_within_its_plies() {
    let mut shallow = Shallow::<Nim>::default();
    let mut brute = Brute::default();
    let (mut wins, mut losses, mut cut_short) = (0, 0, 0);
    for pos in unfinished(9) {
        for depth in 1..6 {
            let got = shallow.forced(&Scrambled, &pos, depth, u64::MAX);
            assert_eq!(
                got.map(|g| g.0),
                forced_plain(&pos, depth),
                "{pos:?} {depth}"
            );
            // A search cut short proves nothing it would not prove whole.
            for limit in [1, 5, 20, 80] {
                let cut = shallow.forced(&Scrambled, &pos, depth, limit);
                assert!(cut.is_none() || cut == got, "{pos:?} {depth} {limit}");
                cut_short += usize::from(cut.is_none() && got.is_some());
            }
            if let Some((r, plies)) = got {
                // The result is the game's; its plies bound the game's length.
                let (exact, length) = brute.solve(&pos);
                assert_eq!(r, exact, "{pos:?} depth {depth}");
                assert!(
                    length <= plies && plies <= depth,
                    "{pos:?} {depth}: {plies}"
                );
                match r {
                    GameResult::Win => wins += 1,
                    _ => losses += 1,
                }
            }
        }
    }
    assert!(wins > 50 && losses > 20, "{wins} wins, {losses} losses");
    assert!(cut_short > 20, "only {cut_short} searches cut short");
}

#[test]
fn nodes_checked_at_their_visits_are_proven_exactly_and_sooner() {
    // 11 against 6 stones, far from the cap: a won position whose proof lies beyond what
    // expansion alone sees in a few simulations.
    let pos = Nim::new([11, 6], 60);
    let mut brute = Brute::default();
    let mut run = |check: Option<crate::config::Check>| {
        let config = Config {
            playout: UniformPolicy,
            imb: 0.3,
            check,
            ..Config::default()
        };
        let settings = Settings::new(&config, None, Some(&Scrambled as &dyn Evaluation<Nim>));
        let (w, sims) = run_worker(&pos, &settings, 5, 1 << 20, 100_000);
        // Every proof in the tree is the game's exact result for the node's mover.
        let mut stack = vec![(w.tree.root(), pos.clone())];
        while let Some((id, p)) = stack.pop() {
            if let Some(r) = w.tree.proof(id).0.result() {
                assert_eq!(r, brute.solve(&p).0.flip(), "{p:?}");
            }
            for c in w.tree.children(id) {
                stack.push((c, p.after(w.tree.mv(c).unwrap())));
            }
        }
        assert_eq!(
            w.tree.proof(w.tree.root()).0,
            Proof::Loss,
            "the mover into the root loses"
        );
        sims
    };
    let without = run(None);
    let with = run(Some(crate::config::Check { after: 2, depth: 4 }));
    assert!(
        2 * with < without,
        "root proven in {with} simulations with checks, {without} without"
    );
}

#[test]
fn a_decided_node_ranks_its_children_by_their_minimax_values_alone() {
    let config = Config {
        playout: UniformPolicy,
        imb: 0.25,
        imb_decided: Some(0.9),
        ..Config::default()
    };
    let eval = Grundy;
    let s = Settings::new(&config, None, Some(&eval as &dyn Evaluation<Nim>));
    // Decided for either side from a winning chance of 0.9, the weight given below it.
    for (chance, alpha) in [
        (0.5, 0.25),
        (0.89, 0.25),
        (0.11, 0.25),
        (0.91, 1.0),
        (0.09, 1.0),
        (1.0, 1.0),
        (0.0, 1.0),
    ] {
        assert_eq!(s.alpha_at(to_value(chance)), alpha, "chance {chance}");
    }
    // Off, or without backups to raise, the weight is the same everywhere.
    let off = Config {
        imb_decided: None,
        ..config.clone()
    };
    let no_backups = Config {
        imb: 0.0,
        ..config.clone()
    };
    for c in [&off, &no_backups] {
        let s = Settings::new(c, None, Some(&eval as &dyn Evaluation<Nim>));
        assert_eq!(s.alpha_at(VALUE_ONE), c.imb as f32);
        assert_eq!(s.alpha_at(0), c.imb as f32);
    }
}
