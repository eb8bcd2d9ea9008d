//! Tests of the GTP engine: commands and their replies, time settings, analysis and the serving loop.

use super::*;
use crate::games::CliGame;
use breakthrough::cli::BreakthroughSetup;
use engine::engine::SearcherSettings;
use engine::settings::EngineSettings;

type TestEngine = GtpEngine<BreakthroughSetup>;

fn engine() -> TestEngine {
    let setup = BreakthroughSetup::default_size();
    let settings = EngineSettings {
        limit: Some(Limit::Count(200)),
        ..EngineSettings::default()
    };
    let choice = EngineChoice {
        searcher: SearcherSettings::Mcts(settings),
        limit: Limit::Count(200),
    };
    GtpEngine::new(setup, choice).unwrap()
}

fn say(e: &mut TestEngine, line: &str) -> String {
    e.handle_line(line).expect("a reply").0
}

#[test]
fn basic_commands() {
    let mut e = engine();
    assert_eq!(say(&mut e, "protocol_version"), "= 2\n\n");
    assert_eq!(say(&mut e, "7 name"), "=7 quasar\n\n");
    assert_eq!(say(&mut e, "known_command genmove"), "= true\n\n");
    assert_eq!(say(&mut e, "known_command fly"), "= false\n\n");
    assert_eq!(
        say(&mut e, "frobnicate"),
        "? unknown command 'frobnicate'\n\n"
    );
    assert_eq!(e.handle_line("   # only a comment"), None);
    assert_eq!(e.handle_line(""), None);
    let list = say(&mut e, "list_commands");
    for c in COMMANDS {
        assert!(list.contains(c));
    }
}

#[test]
fn setboard_sets_a_position_of_the_board_size_only() {
    let mut e = engine();
    let text = "BBBBBB/BBBBBB/6/2W3/WW1WWW/WWWWWW b";
    assert_eq!(say(&mut e, &format!("setboard {text}")), "=\n\n");
    assert_eq!(e.position().position_text(), text);
    assert!(say(&mut e, "undo").starts_with("? cannot undo"));
    let other = say(&mut e, "setboard BBBBB/BBBBB/5/5/WWWWW/WWWWW w");
    assert!(other.contains("send boardsize first"), "{other}");
    assert!(say(&mut e, "setboard nonsense").starts_with("? "));
    assert_eq!(
        e.position().position_text(),
        text,
        "a refusal changes nothing"
    );
}

#[test]
fn moves_in_every_accepted_spelling() {
    let mut e = engine();
    assert_eq!(say(&mut e, "play w b2-b3"), "=\n\n");
    assert_eq!(say(&mut e, "play black c5c4"), "=\n\n");
    assert_eq!(say(&mut e, "play white b3-b4"), "=\n\n");
    assert_eq!(say(&mut e, "play b c4-c3*"), "=\n\n");
    // White's b2xc3 captures: accepted with 'x', without a separator and with '*'.
    assert_eq!(say(&mut e, "undo"), "=\n\n");
    assert_eq!(say(&mut e, "play b c4-c3"), "=\n\n");
    assert_eq!(say(&mut e, "play w d2xc3*"), "=\n\n");
    assert_eq!(
        e.position().to_fen(),
        "BBBBBB/BB1BBB/1W4/2W3/W1W1WW/WWWWWW b"
    );
}

#[test]
fn bad_commands_get_clear_errors() {
    let mut e = engine();
    assert!(say(&mut e, "play black b5-b4").starts_with("? illegal move: it is white's turn"));
    assert!(say(&mut e, "play white b2-b5").starts_with("? illegal move"));
    assert!(say(&mut e, "play white").starts_with("? play takes"));
    assert!(say(&mut e, "play green b2-b3").starts_with("? invalid color"));
    assert!(say(&mut e, "genmove b").starts_with("? it is white's turn"));
    assert!(say(&mut e, "boardsize 2").starts_with("? unacceptable size"));
    assert!(say(&mut e, "boardsize 9").starts_with("? unacceptable size"));
    assert!(say(&mut e, "boardsize 3").starts_with("? unacceptable size"));
    assert!(say(&mut e, "boardsize 1 2 3").starts_with("? boardsize takes"));
    assert!(say(&mut e, "time_left white x 0").starts_with("? 'x' is not"));
    assert!(say(&mut e, "undo").starts_with("? cannot undo"));
}

