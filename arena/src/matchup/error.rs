//! What refuses a match: its settings, a record of other settings, a damaged game.

use crate::record::RecordError;
use engine::player::PlayerError;
use engine::setup::SetupError;
use quasar_core::Shard;
use std::path::PathBuf;

/// Settings that cannot make a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Fewer than two players.
    #[error("a match needs at least two players")]
    TooFewPlayers,
    /// Two players with the same spec.
    #[error("the same player '{0}' is named twice; the record tells players apart by their spec, so vary one (for example random and random:seed=2, or mcts:seed=1 and mcts:seed=2)")]
    SamePlayerTwice(String),
    /// No games.
    #[error("--games must be at least 1")]
    NoGames,
    /// An SPRT with other than two players.
    #[error("--sprt decides between two players; give exactly two")]
    SprtNeedsTwo,
    /// An SPRT in one shard of a match.
    #[error("--sprt decides as games finish, which one shard of a match cannot do for the whole; drop --sprt or --shard")]
    SprtInShard,
    /// No random opening of that length leaves the game open.
    #[error("no {plies}-ply random opening on {params} leaves the game open in 1000 tries; use fewer --openings-plies")]
    NoOpening {
        /// The opening length asked for.
        plies: u32,
        /// The game's parameters.
        params: String,
    },
}

/// A game of a record whose moves are illegal or contradict its result.
#[derive(Debug, thiserror::Error)]
#[error("record {}, line {line}: game {number} of {player_a} vs {player_b}: {source}; the record was damaged or edited: fix or delete the line, or use another --record", path.display())]
pub struct InvalidGame {
    /// The record.
    pub path: PathBuf,
    /// 1-based line of the game.
    pub line: usize,
    /// The game's number in its pairing.
    pub number: u32,
    /// The pairing's first player.
    pub player_a: String,
    /// The pairing's second player.
    pub player_b: String,
    /// What does not hold together.
    pub source: crate::verify::VerifyError,
}

/// What went wrong with a match as a whole (a single game never fails: it is lost).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Reading or writing the record failed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The game cannot be set up with these parameters.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The settings cannot make a match.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// A player could not be built for a game.
    #[error("player '{spec}': {error}")]
    Player {
        /// The player's spec.
        spec: String,
        /// Why it could not be built.
        error: PlayerError,
    },
    /// The record holds games of these players under other settings.
    #[error(transparent)]
    Mismatch(Box<Mismatch>),
    /// A game of the record whose moves are illegal or contradict its result.
    #[error(transparent)]
    Invalid(Box<InvalidGame>),
    /// The record holds more games a pairing than the match asks for: never cut short.
    #[error("record {} holds {held} games a pairing, more than --games {games}: a record is never cut; give --games {held} or more to resume it (the report covers every game), or another --out (or --record)", path.display())]
    MoreGames {
        /// The record's path.
        path: PathBuf,
        /// Games a pairing the record holds (its highest game number plus one).
        held: u32,
        /// Games a pairing asked for.
        games: u32,
    },
}

/// A recorded game that this match would not have played alike.
#[derive(Debug, thiserror::Error)]
pub enum Mismatch {
    /// A setting differs.
    #[error("record {} holds game {number} of {player_a} vs {player_b} with {what} {then}, but this match has {now}: one record holds one match; give this one another --out (or another --record), or the same settings", path.display())]
    Setting {
        /// The record's path.
        path: PathBuf,
        /// The game's number.
        number: u32,
        /// Player A's spec.
        player_a: String,
        /// Player B's spec.
        player_b: String,
        /// The setting that differs.
        what: &'static str,
        /// Its value in the record.
        then: String,
        /// Its value in this match.
        now: String,
    },
    /// The record holds a game of another shard's share.
    #[error("record {} holds game {number} of {player_a} vs {player_b}, which is not in shard {shard}'s share; give each shard its own --record (the default under --out is)", path.display())]
    OtherShare {
        /// The record's path.
        path: PathBuf,
        /// The game's number.
        number: u32,
        /// Player A's spec.
        player_a: String,
        /// Player B's spec.
        player_b: String,
        /// This job's shard.
        shard: Shard,
    },
    /// The record's opening differs from the one the seed (and openings file) makes now.
    #[error("record {} holds game {number} of {player_a} vs {player_b} with opening {recorded:?}, but this version of quasar makes {made:?} from the same seed; use another --record", path.display())]
    Opening {
        /// The record's path.
        path: PathBuf,
        /// The game's number.
        number: u32,
        /// Player A's spec.
        player_a: String,
        /// Player B's spec.
        player_b: String,
        /// The opening in the record.
        recorded: Vec<String>,
        /// The opening made now.
        made: Vec<String>,
    },
}
