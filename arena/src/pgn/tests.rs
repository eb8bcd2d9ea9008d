//! Tests of the PGN-style reader.

use super::*;

#[test]
fn tags_moves_comments_and_results_are_read() {
    let text = "[Event \"a \\\"b\\\"\"]\n[Result \"1-0\"]\n\n1. a2-a3 {value 0.5, 0.010s} \
                b5-b4 2. c2xb3 $1 (2. d2-d3) ; a line comment\n{the end} 1-0\n\n\
                [Event \"x\"]\n1... 9-13 {a\ncomment} 22x15x6 1/2-1/2\n";
    let games = parse(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("a \"b\""));
    assert_eq!(games[0].moves, vec!["a2-a3", "b5-b4", "c2xb3"]);
    assert_eq!(
        games[0].comments,
        vec![
            Some("value 0.5, 0.010s".to_string()),
            None,
            Some("the end".to_string())
        ]
    );
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[1].moves, vec!["9-13", "22x15x6"]);
    assert_eq!(games[1].comments[0].as_deref(), Some("a comment"));
    assert_eq!(games[1].result, "1/2-1/2");
}

#[test]
fn bad_files_say_where() {
    let e = parse("[Event \"x\"]\n[Broken\n").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("[Broken"), "{e}");
    let e = parse("[Event \"x\"]\n1. a2-a3 {never closed\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("never closed"), "{e}");
    assert!(matches!(parse("  \n"), Err(PgnError::Empty)));
    for (text, line, found) in [
        (
            "[Event \"x\"]\n\n1. 11-15 {a {nested} comment} 23-19 *\n",
            3,
            '}',
        ),
        ("[Event \"x\"]\n1. a2-a3 {x}} *\n", 2, '}'),
        ("]\n", 1, ']'),
        ("1. a2-a3 (1. b2-b3 [Event \"y\"]) *\n", 1, '['),
    ] {
        let e = parse(text).unwrap_err().to_string();
        assert_eq!(e, format!("line {line}: unexpected '{found}'"), "{text:?}");
    }
}
