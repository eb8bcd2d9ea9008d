//! Behaviour of the whole searcher, checked against brute force and the exact solver.

use breakthrough::{Board, Move, Position};
use breakthrough::{BreakthroughPolicy, BreakthroughSearcher};
use mcts::*;
use quasar_core::exact::{ExactOracle, ExactSolver};
use quasar_core::{Game, GameResult, Limit, Outcome, Side};
use quasar_core::{Oracle, ProvenOutcome};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn config(seed: u64, playout: BreakthroughPolicy) -> Config<BreakthroughPolicy> {
    Config {
        seed,
        playout,
        ..Config::default()
    }
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

/// Moves that end the game at once in the mover's favour (brute force over the list).
fn winning_moves(pos: &Position) -> Vec<Move> {
    let me = pos.side();
    legal(pos)
        .into_iter()
        .filter(|&m| {
            let mut c = *pos;
            c.play(m);
            c.outcome() == Some(Outcome::Win(me))
        })
        .collect()
}

/// Random positions reached by random play from the start of `board`, unfinished.
fn random_positions(board: Board, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::start(board);
        let plies = rng.random_range(0..(board.num_cells() as usize));
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            let m = legal(&p);
            p.play(m[rng.random_range(0..m.len())]);
        }
        if p.outcome().is_none() {
            out.push(p);
        }
    }
    out
}

