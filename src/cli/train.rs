//! `quasar train`: self-play shards of labelled positions, and a learned evaluation fitted
//! to them.

use super::engine_opts::EngineArgs;
use super::CliResult;
use crate::games::{with_game, CliGame, GameArgs};
use arena::selfplay::{play_shard, SelfPlay};
use engine::settings::{ProbeRule, TableSpec};
use learn::sample::{read_shard, write_shard};
use learn::{Active, Dataset, Epoch, Model, TrainConfig, Trainer};
use quasar_cli::progress::Bars;
use quasar_core::progress::Progress;
use quasar_core::Game;
use quasar_file as qfile;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Train a learned evaluation: self-play shards, then a fit.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Play a player against itself from random openings and write each searched position,
    /// labelled, into shards (one file a shard; shards already written are skipped)
    #[command(after_help = PLAY_HELP)]
    Play(Box<PlayArgs>),
    /// Fit a learned evaluation to the positions of shards and write the model
    #[command(after_help = FIT_HELP)]
    Fit(FitArgs),
}

const PLAY_HELP: &str = "\
Each shard is a file DIR/shard-NNNNN.tsv, written whole or not at all: a run that is stopped
loses at most the shard it was playing, and running the same command again plays only the
shards that are missing. Shards are independent jobs with seeds of their own, so GNU
parallel or a Slurm array can spread them:

Examples:
  quasar train play --board 6x6 --sims 800 --shards 0-19 --out data-6x6
  parallel quasar train play --board 8x8 --sims 800 --shards {} --out data-8x8 ::: $(seq 0 99)
  quasar train play --board 6x6 --sims 800 --shards $SLURM_ARRAY_TASK_ID --out data-6x6 \\
      --exact tables/6x6-r4.d";

const FIT_HELP: &str = "\
A position's target is the table's exact value where the shard has one, else the game's
outcome and the search's value mixed (--outcome-weight of the outcome). Every tenth shard
(the last one of fewer than ten; every tenth position of a single shard) is held out to
measure the fit; the model of the epoch with the lowest held-out loss is
written. A checkpoint (OUT.ckpt) after every epoch lets a stopped fit resume.

Examples:
  quasar train fit --board 6x6 data-6x6 --out bt-6x6.qsrmodel
  quasar bestmove --board 6x6 --net bt-6x6.qsrmodel --time 1s
  quasar arena --board 6x6 --player mcts:net=bt-6x6.qsrmodel --player mcts:net=off";

/// The options of `train play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// The folder the shards go into (created if missing)
    #[arg(long, short = 'o', value_name = "DIR")]
    out: PathBuf,
    /// The shards to play: one number (7) or a range (0-99)
    #[arg(long, default_value = "0", value_parser = shard_range)]
    shards: (u32, u32),
    /// Games in each shard
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// Uniformly random plies opening each game: a number or a range (2-6)
    #[arg(long, default_value = "2-6", value_parser = ply_range)]
    random_plies: (u32, u32),
    /// A table that labels the positions it holds with their exact values
    #[arg(long, value_name = "TABLE")]
    exact: Option<PathBuf>,
    /// No progress lines
    #[arg(long)]
    quiet: bool,
}

/// The options of `train fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Shard files, or folders whose shard-*.tsv files are read
    #[arg(required = true, value_name = "SHARDS")]
    inputs: Vec<PathBuf>,
    /// The model file to write
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
    /// Passes over the positions
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// The step size
    #[arg(long, default_value_t = 0.05, value_parser = positive)]
    rate: f32,
    /// Weight decay of each step
    #[arg(long, default_value_t = 1e-6, value_parser = share)]
    l2: f32,
    /// Where a position has no exact value: the share of the game's outcome in its target,
    /// the rest the search's value
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    outcome_weight: f32,
    /// Seed of the order of positions
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write each epoch's losses to this CSV file
    #[arg(long, value_name = "FILE")]
    curve: Option<PathBuf>,
    /// No progress lines
    #[arg(long)]
    quiet: bool,
}

fn shard_range(text: &str) -> Result<(u32, u32), String> {
    range(text, 1_000_000)
}

