//! The 7x7 hex rhombus: cell numbering (the spec's rows from the top tip), axial
//! coordinates, names, the six neighbours and the hop over each, and the start areas.

/// Cells on the board.
pub const CELLS: usize = 49;
/// Side of the rhombus.
pub const SIDE: i32 = 7;
/// First cell of each row of the diamond (rows `p + q` from the top tip).
pub const ROW_START: [usize; 14] = [0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43, 46, 48, 49];
/// The six neighbour directions in axial coordinates `(dp, dq)`.
pub const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
/// No cell (off the board).
pub const NONE: u8 = u8::MAX;
/// Most pieces a side this crate plays (the three-row triangle).
pub const MAX_PIECES: u32 = 6;

/// The cell number of axial `(p, q)` (both in `0..7`).
pub const fn index(p: i32, q: i32) -> usize {
    let r = (p + q) as usize;
    ROW_START[r]
        + if p + q <= 6 {
            q as usize
        } else {
            (6 - p) as usize
        }
}

/// The axial coordinates `(p, q)` of a cell.
pub const fn coords(cell: usize) -> (i32, i32) {
    let mut r = 0;
    while ROW_START[r + 1] <= cell {
        r += 1;
    }
    let k = (cell - ROW_START[r]) as i32;
    let r = r as i32;
    if r <= 6 {
        (r - k, k)
    } else {
        (6 - k, r - 6 + k)
    }
}

const fn build_steps() -> [[u8; 6]; CELLS] {
    let mut t = [[NONE; 6]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (p, q) = coords(c);
        let mut d = 0;
        while d < 6 {
            let (np, nq) = (p + DIRS[d].0, q + DIRS[d].1);
            if np >= 0 && np < SIDE && nq >= 0 && nq < SIDE {
                t[c][d] = index(np, nq) as u8;
            }
            d += 1;
        }
        c += 1;
    }
    t
}

/// `STEP[c][d]`: the neighbour of cell `c` in direction `d`, or [`NONE`].
pub static STEP: [[u8; 6]; CELLS] = build_steps();

const fn build_hops() -> [[u8; 6]; CELLS] {
    let s = build_steps();
    let mut t = [[NONE; 6]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 6 {
            let over = s[c][d];
            if over != NONE {
                t[c][d] = s[over as usize][d];
            }
            d += 1;
        }
        c += 1;
    }
    t
}

/// `HOP[c][d]`: where a hop from `c` over `STEP[c][d]` lands, or [`NONE`].
pub static HOP: [[u8; 6]; CELLS] = build_hops();

const fn build_neighbour_masks() -> [u64; CELLS] {
    let s = build_steps();
    let mut t = [0u64; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 6 {
            if s[c][d] != NONE {
                t[c] |= 1 << s[c][d];
            }
            d += 1;
        }
        c += 1;
    }
    t
}

/// The neighbours of each cell as a bit mask.
pub static NEIGHBOURS: [u64; CELLS] = build_neighbour_masks();

/// Every cell of the board.
pub const ALL: u64 = (1 << CELLS) - 1;

/// The first player's start area with `k` pieces: the first `k` cells from the top tip
/// (`{0, 1}` for 2, `{0, 1, 2}` for 3, the three-row triangle for 6).
pub const fn start_area(k: u32) -> u64 {
    (1u64 << k) - 1
}

/// The second player's start area: the first player's turned half round (cell `i` to `48 - i`).
pub const fn far_area(k: u32) -> u64 {
    rotate(start_area(k))
}

/// A set of cells turned half round (cell `i` to `48 - i`).
pub const fn rotate(set: u64) -> u64 {
    set.reverse_bits() >> (64 - CELLS)
}

/// The name of a cell: the column letter `a`..`g` for `p`, the digit `1`..`7` for `q + 1`.
pub fn cell_name(cell: usize) -> String {
    let (p, q) = coords(cell);
    format!("{}{}", (b'a' + p as u8) as char, q + 1)
}

/// The cell a name such as `c4` stands for.
pub fn parse_cell(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let p = b[0].to_ascii_lowercase().wrapping_sub(b'a') as i32;
    let q = b[1].wrapping_sub(b'1') as i32;
    ((0..SIDE).contains(&p) && (0..SIDE).contains(&q)).then(|| index(p, q))
}

/// The cells of a set, lowest first.
#[inline]
pub fn cells(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_follows_the_spec() {
        for c in 0..CELLS {
            let (p, q) = coords(c);
            assert_eq!(index(p, q), c);
        }
        assert_eq!(index(0, 0), 0);
        assert_eq!(index(6, 6), 48);
        // The second row: (1,0) is its left cell (q = 0), (0,1) its right.
        assert_eq!(index(1, 0), 1);
        assert_eq!(index(0, 1), 2);
        for c in 0..CELLS {
            let (p, q) = coords(c);
            assert_eq!(index(6 - p, 6 - q), 48 - c, "half turn of {c}");
            assert_eq!(rotate(1 << c), 1 << (48 - c));
        }
        assert_eq!(far_area(2), (1 << 47) | (1 << 48));
        assert_eq!(start_area(6).count_ones(), 6);
        let edges: u32 = NEIGHBOURS.iter().map(|m| m.count_ones()).sum();
        // 3 * 7 * 6 undirected edges on a 7x7 rhombus with three directions, counted twice.
        assert_eq!(edges, 2 * 3 * 7 * 6 - 2 * 6);
    }

    #[test]
    fn names_read_back() {
        for c in 0..CELLS {
            assert_eq!(parse_cell(&cell_name(c)), Some(c));
        }
        assert_eq!(parse_cell("h1"), None);
        assert_eq!(parse_cell("a8"), None);
        assert_eq!(parse_cell("a"), None);
    }
}
