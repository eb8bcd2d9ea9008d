//! Every solver and variant against independent references on small random games with
//! cycles: plain minimax that scores a repetition on the current line as a draw, and the
//! naive layered iteration of Sturtevant and Saffidine (their algorithm 1) for exact distances.

// Positions index several parallel arrays at once in these references.
#![allow(clippy::needless_range_loop)]

use quasar_core::{GameResult, Side};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use retro::scored::{solve_exact, solve_interleaved};
use retro::wdl::{solve_wdl, Method, WdlOptions};
use retro::{Child, RetroGame};

/// A random game graph: movers, ends with scores, children (with self-loops, repeats and,
/// optionally, exits with known values).
struct RandomGame {
    mover: Vec<Side>,
    end: Vec<Option<i32>>,
    children: Vec<Vec<Child>>,
    exits: bool,
}

impl RandomGame {
    fn new(seed: u64, n: usize, exits: bool) -> RandomGame {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut g = RandomGame {
            mover: vec![],
            end: vec![],
            children: vec![],
            exits,
        };
        for _ in 0..n {
            g.mover.push(if rng.random_bool(0.5) {
                Side::First
            } else {
                Side::Second
            });
            if rng.random_bool(0.25) {
                // Ends: mostly wins or losses, sometimes a drawn end.
                g.end.push(Some(rng.random_range(-3..=3)));
                g.children.push(vec![]);
            } else {
                g.end.push(None);
                let k = rng.random_range(1..=3);
                let mut ch = Vec::new();
                for _ in 0..k {
                    if exits && rng.random_bool(0.1) {
                        ch.push(Child::Exit {
                            score: rng.random_range(-3..=3),
                            plies: rng.random_range(0..4),
                        });
                    } else {
                        ch.push(Child::Pos(rng.random_range(0..n as u64)));
                    }
                }
                g.children.push(ch);
            }
        }
        g
    }

    /// Minimax over lines, a position repeated on the line scoring 0.
    fn minimax(&self, p: usize, on_line: &mut Vec<bool>) -> i32 {
        if let Some(v) = self.end[p] {
            return v;
        }
        if on_line[p] {
            return 0;
        }
        on_line[p] = true;
        let max = self.mover[p] == Side::First;
        let mut best = if max { i32::MIN } else { i32::MAX };
        for c in &self.children[p] {
            let v = match *c {
                Child::Pos(c) => self.minimax(c as usize, on_line),
                Child::Exit { score, .. } => score,
            };
            best = if max { best.max(v) } else { best.min(v) };
        }
        on_line[p] = false;
        best
    }

    /// Exact win/loss distances by the naive iteration: `W_{i+1}`, `L_{i+1}` from `W_i`, `L_i`.
    /// Returns per position `Some((first wins, plies))` or `None` for draws.
    fn naive_distances(&self) -> Vec<Option<(bool, u32)>> {
        let n = self.mover.len();
        let mut known: Vec<Option<(bool, u32)>> = (0..n)
            .map(|p| match self.end[p] {
                Some(v) if v != 0 => Some((v > 0, 0)),
                _ => None,
            })
            .collect();
        // Exits enter at the layer of their plies, so run past the last of them (at most 3).
        for i in 1..=(4 * n as u32 + 8) {
            let prev = known.clone();
            let child = |c: &Child| -> Option<(bool, u32)> {
                match *c {
                    Child::Pos(c) => prev[c as usize],
                    Child::Exit { score, plies } => (score != 0).then_some((score > 0, plies)),
                }
            };
            for p in 0..n {
                if known[p].is_some() || self.end[p].is_some() {
                    continue;
                }
                let me = self.mover[p] == Side::First;
                let kids: Vec<_> = self.children[p].iter().map(child).collect();
                // Fastest win through a child known (to this layer) won for the mover.
                let win = kids
                    .iter()
                    .flatten()
                    .filter(|(w, d)| *w == me && *d < i)
                    .map(|(_, d)| d + 1)
                    .min();
                if let Some(d) = win {
                    known[p] = Some((me, d));
                } else if kids
                    .iter()
                    .all(|k| matches!(k, Some((w, d)) if *w != me && *d < i))
                {
                    let d = kids.iter().flatten().map(|(_, d)| d + 1).max().unwrap_or(0);
                    known[p] = Some((!me, d));
                }
            }
        }
        known
    }
}

