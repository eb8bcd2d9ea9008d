//! The prover on a game that is not Breakthrough: two piles, a move takes one or two
//! stones from one pile, and who takes the last stone wins. Its winners and exact lengths
//! are checked against plain minimax, with and without the piles' symmetry, and its proofs
//! pass the checker while a proof with a record less, or claiming a move less, does not.

use prover::{Instance, Key, Options, Proof, ProverPosition};
use quasar_core::progress::Silent;
use quasar_core::{Detail, Game, Outcome, ParseError, Side};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Piles {
    piles: [u8; 2],
    side: Side,
}

impl Game for Piles {
    type Move = (u8, u8);

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<(u8, u8)>) {
        moves.clear();
        for pile in 0..2 {
            for n in 1..=2 {
                if self.piles[pile as usize] >= n {
                    moves.push((pile, n));
                }
            }
        }
    }

    fn play(&mut self, (pile, n): (u8, u8)) {
        self.piles[pile as usize] -= n;
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.piles == [0, 0]).then(|| Outcome::Win(self.side.opponent()))
    }

    fn hash(&self) -> u64 {
        u64::from_le_bytes([self.piles[0], self.piles[1], self.side as u8, 0, 0, 0, 0, 0])
    }

    fn parse_move(&self, text: &str) -> Result<(u8, u8), ParseError> {
        Err(ParseError::Move(Detail::message(format!(
            "no move text: {text}"
        ))))
    }

    fn move_text(&self, (pile, n): (u8, u8)) -> String {
        format!("{n}@{pile}")
    }

    fn position_text(&self) -> String {
        format!("{}-{} {:?}", self.piles[0], self.piles[1], self.side)
    }

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        Err(ParseError::Position(Detail::message(format!(
            "no position text: {text}"
        ))))
    }
}

impl ProverPosition for Piles {
    fn raw_key(&self) -> Key {
        Key {
            a: self.piles[0] as u64 | (self.piles[1] as u64) << 8,
            b: 0,
            side: self.side as u8,
        }
    }

    fn with_key(&self, key: &Key) -> Result<Piles, String> {
        Piles::from_params([0, 0], key)
    }

    fn key_bytes(&self) -> usize {
        2
    }

    fn params(&self) -> [u8; 2] {
        [0, 0]
    }

    fn owns_params(params: [u8; 2]) -> bool {
        params == [0, 0]
    }

    fn from_params(_: [u8; 2], key: &Key) -> Result<Piles, String> {
        if key.a >> 16 != 0 || key.b != 0 || key.side > 1 {
            return Err("not two piles".into());
        }
        Ok(Piles {
            piles: [key.a as u8, (key.a >> 8) as u8],
            side: if key.side == 0 {
                Side::First
            } else {
                Side::Second
            },
        })
    }

    fn move_code((pile, n): (u8, u8)) -> u16 {
        u16::from_le_bytes([n, pile])
    }

    fn code_move(code: u16) -> (u8, u8) {
        let [n, pile] = code.to_le_bytes();
        (pile, n)
    }
}

/// The rules alone (every default of [`Instance`]).
struct Plain;

impl Instance for Plain {
    type Pos = Piles;
    type Table = ();
}

/// The piles' symmetry: a position and its piles swapped have one key.
struct Mirror;

impl Instance for Mirror {
    type Pos = Piles;
    type Table = ();

    fn key_mirrored(&self, pos: &Piles) -> (Key, bool) {
        let swapped = Piles {
            piles: [pos.piles[1], pos.piles[0]],
            ..*pos
        };
        let (k, m) = (pos.raw_key(), swapped.raw_key());
        if m < k {
            (m, true)
        } else {
            (k, false)
        }
    }

    fn mirror_move(&self, (pile, n): (u8, u8)) -> (u8, u8) {
        (1 - pile, n)
    }
}

