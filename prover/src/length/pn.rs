//! The length search's test by proof numbers: "does the winner win within `d` plies?" as
//! df-pn over (position, plies left), for the large bounds, where the depth-first
//! [`Length::within`] spends its nodes refuting moves that a best-first search never
//! tries; bounds below [`Length::pn_from`] are left to `within`. The facts it finds
//! (`lo`, `hi`, the deciding move) go to the same table as `within`'s, so both searches
//! and the proof writer share them.

use super::{Bounds, Length, NEVER};
use crate::dfpn::{Numbers, Tuning, INF};
use crate::instance::{Instance, Step};
use crate::tt::Key;
use quasar_core::Game;

/// The largest number the table keeps (two bytes); larger ones are stored as this, which
/// only blurs the guidance, never a result.
const STORED_MAX: u32 = u16::MAX as u32 - 1;

/// One child of the node being searched, with its numbers for its own mover.
#[derive(Clone, Copy)]
pub(super) struct Child<P: Game> {
    step: Step<P>,
    known: Bounds,
    pn: u32,
    dn: u32,
}

/// What the table and the rules say of an unfinished position with `d` plies left.
enum Known {
    /// The winner wins within `d` (true) or does not (false).
    Solved(bool),
    /// Not settled: the table's entry (default when none).
    Open(Bounds),
}

impl<I: Instance> Length<'_, I> {
    /// [`Length::within`] by proof numbers, for the root of a bound test.
    pub(super) fn within_pn(&mut self, root: &I::Pos, d: u32) -> bool {
        let (key, mirrored) = self.geo.key_mirrored(root);
        let known = match self.known(root, &key, d, 0) {
            Known::Solved(w) => return w,
            Known::Open(b) => b,
        };
        let winner_moves = root.side_to_move() == self.winner;
        self.watch.reset(!winner_moves);
        loop {
            let (pn, dn) = self.mid_pn(root, key, mirrored, known, d, INF, INF, 0);
            if self.saver.stopped {
                return false;
            }
            if pn == 0 || dn == 0 {
                // The numbers are the mover's: the mover wins when pn is 0.
                return (pn == 0) == winner_moves;
            }
        }
    }

    /// Settles `pos` (unfinished, key `key`) with `d` plies left without expanding it when
    /// the table, the rules or a table claim can; below `pn_from` by the depth-first
    /// search.
    fn known(&mut self, pos: &I::Pos, key: &Key, d: u32, ply: usize) -> Known {
        if d < self.geo.min_plies(pos, self.winner) {
            return Known::Solved(false);
        }
        if d < self.pn_from {
            return Known::Solved(self.within(pos, d, ply));
        }
        let known = self.tt.get(key).unwrap_or_default();
        match self.verdict(pos, known, d, self.geo.quick(pos)) {
            Some(v) => Known::Solved(v.within(d)),
            None => Known::Open(known),
        }
    }

    /// Searches `pos` with `d` plies left until its numbers (for its mover) reach
    /// `th_pn` or `th_dn`; returns them and stores what it learnt.
    #[allow(clippy::too_many_arguments)]
    fn mid_pn(
        &mut self,
        pos: &I::Pos,
        key: Key,
        mirrored: bool,
        known: Bounds,
        d: u32,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> (u32, u32) {
        let start = self.nodes;
        if self.count_node() {
            return (1, 1);
        }
        let winner_moves = pos.side_to_move() == self.winner;
        if self.kids.len() <= ply {
            self.kids.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        kids.clear();
        let quick = self.geo.quick(pos);
        if self.moves.len() <= ply {
            self.moves.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.geo.moves(pos, quick, &mut moves);
        kids.extend(self.geo.steps(pos, &moves, &self.tt).map(|step| Child {
            step,
            known: Bounds::default(),
            pn: 1,
            dn: 1,
        }));
        self.moves[ply] = moves;
        for i in 0..kids.len() {
            let c = kids[i];
            // The child's numbers are its mover's, the other side.
            let (pn, dn) = if let Some(o) = c.step.pos.outcome() {
                // The game is over: this node's mover has its way when the winner won
                // and it is the winner, or the winner did not and it is the loser.
                if (o == quasar_core::Outcome::Win(self.winner)) == winner_moves {
                    (INF, 0)
                } else {
                    (0, INF)
                }
            } else {
                match self.known(&c.step.pos, &c.step.key, d - 1, ply + 1) {
                    Known::Solved(w) => {
                        if w != winner_moves {
                            (0, INF)
                        } else {
                            (INF, 0)
                        }
                    }
                    Known::Open(b) => {
                        kids[i].known = b;
                        if b.depth != 0 {
                            (b.pn as u32, b.dn as u32)
                        } else {
                            (1, 1)
                        }
                    }
                }
            };
            if self.saver.stopped {
                self.kids[ply] = kids;
                return (1, 1);
            }
            kids[i].pn = pn;
            kids[i].dn = dn;
        }
        self.watch.expanded(ply, kids.len());
        let (mut pn, mut dn);
        let mut best;
        loop {
            let n = Numbers::of(kids.iter().map(|c| (c.pn, c.dn)), false);
            (pn, dn, best) = (n.pn, n.dn, n.best);
            self.watch.read(ply, pn, dn);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                break;
            }
            let c = kids[best];
            let (child_th_pn, child_th_dn) =
                n.child_thresholds(th_pn, th_dn, c.pn, Tuning::default());
            let (cpn, cdn) = self.mid_pn(
                &c.step.pos,
                c.step.key,
                c.step.mirrored,
                c.known,
                d - 1,
                child_th_pn,
                child_th_dn,
                ply + 1,
            );
            if self.saver.stopped {
                // Unwinding: the numbers are unfinished, store nothing.
                self.kids[ply] = kids;
                return (1, 1);
            }
            kids[best].pn = cpn;
            kids[best].dn = cdn;
        }
        let won_here = if pn == 0 {
            Some(winner_moves)
        } else if dn == 0 {
            Some(!winner_moves)
        } else {
            None
        };
        if let Some(w) = won_here {
            self.settled[w as usize] += 1;
        }
        // The mover's deciding move, tried first by the depth-first search.
        let hint = (pn == 0).then(|| self.code(kids[best].step.mv, mirrored));
        self.kids[ply] = kids;
        let work = (self.nodes - start).min(u32::MAX as u64) as u32;
        // From the entry as stored now, not as read before the search: a fact found
        // meanwhile (this position reached by another path) is kept.
        self.tt.add_with(key, work, |now| {
            let mut b = now.unwrap_or(known);
            match won_here {
                Some(true) => {
                    if b.hi == 0 || d < b.hi as u32 {
                        b.hi = d as u8;
                    }
                    b.depth = 0;
                }
                Some(false) => {
                    b.lo = b.lo.max(d as u8).min(NEVER - 1);
                    b.depth = 0;
                }
                None => {
                    b.depth = d as u8;
                    b.pn = pn.min(STORED_MAX) as u16;
                    b.dn = dn.min(STORED_MAX) as u16;
                }
            }
            if let Some(mv) = hint {
                b.hint = mv;
            }
            b
        });
        (pn, dn)
    }
}
