//! The exact solver's cost, printed (not asserted): `cargo bench -p breakthrough --bench
//! solve [WxH] [MIB] [none|ROWS] [fen=FEN] [pn=K] [dfpn [eps=P] [init=unit|mobility|race]
//! [weak] [work=total]]` solves the start of WxH (default 5x5; `fen=`: that position,
//! `pn=`: the length's bounds from K plies tested by proof numbers) with a table of ROWS
//! rows built in memory
//! (default: the solver's, `solve::default_rows`; `none`: no table) and MIB MiB per phase
//! (default 512), and prints the winner, the length, nodes and seconds of each phase, wall
//! and CPU. `dfpn` runs only df-pn (the winner), with the given tuning (default: the
//! solver's), and prints its nodes, solved positions, wall and CPU seconds. Pin it to one
//! core (`taskset -c 0`) for a one-core figure.

use breakthrough::solve::checkpoint::Saver;
use breakthrough::solve::dfpn::{Dfpn, Init, Tuning};
use breakthrough::solve::leaves::Geometry;
use breakthrough::solve::{self, Options, Silent};
use breakthrough::{Board, Position};
use quasar_core::cpu_seconds;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let board: Board = args
        .first()
        .map(|s| s.parse().expect("a board WxH"))
        .unwrap_or_else(|| Board::new(5, 5).expect("5x5"));
    let mib: usize = args.get(1).map_or(512, |s| s.parse().expect("MiB"));
    let rows = match args.get(2).map(String::as_str) {
        Some("none") => None,
        Some(r) => Some(r.parse().expect("rows")),
        None => solve::default_rows(board),
    };
    let tb = rows.map(|r| solve::table_in_memory(board, r).expect("a table"));
    if args.get(3).map(String::as_str) == Some("dfpn") {
        let mut tuning = Tuning::default();
        for a in &args[4..] {
            match a.split_once('=') {
                Some(("eps", p)) => tuning.eps_percent = p.parse().expect("eps=PERCENT"),
                Some(("init", "unit")) => tuning.init = Init::Unit,
                Some(("init", "mobility")) => tuning.init = Init::Mobility,
                Some(("init", "race")) => tuning.init = Init::Race,
                Some(("work", "total")) => tuning.total_work = true,
                Some(("work", "max")) => tuning.total_work = false,
                None if a == "weak" => tuning.weak = true,
                None if a == "sum" => tuning.weak = false,
                _ => panic!("unknown df-pn option {a}"),
            }
        }
        let geo = Geometry::new(board);
        let saver = Saver::new(None, Duration::from_secs(3600), None);
        let mut d = Dfpn::new(&geo, tb.as_ref(), mib << 20, &Silent, saver).expect("table");
        d.tuning = tuning;
        let (c0, t0) = (cpu_seconds(), Instant::now());
        let winner = d.winner(&Position::start(board)).expect("not stopped");
        let solved = d.solved();
        let won = solved.iter().filter(|s| s.won).count();
        println!(
            "{board} rows {rows:?} {tuning:?}: {winner:?} wins; df-pn nodes {}; solved in table {} won + {} lost; {:.2} wall, {:.2} CPU",
            d.nodes(),
            won,
            solved.len() - won,
            t0.elapsed().as_secs_f64(),
            cpu_seconds().unwrap_or(0.0) - c0.unwrap_or(0.0)
        );
        return;
    }
    let mut pn_from = Options::default().length_pn_from;
    let mut root = Position::start(board);
    for a in args.iter().skip(3) {
        match a.split_once('=') {
            Some(("pn", k)) => pn_from = k.parse().expect("pn=PLIES"),
            Some(("fen", f)) => root = Position::from_fen(f).expect("a position"),
            _ => panic!("unknown solve option {a}"),
        }
    }
    let options = Options {
        length_pn_from: pn_from,
        tablebase: tb.as_ref(),
        table_bytes: mib << 20,
        proof: None,
        ..Options::default()
    };
    let (c0, t0) = (cpu_seconds(), Instant::now());
    let s = solve::solve(&root, &options, &Silent).expect("solved");
    println!(
        "{board} rows {rows:?} pn from {pn_from}: {:?} wins in {} plies; nodes {} + {}; seconds {:.2} + {:.2} = {:.2} wall, {:.2} CPU",
        s.winner,
        s.plies,
        s.winner_nodes,
        s.length_nodes,
        s.winner_seconds,
        s.length_seconds,
        t0.elapsed().as_secs_f64(),
        cpu_seconds().unwrap_or(0.0) - c0.unwrap_or(0.0)
    );
}
