//! An independent second implementation of the rules on an 8x8 array (no bitboards, no
//! tables shared with the crate), for the conformance suite and the database checks.

#![allow(dead_code)]

use quasar_core::conformance::Reference;
use quasar_core::{Outcome, Side};

/// A cell: empty, or a piece of a colour, man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Man(Side),
    King(Side),
}

/// The array board: `cells[row][col]`, row 0 holding squares 1-4; side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayPos {
    pub cells: [[Cell; 8]; 8],
    pub side: Side,
}

/// A move as the squares it visits (1-32) and the cells it empties by capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayMove {
    pub path: Vec<(usize, usize)>,
    pub taken: Vec<(usize, usize)>,
}

/// Square number (1-32) of a dark cell.
pub fn number(r: usize, c: usize) -> usize {
    r * 4 + c / 2 + 1
}

/// The dark cell of a square number.
pub fn cell_of(n: usize) -> (usize, usize) {
    let r = (n - 1) / 4;
    let i = (n - 1) % 4;
    (
        r,
        if r.is_multiple_of(2) {
            2 * i + 1
        } else {
            2 * i
        },
    )
}

fn side_of(c: Cell) -> Option<Side> {
    match c {
        Cell::Empty => None,
        Cell::Man(s) | Cell::King(s) => Some(s),
    }
}

fn forward(side: Side) -> i32 {
    if side == Side::First {
        1
    } else {
        -1
    }
}

fn far_row(side: Side) -> usize {
    if side == Side::First {
        7
    } else {
        0
    }
}

