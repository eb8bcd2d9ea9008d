//! The engine's fast probe (no colour flip, an answer cache in front of the table) answers
//! exactly what the general probe answers: the sound claim and its depth, the race rule's
//! guess and the proof at expansion, on every position of random games, for both sides to
//! move, with a cache large, tiny (constant collisions) and absent.

use breakthrough::tablebase::resident::copied_bytes_per_slice;
use breakthrough::tablebase::{
    build_slices, generate, Limits, Region, Silent, SlicedTable, Tablebase,
};
use breakthrough::{Board, Position};
use quasar_core::{Game, Oracle, ProvenOutcome};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Checks `games` random games on `w x h` against the table of `n` rows; returns the
/// positions checked and the sound claims seen (so the caller can see both paths fired).
fn agree(w: u32, h: u32, n: u32, limits: Limits, games: u32) -> (u32, u32) {
    let board = Board::new(w, h).unwrap();
    let g = generate(&Region::new(board, n).unwrap(), limits, &Silent).unwrap();
    agree_on(board, || Tablebase::from_generated(&g), games)
}

/// The table's row count.
fn n_of(tb: &Tablebase) -> u32 {
    tb.region().rows()
}

/// The bound of `Tablebase::win_plies` computed the plain way: the board flipped to White
/// to move, then Black's pieces' heights above the region's lowest row summed.
fn plies_by_flip(pos: &Position, rows: u32, depth: u32) -> u32 {
    let white_view = if pos.side() == quasar_core::Side::First {
        *pos
    } else {
        pos.flip_colours()
    };
    let b = pos.board();
    let lowest = b.height() - rows + 1;
    let mut heights = 0;
    for row in lowest + 1..=b.height() {
        heights += (white_view.black() & b.row_mask(row - 1)).count_ones() * (row - lowest);
    }
    (2 * (depth + heights)).saturating_sub(1)
}

/// [`agree`] on tables `open` gives (each call a fresh one over the same data).
fn agree_on(board: Board, open: impl Fn() -> Tablebase, games: u32) -> (u32, u32) {
    let slow = open().with_slow_probes(true);
    let slow_race = open().with_slow_probes(true).with_race_guess(true);
    let mut fast: Vec<_> = [16, 1, 0]
        .map(|log2| {
            (
                open().with_cache_slots(log2),
                open().with_cache_slots(log2).with_race_guess(true),
            )
        })
        .into();
    assert!(fast[0].0.cache_slots() == 1 << 16 && fast[2].0.cache_slots() == 0);
    // A sliced table is read from its copy in memory, by default without the cache (the
    // row patterns read from the bitboards), or through it (the configuration assembled);
    // without the copy probes read the slice files, through the cache or not.
    if fast[0].0.resident_bytes() > 0 {
        for (k, log2) in [(1, 1), (2, 0)] {
            fast[k] = (
                open().with_cache_slots(log2).with_resident(false),
                open()
                    .with_cache_slots(log2)
                    .with_resident(false)
                    .with_race_guess(true),
            );
            assert_eq!(fast[k].0.resident_bytes(), 0);
        }
        let default = (open(), open().with_race_guess(true));
        assert_eq!(default.0.cache_slots(), 0);
        fast.push(default);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut positions, mut claims) = (0, 0);
    for _ in 0..games {
        let mut pos = Position::start(board);
        while pos.outcome().is_none() {
            // Both sides to move on the same pieces (the race rule reads both).
            for side in [pos.side(), pos.side().opponent()] {
                let Ok(p) = Position::from_parts(board, pos.white(), pos.black(), side) else {
                    continue;
                };
                if p.outcome().is_some() {
                    continue;
                }
                positions += 1;
                let want = slow.explain(&p).ok().map(|w| w.depth);
                claims += want.is_some() as u32;
                let proof = slow.probe(&p);
                for (sound, race) in &fast {
                    // Twice: the second answer may come from the cache.
                    for _ in 0..2 {
                        assert_eq!(sound.claim_depth(&p), want, "{p:?}");
                        assert_eq!(sound.guess(&p), slow.guess(&p), "{p:?}");
                        assert_eq!(race.guess(&p), slow_race.guess(&p), "race {p:?}");
                        assert_eq!(sound.probe(&p), proof, "probe {p:?}");
                        let value = proof.map(|o| ProvenOutcome {
                            best_move: None,
                            ..o
                        });
                        assert_eq!(sound.probe_value(&p), value, "probe_value {p:?}");
                        if let Some(d) = want {
                            assert_eq!(sound.win_plies(&p, d), plies_by_flip(&p, n_of(&slow), d));
                        }
                    }
                }
            }
            let mv = pos.random_move(&mut rng).expect("game not over");
            pos.play(mv);
        }
    }
    (positions, claims)
}

#[test]
fn fast_probes_agree_on_5x5_with_3_rows() {
    let (positions, claims) = agree(5, 5, 3, Limits::NONE, 300);
    assert!(positions > 3000 && claims > 300, "{positions} {claims}");
}

#[test]
fn fast_probes_agree_on_6x6_with_4_rows_and_limits() {
    // Odd piece limits make the limit check decide some probes.
    let limits = Limits {
        max_white: Some(3),
        max_black: Some(4),
        max_pieces: None,
    };
    let (positions, claims) = agree(6, 6, 4, limits, 100);
    assert!(positions > 2000 && claims > 200, "{positions} {claims}");
}

