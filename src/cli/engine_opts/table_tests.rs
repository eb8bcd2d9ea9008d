//! The flags made from the engine's table of options: each option a flag with its key's
//! effect, each old name the new one, each search's options selecting it, and a help that
//! shows every flag and hides the old names.

use super::*;
use clap::{CommandFactory, Parser};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    engine: EngineArgs,
}

fn parse(args: &[&str]) -> Result<EngineArgs, clap::Error> {
    Cli::try_parse_from(std::iter::once("quasar").chain(args.iter().copied())).map(|c| c.engine)
}

/// A value each option takes, as its key prints it back.
fn sample(name: &str) -> &'static str {
    engine::settings::options::example(name).unwrap_or_else(|| panic!("no example for --{name}"))
}

/// The flag `--NAME VALUE`, with a table for the options that need one.
fn with_flag(name: &str, value: &str) -> Vec<String> {
    let mut args = vec![format!("--{name}"), value.to_string()];
    if name != "tb" {
        args.extend(["--tb".to_string(), "t.qtb".to_string()]);
    }
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn every_option_of_the_table_is_a_flag_with_its_keys_effect() {
    for option in OPTIONS.iter().filter(|o| o.flag) {
        let value = sample(option.name);
        let args = with_flag(option.name, value);
        let e = parse(&strs(&args)).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let want = format!("{}={value}", option.name);
        if option.mcts_key {
            let text = e.settings().to_string();
            assert!(text.split(',').any(|kv| kv == want), "{args:?}: {text}");
        }
        if option.ab_key && option.name != "time" {
            // The time is the choice's limit, not an alpha-beta setting.
            let text = e.ab_settings(None).to_string();
            assert!(text.split(',').any(|kv| kv == want), "{args:?}: {text}");
        }
        let (mcts, ab) = (e.mcts_option(), e.ab_option());
        match option.scope {
            Scope::Mcts => assert_eq!((mcts, ab), (Some(option.name), None)),
            Scope::AlphaBeta => assert_eq!((mcts, ab), (None, Some(option.name))),
            Scope::Both => assert_eq!((mcts, ab), (None, None), "{args:?}"),
        }
    }
}

#[test]
fn every_old_name_is_the_new_one() {
    for option in OPTIONS.iter().filter(|o| o.flag) {
        let value = sample(option.name);
        let new = parse(&strs(&with_flag(option.name, value))).unwrap();
        for alias in option.aliases {
            let old = parse(&strs(&with_flag(alias, value))).unwrap();
            assert_eq!(old.settings(), new.settings(), "--{alias}");
        }
        for switch in option.switches {
            let new = parse(&strs(&with_flag(option.name, switch.value))).unwrap();
            let old = parse(&[&format!("--{}", switch.flag), "--tb", "t.qtb"]).unwrap();
            assert_eq!(old.settings(), new.settings(), "--{}", switch.flag);
            let both = [
                &format!("--{}", switch.flag)[..],
                &format!("--{}", option.name),
                switch.value,
                "--tb",
                "t.qtb",
            ];
            assert!(parse(&both).is_err(), "{both:?}");
        }
    }
}

#[test]
fn the_first_option_given_names_the_search() {
    let e = parse(&["--hash", "8", "--imb", "0.3", "--c", "0.2"]).unwrap();
    assert_eq!(
        (e.mcts_option(), e.ab_option()),
        (Some("imb"), Some("hash"))
    );
    let e = parse(&["--c", "0.2", "--imb", "0.3"]).unwrap();
    assert_eq!(e.mcts_option(), Some("c"));
}

#[test]
fn the_help_shows_every_flag_and_hides_the_old_names() {
    let help = Cli::command().render_long_help().to_string();
    for option in OPTIONS.iter().filter(|o| o.flag) {
        let shown = format!("--{} <{}>", option.name, option.value_name);
        assert!(help.contains(&shown), "{shown}: {help}");
        let old = option.switches.iter().map(|s| s.flag);
        for name in option.aliases.iter().copied().chain(old) {
            assert!(!help.contains(&format!("--{name}")), "--{name}: {help}");
        }
    }
}

#[test]
fn the_guides_name_every_option() {
    let doc = |name: &str| {
        let path = format!("{}/docs/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (player, arena) = (doc("player.md"), doc("arena.md"));
    for option in OPTIONS {
        let flag = format!("`--{} ", option.name);
        assert!(!option.flag || player.contains(&flag), "player.md: {flag}");
        let key = format!("`{}=", option.name);
        let is_key = option.mcts_key || option.ab_key;
        assert!(!is_key || arena.contains(&key), "arena.md: {key}");
    }
}

/// The games' own texts reach the flags' help by their `--game` names: each game's default
/// engine, Breakthrough's exploration constant after the table's, checkers' positions that
/// are not quiet.
#[test]
fn the_help_gives_each_games_own_texts() {
    let cmd = Cli::command();
    let help = |name: &str| {
        let arg = cmd.get_arguments().find(|a| a.get_id() == name).unwrap();
        arg.get_help().unwrap().to_string()
    };
    let engine = help("engine");
    for &g in crate::games::GameName::all() {
        assert!(engine.contains(&format!("; {}: ", g.name())), "{engine}");
    }
    assert!(engine.contains("; breakthrough: mcts, but ab"), "{engine}");
    let c = help("c");
    assert!(c.ends_with(" [default: 0.7; breakthrough: 0.4, from 8 rows up with --leaf eval 0.8 with a learned model and 0.2 without]"), "{c}");
    let quiesce = help("quiesce");
    assert!(
        quiesce.contains(" (checkers: a capture to make) [default: 16]"),
        "{quiesce}"
    );
}

/// A playout switch's help and key name the games whose playouts take it, from the
/// registered games: Breakthrough's four.
#[test]
fn a_playout_switch_names_its_games() {
    let cmd = Cli::command();
    for name in ["eval-after", "capture-weight", "win-in-one", "stop-threats"] {
        let arg = cmd.get_arguments().find(|a| a.get_id() == name).unwrap();
        let help = arg.get_help().unwrap().to_string();
        assert!(help.starts_with("MCTS, Breakthrough only: "), "{help}");
    }
    let players = engine::spec::PlayerSpec::help(&crate::games::option_texts);
    assert!(
        players.contains(" win-in-one=on|off (Breakthrough), "),
        "{players}"
    );
    let w = OPTIONS.iter().find(|o| o.name == "win-in-one").unwrap();
    let texts = crate::games::option_texts(w);
    assert_eq!(w.key_text_with(&texts), "win-in-one=on|off (Breakthrough)");
    let playout = OPTIONS.iter().find(|o| o.name == "playout").unwrap();
    let help = playout.help_with(&crate::games::option_texts(playout));
    assert!(help.starts_with("MCTS: the playouts"), "{help}");
}
