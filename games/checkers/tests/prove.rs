//! The generic prover on checkers with the databases of at most N pieces as leaves,
//! against the databases of N + 1 and N + 2 pieces: sampled positions, wins, draws and
//! losses alike, and a proof file replayed by the checker.

use checkers::db::{build, Database};
use checkers::{CheckersProver, Leafed, Position, SliceIndex, Wdl};
use prover::draws::Value;
use prover::{solve_with_draws, Drawn, Options, ProverPosition};
use quasar_core::progress::Silent;
use quasar_core::{Game, Selection, Side, SplitMix64};
use std::sync::{Arc, OnceLock};

/// Every slice of 1 to 4 pieces, built once.
fn full() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("checkers-prove-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&dir, 4, &Selection::All, &mut |_| {}).unwrap();
        let db = Database::open(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        db
    })
}

/// The slices of 1 to `n` pieces (1 to 3): the leaves.
fn leaves(n: u32) -> &'static Database {
    static DBS: [OnceLock<Database>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    DBS[n as usize - 1].get_or_init(|| {
        let all = full();
        let mut db = Database::new();
        for s in all.slices().into_iter().filter(|s| s.pieces() <= n) {
            db.insert(Arc::clone(all.table(s).unwrap()));
        }
        db
    })
}

fn options<'a>() -> Options<'a, ()> {
    Options {
        table_bytes: 16 << 20,
        ..Options::default()
    }
}

/// Unfinished positions of `pieces` pieces, both sides on the board, drawn at random:
/// a slice, then a placement of it and a side to move.
fn samples(pieces: u32, count: usize, seed: u64) -> Vec<Position> {
    let slices: Vec<_> = checkers::Slice::all(pieces)
        .into_iter()
        .filter(|s| s.pieces() == pieces && s.bm + s.bk > 0 && s.wm + s.wk > 0)
        .collect();
    let mut rng = SplitMix64::new(seed);
    std::iter::repeat_with(|| {
        let index = SliceIndex::new(slices[rng.below(slices.len())]);
        Position {
            board: index.board(rng.below(index.size() as usize) as u64),
            side: if rng.below(2) == 0 {
                Side::First
            } else {
                Side::Second
            },
        }
    })
    .filter(|p| p.outcome().is_none())
    .take(count)
    .collect()
}

/// The first of [`samples`] of `pieces` pieces (40, from `seed`) whose value for the side
/// to move is `value`.
fn first_sample(pieces: u32, seed: u64, value: Wdl) -> Position {
    samples(pieces, 40, seed)
        .into_iter()
        .find(|p| full().probe_position(p) == Some(value))
        .unwrap()
}

/// Proves each sample with the databases of `n` pieces as leaves and compares it with
/// the full databases; counts the side to move's wins, losses and the draws.
fn agree(n: u32, positions: &[Position]) -> [usize; 3] {
    let mut seen = [0; 3];
    for &pos in positions {
        let root = Leafed::new(pos, Some(leaves(n)));
        let valued = prover::draws::value(&CheckersProver, &root, &options(), &Silent)
            .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
        let want = full().probe_position(&pos).unwrap();
        let got = match valued.value {
            Value::Win(w) if w == pos.side => Wdl::Win,
            Value::Win(_) => Wdl::Loss,
            Value::Draw => Wdl::Draw,
        };
        assert_eq!(got, want, "{}", pos.position_text());
        seen[match got {
            Wdl::Win => 0,
            Wdl::Loss => 1,
            Wdl::Draw => 2,
        }] += 1;
    }
    seen
}

#[test]
fn two_and_three_pieces_over_the_one_piece_databases() {
    let seen = [agree(1, &samples(2, 40, 1)), agree(1, &samples(3, 40, 2))];
    // Wins of the side to move, its losses, draws.
    assert_eq!(seen, [[9, 1, 30], [25, 15, 0]]);
}

#[test]
fn three_and_four_pieces_over_the_two_piece_databases() {
    let seen = [agree(2, &samples(3, 40, 3)), agree(2, &samples(4, 40, 4))];
    assert_eq!(seen, [[23, 17, 0], [17, 15, 8]]);
}

#[test]
fn four_pieces_over_the_three_piece_databases() {
    assert_eq!(agree(3, &samples(4, 40, 5)), [16, 16, 8]);
}