#[test]
fn genmove_plays_a_legal_move_and_boardsize_changes_the_board() {
    let mut e = engine();
    assert_eq!(say(&mut e, "boardsize 5x7"), "=\n\n");
    assert_eq!(e.position().board().height(), 7);
    assert_eq!(say(&mut e, "boardsize 7 5"), "=\n\n");
    assert_eq!(e.position().board().width(), 7);
    let before = *e.position();
    let r = say(&mut e, "genmove white");
    let text = r.trim_start_matches("= ").trim();
    assert!(before.parse_move(text).is_ok(), "{r}");
    assert_eq!(e.position().side_to_move(), Side::Second);
    let board = say(&mut e, "showboard");
    assert!(
        board.starts_with("= \n") && board.contains("Black to move"),
        "{board}"
    );
}

#[test]
fn clock_budgets() {
    let mut e = engine();
    assert_eq!(say(&mut e, "time_settings 300 0 0"), "=\n\n");
    assert_eq!(say(&mut e, "time_left white 100 0"), "=\n\n");
    // The arena's time manager: a 30th of the 100 s left.
    assert_eq!(
        e.move_limits(Side::First),
        Limit::Time(Duration::from_nanos(3_333_333_333))
    );
    // Five stones in 10 s: 2 s each, less the manager's margin (10 ms and a 20th).
    assert_eq!(say(&mut e, "time_left black 10 5"), "=\n\n");
    assert_eq!(
        e.move_limits(Side::Second),
        Limit::Time(Duration::from_millis(1890))
    );
    // Main time with byo-yomi: its share of a move comes on top, as an increment.
    assert_eq!(say(&mut e, "time_settings 300 30 10"), "=\n\n");
    assert_eq!(say(&mut e, "time_left white 60 0"), "=\n\n");
    assert_eq!(
        e.move_limits(Side::First),
        Limit::Time(Duration::from_millis(5000))
    );
    // Main time out, the period not started: 3 s a stone.
    assert_eq!(say(&mut e, "time_left white 0 0"), "=\n\n");
    assert_eq!(
        e.move_limits(Side::First),
        Limit::Time(Duration::from_millis(2840))
    );
    assert_eq!(say(&mut e, "time_settings 0 0 0"), "=\n\n");
    assert_eq!(e.move_limits(Side::First), Limit::Count(200));
}

#[test]
fn alpha_beta_takes_the_choices_limit_and_the_clock() {
    let choice = EngineChoice {
        searcher: SearcherSettings::AlphaBeta(engine::ab_player::AbSettings::default()),
        limit: Limit::Count(300),
    };
    let mut e = GtpEngine::new(BreakthroughSetup::default_size(), choice).unwrap();
    assert_eq!(e.move_limits(Side::First), Limit::Count(300));
    assert!(say(&mut e, "genmove white").starts_with("= "));
    assert_eq!(say(&mut e, "time_settings 300 0 0"), "=\n\n");
    assert_eq!(say(&mut e, "time_left white 100 0"), "=\n\n");
    assert_eq!(
        e.move_limits(Side::First),
        Limit::Time(Duration::from_nanos(3_333_333_333))
    );
}

#[test]
fn quit_ends_the_loop() {
    let mut e = engine();
    let mut out = Vec::new();
    serve(&mut e, "name\nquit\nname\n".as_bytes(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "= quasar\n\n=\n\n");
}

#[test]
fn a_line_of_invalid_utf8_is_answered_and_the_session_goes_on() {
    let mut e = engine();
    let mut out = Vec::new();
    let input: &[u8] = b"5 play w a2\xff-a3\n\xfe\nname\n";
    serve(&mut e, input, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "?5 the command line is not valid UTF-8\n\n? the command line is not valid UTF-8\n\n= quasar\n\n"
    );
}
