//! The length search's test by proof numbers: "does the winner win within `d` plies?" as
//! df-pn over (position, plies left), for the large bounds, where the depth-first
//! [`Length::within`] spends its nodes refuting moves that a best-first search never
//! tries; bounds below [`Length::pn_from`] are left to `within`. The facts it finds
//! (`lo`, `hi`, the deciding move) go to the same table as `within`'s, so both searches
//! and the proof writer share them.

use super::{Bounds, Length, NEVER};
use crate::dfpn::{search_node, solve_root, Numbers, Tuning, INF};
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
        let solved = solve_root(|| {
            let v = self.mid_pn(root, key, mirrored, known, d, INF, INF, 0);
            (!self.saver.stopped).then_some(v)
        });
        // The numbers are the mover's: the mover wins when pn is 0.
        solved.is_some_and(|(pn, _)| (pn == 0) == winner_moves)
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
        let mut kids = self.kids.take(ply);
        let quick = self.geo.quick(pos);
        let mut moves = self.moves.take(ply);
        self.geo.moves(pos, quick, &mut moves);
        kids.extend(self.geo.steps(pos, &moves, &self.tt).map(|step| Child {
            step,
            known: Bounds::default(),
            pn: 1,
            dn: 1,
        }));
        self.moves.put(ply, moves);
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
                self.kids.put(ply, kids);
                return (1, 1);
            }
            kids[i].pn = pn;
            kids[i].dn = dn;
        }
        self.watch.expanded(ply, kids.len());
        let n = search_node(
            self,
            &mut kids,
            (th_pn, th_dn),
            Tuning::default(),
            |c| (c.pn, c.dn),
            |me, n| me.watch.read(ply, n.pn, n.dn),
            |me, c, (th_pn, th_dn)| {
                let s = c.step;
                (c.pn, c.dn) = me.mid_pn(
                    &s.pos,
                    s.key,
                    s.mirrored,
                    c.known,
                    d - 1,
                    th_pn,
                    th_dn,
                    ply + 1,
                );
                !me.saver.stopped
            },
        );
        let Some(Numbers { pn, dn, best, .. }) = n else {
            // Unwinding: the numbers are unfinished, store nothing.
            self.kids.put(ply, kids);
            return (1, 1);
        };
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
        self.kids.put(ply, kids);
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
