//! End-to-end GTP sessions with the `quasar` binary: transcripts of good and bad commands.

mod common;

/// Runs `quasar gtp` with `args`, feeds it `input` and returns what it printed.
fn session(args: &[&str], input: &str) -> String {
    session_bytes(args, input.as_bytes())
}

/// Runs `quasar gtp` with `args`, feeds it raw `input` and returns what it printed.
fn session_bytes(args: &[&str], input: &[u8]) -> String {
    let (ok, out, err) = common::with_input(&[&["gtp"], args].concat(), input);
    assert!(ok, "{err}");
    out
}

/// The replies, one string per command, without the closing blank lines.
fn replies(text: &str) -> Vec<String> {
    assert!(
        text.ends_with("\n\n"),
        "every reply ends with a blank line: {text:?}"
    );
    text.trim_end_matches('\n')
        .split("\n\n")
        .map(str::to_string)
        .collect()
}

#[test]
fn a_good_session() {
    let out = session(
        &["--board", "6x6", "--sims", "300"],
        "protocol_version\n1 name\nversion\nknown_command play\nknown_command dance\n\
         # a comment line\n\nboardsize 5\nclear_board\nplay white b2b3\nplay b c4-c3\n\
         play w b3xc4*\nplay w d2xc3*\ngenmove black\ntime_settings 60 5 1\ntime_left white 30 0\nshowboard\nquit\n\
         name\n",
    );
    let r = replies(&out);
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "=1 quasar");
    assert_eq!(r[2], format!("= {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(r[3], "= true");
    assert_eq!(r[4], "= false");
    assert_eq!(&r[5..9], ["=", "=", "=", "="]);
    assert_eq!(
        r[9],
        "? illegal move: 'b3xc4*' is marked as a capture but captures nothing"
    );
    assert_eq!(r[10], "=");
    let gen = r[11]
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("{}", r[11]));
    // A Black move in the move text: from rows 4-5 down one row on the 5x5 board.
    let b = gen.as_bytes();
    assert!(
        gen.len() == 5 && b"45".contains(&b[1]) && b"-x".contains(&b[2]),
        "{gen}"
    );
    assert_eq!(b[1] - b[4], 1, "{gen}");
    assert_eq!(&r[12..14], ["=", "="]);
    assert!(
        r[14].starts_with("= \n") && r[14].contains("White to move"),
        "{}",
        r[14]
    );
    assert_eq!(r[15], "=");
    assert_eq!(r.len(), 16, "nothing after quit: {out}");
}

#[test]
fn a_bad_colour_lists_each_colour_word_once() {
    // Chinese Checkers' sides are x and o: their names are their first letters.
    let out = session(
        &["--game", "chinese-checkers", "--sims", "10"],
        "play q a1\n",
    );
    assert_eq!(replies(&out), ["? invalid color 'q': use x or o"]);
}

#[test]
fn bad_commands_reply_with_question_marks() {
    let out = session(
        &["--board", "6x6", "--sims", "100"],
        "boardsize\nboardsize 1x9\nplay\nplay purple a2-a3\nplay white a2-a5\n\
         genmove black\ntime_left white soon 0\nfoo bar\n3 known_command\n",
    );
    for (reply, want) in replies(&out).iter().zip([
        "? boardsize takes N (an NxN board) or W H",
        "? unacceptable size",
        "? play takes a colour and a move",
        "? invalid color 'purple': use white, w, black or b",
        "? illegal move 'a2-a5': legal moves are a2-a3",
        "? it is white's turn",
        "? 'soon' is not a number",
        "? unknown command 'foo'",
        "?3 known_command takes one command name",
    ]) {
        assert!(
            reply.starts_with(want),
            "{reply:?} should start with {want:?}"
        );
    }
}

#[test]
fn engine_plays_itself_to_the_end() {
    let mut input = String::from("boardsize 4\n");
    // Every move takes a piece a row forward and a side's 8 pieces have 3 rows to go, so a
    // 4x4 game lasts at most 48 plies.
    for i in 0..50 {
        input.push_str(if i % 2 == 0 {
            "genmove w\n"
        } else {
            "genmove b\n"
        });
    }
    let out = session(&["--sims", "200"], &input);
    let r = replies(&out);
    // Every move is legal until the game ends; then genmove says so.
    let over = r
        .iter()
        .position(|x| x.starts_with('?'))
        .expect("a 4x4 game ends");
    assert!(r[1..over].iter().all(|x| x.starts_with("= ")), "{out}");
    assert!(r[over..].iter().all(|x| x == "? the game is over"), "{out}");
}

#[test]
fn bad_command_line_options_are_reported() {
    let (ok, _, err) = common::quasar(&["gtp", "--time", "5"]);
    assert!(!ok);
    assert!(err.contains("give a unit"), "{err}");
}

#[test]
fn boardsize_takes_width_and_height_and_refuses_boards_without_a_start() {
    let out = session(
        &["--sims", "50"],
        "boardsize 5 7\nshowboard\nboardsize 3\nboardsize 4 3\nname\nboardsize 4\ngenmove w\n",
    );
    let r = replies(&out);
    assert_eq!(r[0], "=");
    assert!(
        r[1].contains("\n 7 ") && r[1].contains(" a b c d e"),
        "{}",
        r[1]
    );
    assert!(!r[1].contains(" f"), "five columns: {}", r[1]);
    for reply in &r[2..4] {
        assert!(
            reply.starts_with("? unacceptable size") && reply.contains("no start position"),
            "{reply}"
        );
    }
    assert_eq!(r[4], "= quasar", "the session goes on");
    assert_eq!(r[5], "=");
    assert!(r[6].starts_with("= "), "{}", r[6]);
}

