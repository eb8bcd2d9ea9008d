//! Tests of the whole search on the toy game, for the arena (one tree per thread) and the
//! shared tree (tree parallelism): proofs against brute force at every node, principal
//! variations that play out their proofs, tree reuse and searches of no simulations.

use crate::config::{ChildProbes, Config, Parallelism};
use crate::playout::{PlayoutContext, PlayoutPolicy, UniformPolicy};
use crate::searcher::Searcher;
use crate::shared::SharedTree;
use crate::stats::Report;
use crate::store::Store;
use crate::worker::{self, Scratch, Settings, Stop, Worker};
use quasar_core::testing::{Brute, Nim};
use quasar_core::Limit;
use quasar_core::{Game, GameResult, Outcome};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// A uniform policy that counts its playouts.
#[derive(Clone, Debug, Default)]
struct Counting(Arc<AtomicU64>);

impl PlayoutPolicy<Nim> for Counting {
    fn run(&self, pos: &mut Nim, ctx: &mut PlayoutContext<'_, Nim>) -> Outcome {
        self.0.fetch_add(1, Ordering::Relaxed);
        UniformPolicy.run(pos, ctx)
    }
}

/// Threads and parallelism of the searchers under test: the single arena, two arenas
/// merged at the root, and two threads in one shared tree.
const KINDS: [(usize, Parallelism); 3] = [
    (1, Parallelism::Root),
    (2, Parallelism::Root),
    (2, Parallelism::Tree),
];

fn searcher(threads: usize, parallelism: Parallelism, seed: u64) -> Searcher<Nim, Counting> {
    Searcher::without_oracle(Config {
        threads,
        parallelism,
        seed,
        node_budget: 1 << 18,
        ..Config::default()
    })
}

