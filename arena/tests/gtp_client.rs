//! The GTP client against a fake engine: a POSIX shell script that logs every command and
//! answers `genmove` from a file of moves (or misbehaves, by mode).

use arena::game::{play_game, EndReason, PlayedGame};
use breakthrough::{Board, Move, Position};
use engine::gtp_client::{GtpPlayer, GtpSpec};
use engine::player::{Budget, Player, PlayerError};
use engine::random_player::RandomPlayer;
use quasar_core::Limit;
use quasar_core::{Game, Outcome, Side};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const FAKE: &str = r#"#!/bin/sh
# A fake GTP engine: logs each command to $2 and answers genmove with line n of $1;
# $3 picks a misbehaviour.
moves="$1"; log="$2"; mode="$3"; n=0
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  set -- $line
  case "$1" in
    quit) printf '=\n\n'; exit 0 ;;
    boardsize)
      if [ "$mode" = refuse ]; then printf '? unacceptable size\n\n'; else printf '=\n\n'; fi ;;
    genmove)
      n=$((n+1))
      case "$mode" in
        slow) sleep 2; printf '= a2-a3\n\n' ;;
        crash) echo "fake engine: out of cheese" >&2; exit 3 ;;
        vanish) exit 0 ;;
        resign) printf '= resign\n\n' ;;
        illegal) printf '= z9-z9\n\n' ;;
        *) printf '= %s\n\n' "$(sed -n "${n}p" "$moves")" ;;
      esac ;;
    *) printf '=\n\n' ;;
  esac
done
"#;

struct Fake {
    dir: PathBuf,
}

impl Fake {
    fn new(name: &str) -> Fake {
        let dir = std::env::temp_dir().join(format!("quasar-gtp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("fake.sh"), FAKE).unwrap();
        Fake { dir }
    }

    fn spec(&self, moves: &[String], mode: &str) -> GtpSpec {
        std::fs::write(self.dir.join("moves"), moves.join("\n") + "\n").unwrap();
        let argv: Vec<String> = vec![
            "sh".into(),
            self.dir.join("fake.sh").display().to_string(),
            self.dir.join("moves").display().to_string(),
            self.dir.join("log").display().to_string(),
            mode.into(),
        ];
        GtpSpec {
            text: argv.join(" "),
            argv,
        }
    }

    fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("log"))
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect()
    }
}

/// Replays a fixed list of moves.
struct Scripted(Vec<Move>);

impl Player<Position> for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn choose(&mut self, _: &Position, _: &Budget) -> Result<Move, PlayerError> {
        Ok(self.0.remove(0))
    }
}

fn board() -> Board {
    Board::new(6, 6).unwrap()
}

fn budget(ms: u64) -> Budget {
    Budget::new(
        Limit::Time(Duration::from_millis(ms)),
        Duration::from_millis(ms),
        Duration::from_secs(5),
    )
}

/// A finished random game on 6x6: its moves and their texts.
fn random_game(seed: u64) -> (Vec<Move>, Vec<String>, Outcome) {
    let (mut a, mut b) = (
        RandomPlayer::<Position>::new(seed),
        RandomPlayer::<Position>::new(seed + 1),
    );
    let g = play_game(
        [&mut a, &mut b],
        &Position::start(board()),
        &[],
        [budget(1000); 2],
        1000,
    );
    let mut pos = Position::start(board());
    let texts = g
        .moves
        .iter()
        .map(|&m| {
            let t = pos.move_text(m);
            pos.play(m);
            t
        })
        .collect();
    (g.moves, texts, g.outcome)
}

#[test]
fn a_gtp_engine_plays_a_whole_game_and_hears_every_move() {
    let fake = Fake::new("game");
    let (moves, texts, outcome) = random_game(11);
    let opening = &moves[..2];
    // After a 2-ply opening White moves again: White's later moves are the even ones.
    let white: Vec<Move> = moves[2..].iter().step_by(2).copied().collect();
    let black_texts: Vec<String> = texts[3..].iter().step_by(2).cloned().collect();
    let mut w = Scripted(white);
    let mut b = GtpPlayer::spawn(&fake.spec(&black_texts, "normal"), "boardsize 6".into()).unwrap();
    let g = play_game(
        [&mut w, &mut b],
        &Position::start(board()),
        opening,
        [budget(2000); 2],
        1000,
    );
    assert_eq!(g.moves, moves[2..].to_vec());
    assert_eq!(g.outcome, outcome);
    drop(b);
    let log = fake.log();
    let mut want = vec![
        "boardsize 6".to_string(),
        "clear_board".into(),
        format!("play w {}", texts[0]),
        format!("play b {}", texts[1]),
    ];
    for (i, t) in texts.iter().enumerate().skip(2) {
        want.push(if i % 2 == 0 {
            format!("play w {t}")
        } else {
            "genmove b".into()
        });
    }
    want.push("quit".into());
    assert_eq!(log, want);
}

fn one_move_against(mode: &str, ms: u64) -> (PlayedGame<Position>, Duration) {
    let fake = Fake::new(mode);
    let mut w = GtpPlayer::spawn(&fake.spec(&[], mode), "boardsize 6".into()).unwrap();
    let mut b = RandomPlayer::<Position>::new(1);
    let clock = Instant::now();
    let g = play_game(
        [&mut w, &mut b],
        &Position::start(board()),
        &[],
        [budget(ms); 2],
        1000,
    );
    let took = clock.elapsed();
    (g, took)
}

#[test]
fn misbehaving_engines_lose_with_the_reason() {
    let (g, _) = one_move_against("illegal", 500);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Illegal)
    );
    assert!(g.detail.as_deref().unwrap().contains("z9-z9"), "{g:?}");

    let (g, _) = one_move_against("resign", 500);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Resigned)
    );

    let (g, _) = one_move_against("crash", 500);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Crash)
    );
    let d = g.detail.unwrap();
    assert!(d.contains("exited") && d.contains("out of cheese"), "{d}");

    // An engine that exits without a word at genmove: lost, and the arena carries on.
    let (g, _) = one_move_against("vanish", 500);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Crash)
    );
    assert!(g.detail.unwrap().contains("exited during 'genmove w'"));

    let (g, _) = one_move_against("refuse", 500);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Crash)
    );
    assert!(g
        .detail
        .unwrap()
        .contains("refused 'boardsize 6': unacceptable size"));
}

#[test]
fn a_silent_engine_loses_on_time_without_stalling_the_arena() {
    // 50 ms + 50 ms tolerance; the engine sleeps 2 s. The arena must not wait for it.
    let (g, took) = one_move_against("slow", 50);
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Side::Second), EndReason::Time)
    );
    assert!(took < Duration::from_millis(1500), "waited {took:?}");
}

#[test]
fn a_missing_program_is_a_clear_error() {
    let spec = GtpSpec {
        text: "/nonexistent/engine".into(),
        argv: vec!["/nonexistent/engine".into()],
    };
    let e = GtpPlayer::<Position>::spawn(&spec, "boardsize 6".into())
        .err()
        .unwrap();
    assert!(matches!(e, PlayerError::Spawn { .. }), "{e}");
    let e = e.to_string();
    assert!(
        e.contains("cannot start GTP engine '/nonexistent/engine'"),
        "{e}"
    );
}
