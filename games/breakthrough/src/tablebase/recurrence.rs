//! The spec's recurrence for `D`, written once: `D(c)` is White's best move over Black's
//! best reply, with the pruning both builds use. The whole build evaluates it over a memo
//! of every configuration (uncapped, `INF` for no win); the sliced build over the slices
//! already built, capped at the slicing's cap.

use crate::tablebase::region::{Config, LocalMove, Region};

/// The depths a recurrence reads: `D` (or `min(D, ceiling)`) of a configuration with
/// White to move, no White piece on row `H-1` and at least one White piece.
pub trait Depths {
    /// The depth of `c`.
    fn depth(&self, c: Config) -> u8;
}

/// The recurrence over `region`, reading successors from `source`, with every depth
/// capped at `ceiling` (the whole build's `INF`, or a sliced table's cap).
#[derive(Debug)]
pub struct Recurrence<'a, S: Depths> {
    region: &'a Region,
    source: &'a S,
    ceiling: u8,
}

impl<'a, S: Depths> Recurrence<'a, S> {
    /// The recurrence reading `source`, capped at `ceiling`.
    #[inline]
    pub fn new(region: &'a Region, source: &'a S, ceiling: u8) -> Recurrence<'a, S> {
        Recurrence {
            region,
            source,
            ceiling,
        }
    }

    /// `min(D(t), ceiling)` of any configuration with White to move.
    #[inline]
    pub fn value(&self, t: Config) -> u8 {
        if t.white & self.region.goal_minus_one() != 0 {
            1
        } else if t.white == 0 {
            self.ceiling
        } else {
            self.source.depth(t)
        }
    }

    /// `d + 1`, saturating at the ceiling.
    #[inline]
    fn inc(&self, d: u8) -> u8 {
        d.saturating_add(1).min(self.ceiling)
    }

    /// `min(D(c), ceiling)` of a configuration with White to move, no White piece on `H-1`:
    /// the minimum over White's moves of Black's best reply.
    #[inline]
    pub fn solve(&self, c: Config) -> u8 {
        let r = self.region;
        if c.white == 0 {
            return self.ceiling;
        }
        let (n, w) = (r.rows(), r.width());
        // D = 2 at once when a White piece steps onto H-1 where no Black piece on H can
        // capture it (most configurations with White on H-2): nothing beats 2.
        let [l, st, rt] = r.white_targets(c);
        let landing = r.row_bits(l | st | rt, n - 2);
        let top = r.row_bits(c.black, n - 1);
        let attacked = ((top << 1) | (top >> 1)) & ((1 << w) - 1);
        if landing & !attacked != 0 {
            return 2;
        }
        // No White move beats the distance of its most advanced piece to the goal.
        let highest = (63 - c.white.leading_zeros()) / w;
        let lower_bound = (n - 1 - highest) as u8;
        let mut best = self.ceiling;
        r.for_each_white_move(c, |m| {
            let e = self.reply(r.after_white(c, m), best);
            if e < best {
                best = e;
            }
            best > lower_bound
        });
        best
    }

    /// `min(E(t), ceiling)` for Black to move in `t`, exact when below `bound`, else some
    /// value at least `bound` (Black's search stops once White's move is no better than one
    /// already found).
    #[inline]
    fn reply(&self, t: Config, bound: u8) -> u8 {
        let r = self.region;
        let mut v = self.inc(self.value(t));
        if v >= bound {
            return v;
        }
        r.for_each_black_move(t, |m| {
            let (after, leaves) = r.after_black(t, m);
            let d = self.value(after);
            let x = if leaves { self.inc(d) } else { d };
            if x > v {
                v = x;
            }
            v < bound
        });
        v
    }

    /// The first White move in the spec's order achieving depth `d` (below the ceiling)
    /// in `c`, its successors' depths all known.
    pub fn best_move(&self, c: Config, d: u8) -> Option<LocalMove> {
        let r = self.region;
        let mut found = None;
        r.for_each_white_move(c, |m| {
            if self.reply(r.after_white(c, m), d + 1) <= d {
                found = Some(m);
                false
            } else {
                true
            }
        });
        found
    }
}
