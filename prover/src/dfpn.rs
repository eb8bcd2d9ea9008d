//! Depth-first proof-number search (Nagai's df-pn with the 1 + epsilon trick) for the
//! winner: proof and disproof numbers for the side to move, in a bounded table; and the
//! parts of df-pn that the length search's test by proof numbers and the search of games
//! with draws share with it (a node's numbers, its loop over its children, the root's
//! iteration, progress, the lists kept a ply).

use crate::checkpoint::{solved_entries, Checkpoint, Phase, RootChild, Saver};
use crate::instance::{Instance, MoveOf, ProverPosition, Quick, Step};
use crate::tt::{Key, Table, TableTooLarge};
use crate::Status;
use quasar_core::progress::Progress;
use quasar_core::{Game, Side};

mod proof;

/// Proof or disproof number that stands for infinity.
pub const INF: u32 = u32::MAX / 4;
/// Nodes between two progress reports.
pub(crate) const REPORT_EVERY: u64 = 1 << 16;

/// Proof and disproof numbers of "the side to move wins", and for a proven position the
/// winning move in the key's orientation, as the game codes it (a hint for the length
/// search; 0: none).
#[derive(Clone, Copy, Debug, Default)]
pub struct PnDn {
    pn: u32,
    dn: u32,
    best: u16,
}

/// A position df-pn solved, for the length search to start from.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    /// The position (canonical key).
    pub key: Key,
    /// True when the side to move wins; from a search for one side's win in a game with
    /// draws ([`crate::draws::Attack::solved`]), also where the other side moves and the
    /// searched side does not win (a draw, perhaps): it never wins there, which is all the
    /// length search reads of a position its winner does not move in.
    pub won: bool,
    /// For a won position, the winning move in the key's orientation, as the game codes
    /// it.
    pub best: u16,
    /// The nodes df-pn spent on it.
    pub work: u32,
}

/// How new positions get their first numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// (1, 1): every position alike.
    Unit,
    /// (1, the mover's move count): a position whose mover has few replies (a narrow
    /// verdict) is cheap to refute, so forcing moves are searched first.
    Mobility,
    /// Mobility plus the race ([`Instance::distance`]): each step the mover is behind the
    /// opponent adds one to its proof number, each step ahead one to its disproof number.
    Race,
}

/// df-pn's choices that change how fast it finds the winner, never which winner: proof
/// and disproof numbers are only heuristics until they reach 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The 1 + epsilon trick (Pawlewicz and Lew 2007), epsilon in percent: the best child
    /// is searched until its number passes the second best's times 1 + epsilon, which
    /// saves switching back and forth between two close children. 0: plain df-pn.
    pub eps_percent: u32,
    /// The first numbers of a position not yet searched.
    pub init: Init,
    /// Weak proof numbers (Ueda et al. 2008): a disproof number is the largest child's
    /// plus one per other unsolved child instead of their sum, which counts a position
    /// reached by transposition once per path.
    pub weak: bool,
    /// The table's replacement weighs a position by all the nodes spent on it over every
    /// visit (instead of its most expensive visit).
    pub total_work: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            eps_percent: 25,
            init: Init::Unit,
            weak: false,
            total_work: true,
        }
    }
}

/// One child of the node being searched, with its current numbers.
#[derive(Clone, Copy)]
struct Child<P: Game> {
    step: Step<P>,
    pn: u32,
    dn: u32,
}

/// A node's numbers for its mover, from its children's (each for its own mover), with
/// what picking and bounding the next child to search needs.
#[derive(Debug)]
pub struct Numbers {
    /// The node's proof number: the least child disproof number.
    pub pn: u32,
    /// The node's disproof number: the children's proof numbers summed (or, weak, the
    /// largest plus one per other open child).
    pub dn: u32,
    /// The child to search next (the least disproof number).
    pub best: usize,
    second_dn: u32,
    /// Open children other than the best, as they count in a weak `dn`.
    others: u32,
    weak: bool,
}

