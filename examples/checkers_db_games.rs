//! Replays the checkers games of an arena record against endgame databases and counts what
//! happened once a game entered them: for each player, games it stood in a position the
//! databases call won and did not win (and why the game ended), and moves by which it
//! turned a drawn or won database position into a lost one, or a won one into a draw.
//!
//! `cargo run --release --example checkers_db_games -- RECORD.jsonl DB_DIR`

use checkers::{Checkers, Database, Wdl};
use quasar_core::{Game, Side};
use std::collections::BTreeMap;
use std::path::Path;

/// What one player did in the databases' positions over all games.
#[derive(Default, Debug)]
struct Tally {
    games: u32,
    reached_won: u32,
    won_converted: u32,
    won_not_won: BTreeMap<String, u32>,
    won_plies: Vec<u32>,
    reached_lost: u32,
    lost_then_lost: u32,
    lost_saved: u32,
    threw_win_to_draw: u32,
    threw_to_loss: u32,
    result: [u32; 3],
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: checkers_db_games RECORD.jsonl DB_DIR");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("record readable");
    let db = Database::open(Path::new(&args[2])).expect("databases open");
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let g: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let first = g["first"].as_str().unwrap().to_string();
        let second = g["second"].as_str().unwrap().to_string();
        let winner = g["winner"].as_str().unwrap();
        let detail = g["detail"].as_str().unwrap_or("").to_string();
        let mut game = Checkers::default();
        let moves: Vec<String> = g["opening_moves"]
            .as_array()
            .unwrap()
            .iter()
            .chain(g["moves"].as_array().unwrap())
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        // Per side: first ply standing in a won position (with that side to move or not),
        // the ply of the first won position and whether it was lost.
        let mut stood_won = [None::<usize>; 2];
        let mut stood_lost = [false; 2];
        let mut threw = [(0u32, 0u32); 2];
        let mut prev: Option<Wdl> = None;
        let mut plies = 0;
        for text in &moves {
            let mover = game.side_to_move();
            let mv = game.parse_move(text).expect("legal move");
            game.play(mv);
            plies += 1;
            // Value for the side that just moved.
            let v = db.probe_position(&game.pos).map(|w| match w {
                Wdl::Win => Wdl::Loss,
                Wdl::Loss => Wdl::Win,
                Wdl::Draw => Wdl::Draw,
            });
            if let Some(v) = v {
                let m = mover as usize;
                let o = 1 - m;
                match v {
                    Wdl::Win => stood_won[m] = stood_won[m].or(Some(plies)),
                    Wdl::Loss => stood_lost[m] = true,
                    Wdl::Draw => {}
                }
                if v == Wdl::Loss {
                    stood_won[o] = stood_won[o].or(Some(plies));
                }
                // `prev` is the value for the mover before its move (it was then to move).
                if let Some(p) = prev {
                    if p != Wdl::Loss && v == Wdl::Loss {
                        threw[m].1 += 1;
                    } else if p == Wdl::Win && v == Wdl::Draw {
                        threw[m].0 += 1;
                    }
                }
            }
            // Value for the side now to move, for its next move.
            prev = db.probe_position(&game.pos);
        }
        for (k, name) in [&first, &second].iter().enumerate() {
            let t = tallies.entry(name.to_string()).or_default();
            t.games += 1;
            let me = if k == 0 { "first" } else { "second" };
            let r = if winner == me {
                0
            } else if winner == "draw" {
                1
            } else {
                2
            };
            t.result[r] += 1;
            if let Some(p) = stood_won[k] {
                t.reached_won += 1;
                if r == 0 {
                    t.won_converted += 1;
                    t.won_plies.push((moves.len() - p) as u32);
                } else {
                    *t.won_not_won
                        .entry(format!(
                            "{} {}",
                            if r == 1 { "draw" } else { "LOSS" },
                            &detail[..detail.len().min(46)]
                        ))
                        .or_default() += 1;
                }
            }
            if stood_lost[k] {
                t.reached_lost += 1;
                if r == 2 {
                    t.lost_then_lost += 1;
                } else {
                    t.lost_saved += 1;
                }
            }
            t.threw_win_to_draw += threw[k].0;
            t.threw_to_loss += threw[k].1;
        }
        let _ = Side::First;
    }
    for (name, t) in &tallies {
        println!("{name}: {} games, W/D/L {:?}", t.games, t.result);
        println!(
            "  stood in a database win in {} games: won {}, not won {:?}",
            t.reached_won, t.won_converted, t.won_not_won
        );
        if !t.won_plies.is_empty() {
            let mean = t.won_plies.iter().sum::<u32>() as f64 / t.won_plies.len() as f64;
            println!(
                "  plies from the first database win to the end, when won: mean {mean:.1}, max {}",
                t.won_plies.iter().max().unwrap()
            );
        }
        println!(
            "  stood in a database loss in {} games: lost {}, saved {}",
            t.reached_lost, t.lost_then_lost, t.lost_saved
        );
        println!(
            "  its own moves from a database win to a draw: {}; from a win or draw to a loss: {}",
            t.threw_win_to_draw, t.threw_to_loss
        );
    }
}