impl RetroGame for RandomGame {
    fn size(&self) -> u64 {
        self.mover.len() as u64
    }
    fn mover(&self, pos: u64) -> Side {
        self.mover[pos as usize]
    }
    fn terminal(&self, pos: u64) -> Option<i32> {
        self.end[pos as usize]
    }
    fn successors(&self, pos: u64, out: &mut Vec<Child>) {
        out.clear();
        out.extend_from_slice(&self.children[pos as usize]);
    }
    fn has_exits(&self) -> bool {
        self.exits
    }
}

fn variants() -> Vec<(Method, WdlOptions)> {
    let mut v = Vec::new();
    for method in [Method::Forward, Method::Backward, Method::Counters] {
        for bits in 0..32u32 {
            let o = WdlOptions {
                win_only: bits & 1 != 0,
                layered: bits & 2 != 0,
                direct: bits & 4 != 0,
                no_dup: bits & 8 != 0,
                parallel: bits & 16 != 0,
            };
            v.push((method, o));
        }
    }
    v
}

#[test]
fn scored_solvers_match_minimax_with_repetition_draws() {
    let mut cycles = 0;
    for seed in 0..300 {
        let g = RandomGame::new(seed, 12, seed % 2 == 1);
        let (exact, _) = solve_exact(&g, &retro::Silent).unwrap();
        let (inter, rep) = solve_interleaved(&g, seed % 3 == 0, &retro::Silent);
        for p in 0..12 {
            let truth = g.minimax(p, &mut vec![false; 12]);
            assert_eq!(
                exact.score(p as u64),
                truth,
                "seed {seed} position {p}: exact"
            );
            // The interleaving settles the sign of every position; its scores may be off.
            assert_eq!(
                inter.score(p as u64).signum(),
                truth.signum(),
                "seed {seed} position {p}: interleaved"
            );
            if truth == 0 && g.end[p].is_none() {
                cycles += 1;
            }
        }
        assert_eq!(rep.positions, 12);
    }
    assert!(
        cycles > 100,
        "the random games must hold drawn cycles ({cycles})"
    );
}

#[test]
fn every_wdl_variant_matches_minimax_and_exact_variants_match_naive_distances() {
    for seed in 0..150 {
        let g = RandomGame::new(1000 + seed, 14, seed % 2 == 1);
        let naive = g.naive_distances();
        for (method, o) in variants() {
            if method == Method::Counters && g.exits {
                assert!(solve_wdl(&g, method, o, &retro::Silent).is_err());
                continue;
            }
            let (table, report) = solve_wdl(&g, method, o, &retro::Silent).unwrap();
            for p in 0..14u64 {
                let truth = g.minimax(p as usize, &mut vec![false; 14]);
                let want = if o.win_only && truth <= 0 {
                    0
                } else {
                    truth.signum()
                };
                let got = match table.winner(p) {
                    Some(Side::First) => 1,
                    Some(Side::Second) => -1,
                    None => 0,
                };
                assert_eq!(got, want, "seed {seed} {method:?} {o:?} position {p}");
                if report.plies_exact && got != 0 {
                    let (_, d) = naive[p as usize].unwrap();
                    let v = table.value(p, g.mover[p as usize]);
                    assert_eq!(
                        v.plies, d,
                        "seed {seed} {method:?} {o:?} position {p} plies"
                    );
                    let r = if (got > 0) == (g.mover[p as usize] == Side::First) {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    };
                    assert_eq!(v.result, r);
                }
            }
            assert_eq!(
                report.first_wins + report.second_wins.unwrap_or(0) + report.undecided,
                14
            );
            assert!(report.iterations >= 1 || method == Method::Counters);
        }
    }
}

#[test]
fn wins_and_losses_counted_by_the_naive_iteration_agree() {
    // The naive iteration is a third, independent reference for the win/loss sets.
    for seed in 0..100 {
        let g = RandomGame::new(5000 + seed, 16, false);
        let naive = g.naive_distances();
        for p in 0..16 {
            let truth = g.minimax(p, &mut vec![false; 16]).signum();
            let n = naive[p].map_or(0, |(w, _)| if w { 1 } else { -1 });
            assert_eq!(n, truth, "seed {seed} position {p}");
        }
    }
}

#[test]
fn an_empty_game_solves_to_empty_tables() {
    let g = RandomGame::new(1, 0, false);
    for (method, o) in variants() {
        let (table, report) = solve_wdl(&g, method, o, &retro::Silent).unwrap();
        assert!(table.is_empty());
        assert_eq!(report.positions, 0);
    }
    assert!(solve_exact(&g, &retro::Silent).unwrap().0.is_empty());
    assert!(solve_interleaved(&g, false, &retro::Silent).0.is_empty());
}
