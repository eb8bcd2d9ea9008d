//! The exact solver: published results, agreement with an independent plain search on
//! small boards with and without a table, and the proof file (round trip, damage, holes).

use breakthrough::solve::{
    check, check_shard, check_view, merge, solve, table_in_memory, test_bound, Options, Progress,
    Proof, ProofError, ProofFile, ProofView, RecordKind, Silent,
};
use breakthrough::{Board, Position};
use prover::{ProverPosition, Verdict};
use quasar_core::exact::ExactSolver;
use quasar_core::{GameResult, Shard, Side};
use quasar_file::FileError;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

fn board(w: u32, h: u32) -> Board {
    Board::new(w, h).unwrap()
}

#[test]
fn four_by_four_is_a_second_player_win_in_14_plies() {
    let root = Position::start(board(4, 4));
    let tb = table_in_memory(board(4, 4), 3).unwrap();
    for tablebase in [None, Some(&tb)] {
        let opts = Options {
            tablebase,
            ..Options::default()
        };
        let s = solve(&root, &opts, &Silent).unwrap();
        assert_eq!(s.winner, Side::Second);
        assert_eq!(s.plies, 14);
        assert_eq!(s.line.len(), 14);
        // The line is legal and ends with Black's win.
        let mut pos = root;
        for &mv in &s.line {
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            assert!(legal.contains(&mv));
            pos.make_move(mv);
        }
        assert_eq!(pos.result(), Some(quasar_core::Outcome::Win(Side::Second)));
    }
}

/// Positions `plies` random moves from the start of `b`, unfinished.
fn random_positions(b: Board, plies: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(b);
        for _ in 0..plies {
            if pos.result().is_some() {
                break;
            }
            let mv = pos.random_move(&mut rng).unwrap();
            pos.make_move(mv);
        }
        if pos.result().is_none() && rng.random_bool(0.5) {
            out.push(pos);
        }
    }
    out
}

/// Winner and length from the core's exact solver, an independent plain search.
fn plain(pos: &Position) -> (Side, u32) {
    let mut ex = ExactSolver::<Position>::default();
    let s = ex
        .solve(pos, 60)
        .expect("small boards are solved within 60 plies");
    let winner = match s.result {
        GameResult::Win => pos.side(),
        _ => pos.side().opponent(),
    };
    (winner, s.plies)
}

#[test]
fn agrees_with_plain_search_on_small_boards() {
    for (w, h, plies, rows) in [
        (4, 4, 2, 3),
        (4, 5, 4, 3),
        (5, 4, 3, 3),
        (4, 5, 4, 4),
        (5, 5, 10, 3),
        (5, 5, 10, 4),
    ] {
        let b = board(w, h);
        let tb = table_in_memory(b, rows).unwrap();
        for pos in random_positions(b, plies, 12, w as u64 * 100 + h as u64 + rows as u64) {
            let expected = plain(&pos);
            for tablebase in [None, Some(&tb)] {
                let opts = Options {
                    tablebase,
                    table_bytes: 8 << 20,
                    ..Options::default()
                };
                let s = solve(&pos, &opts, &Silent).unwrap();
                assert_eq!(
                    (s.winner, s.plies),
                    expected,
                    "{} with table: {}",
                    pos.to_fen(),
                    tablebase.is_some()
                );
            }
        }
    }
}

#[test]
fn the_length_by_proof_numbers_agrees_with_plain_search() {
    // From 4 plies every bound is tested by proof numbers; from 8 the two searches mix
    // (proof numbers above, depth first below); a small table makes entries replace each
    // other.
    for (w, h, plies, rows, count) in [
        (4, 5, 4, 3, 8),
        (5, 4, 3, 3, 8),
        (3, 6, 2, 4, 8),
        (5, 5, 14, 3, 3),
    ] {
        let b = board(w, h);
        let tb = table_in_memory(b, rows).unwrap();
        for pos in random_positions(b, plies, count, w as u64 * 31 + h as u64) {
            let expected = plain(&pos);
            for tablebase in [None, Some(&tb)] {
                // 64 KiB is too small for the search on 4x5 and 5x4 (on 3x6 and 5x5
                // proof numbers would take minutes with it).
                let small = if h == 6 || w * h > 20 {
                    8 << 20
                } else {
                    64 << 10
                };
                for (pn_from, bytes) in [(4, 8 << 20), (8, 8 << 20), (4, small)] {
                    let opts = Options {
                        tablebase,
                        table_bytes: bytes,
                        length_pn_from: pn_from,
                        ..Options::default()
                    };
                    let s = solve(&pos, &opts, &Silent).unwrap();
                    assert_eq!(
                        (s.winner, s.plies),
                        expected,
                        "{} with table: {}, proof numbers from {pn_from}, {bytes} bytes",
                        pos.to_fen(),
                        tablebase.is_some()
                    );
                }
            }
        }
    }
}

