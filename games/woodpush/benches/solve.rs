//! Woodpush solve speed: the whole solve per width (goal: width 11 under 1 s), and positions
//! per second of each solver on width 11. Run: `cargo bench -p woodpush --bench solve`
//! (`-- --max-width 14` for wider strips; `-- --quick` for widths to 11 only).

use retro::scored::{solve_exact, solve_interleaved};
use retro::wdl::{solve_wdl, Method, WdlOptions};
use retro::{PerfectIndex, Reversed};
use std::time::Instant;
use woodpush::{solve, KoStates, SolveOptions, WoodpushSpace};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let max_width = args
        .iter()
        .position(|a| a == "--max-width")
        .and_then(|i| args.get(i + 1)?.parse::<u32>().ok())
        .unwrap_or(if quick { 11 } else { 13 });
    println!("threads: {}", rayon::current_num_threads());
    println!("width  positions  start  draws/side  seconds  positions/s");
    for width in 5..=max_width {
        let (_, r) = solve(
            width,
            SolveOptions::default(),
            &quasar_core::progress::Silent,
        )
        .unwrap();
        let n = r.positions_per_side[0] + r.positions_per_side[1];
        println!(
            "{width:>5}  {n:>9}  {:>5}  {:>10}  {:>7.3}  {:>11.0}",
            r.start_score.map_or("-".into(), |s| s.to_string()),
            r.draws_per_side[0],
            r.seconds,
            n as f64 / r.seconds
        );
    }
    let width = 11;
    // The machine may be shared: the best of several runs is the solve's own cost.
    let cpu0 = cpu_seconds();
    let best = (0..5)
        .map(|_| {
            solve(
                width,
                SolveOptions::default(),
                &quasar_core::progress::Silent,
            )
            .unwrap()
            .1
            .seconds
        })
        .fold(f64::INFINITY, f64::min);
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| (b - a) / 5.0);
    println!(
        "\nwidth {width} whole solve (scores, distances, table): best of 5 runs {best:.3} s wall, {} CPU per run",
        cpu.map_or("?".into(), |c| format!("{c:.3} s"))
    );
    let t = Instant::now();
    let space = WoodpushSpace::new(width, KoStates::Reachable).unwrap();
    let n = PerfectIndex::size(&space);
    let index_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let rev = Reversed::new(&space).unwrap();
    let rev_s = t.elapsed().as_secs_f64();
    println!(
        "width {width}: {n} positions; index {index_s:.3} s; reverse graph {rev_s:.3} s ({} moves)",
        rev.graph.edges()
    );
    let t = Instant::now();
    let (_, e) = solve_exact(&rev, &quasar_core::progress::Silent).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "  exact scored (backward, thresholds): {s:.3} s, {:.0} positions/s, {} thresholds",
        n as f64 / s,
        e.thresholds
    );
    let o = WdlOptions::default();
    let (_, r) = solve_wdl(&rev, Method::Counters, o, &quasar_core::progress::Silent).unwrap();
    println!(
        "  wdl counters: {:.3} s, {:>10.0} positions/s, {} layers, {} backward expansions",
        r.seconds,
        n as f64 / r.seconds,
        r.iterations,
        r.backward_expansions
    );
    for (method, name) in [(Method::Backward, "backward"), (Method::Forward, "forward")] {
        for (layered, direct, win_only) in [
            (true, false, false),
            (false, false, false),
            (false, true, false),
            (false, true, true),
        ] {
            let o = WdlOptions {
                win_only,
                layered,
                direct,
                no_dup: true,
                parallel: true,
            };
            let (_, r) = solve_wdl(&rev, method, o, &quasar_core::progress::Silent).unwrap();
            println!(
                "  wdl {name:<8} layered={layered:<5} direct={direct:<5} win_only={win_only:<5}: {:.3} s, {:>10.0} positions/s, {} iterations, {} forward + {} backward expansions",
                r.seconds, n as f64 / r.seconds, r.iterations, r.forward_expansions, r.backward_expansions
            );
        }
    }
    if !quick {
        let (_, r) = solve_interleaved(&rev, true, &quasar_core::progress::Silent);
        println!(
            "  paper's interleaved passes: {:.3} s, {} + {} + {} passes",
            r.seconds, r.standard_passes, r.avoidance_passes, r.reevaluation_passes
        );
    }
}

/// CPU seconds (user + system) this process has used, from `/proc/self/stat` (Linux, 100
/// ticks a second); wall time misleads on a shared machine.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