fn ply_range(text: &str) -> Result<(u32, u32), String> {
    range(text, 200)
}

/// `N` or `A-B` with `A <= B <= max`.
fn range(text: &str, max: u32) -> Result<(u32, u32), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("'{t}' is not a whole number from 0 to {max}"))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(text)?, num(text)?),
    };
    if a > b {
        return Err(format!(
            "{a}-{b} is an empty range: give the smaller number first"
        ));
    }
    Ok((a, b))
}

fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if v > 0.0 && v <= 10.0 => Ok(v),
        _ => Err(format!(
            "'{text}' is not a step size above 0 and at most 10"
        )),
    }
}

fn share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

/// Runs the subcommand.
pub fn run(cmd: Command) -> CliResult {
    match cmd {
        Command::Play(a) => with_game!(a.game, S, given => play::<S>(&a, given)),
        Command::Fit(a) => with_game!(a.game, S, given => fit::<S>(&a, given)),
    }
}

fn shard_path(dir: &Path, shard: u32) -> PathBuf {
    dir.join(format!("shard-{shard:05}.tsv"))
}

fn play<S: CliGame>(args: &PlayArgs, given: Option<S>) -> CliResult {
    let setup = given.unwrap_or_else(|| S::default_size());
    if setup.features().is_none() {
        return Err(format!("{} has no features for a learned evaluation yet", S::NAME).into());
    }
    let choice = args.engine.choice(&setup)?;
    let exact = match &args.exact {
        Some(path) => Some(setup.load_oracle(&TableSpec {
            path: path.clone(),
            rule: ProbeRule::Sound,
            cache_bytes: None,
        })?),
        None => None,
    };
    if !args.out.exists() {
        std::fs::create_dir_all(&args.out)
            .map_err(|e| format!("{}: cannot create the folder: {e}", args.out.display()))?;
    }
    qfile::check_output_dir(&args.out)?;
    let todo: Vec<u32> = (args.shards.0..=args.shards.1)
        .filter(|&k| !shard_path(&args.out, k).exists())
        .collect();
    let total = args.shards.1 - args.shards.0 + 1;
    if todo.is_empty() {
        println!(
            "all {total} shards are in {} already: nothing to play",
            args.out.display()
        );
        return Ok(());
    }
    let bars = Bars::new(!args.quiet);
    bars.begin("self-play games", todo.len() as u64 * args.games as u64);
    let (mut positions, start) = (0usize, Instant::now());
    for &k in &todo {
        let plan = SelfPlay {
            games: args.games,
            random_plies: args.random_plies,
            seed: quasar_core::splitmix64(args.engine.seed ^ ((k as u64) << 32)),
        };
        let samples = play_shard(&setup, &choice, &plan, exact.as_deref(), &bars)?;
        positions += samples.len();
        write_shard(
            &shard_path(&args.out, k),
            S::NAME,
            &setup.params(),
            &samples,
        )?;
    }
    bars.end();
    println!(
        "{} shards ({} games, {positions} positions) written to {} in {:.0} s; {} were there already",
        todo.len(),
        todo.len() as u64 * args.games as u64,
        args.out.display(),
        start.elapsed().as_secs_f64(),
        total as usize - todo.len()
    );
    Ok(())
}