#[test]
fn a_proof_over_the_databases_is_checked_with_them() {
    let won = first_sample(3, 3, Wdl::Win);
    let root = Leafed::new(won, Some(leaves(2)));
    let dir = std::env::temp_dir().join(format!("checkers-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("won.proof");
    // Both ways to a win's proof: from a short search and its length search, and from
    // the listed positions and their lengths.
    for quick_nodes in [prover::draws::QUICK_NODES, 0] {
        let _ = std::fs::remove_file(&path);
        let o = Options {
            proof: Some(&path),
            quick_nodes,
            ..options()
        };
        let Drawn { valued, win: s, .. } =
            solve_with_draws(&CheckersProver, &root, &o, &Silent).unwrap();
        assert_eq!(valued.value, Value::Win(won.side));
        assert_eq!(valued.outright, quick_nodes == 0);
        let s = s.unwrap();
        check_won(&path, &s);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Checks the proof at `path` of the win `s` with and without its leaves.
fn check_won(path: &std::path::Path, s: &prover::Solution<Leafed>) {
    let proof = prover::ProofFile::open(path).unwrap();
    let mut view = proof.view::<Leafed>().unwrap();
    // The file names its leaves' pieces; the rules alone do not end the game there.
    assert!(view.root.lacks_leaves());
    assert_eq!(view.root.leaf_pieces(), 2);
    assert!(prover::check_view(&view, &Silent).is_err());
    assert!(view.root.with_leaves(leaves(3)).is_err());
    view.root = view.root.with_leaves(leaves(2)).unwrap();
    let report = prover::check_view(&view, &Silent).unwrap();
    assert_eq!(report.records, s.proof.as_ref().unwrap().records);
    assert_eq!(view.verdict.plies(), Some(s.plies));
}

#[test]
fn move_codes_name_each_legal_move() {
    let mut moves = Vec::new();
    for pos in samples(8, 200, 6).into_iter().chain(samples(4, 200, 7)) {
        pos.legal_moves(&mut moves);
        for &mv in &moves {
            let code = Leafed::move_code(mv);
            assert_ne!(code, 0);
            if mv.jumps <= checkers::prove::CODE_JUMPS {
                assert_eq!(Leafed::code_move(code), mv, "{}", pos.position_text());
            }
        }
    }
}

#[test]
fn draws_of_four_pieces_over_the_databases_have_proofs_checked_with_them() {
    let dir = std::env::temp_dir().join(format!("checkers-draws-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("draw.proof");
    let mut proven = 0;
    for (n, seed) in [(2, 4), (3, 5)] {
        let draws = samples(4, 40, seed)
            .into_iter()
            .filter(|p| full().probe_position(p) == Some(Wdl::Draw));
        for pos in draws {
            let o = Options {
                proof: Some(&path),
                ..options()
            };
            let root = Leafed::new(pos, Some(leaves(n)));
            let drawn = solve_with_draws(&CheckersProver, &root, &o, &Silent)
                .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
            assert_eq!(drawn.valued.value, Value::Draw, "{}", pos.position_text());
            let written = drawn.draw_proof.unwrap().records;
            let proof = prover::ProofFile::open(&path).unwrap();
            let mut view = proof.view::<Leafed>().unwrap();
            assert_eq!(view.verdict, prover::Verdict::Draw);
            // Without its leaves the rules play on past them, where no record is.
            assert!(prover::check_view(&view, &Silent).is_err());
            view.root = view.root.with_leaves(leaves(n)).unwrap();
            let report = prover::check_view(&view, &Silent)
                .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
            assert_eq!(report.records, written);
            proven += 1;
        }
    }
    // The samples hold 8 draws for each of the leaves.
    assert_eq!(proven, 16);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_raised_interrupt_stops_before_the_positions_are_listed() {
    // A draw of 4 pieces that the listing would value outright at once.
    let pos = first_sample(4, 4, Wdl::Draw);
    let root = Leafed::new(pos, Some(leaves(2)));
    let listed = prover::draws::value(&CheckersProver, &root, &options(), &Silent).unwrap();
    assert!(listed.outright, "{}", pos.position_text());
    let raised = std::sync::atomic::AtomicBool::new(true);
    let o = Options {
        interrupt: Some(&raised),
        ..options()
    };
    let e = prover::draws::value(&CheckersProver, &root, &o, &Silent).unwrap_err();
    assert!(matches!(e, prover::SolveError::Interrupted { .. }), "{e}");
}

/// True when `winner` wins from the unfinished `pos` within `d` plies whatever the other
/// side does: plain depth-bounded minimax, remembered by position and bound.
fn wins_within(
    pos: &Leafed,
    winner: Side,
    d: u32,
    memo: &mut std::collections::HashMap<(Position, u32), bool>,
) -> bool {
    if d == 0 {
        return false;
    }
    if let Some(&w) = memo.get(&(pos.pos, d)) {
        return w;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let winner_moves = pos.side_to_move() == winner;
    let mut result = !winner_moves;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let r = match child.outcome() {
            Some(o) => o == quasar_core::Outcome::Win(winner),
            None => wins_within(&child, winner, d - 1, memo),
        };
        if r == winner_moves {
            result = r;
            break;
        }
    }
    memo.insert((pos.pos, d), result);
    result
}

#[test]
fn lengths_read_from_the_listed_positions_are_those_of_plain_minimax() {
    let mut checked = 0;
    for pos in samples(3, 40, 8) {
        let want = full().probe_position(&pos).unwrap();
        if want == Wdl::Draw {
            continue;
        }
        let root = Leafed::new(pos, Some(leaves(2)));
        let winner = if want == Wdl::Win {
            pos.side
        } else {
            pos.side.opponent()
        };
        let mut memo = std::collections::HashMap::new();
        let plain = (1..=255)
            .find(|&d| wins_within(&root, winner, d, &mut memo))
            .unwrap();
        let graph = prover::graph::solve(&CheckersProver, None, &root, 1 << 20, None).unwrap();
        assert!(graph.knows_lengths());
        let listed = (1..=255)
            .find(|&d| graph.wins_within(&CheckersProver, &root, winner, d) == Some(true))
            .unwrap();
        assert_eq!(listed, plain, "{}", pos.position_text());
        // The solve, whichever way it found the winner, gives the same length and a line
        // that long.
        let Drawn { win, .. } =
            solve_with_draws(&CheckersProver, &root, &options(), &Silent).unwrap();
        let s = win.unwrap();
        assert_eq!(
            (s.winner, s.plies),
            (winner, plain),
            "{}",
            pos.position_text()
        );
        assert_eq!(s.line.len() as u32, s.plies, "{}", pos.position_text());
        checked += 1;
    }
    assert!(checked >= 20, "{checked} won or lost samples");
}