impl ArrayPos {
    fn deltas(&self, r: usize, c: usize) -> Vec<(i32, i32)> {
        match self.cells[r][c] {
            Cell::King(_) => vec![(1, -1), (1, 1), (-1, -1), (-1, 1)],
            Cell::Man(s) => vec![(forward(s), -1), (forward(s), 1)],
            Cell::Empty => vec![],
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<Cell> {
        if (0..8).contains(&r) && (0..8).contains(&c) {
            Some(self.cells[r as usize][c as usize])
        } else {
            None
        }
    }

    fn jumps_from(
        &self,
        start: (usize, usize),
        now: (usize, usize),
        path: &mut Vec<(usize, usize)>,
        taken: &mut Vec<(usize, usize)>,
        out: &mut Vec<ArrayMove>,
    ) {
        let piece = self.cells[start.0][start.1];
        let me = side_of(piece).unwrap();
        let mut extended = false;
        for (dr, dc) in self.deltas(start.0, start.1) {
            let (mr, mc) = (now.0 as i32 + dr, now.1 as i32 + dc);
            let (lr, lc) = (now.0 as i32 + 2 * dr, now.1 as i32 + 2 * dc);
            let (Some(mid), Some(land)) = (self.at(mr, mc), self.at(lr, lc)) else {
                continue;
            };
            let mid_cell = (mr as usize, mc as usize);
            let land_cell = (lr as usize, lc as usize);
            let enemy = side_of(mid) == Some(me.opponent()) && !taken.contains(&mid_cell);
            let free = land == Cell::Empty || land_cell == start;
            if !(enemy && free) {
                continue;
            }
            extended = true;
            path.push(land_cell);
            taken.push(mid_cell);
            let crowned = matches!(piece, Cell::Man(_)) && land_cell.0 == far_row(me);
            if crowned {
                out.push(ArrayMove {
                    path: path.clone(),
                    taken: taken.clone(),
                });
            } else {
                self.jumps_from(start, land_cell, path, taken, out);
            }
            path.pop();
            taken.pop();
        }
        if !extended && path.len() > 1 {
            out.push(ArrayMove {
                path: path.clone(),
                taken: taken.clone(),
            });
        }
    }

    pub fn moves(&self) -> Vec<ArrayMove> {
        let mut captures = Vec::new();
        let mut steps = Vec::new();
        let opponent_present = self
            .cells
            .iter()
            .flatten()
            .any(|&c| side_of(c) == Some(self.side.opponent()));
        if !opponent_present {
            return Vec::new();
        }
        for r in 0..8 {
            for c in 0..8 {
                if side_of(self.cells[r][c]) != Some(self.side) {
                    continue;
                }
                self.jumps_from(
                    (r, c),
                    (r, c),
                    &mut vec![(r, c)],
                    &mut Vec::new(),
                    &mut captures,
                );
                for (dr, dc) in self.deltas(r, c) {
                    let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                    if self.at(nr, nc) == Some(Cell::Empty) {
                        steps.push(ArrayMove {
                            path: vec![(r, c), (nr as usize, nc as usize)],
                            taken: vec![],
                        });
                    }
                }
            }
        }
        if captures.is_empty() {
            steps
        } else {
            captures
        }
    }

    pub fn play(&mut self, mv: &ArrayMove) {
        let from = mv.path[0];
        let to = *mv.path.last().unwrap();
        let mut piece = self.cells[from.0][from.1];
        self.cells[from.0][from.1] = Cell::Empty;
        for &(r, c) in &mv.taken {
            self.cells[r][c] = Cell::Empty;
        }
        if let Cell::Man(s) = piece {
            if to.0 == far_row(s) {
                piece = Cell::King(s);
            }
        }
        self.cells[to.0][to.1] = piece;
        self.side = self.side.opponent();
    }

    pub fn outcome(&self) -> Option<Outcome> {
        let has = |s: Side| self.cells.iter().flatten().any(|&c| side_of(c) == Some(s));
        if !has(self.side) {
            return Some(Outcome::Win(self.side.opponent()));
        }
        if !has(self.side.opponent()) {
            // Unreachable in play; the side to move has won.
            // (It must still have a move, or it loses first.)
            let mut probe = self.clone();
            // Place a dummy enemy far away is not needed: check moves ignoring the rule.
            probe.side = self.side;
            return Some(if probe.any_move_ignoring_opponent() {
                Outcome::Win(self.side)
            } else {
                Outcome::Win(self.side.opponent())
            });
        }
        if self.moves().is_empty() {
            Some(Outcome::Win(self.side.opponent()))
        } else {
            None
        }
    }

    fn any_move_ignoring_opponent(&self) -> bool {
        for r in 0..8 {
            for c in 0..8 {
                if side_of(self.cells[r][c]) == Some(self.side) {
                    for (dr, dc) in self.deltas(r, c) {
                        if self.at(r as i32 + dr, c as i32 + dc) == Some(Cell::Empty) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    pub fn parse(text: &str) -> Option<ArrayPos> {
        let mut fields = text.trim().split(':');
        let side = match fields.next()? {
            "B" => Side::First,
            "W" => Side::Second,
            _ => return None,
        };
        let mut cells = [[Cell::Empty; 8]; 8];
        let mut seen = 0;
        for f in fields {
            let colour = match f.chars().next()? {
                'B' => Side::First,
                'W' => Side::Second,
                _ => return None,
            };
            seen += 1;
            for item in f[1..].split(',').filter(|s| !s.is_empty()) {
                let (king, num) = match item.strip_prefix('K') {
                    Some(n) => (true, n),
                    None => (false, item),
                };
                let (a, b) = match num.split_once('-') {
                    Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
                    None => {
                        let a: usize = num.parse().ok()?;
                        (a, a)
                    }
                };
                for n in a..=b {
                    if !(1..=32).contains(&n) {
                        return None;
                    }
                    let (r, c) = cell_of(n);
                    if cells[r][c] != Cell::Empty {
                        return None;
                    }
                    if !king && r == far_row(colour) {
                        return None;
                    }
                    cells[r][c] = if king {
                        Cell::King(colour)
                    } else {
                        Cell::Man(colour)
                    };
                }
            }
        }
        (seen == 2).then_some(ArrayPos { cells, side })
    }

    pub fn text(&self) -> String {
        let list = |s: Side| {
            (1..=32)
                .filter_map(|n| {
                    let (r, c) = cell_of(n);
                    match self.cells[r][c] {
                        Cell::Man(x) if x == s => Some(n.to_string()),
                        Cell::King(x) if x == s => Some(format!("K{n}")),
                        _ => None,
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if self.side == Side::First { "B" } else { "W" };
        format!("{side}:W{}:B{}", list(Side::Second), list(Side::First))
    }

    pub fn move_text(mv: &ArrayMove) -> String {
        let sep = if mv.taken.is_empty() { "-" } else { "x" };
        mv.path
            .iter()
            .map(|&(r, c)| number(r, c).to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Colours exchanged, board turned half round.
    pub fn reversed(&self) -> ArrayPos {
        let mut cells = [[Cell::Empty; 8]; 8];
        for r in 0..8 {
            for c in 0..8 {
                cells[7 - r][7 - c] = match self.cells[r][c] {
                    Cell::Empty => Cell::Empty,
                    Cell::Man(s) => Cell::Man(s.opponent()),
                    Cell::King(s) => Cell::King(s.opponent()),
                };
            }
        }
        ArrayPos {
            cells,
            side: self.side.opponent(),
        }
    }
}

/// The array board as the conformance suite's reference.
pub struct ArrayReference;

impl Reference for ArrayReference {
    type Pos = ArrayPos;
    type Move = ArrayMove;

    fn parse_position(&self, text: &str) -> Option<ArrayPos> {
        ArrayPos::parse(text)
    }
    fn position_text(&self, pos: &ArrayPos) -> String {
        pos.text()
    }
    fn moves(&self, pos: &ArrayPos) -> Vec<ArrayMove> {
        if self.outcome(pos).is_some() {
            Vec::new()
        } else {
            pos.moves()
        }
    }
    fn move_text(&self, _pos: &ArrayPos, mv: &ArrayMove) -> String {
        ArrayPos::move_text(mv)
    }
    fn play(&self, pos: &mut ArrayPos, mv: &ArrayMove) {
        pos.play(mv)
    }
    fn outcome(&self, pos: &ArrayPos) -> Option<Outcome> {
        pos.outcome()
    }
    fn symmetry(&self, name: &str, pos: &ArrayPos) -> Option<ArrayPos> {
        (name == "colours reversed").then(|| pos.reversed())
    }
}
