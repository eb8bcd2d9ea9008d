//! [`GameSetup`]: what a game with its size parameters tells the arena, the GTP engine and
//! the command line beyond [`Game`] (its name, start, sizes, playout policy and tables).

use crate::guard::{Guard, Guarded, GUARD_TABLE_BYTES};
use crate::settings::{EngineSettings, PlayoutSettings, SearchDefaults, TableSpec};
use alphabeta::AlphaBeta;
use mcts::{Config, PlayoutPolicy};
use quasar_core::{Chain, Evaluation, Game, Oracle, Verdicts};
use std::fmt;
use std::sync::Arc;

/// Every playout switch a policy may take, as `mcts:` keys name them.
pub const PLAYOUT_KEYS: [&str; 5] = [
    "playout",
    "eval-after",
    "capture-weight",
    "win-in-one",
    "stop-threats",
];

/// A boxed error from a game crate (its own typed size or table error), kept as the source.
pub type GameError = Box<dyn std::error::Error + Send + Sync>;

/// Why a game could not be set up as asked.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The size parameters are not a playable game (for example a board without a start).
    #[error("{0}")]
    Size(GameError),
    /// A GTP `boardsize` this game cannot take.
    #[error("{0}")]
    Boardsize(String),
    /// A table could not be opened or does not fit.
    #[error("tablebase {0}")]
    Table(GameError),
    /// A playout switch this game's policy does not have.
    #[error("{0}")]
    Policy(String),
    /// A playout switch of another game's policy.
    #[error("{key}= is not an option of {game}: {policy}")]
    NotAnOption {
        /// The key as specs write it.
        key: &'static str,
        /// The game's name.
        game: &'static str,
        /// What the game's playouts do, and which switches they take.
        policy: String,
    },
    /// The alpha-beta player's transposition table does not fit in memory.
    #[error(transparent)]
    Hash(#[from] alphabeta::TableTooLarge),
    /// A learned evaluation that cannot be read or does not fit the game.
    #[error(transparent)]
    Net(#[from] learn::NetError),
    /// A learned evaluation asked of a game that has none.
    #[error("{game} has no {what}: use net=off, or net=FILE with a model from `quasar train fit`")]
    NoNet {
        /// The game's name.
        game: &'static str,
        /// What is missing (`features for a learned evaluation`, `built-in model`).
        what: &'static str,
    },
    /// A search option that needs the game's evaluation, in a game without one.
    #[error("{key}={value} needs an evaluation of positions, and {game} has none (use {key}=0)")]
    NoEvaluation {
        /// The option's key (`imb`, `prior`).
        key: &'static str,
        /// Its value as given.
        value: String,
        /// The game's name.
        game: &'static str,
    },
}

/// The evaluation a search uses and how: the game's defaults filled in for the options
/// the settings leave unset.
#[derive(Debug)]
pub struct EvaluationUse<G: Game> {
    /// The weight of implicit minimax backups (0: off).
    pub imb: f64,
    /// The winning chance from which backups weigh 1 (`None`: `imb` everywhere).
    pub imb_decided: Option<f64>,
    /// Virtual visits of node priors (0: off).
    pub prior: u32,
    /// Plies of the shallow search behind new nodes' values (0: the evaluation alone).
    pub prior_depth: u32,
    /// The game's evaluation, `None` when none of them is on.
    pub evaluation: Option<Arc<dyn Evaluation<G>>>,
    /// What scores a simulation at an unproven leaf.
    pub leaf: mcts::Leaf,
    /// Whether the evaluation is a learned model (`net=`) rather than the game's own.
    pub learned: bool,
}

impl<G: Game> EvaluationUse<G> {
    /// Puts the weights into `config`.
    pub fn apply<P>(&self, config: &mut Config<P>) {
        config.imb = self.imb;
        config.imb_decided = self.imb_decided;
        config.prior = self.prior;
        config.prior_depth = self.prior_depth;
        config.leaf = self.leaf;
    }
}

/// Loads an exact table (win/draw/loss or scores, so `rule=race`, Breakthrough's, does not
/// apply) with `load`, then asks `fits` whether it belongs to the game being set up: its
/// answer, a reason like "is for width 7, but the game is on width 9", follows the file name.
/// `what` names the table in the refusal of `rule=race` ("a Woodpush table").
pub fn load_exact_table<T, E: Into<GameError>>(
    table: &TableSpec,
    what: &str,
    load: impl FnOnce(&std::path::Path) -> Result<T, E>,
    fits: impl FnOnce(&T) -> Result<(), String>,
) -> Result<T, SetupError> {
    if table.rule == crate::settings::ProbeRule::Race {
        return Err(SetupError::Policy(format!(
            "rule=race needs a table with a looser rule; {what} is exact (rule=sound)"
        )));
    }
    let t = load(&table.path).map_err(|e| SetupError::Table(e.into()))?;
    fits(&t).map_err(|why| SetupError::Table(format!("{} {why}", table.path.display()).into()))?;
    Ok(t)
}

/// How a game's records are written: the file's extension and the tags its readers expect
/// beyond the arena's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordStyle {
    /// The file extension without its dot (`pgn`; `pdn` for checkers).
    pub extension: &'static str,
    /// Tags written after the arena's own (`GameType "21"` for checkers' PDN).
    pub tags: Vec<(&'static str, String)>,
}

impl Default for RecordStyle {
    fn default() -> RecordStyle {
        RecordStyle {
            extension: "pgn",
            tags: Vec::new(),
        }
    }
}

/// How a report draws a game's board: where each cell sits, its shape, and the colours of
/// the two sides' pieces. [`GameSetup::cells`] gives a position one character a cell.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Picture {
    /// Each cell's centre, in cell widths from the top left, in the order of the cells text.
    pub cells: Vec<[f64; 2]>,
    /// `square` (checkered by position) or `hex`.
    pub shape: &'static str,
    /// Squares drawn as plain light background, not cells (checkers' light squares).
    pub background: Vec<[f64; 2]>,
    /// The fill colours of the first and the second side's pieces (CSS colours).
    pub colours: [&'static str; 2],
    /// Each cell's name in the game's notation, in the cells' order (empty: none shown).
    pub labels: Vec<String>,
}

/// Which part of an engine option's help a game's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpPart {
    /// The game's own default, where it is not the option's (`0.4, 0.2 from 8 rows up`).
    Default,
    /// What the option means or does in the game (the positions that are not quiet: "a
    /// capture to make").
    Note,
}

