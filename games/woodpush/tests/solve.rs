//! The solved game against the paper's published results and against plain minimax on
//! tiny strips; the table as an MCTS oracle.

use quasar_core::{Game, GameResult, Oracle, Side};
use retro::{PerfectIndex, RetroGame};
use woodpush::board::Board;
use woodpush::{solve, KoStates, Position, SolveOptions, WoodpushTable};

mod paper;

/// Checks that the paper's passes land on the exact scores everywhere and that they took
/// `passes`, the count the paper gives for the width.
fn assert_papers_passes(paper: &woodpush::solve::PaperComparison, passes: u64) {
    assert_eq!(paper.disagreements, 0);
    assert_eq!(
        paper.report.standard_passes + paper.report.avoidance_passes,
        passes
    );
}

fn solved(width: u32, paper: bool) -> (WoodpushTable, woodpush::SolveReport) {
    let options = SolveOptions {
        paper,
        ..SolveOptions::default()
    };
    solve(width, options, &quasar_core::progress::Silent).unwrap()
}

#[test]
fn width_7_is_a_win_for_right_by_4_with_every_position_scored() {
    let (table, report) = solved(7, true);
    assert_eq!(report.start_score, Some(-4));
    assert_eq!(report.draws_per_side, [0, 0]);
    let paper = report.paper.unwrap();
    assert_eq!(paper.start, Some(-4));
    assert_eq!(paper.report.unscored, 0);
    // The paper: "For size 7, retrograde analysis uses 128 passes."
    assert_papers_passes(&paper, 128);
    let start = Position::start(7).unwrap();
    assert_eq!(table.score(&start), Some(-4));
}

#[test]
fn width_9_is_a_draw_with_933_unscored_positions_per_side() {
    let (_, report) = solved(9, true);
    assert_eq!(report.start_score, Some(0));
    assert_eq!(report.draws_per_side, [933, 933]);
    let paper = report.paper.unwrap();
    assert_eq!(paper.report.unscored_by_mover, [933, 933]);
    assert_eq!(paper.start, Some(0));
    // The paper's re-evaluation lands on the exact scores everywhere at this width.
    // "For size 9, our algorithm uses 366 passes."
    assert_papers_passes(&paper, 366);
}

#[test]
fn width_11_is_a_draw_with_8563_unscored_positions_per_side() {
    let (_, report) = solved(11, false);
    assert_eq!(report.start_score, Some(0));
    assert_eq!(report.draws_per_side, [8563, 8563]);
    assert_eq!(report.positions_per_side[0], report.positions_per_side[1]);
}

#[test]
#[ignore = "the paper's passes take about 15 s at width 11"]
fn width_11_by_the_papers_passes() {
    let (_, report) = solved(11, true);
    let paper = report.paper.unwrap();
    assert_eq!(paper.report.unscored_by_mover, [8563, 8563]);
    // "For size 11, our algorithm uses 860 passes."
    assert_papers_passes(&paper, 860);
}

#[test]
fn counting_every_push_as_a_possible_ko_does_not_give_the_papers_counts() {
    // Ko states no play can produce add positions, and draws among them.
    let options = SolveOptions {
        ko_states: KoStates::AnyPush,
        ..SolveOptions::default()
    };
    let (_, report) = solve(9, options, &quasar_core::progress::Silent).unwrap();
    assert_eq!(report.draws_per_side, [1421, 1421]);
    assert_eq!(report.start_score, Some(0));
}

#[test]
fn the_papers_size_7_line_keeps_the_score_at_minus_4() {
    let (table, _) = solved(7, false);
    let mut p = Position::start(7).unwrap();
    let mut moves = Vec::new();
    for row in &paper::LINE_7[1..] {
        assert_eq!(table.score(&p), Some(-4), "{}", p.position_text());
        p.legal_moves(&mut moves);
        p = moves
            .iter()
            .map(|&m| p.after(m))
            .find(|c| c.position_text().starts_with(row))
            .unwrap();
    }
    assert_eq!(p.score(), Some(-4));
}

#[test]
fn mirrored_positions_have_opposite_scores() {
    let (table, _) = solved(8, false);
    let space = table.space();
    for i in 0..PerfectIndex::size(space) {
        let p = space.unrank(i);
        let m = Position {
            board: p.board.mirror(),
            side: p.side.opponent(),
            ko: p.ko.map(|q| (7 - q as u32) as u8),
        };
        assert_eq!(
            table.score(&m),
            Some(-table.score_at(i)),
            "{}",
            p.position_text()
        );
    }
}

/// Minimax over the game's own moves, a repetition on the line scoring 0.
fn minimax(p: &Position, line: &mut Vec<Position>) -> i32 {
    if let Some(s) = p.score() {
        return s;
    }
    if line.contains(p) {
        return 0;
    }
    line.push(*p);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let vals = moves.iter().map(|&m| minimax(&p.after(m), line));
    let v = if p.side == Side::First {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    };
    line.pop();
    v
}

#[test]
fn tiny_strips_match_minimax_with_repetition_draws() {
    for width in [3, 4] {
        let (table, _) = solved(width, false);
        let space = table.space();
        for i in 0..PerfectIndex::size(space) {
            let p = space.unrank(i);
            assert_eq!(
                table.score_at(i),
                minimax(&p, &mut Vec::new()),
                "{}",
                p.position_text()
            );
        }
    }
}

#[test]
fn win_loss_distances_agree_with_the_scores() {
    let (table, _) = solved(9, false);
    for i in 0..table.scores().len() {
        let s = table.score_at(i);
        let want = match s.signum() {
            1 => Some(Side::First),
            -1 => Some(Side::Second),
            _ => None,
        };
        assert_eq!(table.wdl().winner(i), want, "position {i}");
    }
    assert!(table.space().terminal(0).is_some());
}

