//! Rectangular boards held in a `u64` a row at a time: the cell in row `r` and column `c`
//! of a board `W` columns wide is bit `r * W + c`. The left-right mirror of such a board,
//! shared by the games that keep one.

/// `MIRRORED[w - 1][b]`: the low `w` bits of `b`, a row of a board `w` columns wide (`w` up
/// to 8), with its columns in the opposite order; one table a width, so a row costs one
/// lookup and the bits of the next row above it need no mask.
static MIRRORED: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut w = 1;
    while w <= 8 {
        let mut b = 0;
        while b < 256 {
            t[w - 1][b] = ((b as u8) << (8 - w)).reverse_bits();
            b += 1;
        }
        w += 1;
    }
    t
};

/// The row pattern `row` (the low `width` bits, `width` from 1 to 64) with its columns in
/// the opposite order: column `c` goes to column `width - 1 - c`.
#[inline]
pub fn mirror_row(row: u64, width: u32) -> u64 {
    debug_assert!((1..=64).contains(&width) && (width == 64 || row >> width == 0));
    // Table lookups beat the generic bit reversal on the narrow boards most games use.
    if width <= 8 {
        MIRRORED[width as usize - 1][(row & 0xff) as usize] as u64
    } else if width <= 16 {
        let bytes = &MIRRORED[7];
        let low = bytes[(row & 0xff) as usize] as u64;
        let high = bytes[(row >> 8 & 0xff) as usize] as u64;
        (low << 8 | high) >> (16 - width)
    } else {
        row.reverse_bits() >> (64 - width)
    }
}

/// The left-right mirror of the first `rows` rows of a board `width` columns wide: every
/// row's columns in the opposite order, the rows where they were (`rows * width <= 64`).
#[inline]
pub fn mirror_columns(bb: u64, width: u32, rows: u32) -> u64 {
    debug_assert!(width >= 1 && rows * width <= 64);
    let mut out = 0;
    // The width test once, outside the loop over the rows.
    if width <= 8 {
        let table = &MIRRORED[width as usize - 1];
        for r in 0..rows {
            let shift = r * width;
            out |= (table[((bb >> shift) & 0xff) as usize] as u64) << shift;
        }
    } else {
        let row_mask = u64::MAX >> (64 - width);
        for r in 0..rows {
            let shift = r * width;
            out |= mirror_row((bb >> shift) & row_mask, width) << shift;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mirror cell by cell, for comparison.
    fn by_cells(bb: u64, width: u32, rows: u32) -> u64 {
        let mut out = 0;
        for r in 0..rows {
            for c in 0..width {
                if bb >> (r * width + c) & 1 != 0 {
                    out |= 1 << (r * width + width - 1 - c);
                }
            }
        }
        out
    }

    #[test]
    fn the_mirror_moves_every_cell_to_its_mirrored_column() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for width in 1..=64u32 {
            let rows = 64 / width;
            let cells = u64::MAX >> (64 - rows * width);
            for _ in 0..50 {
                x = crate::splitmix64(x);
                let bb = x & cells;
                let m = mirror_columns(bb, width, rows);
                assert_eq!(m, by_cells(bb, width, rows), "{width}x{rows}: {bb:#x}");
                assert_eq!(mirror_columns(m, width, rows), bb);
            }
        }
    }

    #[test]
    fn a_row_reversed_keeps_its_width() {
        assert_eq!(mirror_row(0b001, 3), 0b100);
        assert_eq!(mirror_row(0b1, 1), 0b1);
        assert_eq!(mirror_row(0b1_0000_0011, 9), 0b1_1000_0001);
        assert_eq!(mirror_row(0b1, 16), 1 << 15);
        assert_eq!(mirror_row(0b1, 17), 1 << 16);
        assert_eq!(mirror_row(1, 64), 1 << 63);
    }
}
