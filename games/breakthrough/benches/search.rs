//! Search rates and time-budget keeping, printed (not asserted). Modes (`-- --help` lists
//! them):
//!
//! `cargo bench -p breakthrough --bench search [SECONDS]` prints simulations per second
//! (wall clock and per CPU-second, which is the fair per-core figure on a shared machine)
//! from the 6x6 and 8x8 starts, uniform playouts to the end and the full policy, one and
//! two threads, searching SECONDS (default 1) each. The rate table has a `2 tree` line per
//! board and playout.
//! `-- rate [WxH] [uniform|policy] [THREADS] [root|tree] [SECONDS] [REPEATS]` prints one
//! line of the table (default 8x8 uniform, 1 thread, 1 s) REPEATS times (default 1): the
//! quick before/after check of a change to the search.
//! `-- budget [MOVES] [MS] [THREADS]` plays MOVES moves (default 1000) at MS milliseconds
//! each (default 100) and reports how often and by how much the budget was exceeded.
//! `-- match [GAMES] [SIMS] [WxH]` plays the full playout policy against uniform playouts
//! (default 40 games, 5000 simulations a move, 6x6);
//! `-- threads [GAMES] [SIMS] [WxH] [SIMS_A]` plays two root-parallel trees (SIMS_A in all,
//! default SIMS) against one tree with SIMS.
//! `-- treepar [GAMES] [SIMS] [MS] [WxH]` plays tree parallelism (two threads, one shared
//! tree) against root parallelism (two threads), first at SIMS simulations a move, then at
//! MS milliseconds a move (default 100 games each, 5000, 50 ms, 6x6; 0 skips a part).

use breakthrough::BreakthroughPolicy;
use breakthrough::{Board, Position};
use mcts::{Config, Parallelism, Searcher};
use quasar_core::Limit;
use quasar_core::{cpu_seconds, Game};
use std::time::{Duration, Instant};

/// Raw uniform playouts from the start, no tree: the reference the search rate is read against.
fn playout_rate(w: u32, h: u32, secs: f64) -> f64 {
    use rand::SeedableRng;
    let start = Position::start(Board::new(w, h).expect("valid board"));
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..1000 {
            let mut p = start;
            std::hint::black_box(p.random_playout(&mut rng));
        }
        n += 1000;
    }
    n as f64 / t.elapsed().as_secs_f64()
}

/// Searches the start of `board` for `secs` seconds and prints one line of the rate table.
fn rate_line(board: Board, name: &str, threads: usize, parallelism: Parallelism, secs: f64) {
    let policy = if name == "uniform" {
        BreakthroughPolicy::uniform()
    } else {
        BreakthroughPolicy::default()
    };
    let pos = Position::start(board);
    let config = Config {
        playout: policy,
        threads,
        parallelism,
        ..Config::default()
    };
    let label = match (threads, parallelism) {
        (1, _) => "1".to_string(),
        (n, Parallelism::Root) => format!("{n} root"),
        (n, Parallelism::Tree) => format!("{n} tree"),
    };
    let mut s = Searcher::without_oracle(config);
    let cpu0 = cpu_seconds();
    let r = s.search(&pos, Limit::Time(Duration::from_secs_f64(secs)));
    let per_cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => r.simulations as f64 / (b - a),
        _ => f64::NAN,
    };
    println!(
        "{board}    {name:<8} {label:<8} {:<12.0} {:<11.0} {:<11} {:<11} {}",
        r.sims_per_second,
        per_cpu,
        r.simulations,
        r.tree_nodes,
        if r.budget_full { "yes" } else { "no" }
    );
}

const HEADER: &str =
    "board  playout  threads  sims/s(wall) sims/CPU-s  sims        tree nodes  full";

fn rates(secs: f64) {
    for (w, h) in [(6, 6), (8, 8)] {
        let cpu0 = cpu_seconds();
        let t = Instant::now();
        let rate = playout_rate(w, h, 1.0);
        let per_cpu = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) if b > a => rate * t.elapsed().as_secs_f64() / (b - a),
            _ => f64::NAN,
        };
        println!("raw uniform playouts {w}x{h} (no tree): {rate:.0}/s wall, {per_cpu:.0}/CPU-s");
    }
    println!("{HEADER}");
    for (w, h) in [(6, 6), (8, 8)] {
        let board = Board::new(w, h).expect("valid board");
        for name in ["uniform", "policy"] {
            for (threads, parallelism) in [
                (1, Parallelism::Root),
                (2, Parallelism::Root),
                (2, Parallelism::Tree),
            ] {
                rate_line(board, name, threads, parallelism, secs);
            }
        }
    }
}