#[test]
fn the_oracle_proves_the_start_lost_and_its_moves_carry_the_win_home() {
    let (table, report) = solved(7, false);
    let mut p = Position::start(7).unwrap();
    let proof = table.probe(&p).unwrap();
    assert_eq!(proof.result, GameResult::Loss);
    assert_eq!(proof.plies, report.start_plies);
    let mut plies = 0;
    while p.outcome().is_none() {
        let mv = table.probe(&p).unwrap().best_move.unwrap();
        assert!(p.is_legal(mv));
        p.play(mv);
        plies += 1;
    }
    assert_eq!(p.board.left, 0, "Right wins");
    assert_eq!(Some(plies), report.start_plies);
    // Other widths are not in the table.
    assert!(table.probe(&Position::start(9).unwrap()).is_none());
    let lone = Position::new(
        Board {
            left: 1,
            right: 0,
            width: 7,
        },
        Side::Second,
    );
    assert_eq!(table.probe(&lone).unwrap().result, GameResult::Loss);
}

#[test]
fn a_saved_table_loads_probes_and_verifies_the_same() {
    let (table, _) = solved(9, false);
    assert_eq!(table.verify().inconsistent, 0);
    let dir = std::env::temp_dir().join(format!("woodpush-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w9.table");
    table.save(&path).unwrap();
    let back = WoodpushTable::load(&path).unwrap();
    assert_eq!(back.to_file(), table.to_file());
    let start = Position::start(9).unwrap();
    assert_eq!(back.score(&start), Some(0));
    assert_eq!(back.probe(&start), table.probe(&start));
    assert_eq!(back.verify().inconsistent, 0);
    // A damaged byte is caught by the checksum.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(WoodpushTable::load(&path).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_opened_table_answers_as_the_table_and_checks_every_position_once() {
    use quasar_core::table::{EndgameTable, VerifyOptions};
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use woodpush::opened::OpenedTable;
    /// Sums the units of every phase.
    #[derive(Default)]
    struct Units(AtomicU64, AtomicU64);
    impl quasar_core::progress::Progress for Units {
        fn begin(&self, _: &str, total: u64) {
            self.0.fetch_add(total, Relaxed);
        }
        fn advance(&self, units: u64) {
            self.1.fetch_add(units, Relaxed);
        }
    }
    let (table, _) = solved(7, false);
    let dir = std::env::temp_dir().join(format!("woodpush-opened-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w7.table");
    table.save(&path).unwrap();
    let opened = OpenedTable::open(&path).unwrap();
    let units = Units::default();
    let info = opened.info(&units).unwrap();
    let c = table.counts();
    assert_eq!(info.positions, c.positions_per_side.iter().sum::<u64>());
    assert_eq!(info.bytes, std::fs::metadata(&path).unwrap().len());
    let classes: u64 = info.classes.iter().map(|k| k.count).sum();
    assert_eq!(classes, c.wins.iter().chain(&c.draws_per_side).sum::<u64>());
    let start = Position::start(7).unwrap();
    let p = opened.probe(&start.position_text()).unwrap();
    let want = table.probe(&start).unwrap();
    assert_eq!((p.result, p.plies), (Some(want.result), want.plies));
    assert!(opened.probe("L.L.R.R.L L").is_err(), "another width");
    let r = opened.verify(&VerifyOptions::default(), &units).unwrap();
    let n = retro::PerfectIndex::size(table.space());
    assert_eq!((r.checked, r.inconsistent), (n, 0));
    assert_eq!((units.0.load(Relaxed), units.1.load(Relaxed)), (n, n));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_finds_a_wrong_score() {
    let (table, _) = solved(7, false);
    let mut f = table.to_file();
    let scores = f.sections.iter_mut().find(|s| s.tag == 3).unwrap();
    let start = table.space().rank(&Position::start(7).unwrap());
    let v = scores.values.get(start);
    scores.values.set(start, v + 1);
    let broken = WoodpushTable::from_file(f).unwrap();
    let r = broken.verify();
    assert!(r.inconsistent >= 1);
    assert!(r.inconsistent <= 10, "{r:?}");
}

#[test]
fn progress_is_reported_and_sequential_solves_repeat_exactly() {
    /// Counts the status reports, and those whose count of decided positions is past the
    /// whole.
    #[derive(Default)]
    struct Count {
        calls: std::sync::atomic::AtomicU64,
        over: std::sync::atomic::AtomicU64,
    }
    impl quasar_core::progress::Progress for Count {
        fn status(&self, _: &str, done: u64, total: u64) {
            use std::sync::atomic::Ordering::Relaxed;
            self.calls.fetch_add(1, Relaxed);
            if done > total {
                self.over.fetch_add(1, Relaxed);
            }
        }
    }
    let count = Count::default();
    let options = SolveOptions {
        parallel: false,
        ..SolveOptions::default()
    };
    let (a, ra) = solve(8, options, &count).unwrap();
    let (b, rb) = solve(8, options, &quasar_core::progress::Silent).unwrap();
    assert!(count.calls.into_inner() > 10);
    assert_eq!(count.over.into_inner(), 0);
    assert_eq!(a.to_file(), b.to_file());
    assert_eq!(ra.wdl.backward_expansions, rb.wdl.backward_expansions);
    assert_eq!(ra.exact.backward_expansions, rb.exact.backward_expansions);
    assert_eq!(ra.draws_per_side, [147, 147]);
}
