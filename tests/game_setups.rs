//! What every game's setup declares of the engines' options: the playout switches some
//! games take and others not, and each game's own defaults stated in its help.

use breakthrough::BreakthroughSetup;
use checkers::CheckersSetup;
use chinese_checkers::CcSetup;
use engine::engine::DefaultEngine;
use engine::settings::options::OPTIONS;
use engine::settings::EngineSettings;
use engine::setup::{GameSetup, HelpPart};
use mcts::Leaf;
use woodpush::WoodpushSetup;

/// The table's playout switches, whose help and key name the games that take them, are
/// taken by some games' playouts and not by others'; the playouts' kind (`playout`)
/// is the one other option a game's playouts take.
#[test]
fn the_playout_switches_are_some_games_playouts_alone() {
    let games = [
        BreakthroughSetup::default().playout_keys(),
        WoodpushSetup::default().playout_keys(),
        CcSetup::default().playout_keys(),
        CheckersSetup.playout_keys(),
    ];
    for option in OPTIONS {
        let takers = games.iter().filter(|k| k.contains(&option.name)).count();
        match (option.playout_switch, option.name) {
            (true, _) => assert!(0 < takers && takers < games.len(), "{}", option.name),
            (false, "playout") => assert!(takers > 0),
            (false, _) => assert_eq!(takers, 0, "{}", option.name),
        }
    }
}

/// Whether `text` begins with the value `value`, as a word (`10` is not `1`).
fn leads_with(text: &str, value: &str) -> bool {
    text.strip_prefix(value)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.'))
}

/// What a game says in the options' help names options of the table, each part once,
/// and its own defaults exactly where they differ from the table's: a default it does
/// not name is the table's at its default size, and one it names begins with its value
/// at that size. Every game names its engine, which the table's default only describes.
fn states_its_own_defaults<S: GameSetup>(s: S) {
    let help = S::option_help();
    for (i, h) in help.iter().enumerate() {
        let name = (S::NAME, h.option);
        assert!(OPTIONS.iter().any(|o| o.name == h.option), "{name:?}");
        let again = help[..i]
            .iter()
            .any(|g| (g.option, g.part) == (h.option, h.part));
        assert!(!again, "{name:?} twice");
    }
    let own = |option: &str| {
        help.iter()
            .find(|h| h.option == option && h.part == HelpPart::Default)
            .map(|h| h.text)
    };
    let stated = |option: &str| {
        let o = OPTIONS.iter().find(|o| o.name == option).unwrap();
        o.default
            .unwrap_or_else(|| panic!("{option} states no default"))
    };
    let uses = s.evaluation_use(&EngineSettings::default()).unwrap();
    let leaf = match uses.leaf {
        Leaf::Playout => "playout",
        Leaf::Evaluation => "eval",
    };
    let values = [
        ("c", s.default_c(uses.leaf, uses.learned).to_string()),
        ("every", s.default_oracle_every().to_string()),
        ("imb", s.default_imb().to_string()),
        (
            "imb-decided",
            s.default_imb_decided()
                .map_or_else(|| "off".to_string(), |p| p.to_string()),
        ),
        ("prior", s.default_prior().to_string()),
        ("prior-depth", s.default_prior_depth().to_string()),
        ("guard", s.default_guard().to_string()),
        ("leaf", leaf.to_string()),
    ];
    for (option, value) in values {
        match own(option) {
            Some(text) => assert!(
                leads_with(text, &value),
                "{} {option}={value}: {text}",
                S::NAME
            ),
            None => assert_eq!(stated(option), value, "{} {option}", S::NAME),
        }
    }
    let engine = match s.default_engine() {
        DefaultEngine::Mcts => "mcts",
        DefaultEngine::AlphaBeta(_) | DefaultEngine::LearnedAlphaBeta => "ab",
    };
    let text = own("engine").unwrap_or_else(|| panic!("{} names no engine", S::NAME));
    assert!(leads_with(text, engine), "{}: {text}", S::NAME);
}

#[test]
fn each_games_option_help_states_its_own_defaults() {
    states_its_own_defaults(BreakthroughSetup::default());
    states_its_own_defaults(WoodpushSetup::default());
    states_its_own_defaults(CcSetup::default());
    states_its_own_defaults(CheckersSetup);
}
