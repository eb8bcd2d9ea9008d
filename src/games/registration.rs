//! What a game registers for the command line beyond [`GameSetup`]: its size options,
//! the sizes commands start from, and the main job of `quasar arena`.

use arena::settings::EngineSettings;
use arena::setup::GameSetup;
use arena::spec::PlayerSpec;
use quasar_core::measure::PlayoutRate;
use std::error::Error;
use std::path::Path;

/// The main job of `quasar arena` without players: the game, its players and the games.
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
    pub fn table_against_plain(setup: S, table: std::path::PathBuf, games: u32) -> MainJob<S> {
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

/// What a game registers for the command line beyond [`GameSetup`].
pub trait CliGame: GameSetup {
    /// The game's size options (flattened into every subcommand that plays).
    type SizeArgs: clap::Args;

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
