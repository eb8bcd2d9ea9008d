//! Rates and solves: `cargo bench -p chinese-checkers --bench cc -- [--pieces K] [--movegen]
//! [--variants] [--half] [--threads N]`. `--movegen`: move generation from random positions
//! and perft from the start; `--variants`: every solver variant of the paper's tables 4 and
//! 5 (and the counting and half-space solvers) on K pieces a side, with expansions,
//! iterations, seconds and positions per second; `--half`: the half-space solve alone.

use chinese_checkers::solve::{solve_full, solve_half};
use chinese_checkers::{CcSpace, Position};
use quasar_core::{perft, Game, SplitMix64};
use retro::symmetric::MirrorOptions;
use retro::wdl::{Method, WdlOptions};
use retro::PerfectIndex;
use std::time::Instant;

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let k: u32 = arg(&args, "--pieces").unwrap_or(2);
    if let Some(t) = arg::<usize>(&args, "--threads") {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .expect("one pool");
    }
    let has = |f: &str| args.iter().any(|a| a == f);
    if has("--movegen") {
        movegen(k);
    }
    if has("--variants") {
        variants(k, !has("--sequential"));
    }
    if has("--half") {
        let (t, r) = solve_half(k, &MirrorOptions::default(), &quasar_core::progress::Silent)
            .expect("solves");
        let c = t.counts();
        println!(
            "half-space counters K={k}: {} positions ({} solved), first wins {}, draws {}, {} layers, {:.3} s, {:.1} M positions/s",
            c.positions, r.positions, c.first_wins, c.draws, r.layers, r.seconds,
            r.positions as f64 / r.seconds / 1e6
        );
    }
}

fn movegen(k: u32) {
    let space = CcSpace::new(k).expect("1 to 6");
    let mut rng = SplitMix64::new(1);
    let n = PerfectIndex::size(&space) as usize;
    let positions: Vec<Position> = (0..100_000)
        .map(|_| space.unrank_pos(rng.below(n) as u64))
        .collect();
    let mut moves = Vec::new();
    let (mut calls, mut generated) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < 2.0 {
        for p in &positions {
            p.legal_moves(&mut moves);
            calls += 1;
            generated += moves.len() as u64;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "movegen K={k}: {:.1} M legal_moves calls/s, {:.1} M moves/s ({:.1} moves a position), one thread",
        calls as f64 / s / 1e6,
        generated as f64 / s / 1e6,
        generated as f64 / calls as f64
    );
    let start = Position::start(k).expect("start");
    for d in 1..=5 {
        let t = Instant::now();
        let leaves = perft(&start, d);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft K={k} depth {d}: {leaves} ({:.1} M leaves/s)",
            leaves as f64 / s / 1e6
        );
    }
}

fn variants(k: u32, parallel: bool) {
    let rows: [(&str, Method, bool, bool, bool, bool); 15] = [
        // name, method, layered, direct, win_only, no_dup
        (
            "forward layered win-only",
            Method::Forward,
            true,
            false,
            true,
            false,
        ),
        (
            "forward layered",
            Method::Forward,
            true,
            false,
            false,
            false,
        ),
        (
            "forward win-only",
            Method::Forward,
            false,
            false,
            true,
            false,
        ),
        ("forward", Method::Forward, false, false, false, false),
        (
            "forward direct win-only",
            Method::Forward,
            false,
            true,
            true,
            false,
        ),
        ("forward direct", Method::Forward, false, true, false, false),
        (
            "backward no-dup win-only",
            Method::Backward,
            false,
            false,
            true,
            true,
        ),
        (
            "backward no-dup",
            Method::Backward,
            false,
            false,
            false,
            true,
        ),
        (
            "backward no-dup direct win-only",
            Method::Backward,
            false,
            true,
            true,
            true,
        ),
        (
            "backward no-dup direct",
            Method::Backward,
            false,
            true,
            false,
            true,
        ),
        (
            "backward layered no-dup win-only",
            Method::Backward,
            true,
            false,
            true,
            true,
        ),
        (
            "backward layered no-dup",
            Method::Backward,
            true,
            false,
            false,
            true,
        ),
        (
            "backward layered no-dup direct win-only",
            Method::Backward,
            true,
            true,
            true,
            true,
        ),
        (
            "backward layered no-dup direct",
            Method::Backward,
            true,
            true,
            false,
            true,
        ),
        (
            "counters (layered)",
            Method::Counters,
            true,
            false,
            false,
            true,
        ),
    ];
    println!("| variant | forward exp. | backward exp. | iterations | first wins | undecided | seconds | positions/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, method, layered, direct, win_only, no_dup) in rows {
        let o = WdlOptions {
            layered,
            direct,
            win_only,
            no_dup,
            parallel,
        };
        let (_, r) = solve_full(k, method, o, &quasar_core::progress::Silent).expect("solves");
        println!(
            "| {name} | {} | {} | {} | {} | {} | {:.3} | {:.2} M |",
            r.forward_expansions,
            r.backward_expansions,
            r.iterations,
            r.first_wins,
            r.undecided,
            r.seconds,
            r.positions as f64 / r.seconds / 1e6
        );
    }
}
