//! Tests of reports: the summary, its tables, files and chart.

use super::*;
use crate::game::EndReason;
use crate::record::Winner;

/// A game of pairing (a, b) numbered `number`, won by the first or second side.
fn g(a: &str, b: &str, number: u32, winner: Winner) -> GameRecord {
    GameRecord {
        moves: vec!["a2-a3".into(), "a5-a4".into(), "b2-b3".into()],
        times_ms: vec![10.0, 20.0, 30.0],
        winner,
        reason: if winner == Winner::Draw {
            EndReason::Draw
        } else {
            EndReason::Win
        },
        ..GameRecord::for_test(a, b, number)
    }
}

/// The thesis' test 2 (3 row TB vs no TB): A with White 157 - 43, B with White 65 - 135.
fn thesis_test_2() -> Vec<GameRecord> {
    let mut games = Vec::new();
    let mut n = 0;
    for (count, result) in [(157, Winner::First), (43, Winner::Second)] {
        for _ in 0..count {
            games.push(g("tb3", "notb", 2 * n, result));
            n += 1;
        }
    }
    let mut n = 0;
    for (count, result) in [(65, Winner::First), (135, Winner::Second)] {
        for _ in 0..count {
            games.push(g("tb3", "notb", 2 * n + 1, result));
            n += 1;
        }
    }
    games
}

#[test]
fn a_path_in_the_folder_under_a_report_name_is_taken() {
    let dir = Path::new("some/out");
    assert_eq!(
        file_taken_by(Path::new("some/out/report.json"), dir),
        Some("report.json")
    );
    assert_eq!(
        file_taken_by(Path::new("some/./out/pairings.csv"), dir),
        Some("pairings.csv")
    );
    assert_eq!(file_taken_by(Path::new("some/out/games.jsonl"), dir), None);
    assert_eq!(file_taken_by(Path::new("elsewhere/report.json"), dir), None);
    assert_eq!(
        file_taken_by(Path::new("report.html"), Path::new(".")),
        Some("report.html")
    );
}

#[test]
fn the_thesis_row_comes_out() {
    let r = summarize(&["tb3".into(), "notb".into()], &thesis_test_2(), "White");
    let s = &r.pairings[0];
    assert_eq!((s.a_first.wins, s.a_first.losses), (157, 43));
    assert_eq!((s.b_first.wins, s.b_first.losses), (65, 135));
    assert_eq!(s.reasons.get("win"), Some(&400));
    assert_eq!((s.total.wins, s.total.losses), (292, 108));
    let md = markdown(&r);
    assert!(
        md.starts_with("| Test | Player A | Player B | Player A White | Player B White |"),
        "{md}"
    );
    assert!(
        md.contains("| 1 | `tb3` | `notb` | 157 - 43 | 65 - 135 | 292 - 108 | 73.0% (68.4% - 77.1%) | +173 (+135 .. +211) | 100.0% |"),
        "{md}"
    );
    // A moves first in its White games (times 10 and 30 ms), second in the others (20 ms).
    assert_eq!(s.a_ms.moves, 200 * 2 + 200);
    assert!((s.a_ms.mean - (200.0 * 40.0 + 200.0 * 20.0) / 600.0).abs() < 1e-9);
    assert_eq!(s.a_ms.max, 30.0);
    assert!(
        md.contains("| Test | Player A | Player B |\n|---:|---:|---:|\n| 1 | 20.0 / 30.0 |"),
        "the slowest move is stated: {md}"
    );
    let csv = pairings_csv(&r);
    assert!(csv
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("1,tb3,notb,157,43,0,65,135,0,292,108,0,0.730000,"));
    let svg = svg(&r);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(svg.contains("73.0% (400)"), "{svg}");
    assert!(svg.contains("1. tb3 vs notb"), "{svg}");
}

#[test]
fn round_robin_cross_table() {
    let players: Vec<String> = ["p,1", "p2", "p3"].map(String::from).to_vec();
    let games = vec![
        g("p,1", "p2", 0, Winner::First),
        g("p,1", "p2", 1, Winner::First), // p2 White wins
        g("p,1", "p3", 0, Winner::First),
        g("p,1", "p3", 1, Winner::Second),
        g("p2", "p3", 0, Winner::Draw),
        g("p2", "p3", 1, Winner::Second),
    ];
    let r = summarize(&players, &games, "White");
    assert_eq!(r.pairings.len(), 3);
    let row = |i: usize, j: usize| r.cross[i][j].map(|t| (t.wins, t.losses, t.draws));
    assert_eq!(row(0, 1), Some((1, 1, 0)));
    assert_eq!(row(0, 2), Some((2, 0, 0)));
    assert_eq!(row(1, 2), Some((1, 0, 1)));
    assert_eq!(row(2, 1), Some((0, 1, 1)));
    assert_eq!(row(1, 1), None);
    // p2: 1 win + 1 loss vs p1, 1 win + 1 draw vs p3: 2.5 of 4.
    assert_eq!(r.overall[1].score(), Some(0.625));
    let md = markdown(&r);
    assert!(
        md.contains("| 2. `p2` | 1 - 1 | | 1 - 0 - 1 | 62.5% |"),
        "{md}"
    );
    let csv = cross_csv(&r);
    assert!(csv.starts_with("player,\"p,1\",p2,p3,score\n"), "{csv}");
    assert!(r.overall[1].draws == 1 && r.overall[2].draws == 1);
}

#[test]
fn the_chart_escapes_and_shortens_labels() {
    let long = format!("gtp:./engine --table {}", "x".repeat(80));
    let players: Vec<String> = vec!["a&<b>".into(), long];
    let games = vec![g(&players[0], &players[1], 0, Winner::First)];
    let svg = svg(&summarize(&players, &games, "White"));
    assert!(
        svg.contains("1. a&amp;&lt;b&gt; vs gtp") || svg.contains("…"),
        "{svg}"
    );
    assert!(!svg.contains("<b>"), "{svg}");
    assert!(svg.contains("100.0% (1)"), "{svg}");
}