/// Unfinished toy positions with wins, losses and draws for the side to move.
fn positions() -> Vec<Nim> {
    let mut out = Vec::new();
    for cap in [3, 5, 9] {
        for a in 0..=4 {
            for b in a..=4 {
                for ply in 0..2 {
                    let p = Nim {
                        ply,
                        ..Nim::new([a, b], cap)
                    };
                    if p.outcome().is_none() {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Plays `line` from `pos`, checking each move is legal.
fn play_line(pos: &Nim, line: &[u8]) -> Nim {
    let mut p = pos.clone();
    for &mv in line {
        assert!(
            p.moves().contains(&mv),
            "{pos:?}: {line:?} plays {mv} illegally"
        );
        p.play(mv);
    }
    p
}

#[test]
fn the_solver_proves_every_toy_position_and_its_pv_plays_the_proof() {
    let mut brute = Brute::default();
    for (threads, par) in KINDS {
        let mut seen = [0; 3];
        for pos in positions() {
            let (want, want_plies) = brute.solve(&pos);
            let mut s = searcher(threads, par, 3);
            let r = s.search(&pos, Limit::Count(200_000));
            let what = format!("{threads} {par:?} {pos:?}: {r:?}");
            let p = r.proven.unwrap_or_else(|| panic!("not proven: {what}"));
            assert_eq!(p.result, want, "{what}");
            // Every proven line is a real line: never shorter than best play.
            assert!(p.plies >= want_plies, "{what}");
            let mv = r.best_move.expect("a move");
            let reply = brute.solve(&pos.after(mv));
            assert_eq!(reply.0, want.flip(), "{what}: the move must keep the value");
            let end = play_line(&pos, &r.pv);
            // The principal variation follows the proof to the end of the game. Root
            // parallelism takes it from the calling thread's tree, which may not hold the
            // proof a helper found; in a shared tree a thread still below a node when it
            // is proven can prove a faster line there.
            if want != GameResult::Draw && (threads, par) != (2, Parallelism::Root) {
                let winner = end.outcome().map(|o| o.result_for(pos.side_to_move()));
                assert_eq!(winner, Some(want), "{what}");
                if threads == 1 {
                    assert_eq!(r.pv.len() as u32, p.plies, "{what}");
                }
            }
            seen[match want {
                GameResult::Win => 0,
                GameResult::Loss => 1,
                GameResult::Draw => 2,
            }] += 1;
        }
        assert!(
            seen.iter().all(|&n| n >= 5),
            "wins, losses, draws: {seen:?}"
        );
    }
}

/// Checks every node under `id` (whose position is `pos`): a proof agrees with brute force
/// from the node mover's view, and a node has at least the visits of its children; returns
/// the number of proven nodes.
fn check_nodes<S: Store<u8>>(store: &S, id: S::Id, pos: &Nim, brute: &mut Brute) -> usize {
    let mut proven = 0;
    if let Some(r) = store.proof(id).0.result() {
        let (v, _) = brute.solve(pos);
        let for_mover = if pos.side_to_move() == store.mover(id) {
            v
        } else {
            v.flip()
        };
        assert_eq!(r, for_mover, "{pos:?}");
        proven += 1;
    }
    let mut kid_visits = 0;
    for c in store.children(id) {
        let mv = store.mv(c).expect("children have moves");
        kid_visits += store.stats(c).0;
        proven += check_nodes(store, c, &pos.after(mv), brute);
    }
    assert!(store.stats(id).0 >= kid_visits, "{pos:?}");
    proven
}

#[test]
fn every_proof_in_either_store_agrees_with_brute_force() {
    let mut brute = Brute::default();
    // Big enough that the root stays open for a while, small enough to prove much.
    let pos = Nim::new([5, 6], 12);
    let playout = Counting::default();
    let config = Config {
        playout: playout.clone(),
        ..Config::default()
    };
    let settings = Settings::new(&config, None, None);
    // The arena.
    let (w, sims) = run_worker(&pos, &settings, 1, 1 << 16, 3_000);
    assert!(sims > 100, "{sims}");
    let proven = check_nodes(&w.tree, 0, &pos, &mut brute);
    assert!(proven > 50, "only {proven} proven nodes");
    // The shared tree, grown by two threads at once, with a flag of its own (the arena's
    // proof of its root set the arena's).
    let flag = AtomicBool::new(false);
    let stop = Stop {
        flag: &flag,
        deadline: None,
        max_sims: 3_000,
    };
    let tree = SharedTree::<u8>::new(pos.side_to_move(), 1 << 16);
    let mut store = &tree;
    let mut scratch = Scratch::<Nim>::new(1, 0);
    worker::ready_root(&mut store, &pos, None, settings.heuristic, &mut scratch);
    std::thread::scope(|sc| {
        for i in 0..2 {
            let (tree, pos, settings, stop) = (&tree, &pos, &settings, &stop);
            sc.spawn(move || {
                let mut store = tree;
                let mut scratch = Scratch::<Nim>::new(1, i);
                let mut path = Vec::new();
                worker::run(
                    &mut store,
                    &mut path,
                    &mut scratch,
                    pos,
                    settings,
                    stop,
                    &mut |_, _| {},
                )
            });
        }
    });
    assert!(tree.simulations() > 100, "{}", tree.simulations());
    let proven = check_nodes(&store, store.root(), &pos, &mut brute);
    assert!(proven > 50, "only {proven} proven nodes");
}

/// The root moves and their visits in a report.
fn visits(r: &Report<u8>) -> Vec<(u8, u64)> {
    r.children.iter().map(|c| (c.mv, c.visits)).collect()
}

#[test]
fn tree_reuse_keeps_the_statistics_of_the_position_reached() {
    for weak_hash in [false, true] {
        for (threads, par) in KINDS {
            let pos = Nim {
                weak_hash,
                ..Nim::new([9, 10], 40)
            };
            let what = format!("{threads} {par:?} weak hash {weak_hash}");
            let mut s = searcher(threads, par, 5);
            let r1 = s.search(&pos, Limit::Count(4_000));
            assert_eq!(r1.reused_nodes, 0, "{what}");
            // The same position again: the whole tree and its statistics are kept.
            let again = s.search(&pos, Limit::Count(0));
            assert_eq!(again.reused_nodes, r1.tree_nodes, "{what}");
            assert_eq!(visits(&again), visits(&r1), "{what}");
            assert_eq!(again.simulations, 0, "{what}");
            // Two plies later: the subtree is kept, its root moves are the new position's.
            let after = play_line(&pos, &r1.pv[..2]);
            let r2 = s.search(&after, Limit::Count(0));
            assert!(
                r2.reused_nodes > 10 && r2.reused_nodes < r1.tree_nodes,
                "{what}: kept {} of {}",
                r2.reused_nodes,
                r1.tree_nodes
            );
            let moves: Vec<u8> = r2.children.iter().map(|c| c.mv).collect();
            assert_eq!(moves, after.moves(), "{what}");
            assert!(
                r2.children.iter().map(|c| c.visits).sum::<u64>() > 10,
                "{what}"
            );
            // The kept tree searches on.
            let r3 = s.search(&after, Limit::Count(500));
            assert_eq!(r3.simulations, 500, "{what}");
            assert!(after.moves().contains(&r3.best_move.unwrap()), "{what}");
            // A position the tree does not reach (another cap) starts afresh.
            let other = Nim {
                weak_hash,
                ..Nim::new([9, 10], 41)
            };
            assert_eq!(s.search(&other, Limit::Count(10)).reused_nodes, 0);
            s.clear();
            assert_eq!(s.search(&other, Limit::Count(10)).reused_nodes, 0);
        }
    }
}

#[test]
fn a_search_of_no_simulations_runs_no_playout_and_lists_every_move() {
    for (threads, par) in KINDS {
        let what = format!("{threads} {par:?}");
        // No win in one: the first move, unvisited.
        let pos = Nim::new([6, 7], 40);
        let mut s = searcher(threads, par, 1);
        let r = s.search(&pos, Limit::Count(0));
        assert_eq!(r.simulations, 0, "{what}");
        assert_eq!(s.config().playout.0.load(Ordering::Relaxed), 0, "{what}");
        let moves: Vec<u8> = r.children.iter().map(|c| c.mv).collect();
        assert_eq!(moves, pos.moves(), "{what}");
        assert!(r
            .children
            .iter()
            .all(|c| c.visits == 0 && c.proven.is_none()));
        assert_eq!(r.best_move, Some(pos.moves()[0]), "{what}");
        assert_eq!(
            (r.pv.clone(), r.value, r.proven),
            (vec![pos.moves()[0]], 0.5, None)
        );
        // A win in one is proven at expansion and played.
        let pos = Nim::new([0, 6], 40).after(4 + 3);
        let mut s = searcher(threads, par, 1);
        let r = s.search(&pos, Limit::Count(0));
        assert_eq!(r.simulations, 0, "{what}");
        assert_eq!(r.best_move, Some(4 + 3), "{what}");
        assert_eq!(
            r.proven.map(|p| (p.result, p.plies)),
            Some((GameResult::Win, 1))
        );
        assert_eq!(s.config().playout.0.load(Ordering::Relaxed), 0, "{what}");
    }
}

#[test]
fn simulation_limits_are_exact_over_threads() {
    for (threads, par) in KINDS {
        let pos = Nim::new([20, 20], 200);
        let mut s = searcher(threads, par, 2);
        for n in [1, 7, 1000] {
            let r = s.search(&pos, Limit::Count(n));
            assert_eq!(r.simulations, n, "{threads} {par:?}");
            assert_eq!(s.config().playout.0.swap(0, Ordering::Relaxed), n);
        }
    }
}

#[test]
fn the_root_proven_at_expansion_runs_no_simulation() {
    // Every move of the side to move reaches the cap with stones left: a draw, which
    // expansion alone proves.
    let pos = Nim {
        ply: 4,
        ..Nim::new([3, 3], 5)
    };
    for (threads, par) in KINDS {
        let mut s = searcher(threads, par, 1);
        let r = s.search(&pos, Limit::Count(1000));
        assert_eq!(r.simulations, 0);
        assert_eq!(r.proven.map(|p| p.result), Some(GameResult::Draw));
        assert!(r.children.iter().all(|c| c.proven.is_some()));
        assert_eq!(s.config().playout.0.load(Ordering::Relaxed), 0);
    }
}

/// An oracle that knows the toy positions with at most `stones` stones left (by brute
/// force) and counts its probes.
struct Knows {
    stones: u8,
    brute: std::sync::Mutex<Brute>,
    probes: AtomicU64,
}

impl Knows {
    fn new(stones: u8) -> Arc<Knows> {
        Arc::new(Knows {
            stones,
            brute: Default::default(),
            probes: AtomicU64::new(0),
        })
    }
}

impl quasar_core::Oracle<Nim> for Knows {
    fn probe(&self, pos: &Nim) -> Option<quasar_core::ProvenOutcome<u8>> {
        self.probes.fetch_add(1, Ordering::Relaxed);
        if pos.piles[0] + pos.piles[1] > self.stones {
            return None;
        }
        let (result, plies) = self.brute.lock().expect("not poisoned").solve(pos);
        Some(quasar_core::ProvenOutcome {
            result,
            plies: Some(plies),
            best_move: None,
        })
    }
}

/// When children are probed, each way.
const PROBES: [ChildProbes; 3] = [
    ChildProbes::Expansion,
    ChildProbes::NextVisit,
    ChildProbes::FirstVisit,
];

/// A searcher's configuration on `threads` threads in parallelism `par` whose oracle is
/// asked about children at `when` and never in playouts, which count their runs.
fn probing(threads: usize, par: Parallelism, when: ChildProbes) -> Config<Counting> {
    Config {
        threads,
        parallelism: par,
        playout: Counting::default(),
        oracle_in_playouts: None,
        child_probes: when,
        ..Config::default()
    }
}

/// Runs `sims` simulations of `pos` in one arena with `oracle`, children probed at `when`;
/// returns the tree and the simulations run.
fn arena_search(pos: &Nim, oracle: &Knows, when: ChildProbes, sims: u64) -> (Worker<Nim>, u64) {
    let config = probing(1, Parallelism::Root, when);
    let settings = Settings::new(&config, Some(oracle as &dyn quasar_core::Oracle<Nim>), None);
    run_worker(pos, &settings, 1, 1 << 16, sims)
}

/// Runs one arena seeded `seed`, of `budget` nodes, on `pos` with `settings` for at most
/// `max_sims` simulations; returns it and the simulations run.
pub(crate) fn run_worker<P: PlayoutPolicy<Nim>>(
    pos: &Nim,
    settings: &Settings<'_, Nim, P>,
    seed: u64,
    budget: usize,
    max_sims: u64,
) -> (Worker<Nim>, u64) {
    let flag = AtomicBool::new(false);
    let stop = Stop {
        flag: &flag,
        deadline: None,
        max_sims,
    };
    let mut w = Worker::<Nim>::new(seed, 0);
    w.prepare(pos, budget, settings.oracle, settings.heuristic);
    let ran = w.run(pos, settings, &stop, &mut |_, _| {});
    (w, ran)
}

#[test]
fn lazy_probes_find_the_oracles_proofs_with_fewer_probes() {
    let mut brute = Brute::default();
    let pos = Nim::new([6, 7], 14);
    let (want, _) = brute.solve(&pos);
    for lazy in PROBES {
        // Every proof in the tree is brute force's.
        let (w, _) = arena_search(&pos, &Knows::new(6), lazy, 400);
        let proven = check_nodes(&w.tree, 0, &pos, &mut brute);
        assert!(proven > 20, "{lazy:?}: only {proven} proven nodes");
        // Every kind of searcher proves the root with the oracle's help.
        for (threads, par) in KINDS {
            let config = probing(threads, par, lazy);
            let r = Searcher::new(config, Knows::new(6)).search(&pos, Limit::Count(100_000));
            let what = format!("{lazy:?}, {threads} {par:?}: {r:?}");
            assert_eq!(r.proven.map(|p| p.result), Some(want), "{what}");
        }
    }
    // Far from a proof of the root, the same simulations ask the oracle far less often
    // lazily: most children of a deep node are never visited.
    let pos = Nim::new([12, 12], 40);
    let mut probes = [0; 3];
    for (k, lazy) in PROBES.into_iter().enumerate() {
        let oracle = Knows::new(8);
        let (w, ran) = arena_search(&pos, &oracle, lazy, 2_000);
        assert_eq!(ran, 2_000, "{lazy:?}");
        check_nodes(&w.tree, 0, &pos, &mut brute);
        probes[k] = oracle.probes.load(Ordering::Relaxed);
    }
    // At first visit a simulation probes at most the one child it visits first (and the
    // root's children are probed at once); at expansion every child of every node
    // expanded; at the next visit only those of nodes visited again, fewer.
    let root_children = pos.moves().len() as u64;
    assert!(probes[2] <= 2_000 + root_children, "{probes:?}");
    assert!(
        2 * probes[0] > 3 * probes[2],
        "expansion, next, first visit: {probes:?}"
    );
    assert!(
        probes[1] < probes[0],
        "expansion, next, first visit: {probes:?}"
    );
}

#[test]
fn a_reused_root_expanded_lazily_has_every_child_probed() {
    for (threads, par) in KINDS {
        for lazy in [ChildProbes::NextVisit, ChildProbes::FirstVisit] {
            let oracle = Knows::new(6);
            let mut s = Searcher::new(probing(threads, par, lazy), oracle.clone());
            // Far from the oracle's positions, so that the root stays open; then a position the
            // tree holds below the root, whose children the oracle knows.
            let pos = Nim::new([7, 6], 30);
            s.search(&pos, Limit::Count(300));
            let next = play_line(&pos, &[3, 7]);
            let r = s.search(&next, Limit::Count(0));
            let what = format!("{lazy:?} {threads} {par:?}: {r:?}");
            assert!(r.reused_nodes > 0, "{what}");
            let mut brute = Brute::default();
            for c in &r.children {
                let (v, _) = brute.solve(&next.after(c.mv));
                let p = c.proven.as_ref().unwrap_or_else(|| panic!("{what}"));
                assert_eq!(p.result, v.flip(), "{what}");
            }
        }
    }
}

#[test]
fn the_watch_gets_lines_as_the_search_goes_and_one_of_every_simulation_at_the_end() {
    use quasar_core::progress::{SearchInfo, SearchValue, Watch};
    for (threads, par) in KINDS {
        let pos = Nim::new([20, 20], 200);
        let mut s = searcher(threads, par, 2);
        let mut seen: Vec<(u64, usize)> = Vec::new();
        let mut observer = |i: &SearchInfo<u8>| {
            assert!(matches!(
                i.value,
                SearchValue::Mean(_) | SearchValue::Proven { .. }
            ));
            let visits: Vec<u64> = i.moves.iter().map(|m| m.visits).collect();
            assert!(
                visits.windows(2).all(|w| w[0] >= w[1]),
                "most visited first"
            );
            seen.push((i.simulations.unwrap(), i.pv.len()));
        };
        let mut watch = Watch {
            stop: None,
            observer: Some(&mut observer),
            interval: std::time::Duration::ZERO,
        };
        // Enough simulations that the calling thread, which publishes every 256 of its
        // own, surely publishes while the other threads share the work on a busy machine.
        let r = s.search_with(&pos, Limit::Count(30_000), &mut watch);
        drop(watch);
        let what = format!("{threads} {par:?}");
        assert!(
            seen.len() >= 2,
            "{what}: lines while searching and at the end"
        );
        assert!(
            seen.windows(2).all(|w| w[0].0 <= w[1].0),
            "{what}: {seen:?}"
        );
        assert_eq!(seen.last().unwrap().0, r.simulations, "{what}");
        assert_eq!(r.simulations, 30_000, "{what}");
        assert!(seen.iter().all(|&(_, pv)| pv >= 1), "{what}");
    }
}

#[test]
fn the_watchs_flag_stops_a_search_of_no_limit() {
    for (threads, par) in KINDS {
        let pos = Nim::new([20, 20], 200);
        let mut s = searcher(threads, par, 2);
        let mut watch = quasar_core::progress::Watch::none();
        watch.stop = Some(Arc::new(AtomicBool::new(true)));
        let r = s.search_with(&pos, Limit::Count(u64::MAX), &mut watch);
        // The flag is read where the calling thread publishes, every 256 of its own
        // simulations; other threads run on until then, more of them on a busy machine.
        assert!(
            r.simulations <= 1_000_000,
            "{threads} {par:?}: {}",
            r.simulations
        );
        assert!(r.best_move.is_some());
        // The next search is not stopped by the last one's flag.
        let r = s.search(&pos, Limit::Count(2000));
        assert_eq!(r.simulations, 2000, "{threads} {par:?}");
    }
}