/// The shard files `inputs` name: files as given, folders' `shard-*.tsv` in name order.
fn shard_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("{}: {e}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".tsv"))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!(
                    "{} holds no shard-*.tsv files: play some with `quasar train play --out {}`",
                    input.display(),
                    input.display()
                ));
            }
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn fit<S: CliGame>(args: &FitArgs, given: Option<S>) -> CliResult {
    let setup = given.unwrap_or_else(|| S::default_size());
    let features = setup
        .features()
        .ok_or_else(|| format!("{} has no features for a learned evaluation yet", S::NAME))?;
    qfile::check_output(&args.out)?;
    let files = shard_files(&args.inputs)?;
    let bars = Bars::new(!args.quiet);
    bars.begin("reading shards", files.len() as u64);
    let (mut train, mut valid) = (Dataset::new(), Dataset::new());
    let mut active = Active::default();
    let mut exact = 0usize;
    // The hand-written evaluation: the model's base, and its loss on the held-out
    // positions for comparison.
    let hand = setup.mcts_evaluation().ok_or_else(|| {
        format!(
            "{} has no evaluation for a learned one to stand on",
            S::NAME
        )
    })?;
    let (mut hand_loss, mut hand_n) = (0.0f64, 0usize);
    for (i, file) in files.iter().enumerate() {
        let samples = read_shard(file, S::NAME, &setup.params())?;
        for (j, s) in samples.iter().enumerate() {
            let pos = S::Game::parse_position(&s.position)
                .map_err(|e| format!("{}: position {}: {e}", file.display(), j + 1))?;
            if pos.outcome().is_some() {
                continue;
            }
            features.active(&pos, &mut active);
            exact += s.exact.is_some() as usize;
            // Whole shards are held out where there are several, so that no game has
            // positions on both sides.
            let held_out = if files.len() >= 2 {
                i % 10 == 9 || (files.len() < 10 && i == files.len() - 1)
            } else {
                j % 10 == 9
            };
            let target = s.target(args.outcome_weight);
            let base = learn::eval::base_logit(hand.as_ref(), &pos);
            if held_out {
                hand_loss += learn::train::cross_entropy(learn::model::sigmoid(base), target);
                hand_n += 1;
                valid.push(active.as_slice(), base, target);
            } else {
                train.push(active.as_slice(), base, target);
            }
        }
        bars.advance(1);
    }
    bars.end();
    if train.is_empty() || valid.is_empty() {
        return Err("too few positions to fit and check a model: play more shards".into());
    }
    println!(
        "{} positions to fit, {} held out, {exact} with exact values from a table",
        train.len(),
        valid.len()
    );
    if hand_n > 0 {
        println!(
            "the hand-written evaluation's held-out loss: {:.4}",
            hand_loss / hand_n as f64
        );
    }
    let config = TrainConfig {
        rate: args.rate,
        l2: args.l2,
        seed: args.seed,
    };
    let identity = learn::eval::identity(features.as_ref(), hand.as_ref());
    let ckpt = args.out.with_extension("ckpt");
    let mut trainer = match learn::train::load_checkpoint(&ckpt, &identity, config)? {
        Some(t) if t.epochs < args.epochs => {
            println!("resuming from {} after epoch {}", ckpt.display(), t.epochs);
            t
        }
        _ => {
            // The features start from nothing and the base at full weight: the first
            // epoch starts from the hand-written evaluation's predictions.
            let mut model = Model::zeros(identity, features.len());
            model.base_weight = 1.0;
            Trainer::new(model, config)
        }
    };
    let mut best = (f64::INFINITY, trainer.model.clone());
    if trainer.epochs > 0 {
        best = (trainer.loss(&valid), trainer.model.clone());
    }
    let mut curve = String::from("epoch,train_loss,valid_loss\n");
    let start = Instant::now();
    while trainer.epochs < args.epochs {
        let Epoch {
            number,
            train_loss,
            valid_loss,
        } = trainer.epoch(&train, &valid);
        curve.push_str(&format!("{number},{train_loss:.5},{valid_loss:.5}\n"));
        if valid_loss < best.0 {
            best = (valid_loss, trainer.model.clone());
            learn::save(&args.out, &best.1)?;
        }
        learn::train::save_checkpoint(&ckpt, &trainer)?;
        if !args.quiet {
            eprintln!(
                "epoch {number}/{}: loss {train_loss:.4}, held out {valid_loss:.4}{} ({:.0} s)",
                args.epochs,
                if valid_loss <= best.0 { " (best)" } else { "" },
                start.elapsed().as_secs_f64()
            );
        }
    }
    if let Some(path) = &args.curve {
        qfile::write(path, curve.as_bytes())?;
    }
    println!(
        "{} written: held-out loss {:.4} ({} weights)",
        args.out.display(),
        best.0,
        best.1.weights.len()
    );
    Ok(())
}