/// What a game says in the help of one engine option ([`GameSetup::option_help`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionHelp {
    /// The option's name, as its flag and key write it (`c`).
    pub option: &'static str,
    /// Which part of the help the text is.
    pub part: HelpPart,
    /// The words, without the game's name, which the help puts before them.
    pub text: &'static str,
}

impl OptionHelp {
    /// The game's own default of `option`, in words.
    pub const fn default_of(option: &'static str, text: &'static str) -> OptionHelp {
        OptionHelp {
            option,
            part: HelpPart::Default,
            text,
        }
    }

    /// What `option` means or does in the game.
    pub const fn note(option: &'static str, text: &'static str) -> OptionHelp {
        OptionHelp {
            option,
            part: HelpPart::Note,
            text,
        }
    }
}

/// A game together with its size parameters ("Breakthrough on 6x6"): what the arena, the
/// GTP engine and the command line need beyond [`Game`]. Each game implements it where
/// `--game` registers it; generic code never names a game.
pub trait GameSetup: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// The positions of the game.
    type Game: Game;
    /// Its playout policy.
    type Policy: PlayoutPolicy<Self::Game>;

    /// The game's name as `--game` takes it and records keep it (`breakthrough`).
    const NAME: &'static str;

    /// The size parameters as text, for records and reports (`6x6`).
    fn params(&self) -> String;

    /// The setup whose [`GameSetup::params`] are `text`, for reading records back.
    fn from_params(text: &str) -> Result<Self, SetupError>;

    /// How records of this game are written (PGN-style by default).
    fn record_style(&self) -> RecordStyle {
        RecordStyle::default()
    }

    /// How a report draws the board; `None` shows positions as text.
    fn picture(&self) -> Option<Picture> {
        None
    }

    /// A position as one character per cell of [`GameSetup::picture`]: `.` empty, `a` and
    /// `b` a piece of the first and the second side, `A` and `B` a crowned piece.
    fn cells(&self, pos: &Self::Game) -> String {
        let _ = pos;
        String::new()
    }

    /// What the game says in the help of the engine options
    /// ([`crate::settings::options::OPTIONS`]): its own defaults where they are not the
    /// options' (each one the game's `default_*` method gives), and what an option means in
    /// it. One list for the game, whatever its size, since a command's help is written
    /// before a size is chosen; none by default.
    fn option_help() -> &'static [OptionHelp] {
        &[]
    }

    /// The setup a position belongs to (its board size).
    fn of_position(pos: &Self::Game) -> Self;

    /// The start position; an error when these parameters have none.
    fn start(&self) -> Result<Self::Game, SetupError>;

    /// The setup a GTP `boardsize` with these arguments asks for.
    fn boardsize(&self, args: &[&str]) -> Result<Self, SetupError>;

    /// The GTP `boardsize` command that sets this setup up in an engine.
    fn boardsize_command(&self) -> String;

    /// The playout policy these switches describe (only keys of [`Self::playout_keys`]
    /// are set: [`Self::searcher`] refuses the others by name).
    fn policy(&self, playout: &PlayoutSettings) -> Result<Self::Policy, SetupError>;

    /// The playout switches the game's policy takes, as `mcts:` keys and flags name them
    /// (`playout` for `playout=uniform`, `eval-after`, `capture-weight`, `win-in-one`,
    /// `stop-threats`).
    fn playout_keys(&self) -> &'static [&'static str] {
        &PLAYOUT_KEYS
    }

    /// What the game's playouts do and which switches they take, in words, for the
    /// refusal of another game's switch.
    fn playout_text(&self) -> String {
        format!("its playouts take {}", self.playout_keys().join(", "))
    }

    /// An error naming the first playout switch of `settings` that this game's policy
    /// does not have.
    fn check_playout_keys(&self, playout: &PlayoutSettings) -> Result<(), SetupError> {
        match playout
            .given_keys()
            .find(|k| !self.playout_keys().contains(k))
        {
            Some(key) => Err(SetupError::NotAnOption {
                key,
                game: Self::NAME,
                policy: self.playout_text(),
            }),
            None => Ok(()),
        }
    }

    /// Opens a table for this setup as an oracle.
    fn load_oracle(&self, table: &TableSpec) -> Result<Arc<dyn Oracle<Self::Game>>, SetupError>;

    /// A diagram of a position for people, ending with a newline.
    fn diagram(&self, pos: &Self::Game) -> String {
        format!("{}\n", pos.position_text())
    }

    /// The game's own words for how a finished position ended ("a piece reached the far
    /// row"), for records.
    fn end_detail(&self, pos: &Self::Game) -> Option<String> {
        let _ = pos;
        None
    }

    /// The game's evaluation of positions for searches that stop early (alpha-beta's leaves,
    /// MCTS priors and implicit minimax backups); `None` for a game without one.
    fn evaluation(&self) -> Option<Arc<dyn Evaluation<Self::Game>>> {
        None
    }

    /// The features a learned evaluation of this game reads; `None` for a game without any.
    fn features(&self) -> Option<Arc<dyn learn::Features<Self::Game>>> {
        None
    }

    /// The model the game ships for this size, as its file's bytes; `None` without one.
    fn builtin_net(&self) -> Option<&'static [u8]> {
        None
    }

    /// The learned evaluation `net` names, with the game's verdicts and move ordering
    /// behind it; `None` for `net=off`; an error for a model of another game, size or
    /// feature set, a damaged file, or a game without features or a built-in model.
    fn learned_evaluation(
        &self,
        net: &crate::net::NetSpec,
    ) -> Result<Option<Arc<dyn Evaluation<Self::Game>>>, SetupError> {
        use crate::net::NetSpec;
        // The model's file, `None` for the built-in one.
        let file = match net {
            NetSpec::Off => return Ok(None),
            NetSpec::File(path) => Some(path),
            NetSpec::Builtin => None,
        };
        let features = self.features().ok_or(SetupError::NoNet {
            game: Self::NAME,
            what: "features for a learned evaluation",
        })?;
        let base = self.mcts_evaluation().ok_or(SetupError::NoNet {
            game: Self::NAME,
            what: "evaluation for a learned one to stand on",
        })?;
        let want = learn::eval::identity(features.as_ref(), base.as_ref());
        let model = match file {
            Some(path) => learn::load(path, &want)?,
            None => {
                let bytes = self.builtin_net().ok_or(SetupError::NoNet {
                    game: Self::NAME,
                    what: "built-in model for this size",
                })?;
                learn::file::from_builtin(bytes, &want)
            }
        };
        Ok(Some(Arc::new(learn::NetEvaluation::new(
            model, features, base,
        ))))
    }

    /// The learned evaluation MCTS searches with when its settings name no `net=`: the
    /// built-in model where the game ships one for this size.
    fn default_net(&self) -> crate::net::NetSpec {
        match self.builtin_net() {
            Some(_) => crate::net::NetSpec::Builtin,
            None => crate::net::NetSpec::Off,
        }
    }

    /// What scores MCTS's simulations at unproven leaves when the settings name no `leaf=`
    /// and an evaluation is in use, learned or not (a playout by default).
    fn default_leaf(&self, learned: bool) -> mcts::Leaf {
        let _ = learned;
        mcts::Leaf::Playout
    }

    /// The evaluation of MCTS's priors, implicit minimax backups and shallow searches:
    /// alpha-beta's ([`Self::evaluation`]) unless the game weighs things differently for a
    /// search whose playouts cannot see what a deep search sees.
    fn mcts_evaluation(&self) -> Option<Arc<dyn Evaluation<Self::Game>>> {
        self.evaluation()
    }

    /// The searcher `bestmove`, `play` and `gtp` use when the user names none: the
    /// stronger in matches at 100 ms a move (MCTS unless alpha-beta won clearly).
    fn default_engine(&self) -> crate::engine::DefaultEngine {
        crate::engine::DefaultEngine::Mcts
    }

    /// UCT's exploration constant when the settings name no `c=`, for leaves scored by
    /// `leaf` and an evaluation that is `learned` or not (by match results per game;
    /// `mcts::Config`'s by default).
    fn default_c(&self, leaf: mcts::Leaf, learned: bool) -> f64 {
        let _ = (leaf, learned);
        SearchDefaults::default().c
    }

    /// The game's defaults for what MCTS settings leave unset, for leaves scored by `leaf`
    /// and an evaluation that is `learned` or not.
    fn search_defaults(&self, leaf: mcts::Leaf, learned: bool) -> SearchDefaults {
        SearchDefaults {
            oracle_every: self.default_oracle_every(),
            c: self.default_c(leaf, learned),
        }
    }

    /// The weight of implicit minimax backups when the settings name no `imb=` (by match
    /// results per game; 0, off, by default and for games without an evaluation).
    fn default_imb(&self) -> f64 {
        0.0
    }

    /// The winning chance from which a node's children are ranked by their minimax values
    /// alone when the settings name no `imb-decided=` (`None`, off, by default).
    fn default_imb_decided(&self) -> Option<f64> {
        None
    }

    /// The virtual visits of node priors when the settings name no `prior=` (0, off, by
    /// default and for games without an evaluation).
    fn default_prior(&self) -> u32 {
        0
    }

    /// Plies of the shallow search behind new nodes' values when the settings name no
    /// `prior-depth=` (0, the evaluation alone, by default).
    fn default_prior_depth(&self) -> u32 {
        0
    }

    /// How `settings` use the game's evaluation, with the game's defaults for what they
    /// leave unset; an error when they ask for backups or priors and the game has no
    /// evaluation.
    fn evaluation_use(
        &self,
        settings: &EngineSettings,
    ) -> Result<EvaluationUse<Self::Game>, SetupError> {
        let imb = settings.imb.unwrap_or_else(|| self.default_imb());
        let imb_decided = settings
            .imb_decided
            .unwrap_or_else(|| self.default_imb_decided());
        if imb == 0.0 {
            if let Some(Some(p)) = settings.imb_decided {
                return Err(SetupError::Policy(format!(
                    "imb-decided={p} needs imb= above 0: it raises the backups' weight where \
                     a position is decided"
                )));
            }
        }
        let prior = settings.prior.unwrap_or_else(|| self.default_prior());
        let prior_depth = settings
            .prior_depth
            .unwrap_or_else(|| self.default_prior_depth());
        // Priors, backups and shallow searches read the evaluation's values; forced-result
        // checks read only its verdicts and move order.
        let check = settings.check.flatten();
        let values = imb != 0.0 || prior != 0 || prior_depth != 0;
        if !values {
            if let Some(net @ (crate::net::NetSpec::File(_) | crate::net::NetSpec::Builtin)) =
                &settings.net
            {
                return Err(SetupError::Policy(format!(
                    "net={net} needs imb=, prior= or prior-depth= above 0: MCTS reads an \
                     evaluation only for those"
                )));
            }
            if settings.leaf == Some(mcts::Leaf::Evaluation) {
                return Err(SetupError::Policy(
                    "leaf=eval needs imb= or prior= above 0: the leaf's value is the one \
                     its parent's expansion gave it for those"
                        .into(),
                ));
            }
        }
        let (learned, leaf) = if values {
            let net = settings.net.clone().unwrap_or_else(|| self.default_net());
            let learned = self.learned_evaluation(&net)?;
            let leaf = settings
                .leaf
                .unwrap_or_else(|| self.default_leaf(learned.is_some()));
            (learned, leaf)
        } else {
            (None, settings.leaf.unwrap_or_default())
        };
        if !values && check.is_none() {
            return Ok(EvaluationUse {
                imb,
                imb_decided,
                prior,
                prior_depth,
                evaluation: None,
                leaf,
                learned: false,
            });
        }
        let is_learned = learned.is_some();
        let Some(evaluation) = learned.or_else(|| self.mcts_evaluation()) else {
            let (key, value) = if imb != 0.0 {
                ("imb", imb.to_string())
            } else if prior != 0 {
                ("prior", prior.to_string())
            } else if prior_depth != 0 {
                ("prior-depth", prior_depth.to_string())
            } else {
                let c = check.expect("one evaluation use is on");
                ("check", c.to_string())
            };
            return Err(SetupError::NoEvaluation {
                key,
                value,
                game: Self::NAME,
            });
        };
        Ok(EvaluationUse {
            imb,
            imb_decided,
            prior,
            prior_depth,
            evaluation: Some(evaluation),
            leaf,
            learned: is_learned,
        })
    }

    /// How often playouts consult a table when the settings name no `every=K` (0: only
    /// at expansion); measured per game, by default every ply.
    fn default_oracle_every(&self) -> u32 {
        SearchDefaults::default().oracle_every
    }

    /// The searcher `settings` describe for this setup, loading its table if one is set,
    /// with its guard when the settings or the game's default ask for one; `seed` serves
    /// when the settings fix none.
    fn searcher(
        &self,
        settings: &EngineSettings,
        seed: u64,
    ) -> Result<Guarded<Self::Game, Self::Policy>, SetupError> {
        Ok(crate::mcts_player::MctsFactory::build(settings.clone(), self)?.into_searcher(seed))
    }

    /// The share of each move's time the blunder guard takes when the settings name no
    /// `guard=` (0, off, by default and for games without an evaluation).
    fn default_guard(&self) -> f64 {
        0.0
    }

    /// The blunder guard `settings` ask for (the game's default where they name none),
    /// checking with `table` as its oracle; an error when the game has no evaluation.
    fn guard(
        &self,
        settings: &EngineSettings,
        table: Option<Arc<dyn Oracle<Self::Game>>>,
    ) -> Result<Option<Guard<Self::Game>>, SetupError> {
        let share = settings.guard.unwrap_or_else(|| self.default_guard());
        if share == 0.0 {
            return Ok(None);
        }
        let Some(eval) = self.evaluation() else {
            return Err(SetupError::NoEvaluation {
                key: "guard",
                value: share.to_string(),
                game: Self::NAME,
            });
        };
        let config = alphabeta::Config {
            table_bytes: GUARD_TABLE_BYTES,
            ..alphabeta::Config::default()
        };
        // The guard only acts on proven results: with nothing to weigh its searches cut as
        // a proof search does and see forced wins plies deeper in the same time.
        let ab = AlphaBeta::new(config, Arc::new(quasar_core::ForcedOnly(eval)));
        let ab = match table {
            Some(t) => ab.with_oracle(t),
            None => ab,
        };
        Ok(Some(Guard::new(ab, share)))
    }

    /// The table `settings` name, loaded; `None` when they name none.
    #[allow(clippy::type_complexity)]
    fn table_oracle(
        &self,
        settings: &EngineSettings,
    ) -> Result<Option<Arc<dyn Oracle<Self::Game>>>, SetupError> {
        match settings.table_spec() {
            Some(table) => Ok(Some(self.load_oracle(&table)?)),
            None => Ok(None),
        }
    }

    /// What MCTS consults as its oracle under `settings`: `table` (loaded by
    /// [`Self::table_oracle`]) when there is one, then the game's sound verdicts unless
    /// `verdicts=off` (or the game has no evaluation).
    fn mcts_oracle(
        &self,
        settings: &EngineSettings,
        table: Option<Arc<dyn Oracle<Self::Game>>>,
    ) -> Option<Arc<dyn Oracle<Self::Game>>> {
        let verdicts = match (settings.verdicts, self.evaluation()) {
            (Some(false), _) | (_, None) => None,
            (_, Some(eval)) => Some(Arc::new(Verdicts(eval)) as Arc<dyn Oracle<Self::Game>>),
        };
        match (table, verdicts) {
            (Some(t), Some(v)) => Some(Arc::new(Chain::new(t, v))),
            (t, v) => t.or(v),
        }
    }
}
