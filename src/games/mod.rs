//! The list of games `--game` offers: their names, their size options gathered into every
//! subcommand, and the dispatch from a name to the game's [`CliGame`] registration, which
//! each game's crate holds (its module `cli`, behind its feature `cli`).

pub mod options;

use engine::settings::options::{EngineOption, GameTexts};
pub use quasar_cli::{CliGame, OwnTableOptions};

/// Declares, from one list, everything that names each game: [`GameName`] (`--game`'s
/// values), [`GameArgs`], [`TableArgs`] and [`CompressGameArgs`] (each game's options
/// flattened into the subcommands) and `with_game!`, the dispatch from a name to the game's
/// [`CliGame`] registration, `CRATE::cli::SETUP`. `$d` is a `$` token, so that the
/// generated macro can have variables.
macro_rules! games {
    ($d:tt $($(#[$attr:meta])* $variant:ident => $module:ident :: cli :: $setup:ident,)*) => {
        /// The games quasar plays.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
        pub enum GameName {
            $($(#[$attr])* $variant,)*
        }

        /// `--game` and every game's size options, flattened into each subcommand that plays.
        #[derive(clap::Args, Clone, Debug)]
        pub struct GameArgs {
            /// The game
            #[arg(long, value_enum, default_value_t = GameName::default())]
            pub game: GameName,
            /// Pieces a side at the start (Woodpush: 1 to 8, on every other cell from each
            /// end, the width at least 4K-2 [default: 2]; Chinese Checkers: 1 to 6 [default:
            /// 2, the papers' starts])
            #[arg(long = "pieces-per-side", alias = "pieces", value_name = "K")]
            pub pieces: Option<u32>,
            $(
                #[allow(missing_docs)]
                #[command(flatten)]
                pub $module: <::$module::cli::$setup as CliGame>::SizeArgs,
            )*
        }

        /// Every game's own options of `tablebase build`, flattened into it.
        #[derive(clap::Args, Clone, Debug, Default)]
        pub struct TableArgs {
            $(
                #[allow(missing_docs)]
                #[command(flatten)]
                pub $module: <::$module::cli::$setup as quasar_cli::TableGame>::TableArgs,
            )*
        }

        /// Every game's own options of `tablebase compress`, flattened into it.
        #[derive(clap::Args, Clone, Debug, Default)]
        pub struct CompressGameArgs {
            $(
                #[allow(missing_docs)]
                #[command(flatten)]
                pub $module: <::$module::cli::$setup as quasar_cli::TableGame>::CompressArgs,
            )*
        }

        impl CompressGameArgs {
            /// The own options given, each with the game that owns it.
            pub fn given(&self) -> Vec<(&'static str, GameName)> {
                let mut given = Vec::new();
                $(
                    given.extend(
                        self.$module.given().into_iter().map(|(f, _)| (f, GameName::$variant)),
                    );
                )*
                given
            }
        }

        impl TableArgs {
            /// The own options given, each with its role and the name of the game that owns
            /// it.
            pub fn given(&self) -> Vec<(&'static str, quasar_cli::OptionRole, &'static str)> {
                use engine::setup::GameSetup;
                let mut given = Vec::new();
                $(
                    let owner = <::$module::cli::$setup as GameSetup>::NAME;
                    given.extend(self.$module.given().into_iter().map(|(f, r)| (f, r, owner)));
                )*
                given
            }
        }

        impl GameArgs {
            /// The size flags given, of every game.
            fn size_flags_given(&self) -> Vec<&'static str> {
                use quasar_cli::SizeFlags;
                let mut given = Vec::new();
                $(given.extend(self.$module.given());)*
                given
            }
        }

        /// Runs `$body` with the type `$S` bound to the [`CliGame`] that a [`GameName`]
        /// picks; given [`GameArgs`] and `$given`, also binds `$given` to the setup its size
        /// options ask for (`None` when none is given; `?` returns a bad size); given
        /// `$own in ARGS` (a [`TableArgs`] or [`CompressGameArgs`]), also binds `$own` to
        /// the game's own options there.
        macro_rules! with_game {
            ($d args:expr, $d S:ident, $d given:ident => $d body:expr) => {{
                $d args.check_sizes()?;
                match $d args.game {
                    $($crate::games::GameName::$variant => {
                        type $d S = ::$module::cli::$setup;
                        let $d given: Option<$d S> = <$d S as quasar_cli::CliGame>::from_size(
                            &$d args.$module,
                            $d args.pieces,
                        )?;
                        $d body
                    })*
                }
            }};
            ($d name:expr, $d S:ident => $d body:expr) => {
                match $d name {
                    $($crate::games::GameName::$variant => {
                        type $d S = ::$module::cli::$setup;
                        $d body
                    })*
                }
            };
            ($d name:expr, $d S:ident, $d own:ident in $d args:expr => $d body:expr) => {
                match $d name {
                    $($crate::games::GameName::$variant => {
                        type $d S = ::$module::cli::$setup;
                        let $d own = &$d args.$module;
                        $d body
                    })*
                }
            };
        }
        pub(crate) use with_game;
    };
}

// The one list of games: a line each, naming the registration in the game's crate.
games! { $
    /// Breakthrough on any board of up to 64 cells
    #[default]
    Breakthrough => breakthrough::cli::BreakthroughSetup,
    /// Woodpush on a strip of 6 to 31 cells
    Woodpush => woodpush::cli::WoodpushSetup,
    /// Two-player Chinese Checkers on the 7x7 hex rhombus, --pieces-per-side 1 to 6
    ChineseCheckers => chinese_checkers::cli::CcSetup,
    /// English checkers (8x8 draughts)
    Checkers => checkers::cli::CheckersSetup,
}

impl GameName {
    /// Every game, in the order of `--game`'s list.
    pub fn all() -> &'static [GameName] {
        <GameName as clap::ValueEnum>::value_variants()
    }

    /// The name `--game` takes (`chinese-checkers`).
    pub fn name(self) -> &'static str {
        with_game!(self, S => <S as engine::setup::GameSetup>::NAME)
    }
}

/// What the registered games say about the engine option `option`, for its help (the
/// engine's table names no game), in the order of `--game`'s list: for a playout switch
/// the games whose playouts take it, by their names in prose (the kind of their tables,
/// `Breakthrough`), and each game's notes and own defaults, by its `--game` name.
pub fn option_texts(option: &EngineOption) -> GameTexts {
    use engine::setup::{GameSetup, HelpPart};
    use quasar_cli::TableGame;
    let mut texts = GameTexts::default();
    for &g in GameName::all() {
        let (name, prose, help, keys) = with_game!(g, S => (
            S::NAME,
            S::TABLE_KIND,
            <S as GameSetup>::option_help(),
            S::default_size().playout_keys(),
        ));
        if option.playout_switch && keys.contains(&option.name) {
            texts.only.push(prose);
        }
        for h in help.iter().filter(|h| h.option == option.name) {
            match h.part {
                HelpPart::Default => texts.defaults.push((name, h.text)),
                HelpPart::Note => texts.notes.push((name, h.text)),
            }
        }
    }
    texts
}

impl GameArgs {
    /// An error naming the first size option given that is not `--game`'s:
    /// "--width is not an option of breakthrough: its size is --board WxH".
    pub fn check_sizes(&self) -> Result<(), String> {
        let given = self.size_flags_given();
        let pieces = self.pieces.iter().map(|_| "--pieces-per-side");
        let (takes, words) = with_game!(self.game, S => (S::SIZE_FLAGS, S::SIZE_WORDS));
        match given.into_iter().chain(pieces).find(|f| !takes.contains(f)) {
            Some(flag) => Err(format!(
                "{flag} is not an option of {}: {words}",
                self.game.name()
            )),
            None => Ok(()),
        }
    }
}

/// The games whose `list` (of the pair `of` gives for a game: a list of flags and the
/// game's kind) holds `flag`, as possessives: "Breakthrough's", "checkers'".
pub fn kinds_taking(
    flag: &str,
    of: impl Fn(GameName) -> (&'static [&'static str], &'static str),
) -> String {
    let kinds: Vec<String> = GameName::all()
        .iter()
        .map(|&g| of(g))
        .filter(|(list, _)| list.contains(&flag))
        .map(|(_, kind)| match kind.ends_with('s') {
            true => format!("{kind}'"),
            false => format!("{kind}'s"),
        })
        .collect();
    kinds.join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::options::BuildArgs;
    use clap::Parser;
    use engine::setup::GameSetup;
    use quasar_cli::TableGame;

    #[derive(Parser)]
    struct Build {
        #[command(flatten)]
        args: BuildArgs,
    }

    /// Every game's own table option (each flag `TableArgs` declares), given at once:
    /// each is reported as given, and is in its owner's list of the options its build
    /// takes and only there, so no game refuses its own option and every other game
    /// refuses it. The flags come from the declarations, so a new game's are tested too.
    #[test]
    fn each_own_table_option_is_taken_by_its_game_alone() {
        use clap::Args;
        let declared = TableArgs::augment_args(clap::Command::new("own"));
        // --whole conflicts with the shared --slice and --wave only, so all go together.
        let mut all = vec!["quasar".to_string()];
        let mut flags = Vec::new();
        for arg in declared.get_arguments() {
            let flag = format!(
                "--{}",
                arg.get_long().expect("every own option is a long flag")
            );
            all.push(flag.clone());
            if arg.get_action().takes_values() {
                // A value every own option parses: a board's size, else a small count.
                all.push(if flag == "--board" { "4x4" } else { "3" }.to_string());
            }
            flags.push(flag);
        }
        let given = Build::try_parse_from(&all).unwrap().args.games.given();
        let mut reported: Vec<String> = given.iter().map(|(f, _, _)| f.to_string()).collect();
        reported.sort();
        flags.sort();
        assert_eq!(
            reported, flags,
            "every own option given is reported as given"
        );
        for &g in GameName::all() {
            let build = with_game!(g, S => <S as TableGame>::TABLE_OPTIONS.build);
            let own = flags.iter().filter(|f| build.contains(&f.as_str())).count();
            assert!(own > 0, "{} declares no own option of its build", g.name());
        }
        for (flag, _, owner) in given {
            for &g in GameName::all() {
                let (name, build) =
                    with_game!(g, S => (S::NAME, <S as TableGame>::TABLE_OPTIONS.build));
                assert_eq!(build.contains(&flag), name == owner, "{flag} and {name}");
            }
        }
    }

    /// A game's own option of `tablebase compress` is given with its owner, which it
    /// names when `--game` does not, and a bad value is refused as clap refuses one.
    #[test]
    fn an_own_compress_option_names_its_game() {
        #[derive(Parser)]
        struct Compress {
            #[command(flatten)]
            args: options::CompressArgs,
        }
        let parse = |extra: &[&str]| {
            let args = ["quasar", "dir", "-o", "out"].iter().chain(extra);
            Compress::try_parse_from(args).map(|c| c.args.games.given())
        };
        assert_eq!(parse(&[]).unwrap(), []);
        let given = parse(&["--board", "6x6"]).unwrap();
        assert_eq!(given, [("--board", GameName::Breakthrough)]);
        let bad = parse(&["--board", "3"]).err().unwrap().to_string();
        assert!(
            bad.contains("invalid value '3' for '--board <BOARD>'"),
            "{bad}"
        );
    }

    /// A game's size flags are refused by the other games only.
    #[test]
    fn each_size_flag_is_refused_by_the_games_that_do_not_take_it() {
        for &g in GameName::all() {
            let takes = with_game!(g, S => S::SIZE_FLAGS);
            for (flag, value) in [
                ("--board", "6x6"),
                ("--width", "7"),
                ("--pieces-per-side", "2"),
            ] {
                #[derive(Parser)]
                struct Sizes {
                    #[command(flatten)]
                    args: GameArgs,
                }
                let args = ["quasar", "--game", g.name(), flag, value];
                let sizes = Sizes::try_parse_from(args).unwrap().args;
                let refused = sizes.check_sizes().err();
                assert_eq!(
                    refused.is_none(),
                    takes.contains(&flag),
                    "{flag} {refused:?}"
                );
                if let Some(e) = refused {
                    assert!(e.starts_with(&format!("{flag} is not an option of {}: ", g.name())));
                }
            }
        }
    }
}
