//! The generic prover on Woodpush against the retrograde table: wins, draws and losses
//! of the start and of sampled positions, the exact length of a win, and its proof file
//! replayed by the checker.

use prover::draws::Value;
use prover::{check, solve_with_draws, Drawn, Options, Proof, ProofError, ProverPosition, Verdict};
use quasar_core::progress::Silent;
use quasar_core::{Game, GameResult, SplitMix64};
use retro::PerfectIndex;
use woodpush::{solve, Position, SolveOptions, WoodpushProver, WoodpushTable};

fn table(width: u32) -> WoodpushTable {
    solve(
        width,
        SolveOptions::default(),
        &quasar_core::progress::Silent,
    )
    .unwrap()
    .0
}

fn options<'a>() -> Options<'a, WoodpushTable> {
    Options {
        table_bytes: 8 << 20,
        ..Options::default()
    }
}

/// The table's value of `pos` as the prover states it.
fn table_value(t: &WoodpushTable, pos: &Position) -> Value {
    let v = t.wdl().value(t.space().rank(pos), pos.side);
    match v.result {
        GameResult::Win => Value::Win(pos.side),
        GameResult::Loss => Value::Win(pos.side.opponent()),
        GameResult::Draw => Value::Draw,
    }
}

/// Draws a cross-check writes and checks proofs of.
const DRAW_PROOFS: usize = 20;

/// A scratch file of this test run.
fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("quasar-woodpush-{}-{name}", std::process::id()))
}

/// Writes the proof of the drawn `pos` and checks it; returns it.
fn draw_proof_checks(pos: &Position) -> Proof<Position> {
    let path = temp("draw.proof");
    let o = Options {
        proof: Some(&path),
        ..options()
    };
    let drawn = solve_with_draws(&WoodpushProver, pos, &o, &Silent).unwrap();
    assert_eq!(drawn.valued.value, Value::Draw, "{}", pos.position_text());
    let summary = drawn.draw_proof.expect("a draw's proof was asked for");
    let proof = Proof::<Position>::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!((proof.root, proof.verdict), (*pos, Verdict::Draw));
    assert_eq!(summary.records, proof.records.len() as u64);
    let report = check(&proof).unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
    assert_eq!(report.records, summary.records);
    proof
}

/// Proves `samples` unfinished positions drawn from the table's index (and the start)
/// and compares each value with the table's, and each win's length with its plies.
fn cross_check(width: u32, samples: usize) -> [usize; 3] {
    let t = table(width);
    let n = PerfectIndex::size(t.space());
    let mut rng = SplitMix64::new(width as u64);
    let mut seen = [0usize; 3];
    let start = Position::start(width).unwrap();
    let picks = std::iter::once(start).chain(
        std::iter::repeat_with(|| t.space().unrank(rng.below(n as usize) as u64))
            .filter(|p| p.outcome().is_none())
            .take(samples),
    );
    for pos in picks {
        let Drawn {
            valued,
            win: solution,
            ..
        } = solve_with_draws(&WoodpushProver, &pos, &options(), &Silent)
            .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
        let want = table_value(&t, &pos);
        assert_eq!(valued.value, want, "{}", pos.position_text());
        match (want, solution) {
            (Value::Draw, None) => {
                // The first draws' proofs are written and checked.
                if seen[2] < DRAW_PROOFS {
                    draw_proof_checks(&pos);
                }
                seen[2] += 1
            }
            (Value::Win(w), Some(s)) => {
                let plies = t.wdl().value(t.space().rank(&pos), pos.side).plies;
                assert_eq!((s.winner, s.plies), (w, plies), "{}", pos.position_text());
                seen[(w != pos.side) as usize] += 1;
            }
            (v, s) => panic!("{}: {v:?} with {s:?}", pos.position_text()),
        }
    }
    seen
}

#[test]
fn starts_are_right_on_widths_6_to_9() {
    let want = [
        (6, Value::Win(quasar_core::Side::Second)),
        (7, Value::Win(quasar_core::Side::Second)),
        (8, Value::Win(quasar_core::Side::Second)),
        (9, Value::Draw),
    ];
    for (width, value) in want {
        let t = table(width);
        let start = Position::start(width).unwrap();
        assert_eq!(table_value(&t, &start), value, "width {width}");
        let Drawn { valued, .. } =
            solve_with_draws(&WoodpushProver, &start, &options(), &Silent).unwrap();
        assert_eq!(valued.value, value, "width {width}");
    }
}

