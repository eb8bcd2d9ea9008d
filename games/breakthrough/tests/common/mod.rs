//! An independent brute-force evaluator of the spec's recurrence on a plain grid (row 0 is
//! the board's top row `H`), sharing no code with the generator, plus its own Gödel key.

#![allow(dead_code)]

use std::collections::HashMap;

/// Cell contents.
pub const EMPTY: u8 = 0;
/// A Black piece.
pub const BLACK: u8 = 1;
/// A White piece.
pub const WHITE: u8 = 2;
/// Infinite depth.
pub const INF: u32 = u32::MAX;

/// The region game on an `n x w` grid, top row first.
pub struct Brute {
    pub n: usize,
    pub w: usize,
    memo: HashMap<u64, u32>,
}

impl Brute {
    pub fn new(n: usize, w: usize) -> Brute {
        Brute {
            n,
            w,
            memo: HashMap::new(),
        }
    }

    fn at(&self, g: &[u8], r: usize, c: usize) -> u8 {
        g[r * self.w + c]
    }

    /// White's moves as (from, to) grid cells, in no particular order.
    pub fn white_moves(&self, g: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 1..self.n {
            for c in 0..self.w {
                if self.at(g, r, c) != WHITE {
                    continue;
                }
                for dc in [-1i32, 0, 1] {
                    let nc = c as i32 + dc;
                    if nc < 0 || nc >= self.w as i32 {
                        continue;
                    }
                    let to = self.at(g, r - 1, nc as usize);
                    let ok = if dc == 0 { to == EMPTY } else { to != WHITE };
                    if ok {
                        out.push((r * self.w + c, (r - 1) * self.w + nc as usize));
                    }
                }
            }
        }
        out
    }

    /// `D` of a grid with White to move.
    pub fn d(&mut self, g: &[u8]) -> u32 {
        if (0..self.w).any(|c| self.at(g, 1, c) == WHITE) {
            return 1;
        }
        if !g.contains(&WHITE) {
            return INF;
        }
        let key = self.key(g);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = INF;
        for (from, to) in self.white_moves(g) {
            let mut t = [0u8; 40];
            let t = &mut t[..g.len()];
            t.copy_from_slice(g);
            t[from] = EMPTY;
            t[to] = WHITE;
            best = best.min(self.e(t));
        }
        self.memo.insert(key, best);
        best
    }

    /// `E` of a grid with Black to move.
    pub fn e(&mut self, t: &[u8]) -> u32 {
        let plus = |d: u32| if d == INF { INF } else { d + 1 };
        let mut v = plus(self.d(t));
        for r in 0..self.n - 1 {
            for c in 0..self.w {
                if self.at(t, r, c) != BLACK {
                    continue;
                }
                for dc in [-1i32, 0, 1] {
                    let nc = c as i32 + dc;
                    if nc < 0 || nc >= self.w as i32 {
                        continue;
                    }
                    let dest = (r + 1) * self.w + nc as usize;
                    let ok = if dc == 0 {
                        t[dest] == EMPTY
                    } else {
                        t[dest] != BLACK
                    };
                    if !ok {
                        continue;
                    }
                    let mut u = [0u8; 40];
                    let u = &mut u[..t.len()];
                    u.copy_from_slice(t);
                    u[r * self.w + c] = EMPTY;
                    let x = if r + 1 == self.n - 1 {
                        u[dest] = EMPTY; // the piece leaves the region (capturing if White)
                        plus(self.d(u))
                    } else {
                        u[dest] = BLACK;
                        self.d(u)
                    };
                    v = v.max(x);
                }
            }
        }
        v
    }

    /// Thesis eq. 4.1 straight from its definition.
    pub fn key(&self, g: &[u8]) -> u64 {
        g.iter().fold(0u64, |acc, &d| acc * 3 + d as u64)
    }

    pub fn mirror(&self, g: &[u8]) -> Vec<u8> {
        let mut out = g.to_vec();
        for r in 0..self.n {
            for c in 0..self.w {
                out[r * self.w + c] = g[r * self.w + self.w - 1 - c];
            }
        }
        out
    }

    /// The states a cell of grid row `r` may hold in a configuration.
    pub fn states(&self, r: usize) -> &'static [u8] {
        if r <= 1 {
            &[EMPTY, BLACK]
        } else if r == self.n - 1 {
            &[EMPTY, WHITE]
        } else {
            &[EMPTY, BLACK, WHITE]
        }
    }

    /// Every configuration, by odometer over the cells.
    pub fn all_configs(&self) -> Vec<Vec<u8>> {
        let cells = self.n * self.w;
        let mut out = Vec::new();
        let mut g = vec![EMPTY; cells];
        let mut digits = vec![0usize; cells];
        loop {
            for i in 0..cells {
                g[i] = self.states(i / self.w)[digits[i]];
            }
            out.push(g.clone());
            let mut i = 0;
            loop {
                if i == cells {
                    return out;
                }
                digits[i] += 1;
                if digits[i] < self.states(i / self.w).len() {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
        }
    }

    /// A grid cell of the board cell `(col, row)` (row 0-based from the bottom of an
    /// `H`-row board).
    pub fn grid_cell(&self, h: usize, col: u32, row: u32) -> usize {
        (h - 1 - row as usize) * self.w + col as usize
    }
}
