//! `arena report`: the records of one match merged into one report, its games checked
//! and written beside it.

use super::{budgets_text, folder_option, openings_summary, print_verdict, write_report};
use crate::cli::CliResult;
use crate::games::{with_game, CliGame, GameName};
use arena::html;
use arena::merge::{merge, Merged};
use arena::pgn::{self, RecordText};
use arena::report;
use engine::setup::GameSetup;
use quasar_core::{Game, Side};
use std::io::Write;
use std::path::PathBuf;

/// Options of `arena report`.
#[derive(clap::Args)]
pub struct ReportArgs {
    /// Records of one match, e.g. arena-results/games-shard-*-of-8.jsonl: the JSON Lines
    /// records, or the games.pgn (games.pdn) files the arena wrote beside them
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<PathBuf>,
    /// Directory for the merged report: report.html, report.json, pairings.csv,
    /// winrates.svg, with three or more players crosstable.csv and ratings.csv, and the
    /// merged games as games.pgn (games.pdn for checkers)
    #[arg(short, long, default_value = "arena-results")]
    out: PathBuf,
    /// The player rated 0 in the rating list [default: the first]
    #[arg(long, value_name = "SPEC")]
    anchor: Option<String>,
}

/// `arena report`: merges the records and prints and writes the match's report.
pub(super) fn run_report(args: ReportArgs) -> CliResult {
    folder_option(&args.out, "--out", "the report's files")?;
    let mut records = Vec::new();
    for path in &args.records {
        // A missing record is a shard not run (or a mistyped path), not an empty one.
        if !path.is_file() {
            return Err(format!(
                "record {} does not exist or is not a file: did its shard run?",
                path.display()
            )
            .into());
        }
        let (games, lines) = match pgn::read_record(path)? {
            RecordText::JsonLines(loaded) => {
                if loaded.dropped_partial_line {
                    eprintln!(
                        "record {}: left out an unfinished last line (a job still writing, or \
                         killed)",
                        path.display()
                    );
                }
                (loaded.games, loaded.lines)
            }
            RecordText::Pgn(games) => (
                games
                    .iter()
                    .enumerate()
                    .map(|(i, g)| {
                        pgn::to_record(g)
                            .map_err(|e| format!("record {}, game {}: {e}", path.display(), i + 1))
                    })
                    .collect::<Result<_, _>>()?,
                games.iter().map(|g| g.line).collect(),
            ),
        };
        for (g, line) in games.iter().zip(lines) {
            verify_game(g).map_err(|e| {
                format!(
                    "record {}, line {line}: game {} of {} vs {}: {e}; the record was damaged \
                     or edited: fix or delete the game",
                    path.display(),
                    g.number,
                    g.player_a,
                    g.player_b
                )
            })?;
        }
        records.push((path.clone(), games));
    }
    let m = merge(&records)?;
    let Ok(name) = <GameName as clap::ValueEnum>::from_str(&m.game, true) else {
        return Err(format!(
            "the records are of the game '{}', which this quasar does not play",
            m.game
        )
        .into());
    };
    let first_side =
        with_game!(name, S => <<S as GameSetup>::Game as Game>::side_name(Side::First));
    eprintln!(
        "merged {} games from {} records",
        m.games.len(),
        records.len()
    );
    if let Some(warning) = missing_text(&m) {
        eprintln!("{warning}");
    }
    let mut rep = report::summarize(&m.players, &m.games, first_side);
    if let Some(anchor) = &args.anchor {
        rep.anchor_at(anchor)?;
    }
    let summary = format!(
        "{}, {}, {} games per pairing, {} (seed {})",
        m.params,
        budgets_text(&m.players, &m.budgets),
        m.games_per_pairing,
        openings_summary(&m.openings),
        m.seed,
    );
    let mut out = std::io::stdout().lock();
    write!(out, "{summary}\n\n{}", report::markdown(&rep))?;
    out.flush()?;
    write_report(&rep, &args.out)?;
    with_game!(name, S => write_games::<S>(&m, &rep, &summary, &args.out))
}

/// Ok when a recorded game holds together ([`arena::verify::check_game`]): a report counts
/// only games that can have been played. A game this quasar does not play is left to the
/// merge, which refuses it.
pub(crate) fn verify_game(g: &arena::record::GameRecord) -> Result<(), String> {
    let Ok(name) = <GameName as clap::ValueEnum>::from_str(&g.game, true) else {
        return Ok(());
    };
    with_game!(name, S => verify_as::<S>(g))
}

fn verify_as<S: CliGame>(g: &arena::record::GameRecord) -> Result<(), String> {
    let standard = S::from_params(&g.params)
        .and_then(|setup| setup.start())
        .map_err(|e| e.to_string())?;
    arena::verify::check_game(&standard, g).map_err(|e| e.to_string())
}

/// Writes the merged games as the game's PGN-style record and the HTML report into `dir`.
fn write_games<S: CliGame>(
    m: &Merged,
    rep: &report::Report,
    summary: &str,
    dir: &std::path::Path,
) -> CliResult {
    let setup = S::from_params(&m.params)?;
    let path = dir.join(format!("games.{}", setup.record_style().extension));
    pgn::write_match(&path, &setup, &m.players, &m.games)?;
    let page = html::write(dir, &setup, summary, rep, &m.games)?;
    eprintln!("wrote {}, {}", path.display(), page.display());
    print_verdict(rep, &page, false)
}

/// A warning naming the games below the match's count that no record holds, if any.
fn missing_text(m: &Merged) -> Option<String> {
    if m.missing.is_empty() {
        return None;
    }
    let count: usize = m.missing.iter().map(|(_, _, n)| n.len()).sum();
    let total = m.games_per_pairing as usize * m.players.len() * (m.players.len() - 1) / 2;
    let each: Vec<String> = m
        .missing
        .iter()
        .map(|(a, b, numbers)| {
            let shown: Vec<String> = numbers.iter().take(8).map(u32::to_string).collect();
            let more = if numbers.len() > 8 { ", ..." } else { "" };
            format!("{a} vs {b}: {}{more}", shown.join(", "))
        })
        .collect();
    Some(format!(
        "warning: {count} of the match's {total} games are in no record ({}): a shard is \
         unfinished, failed or not given; the report covers the games found",
        each.join("; ")
    ))
}
