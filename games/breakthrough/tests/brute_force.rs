//! The generator agrees with an independent brute-force evaluator of the recurrence on
//! every configuration of small tables, and on a random sample of 6x6 with 4 rows.

mod common;

use breakthrough::tablebase::{generate, Generated, Limits, Region};
use breakthrough::Board;
use common::{Brute, EMPTY, INF, WHITE};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn build(w: u32, h: u32, n: u32, limits: Limits) -> Generated {
    let region = Region::new(Board::new(w, h).unwrap(), n).unwrap();
    generate(&region, limits, &breakthrough::tablebase::Silent).unwrap()
}

/// Checks one configuration of the brute force against the generated entries.
fn check(gen: &Generated, bf: &mut Brute, h: usize, g: &[u8]) {
    let d = bf.d(g);
    let (k1, k2) = (bf.key(g), bf.key(&bf.mirror(g)));
    let (key, canon) = if k1 <= k2 {
        (k1, g.to_vec())
    } else {
        (k2, bf.mirror(g))
    };
    let found = gen.entries.binary_search_by_key(&key, |e| e.0);
    if d == INF || d < 2 {
        assert!(found.is_err(), "config {g:?} has D={d} but is stored");
        return;
    }
    let i = found.unwrap_or_else(|_| panic!("config {g:?} has D={d} but is missing"));
    let entry = gen.codec.decode(gen.entries[i].1);
    assert_eq!(entry.depth, d, "depth of {g:?}");
    let b = gen.region.board();
    let from = bf.grid_cell(h, b.col(entry.best_move.from), b.row(entry.best_move.from));
    let to = bf.grid_cell(h, b.col(entry.best_move.to), b.row(entry.best_move.to));
    assert!(
        bf.white_moves(&canon).contains(&(from, to)),
        "best move of {canon:?} is not legal"
    );
    let mut t = canon.clone();
    t[from] = EMPTY;
    t[to] = WHITE;
    assert_eq!(bf.e(&t), d, "best move of {canon:?} does not achieve D");
}

fn exhaustive(w: u32, h: u32, n: u32) {
    let gen = build(w, h, n, Limits::NONE);
    let mut bf = Brute::new(n as usize, w as usize);
    let all = bf.all_configs();
    let formula = 2u64.pow(3 * w) * 3u64.pow(w * (n - 3));
    assert_eq!(all.len() as u64, formula);
    assert_eq!(gen.report.configurations, formula);
    for g in &all {
        check(&gen, &mut bf, h as usize, g);
    }
}

#[test]
fn every_configuration_of_5x5_with_3_rows() {
    exhaustive(5, 5, 3);
}

#[test]
fn every_configuration_of_6x6_with_3_rows() {
    exhaustive(6, 6, 3);
}

#[test]
#[ignore = "minutes: the brute force visits all 7.9 million configurations"]
fn every_configuration_of_5x5_with_4_rows() {
    exhaustive(5, 5, 4);
}

#[test]
fn random_sample_of_6x6_with_4_rows() {
    sample_6x6_with_4_rows(30);
}

#[test]
#[ignore = "many minutes: each random configuration's whole subgame is searched"]
fn large_random_sample_of_6x6_with_4_rows() {
    sample_6x6_with_4_rows(1000);
}

fn sample_6x6_with_4_rows(samples: usize) {
    let gen = build(6, 6, 4, Limits::NONE);
    assert_eq!(gen.report.configurations, 191_102_976);
    let mut bf = Brute::new(4, 6);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for _ in 0..samples {
        let g: Vec<u8> = (0..24)
            .map(|i| {
                let s = bf.states(i / 6);
                s[rng.random_range(0..s.len())]
            })
            .collect();
        check(&gen, &mut bf, 6, &g);
    }
}

/// Counts configurations within limits by brute enumeration, independently of the indexer.
fn limited_count(bf: &Brute, limits: Limits) -> u64 {
    bf.all_configs()
        .iter()
        .filter(|g| {
            let wc = g.iter().filter(|&&x| x == WHITE).count() as u32;
            let bc = g.iter().filter(|&&x| x == common::BLACK).count() as u32;
            limits.max_white.is_none_or(|p| wc <= p)
                && limits.max_black.is_none_or(|q| bc <= q)
                && limits.max_pieces.is_none_or(|t| wc + bc <= t)
        })
        .count() as u64
}

#[test]
fn piece_limited_tables_agree_with_brute_force() {
    for limits in [
        Limits {
            max_white: Some(2),
            max_black: Some(3),
            max_pieces: None,
        },
        Limits {
            max_white: None,
            max_black: None,
            max_pieces: Some(4),
        },
    ] {
        let gen = build(5, 5, 4, limits);
        let mut bf = Brute::new(4, 5);
        assert_eq!(gen.report.configurations, limited_count(&bf, limits));
        for g in bf.all_configs() {
            let wc = g.iter().filter(|&&x| x == WHITE).count() as u32;
            let bc = g.iter().filter(|&&x| x == common::BLACK).count() as u32;
            if limits.allows(wc, bc) {
                check(&gen, &mut bf, 5, &g);
            } else {
                let key = bf.key(&g).min(bf.key(&bf.mirror(&g)));
                assert!(gen.entries.binary_search_by_key(&key, |e| e.0).is_err());
            }
        }
    }
}
