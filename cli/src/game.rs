//! A game's sizes on the command line: its size options, the size commands start from, its
//! fastest playout loop for `quasar bench` and the main job of `quasar arena`.

use crate::{SolveGame, TableGame};
use engine::settings::EngineSettings;
use engine::spec::PlayerSpec;
use quasar_core::measure::PlayoutRate;
use std::error::Error;
use std::path::{Path, PathBuf};

/// The main job of `quasar arena` without players: the game, its players and the games.
#[derive(Debug)]
pub struct MainJob<S> {
    /// The game and size the job plays.
    pub setup: S,
    /// The players (a table player against the plain engine).
    pub players: Vec<PlayerSpec>,
    /// Games of the match.
    pub games: u32,
}

impl<S> MainJob<S> {
    /// The usual main job: the engine with the table at `table` against the engine without.
    pub fn table_against_plain(setup: S, table: PathBuf, games: u32) -> MainJob<S> {
        let with_table = EngineSettings {
            table: Some(table),
            ..EngineSettings::default()
        };
        MainJob {
            setup,
            players: vec![
                PlayerSpec::Mcts(with_table),
                PlayerSpec::Mcts(EngineSettings::default()),
            ],
            games,
        }
    }
}

/// What a game registers for the command line beyond
/// [`GameSetup`](engine::setup::GameSetup).
pub trait CliGame: TableGame + SolveGame {
    /// The game's size options (flattened into every subcommand that plays).
    type SizeArgs: clap::Args + SizeFlags;

    /// The size flags of every game (`GameArgs`) this one takes: its own and, where its
    /// size has pieces, `--pieces-per-side`; any other given is refused.
    const SIZE_FLAGS: &'static [&'static str];

    /// What the game's size is, in words, for that refusal: "its size is --board WxH".
    const SIZE_WORDS: &'static str;

    /// Whether [`Self::playout_rate`] is a fused loop with a plain one to compare
    /// ([`Self::plain_playout_rate`], `bench --plain`).
    const FUSED_PLAYOUT: bool = false;

    /// The setup these size options and the shared `--pieces-per-side` ask for; `None` when none
    /// was given (a game without pieces in its size refuses `pieces`).
    fn from_size(
        args: &Self::SizeArgs,
        pieces: Option<u32>,
    ) -> Result<Option<Self>, Box<dyn Error>>;

    /// The setup every command that plays or builds starts from when no size is given
    /// (`solve`, slower by far, keeps a smaller board of its own).
    fn default_size() -> Self;

    /// Uniformly random playouts from `pos` for about `seconds`, as `quasar bench` times
    /// them: the game's fastest loop (by default the generic one of `legal_moves` and
    /// `play`).
    fn playout_rate(pos: &Self::Game, seed: u64, seconds: f64) -> PlayoutRate {
        quasar_core::measure::playout_rate(pos, seed, seconds)
    }

    /// The plain per-ply playout loop to compare with [`Self::playout_rate`], for a game
    /// whose fastest loop is a fused one.
    fn plain_playout_rate(pos: &Self::Game, seed: u64, seconds: f64) -> Option<PlayoutRate> {
        let _ = (pos, seed, seconds);
        None
    }

    /// The main job of `quasar arena`, building what it needs in `cache` (with progress on
    /// standard error when `progress`); `None` for a game that has none.
    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let _ = (cache, progress);
        Ok(None)
    }
}

/// A game's own size options: those given, by flag.
pub trait SizeFlags {
    /// The flags given (`--board`).
    fn given(&self) -> Vec<&'static str>;
}

/// The setup and position to work on: `--position` text, else the start position of the
/// size the options `given`, or of the game's default size. Size options given with a
/// position must agree with its size: a disagreement is refused, never settled silently.
pub fn position_from<S: CliGame>(
    given: Option<S>,
    text: Option<&str>,
) -> Result<(S, S::Game), Box<dyn Error>> {
    use quasar_core::Game;
    match text {
        Some(text) => {
            let pos = S::Game::parse_position(text)?;
            let setup = S::of_position(&pos);
            if let Some(g) = &given {
                if *g != setup {
                    return Err(format!(
                        "the size options give {} but the position is {}",
                        g.params(),
                        setup.params()
                    )
                    .into());
                }
            }
            Ok((setup, pos))
        }
        None => {
            let setup = given.unwrap_or_else(|| S::default_size());
            let pos = setup.start()?;
            Ok((setup, pos))
        }
    }
}