#[test]
fn sampled_positions_of_width_9_agree_with_the_table() {
    let seen = cross_check(9, 300);
    // Wins for the side to move, losses and draws all occur among them.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
#[ignore = "2,000 positions on every width from 6 to 11: long"]
fn thousands_of_positions_of_widths_6_to_11_agree_with_the_table() {
    for width in 6..=11 {
        let seen = cross_check(width, 2000);
        assert_eq!(seen.iter().sum::<usize>(), 2001, "width {width}");
    }
}

#[test]
fn a_stopped_search_for_draws_resumes_from_its_checkpoint_to_the_same_answer() {
    use prover::checkpoint::{Checkpoint, Phase};
    let ckpt = std::env::temp_dir().join(format!("quasar-woodpush-{}.ckpt", std::process::id()));
    // Width 9 is a draw (both sides' searches fail); at width 7 the second side wins.
    for width in [9, 7] {
        let start = Position::start(width).unwrap();
        let me = start.side;
        let Drawn {
            valued: fresh,
            win: fresh_win,
            ..
        } = solve_with_draws(&WoodpushProver, &start, &options(), &Silent).unwrap();
        let total = fresh.nodes[0] + fresh.nodes[1];
        // A stop in the side to move's search, in its opponent's, and in a win's length.
        for stop in [total / 3, total * 2 / 3, total + 100] {
            let _ = std::fs::remove_file(&ckpt);
            let stopping = Options {
                checkpoint: Some(&ckpt),
                stop_after: Some(stop),
                ..options()
            };
            let stopped = solve_with_draws(&WoodpushProver, &start, &stopping, &Silent);
            if fresh.value == Value::Draw && stop > total {
                // Nothing left to stop: the same answer at once.
                assert_eq!(stopped.unwrap().valued.value, Value::Draw);
                continue;
            }
            let e = stopped.unwrap_err();
            assert!(matches!(e, prover::SolveError::Stopped { .. }), "{e}");
            let saved = Checkpoint::<Position>::read(&ckpt).unwrap().unwrap();
            let want = if stop <= fresh.nodes[me.index()] {
                Phase::Attack { attacker: me }
            } else if stop <= total {
                Phase::Attack {
                    attacker: me.opponent(),
                }
            } else {
                let Value::Win(winner) = fresh.value else {
                    unreachable!()
                };
                Phase::Length { winner, bound: 0 }
            };
            match (saved.phase, want) {
                (Phase::Length { winner, .. }, Phase::Length { winner: w, .. }) => {
                    assert_eq!(winner, w)
                }
                (got, want) => assert_eq!(got, want, "width {width}, stop {stop}"),
            }
            let resuming = Options {
                checkpoint: Some(&ckpt),
                ..options()
            };
            let Drawn { valued: v, win, .. } =
                solve_with_draws(&WoodpushProver, &start, &resuming, &Silent).unwrap();
            assert_eq!(v.value, fresh.value, "width {width}, stop {stop}");
            assert_eq!(
                win.map(|s| (s.winner, s.plies)),
                fresh_win.as_ref().map(|s| (s.winner, s.plies)),
                "width {width}, stop {stop}"
            );
        }
    }
    let _ = std::fs::remove_file(&ckpt);
}

#[test]
fn a_draws_proof_is_checked_and_every_record_and_holding_move_is_needed() {
    let start = Position::start(9).unwrap();
    let proof = draw_proof_checks(&start);
    let n = proof.records.len();
    // Both sides hold: records of each side to move.
    for side in [quasar_core::Side::First, quasar_core::Side::Second] {
        assert!(proof.records.iter().any(|r| r.side == side), "{side:?}");
    }
    // Each record is reached from the root, so without it a move has no answer.
    for i in [0, n / 3, n / 2, n - 1] {
        let mut holed = proof.clone();
        holed.records.remove(i);
        assert!(
            matches!(check(&holed), Err(ProofError::Invalid(_))),
            "record {i} of {n} removed"
        );
    }
    // A holding move replaced by a move into a position the table says the other side
    // wins: the check finds the hole (the other side's winning line leaves the records).
    let t = table(9);
    let mut moves = Vec::new();
    let replaced = proof.records.iter().enumerate().find_map(|(i, r)| {
        let pos = proof.root.with_key(&r.key()).ok()?;
        pos.legal_moves(&mut moves);
        moves.iter().find_map(|&mv| {
            let mut c = pos;
            c.play(mv);
            let loses = match c.outcome() {
                Some(o) => o == quasar_core::Outcome::Win(r.side.opponent()),
                None => table_value(&t, &c) == Value::Win(r.side.opponent()),
            };
            loses.then_some((i, <Position as prover::ProverPosition>::move_code(mv)))
        })
    });
    let (i, code) = replaced.expect("some holding position has a losing move");
    let mut bad = proof.clone();
    bad.records[i].mv = code;
    assert!(matches!(check(&bad), Err(ProofError::Invalid(_))));
    // A draw's proof is no proof of a win, for either side.
    for winner in [quasar_core::Side::First, quasar_core::Side::Second] {
        let mut p = proof.clone();
        p.verdict = Verdict::Win { winner, plies: 200 };
        assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
    }
}

#[test]
fn one_bound_of_the_length_agrees_with_the_table() {
    let t = table(9);
    let n = PerfectIndex::size(t.space());
    let mut rng = SplitMix64::new(99);
    let mut seen = [0usize; 2];
    let picks = std::iter::repeat_with(|| t.space().unrank(rng.below(n as usize) as u64))
        .filter(|p| p.outcome().is_none())
        .take(40);
    for pos in picks {
        let want = table_value(&t, &pos);
        let plies = t.wdl().value(t.space().rank(&pos), pos.side).plies;
        // The table's length holds and one ply less does not; a draw has no bound.
        for (bound, holds) in [(plies.max(1), true), (plies.saturating_sub(1), false)] {
            if bound == 0 {
                continue;
            }
            let (valued, test) =
                prover::test_bound_with_draws(&WoodpushProver, &pos, &options(), bound, &Silent)
                    .unwrap();
            assert_eq!(valued.value, want, "{}", pos.position_text());
            match (want, test) {
                (Value::Draw, None) => {}
                (Value::Win(w), Some(b)) => {
                    assert_eq!(
                        (b.winner, b.holds),
                        (w, holds),
                        "{} within {bound}",
                        pos.position_text()
                    );
                }
                (v, b) => panic!("{}: {v:?} with {b:?}", pos.position_text()),
            }
        }
        seen[(want == Value::Draw) as usize] += 1;
    }
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "wins and draws both met: {seen:?}"
    );
}