#[test]
fn a_line_of_invalid_utf8_gets_an_answer_and_the_session_goes_on() {
    let out = session_bytes(
        &["--board", "6x6", "--sims", "50"],
        b"name\n3 play w a2\xff-a3\n\xc3\nplay w a2-a3\n",
    );
    let r = replies(&out);
    assert_eq!(r[0], "= quasar");
    assert_eq!(r[1], "?3 the command line is not valid UTF-8");
    assert_eq!(r[2], "? the command line is not valid UTF-8");
    assert_eq!(r[3], "=", "later commands are still answered");
}

#[test]
fn a_board_without_a_start_position_is_one_error_line() {
    for board in ["3x3", "7x3"] {
        let e = common::one_error_line(&["gtp", "--board", board]);
        assert!(e.contains("no start position"), "{e}");
    }
}

#[test]
fn an_endless_line_is_answered_without_waiting_for_its_end() {
    common::answers_endless_line(
        &["gtp"],
        "? the command line is longer than 16384 bytes",
        10,
    );
    // Cut short by the end of the input, it is answered once and the session ends.
    let out = session_bytes(&[], &vec![b'x'; 100_000]);
    assert_eq!(
        replies(&out),
        ["? the command line is longer than 16384 bytes: not a GTP command"]
    );
}

#[test]
fn a_line_too_long_is_answered_and_read_past_and_errors_quote_little() {
    let mut input = b"1 name\n2 ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend_from_slice(b"\n3 play white ");
    input.extend(std::iter::repeat_n(b'y', 10_000));
    input.extend_from_slice(b"\n4 name\n");
    let out = session_bytes(&[], &input);
    let r = replies(&out);
    assert_eq!(r.len(), 4, "{out:.300}");
    assert_eq!(r[0], "=1 quasar");
    assert_eq!(
        r[1],
        "?2 the command line is longer than 16384 bytes: not a GTP command"
    );
    assert!(
        r[2].starts_with("?3 ") && r[2].len() < 400,
        "{}",
        &r[2][..300]
    );
    assert_eq!(r[3], "=4 quasar");
}

/// Runs `quasar gtp` with `args`: sends `first`, waits `wait`, then sends `rest` and closes
/// standard input; returns what it printed.
fn paced(args: &[&str], first: &str, wait: std::time::Duration, rest: &str) -> String {
    use std::io::Write;
    let mut child = common::spawn(&[&["gtp"], args].concat(), std::process::Stdio::piped());
    let mut input = child.stdin.take().expect("its standard input");
    input.write_all(first.as_bytes()).unwrap();
    input.flush().unwrap();
    std::thread::sleep(wait);
    input.write_all(rest.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().expect("quasar ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn lz_analyze_streams_info_lines_until_the_next_command() {
    // Leela Zero's two ways of giving the interval.
    for (engine, interval) in [("mcts", "10"), ("ab", "interval 10")] {
        let args = ["--board", "6x6", "--engine", engine];
        let out = paced(
            &args,
            &format!("7 lz-analyze white {interval}\n"),
            std::time::Duration::from_millis(800),
            "8 name\nquit\n",
        );
        let r = replies(&out);
        assert_eq!(r.len(), 3, "{engine}: {out}");
        let mut lines = r[0].lines();
        assert_eq!(lines.next(), Some("=7"), "{engine}: {out}");
        let info: Vec<&str> = lines.collect();
        assert!(!info.is_empty(), "{engine}: {out}");
        for line in &info {
            assert!(line.starts_with("info move "), "{engine}: {line}");
            // Each entry's move is legal here: play accepts it.
            let first = line.split_whitespace().nth(2).unwrap();
            let check = session(&args, &format!("play white {first}\n"));
            assert_eq!(check, "=\n\n", "{engine}: {first}");
            for key in ["visits", "winrate", "order", "pv"] {
                assert!(line.contains(&format!(" {key} ")), "{engine}: {line}");
            }
        }
        // The next command ends the analysis and is answered.
        assert_eq!(r[1], "=8 quasar", "{engine}: {out}");
        assert_eq!(r[2], "=", "{engine}: {out}");
    }
}

#[test]
fn lz_analyze_is_listed_and_checks_its_arguments() {
    let out = session(
        &["--board", "6x6", "--sims", "50"],
        "known_command lz-analyze\nlz-analyze black\nlz-analyze white soon\nlz-analyze 1 2 3\n\
         lz-analyze interval x\n",
    );
    let r = replies(&out);
    assert_eq!(r[0], "= true");
    assert_eq!(r[1], "? it is white's turn");
    assert!(r[2].starts_with("? 'soon' is not"), "{out}");
    assert!(r[3].starts_with("? lz-analyze takes"), "{out}");
    assert!(r[4].starts_with("? 'x' is not"), "{out}");
}

#[test]
fn lz_analyze_ends_with_the_input() {
    // No further command: the end of the input ends the analysis and the session.
    let (ok, out, err) = common::with_input(
        &["gtp", "--board", "6x6", "--engine", "mcts"],
        b"lz-analyze 10\n",
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("=\n") && out.ends_with("\n\n"), "{out}");
}
