//! The HTML report of a round robin, opened in headless Chromium: after its scripts run the
//! page shows a board with pieces, every game in the games table, and the first game's
//! moves. Skipped, with a notice, only where Chromium is not installed (CI installs it).

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    common::scratch("html", name)
}

/// The Chromium binary on the PATH, if any.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `page` with `args`, returning its standard output.
fn headless(browser: &Path, page: &Path, args: &[&str]) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
        ])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_round_robin_report_replays_its_games_in_chromium() {
    let dir = scratch("rr");
    let out = dir.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args([
            "arena", "--board", "5x5", "--player", "mcts", "--player", "ab", "--player", "random",
            "--games", "2", "--sims", "100", "--quiet", "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is fetched from elsewhere.
    assert!(
        !html.contains(" src=") && !html.contains("href=") && !html.contains("https://"),
        "the page loads nothing from elsewhere"
    );
    assert!(html.contains("<svg") && html.contains("Cross table"));
    assert!(
        html.contains("id=\"ratings\""),
        "a round robin's page has the rating list"
    );

    let Some(browser) = chromium() else {
        println!("skipped: chromium is not installed (apt-get install chromium runs this check)");
        return;
    };
    let dom = headless(&browser, &page, &["--dump-dom"]);
    // The scripts drew the board's pieces and filled the games table and the move list.
    let board = &dom[dom.find("id=\"board\"").expect("a board")..];
    let board = &board[..board.find("</svg>").unwrap()];
    assert_eq!(board.matches("class=\"piece\"").count(), 20, "{board}");
    assert_eq!(dom.matches("<tr class=\"game").count(), 6, "{dom}");
    let first: Value = std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|g| g["player_a"] == "mcts" && g["player_b"] == "ab" && g["number"] == 0)
        .unwrap();
    let moves = &dom[dom.find("id=\"moves\"").unwrap()..];
    for (i, mv) in first["moves"].as_array().unwrap().iter().enumerate() {
        let span = format!("data-ply=\"{}\"", i + 1);
        let at = moves
            .find(&span)
            .unwrap_or_else(|| panic!("no {span}: {moves}"));
        let text = &moves[at..];
        let text = &text[text.find('>').unwrap() + 1..text.find("</span>").unwrap()];
        assert_eq!(text, mv.as_str().unwrap());
    }
    assert!(
        dom.contains("ply 0 of "),
        "the viewer starts at the start position"
    );
    assert!(dom.contains("<polyline"), "the value curve is drawn");

    let shot = dir.join("report.png");
    headless(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000);
}