#[test]
fn a_draws_proof_in_pieces_merges_into_one_that_checks() {
    let start = Position::start(9).unwrap();
    // The whole proof in a file of this test's own (another test writes draw.proof).
    let whole_path = temp("draw.whole");
    let o = Options {
        proof: Some(&whole_path),
        ..options()
    };
    solve_with_draws(&WoodpushProver, &start, &o, &Silent).unwrap();
    let whole = Proof::<Position>::read(&whole_path).unwrap();
    check(&whole).unwrap();
    std::fs::remove_file(&whole_path).unwrap();
    let pieces: Vec<std::path::PathBuf> = (1..=3)
        .map(|i| {
            let path = temp(&format!("draw.{i}"));
            let o = Options {
                proof: Some(&path),
                proof_shard: quasar_core::Shard::new(i, 3).unwrap(),
                ..options()
            };
            let drawn = solve_with_draws(&WoodpushProver, &start, &o, &Silent).unwrap();
            assert!(drawn.draw_proof.is_some());
            path
        })
        .collect();
    // Each piece alone leaves some move of the other side unanswered.
    for p in &pieces {
        let piece = Proof::<Position>::read(p).unwrap();
        assert!(piece.records.len() < whole.records.len());
        assert!(matches!(check(&piece), Err(ProofError::Invalid(_))));
    }
    let out = temp("draw.merged");
    let merged = prover::merge::<Position>(&pieces, &out).unwrap();
    let proof = Proof::<Position>::read(&out).unwrap();
    assert_eq!((proof.root, proof.verdict), (start, Verdict::Draw));
    let report = check(&proof).unwrap();
    assert_eq!(report.records, merged.records);
    for p in pieces.iter().chain([&out]) {
        std::fs::remove_file(p).unwrap();
    }
}

/// A winner-only solve of a game with draws: the checker replays its proof, whose bound
/// is no less than the exact length the table gives.
#[test]
fn winner_only_proofs_of_a_game_with_draws_are_checked() {
    let t = table(8);
    let n = PerfectIndex::size(t.space());
    let mut rng = SplitMix64::new(81);
    let path = temp("winner-only.proof");
    let mut proven = [0usize; 2];
    let start = Position::start(8).unwrap();
    let picks = std::iter::once(start).chain(
        std::iter::repeat_with(|| t.space().unrank(rng.below(n as usize) as u64))
            .filter(|p| p.outcome().is_none())
            .take(40),
    );
    for pos in picks {
        let Value::Win(winner) = table_value(&t, &pos) else {
            continue;
        };
        let _ = std::fs::remove_file(&path);
        let o = Options {
            proof: Some(&path),
            winner_only: Some(prover::LOOSE_BOUND),
            ..options()
        };
        let drawn = solve_with_draws(&WoodpushProver, &pos, &o, &Silent)
            .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
        let s = drawn.win.expect("a win");
        let exact = t.wdl().value(t.space().rank(&pos), pos.side).plies;
        assert!(!s.plies_exact);
        assert!(s.plies >= exact, "{}", pos.position_text());
        let proof = Proof::<Position>::read(&path).unwrap();
        assert_eq!(
            proof.verdict,
            Verdict::Win {
                winner,
                plies: s.plies
            }
        );
        let report = check(&proof).unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
        assert_eq!(report.records, s.proof.unwrap().records);
        proven[(winner != pos.side) as usize] += 1;
    }
    let _ = std::fs::remove_file(&path);
    // Wins of the side to move and of its opponent both had proofs.
    assert!(proven.iter().all(|&k| k > 3), "{proven:?}");
}
