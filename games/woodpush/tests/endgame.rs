//! Endgame tables of few pieces: the index of positions with at most a few pieces, solved
//! alone, against the whole solve on a width where both run; wider strips; the file round
//! trip; starts with more pieces a side.

use quasar_core::{GameResult, Oracle, Side};
use retro::space::first_index_mismatch;
use retro::PerfectIndex;
use woodpush::space::SpaceError;
use woodpush::{solve, KoStates, Position, SolveOptions, WoodpushSpace, WoodpushTable};

fn few(width: u32, max: u32) -> (WoodpushTable, woodpush::SolveReport) {
    let options = SolveOptions {
        max_pieces: Some(max),
        ..SolveOptions::default()
    };
    solve(width, options, &quasar_core::progress::Silent).unwrap()
}

#[test]
fn the_index_of_few_pieces_is_perfect_and_holds_exactly_those_positions() {
    let full = WoodpushSpace::new(9, KoStates::Reachable).unwrap();
    for max in [2, 3, 5] {
        let space = WoodpushSpace::few_pieces(9, max, KoStates::Reachable).unwrap();
        assert_eq!(first_index_mismatch(&space), None, "max {max}");
        let expected = (0..PerfectIndex::size(&full))
            .filter(|&i| full.unrank(i).board.occupied().count_ones() <= max)
            .count() as u64;
        assert_eq!(PerfectIndex::size(&space), expected, "max {max}");
        for i in 0..PerfectIndex::size(&space) {
            assert!(full.contains(&space.unrank(i)));
        }
    }
    let wide = WoodpushSpace::few_pieces(24, 3, KoStates::Reachable).unwrap();
    assert_eq!(first_index_mismatch(&wide), None);
    let start = Position::start(24).unwrap();
    assert!(!wide.contains(&start), "four pieces are more than three");
}

#[test]
fn impossible_indexes_are_refused_with_reasons() {
    assert!(matches!(
        WoodpushSpace::few_pieces(9, 1, KoStates::Reachable),
        Err(SpaceError::Pieces(1))
    ));
    // Beyond the longest strip: no advice to limit pieces already limited.
    let e = WoodpushSpace::few_pieces(32, 3, KoStates::Reachable).unwrap_err();
    assert_eq!(e, SpaceError::NoStrip(32));
    assert_eq!(
        e.to_string(),
        "width 32: a Woodpush strip has 1 to 31 cells"
    );
    assert!(matches!(
        WoodpushSpace::new(17, KoStates::Reachable),
        Err(SpaceError::Width(17))
    ));
    let e = WoodpushSpace::few_pieces(31, 12, KoStates::Reachable).unwrap_err();
    assert!(matches!(e, SpaceError::TooLarge { .. }), "{e:?}");
    assert!(e.to_string().contains("fewer pieces"), "{e}");
    assert!(WoodpushSpace::new(17, KoStates::Reachable).is_err());
}

#[test]
fn few_pieces_solved_alone_agree_with_the_whole_solve() {
    let (whole, _) = solve(9, SolveOptions::default(), &quasar_core::progress::Silent).unwrap();
    for max in [3, 4] {
        let (part, report) = few(9, max);
        let space = part.space();
        assert_eq!(report.start_score, if max >= 4 { Some(0) } else { None });
        let mut draws = 0;
        for i in 0..PerfectIndex::size(space) {
            let pos = space.unrank(i);
            assert_eq!(part.score(&pos), whole.score(&pos), "{pos:?}");
            assert_eq!(part.probe(&pos), whole.probe(&pos), "{pos:?}");
            draws += u64::from(part.score(&pos) == Some(0) && !pos.board.is_over());
        }
        assert_eq!(draws, report.draws_per_side.iter().sum::<u64>());
        assert_eq!(part.verify().inconsistent, 0);
    }
}

#[test]
fn a_wide_endgame_table_saves_loads_and_answers_only_for_its_positions() {
    let (table, report) = few(20, 3);
    assert_eq!(report.start_score, None);
    let dir = std::env::temp_dir().join(format!("woodpush-endgame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w20-p3.qrt");
    table.save(&path).unwrap();
    let loaded = WoodpushTable::load(&path).unwrap();
    assert_eq!(loaded.to_file(), table.to_file());
    assert_eq!(loaded.space().max_pieces(), Some(3));
    assert_eq!(loaded.verify().inconsistent, 0);
    // One Left piece next to the end: it steps off and Left has no piece, Right wins.
    let pos: Position = quasar_core::Game::parse_position("R..................L L").unwrap();
    let p = loaded.probe(&pos).unwrap();
    assert_eq!(p.result, GameResult::Loss);
    assert_eq!(p.plies, Some(1));
    assert_eq!(loaded.guess(&pos), Some(GameResult::Loss));
    let six = Position::start_with(20, 3).unwrap();
    assert_eq!(loaded.probe(&six), None);
    assert_eq!(loaded.guess(&six), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn starts_with_more_pieces_a_side() {
    assert_eq!(
        Position::start_with(9, 2).unwrap(),
        Position::start(9).unwrap()
    );
    let p = Position::start_with(20, 3).unwrap();
    assert_eq!(
        quasar_core::Game::position_text(&p),
        "L.L.L..........R.R.R L"
    );
    assert_eq!(p.side, Side::First);
    assert!(Position::start_with(10, 3).is_ok());
    for (w, n) in [(9, 3), (40, 3)] {
        let e = Position::start_with(w, n).unwrap_err();
        assert!(
            e.to_string().contains("needs a strip of 10 to 31 cells"),
            "{e}"
        );
    }
    for n in [0, 9] {
        let e = Position::start_with(20, n).unwrap_err();
        assert_eq!(e.to_string(), format!("{n} pieces a side: give 1 to 8"));
    }
}

#[test]
fn a_tables_counts_are_the_solves() {
    let (table, report) =
        solve(9, SolveOptions::default(), &quasar_core::progress::Silent).unwrap();
    let c = table.counts();
    assert_eq!(c.draws_per_side, [933, 933]);
    assert_eq!(c.draws_per_side, report.draws_per_side);
    assert_eq!(c.positions_per_side, report.positions_per_side);
    assert_eq!(c.wins, report.wins);
    assert_eq!(table.start_score(), Some(0));
}