impl Numbers {
    /// The numbers of a node whose children have `(pn, dn)`: the side to move wins when
    /// some child is lost for its mover, and loses when every child is won for its mover
    /// (or has no child: a narrow verdict listed no legal move).
    #[inline]
    pub fn of(children: impl Iterator<Item = (u32, u32)>, weak: bool) -> Numbers {
        let (mut best_dn, mut second_dn) = (INF, INF);
        let mut best = 0;
        let (mut sum_pn, mut max_pn, mut open, mut count) = (0u32, 0u32, 0u32, 0usize);
        for (i, (pn, dn)) in children.enumerate() {
            // A sum of unsolved numbers stays below INF: only a solved child is INF.
            sum_pn = (sum_pn + pn).min(INF - 1);
            max_pn = max_pn.max(pn);
            open += (pn != 0) as u32;
            count += 1;
            if dn < best_dn {
                second_dn = best_dn;
                best_dn = dn;
                best = i;
            } else if dn < second_dn {
                second_dn = dn;
            }
        }
        let (dn, others) = if count == 0 {
            return Numbers {
                pn: INF,
                dn: 0,
                best: 0,
                second_dn,
                others: 0,
                weak,
            };
        } else if max_pn >= INF {
            (INF, 0)
        } else if weak {
            (
                // Below INF like a sum: an unsolved node is never taken for a solved one.
                if open == 0 {
                    0
                } else {
                    (max_pn + (open - 1)).min(INF - 1)
                },
                open.saturating_sub(1),
            )
        } else {
            (sum_pn, 0)
        };
        Numbers {
            pn: best_dn,
            dn,
            best,
            second_dn,
            others,
            weak,
        }
    }

    /// The best child's thresholds (its proof number is `child_pn`) under this node's
    /// `th_pn` and `th_dn`, with the 1 + epsilon trick.
    #[inline]
    pub(super) fn child_thresholds(
        &self,
        th_pn: u32,
        th_dn: u32,
        child_pn: u32,
        tuning: Tuning,
    ) -> (u32, u32) {
        let child_th_pn = if self.weak {
            th_dn - self.others
        } else {
            th_dn - (self.dn - child_pn)
        };
        let widened = self.second_dn as u64 * (100 + tuning.eps_percent as u64) / 100 + 1;
        let child_th_dn = (th_pn as u64).min(widened).min(INF as u64) as u32;
        (child_th_pn, child_th_dn)
    }
}

/// df-pn at one node, whose children `kids` are listed with their numbers (`numbers`:
/// each child's for its own mover): searches the child with the least disproof number
/// (`search`, under the thresholds the 1 + epsilon trick gives it, for its mover; false
/// when the search stopped) until the node's numbers for its mover reach `th_pn` or
/// `th_dn` or are solved. `read` is shown the node's numbers before each choice. The
/// node's numbers, `None` when the search stopped (the children's are then unfinished).
#[inline(always)]
pub(crate) fn search_node<S, C>(
    s: &mut S,
    kids: &mut [C],
    (th_pn, th_dn): (u32, u32),
    tuning: Tuning,
    numbers: impl Fn(&C) -> (u32, u32),
    mut read: impl FnMut(&mut S, &Numbers),
    mut search: impl FnMut(&mut S, &mut C, (u32, u32)) -> bool,
) -> Option<Numbers> {
    loop {
        let n = Numbers::of(kids.iter().map(&numbers), tuning.weak);
        read(s, &n);
        if n.pn >= th_pn || n.dn >= th_dn || n.pn == 0 || n.dn == 0 {
            return Some(n);
        }
        let c = &mut kids[n.best];
        let thresholds = n.child_thresholds(th_pn, th_dn, numbers(c).0, tuning);
        if !search(s, c, thresholds) {
            return None;
        }
    }
}

/// Searches a root with infinite thresholds (`search`, `None` when it stopped) until its
/// numbers are solved: a search returns unsolved when a sum of numbers reaches infinity.
#[inline]
pub(crate) fn solve_root(mut search: impl FnMut() -> Option<(u32, u32)>) -> Option<(u32, u32)> {
    loop {
        let (pn, dn) = search()?;
        if pn == 0 || dn == 0 {
            return Some((pn, dn));
        }
    }
}

/// Counts a node of a search in `nodes`; every [`REPORT_EVERY`] nodes, gives `progress`
/// the status that `status` makes of the new count.
#[inline(always)]
pub(crate) fn count_node(
    nodes: &mut u64,
    progress: &dyn Progress,
    status: impl FnOnce(u64) -> Status,
) {
    *nodes += 1;
    if *nodes % REPORT_EVERY == 0 {
        status(*nodes).report(progress);
    }
}

/// Lists kept one a ply of a search's path, so that each node reuses an allocation.
pub(crate) struct PlyLists<T>(Vec<Vec<T>>);