#[test]
fn a_proof_found_by_proof_numbers_checks() {
    let b = board(5, 5);
    let tb = table_in_memory(b, 3).unwrap();
    let path = temp("pn.proof");
    for root in random_positions(b, 10, 4, 7) {
        let opts = Options {
            tablebase: Some(&tb),
            table_bytes: 8 << 20,
            proof: Some(&path),
            length_pn_from: 6,
            ..Options::default()
        };
        let s = solve(&root, &opts, &Silent).unwrap();
        assert_eq!((s.winner, s.plies), plain(&root), "{}", root.to_fen());
        let proof = Proof::read(&path).unwrap();
        assert_eq!(proof.verdict.plies(), Some(s.plies));
        let report = check(&proof).unwrap();
        assert_eq!(report.records, s.proof.unwrap().records);
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A solved 5x5 middle game with its proof (written by the solver's streaming path to a
/// file, then read back), the first of a fixed random sample whose proof uses a table claim
/// as a leaf.
fn proved() -> Proof {
    let b = board(5, 5);
    let tb = table_in_memory(b, 3).unwrap();
    let path = temp("proved.proof");
    for root in random_positions(b, 12, 40, 99) {
        let opts = Options {
            tablebase: Some(&tb),
            table_bytes: 8 << 20,
            proof: Some(&path),
            ..Options::default()
        };
        let s = solve(&root, &opts, &Silent).unwrap();
        let summary = s.proof.unwrap();
        let proof = Proof::read(&path).unwrap();
        assert_eq!(summary.records, proof.records.len() as u64);
        assert_eq!(summary.bytes, std::fs::metadata(&path).unwrap().len());
        if proof
            .records
            .iter()
            .any(|r| r.kind == RecordKind::Claim && r.bound > 1)
        {
            assert_eq!((s.winner, s.plies), plain(&root));
            return proof;
        }
    }
    panic!("no proof in the sample uses a table claim");
}

#[test]
fn proof_round_trips_and_checks() {
    let proof = proved();
    assert!(proof.records.iter().any(|r| r.kind == RecordKind::Claim));
    // The streamed file and the in-memory proof's bytes are the same file.
    let streamed = std::fs::read(temp("proved.proof")).unwrap();
    assert_eq!(proof.to_bytes(), streamed);
    let path = temp("round.proof");
    proof.write(&path).unwrap();
    let back = Proof::read(&path).unwrap();
    assert_eq!(back, proof);
    let report = check(&back).unwrap();
    assert_eq!(report.records, proof.records.len() as u64);
    assert!(report.claims > 0);
    // The file checked in place, on one thread and on four, says the same.
    let file = ProofFile::open(&path).unwrap();
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool
            .install(|| check_view(&file.view().unwrap(), &Silent))
            .unwrap();
        assert_eq!((r.records, r.claims), (report.records, report.claims));
    }
}

#[test]
fn damaged_proof_files_are_errors() {
    let bytes = proved().to_bytes();
    let path = temp("damaged.proof");
    // Every single flipped byte and every cut is caught by the checksum or the header.
    for i in (0..bytes.len()).step_by(7) {
        let mut b = bytes.clone();
        b[i] ^= 0x5A;
        assert!(matches!(
            Proof::from_bytes(&b, &path),
            Err(ProofError::Damaged { .. })
        ));
    }
    for cut in [0, 5, 40, bytes.len() - 1] {
        assert!(matches!(
            Proof::from_bytes(&bytes[..cut], &path),
            Err(ProofError::Damaged { .. })
        ));
    }
    assert!(matches!(
        Proof::read(&temp("missing.proof")),
        Err(ProofError::File(FileError::Io { .. }))
    ));
    // A device or a FIFO is refused at once, never read without end.
    let e = Proof::read(std::path::Path::new("/dev/zero"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "/dev/zero is a character device, not a regular file: give the path of a file"
    );
    // A file of the first format (version 1, intact): refused by name, not misread.
    let mut old = bytes[..48].to_vec();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32fast::hash(&old);
    old.extend_from_slice(&crc.to_le_bytes());
    let e = Proof::from_bytes(&old, &path).unwrap_err();
    assert!(e.to_string().contains("format version 1"), "{e}");
}

#[test]
fn holes_in_a_proof_are_found() {
    let proof = proved();
    // A record missing.
    let mut p = proof.clone();
    p.records.remove(p.records.len() / 2);
    assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
    // A position recorded twice.
    let mut p = proof.clone();
    p.records.push(p.records[0]);
    let e = check(&p).unwrap_err();
    assert!(e.to_string().contains("two records"), "{e}");
    // A claimed length one winner move too short.
    let Verdict::Win { winner, plies } = proof.verdict else {
        panic!("a Breakthrough proof proves a win")
    };
    let mut p = proof.clone();
    p.verdict = Verdict::Win {
        winner,
        plies: plies - 2,
    };
    assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
    // The other side named as the winner.
    let mut p = proof.clone();
    p.verdict = Verdict::Win {
        winner: winner.opponent(),
        plies,
    };
    assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
    // The win called a draw: the loser holds nothing.
    let mut p = proof.clone();
    p.verdict = Verdict::Draw;
    assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
    // A winning move replaced by another legal move.
    let mut p = proof.clone();
    let i = p
        .records
        .iter()
        .position(|r| r.kind == RecordKind::Move && r.bound > 3)
        .unwrap();
    let r = p.records[i];
    let pos = Position::from_parts(board(5, 5), r.a, r.b, r.side).unwrap();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut caught = 0;
    for mv in moves
        .into_iter()
        .filter(|&m| Position::move_code(m) != r.mv)
    {
        p.records[i].mv = Position::move_code(mv);
        caught += check(&p).is_err() as u32;
    }
    // Not every other move loses, but some must be caught.
    assert!(caught > 0);
    // A table claim whose position is not won that fast.
    let mut p = proof;
    let i = p
        .records
        .iter()
        .position(|r| r.kind == RecordKind::Claim)
        .unwrap();
    p.records[i].bound = 1;
    assert!(matches!(check(&p), Err(ProofError::Invalid(_))));
}

#[test]
fn the_shards_of_a_check_share_the_records_and_one_of_them_finds_a_hole() {
    // 4x5 from the start: about 108 k records, thousands of index buckets.
    let b = board(4, 5);
    let tb = table_in_memory(b, 3).unwrap();
    let path = temp("4x5-shards.proof");
    let opts = Options {
        tablebase: Some(&tb),
        table_bytes: 32 << 20,
        proof: Some(&path),
        ..Options::default()
    };
    solve(&Position::start(b), &opts, &Silent).unwrap();
    let proof = Proof::read(&path).unwrap();
    let whole = check(&proof).unwrap();
    /// The total a check announced and the records it then reported done.
    #[derive(Default)]
    struct Counted(AtomicU64, AtomicU64);
    impl Progress for Counted {
        fn begin(&self, _: &str, total: u64) {
            self.0.store(total, Relaxed);
        }
        fn advance(&self, units: u64) {
            self.1.fetch_add(units, Relaxed);
        }
    }
    let shards = |p: &Proof, n: u32| {
        let bytes = p.to_bytes();
        let view = ProofView::parse(&bytes, std::path::Path::new("test")).unwrap();
        (1..=n)
            .map(|i| {
                let counted = Counted::default();
                let r = check_shard(&view, Shard::new(i, n).unwrap(), &counted);
                (r, counted.0.into_inner(), counted.1.into_inner())
            })
            .collect::<Vec<_>>()
    };
    for n in [2, 3, 7] {
        let mut reports = Vec::new();
        for (r, total, done) in shards(&proof, n) {
            // Each shard's progress counts its own records, announced before it starts.
            let r = r.unwrap();
            assert_eq!((total, done), (r.records, r.records));
            reports.push(r);
        }
        // Every shard has records of its own, and together they are the whole proof.
        assert!(reports.iter().all(|r| r.records > 0), "{reports:?}");
        let records: u64 = reports.iter().map(|r| r.records).sum();
        let claims: u64 = reports.iter().map(|r| r.claims).sum();
        assert_eq!(
            (records, claims),
            (whole.records, whole.claims),
            "{n} shards"
        );
    }
    // A record missing: its parent's shard fails, whichever it is.
    let mut p = proof.clone();
    p.records.remove(p.records.len() / 2);
    let failed = shards(&p, 3).iter().filter(|r| r.0.is_err()).count();
    assert!(failed >= 1);
}

#[test]
fn a_proof_written_in_pieces_merges_into_one_that_checks() {
    // 4x5 (White, the loser, moves at the root) and a 5x4 middle game with the winner to
    // move, so that both ways of sharing out the first replies are used.
    let mut roots = vec![Position::start(board(4, 5))];
    let b54 = board(5, 4);
    roots.extend(
        random_positions(b54, 4, 40, 5)
            .into_iter()
            .filter(|p| plain(p).0 == p.side())
            .take(1),
    );
    assert_eq!(roots.len(), 2);
    for root in roots {
        let b = root.board();
        let tb = table_in_memory(b, 3).unwrap();
        let write = |proof: &std::path::Path, shard| {
            let options = Options {
                tablebase: Some(&tb),
                table_bytes: 16 << 20,
                proof: Some(proof),
                proof_shard: shard,
                ..Options::default()
            };
            solve(&root, &options, &Silent)
                .unwrap()
                .proof
                .unwrap()
                .records
        };
        let whole = temp(&format!("{b}-whole.proof"));
        write(&whole, Shard::WHOLE);
        let pieces: Vec<_> = (1..=3)
            .map(|i| {
                let piece = temp(&format!("{b}-piece-{i}.proof"));
                assert!(write(&piece, Shard::new(i, 3).unwrap()) > 0);
                piece
            })
            .collect();
        let merged = temp(&format!("{b}-merged.proof"));
        let m = merge(&pieces, &merged).unwrap();
        let proof = Proof::read(&merged).unwrap();
        let want = Proof::read(&whole).unwrap();
        assert_eq!((proof.root, proof.verdict), (want.root, want.verdict));
        assert_eq!(check(&proof).unwrap().records, m.records);
        // Without one of its pieces the proof has a hole.
        merge(&pieces[..2], &merged).unwrap();
        let holed = Proof::read(&merged).unwrap();
        assert!(matches!(check(&holed), Err(ProofError::Invalid(_))), "{b}");
    }
    // Pieces of two proofs are refused.
    let e = merge(
        &[temp("4x5-piece-1.proof"), temp("5x4-piece-1.proof")],
        &temp("x.proof"),
    )
    .unwrap_err();
    assert!(e.to_string().contains("pieces of one proof only"), "{e}");
}

#[test]
#[ignore = "about a minute on a loaded 2-core machine; run with --ignored"]
fn five_by_five_is_a_second_player_win_in_26_plies() {
    let b = board(5, 5);
    let tb = table_in_memory(b, 3).unwrap();
    let root = Position::start(b);
    let opts = Options {
        tablebase: Some(&tb),
        ..Options::default()
    };
    let s = solve(&root, &opts, &Silent).unwrap();
    assert_eq!((s.winner, s.plies), (Side::Second, 26));
}

/// A scratch checkpoint path of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qs-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_stopped_solve_resumes_from_its_checkpoint_to_the_same_answer() {
    use breakthrough::solve::checkpoint::{Checkpoint, Phase};
    use breakthrough::solve::SolveError;
    let b = board(4, 4);
    let root = Position::start(b);
    let fresh = solve(&root, &Options::default(), &Silent).unwrap();
    let dfpn_nodes = fresh.winner_nodes;
    assert!(dfpn_nodes > 500, "{dfpn_nodes}");
    // Stop inside df-pn, then inside the length search, then finish.
    let path = scratch("4x4.ckpt");
    let _ = std::fs::remove_file(&path);
    let with = |stop_after| Options {
        checkpoint: Some(&path),
        stop_after,
        ..Options::default()
    };
    let e = solve(&root, &with(Some(300)), &Silent).unwrap_err();
    assert!(
        matches!(
            e,
            SolveError::Stopped {
                nodes: 300,
                saved: Some(_)
            }
        ),
        "{e}"
    );
    let c = Checkpoint::read(&path).unwrap().unwrap();
    assert_eq!(c.phase, Phase::Winner);
    assert_eq!(c.winner_nodes, 300);
    let e = solve(&root, &with(Some(dfpn_nodes + 100)), &Silent).unwrap_err();
    assert!(matches!(e, SolveError::Stopped { .. }), "{e}");
    let c = Checkpoint::read(&path).unwrap().unwrap();
    let Phase::Length { winner, bound } = c.phase else {
        panic!("stopped in the length search, got {:?}", c.phase);
    };
    assert_eq!(winner, Side::Second);
    assert!(bound <= 14 && bound % 2 == 0, "{bound}");
    assert!(c.length_nodes > 0 && !c.entries.is_empty());
    let s = solve(&root, &with(None), &Silent).unwrap();
    assert_eq!(
        (s.winner, s.plies, &s.line),
        (fresh.winner, fresh.plies, &fresh.line)
    );
    // Once the length is known the checkpoint holds the holding bound (saved before the
    // principal line, so a run stopped there or in the proof does not search again), and
    // a run from it has only the principal line left to search.
    std::fs::remove_file(&path).unwrap();
    solve(&root, &with(None), &Silent).unwrap();
    let c = Checkpoint::read(&path).unwrap().unwrap();
    let holding = Phase::Length {
        winner: Side::Second,
        bound: fresh.plies,
    };
    assert_eq!(c.phase, holding);
    let again = solve(&root, &with(None), &Silent).unwrap();
    assert_eq!((again.plies, &again.line), (fresh.plies, &fresh.line));
    let searched = again.length_nodes - c.length_nodes;
    assert!(
        searched < fresh.length_nodes / 2,
        "{searched} {}",
        fresh.length_nodes
    );
    // The checkpoint of another board is refused with a message, not used.
    let other = Position::start(board(5, 4));
    let e = solve(&other, &with(None), &Silent).unwrap_err();
    assert!(e.to_string().contains("not of"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn one_bound_holds_exactly_from_the_plain_searchs_length_on() {
    // Depth first (255) and by proof numbers (4), with the table; each bound from 1 to two
    // past the length, of both parities.
    for (w, h, plies, count) in [(4, 4, 2, 4), (4, 5, 4, 4), (5, 4, 3, 3)] {
        let b = board(w, h);
        let tb = table_in_memory(b, 3).unwrap();
        for pos in random_positions(b, plies, count, w as u64 * 7 + h as u64) {
            let (winner, length) = plain(&pos);
            for pn_from in [255, 4] {
                let opts = Options {
                    tablebase: Some(&tb),
                    table_bytes: 1 << 20,
                    length_pn_from: pn_from,
                    ..Options::default()
                };
                for d in 1..=length + 2 {
                    let t = test_bound(&pos, &opts, d, &Silent).unwrap();
                    assert_eq!(t.winner, winner, "{}", pos.to_fen());
                    assert_eq!(
                        t.holds,
                        d >= length,
                        "{}: within {d} plies (length {length}), proof numbers from {pn_from}",
                        pos.to_fen()
                    );
                }
            }
        }
    }
}

#[test]
fn a_bound_tested_from_a_checkpoint_leaves_it_good_for_the_whole_solve() {
    use breakthrough::solve::checkpoint::{Checkpoint, Phase};
    let b = board(4, 5);
    let file = scratch("bound.ckpt");
    let _ = std::fs::remove_file(&file);
    for pos in random_positions(b, 4, 4, 45) {
        let (winner, length) = plain(&pos);
        let opts = Options {
            table_bytes: 1 << 20,
            checkpoint: Some(&file),
            ..Options::default()
        };
        // A bound that holds, far above the length: had the checkpoint recorded it, the
        // solve below would start there and answer it.
        let t = test_bound(&pos, &opts, length + 6, &Silent).unwrap();
        assert!(t.holds);
        let c = Checkpoint::read(&file).unwrap().expect("saved");
        assert_eq!(c.phase, Phase::Length { winner, bound: 0 });
        let s = solve(&pos, &opts, &Silent).unwrap();
        assert_eq!((s.winner, s.plies), (winner, length), "{}", pos.to_fen());
        std::fs::remove_file(&file).unwrap();
    }
}
