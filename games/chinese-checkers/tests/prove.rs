//! The generic prover on Chinese Checkers against the retrograde table: the start of two
//! pieces a side and sampled positions, their winners and exact lengths, and a proof file
//! replayed by the checker.

use chinese_checkers::solve::{solve_half, CcTable};
use chinese_checkers::{CcProver, Position};
use prover::draws::Value;
use prover::{solve_with_draws, Drawn, Options};
use quasar_core::progress::Silent;
use quasar_core::{Game, GameResult, SplitMix64};
use retro::symmetric::MirrorOptions;
use retro::PerfectIndex;
use std::sync::OnceLock;

/// The solved table of `k` pieces a side (1 or 2), built once.
fn table(k: u32) -> &'static CcTable {
    static TABLES: [OnceLock<CcTable>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[k as usize - 1].get_or_init(|| {
        solve_half(k, &MirrorOptions::default(), &quasar_core::progress::Silent)
            .unwrap()
            .0
    })
}

fn options<'a>() -> Options<'a, CcTable> {
    Options {
        table_bytes: 32 << 20,
        ..Options::default()
    }
}

/// Proves `pos` and compares its value and length with the table's.
fn agrees(pos: &Position) -> Value {
    let Drawn {
        valued,
        win: solution,
        ..
    } = solve_with_draws(&CcProver, pos, &options(), &Silent)
        .unwrap_or_else(|e| panic!("{}: {e}", pos.position_text()));
    let (r, plies) = table(pos.k()).value(pos).unwrap();
    let want = match r {
        GameResult::Win => Value::Win(pos.side),
        GameResult::Loss => Value::Win(pos.side.opponent()),
        GameResult::Draw => Value::Draw,
    };
    assert_eq!(valued.value, want, "{}", pos.position_text());
    if let Some(s) = solution {
        assert_eq!(s.plies, plies, "{}", pos.position_text());
    }
    want
}

#[test]
#[ignore = "about 35 s on 2 busy cores"]
fn two_pieces_the_first_player_wins_in_33_plies_with_a_checked_proof() {
    let start = Position::start(2).unwrap();
    let dir = std::env::temp_dir().join(format!("cc-prove-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k2.proof");
    let o = Options {
        proof: Some(&path),
        ..options()
    };
    let Drawn { valued, win: s, .. } = solve_with_draws(&CcProver, &start, &o, &Silent).unwrap();
    assert_eq!(valued.value, Value::Win(quasar_core::Side::First));
    let s = s.unwrap();
    assert_eq!(s.plies, 33);
    let proof = prover::ProofFile::open(&path).unwrap();
    let report = prover::check_view(&proof.view::<Position>().unwrap(), &Silent).unwrap();
    assert_eq!(report.records, s.proof.unwrap().records);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Proves `count` unfinished positions of `k` pieces a side drawn at random; the wins of
/// the side to move, of the other side, and the draws.
fn sampled(k: u32, count: usize, seed: u64) -> [usize; 3] {
    let space = table(k).space();
    let n = PerfectIndex::size(space);
    let mut rng = SplitMix64::new(seed);
    let mut seen = [0; 3];
    let picks = std::iter::repeat_with(|| space.unrank_pos(rng.below(n as usize) as u64))
        .filter(|p| p.outcome().is_none())
        .take(count);
    for pos in picks {
        seen[match agrees(&pos) {
            Value::Win(w) => (w != pos.side) as usize,
            Value::Draw => 2,
        }] += 1;
    }
    seen
}

#[test]
fn sampled_positions_of_one_piece_agree_with_the_table() {
    let seen = sampled(1, 300, 1);
    // Wins of the side to move and of the other side (these samples hold no draw).
    assert_eq!(seen, [178, 122, 0]);
}

#[test]
#[ignore = "3,000 positions of one piece a side: long"]
fn thousands_of_positions_of_one_piece_agree_with_the_table() {
    let seen = sampled(1, 3000, 3);
    assert_eq!(seen.iter().sum::<usize>(), 3000);
}

#[test]
#[ignore = "two pieces: some positions take tens of millions of nodes, an hour or more"]
fn hundreds_of_positions_of_two_pieces_agree_with_the_table() {
    let seen = sampled(2, 300, 2);
    assert_eq!(seen[..2].iter().sum::<usize>(), 300, "K = 2 has no draws");
}