fn budget(moves: usize, ms: u64, threads: usize) {
    let limit = Duration::from_millis(ms);
    let mut over = Vec::new();
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut played = 0;
    let mut game = 0u64;
    while played < moves {
        let config = Config {
            threads,
            seed: game,
            ..Config::<BreakthroughPolicy>::default()
        };
        let mut s = Searcher::without_oracle(config);
        let mut pos = Position::start(Board::new(8, 8).expect("valid board"));
        while pos.outcome().is_none() && played < moves {
            let t = Instant::now();
            let r = s.search(&pos, Limit::Time(limit));
            let took = t.elapsed();
            total += took;
            worst = worst.max(took);
            if took > limit {
                over.push(took - limit);
                if took > limit + Duration::from_millis(5) {
                    println!(
                        "  over by {:?}: search says {:?}, {} sims, {} nodes ({} reused)",
                        took - limit,
                        r.elapsed,
                        r.simulations,
                        r.tree_nodes,
                        r.reused_nodes
                    );
                }
            }
            pos.play(r.best_move.expect("the game is not over"));
            played += 1;
        }
        game += 1;
    }
    let mean_over = if over.is_empty() {
        Duration::ZERO
    } else {
        over.iter().sum::<Duration>() / over.len() as u32
    };
    println!(
        "{played} moves at {ms} ms ({threads} thread(s), 8x8, {game} games): exceeded {} times; \
         mean excess {:?}, largest move time {:?}, mean move time {:?}",
        over.len(),
        mean_over,
        worst,
        total / played as u32
    );
}

/// Plays `games` games on `board` between configuration A and B, colours alternating,
/// `sims` simulations a move (over all threads), and prints A's score.
fn play_match(
    what: &str,
    a: Config<BreakthroughPolicy>,
    b: Config<BreakthroughPolicy>,
    games: u32,
    (sims_a, sims_b): (u64, u64),
    board: Board,
) {
    play_match_limits(
        what,
        a,
        b,
        games,
        (Limit::Count(sims_a), Limit::Count(sims_b)),
        board,
    );
}

/// Plays `games` games on `board` between configuration A and B, colours alternating, each
/// side searching within its limits (the two never search at the same time), and prints
/// A's score with a 95% interval.
fn play_match_limits(
    what: &str,
    a: Config<BreakthroughPolicy>,
    b: Config<BreakthroughPolicy>,
    games: u32,
    (lim_a, lim_b): (Limit, Limit),
    board: Board,
) {
    let mut sims = [0u64; 2];
    let mut moves = [0u64; 2];
    let mut policy_points = 0.0;
    for g in 0..games {
        let policy_first = g % 2 == 0;
        let make = |c: &Config<BreakthroughPolicy>| {
            Searcher::without_oracle(Config {
                seed: g as u64,
                ..c.clone()
            })
        };
        let mut pol = make(&a);
        let mut uni = make(&b);
        let mut pos = Position::start(board);
        while pos.outcome().is_none() {
            let policy_to_move = (pos.side_to_move() == quasar_core::Side::First) == policy_first;
            let s = if policy_to_move { &mut pol } else { &mut uni };
            let lim = if policy_to_move { lim_a } else { lim_b };
            let r = s.search(&pos, lim);
            let k = usize::from(!policy_to_move);
            sims[k] += r.simulations;
            moves[k] += 1;
            pos.play(r.best_move.expect("the game is not over"));
        }
        let winner_first =
            pos.outcome() == Some(quasar_core::Outcome::Win(quasar_core::Side::First));
        if winner_first == policy_first {
            policy_points += 1.0;
        }
    }
    let p = policy_points / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "{what}, {board}, A {lim_a:?} / B {lim_b:?} a move: A scored {policy_points} of {games} \
         ({:.1}% +- {:.1}%); mean sims/move A {:.0}, B {:.0}",
        100.0 * p,
        100.0 * half,
        sims[0] as f64 / moves[0].max(1) as f64,
        sims[1] as f64 / moves[1].max(1) as f64,
    );
}

