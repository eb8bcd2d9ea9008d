//! `quasar bench`: single-thread move-generation and random-playout rates, the same lines
//! for every game (a game may time its own fast playout loop).

use super::CliResult;
use crate::games::{with_game, CliGame, GameArgs, GameName};
use alphabeta::{AlphaBeta, Limit};
use engine::setup::GameSetup;
use quasar_core::measure::{movegen_rate, PlayoutRate};
use quasar_core::{cpu_seconds, Game, Side};
use std::time::{Duration, Instant};

/// Measure move generation and uniformly random playouts from the start position, on one
/// thread, and print rates.
#[derive(clap::Args)]
#[command(after_help = BENCH_HELP)]
pub struct Args {
    /// Seed of the random playouts (Xoshiro256++), so every run plays the same games
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seconds per measurement, 0.01 to 3600 (2 measurements per board, 3 with --plain)
    #[arg(long, default_value_t = 1.0, value_parser = positive_seconds)]
    seconds: f64,
    /// The game and its size [default: the game's]
    #[command(flatten)]
    game: GameArgs,
    /// Also time the plain playout loop (a random move, the move, the result each ply), for
    /// a game whose fastest loop is a fused one
    #[arg(long)]
    plain: bool,
    /// Also run the alpha-beta player from the start for 100 ms and for 1 s (a fresh table
    /// each): nodes a second and the deepest iteration finished
    #[arg(long)]
    alphabeta: bool,
}

const BENCH_HELP: &str = "\
Each measurement runs for --seconds and prints what it counted per second: perft leaves,
legal_moves calls and generated moves (perft from the start, to the deepest depth that fits
the time), then uniformly random playouts to the end of the game with their average length.
The seed is printed first; the same seed plays the same games. Rates are per wall-clock
second; \"on CPU\" says how much of that time the process ran (below 100% the machine was busy).

Examples:
  quasar bench                          6x6, 1 s per measurement, seed 1
  quasar bench --board 8x8 --seconds 5  one board, longer runs for steadier figures
  quasar bench --board 6x5              6 columns, 5 rows
  quasar bench --seed 42 --plain        also time the plain per-move playout loop
  quasar bench --board 8x8 --alphabeta  alpha-beta nodes/s and depth in 100 ms and 1 s
  quasar bench --game woodpush --width 9    the same rates for every game
  quasar bench --game checkers --seconds 2";

/// The shortest measurement: below it a rate counts a handful of events, and the clock's
/// granularity is most of the time measured.
const MIN_SECONDS: f64 = 0.01;

/// The longest measurement (an hour).
const MAX_SECONDS: f64 = 3600.0;

/// A measurement's length: from [`MIN_SECONDS`] to [`MAX_SECONDS`].
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (MIN_SECONDS..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(format!(
            "give {MIN_SECONDS} to {MAX_SECONDS} seconds, not {}",
            quasar_file::shorten(text, 20)
        )),
    }
}

/// Runs the subcommand.
pub fn run(args: Args) -> CliResult {
    if args.plain && !with_game!(args.game.game, S => S::FUSED_PLAYOUT) {
        let fused: Vec<&str> = GameName::all()
            .iter()
            .filter(|g| with_game!(**g, S => S::FUSED_PLAYOUT))
            .map(|g| g.name())
            .collect();
        return Err(format!(
            "--plain is not an option of {}: only {} has a fused playout to compare with \
             its plain loop",
            args.game.game.name(),
            fused.join(" and ")
        )
        .into());
    }
    with_game!(args.game, S, given => rates::<S>(&args, given.unwrap_or_else(S::default_size)))
}

/// The rates every game prints: perft, and uniformly random playouts (the game's fastest
/// loop), then what the options add.
fn rates<S: CliGame>(args: &Args, setup: S) -> CliResult {
    let pos = setup.start()?;
    println!(
        "seed {}, {} s per measurement, single thread",
        args.seed, args.seconds
    );
    println!("{} {}", S::NAME, setup.params());
    // The share on CPU is of the whole call, which also picks the perft depth first.
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let m = movegen_rate(&pos, args.seconds);
    println!(
        "  move generation: {:>8.2} M perft leaves/s  {:>7.2} M legal_moves calls/s  {:>7.2} M moves/s  (perft {}, {} full runs, {:.2} s{})",
        m.leaves_per_second() / 1e6,
        m.calls_per_second() / 1e6,
        m.moves_per_second() / 1e6,
        m.depth,
        m.runs,
        m.seconds,
        on_cpu(cpu, wall.elapsed().as_secs_f64())
    );
    let first = <S::Game as Game>::side_name(Side::First);
    let cpu = cpu_seconds();
    let r = S::playout_rate(&pos, args.seed, args.seconds);
    print_playouts("random playouts", &r, first, on_cpu(cpu, r.seconds));
    if args.plain {
        let cpu = cpu_seconds();
        if let Some(r) = S::plain_playout_rate(&pos, args.seed, args.seconds) {
            print_playouts("plain loop     ", &r, first, on_cpu(cpu, r.seconds));
        }
    }
    if args.alphabeta {
        alphabeta_rates(&setup, &pos)?;
    }
    Ok(())
}

/// The alpha-beta player's nodes a second and depth from `pos` in 100 ms and in 1 s.
fn alphabeta_rates<S: GameSetup>(setup: &S, pos: &S::Game) -> CliResult {
    let Some(eval) = setup.evaluation() else {
        return Err(format!("{} has no evaluation for alpha-beta", S::NAME).into());
    };
    for ms in [100, 1000] {
        let mut ab = AlphaBeta::new(alphabeta::Config::default(), eval.clone());
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        let r = ab.search(pos, Limit::Time(Duration::from_millis(ms)))?;
        println!(
            "  alpha-beta {:>4} ms: {:>6.2} M nodes/s  depth {:>2}  {:>10} nodes  best {} ({}{})",
            ms,
            r.nodes_per_second() / 1e6,
            r.depth,
            r.nodes,
            pos.move_text(r.best_move),
            r.score,
            on_cpu(cpu, wall.elapsed().as_secs_f64())
        );
    }
    Ok(())
}

fn print_playouts(label: &str, r: &PlayoutRate, first: &str, on_cpu: String) {
    println!(
        "  {label}: {:>8.3} M playouts/s  {:>5.1} plies/playout  {:>7.1} M plies/s  ({first} wins {:.1}%, {} playouts, {:.2} s{on_cpu})",
        r.playouts_per_second() / 1e6,
        r.plies_per_playout(),
        r.plies_per_second() / 1e6,
        100.0 * r.first_win_share(),
        r.playouts,
        r.seconds
    );
}

/// ", on CPU 97%": the share of the wall-clock time the measurement ran, so a figure taken
/// on a busy machine says so (rates are wall-clock rates).
fn on_cpu(before: Option<f64>, wall: f64) -> String {
    match (before, cpu_seconds()) {
        (Some(a), Some(b)) if wall > 0.0 => format!(", on CPU {:.0}%", 100.0 * (b - a) / wall),
        _ => String::new(),
    }
}