impl<T> Default for PlyLists<T> {
    fn default() -> Self {
        PlyLists(Vec::new())
    }
}

impl<T> PlyLists<T> {
    /// The list of `ply`, empty (a path reaches each ply from the one above it).
    #[inline]
    pub(crate) fn take(&mut self, ply: usize) -> Vec<T> {
        if self.0.len() <= ply {
            self.0.push(Vec::new());
        }
        let mut list = std::mem::take(&mut self.0[ply]);
        list.clear();
        list
    }

    /// Gives back the list of `ply`, for the next node there.
    #[inline]
    pub(crate) fn put(&mut self, ply: usize, list: Vec<T>) {
        self.0[ply] = list;
    }
}

/// The root's numbers for the progress line. A node with one child (a forced move)
/// has its child's numbers, so the root's are those of the first node below it with a
/// choice, read each time one of that node's children returns.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct RootWatch {
    /// The ply of the first node with a choice on the path from the root.
    ply: usize,
    /// Its numbers as last read, for its mover, and whether its mover is the root's.
    numbers: Option<(u32, u32, bool)>,
    /// The numbers are wanted for the root's opponent, not its mover.
    for_opponent: bool,
}

impl RootWatch {
    /// Starts watching a new root, whose numbers are wanted for its mover or (with
    /// `for_opponent`) the other side.
    pub fn reset(&mut self, for_opponent: bool) {
        *self = RootWatch {
            for_opponent,
            ..RootWatch::default()
        };
    }

    /// Notes a node at `ply` with `children` children: a lone child is watched instead.
    #[inline]
    pub fn expanded(&mut self, ply: usize, children: usize) {
        if ply == self.ply && children == 1 {
            self.ply += 1;
        }
    }

    /// Notes the numbers (for its mover) of a node at `ply` about to search a child.
    #[inline]
    pub fn read(&mut self, ply: usize, pn: u32, dn: u32) {
        if ply == self.ply {
            self.numbers = Some((pn, dn, ply % 2 == 0));
        }
    }

    /// The root's proof and disproof numbers for the side asked at `reset`, if read yet.
    pub fn numbers(&self) -> Option<(u32, u32)> {
        self.numbers.map(|(pn, dn, same)| {
            if same != self.for_opponent {
                (pn, dn)
            } else {
                (dn, pn)
            }
        })
    }
}

/// The df-pn searcher.
pub struct Dfpn<'a, I: Instance> {
    geo: &'a I,
    tb: Option<&'a I::Table>,
    tt: Table<PnDn>,
    children: PlyLists<Child<I::Pos>>,
    moves: Vec<MoveOf<I>>,
    nodes: u64,
    proven: u64,
    disproven: u64,
    /// The root's numbers, for the progress line.
    #[doc(hidden)]
    pub watch: RootWatch,
    progress: &'a dyn Progress,
    root: Option<I::Pos>,
    /// Saves checkpoints and says when to stop.
    pub saver: Saver<'a>,
    /// How the numbers are set.
    pub tuning: Tuning,
    /// The phase its progress lines name: the winner's search, or the proof's searches.
    label: &'static str,
}

impl<I: Instance> std::fmt::Debug for Dfpn<'_, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The game, its table and the search's tables are left out; the counts say where
        // it stands.
        f.debug_struct("Dfpn")
            .field("root", &self.root)
            .field("tuning", &self.tuning)
            .field("nodes", &self.nodes)
            .field("proven", &self.proven)
            .field("disproven", &self.disproven)
            .finish_non_exhaustive()
    }
}