/// The modes, for `-- --help`.
const HELP: &str = "
cargo bench -p breakthrough --bench search -- [MODE] [ARGS]
  [SECONDS]                 the rate table: 6x6 and 8x8, uniform and policy, 1/2 root/2 tree threads
  rate [WxH] [uniform|policy] [THREADS] [root|tree] [SECONDS] [REPEATS]
                            one line of the table, REPEATS times (default 8x8 uniform 1 root 1 1)
  budget [MOVES] [MS] [THREADS]
                            time-budget keeping over MOVES moves at MS ms (default 1000 100 1)
  match [GAMES] [SIMS] [WxH]
                            full policy vs uniform playouts (default 40 5000 6x6)
  threads [GAMES] [SIMS] [WxH] [SIMS_A]
                            two root-parallel trees vs one tree (default 40 5000 6x6 SIMS)
  treepar [GAMES] [SIMS] [MS] [WxH]
                            tree vs root parallelism, 2 threads each (default 100 5000 50 6x6)";

/// The argument at `i` of the command line, or `default` when it is absent or unreadable.
fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// The board at `i` of the command line, or the square board of side `side`.
fn board_arg(args: &[String], i: usize, side: u32) -> Board {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| Board::new(side, side).expect("valid board"))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("match") => {
            let games = arg(&args, 1, 40);
            let sims = arg(&args, 2, 5000);
            let board = board_arg(&args, 3, 6);
            let a = Config::default();
            let b = Config {
                playout: BreakthroughPolicy::uniform(),
                ..Config::default()
            };
            play_match(
                "A full policy vs B uniform playouts",
                a,
                b,
                games,
                (sims, sims),
                board,
            );
        }
        Some("threads") => {
            let games = arg(&args, 1, 40);
            let sims = arg(&args, 2, 5000);
            let board = board_arg(&args, 3, 6);
            // A's total: by default the same as B's (the price of splitting the tree);
            // twice B's stands for two free cores in the same time.
            let sims_a = arg(&args, 4, sims);
            let a = Config {
                threads: 2,
                ..Config::default()
            };
            play_match(
                "A two root-parallel trees vs B one tree",
                a,
                Config::default(),
                games,
                (sims_a, sims),
                board,
            );
        }
        Some("treepar") => {
            let games = arg(&args, 1, 100);
            let sims = arg(&args, 2, 5000);
            let ms = arg(&args, 3, 50);
            let board = board_arg(&args, 4, 6);
            let tree = Config {
                threads: 2,
                parallelism: Parallelism::Tree,
                ..Config::default()
            };
            let root = Config {
                threads: 2,
                parallelism: Parallelism::Root,
                ..Config::default()
            };
            if sims > 0 {
                play_match(
                    "A tree parallel (2 threads) vs B root parallel (2 threads)",
                    tree.clone(),
                    root.clone(),
                    games,
                    (sims, sims),
                    board,
                );
            }
            if ms > 0 {
                let t = Limit::Time(Duration::from_millis(ms));
                play_match_limits(
                    "A tree parallel (2 threads) vs B root parallel (2 threads)",
                    tree,
                    root,
                    games,
                    (t, t),
                    board,
                );
            }
        }
        Some("budget") => {
            let moves = arg(&args, 1, 1000);
            let ms = arg(&args, 2, 100);
            let threads = arg(&args, 3, 1);
            budget(moves, ms, threads);
        }
        Some("rate") => {
            let board = board_arg(&args, 1, 8);
            let name = match args.get(2).map(String::as_str) {
                Some("policy") => "policy",
                _ => "uniform",
            };
            let threads = arg(&args, 3, 1);
            let parallelism = match args.get(4).map(String::as_str) {
                Some("tree") => Parallelism::Tree,
                _ => Parallelism::Root,
            };
            let secs = arg(&args, 5, 1.0);
            let repeats = arg(&args, 6, 1);
            println!("{HEADER}");
            for _ in 0..repeats {
                rate_line(board, name, threads, parallelism, secs);
            }
        }
        Some("--help") | Some("-h") | Some("help") => {
            println!("{}", HELP.trim_start());
        }
        _ => {
            // One second keeps the default node budget from filling (a full tree stops
            // expanding and would flatter the rate).
            let secs = args.first().and_then(|a| a.parse().ok()).unwrap_or(1.0);
            rates(secs);
        }
    }
}
