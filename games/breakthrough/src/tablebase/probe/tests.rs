//! Tests of the prober: its depth-two answers from the rows against the table's own.

use super::*;
use crate::tablebase::slices::Slicing;
use crate::tablebase::{generate, Limits, Silent};

#[test]
fn depth_two_from_the_rows_is_the_tables_on_every_configuration() {
    // Every configuration with White to move (none on `H-1`), enumerated slice by slice.
    for (w, h, n) in [(4, 6, 4), (5, 5, 3), (6, 5, 3)] {
        let region = Region::new(Board::new(w, h).unwrap(), n).unwrap();
        let tb = Tablebase::from_generated(&generate(&region, Limits::NONE, &Silent).unwrap());
        let s = Slicing::new(&region).unwrap();
        let (mut twos, mut others) = (0, 0);
        for id in 0..s.slices() {
            for idx in 0..s.per_slice() {
                let c = s.config(id, idx);
                if c.white == 0 {
                    continue;
                }
                let row = |bb: u64, j: u32| region.row_bits(bb, j) as u32;
                let fast = wins_at_depth_two(
                    row(c.white, n - 3),
                    row(c.black, n - 2),
                    row(c.black, n - 1),
                    w,
                );
                let depth = tb.lookup(c).unwrap().map(|e| e.depth);
                assert_eq!(fast, depth == Some(2), "{w}x{h} {c:?}: {depth:?}");
                if fast {
                    twos += 1;
                } else {
                    others += depth.is_some() as u32;
                }
            }
        }
        // Both answers seen, and deeper wins as well with 4 rows.
        assert!(twos > 1000 && (n == 3 || others > 1000), "{twos} {others}");
    }
}