/// Plies to the end with perfect play for the unfinished `pos`: positive when the side to
/// move wins (it hurries), negative when it loses (it delays).
fn minimax(pos: &Piles, memo: &mut HashMap<Piles, i32>) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<i32> = None;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = if child.outcome().is_some() {
            1
        } else {
            let c = minimax(&child, memo);
            if c < 0 {
                1 - c
            } else {
                -(c + 1)
            }
        };
        best = Some(match best {
            None => v,
            Some(b) if v > 0 && (b < 0 || v < b) => v,
            Some(b) if v < 0 && b < 0 && v < b => v,
            Some(b) => b,
        });
    }
    let v = best.expect("an unfinished position has a move");
    memo.insert(*pos, v);
    v
}

fn solve_with<I: Instance<Pos = Piles, Table = ()>>(inst: &I, root: &Piles) -> (Side, u32) {
    let options = Options {
        table_bytes: 1 << 16,
        ..Options::default()
    };
    let s = prover::solve(inst, root, &options, &Silent).expect("solved");
    (s.winner, s.plies)
}

#[test]
fn winners_and_lengths_are_those_of_minimax_with_and_without_the_symmetry() {
    let mut memo = HashMap::new();
    let mut wins = [0, 0];
    for a in 0..=7u8 {
        for b in 0..=7u8 {
            for side in [Side::First, Side::Second] {
                let root = Piles {
                    piles: [a, b],
                    side,
                };
                if root.outcome().is_some() {
                    continue;
                }
                let v = minimax(&root, &mut memo);
                let want = if v > 0 {
                    (side, v as u32)
                } else {
                    (side.opponent(), (-v) as u32)
                };
                wins[(v > 0) as usize] += 1;
                assert_eq!(solve_with(&Plain, &root), want, "{root:?}");
                assert_eq!(solve_with(&Mirror, &root), want, "{root:?} mirrored");
            }
        }
    }
    // Both verdicts occur: (a, b) loses for the side to move when both are multiples of 3.
    assert!(wins[0] > 10 && wins[1] > 50, "{wins:?}");
}

#[test]
fn proofs_pass_the_checker_and_a_holed_or_shortened_one_does_not() {
    let dir = std::env::temp_dir().join(format!("prover-piles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (root, inst_mirror) in [
        (
            Piles {
                piles: [7, 5],
                side: Side::First,
            },
            false,
        ),
        (
            Piles {
                piles: [6, 3],
                side: Side::Second,
            },
            true,
        ),
    ] {
        let path = dir.join(format!("{}-{}.proof", root.piles[0], root.piles[1]));
        let options = Options {
            table_bytes: 1 << 16,
            proof: Some(&path),
            ..Options::default()
        };
        let s = if inst_mirror {
            prover::solve(&Mirror, &root, &options, &Silent)
        } else {
            prover::solve(&Plain, &root, &options, &Silent)
        }
        .unwrap();
        let proof = Proof::<Piles>::read(&path).unwrap();
        assert_eq!(
            (proof.root, proof.verdict),
            (
                root,
                prover::Verdict::Win {
                    winner: s.winner,
                    plies: s.plies
                }
            )
        );
        let report = prover::check(&proof).unwrap();
        assert_eq!(report.records, proof.records.len() as u64);
        // One move fewer than proven is never enough.
        let short = Proof {
            verdict: prover::Verdict::Win {
                winner: s.winner,
                plies: s.plies - 1,
            },
            ..proof.clone()
        };
        assert!(
            prover::check(&short).is_err(),
            "{root:?} within {}",
            s.plies - 1
        );
        // Every record is needed: without one of them a reply has no proof.
        let n = proof.records.len();
        assert!(n >= 3, "{root:?}: {n} records");
        for i in [0, n / 2, n - 1] {
            let mut holed = proof.clone();
            holed.records.remove(i);
            assert!(
                prover::check(&holed).is_err(),
                "{root:?} without record {i}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
