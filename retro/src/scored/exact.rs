//! The exact backward solver for scored games: the score of a position is the largest `t`
//! such that the first player can force an end scoring at least `t` (or, for negative
//! scores, the smallest such bound the second player forces), endless play scoring 0. The
//! forcing sets grow as `t` falls, so one pass per side adds the ends in score order and
//! spreads each through predecessors with a count of each parent's children still outside.

use crate::progress::ProgressFn;
use crate::reverse::Preds;
use crate::space::{Child, RetroGame};
use crate::SolveError;
use quasar_core::Side;
use rayon::prelude::*;
use std::time::Instant;

use super::ScoreTable;

/// What the exact solver did and found.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactReport {
    /// Positions in the index.
    pub positions: u64,
    /// Positions the first player wins (score above 0).
    pub first_wins: u64,
    /// Positions the second player wins (score below 0).
    pub second_wins: u64,
    /// Draws (score 0: endless play or a drawn end) per side to move (first, second).
    pub draws_by_mover: [u64; 2],
    /// Forward expansions (counting children, plus the reverse graph's build if any).
    pub forward_expansions: u64,
    /// Backward expansions (predecessor generations).
    pub backward_expansions: u64,
    /// Distinct end scores, each a threshold.
    pub thresholds: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A position reaching a score: an end itself, or a parent whose child outside the index has it.
#[derive(Clone, Copy)]
enum Event {
    End(u64),
    ExitOf(u64),
}

/// Solves every position exactly.
pub fn solve_exact<G: RetroGame + ?Sized>(
    game: &G,
    progress: ProgressFn<'_>,
) -> Result<(ScoreTable, ExactReport), SolveError> {
    let start = Instant::now();
    let n = game.size();
    let preds = Preds::for_game(game)?;
    // Counts from a built move graph spare a pass of successors.
    let counted = !game.has_exits() && (n == 0 || game.child_count(0).is_some());
    let children: Vec<u32> = (0..n)
        .into_par_iter()
        .map_init(Vec::new, |buf, p| {
            match (game.terminal(p), game.child_count(p)) {
                (Some(_), _) => 0,
                (None, Some(k)) if counted => k,
                (None, _) => {
                    game.successors(p, buf);
                    buf.len() as u32
                }
            }
        })
        .collect();
    // Every scored end, and every exit with a score (one more pass, only for games with exits).
    let mut events: Vec<(i32, Event)> = (0..n)
        .into_par_iter()
        .filter_map(|p| match game.terminal(p) {
            Some(v) if v != 0 => Some((v, Event::End(p))),
            _ => None,
        })
        .collect();
    if game.has_exits() {
        let exits: Vec<(i32, Event)> = (0..n)
            .into_par_iter()
            .filter(|&p| game.terminal(p).is_none())
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut found, mut buf), p| {
                    game.successors(p, &mut buf);
                    found.extend(buf.iter().filter_map(|c| match *c {
                        Child::Exit { score, .. } if score != 0 => Some((score, Event::ExitOf(p))),
                        _ => None,
                    }));
                    (found, buf)
                },
            )
            .map(|(found, _)| found)
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        events.extend(exits);
    }
    let forward = if counted { 0 } else { n }
        + if game.has_exits() { n } else { 0 }
        + preds.build_expansions();
    events.sort_by_key(|e| e.0);
    let mut thresholds = events.iter().map(|e| e.0).collect::<Vec<_>>();
    thresholds.dedup();
    let mut backward = 0u64;
    let mut pass = |side: Side, events: &mut dyn Iterator<Item = &(i32, Event)>| -> Vec<i32> {
        let mut value = vec![0i32; n as usize];
        let mut count = children.clone();
        let mut stack: Vec<u64> = Vec::new();
        let mut buf = Vec::new();
        let mut events = events.peekable();
        let mut step = 0;
        // Enters p into the forcing set at score t when its mover is `side` or when its
        // last child outside the set has just entered.
        let enter = |p: u64, t: i32, value: &mut [i32], count: &mut [u32], stack: &mut Vec<u64>| {
            let p_us = p as usize;
            if value[p_us] != 0 {
                return;
            }
            if game.mover(p) != side {
                count[p_us] -= 1;
                if count[p_us] > 0 {
                    return;
                }
            }
            value[p_us] = t;
            stack.push(p);
        };
        while let Some(&&(t, _)) = events.peek() {
            while let Some(&&(_, e)) = events.peek().filter(|e| e.0 == t) {
                events.next();
                match e {
                    Event::End(p) => {
                        value[p as usize] = t;
                        stack.push(p);
                    }
                    Event::ExitOf(p) => enter(p, t, &mut value, &mut count, &mut stack),
                }
            }
            while let Some(x) = stack.pop() {
                backward += 1;
                preds.get(x, &mut buf);
                for &p in &buf {
                    enter(p, t, &mut value, &mut count, &mut stack);
                }
            }
            step += 1;
            crate::progress::report(progress, "threshold", step, 0, n);
        }
        value
    };
    let first = pass(Side::First, &mut events.iter().rev().filter(|e| e.0 > 0));
    let second = pass(Side::Second, &mut events.iter().filter(|e| e.0 < 0));
    let mut draws_by_mover = [0u64; 2];
    let scores: Vec<i32> = first
        .iter()
        .zip(&second)
        .enumerate()
        .map(|(p, (&a, &b))| {
            let v = if a > 0 { a } else { b };
            if v == 0 {
                draws_by_mover[game.mover(p as u64).index()] += 1;
            }
            v
        })
        .collect();
    let report = ExactReport {
        positions: n,
        first_wins: scores.iter().filter(|&&s| s > 0).count() as u64,
        second_wins: scores.iter().filter(|&&s| s < 0).count() as u64,
        draws_by_mover,
        forward_expansions: forward,
        backward_expansions: backward,
        thresholds: thresholds.len() as u64,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((ScoreTable::from_scores(&scores), report))
}
