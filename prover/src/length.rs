//! The exact length under perfect play: "does the winner win within `d` plies?" by a
//! depth-first search with bounds in a bounded table, asked for growing `d`; then the
//! principal line and the proof records from the same search, streamed to a
//! [`ProofWriter`](crate::proof_writer::ProofWriter).

use crate::checkpoint::{
    least_class_kept, work_class, Checkpoint, CheckpointError, Entry, Phase, RootChild, Saver,
    MAX_ENTRIES,
};
use crate::dfpn::{count_node, PlyLists, RootWatch, Solved};
use crate::graph::Graph;
use crate::instance::{Instance, MoveOf, ProverPosition, Quick};
use crate::tt::{Key, Table, TableTooLarge};
use crate::{SolveError, Status, PLACE_LEVELS};
use quasar_core::progress::Progress;
use quasar_core::{Game, GameResult, Outcome, Side};

mod pn;
mod proof;

/// The bounds are bytes: no game proved lasts this long, and a bound this high means
/// "never".
pub const NEVER: u8 = 255;
/// The least bound at which a node first looks up its children in the table (the enhanced
/// transposition cutoff): at 5x5's bounds 6 and 8 it cost more probes than it saved, at
/// 10 and up it cut 15 % of the nodes and about a tenth of the time.
const ETC_MIN_BOUND: u32 = 10;
/// The least bound searched by proof numbers (see [`Length::pn_from`]).
pub const DEFAULT_PN_FROM: u32 = NEVER as u32;
/// Proof positions between two looks at the interrupt flag.
const INTERRUPT_EVERY: u64 = 1 << 10;

/// What is known of a position's distance `dist` (plies until the winner has won with
/// best play on both sides): `lo < dist <= hi`, `hi == 0` when no upper bound is known.
/// `hint` is the move that decided the last search here, in the key's orientation
/// as the game codes it (0: none), tried first next time. `pn` and `dn` are the proof-number
/// search's numbers for "the side to move wins" at `depth` plies left (`depth == 0`:
/// none); they only guide that search. Ten bytes, so that two slots fill one cache line.
#[derive(Clone, Copy, Debug, Default)]
struct Bounds {
    lo: u8,
    hi: u8,
    hint: u16,
    depth: u8,
    pn: u16,
    dn: u16,
}

/// What [`Length::verdict`] settles without a search.
#[derive(Clone, Copy)]
enum Verdict {
    /// The table's facts answer the question as asked.
    Known(bool),
    /// The rules or a claim give the exact distance (0: the winner never wins here).
    Exact(u32),
    /// A table claim: won within this many plies, no more than asked.
    Within(u32),
}

impl Verdict {
    /// The answer to "won within `d`?" (the bound `d` the verdict was asked with).
    fn within(self, d: u32) -> bool {
        match self {
            Verdict::Known(w) => w,
            Verdict::Exact(dist) => dist != 0 && dist <= d,
            Verdict::Within(plies) => plies <= d,
        }
    }
}

/// The bounded search for one fixed winner.
pub struct Length<'a, I: Instance> {
    geo: &'a I,
    tb: Option<&'a I::Table>,
    winner: Side,
    tt: Table<Bounds>,
    moves: PlyLists<MoveOf<I>>,
    nodes: u64,
    bound: u32,
    progress: &'a dyn Progress,
    /// Saves checkpoints and says when to stop (during [`Length::distance`] only).
    pub saver: Saver<'a>,
    /// Checkpoints and stops are live (while the distance is searched).
    checking: bool,
    root: Option<I::Pos>,
    /// df-pn's nodes, for the checkpoint.
    pub winner_nodes: u64,
    /// The root's children as df-pn left them, kept in every checkpoint of this phase.
    pub root_children: Vec<RootChild>,
    /// Bounds of this many plies or more are searched by proof numbers (best first),
    /// smaller ones depth first; `NEVER`: depth first throughout.
    pub pn_from: u32,
    /// The proof's records get the bounds their sub-proofs need, not the bound the writer
    /// was asked for: a proof at a loose bound ([`crate::Options::winner_only`]) then
    /// states what it proves, and table claims end it wherever they are shallow enough.
    pub tight: bool,
    /// The proof-number search's children, one list a ply.
    kids: PlyLists<pn::Child<I::Pos>>,
    /// Positions found won (proven) or not won (disproven) within their bound.
    settled: [u64; 2],
    /// Positions the proof writer has visited that still needed a record.
    proof_nodes: u64,
    /// The proof writer's place in the loser's first moves (see [`Status::place`]).
    proof_place: [(u16, u16); PLACE_LEVELS],
    /// The loser's turns the proof writer is below.
    proof_depth: usize,
    /// The bound a checkpoint records instead of the one being tested (see
    /// [`Length::test`]).
    saved_bound: Option<u32>,
    /// The proof-number search's root numbers for the winner, for the progress line.
    watch: RootWatch,
    /// Every position reachable from the root with its exact length, when the value was
    /// found outright: it answers every question without a search.
    graph: Option<Graph>,
}

