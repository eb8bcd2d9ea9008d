use super::*;

#[test]
fn the_key_lists_are_the_tables() {
    assert_eq!(
        MCTS_KEYS,
        "tb, table-cache, rule, every, c, playout, time, sims, tc, quiesce, threads, parallel, nodes, seed, \
         eval-after, capture-weight, win-in-one, stop-threats, probe-children, imb, imb-decided, \
         prior, prior-depth, net, leaf, expand-after, verdicts, guard, check"
    );
    assert_eq!(
        AB_KEYS,
        "tb, table-cache, time, tc, depth, quiesce, hash, eval, net"
    );
}

#[test]
fn names_are_unique_and_each_option_is_taken_somewhere() {
    let mut names: Vec<&str> = OPTIONS
        .iter()
        .flat_map(|o| {
            let switches = o.switches.iter().map(|s| s.flag);
            [o.name]
                .into_iter()
                .chain(o.aliases.iter().copied())
                .chain(switches)
        })
        .collect();
    let all = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all, "a name, alias or switch twice");
    for o in OPTIONS {
        assert!(
            o.flag || o.mcts_key || o.ab_key,
            "{} is taken nowhere",
            o.name
        );
        let help = o.help();
        // A key's help without a flag is a gloss in a list of keys.
        assert_eq!(
            help.starts_with(char::is_uppercase),
            o.flag,
            "{}: {help}",
            o.name
        );
        assert!(
            !help.ends_with('.'),
            "{}: a help ends without a period",
            o.name
        );
    }
}

#[test]
fn every_key_of_the_table_reads_and_prints_back() {
    for o in OPTIONS {
        let value = example(o.name).expect("every option has an example");
        let want = format!("{}={value}", o.name);
        // Each player's settings take the key and print it back among their keys.
        let printed_back = |text: String| {
            assert!(text.split(',').any(|kv| kv == want), "{want}: {text}");
        };
        if o.mcts_key {
            let mut s = crate::settings::EngineSettings::default();
            s.set(o.name, value)
                .unwrap_or_else(|e| panic!("{want}: {e}"));
            printed_back(s.to_string());
        }
        if o.ab_key {
            let mut s = crate::ab_player::AbSettings::default();
            s.set(o.name, value)
                .unwrap_or_else(|e| panic!("{want}: {e}"));
            printed_back(s.to_string());
        }
    }
    let e = crate::settings::EngineSettings::default().set("depth", "3");
    assert_eq!(
        e.unwrap_err().to_string(),
        format!("unknown key 'depth' (keys: {MCTS_KEYS})")
    );
}

/// The switches that only some games' playouts take are the playout keys but the
/// playouts' kind, `playout`, which the help does not tie to games.
#[test]
fn the_playout_switches_are_the_playout_keys_but_the_kind() {
    let switches: Vec<&str> = OPTIONS
        .iter()
        .filter(|o| o.playout_switch)
        .map(|o| o.name)
        .collect();
    assert_eq!(switches, crate::setup::PLAYOUT_KEYS[1..]);
    assert_eq!(crate::setup::PLAYOUT_KEYS[0], "playout");
}

#[test]
fn the_games_notes_follow_the_text_and_their_defaults_the_tables() {
    let c = key_of(Scope::Mcts, "c").unwrap();
    let text = "MCTS: UCT exploration constant c of w/n + c*sqrt(ln t / n)";
    assert_eq!(c.help(), format!("{text} [default: 0.7]"));
    let games = GameTexts {
        notes: vec![("g", "a note"), ("h", "another")],
        defaults: vec![("g", "0.4, 0.2 on large boards")],
        ..GameTexts::default()
    };
    assert_eq!(
        c.help_with(&games),
        format!("{text} (g: a note; h: another) [default: 0.7; g: 0.4, 0.2 on large boards]")
    );
    let tb = key_of(Scope::Mcts, "tb").unwrap();
    let games = GameTexts {
        defaults: vec![("g", "none")],
        ..GameTexts::default()
    };
    assert!(tb
        .help_with(&games)
        .ends_with(" in playouts [default: g: none]"));
}

#[test]
fn a_help_names_the_search_the_game_and_the_table() {
    let every = key_of(Scope::Mcts, "every").unwrap();
    assert!(every.help().starts_with("MCTS, with --tb: consult"));
    let w = key_of(Scope::Mcts, "win-in-one").unwrap();
    assert!(w.help().starts_with("MCTS, some games only: playouts take"));
    assert_eq!(w.key_text(), "win-in-one=on|off (some games)");
    let games = GameTexts {
        only: vec!["G", "H"],
        ..GameTexts::default()
    };
    assert!(w
        .help_with(&games)
        .starts_with("MCTS, G and H only: playouts take"));
    assert_eq!(w.key_text_with(&games), "win-in-one=on|off (G and H)");
    let c = key_of(Scope::Mcts, "c").unwrap();
    assert!(c.help_with(&games).starts_with("MCTS: UCT"));
    assert_eq!(c.key_text_with(&games), "c=C");
    let tc = key_of(Scope::AlphaBeta, "tc").unwrap();
    assert_eq!(tc.key_text(), "tc=BASE+INC (a clock of its own)");
    assert!(key_of(Scope::AlphaBeta, "imb").is_none());
    assert!(key_of(Scope::Mcts, "depth").is_none());
}
