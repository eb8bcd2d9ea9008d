//! The solver's unit tests on Breakthrough positions: df-pn against a plain exact search,
//! the checker against full minimax, the proof file, its writer and the checkpoint.

mod dfpn {
    use crate::solve::checkpoint::Saver;
    use crate::solve::dfpn::*;
    use crate::solve::leaves::Geometry;
    use crate::solve::{table_in_memory, Silent};
    use crate::tablebase::Tablebase;
    use crate::{Board, Position};
    use quasar_core::exact::ExactSolver;
    use quasar_core::{Game, GameResult, Side};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::time::Duration;

    /// The winner by the core's plain exact search, independent of df-pn.
    fn plain_winner(pos: &Position) -> Side {
        let s = ExactSolver::<Position>::default()
            .solve(pos, 60)
            .expect("small boards end within 60 plies");
        match s.result {
            GameResult::Win => pos.side_to_move(),
            _ => pos.side_to_move().opponent(),
        }
    }

    /// `count` unfinished positions up to `plies` random moves from the start of `b`.
    fn positions(b: Board, plies: u32, count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::start(b);
            for _ in 0..plies {
                match pos.random_move(&mut rng) {
                    Some(mv) if pos.outcome().is_none() => pos.play(mv),
                    _ => break,
                }
            }
            if pos.outcome().is_none() {
                out.push(pos);
            }
        }
        out
    }

    fn winner(pos: &Position, tb: Option<&Tablebase>, tuning: Tuning, bytes: usize) -> Side {
        let geo = Geometry::new(pos.board());
        let saver = Saver::new(None, Duration::from_secs(3600), None);
        let mut d = Dfpn::new(&geo, tb, bytes, &Silent, saver).unwrap();
        d.tuning = tuning;
        d.winner(pos).expect("never stopped")
    }

    #[test]
    fn every_tuning_finds_the_plain_searchs_winner() {
        let tunings = [
            Tuning::default(),
            Tuning {
                eps_percent: 0,
                init: Init::Unit,
                weak: false,
                total_work: false,
            },
            Tuning {
                eps_percent: 100,
                init: Init::Mobility,
                weak: true,
                total_work: true,
            },
            Tuning {
                eps_percent: 25,
                init: Init::Race,
                weak: false,
                total_work: true,
            },
        ];
        for (w, h, plies, count) in [(4, 4, 3, 6), (4, 5, 4, 6), (5, 4, 4, 6), (5, 5, 14, 4)] {
            let b = Board::new(w, h).unwrap();
            let tb = table_in_memory(b, 3).unwrap();
            let mut all = positions(b, plies, count, (w * 10 + h) as u64);
            if w * h <= 16 {
                all.push(Position::start(b));
            }
            for pos in all {
                let expected = plain_winner(&pos);
                for tuning in tunings {
                    for table in [None, Some(&tb)] {
                        // Small boards get a table of 64 KiB, so that entries are replaced.
                        let bytes = if w * h <= 20 { 64 << 10 } else { 8 << 20 };
                        assert_eq!(
                            winner(&pos, table, tuning, bytes),
                            expected,
                            "{} on {b}, {tuning:?}, table {}",
                            pos.position_text(),
                            table.is_some()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_reported_root_numbers_end_solved_for_the_winner() {
        let b = Board::new(5, 5).unwrap();
        let geo = Geometry::new(b);
        let (mut forced, mut chosen) = (0, 0);
        for pos in positions(b, 12, 60, 7) {
            let saver = Saver::new(None, Duration::from_secs(3600), None);
            let mut d = Dfpn::new(&geo, None, 1 << 20, &Silent, saver).unwrap();
            let winner = d.winner(&pos).expect("never stopped");
            let Some(numbers) = d.watch.numbers() else {
                // Settled without a search: nothing to watch.
                assert!(d.leaf(&pos).is_some(), "{}", pos.position_text());
                continue;
            };
            let mut moves = Vec::new();
            geo.moves(&pos, geo.quick(&pos), &mut moves);
            if moves.len() == 1 {
                forced += 1;
            } else {
                chosen += 1;
            }
            let expected = if winner == pos.side_to_move() {
                (0, INF)
            } else {
                (INF, 0)
            };
            assert_eq!(numbers, expected, "{}", pos.position_text());
        }
        assert!(
            forced > 0 && chosen > 0,
            "{forced} forced roots, {chosen} with a choice"
        );
    }

    #[test]
    fn the_root_numbers_are_read_at_the_first_choice_below_forced_moves() {
        let mut w = RootWatch::default();
        // A root with one move (a forced capture) and a child with one reply.
        w.expanded(0, 1);
        w.read(0, 1, 1);
        assert_eq!(
            w.numbers(),
            None,
            "the root's own numbers only mirror its child's"
        );
        w.expanded(1, 1);
        w.read(1, 7, 7);
        // The first choice, two plies down: the root's mover moves there too.
        w.expanded(2, 4);
        w.read(2, 3, 9);
        assert_eq!(w.numbers(), Some((3, 9)));
        // Nodes below it, and its siblings' subtrees, are not read.
        w.expanded(3, 1);
        w.read(3, 5, 6);
        w.read(4, 1, 2);
        assert_eq!(w.numbers(), Some((3, 9)));
        // A choice at an odd ply is read for the other side: its numbers swap.
        w.reset(false);
        w.expanded(0, 1);
        w.expanded(1, 2);
        w.read(1, 10, 20);
        assert_eq!(w.numbers(), Some((20, 10)));
        // A root with a choice is read itself.
        w.reset(false);
        w.expanded(0, 2);
        w.read(0, 4, 8);
        w.expanded(1, 1);
        w.read(1, 1, 1);
        assert_eq!(w.numbers(), Some((4, 8)));
        // Asked for the root's opponent, the same numbers swap.
        w.reset(true);
        w.expanded(0, 2);
        w.read(0, 4, 8);
        assert_eq!(w.numbers(), Some((8, 4)));
    }
}

mod check {
    use crate::solve::check::Plain;
    use crate::solve::leaves::wins_in_one_by_trying;
    use crate::{Board, Position};
    use prover::ProverPosition;
    use quasar_core::Game;
    use rand::SeedableRng;

    /// "The side to move wins within `d`" by full-width minimax, nothing else.
    fn brute(pos: &Position, d: u32) -> bool {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        d >= 1
            && moves.iter().any(|&m| {
                let mut child = *pos;
                child.play(m);
                if child.outcome().is_some() {
                    return true;
                }
                let mut replies = Vec::new();
                child.legal_moves(&mut replies);
                d >= 3
                    && replies.iter().all(|&r| {
                        let mut gc = child;
                        gc.play(r);
                        gc.outcome().is_none() && brute(&gc, d - 2)
                    })
            })
    }

    #[test]
    fn claims_are_judged_as_by_full_minimax_whatever_move_they_name() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut plain = Plain::new();
        let (mut held, mut failed) = (0, 0);
        for (w, h) in [(4, 4), (5, 5), (3, 6), (5, 6)] {
            for _ in 0..60 {
                let mut pos = Position::start(Board::new(w, h).unwrap());
                while pos.outcome().is_none() {
                    let hint = pos.random_move(&mut rng).unwrap();
                    for d in 1..=5 {
                        let want = brute(&pos, d);
                        assert_eq!(plain.claim_holds(&pos, d, hint), want, "{pos} {d}");
                        (held, failed) = if want {
                            (held + 1, failed)
                        } else {
                            (held, failed + 1)
                        };
                    }
                    pos.play(hint);
                }
            }
        }
        assert!(held > 500 && failed > 500, "{held} {failed}");
    }

    #[test]
    fn the_win_in_one_shortcut_agrees_with_trying_every_move() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut wins = 0;
        for (w, h) in [(3, 4), (4, 4), (5, 5), (6, 5), (3, 6)] {
            for _ in 0..3000 {
                let mut pos = Position::start(Board::new(w, h).unwrap());
                while pos.outcome().is_none() {
                    let t = pos.targets();
                    let fast = pos.wins_at_once();
                    assert_eq!(fast, wins_in_one_by_trying(&pos, &t), "{pos}");
                    wins += fast as u32;
                    let mv = pos.random_move(&mut rng).unwrap();
                    pos.play(mv);
                }
            }
        }
        assert!(wins > 1000, "{wins}");
    }
}

mod checkpoint {
    use crate::solve::checkpoint::*;
    use crate::solve::tt::Key;
    use crate::solve::Checkpoint;
    use crate::{Board, Move, Position};
    use prover::ProverPosition;
    use quasar_core::Side;

    fn sample() -> Checkpoint {
        let root = Position::start(Board::new(5, 5).unwrap());
        Checkpoint {
            root,
            phase: Phase::Length {
                winner: Side::Second,
                bound: 24,
            },
            winner_nodes: 123,
            length_nodes: 456,
            entries: (0..5)
                .map(|i| Entry {
                    key: Key {
                        a: 1 << i,
                        b: 1 << 20,
                        side: (i % 2) as u8,
                    },
                    a: i as u8,
                    b: 26,
                    mv: Position::move_code(Move { from: 3, to: 8 }),
                    work: 1 << (4 * i),
                })
                .collect(),
            children: children(&root),
        }
    }

    /// The root's children with made-up numbers, one of them solved.
    fn children(root: &Position) -> Vec<RootChild> {
        let mut moves = Vec::new();
        quasar_core::Game::legal_moves(root, &mut moves);
        moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let mut child = *root;
                quasar_core::Game::play(&mut child, mv);
                RootChild {
                    key: child.raw_key(),
                    pn: if i == 0 { 0 } else { i as u32 },
                    dn: if i == 0 {
                        prover::dfpn::INF
                    } else {
                        3 * i as u32
                    },
                }
            })
            .collect()
    }

    #[test]
    fn writes_reads_and_refuses_damage() {
        let dir = std::env::temp_dir().join(format!("qs-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ckpt");
        assert!(Checkpoint::read(&path).unwrap().is_none());
        let c = sample();
        c.write(&path).unwrap();
        assert_eq!(Checkpoint::read(&path).unwrap(), Some(c.clone()));
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 4;
        let e = Checkpoint::from_bytes(&bytes, &path).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let e = Checkpoint::from_bytes(&bytes[..30], &path).unwrap_err();
        assert!(e.to_string().contains("header"), "{e}");
        let other = Position::start(Board::new(6, 5).unwrap());
        let e = c.matches(&other, &path).unwrap_err();
        assert!(e.to_string().contains("not of"), "{e}");
        // A child that holds no position of the game is refused.
        let mut bad = c.clone();
        bad.children[1].key.side = 2;
        bad.write(&path).unwrap();
        let e = Checkpoint::read(&path).unwrap_err();
        assert!(e.to_string().contains("root child"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_first_version_file_is_read_without_root_children() {
        let dir = std::env::temp_dir().join(format!("qs-ckpt-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ckpt");
        let mut c = sample();
        c.children.clear();
        c.write(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
        // Version 1: the same header and entries, no count of children, its own checksum.
        let mut old = bytes[..bytes.len() - 12].to_vec();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        let crc = crc32fast::hash(&old);
        old.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(Checkpoint::from_bytes(&old, &path).unwrap(), c);
        // Cut short, it is damaged, not misread.
        let e = Checkpoint::from_bytes(&bytes[..bytes.len() - 12], &path).unwrap_err();
        assert!(e.to_string().contains("not an intact"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keeps_the_most_expensive_entries() {
        // Work 1, 16, 256, 4096, 65536: a cap of 3 keeps the three largest.
        let works = || sample().entries.into_iter().map(|e| e.work);
        let floor = least_class_kept(works(), 3);
        let kept: Vec<u32> = works().filter(|&w| work_class(w) >= floor).collect();
        assert_eq!(kept, vec![256, 4096, 65536]);
        assert_eq!(least_class_kept(works(), 9), 0);
        let none = least_class_kept(works(), 0);
        assert_eq!(works().filter(|&w| work_class(w) >= none).count(), 0);
    }
}

mod proof {
    use crate::solve::proof::*;
    use crate::{Board, Move, Position};
    use prover::ProverPosition;
    use quasar_core::Side;

    #[test]
    fn records_round_trip_on_every_width_of_mask() {
        for (w, h) in [(3, 3), (4, 4), (6, 5), (8, 8)] {
            let board = Board::new(w, h).unwrap();
            let cells = board.num_cells().div_ceil(8) as usize;
            let top = 1u64 << (board.num_cells() - 1);
            let r = Record {
                a: top | 1,
                b: 2,
                side: Side::Second,
                kind: RecordKind::Claim,
                mv: Position::move_code(Move { from: 1, to: 0 }),
                bound: 9,
            };
            let mut bytes = vec![0; record_bytes(cells)];
            encode(&r, cells, &mut bytes);
            assert_eq!(decode(&bytes, cells), Some(r));
        }
    }

    #[test]
    fn bucket_bits_keep_buckets_near_the_target() {
        assert_eq!(bucket_bits_for(0), 0);
        assert_eq!(bucket_bits_for(31), 0);
        assert_eq!(bucket_bits_for(32), 1);
        assert_eq!(bucket_bits_for(3_000_000), 17);
        assert_eq!(bucket_of(u64::MAX, 0), 0);
        assert_eq!(bucket_of(u64::MAX, 3), 7);
    }
}

mod proof_writer {
    use crate::solve::proof::{ProofError, Record, RecordKind};
    use crate::solve::proof_writer::scratch_folder;
    use crate::solve::ProofWriter;
    use crate::{Board, Move, Position};
    use quasar_core::{Game, Side};
    use quasar_file as file;
    use std::path::PathBuf;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qs-writer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The start of 4x4 and three positions after one move, with a record of each.
    fn records() -> (Position, [Record; 3]) {
        let root = Position::start(Board::new(4, 4).unwrap());
        let record = |from, kind, bound| {
            let mut pos = root;
            pos.play(Move { from, to: from + 4 });
            Record::new(
                &pos,
                kind,
                Move {
                    from: from + 8,
                    to: from + 4,
                },
                bound,
            )
        };
        let a = record(4, RecordKind::Move, 7);
        let b = record(5, RecordKind::Claim, 3);
        let c = record(6, RecordKind::Move, 5);
        (root, [a, b, c])
    }

    /// The position of `r`.
    fn position(r: &Record) -> Position {
        Position::from_parts(Board::new(4, 4).unwrap(), r.a, r.b, r.side).unwrap()
    }

    #[test]
    fn keeps_the_smallest_bound_of_a_position_and_leaves_no_scratch() {
        let (root, [a, b, _]) = records();
        let path = dir("bound").join("w.proof");
        let mut w = ProofWriter::open(&path, &root, Side::Second, 9).unwrap();
        let pos = position(&a);
        assert!(w.needs(&pos, 7));
        w.push(&a).unwrap();
        assert!(!w.needs(&pos, 7) && !w.needs(&pos, 9) && w.needs(&pos, 5));
        w.push(&Record { bound: 5, ..a }).unwrap();
        assert!(!w.needs(&pos, 5));
        w.push(&b).unwrap();
        assert_eq!((w.written, w.claims), (3, 1));
        let scratch = w.scratch().to_path_buf();
        assert!(scratch.is_dir());
        let s = w.finish().unwrap();
        assert!(!scratch.exists());
        assert_eq!((s.records, s.claims, s.resumed), (2, 1, 0));
        let p = crate::solve::Proof::read(&path).unwrap();
        assert_eq!(
            (p.root, p.verdict),
            (
                root,
                prover::Verdict::Win {
                    winner: Side::Second,
                    plies: 9
                }
            )
        );
        let mut want = vec![Record { bound: 5, ..a }, b];
        want.sort_by_key(|r| r.hash());
        assert_eq!(p.records, want);
    }

    #[test]
    fn a_dropped_writer_is_resumed_and_a_killed_one_loses_only_its_unsaved_records() {
        let (root, [a, b, c]) = records();
        let path = dir("resume").join("w.proof");
        let mut w = ProofWriter::open(&path, &root, Side::Second, 9).unwrap();
        w.push(&a).unwrap();
        // A second writer of the same proof is refused while the first lives.
        assert!(matches!(
            ProofWriter::open(&path, &root, Side::Second, 9),
            Err(ProofError::File(file::FileError::Busy { .. }))
        ));
        drop(w);
        let mut w = ProofWriter::open(&path, &root, Side::Second, 9).unwrap();
        assert_eq!((w.written, w.resumed), (1, 1));
        assert!(!w.needs(&position(&a), 7) && w.needs(&position(&b), 3));
        w.push(&b).unwrap();
        w.save_now().unwrap();
        w.push(&c).unwrap();
        w.kill();
        // The killed run's last record was never saved: it is needed again.
        let mut w = ProofWriter::open(&path, &root, Side::Second, 9).unwrap();
        assert_eq!((w.written, w.claims, w.resumed), (2, 1, 2));
        assert!(!w.needs(&position(&b), 3) && w.needs(&position(&c), 5));
        w.push(&c).unwrap();
        let s = w.finish().unwrap();
        assert_eq!((s.records, s.claims, s.resumed), (3, 1, 2));
        let mut want = vec![a, b, c];
        want.sort_by_key(|r| r.hash());
        assert_eq!(crate::solve::Proof::read(&path).unwrap().records, want);
    }

    #[test]
    fn another_proofs_scratch_folder_is_one_error_naming_both() {
        let (root, [a, ..]) = records();
        let path = dir("other").join("w.proof");
        let mut w = ProofWriter::open(&path, &root, Side::Second, 9).unwrap();
        w.push(&a).unwrap();
        drop(w);
        for (winner, plies) in [(Side::Second, 11), (Side::First, 9)] {
            let e = ProofWriter::open(&path, &root, winner, plies).expect_err("refused");
            let text = e.to_string();
            assert!(
                text.contains("cannot be resumed: it holds the proof that Black wins from")
                    && text.contains("remove the folder"),
                "{text}"
            );
        }
        // A damaged state file is refused too, never read as a shorter proof.
        let state = scratch_folder(&path).join("state");
        let mut bytes = std::fs::read(&state).unwrap();
        bytes[20] ^= 1;
        std::fs::write(&state, bytes).unwrap();
        let e = ProofWriter::open(&path, &root, Side::Second, 9).expect_err("refused");
        assert!(e.to_string().contains("checksum"), "{e}");
    }
}
