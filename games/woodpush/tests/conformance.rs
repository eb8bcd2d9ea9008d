//! The rules against a naive second implementation (cells as characters, the direct ko as
//! the forbidden strip itself; no code shared with the crate) through the core
//! conformance suite: positions and their text, moves and their text, outcomes, perft and
//! random games, from the paper's starts and from random strips.

use quasar_core::conformance::{Reference, Suite};
use quasar_core::{Outcome, Side, SplitMix64};
use woodpush::Position;

/// A position as the reference sees it.
#[derive(Clone, Debug)]
struct Naive {
    cells: Vec<char>,
    left: bool,
    /// The strip before the opponent's last move: a push that recreates it is forbidden.
    forbidden: Option<Vec<char>>,
}

/// A move: the piece's cell (0-based) and whether it pushes back.
type NaiveMove = (usize, bool);

struct Reference_;

impl Naive {
    fn mover(&self) -> (char, char, i64) {
        if self.left {
            ('L', 'R', 1)
        } else {
            ('R', 'L', -1)
        }
    }

    /// The strip after the piece on `i` moves forward: to the first empty cell ahead,
    /// jumping the run in its way, or off the strip.
    fn forward(&self, i: usize) -> Vec<char> {
        let (me, _, fwd) = self.mover();
        let w = self.cells.len() as i64;
        let mut c = self.cells.clone();
        c[i] = '.';
        let mut j = i as i64 + fwd;
        while (0..w).contains(&j) && self.cells[j as usize] != '.' {
            j += fwd;
        }
        if (0..w).contains(&j) {
            c[j as usize] = me;
        }
        c
    }

    /// The strip after the piece on `i` pushes back the run behind it (an opponent's piece
    /// directly behind), the last piece falling off the end; `None` when it may not push.
    fn push(&self, i: usize) -> Option<Vec<char>> {
        let (_, them, fwd) = self.mover();
        let w = self.cells.len() as i64;
        let b = i as i64 - fwd;
        if !(0..w).contains(&b) || self.cells[b as usize] != them {
            return None;
        }
        let mut c = self.cells.clone();
        let mut k = i as i64;
        while (0..w).contains(&k) && self.cells[k as usize] != '.' {
            k -= fwd;
        }
        let mut m = k + fwd;
        loop {
            let to = m - fwd;
            if (0..w).contains(&to) {
                c[to as usize] = self.cells[m as usize];
            }
            c[m as usize] = '.';
            if m == i as i64 {
                break;
            }
            m += fwd;
        }
        Some(c)
    }

    /// The forbidden strip when the ko forbids a push that would otherwise be legal (what
    /// the position text shows), else `None`.
    fn live_ko(&self) -> Option<&Vec<char>> {
        let (me, ..) = self.mover();
        let f = self.forbidden.as_ref()?;
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == me)
            .any(|i| self.push(i).as_ref() == Some(f))
            .then_some(f)
    }
}

impl Reference for Reference_ {
    type Pos = Naive;
    type Move = NaiveMove;

    fn parse_position(&self, text: &str) -> Option<Naive> {
        let fields: Vec<&str> = text.split(' ').collect();
        let (cells, side, forbidden) = match fields[..] {
            [c, s] => (c, s, None),
            [c, s, f] => (c, s, Some(f)),
            _ => return None,
        };
        let left = match side {
            "L" => true,
            "R" => false,
            _ => return None,
        };
        let ok = |s: &str| !s.is_empty() && s.len() <= 31 && s.chars().all(|c| "LR.".contains(c));
        if !ok(cells) || forbidden.is_some_and(|f| !ok(f) || f.len() != cells.len()) {
            return None;
        }
        let pos = Naive {
            cells: cells.chars().collect(),
            left,
            forbidden: forbidden.map(|f| f.chars().collect()),
        };
        if !pos.cells.iter().any(|&c| c != '.') {
            return None;
        }
        // A forbidden strip is written only where it forbids something.
        if pos.forbidden.is_some() && pos.live_ko().is_none() {
            return None;
        }
        Some(pos)
    }

    fn position_text(&self, pos: &Naive) -> String {
        let mut s: String = pos.cells.iter().collect();
        s.push_str(if pos.left { " L" } else { " R" });
        if let Some(f) = pos.live_ko() {
            s.push(' ');
            s.extend(f.iter());
        }
        s
    }

    fn moves(&self, pos: &Naive) -> Vec<NaiveMove> {
        if self.outcome(pos).is_some() {
            return Vec::new();
        }
        let (me, ..) = pos.mover();
        let mut out = Vec::new();
        for i in 0..pos.cells.len() {
            if pos.cells[i] != me {
                continue;
            }
            out.push((i, false));
            if pos
                .push(i)
                .is_some_and(|c| Some(&c) != pos.forbidden.as_ref())
            {
                out.push((i, true));
            }
        }
        out
    }

    fn move_text(&self, pos: &Naive, mv: &NaiveMove) -> String {
        // The arrow shows where the piece goes: Left's forward and Right's push go up.
        let up = pos.left != mv.1;
        format!("{}{}", mv.0 + 1, if up { '>' } else { '<' })
    }

    fn play(&self, pos: &mut Naive, mv: &NaiveMove) {
        let next = match mv.1 {
            false => pos.forward(mv.0),
            true => pos.push(mv.0).expect("a legal push"),
        };
        pos.forbidden = Some(std::mem::replace(&mut pos.cells, next));
        pos.left = !pos.left;
    }

    fn outcome(&self, pos: &Naive) -> Option<Outcome> {
        let (l, r) = (pos.cells.contains(&'L'), pos.cells.contains(&'R'));
        match (l, r) {
            (true, true) => None,
            (true, false) => Some(Outcome::Win(Side::First)),
            (false, true) => Some(Outcome::Win(Side::Second)),
            (false, false) => Some(Outcome::Draw),
        }
    }
}

/// A random strip of `width` cells with both sides on it, and a side to move.
fn random_strip(width: usize, rng: &mut SplitMix64) -> Position {
    loop {
        let cells: String = (0..width)
            .map(|_| ['L', 'R', '.', '.'][rng.below(4)])
            .collect();
        if cells.contains('L') && cells.contains('R') {
            let side = if rng.below(2) == 0 { 'L' } else { 'R' };
            return quasar_core::Game::parse_position(&format!("{cells} {side}")).unwrap();
        }
    }
}

#[test]
fn the_rules_agree_with_the_naive_reference() {
    let mut suite = Suite::new(Reference_)
        .start(Position::start(7).unwrap(), 8)
        .start(Position::start(9).unwrap(), 7)
        .start(Position::start_with(20, 3).unwrap(), 5)
        .games_per_start(20)
        .ply_cap(100_000);
    for (text, depth) in [
        ("LRLR L", 9),
        ("L.RLR R", 9),
        ("L.LR.R L", 9),
        ("L.L.R.R L", 8),
        ("L.L...R.R L", 7),
    ] {
        suite = suite.position(quasar_core::Game::parse_position(text).unwrap(), depth);
    }
    let mut rng = SplitMix64::new(17);
    for _ in 0..300 {
        let width = 2 + rng.below(14);
        suite = suite.position(random_strip(width, &mut rng), 3);
    }
    let report = suite.run().unwrap();
    assert!(report.positions >= 2_000, "{report:?}");
    assert!(report.perft_leaves > 20_000, "{report:?}");
    assert!(report.games >= 60, "{report:?}");
}
