//! The move the databases choose at a search's root, with distance files and without:
//! with them a won position converts by the shortest way and a lost one resists longest.

use checkers::db::{build_with, BuildOptions, Database, Wdl};
use checkers::endgame::{choose, Distance};
use checkers::{Checkers, Move, Position, Slice};
use quasar_core::{Game, Oracle, Selection, Side};

/// Every slice to 3 pieces with distance files, in a fresh temporary directory.
fn databases(name: &str) -> (std::path::PathBuf, Database) {
    let dir = std::env::temp_dir().join(format!("checkers-endgame-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let options = BuildOptions { distance: true };
    build_with(&dir, 3, &Selection::All, options, &mut |_| {}).unwrap();
    let db = Database::open(&dir).unwrap();
    (dir, db)
}

/// The move the oracle plays at the root of `g`.
fn root_move(db: &Database, g: &Checkers) -> Move {
    Oracle::<Checkers>::probe_root(db, g)
        .and_then(|p| p.best_move)
        .expect("the databases know every 3-piece position")
}

#[test]
fn with_distance_files_a_win_converts_by_the_shortest_way_and_a_loss_resists_longest() {
    let (dir, mut db) = databases("distance");
    assert!(!db.has_distances());
    assert_eq!(db.load_distances(&dir).unwrap(), Slice::all(3).len());
    assert!(db.has_distances());
    let (mut wins, mut losses, mut longest) = (0, 0, 0);
    for s in Slice::all(3).into_iter().filter(|s| s.pieces() == 3) {
        let t = db.table(s).unwrap();
        // Every 37th placement, either side to move.
        for i in (0..t.index().size()).step_by(37) {
            let board = t.index().board(i);
            for side in [Side::First, Side::Second] {
                let pos = Position { board, side };
                let g = Checkers::new(pos);
                let value = t.get(i, side).unwrap();
                if g.outcome().is_some() || value == Wdl::Draw {
                    continue;
                }
                let d = Distance::distance(&db, &pos).expect("a win or loss has a distance");
                let mv = root_move(&db, &g);
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                assert!(moves.contains(&mv));
                let child = pos.after(mv);
                // A capture or promotion leaves the slice; a move that ends the game in it
                // reaches a position of distance 0 (as good as leaving, when both can).
                let leaves = Slice::of(&child.board) != s;
                let ends = quasar_core::Game::outcome(&child).is_some();
                let text = g.position_text();
                if value == Wdl::Win {
                    wins += 1;
                    assert_eq!(db.probe_position(&child), Some(Wdl::Loss), "{text}");
                } else {
                    losses += 1;
                }
                // The value kept, and one ply nearer the conversion: the shortest way for
                // the winner, the longest for the loser.
                if d == 0 {
                    assert!(leaves || ends, "{text}: converts at once");
                } else {
                    assert!(!leaves, "{text}: distance {d} but left the slice");
                    assert_eq!(Distance::distance(&db, &child), Some(d - 1), "{text}");
                }
                longest = longest.max(d);
            }
        }
    }
    assert!(wins > 1000 && losses > 100, "{wins} wins, {losses} losses");
    assert!(longest > 10, "{longest}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_distance_files_the_root_move_is_the_searched_choice() {
    let (dir, db) = databases("plain");
    assert!(!db.has_distances());
    // The lone king in its double corner: Black converts without distances too.
    for fen in ["B:WK32:BK1,K2", "B:WK28:BK5,K9"] {
        let g = Checkers::parse_position(fen).unwrap();
        let mv = root_move(&db, &g);
        assert_eq!(Some(mv), choose(&db, None, &g).map(|(_, m)| m), "{fen}");
        let mut c = g.clone();
        c.play(mv);
        assert_eq!(db.probe_position(&c.pos), Some(Wdl::Loss), "{fen}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