impl<'a, I: Instance> Dfpn<'a, I> {
    /// A searcher with a table of at most `tt_bytes` bytes.
    pub fn new(
        geo: &'a I,
        tb: Option<&'a I::Table>,
        tt_bytes: usize,
        progress: &'a dyn Progress,
        saver: Saver<'a>,
    ) -> Result<Dfpn<'a, I>, TableTooLarge> {
        Ok(Dfpn {
            geo,
            tb,
            tt: Table::with_bytes(tt_bytes)?,
            children: PlyLists::default(),
            moves: Vec::new(),
            nodes: 0,
            proven: 0,
            disproven: 0,
            watch: RootWatch::default(),
            progress,
            root: None,
            saver,
            tuning: Tuning::default(),
            label: "winner",
        })
    }

    /// Resumes from a checkpoint of this phase: its solved positions and node count.
    pub fn load(&mut self, checkpoint: &Checkpoint<I::Pos>) {
        self.nodes = checkpoint.winner_nodes;
        for e in &checkpoint.entries {
            let won = e.a == 1;
            let v = PnDn {
                pn: if won { 0 } else { INF },
                dn: if won { INF } else { 0 },
                best: e.mv,
            };
            self.tt.put(e.key, v, e.work);
        }
    }

    /// The phase's state for a checkpoint: the most expensive solved positions.
    fn checkpoint(&mut self, stop: bool) {
        let Some(root) = self.root else { return };
        if !self.saver.saves() {
            self.saver.save_nothing(stop);
            return;
        }
        let entries = solved_entries(&self.tt, |v| {
            (v.pn == 0 || v.dn == 0).then_some((v.pn == 0, v.best))
        });
        let c = Checkpoint {
            root,
            phase: Phase::Winner,
            winner_nodes: self.nodes,
            length_nodes: 0,
            entries,
            children: self.root_children(&root),
        };
        self.saver.save(&c, stop);
    }

    /// Saves a checkpoint now (when there is a file): a run stopped after the winner was
    /// found starts from it without searching again.
    pub fn save_now(&mut self) -> Result<(), crate::CheckpointError> {
        self.checkpoint(false);
        self.saver.error.take().map_or(Ok(()), Err)
    }

    /// The children of `root` (every legal move, by its raw key) that the table or the
    /// rules give numbers, with them: what a job tree's children start from when it
    /// expands this search's root instead of going on with it. A child being searched
    /// when this is asked has the numbers it last stored.
    pub fn root_children(&self, root: &I::Pos) -> Vec<RootChild> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        moves
            .into_iter()
            .filter_map(|mv| {
                let mut child = *root;
                child.play(mv);
                let v = self
                    .settled(&child, self.geo.quick(&child))
                    .or_else(|| self.tt.get(&self.geo.key(&child)))?;
                Some(RootChild {
                    key: child.raw_key(),
                    pn: v.pn,
                    dn: v.dn,
                })
            })
            .collect()
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Bytes of the table.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The positions solved so far (proven or disproven), with the work behind each.
    pub fn solved(&self) -> Vec<Solved> {
        self.tt
            .entries_with_work()
            .filter(|(_, v, _)| v.pn == 0 || v.dn == 0)
            .map(|(key, v, work)| Solved {
                key,
                won: v.pn == 0,
                best: v.best,
                work,
            })
            .collect()
    }

    /// The winner of the unfinished position `root`, `None` when the saver stopped the
    /// search first.
    pub fn winner(&mut self, root: &I::Pos) -> Option<Side> {
        let me = root.side_to_move();
        self.root = Some(*root);
        self.watch.reset(false);
        let (pn, dn) = match self.leaf(root) {
            Some(v) => (v.pn, v.dn),
            None => {
                let (key, mirrored) = self.geo.key_mirrored(root);
                solve_root(|| {
                    let v = self.mid(root, key, mirrored, INF, INF, 0);
                    (!self.saver.stopped).then_some(v)
                })?
            }
        };
        debug_assert!(pn == 0 || dn == 0);
        Some(if pn == 0 { me } else { me.opponent() })
    }

    /// The numbers of a position settled without search, if it is.
    #[inline]
    #[doc(hidden)]
    pub fn leaf(&self, pos: &I::Pos) -> Option<PnDn> {
        self.settled(pos, self.geo.quick(pos))
    }

    /// The numbers of a position settled without search, given its verdict `quick`
    /// (meaningless when the game is over, which is checked first).
    #[inline]
    fn settled(&self, pos: &I::Pos, quick: Quick) -> Option<PnDn> {
        const NONE: u16 = 0;
        const WON: PnDn = PnDn {
            pn: 0,
            dn: INF,
            best: NONE,
        };
        const LOST: PnDn = PnDn {
            pn: INF,
            dn: 0,
            best: NONE,
        };
        if pos.outcome().is_some() {
            // A finished game is always lost for the side to move: the last move won it.
            return Some(LOST);
        }
        match quick {
            Quick::WinInOne => Some(WON),
            Quick::LossInTwo => Some(LOST),
            _ => self.geo.claim_plies(self.tb, pos).map(|_| WON),
        }
    }

    /// The numbers of an unsolved position not in the table, by [`Tuning::init`].
    #[inline]
    fn first_numbers(&self, pos: &I::Pos, quick: Quick) -> (u32, u32) {
        let replies = self.geo.replies(pos, quick).max(1);
        if self.tuning.init != Init::Race {
            return (1, replies);
        }
        let me = pos.side_to_move();
        let lead = self.geo.distance(pos, me.opponent()) as i32 - self.geo.distance(pos, me) as i32;
        (1 + (-lead).max(0) as u32, replies + lead.max(0) as u32)
    }

    /// Searches `pos` until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`; returns its numbers.
    fn mid(
        &mut self,
        pos: &I::Pos,
        key: Key,
        mirrored: bool,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> (u32, u32) {
        let start = self.nodes;
        count_node(&mut self.nodes, self.progress, |nodes| {
            Status::search(
                self.label,
                nodes,
                [self.disproven, self.proven],
                self.tt.bytes(),
            )
            .with_root(self.watch.numbers())
        });
        if let Some(stop) = self.saver.tick() {
            self.checkpoint(stop);
            if self.saver.stopped {
                return (1, 1);
            }
        }
        let mut kids = self.children.take(ply);
        let quick = self.geo.quick(pos);
        let mut moves = std::mem::take(&mut self.moves);
        self.geo.moves(pos, quick, &mut moves);
        kids.extend(
            self.geo
                .steps(pos, &moves, &self.tt)
                .map(|step| Child { step, pn: 1, dn: 1 }),
        );
        for c in kids.iter_mut() {
            let q = self.geo.quick(&c.step.pos);
            if let Some(v) = self
                .settled(&c.step.pos, q)
                .or_else(|| self.tt.get(&c.step.key))
            {
                (c.pn, c.dn) = (v.pn, v.dn);
            } else if self.tuning.init != Init::Unit {
                (c.pn, c.dn) = self.first_numbers(&c.step.pos, q);
            }
        }
        self.moves = moves;
        self.watch.expanded(ply, kids.len());
        let n = search_node(
            self,
            &mut kids,
            (th_pn, th_dn),
            self.tuning,
            |c| (c.pn, c.dn),
            |me, n| me.watch.read(ply, n.pn, n.dn),
            |me, c, (th_pn, th_dn)| {
                let s = c.step;
                (c.pn, c.dn) = me.mid(&s.pos, s.key, s.mirrored, th_pn, th_dn, ply + 1);
                !me.saver.stopped
            },
        );
        let Some(Numbers { pn, dn, best, .. }) = n else {
            // Unwinding: the numbers are unfinished, store nothing.
            self.children.put(ply, kids);
            return (1, 1);
        };
        let mut best_move = 0;
        if pn == 0 {
            self.proven += 1;
            let mv = kids[best].step.mv;
            best_move = I::Pos::move_code(if mirrored {
                self.geo.mirror_move(mv)
            } else {
                mv
            });
        } else if dn == 0 {
            self.disproven += 1;
        }
        self.children.put(ply, kids);
        let work = (self.nodes - start).min(u32::MAX as u64) as u32;
        let v = PnDn {
            pn,
            dn,
            best: best_move,
        };
        if self.tuning.total_work {
            self.tt.add(key, v, work);
        } else {
            self.tt.put(key, v, work);
        }
        (pn, dn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summed_and_weak_numbers_stay_below_infinity_until_solved() {
        let big = INF - 1;
        for weak in [false, true] {
            // Three open children, one of them with a number as large as a sum may get.
            let n = Numbers::of([(big, 5), (3, 4), (1, 9)].into_iter(), weak);
            assert_eq!(n.pn, 4);
            assert_eq!(n.best, 1);
            assert_eq!(n.dn, INF - 1, "weak: {weak}");
            // A child won for its mover (pn INF): the node's dn is infinite.
            let n = Numbers::of([(INF, 0), (3, 4)].into_iter(), weak);
            assert_eq!((n.pn, n.dn), (0, INF));
            // Every child solved against this mover: dn 0 whichever way it is counted.
            let n = Numbers::of([(0, INF), (0, INF)].into_iter(), weak);
            assert_eq!((n.pn, n.dn), (INF, 0));
        }
        // Weak: the largest plus one per other open child.
        let n = Numbers::of([(7, 5), (3, 4), (0, INF)].into_iter(), true);
        assert_eq!(n.dn, 7 + 1);
        let n = Numbers::of([(7, 5), (3, 4), (0, INF)].into_iter(), false);
        assert_eq!(n.dn, 10);
    }
}