#[test]
fn fast_probes_agree_on_narrow_and_wide_boards() {
    // 4 columns (the row shifts of a narrow region) and 7 columns with 3 rows.
    let (positions, claims) = agree(4, 7, 4, Limits::NONE, 200);
    assert!(positions > 2000 && claims > 200, "{positions} {claims}");
    let limits = Limits {
        max_white: None,
        max_black: None,
        max_pieces: Some(6),
    };
    let (positions, claims) = agree(7, 5, 3, limits, 100);
    assert!(positions > 1000 && claims > 100, "{positions} {claims}");
}

#[test]
fn fast_probes_agree_on_sliced_tables_whole_and_partial() {
    // A sliced table answers the fast path from one digit (no best move, no key).
    for (w, h, n, games) in [(5, 5, 3, 150), (4, 6, 4, 150)] {
        let board = Board::new(w, h).unwrap();
        let region = Region::new(board, n).unwrap();
        let dir = std::env::temp_dir().join(format!(
            "quasar-probe-fast-sliced-{}-{w}x{h}-r{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let table = SlicedTable::create(&dir, &region).unwrap();
        let plan = table.slicing().plan();
        let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
        build_slices(&table, &names, &Silent, |_| {}).unwrap();
        let open = || Tablebase::open(&dir).unwrap();
        let bytes = copied_bytes_per_slice(table.slicing());
        assert_eq!(open().resident_bytes(), names.len() * bytes);
        let (positions, claims) = agree_on(board, open, games);
        assert!(positions > 1500 && claims > 150, "{positions} {claims}");
        // Every third slice gone (a build still running): a configuration whose slice is
        // missing claims nothing, one whose slice is built claims exactly the whole table's
        // depth (the general path may then decline: it cannot recompute the best move
        // from missing successors, which a claim in a playout does not need).
        // The whole table built in one piece (the directory's slices open lazily, after
        // the removal below).
        let whole = Tablebase::from_generated(&generate(&region, Limits::NONE, &Silent).unwrap());
        for name in names.iter().step_by(3) {
            std::fs::remove_file(dir.join(format!("{name}.qts"))).unwrap();
        }
        // One more slice damaged: the copy in memory reports it as the files do.
        let bad = dir.join(format!("{}.qts", names[1]));
        let mut data = std::fs::read(&bad).unwrap();
        let last = data.len() - 1;
        data[last] ^= 0x55;
        std::fs::write(&bad, data).unwrap();
        let partial = open();
        assert_eq!(
            partial.resident_bytes(),
            (names.len() - names.len().div_ceil(3) - 1) * bytes
        );
        assert!(partial.damage().is_some());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        let (mut kept, mut lost, mut bitboards) = (0, 0, 0);
        for _ in 0..games {
            let mut pos = Position::start(board);
            while pos.outcome().is_none() {
                let want = whole.claim_depth(&pos);
                let got = partial.claim_depth(&pos);
                assert!(got.is_none() || got == want, "{pos:?}: {got:?} {want:?}");
                assert!(partial.probe(&pos).is_none() || partial.probe(&pos) == whole.probe(&pos));
                // The proof at expansion needs no best move: it follows the claim.
                assert_eq!(
                    partial.probe_value(&pos).map(|o| o.plies),
                    got.map(|_| whole.probe(&pos).and_then(|o| o.plies))
                );
                // Depths 1 and 2 are read from the bitboards, missing slice or not.
                if want.is_some_and(|d| d <= 2) {
                    assert_eq!(got, want, "{pos:?}");
                    bitboards += 1;
                } else if want.is_some() {
                    if got.is_some() {
                        kept += 1;
                    } else {
                        lost += 1;
                    }
                }
                pos.play(pos.random_move(&mut rng).expect("game not over"));
            }
        }
        println!(
            "{w}x{h}: {bitboards} claims of depth 1 or 2, of the others {kept} kept, {lost} lost"
        );
        // With 3 rows every stored depth is 2 or the cap.
        assert!(bitboards > 100, "{bitboards}");
        assert!(
            n == 3 || (kept > 20 && lost > 20),
            "{kept} kept, {lost} lost"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
#[ignore = "needs a built sliced table: QUASAR_SLICED_TABLE=DIR (e.g. 6x6 with 4 rows)"]
fn fast_probes_agree_on_a_given_sliced_table() {
    // The 6x6 four-row table (2,081 slices, 19 MB) is too slow to build in a test: this
    // checks the row tables of its copy in memory on a table built beforehand,
    // `cargo test --release -p breakthrough --test probe_fast -- --ignored`.
    let Some(dir) = std::env::var_os("QUASAR_SLICED_TABLE") else {
        panic!("set QUASAR_SLICED_TABLE to a sliced table's directory");
    };
    let dir = std::path::PathBuf::from(dir);
    let open = || Tablebase::open(&dir).unwrap();
    let board = open().header().board;
    assert!(
        open().resident_bytes() > 0,
        "the table is not copied into memory"
    );
    let (positions, claims) = agree_on(board, open, 300);
    println!("{positions} positions, {claims} claims");
    assert!(positions > 3000 && claims > 300, "{positions} {claims}");
}
