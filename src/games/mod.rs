//! The games `--game` offers and what each registers for the command line: its size
//! options, the sizes commands start from, and the [`GameSetup`] generic commands run on.

pub mod breakthrough;

use arena::setup::GameSetup;
use arena::spec::PlayerSpec;
use std::error::Error;
use std::path::Path;

/// The games quasar plays (Woodpush, Chinese Checkers and checkers register here later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    /// Breakthrough on any board of up to 64 cells
    #[default]
    Breakthrough,
}

/// `--game` and every game's size options, flattened into each subcommand that plays.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// The game
    #[arg(long, value_enum, default_value_t = GameName::Breakthrough)]
    pub game: GameName,
    #[command(flatten)]
    pub breakthrough: breakthrough::SizeArgs,
}

/// Which of a game's sizes a command starts from when none is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultSize {
    /// The game's usual size (8x8 Breakthrough): perft, bestmove, gtp.
    Standard,
    /// A quick size for games against people and matches (6x6 Breakthrough): play, arena.
    Quick,
}

/// The main job of `quasar arena` without players: the game, its players and the games.
pub struct MainJob<S> {
    /// The game and size the job plays.
    pub setup: S,
    /// The players (a table player against the plain engine).
    pub players: Vec<PlayerSpec>,
    /// Games of the match.
    pub games: u32,
}

/// What a game registers for the command line beyond [`GameSetup`].
pub trait CliGame: GameSetup {
    /// The setup this game's size options ask for; `None` when none was given.
    fn from_args(args: &GameArgs) -> Result<Option<Self>, Box<dyn Error>>;

    /// The setup a command starts from when no size is given.
    fn default_size(which: DefaultSize) -> Self;

    /// The setup the size options ask for, else the default of `which`.
    fn from_args_or(args: &GameArgs, which: DefaultSize) -> Result<Self, Box<dyn Error>> {
        Ok(Self::from_args(args)?.unwrap_or_else(|| Self::default_size(which)))
    }

    /// The main job of `quasar arena`, building what it needs in `cache` (with progress on
    /// standard error when `progress`); `None` for a game that has none.
    fn main_job(cache: &Path, progress: bool) -> Result<Option<MainJob<Self>>, Box<dyn Error>> {
        let _ = (cache, progress);
        Ok(None)
    }
}

/// Runs `$body` with the type `$S` bound to the [`CliGame`] that `$name` (a [`GameName`])
/// picks: the one place that lists the registered games.
macro_rules! with_game {
    ($name:expr, $S:ident => $body:expr) => {
        match $name {
            $crate::games::GameName::Breakthrough => {
                type $S = $crate::games::breakthrough::BreakthroughSetup;
                $body
            }
        }
    };
}
pub(crate) use with_game;