impl<I: Instance> std::fmt::Debug for Length<'_, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The game, its table and the search's table are left out.
        f.debug_struct("Length")
            .field("root", &self.root)
            .field("winner", &self.winner)
            .field("bound", &self.bound)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl<'a, I: Instance> Length<'a, I> {
    /// A search for `winner` with a table of at most `tt_bytes` bytes.
    pub fn new(
        geo: &'a I,
        tb: Option<&'a I::Table>,
        winner: Side,
        tt_bytes: usize,
        progress: &'a dyn Progress,
        saver: Saver<'a>,
    ) -> Result<Length<'a, I>, TableTooLarge> {
        Ok(Length {
            geo,
            tb,
            winner,
            tt: Table::with_bytes(tt_bytes)?,
            moves: PlyLists::default(),
            nodes: 0,
            bound: 0,
            progress,
            saver,
            checking: false,
            root: None,
            winner_nodes: 0,
            root_children: Vec::new(),
            pn_from: DEFAULT_PN_FROM,
            tight: false,
            kids: PlyLists::default(),
            settled: [0; 2],
            proof_nodes: 0,
            proof_place: Default::default(),
            proof_depth: 0,
            saved_bound: None,
            watch: RootWatch::default(),
            graph: None,
        })
    }

    /// Answers from `graph`, which lists every position reachable from the root with its
    /// exact length, instead of searching.
    pub fn use_graph(&mut self, graph: Graph) {
        debug_assert!(graph.knows_lengths());
        self.graph = Some(graph);
    }

    /// Resumes from a checkpoint of this phase: its bounds and node count.
    pub fn load(&mut self, checkpoint: &Checkpoint<I::Pos>) {
        self.nodes = checkpoint.length_nodes;
        self.winner_nodes = checkpoint.winner_nodes;
        self.root_children = checkpoint.children.clone();
        for e in &checkpoint.entries {
            let b = Bounds {
                lo: e.a,
                hi: e.b,
                hint: e.mv,
                ..Bounds::default()
            };
            self.tt.put(e.key, b, e.work);
        }
    }

    /// Saves the phase's state for `root`: the bound being tested and the most expensive
    /// entries; `stop` ends the search after it.
    fn checkpoint(&mut self, root: &I::Pos, stop: bool) {
        if !self.saver.saves() {
            self.saver.save_nothing(stop);
            return;
        }
        // An entry with only proof numbers holds no fact and is not kept.
        let facts = |b: &Bounds| b.lo != 0 || b.hi != 0 || b.hint != 0;
        let floor = least_class_kept(
            self.tt
                .entries_with_work()
                .filter(|e| facts(&e.1))
                .map(|e| e.2),
            MAX_ENTRIES,
        );
        let entries = self
            .tt
            .entries_with_work()
            .filter(|e| facts(&e.1) && work_class(e.2) >= floor)
            .map(|(key, b, work)| Entry {
                key,
                a: b.lo,
                b: b.hi,
                mv: b.hint,
                work,
            })
            .collect();
        let c = Checkpoint {
            root: *root,
            phase: Phase::Length {
                winner: self.winner,
                bound: self.saved_bound.unwrap_or(self.bound),
            },
            winner_nodes: self.winner_nodes,
            length_nodes: self.nodes,
            entries,
            children: self.root_children.clone(),
        };
        self.saver.save(&c, stop);
    }

    /// Saves a checkpoint for `root` now (when there is a file), so that a crash after
    /// this point resumes here; the write's error, if any.
    pub fn save_now(&mut self, root: &I::Pos) -> Result<(), CheckpointError> {
        if !self.saver.saves() {
            return Ok(());
        }
        self.checkpoint(root, false);
        self.saver.error.take().map_or(Ok(()), Err)
    }

    /// Starts from df-pn's solved positions: a position the loser wins is never won
    /// within any bound, and a won position's winning move is tried first.
    pub fn seed(&mut self, solved: &[Solved]) {
        for s in solved {
            let winner_moves = s.key.side == self.winner as u8;
            let b = if s.won == winner_moves {
                if !winner_moves {
                    continue;
                }
                Bounds {
                    hint: s.best,
                    ..Bounds::default()
                }
            } else {
                Bounds {
                    lo: NEVER - 1,
                    ..Bounds::default()
                }
            };
            self.tt.put(s.key, b, s.work);
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Bytes of the table.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The exact distance of the unfinished `root`, which the winner wins: the least `d`
    /// (of the right parity) with a win within `d`.
    /// `from` (a bound that failed or is untested, 0: none) resumes a stopped search.
    pub fn distance(&mut self, root: &I::Pos, from: u32) -> Result<u32, SolveError> {
        let mut d = self.geo.min_plies(root, self.winner);
        // Where only the last mover wins, the winner wins on its own moves: one parity.
        let step = if I::Pos::LAST_MOVER_WINS { 2 } else { 1 };
        while d < from {
            d += step;
        }
        self.root = Some(*root);
        self.checking = true;
        while d < NEVER as u32 {
            self.bound = d;
            let holds = self.wins_within(root, d);
            if self.saver.stopped {
                self.checking = false;
                let nodes = self.winner_nodes + self.nodes;
                return Err(crate::solve::stop_error(&mut self.saver, nodes));
            }
            if holds {
                self.checking = false;
                return Ok(d);
            }
            d += step;
        }
        self.checking = false;
        Err(SolveError::NoWin {
            winner: self.winner,
        })
    }

    /// True when the winner wins from the unfinished `root` within `d` plies, with
    /// checkpoints and stops as in [`Length::distance`]. A checkpoint saved meanwhile
    /// records the bound `from` (every smaller one failed), not `d`: that `d` holds says
    /// nothing of the bounds between.
    pub fn test(&mut self, root: &I::Pos, d: u32, from: u32) -> Result<bool, SolveError> {
        self.root = Some(*root);
        self.checking = true;
        self.bound = d;
        self.saved_bound = Some(from);
        let holds = self.wins_within(root, d);
        self.checking = false;
        if self.saver.stopped {
            self.saved_bound = None;
            let nodes = self.winner_nodes + self.nodes;
            return Err(crate::solve::stop_error(&mut self.saver, nodes));
        }
        // The facts found hold for any bound: a later solve from this checkpoint starts
        // with them.
        let saved = self.save_now(root);
        self.saved_bound = None;
        saved?;
        Ok(holds)
    }

    /// True when the winner wins from the unfinished `pos` within `d` plies, asked as the
    /// distance search asks it: by proof numbers from [`Length::pn_from`] plies on, depth
    /// first below. The principal line and the proof ask this way too, so that they find
    /// the facts the search left and never search a large bound depth first.
    pub fn wins_within(&mut self, pos: &I::Pos, d: u32) -> bool {
        if let Some(w) = self
            .graph
            .as_ref()
            .and_then(|g| g.wins_within(self.geo, pos, self.winner, d))
        {
            return w;
        }
        if d >= self.pn_from {
            self.within_pn(pos, d)
        } else {
            self.within(pos, d, 0)
        }
    }

    /// `hint` (a table entry's move, in the key's orientation) in the orientation of the
    /// position whose key is `mirrored`; None when the entry has no move.
    #[inline]
    fn oriented(&self, hint: u16, mirrored: bool) -> Option<MoveOf<I>> {
        (hint != 0).then(|| self.flip(I::Pos::code_move(hint), mirrored))
    }

    /// The code of `mv` of a position whose key is `mirrored`, in the key's orientation.
    #[inline]
    fn code(&self, mv: MoveOf<I>, mirrored: bool) -> u16 {
        I::Pos::move_code(self.flip(mv, mirrored))
    }

    /// `mv` mirrored when `mirrored`: a move of a position into its key's orientation and
    /// back (mirroring is its own inverse).
    #[inline]
    fn flip(&self, mv: MoveOf<I>, mirrored: bool) -> MoveOf<I> {
        if mirrored {
            self.geo.mirror_move(mv)
        } else {
            mv
        }
    }

    /// The move that decided the table's last search of `pos`, if it kept one.
    fn table_move(&self, pos: &I::Pos) -> Option<MoveOf<I>> {
        let (key, mirrored) = self.geo.key_mirrored(pos);
        self.oriented(self.tt.get(&key)?.hint, mirrored)
    }

    /// True when the winner wins from the unfinished `pos` within `d` plies.
    pub fn within(&mut self, pos: &I::Pos, d: u32, ply: usize) -> bool {
        if d < self.geo.min_plies(pos, self.winner) {
            return false;
        }
        if d <= 2 && I::Pos::LAST_MOVER_WINS {
            // Most nodes are here; the rules answer faster than a table lookup.
            return self.shallow(pos, d);
        }
        if d == 3 && pos.side_to_move() == self.winner && I::Pos::LAST_MOVER_WINS {
            // So are most probes: searching two more plies costs less than a cache miss.
            return self.three(pos);
        }
        let (key, mirrored) = self.geo.key_mirrored(pos);
        let known = self.tt.get(&key).unwrap_or_default();
        let quick = self.geo.quick(pos);
        match self.verdict(pos, known, d, quick) {
            Some(Verdict::Known(w)) => return w,
            Some(Verdict::Exact(dist)) => return self.settle(key, known, d, dist),
            Some(Verdict::Within(plies)) => return self.settle_upper(key, known, d, plies),
            None => {}
        }
        let winner_moves = pos.side_to_move() == self.winner;
        if self.count_node() {
            return false;
        }
        let start = self.nodes;
        let mut moves = self.moves.take(ply);
        self.geo.moves(pos, quick, &mut moves);
        if let Some(hint) = self.oriented(known.hint, mirrored) {
            move_first(&mut moves, hint);
        }
        if d >= ETC_MIN_BOUND {
            // Far from the leaves a subtree is large and a probe cheap beside it: a child
            // the table already settles decides this node without a search.
            for &mv in &moves {
                let mut child = *pos;
                child.play(mv);
                if child.outcome().is_some() {
                    continue;
                }
                let Some(c) = self.tt.get(&self.geo.key(&child)) else {
                    continue;
                };
                let settles = if winner_moves {
                    c.hi != 0 && (c.hi as u32) < d
                } else {
                    d - 1 <= c.lo as u32
                };
                if settles {
                    self.moves.put(ply, moves);
                    let mut b = known;
                    if winner_moves {
                        b.hi = d as u8;
                    } else {
                        b.lo = b.lo.max(d as u8);
                    }
                    b.hint = self.code(mv, mirrored);
                    self.tt.put(key, b, 1);
                    return winner_moves;
                }
            }
        }
        // The winner needs one good move; the loser loses when every move loses. A loser
        // move left out by a narrow verdict loses in two plies, within any d >= 2 here.
        let mut result = !winner_moves;
        let mut decided = None;
        for &mv in &moves {
            let mut child = *pos;
            child.play(mv);
            let r = match child.outcome() {
                Some(o) => o == Outcome::Win(self.winner),
                None => self.within(&child, d - 1, ply + 1),
            };
            if self.saver.stopped {
                // Unwinding: this node's answer is unknown, store nothing.
                self.moves.put(ply, moves);
                return false;
            }
            if r == winner_moves {
                result = r;
                decided = Some(mv);
                break;
            }
        }
        if moves.is_empty() && winner_moves {
            result = false;
        }
        self.moves.put(ply, moves);
        let mut b = known;
        if let Some(mv) = decided {
            b.hint = self.code(mv, mirrored);
        }
        if result {
            b.hi = d as u8;
        } else {
            b.lo = b.lo.max(d as u8);
        }
        self.settled[result as usize] += 1;
        let work = (self.nodes - start).min(u32::MAX as u64) as u32;
        self.tt.put(key, b, work);
        result
    }

    /// Counts a searched node: reports progress, saves a checkpoint when one is due;
    /// true when the search must stop.
    fn count_node(&mut self) -> bool {
        count_node(&mut self.nodes, self.progress, |nodes| Status {
            testing: Some((<I::Pos as Game>::side_name(self.winner), self.bound)),
            ..Status::search("length", nodes, self.settled, self.tt.bytes())
                .with_root(self.watch.numbers())
        });
        if self.checking {
            if let Some(stop) = self.saver.tick() {
                let root = self.root.expect("set while checking");
                self.checkpoint(&root, stop);
                return self.saver.stopped;
            }
        }
        false
    }

    /// `within` for the winner to move and `d == 3`, from the rules alone: a win in one,
    /// or a move after which every reply allows one.
    fn three(&mut self, pos: &I::Pos) -> bool {
        if self.geo.wins_in_one(pos) {
            return true;
        }
        let quick = self.geo.quick(pos);
        if quick == Quick::LossInTwo {
            return false;
        }
        self.nodes += 1;
        let geo = self.geo;
        geo.any_move(pos, quick, |mv| {
            let mut child = *pos;
            child.play(mv);
            child.outcome().is_some() || self.shallow(&child, 2)
        })
    }

    /// `within` for `d <= 2` from the rules alone: the winner to move needs a win in one;
    /// the loser to move must have no escape from one.
    fn shallow(&mut self, pos: &I::Pos, d: u32) -> bool {
        if pos.side_to_move() == self.winner {
            return self.geo.wins_in_one(pos);
        }
        if d < 2 {
            return false;
        }
        let quick = self.geo.quick(pos);
        match quick {
            Quick::WinInOne => return false,
            Quick::LossInTwo => return true,
            _ => {}
        }
        self.nodes += 1;
        // Any move left out by a narrow verdict leaves the threat: the winner steps home.
        let geo = self.geo;
        !geo.any_move(pos, quick, |mv| {
            let mut child = *pos;
            child.play(mv);
            child.outcome().is_some() || !geo.wins_in_one(&child)
        })
    }

    /// What the table's entry `known`, the rules or a table claim say of the unfinished
    /// `pos` with `d` plies left, without a search; `quick` is the rules' verdict on it.
    #[inline]
    fn verdict(&self, pos: &I::Pos, known: Bounds, d: u32, quick: Quick) -> Option<Verdict> {
        if known.hi != 0 && d >= known.hi as u32 {
            return Some(Verdict::Known(true));
        }
        if d <= known.lo as u32 {
            return Some(Verdict::Known(false));
        }
        let winner_moves = pos.side_to_move() == self.winner;
        match quick {
            Quick::WinInOne => return Some(Verdict::Exact(if winner_moves { 1 } else { 0 })),
            Quick::LossInTwo => return Some(Verdict::Exact(if winner_moves { 0 } else { 2 })),
            _ => {}
        }
        if !I::Pos::LAST_MOVER_WINS {
            // A table that knows draws ends the lines the winner cannot win.
            let winners = if winner_moves {
                GameResult::Win
            } else {
                GameResult::Loss
            };
            match self.geo.table_result(self.tb, pos) {
                Some(r) if r != winners => return Some(Verdict::Exact(0)),
                _ => {}
            }
        }
        let plies = self.geo.claim_plies(self.tb, pos)?;
        if !winner_moves {
            // The loser has a certain win of its own: this line never wins.
            return Some(Verdict::Exact(0));
        }
        (plies <= d).then_some(Verdict::Within(plies))
    }

    /// Stores and answers a position won within `plies` (a table claim: an upper bound).
    fn settle_upper(&mut self, key: Key, mut b: Bounds, d: u32, plies: u32) -> bool {
        if b.hi == 0 || plies < b.hi as u32 {
            b.hi = plies as u8;
        }
        self.tt.put(key, b, 1);
        plies <= d
    }

    /// Stores and answers a position whose exact distance is known without search: `dist`
    /// plies (0 = the winner never wins here).
    fn settle(&mut self, key: Key, mut b: Bounds, d: u32, dist: u32) -> bool {
        if dist == 0 {
            b.lo = NEVER - 1;
        } else {
            b.hi = dist as u8;
            b.lo = b.lo.max(dist as u8 - 1);
        }
        self.tt.put(key, b, 1);
        dist != 0 && dist <= d
    }
}

/// Moves `mv` to the front of `moves`, the others keeping their order; nothing when it is
/// not there.
fn move_first<M: Copy + PartialEq>(moves: &mut [M], mv: M) {
    if let Some(i) = moves.iter().position(|&m| m == mv) {
        moves[..=i].rotate_right(1);
    }
}