/// Random sparse positions with up to `max` pieces a side, neither side already won.
fn random_endgames(board: Board, max: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut white = 0u64;
        let mut black = 0u64;
        for _ in 0..rng.random_range(1..=max) {
            white |= 1u64 << rng.random_range(0..board.num_cells() - board.width());
        }
        for _ in 0..rng.random_range(1..=max) {
            black |= 1u64 << rng.random_range(board.width()..board.num_cells());
        }
        black &= !white;
        let side = if rng.random_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
        if let Ok(p) = Position::from_parts(board, white, black, side) {
            if p.outcome().is_none() {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn takes_a_win_in_one() {
    let mut tested = 0;
    for board in [Board::new(6, 6).unwrap(), Board::new(8, 8).unwrap()] {
        for pos in random_positions(board, 400, 3) {
            let wins = winning_moves(&pos);
            if wins.is_empty() {
                continue;
            }
            for playout in [BreakthroughPolicy::uniform(), BreakthroughPolicy::default()] {
                let mut s = Searcher::without_oracle(config(1, playout));
                let r = s.search(&pos, Limit::Count(50));
                let mv = r.best_move.unwrap();
                assert!(wins.contains(&mv), "{pos:?}: played {mv:?}, wins {wins:?}");
                assert_eq!(
                    r.proven,
                    Some(Proven {
                        result: GameResult::Win,
                        plies: 1
                    })
                );
            }
            tested += 1;
        }
    }
    assert!(tested >= 20, "only {tested} positions had a win in one");
}

#[test]
fn blocks_a_loss_in_one() {
    let mut tested = 0;
    for board in [Board::new(6, 6).unwrap(), Board::new(8, 8).unwrap()] {
        for pos in random_positions(board, 3000, 5) {
            if !winning_moves(&pos).is_empty() {
                continue;
            }
            let threatened = {
                let mut pass = pos;
                // The opponent would win at once if it were its turn.
                pass = Position::from_parts(
                    pass.board(),
                    pass.white(),
                    pass.black(),
                    pass.side().opponent(),
                )
                .unwrap();
                !winning_moves(&pass).is_empty()
            };
            if !threatened {
                continue;
            }
            // Safe moves: after them the opponent has no immediate win (brute force).
            let safe: Vec<Move> = legal(&pos)
                .into_iter()
                .filter(|&m| {
                    let mut c = pos;
                    c.play(m);
                    winning_moves(&c).is_empty()
                })
                .collect();
            if safe.is_empty() {
                continue;
            }
            for playout in [BreakthroughPolicy::uniform(), BreakthroughPolicy::default()] {
                let mut s = Searcher::without_oracle(config(2, playout));
                let r = s.search(&pos, Limit::Count(3000));
                let mv = r.best_move.unwrap();
                assert!(safe.contains(&mv), "{pos:?}: played {mv:?}, safe {safe:?}");
            }
            tested += 1;
        }
    }
    assert!(tested >= 10, "only {tested} positions had a threat to stop");
}

#[test]
fn solver_proves_small_endgames_the_exact_search_knows() {
    proves_small_endgames(config(3, BreakthroughPolicy::default()));
}

#[test]
fn tree_parallel_solver_proves_the_same_endgames() {
    proves_small_endgames(tree_parallel(config(3, BreakthroughPolicy::default())));
}

/// Two threads sharing one tree.
fn tree_parallel(cfg: Config<BreakthroughPolicy>) -> Config<BreakthroughPolicy> {
    Config {
        threads: 2,
        parallelism: Parallelism::Tree,
        ..cfg
    }
}

/// Searches random 4x4 and 5x5 endgames that the exact solver settles and checks the
/// proven results, their lengths and that a proven win's move keeps the win.
fn proves_small_endgames(cfg: Config<BreakthroughPolicy>) {
    let mut proven = 0;
    for (board, seed) in [
        (Board::new(4, 4).unwrap(), 7),
        (Board::new(5, 5).unwrap(), 8),
    ] {
        for pos in random_endgames(board, 4, 40, seed) {
            let Some(exact) = ExactSolver::<Position>::default().solve(&pos, 40) else {
                continue;
            };
            let mut s = Searcher::without_oracle(cfg.clone());
            let r = s.search(&pos, Limit::Count(300_000));
            let p = r
                .proven
                .unwrap_or_else(|| panic!("{pos:?} not proven: exact {exact:?}"));
            assert_eq!(p.result, exact.result, "{pos:?}");
            // The solver proves some win, not always the fastest; never a faster one.
            assert!(p.plies >= exact.plies, "{pos:?}: {p:?} vs {exact:?}");
            if exact.result == GameResult::Loss {
                assert_eq!(p.plies, exact.plies, "{pos:?}: slowest loss");
            }
            let mut after = pos;
            after.play(r.best_move.unwrap());
            if exact.result == GameResult::Win && after.outcome().is_none() {
                let reply = ExactSolver::<Position>::default()
                    .solve(&after, 40)
                    .unwrap();
                assert_eq!(
                    reply.result,
                    GameResult::Loss,
                    "{pos:?}: the move must keep the win"
                );
            }
            proven += 1;
        }
    }
    assert!(proven >= 40, "only {proven} endgames were compared");
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for (w, h) in [(3, 4), (4, 5), (6, 6), (5, 8), (8, 8)] {
        for pos in random_positions(Board::new(w, h).unwrap(), 25, w as u64 * 10 + h as u64) {
            let playout = if rng.random_bool(0.5) {
                BreakthroughPolicy::uniform()
            } else {
                BreakthroughPolicy::default()
            };
            let cfg = Config {
                threads: rng.random_range(1..=2),
                parallelism: if rng.random_bool(0.5) {
                    Parallelism::Tree
                } else {
                    Parallelism::Root
                },
                node_budget: rng.random_range(1..5000),
                ..config(rng.random(), playout)
            };
            let mut s = Searcher::without_oracle(cfg);
            let limits = if rng.random_bool(0.5) {
                Limit::Count(rng.random_range(0..500))
            } else {
                Limit::Time(Duration::from_millis(2))
            };
            let r = s.search(&pos, limits);
            let mv = r.best_move.expect("unfinished game");
            assert!(legal(&pos).contains(&mv), "{pos:?}: {mv:?}");
            for (i, m) in r.pv.iter().enumerate() {
                let mut p = pos;
                for &prev in &r.pv[..i] {
                    p.play(prev);
                }
                assert!(legal(&p).contains(m), "{pos:?}: pv {:?}", r.pv);
            }
        }
    }
}

#[test]
fn identical_seeds_and_counts_give_identical_searches() {
    let pos = Position::start(Board::new(8, 8).unwrap());
    for playout in [BreakthroughPolicy::uniform(), BreakthroughPolicy::default()] {
        let run = |seed| {
            let mut s = Searcher::without_oracle(config(seed, playout));
            let r = s.search(&pos, Limit::Count(20_000));
            (r.best_move, r.pv, r.children, r.tree_nodes, r.simulations)
        };
        assert_eq!(run(42), run(42));
    }
}

#[test]
fn reuses_the_subtree_the_game_reached() {
    let mut pos = Position::start(Board::new(6, 6).unwrap());
    let mut s = Searcher::without_oracle(config(4, BreakthroughPolicy::default()));
    let r = s.search(&pos, Limit::Count(20_000));
    assert_eq!(r.reused_nodes, 0);
    let pv = r.pv.clone();
    pos.play(pv[0]);
    pos.play(pv[1]);
    let r2 = s.search(&pos, Limit::Count(1_000));
    assert!(r2.reused_nodes > 100, "kept {}", r2.reused_nodes);
    assert!(legal(&pos).contains(&r2.best_move.unwrap()));
    // An unrelated position starts afresh.
    let other = Position::start(Board::new(5, 5).unwrap());
    assert_eq!(s.search(&other, Limit::Count(10)).reused_nodes, 0);
}

#[test]
fn a_full_node_budget_is_reported_and_the_search_goes_on() {
    let pos = Position::start(Board::new(8, 8).unwrap());
    let cfg = Config {
        node_budget: 2_000,
        ..config(5, BreakthroughPolicy::uniform())
    };
    let mut s = Searcher::without_oracle(cfg);
    let r = s.search(&pos, Limit::Count(20_000));
    assert!(r.budget_full);
    assert!(r.tree_nodes <= 2_000);
    assert_eq!(r.simulations, 20_000);
}

#[test]
fn time_limited_search_stops_near_its_budget() {
    let pos = Position::start(Board::new(8, 8).unwrap());
    let mut s = Searcher::without_oracle(config(6, BreakthroughPolicy::default()));
    let r = s.search(&pos, Limit::Time(Duration::from_millis(50)));
    assert!(r.simulations > 0);
    // Generous bound: the machine may be loaded; the benchmark measures the real figure.
    assert!(r.elapsed < Duration::from_millis(500), "{:?}", r.elapsed);
}

/// The exact oracle, except that it will not answer for one position (the root), so that
/// what the test sees comes from the expansion hook.
struct AllBut {
    skip: u64,
    inner: ExactOracle,
    probes: AtomicU64,
    guesses: AtomicU64,
}

impl Oracle<Position> for AllBut {
    fn probe(&self, pos: &Position) -> Option<ProvenOutcome<Move>> {
        self.probes.fetch_add(1, Ordering::Relaxed);
        if pos.hash() == self.skip {
            return None;
        }
        self.inner.probe(pos)
    }

    fn guess(&self, _pos: &Position) -> Option<GameResult> {
        self.guesses.fetch_add(1, Ordering::Relaxed);
        None
    }
}

/// A uniform policy that counts its playouts.
#[derive(Clone, Debug)]
struct Counting(Arc<AtomicU64>);

impl PlayoutPolicy<Position> for Counting {
    fn run(&self, pos: &mut Position, ctx: &mut PlayoutContext<'_, Position>) -> Outcome {
        self.0.fetch_add(1, Ordering::Relaxed);
        UniformPolicy.run(pos, ctx)
    }
}

#[test]
fn oracle_hits_at_expansion_prove_nodes_without_playouts() {
    let exact = ExactOracle {
        max_plies: 40,
        node_limit: 1 << 22,
    };
    let mut checked = 0;
    for pos in random_endgames(Board::new(4, 4).unwrap(), 4, 30, 12)
        .into_iter()
        .chain(random_endgames(Board::new(5, 5).unwrap(), 3, 30, 13))
    {
        let Some(want) = ExactSolver::<Position>::default().solve(&pos, 40) else {
            continue;
        };
        let oracle = Arc::new(AllBut {
            skip: pos.hash(),
            inner: exact,
            probes: AtomicU64::new(0),
            guesses: AtomicU64::new(0),
        });
        let playouts = Arc::new(AtomicU64::new(0));
        let cfg = Config {
            playout: Counting(playouts.clone()),
            node_budget: 1 << 16,
            threads: 1,
            parallelism: Parallelism::Root,
            oracle_in_playouts: std::num::NonZeroU32::new(1),
            expand_after: 1,
            child_probes: mcts::ChildProbes::Expansion,
            max_playout_plies: 1000,
            c: 0.7,
            seed: 1,
            imb: 0.0,
            imb_decided: None,
            prior: 0,
            prior_depth: 0,
            quiescence: 0,
            leaf: mcts::Leaf::Playout,
            check: None,
        };
        let mut s = Searcher::new(cfg, oracle.clone());
        let r = s.search(&pos, Limit::Count(1000));
        // The root's expansion probes every child; they settle the root before any
        // simulation.
        assert_eq!(r.simulations, 0, "{pos:?}");
        assert_eq!(playouts.load(Ordering::Relaxed), 0, "{pos:?}");
        let p = r.proven.expect("proven by the children's probes");
        assert_eq!(p.result, want.result, "{pos:?}");
        assert!(r.children.iter().all(|c| c.proven.is_some()) || p.result == GameResult::Win);
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn oracle_guesses_end_playouts_every_k_plies() {
    // An oracle that knows nothing for sure but guesses: count the consultations.
    let pos = Position::start(Board::new(6, 6).unwrap());
    for (every, expect_some) in [(Some(1), true), (Some(1000), false), (None, false)] {
        let oracle = Arc::new(AllBut {
            skip: 0,
            inner: ExactOracle {
                max_plies: 0,
                node_limit: 0,
            },
            probes: AtomicU64::new(0),
            guesses: AtomicU64::new(0),
        });
        let cfg = Config {
            oracle_in_playouts: every.and_then(std::num::NonZeroU32::new),
            ..config(1, BreakthroughPolicy::uniform())
        };
        let mut s = Searcher::new(cfg, oracle.clone());
        s.search(&pos, Limit::Count(200));
        assert!(oracle.probes.load(Ordering::Relaxed) > 0);
        assert_eq!(
            oracle.guesses.load(Ordering::Relaxed) > 0,
            expect_some,
            "{every:?}"
        );
    }
}

#[test]
fn the_oracle_proving_the_root_a_win_plays_its_move() {
    for pos in random_endgames(Board::new(4, 4).unwrap(), 3, 40, 21) {
        let Some(want) = ExactSolver::<Position>::default().solve(&pos, 40) else {
            continue;
        };
        if want.result != GameResult::Win {
            continue;
        }
        let oracle = Arc::new(ExactOracle {
            max_plies: 40,
            node_limit: 1 << 22,
        });
        let mut s: BreakthroughSearcher =
            Searcher::new(config(1, BreakthroughPolicy::default()), oracle);
        let r = s.search(&pos, Limit::Count(1000));
        assert_eq!(r.simulations, 0);
        assert_eq!(r.best_move, want.best_move);
    }
}

#[test]
fn generic_uniform_policy_plays_too() {
    let pos = Position::from_fen("4/1W2/B3/4 w").unwrap();
    let cfg = Config {
        c: 0.7,
        playout: UniformPolicy,
        ..Config::<UniformPolicy>::default()
    };
    let mut s: Searcher<Position, UniformPolicy> = Searcher::without_oracle(cfg);
    let r = s.search(&pos, Limit::Count(100));
    assert!(winning_moves(&pos).contains(&r.best_move.unwrap()));
}

#[test]
fn finished_games_have_no_move() {
    let pos = Position::from_fen("1W2/4/B3/4 b").unwrap();
    let mut s = Searcher::without_oracle(config(1, BreakthroughPolicy::default()));
    let r = s.search(&pos, Limit::Count(100));
    assert_eq!(r.best_move, None);
    assert_eq!(r.proven.map(|p| p.result), Some(GameResult::Loss));
}

#[test]
fn searchers_move_between_threads_and_two_threads_agree_on_forced_moves() {
    fn assert_send<T: Send>() {}
    assert_send::<BreakthroughSearcher>();
    // Two threads, fixed simulations: each thread's share is reproducible.
    let pos = Position::start(Board::new(6, 6).unwrap());
    let run = || {
        let cfg = Config {
            threads: 2,
            ..config(8, BreakthroughPolicy::default())
        };
        let mut s = Searcher::without_oracle(cfg);
        let r = s.search(&pos, Limit::Count(10_000));
        (r.best_move, r.children, r.simulations)
    };
    let a = run();
    assert_eq!(a, run());
    assert_eq!(a.2, 10_000);
    let pos = Position::from_fen("4/1W2/B3/4 w").unwrap();
    let cfg = Config {
        threads: 2,
        ..config(8, BreakthroughPolicy::default())
    };
    let mut s = Searcher::without_oracle(cfg);
    for _ in 0..3 {
        let r = s.search(&pos, Limit::Time(Duration::from_millis(20)));
        assert!(winning_moves(&pos).contains(&r.best_move.unwrap()));
    }
}

#[test]
fn tree_parallel_search_keeps_limits_wins_and_reuses_its_tree() {
    let pos = Position::start(Board::new(8, 8).unwrap());
    let mut s = Searcher::without_oracle(tree_parallel(config(6, BreakthroughPolicy::default())));
    for _ in 0..3 {
        let r = s.search(&pos, Limit::Time(Duration::from_millis(50)));
        assert!(r.simulations > 0);
        assert_eq!(r.threads, 2);
        // Generous bound: the machine may be loaded; the benchmark measures the real figure.
        assert!(r.elapsed < Duration::from_millis(500), "{:?}", r.elapsed);
    }
    // Exactly the simulations asked for, over both threads, all in the root's children.
    let mut s = Searcher::without_oracle(tree_parallel(config(7, BreakthroughPolicy::default())));
    let r = s.search(&pos, Limit::Count(20_000));
    assert_eq!(r.simulations, 20_000);
    assert_eq!(r.children.iter().map(|c| c.visits).sum::<u64>(), 20_000);
    assert!(r.tree_nodes > 1000);
    let mut after = pos;
    after.play(r.pv[0]);
    after.play(r.pv[1]);
    let r2 = s.search(&after, Limit::Count(1_000));
    assert!(r2.reused_nodes > 100, "kept {}", r2.reused_nodes);
    assert!(legal(&after).contains(&r2.best_move.unwrap()));
    // Wins in one are taken.
    let mut tested = 0;
    for pos in random_positions(Board::new(6, 6).unwrap(), 200, 3) {
        let wins = winning_moves(&pos);
        if wins.is_empty() {
            continue;
        }
        let r = s.search(&pos, Limit::Count(50));
        assert!(wins.contains(&r.best_move.unwrap()), "{pos:?}");
        tested += 1;
    }
    assert!(tested >= 5, "only {tested} positions had a win in one");
}
