//! Chooses balanced Breakthrough openings for `arena --openings`: every position a few
//! plies from the start (mirror images counted once), scored by alpha-beta at a shallow
//! depth; the closest to even of those scored again deeper; the closest to even of the
//! deeper scores kept, printed one a line as an openings file.
//!
//! `cargo run --release --example balanced_openings -- BOARD PLIES DEPTH1 KEEP1 DEPTH2 COUNT`
//! e.g. `-- 6x6 3 6 200 10 40`. Even depths keep the scores of one parity; every position
//! after the same number of plies has the same side to move, so their scores compare.

use alphabeta::{AlphaBeta, Config, Limit, Score};
use breakthrough::{Board, BreakthroughEval, Position};
use quasar_core::Game;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// A position's text with each row mirrored left to right (rows of at most 8 cells are
/// written with one-digit runs, so reversing a row's characters mirrors it).
fn mirrored(text: &str) -> String {
    let (rows, side) = text.split_once(' ').expect("rows, then the side to move");
    let rows: Vec<String> = rows.split('/').map(|r| r.chars().rev().collect()).collect();
    format!("{} {side}", rows.join("/"))
}

/// Every open position `plies` plies from `start`, one of each mirror pair, by text.
fn positions(start: &Position, plies: u32) -> BTreeMap<String, Position> {
    let mut level = BTreeMap::from([(start.position_text(), *start)]);
    let mut legal = Vec::new();
    for _ in 0..plies {
        let mut next = BTreeMap::new();
        for pos in level.values() {
            pos.legal_moves(&mut legal);
            for &mv in &legal {
                let mut p = *pos;
                p.play(mv);
                if p.outcome().is_some() {
                    continue;
                }
                let text = p.position_text();
                let key = text.clone().min(mirrored(&text));
                next.entry(key).or_insert(p);
            }
        }
        level = next;
    }
    level
}

/// The score for the side to move; a proven result far beyond any evaluation.
fn score(searcher: &mut AlphaBeta<Position>, pos: &Position, depth: u32) -> i64 {
    searcher.clear();
    let report = searcher
        .search(pos, Limit::Depth(depth))
        .expect("the position is open");
    match report.score {
        Score::Eval(v) => v as i64,
        Score::Proven { result, plies } => {
            (1_000_000 - plies as i64) * if result.score() > 0.5 { 1 } else { -1 }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [board, plies, depth1, keep1, depth2, count] = args.as_slice() else {
        eprintln!("usage: balanced_openings BOARD PLIES DEPTH1 KEEP1 DEPTH2 COUNT");
        std::process::exit(2);
    };
    let number = |s: &String| -> u32 { s.parse().expect("a whole number") };
    let board: Board = board.parse().expect("a board such as 6x6");
    let (plies, depth1, keep1, depth2, count) = (
        number(plies),
        number(depth1),
        number(keep1) as usize,
        number(depth2),
        number(count) as usize,
    );
    let start = Position::try_start(board).expect("a board with a start");
    let config = Config {
        table_bytes: 32 << 20,
        ..Config::default()
    };
    let mut searcher = AlphaBeta::new(config, Arc::new(BreakthroughEval::new(board)));
    let clock = Instant::now();
    let all = positions(&start, plies);
    let mut first: Vec<(i64, String)> = all
        .iter()
        .map(|(key, pos)| (score(&mut searcher, pos, depth1), key.clone()))
        .collect();
    first.sort_by_key(|(s, key)| (s.abs(), key.clone()));
    first.truncate(keep1);
    eprintln!(
        "{} positions after {plies} plies scored at depth {depth1} in {:.1} s",
        all.len(),
        clock.elapsed().as_secs_f64()
    );
    let mut second: Vec<(i64, i64, String)> = first
        .iter()
        .map(|(s1, key)| (score(&mut searcher, &all[key], depth2), *s1, key.clone()))
        .collect();
    second.sort_by_key(|(s2, s1, key)| (s2.abs(), s1.abs(), key.clone()));
    second.truncate(count);
    eprintln!(
        "{} of them scored at depth {depth2}; {} kept; {:.1} s in all",
        first.len(),
        second.len(),
        clock.elapsed().as_secs_f64()
    );
    let worst = second.iter().map(|(s, _, _)| s.abs()).max().unwrap_or(0);
    println!(
        "# Balanced Breakthrough {board} openings: the {} positions {plies} plies from the start",
        second.len()
    );
    println!(
        "# (of {} up to mirror images) closest to even by alpha-beta at depth {depth2}",
        all.len()
    );
    println!(
        "# (|score| <= {worst}, for the side to move), among the {} closest at depth {depth1}.",
        first.len()
    );
    println!("# Made by: cargo run --release --example balanced_openings -- {board} {plies} {depth1} {keep1} {depth2} {count}");
    println!("# Each position follows a comment with its depth-{depth2} score.");
    for (s2, _, key) in &second {
        println!("# {s2:+}");
        println!("{key}");
    }
}
