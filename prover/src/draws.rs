//! Games with draws and cycles: "can `attacker` force a win?" by df-pn with a fixed
//! attacker, sound under repeated positions, and the value of a position (a win for one
//! side, or a draw) as two such searches, one for each side, as the checkers proof did.
//!
//! A position repeated on the current path is no win for the attacker: a win never needs
//! one (the fastest win never meets a position twice), and play that goes round forever
//! is a draw. A disproof that leaned on such a repetition holds only on this path, so each
//! result carries the shallowest ply of the path it leaned on, and a position is stored as
//! disproven only when its result leaned on nothing above it (a repetition of the position
//! itself, or of one below it, holds wherever it is met): the path-dependent results of
//! the Graph History Interaction problem (Kishimoto and Müller, AAAI 2004) are never
//! stored as if they were not. Proofs never lean on the path, as no repetition proves one.
//!
//! The instance's table key must keep the sides: a symmetry that exchanges the colours
//! would merge positions of opposite attackers.

use crate::checkpoint::{solved_entries, Checkpoint, CheckpointError, Entry, Phase, Saver};
use crate::dfpn::{count_node, search_node, solve_root, PlyLists, Tuning, INF};
use crate::instance::{Instance, MoveOf, ProverPosition, Step};
use crate::solve::{stop_error, Options, SolveError, Status};
use crate::tt::{BuildMix, Key, Table, TableTooLarge};
use quasar_core::progress::Progress;
use quasar_core::{Game, GameResult, Outcome, Side};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// No ply of the path: a result that leaned on none.
const FREE: u32 = u32::MAX;
/// Nodes without a position settled after which the search starts again from the root
/// with weak numbers ([`Tuning::weak`]), keeping only the settled positions of its table.
/// Summed numbers, fed back to each other through the table around the game's cycles,
/// can grow by millions a pass while nothing is settled (a 7-piece ending once spent
/// 100 M nodes so, and more memory, keeping more such entries, made it worse); numbers
/// grown so stay in the table, so switching to weak numbers without starting again does
/// not undo them. A search that progresses settles a position every few nodes, and one
/// that recovers by itself has gaps of a few million: weak numbers find other wins, whose
/// moves may then mislead the length's search, so they are kept for a real stall.
const STALL_NODES: u64 = 1 << 23;

/// Proof and disproof numbers of "the attacker wins", as the table stores them, and
/// where the attacker moves in a proven position, the move that proved it (in the key's
/// orientation, as the game codes it; 0: none), which the length's search then tries
/// first. Twelve bytes: a slot stays 32.
#[derive(Clone, Copy, Debug, Default)]
struct Numbers {
    pn: u32,
    dn: u32,
    best: u16,
}

/// A child of the node being searched: its numbers and the shallowest ply its disproof
/// leaned on ([`FREE`]: none).
#[derive(Clone, Copy)]
struct Child<P: Game> {
    step: Step<P>,
    pn: u32,
    dn: u32,
    dep: u32,
}

/// The value of a position under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// This side forces a win.
    Win(Side),
    /// Neither side can force a win.
    Draw,
}

/// Df-pn for "`attacker` forces a win" in a game that may draw or cycle.
pub struct Attack<'a, I: Instance> {
    geo: &'a I,
    tb: Option<&'a I::Table>,
    attacker: Side,
    tt: Table<Numbers>,
    /// The positions of the current path and their plies.
    path: HashMap<Key, u32, BuildMix>,
    moves: Vec<MoveOf<I>>,
    /// The children of the nodes of the path.
    kids: PlyLists<Child<I::Pos>>,
    nodes: u64,
    proven: u64,
    disproven: u64,
    /// The node count when a position was last settled.
    last_settled: u64,
    /// Weak numbers (set once the search stalled, [`STALL_NODES`]).
    weak: bool,
    /// The search stalled: unwind to the root and start again with weak numbers.
    restart: bool,
    progress: &'a dyn Progress,
    /// Says when to stop and save.
    pub saver: Saver<'a>,
    /// The position being solved, for checkpoints (set by [`Attack::wins`]).
    root: Option<I::Pos>,
    /// The nodes of the search for the side to move, when this one is its opponent's: a
    /// checkpoint holds both.
    pub earlier: u64,
}

impl<I: Instance> std::fmt::Debug for Attack<'_, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The game, its table and the search's tables are left out; the counts say where
        // it stands.
        f.debug_struct("Attack")
            .field("attacker", &self.attacker)
            .field("nodes", &self.nodes)
            .field("proven", &self.proven)
            .field("disproven", &self.disproven)
            .finish_non_exhaustive()
    }
}

impl<'a, I: Instance> Attack<'a, I> {
    /// A search for `attacker` with a table of at most `tt_bytes` bytes.
    pub fn new(
        geo: &'a I,
        tb: Option<&'a I::Table>,
        attacker: Side,
        tt_bytes: usize,
        progress: &'a dyn Progress,
        saver: Saver<'a>,
    ) -> Result<Attack<'a, I>, TableTooLarge> {
        Ok(Attack {
            geo,
            tb,
            attacker,
            tt: Table::with_bytes(tt_bytes)?,
            path: HashMap::default(),
            moves: Vec::new(),
            kids: PlyLists::default(),
            nodes: 0,
            proven: 0,
            disproven: 0,
            last_settled: 0,
            weak: false,
            restart: false,
            progress,
            saver,
            root: None,
            earlier: 0,
        })
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resumes from a checkpoint of this search: `nodes` so far and the solved positions
    /// of `entries`.
    pub fn load(&mut self, nodes: u64, entries: &[Entry]) {
        self.nodes = nodes;
        self.last_settled = nodes;
        for e in entries {
            let v = match e.a {
                1 => Numbers {
                    pn: 0,
                    dn: INF,
                    best: e.mv,
                },
                _ => Numbers {
                    pn: INF,
                    dn: 0,
                    best: 0,
                },
            };
            self.tt.put(e.key, v, e.work);
        }
    }

    /// The positions settled (for the attacker or against it), as seeds of the length's
    /// search for the attacker: `won` as that search reads it, true where the attacker
    /// moves and wins or the defender moves and the attacker does not win (which may be
    /// a draw: the attacker never wins there either way), with the attacker's proving
    /// move.
    pub fn solved(self) -> Vec<crate::dfpn::Solved> {
        let attacker = self.attacker as u8;
        self.tt
            .entries_with_work()
            .filter(|(_, v, _)| v.pn == 0 || v.dn == 0)
            .map(|(key, v, work)| crate::dfpn::Solved {
                key,
                won: (v.pn == 0) == (key.side == attacker),
                best: v.best,
                work,
            })
            .collect()
    }

    /// Saves the search's solved positions, the most expensive first (every one is a fact
    /// wherever it is met: a disproof that leaned on the path is never stored).
    fn checkpoint(&mut self, stop: bool) {
        let Some(root) = self.root.filter(|_| self.saver.saves()) else {
            self.saver.save_nothing(stop);
            return;
        };
        let entries = solved_entries(&self.tt, |v| {
            (v.pn == 0 || v.dn == 0).then_some((v.pn == 0, v.best))
        });
        let (winner_nodes, length_nodes) = if self.attacker == root.side_to_move() {
            (self.nodes, 0)
        } else {
            (self.earlier, self.nodes)
        };
        let c = Checkpoint {
            root,
            phase: Phase::Attack {
                attacker: self.attacker,
            },
            winner_nodes,
            length_nodes,
            entries,
            children: Vec::new(),
        };
        self.saver.save(&c, stop);
    }

    /// True when the attacker forces a win from `root`, `None` when the saver stopped the
    /// search first.
    pub fn wins(&mut self, root: &I::Pos) -> Option<bool> {
        self.root = Some(*root);
        if let Some((pn, _)) = self.settled(root) {
            return Some(pn == 0);
        }
        let key = self.geo.key(root);
        loop {
            let solved = solve_root(|| {
                let (pn, dn, _) = self.mid(root, key, INF, INF, 0);
                (!self.saver.stopped && !self.restart).then_some((pn, dn))
            });
            if !self.restart {
                return solved.map(|(pn, _)| pn == 0);
            }
            self.restart = false;
            self.weak = true;
            self.last_settled = self.nodes;
            self.tt.retain(|v| v.pn == 0 || v.dn == 0);
        }
    }

    /// The numbers of a position settled without a search: a finished game, a table's
    /// result, the rules' quick verdict.
    #[inline]
    fn settled(&self, pos: &I::Pos) -> Option<(u32, u32)> {
        const WON: (u32, u32) = (0, INF);
        const NOT: (u32, u32) = (INF, 0);
        if let Some(o) = pos.outcome() {
            return Some(if o == Outcome::Win(self.attacker) {
                WON
            } else {
                NOT
            });
        }
        let mover_attacks = pos.side_to_move() == self.attacker;
        let mover_wins = match self.geo.quick(pos) {
            crate::Quick::WinInOne => Some(true),
            crate::Quick::LossInTwo => Some(false),
            _ => match self.geo.table_result(self.tb, pos)? {
                GameResult::Win => Some(true),
                GameResult::Loss => Some(false),
                GameResult::Draw => return Some(NOT),
            },
        }?;
        Some(if mover_wins == mover_attacks {
            WON
        } else {
            NOT
        })
    }

    /// Searches `pos` (at `ply` of the path) until its proof number reaches `th_pn` or
    /// its disproof number `th_dn`; returns its numbers and, for a disproof, the
    /// shallowest ply of the path it leaned on.
    fn mid(&mut self, pos: &I::Pos, key: Key, th_pn: u32, th_dn: u32, ply: u32) -> (u32, u32, u32) {
        count_node(&mut self.nodes, self.progress, |nodes| {
            Status::search(
                // Said, so that a reader of the progress knows the search started again.
                if self.weak {
                    "winner (weak numbers)"
                } else {
                    "winner"
                },
                nodes,
                [self.disproven, self.proven],
                self.tt.bytes(),
            )
        });
        if let Some(stop) = self.saver.tick() {
            self.checkpoint(stop);
            if self.saver.stopped {
                return (1, 1, FREE);
            }
        }
        if !self.weak && self.nodes - self.last_settled > STALL_NODES {
            self.restart = true;
            return (1, 1, FREE);
        }
        let attacking = pos.side_to_move() == self.attacker;
        let quick = self.geo.quick(pos);
        let mut moves = std::mem::take(&mut self.moves);
        self.geo.moves(pos, quick, &mut moves);
        let mut kids = self.kids.take(ply as usize);
        kids.extend(self.geo.steps(pos, &moves, &self.tt).map(|step| Child {
            step,
            pn: 1,
            dn: 1,
            dep: FREE,
        }));
        self.moves = moves;
        for c in kids.iter_mut() {
            if let Some(&at) = self.path.get(&c.step.key) {
                // Round again: no win for the attacker on this path.
                (c.pn, c.dn, c.dep) = (INF, 0, at);
            } else if let Some((pn, dn)) = self.settled(&c.step.pos) {
                (c.pn, c.dn) = (pn, dn);
            } else if let Some(v) = self.tt.get(&c.step.key) {
                (c.pn, c.dn) = (v.pn, v.dn);
            } else {
                // The race: each step the attacker is behind costs a proof, each step
                // ahead a disproof ([`Instance::distance`]; none known: even).
                let lead = self.geo.distance(&c.step.pos, self.attacker.opponent()) as i64
                    - self.geo.distance(&c.step.pos, self.attacker) as i64;
                (c.pn, c.dn) = (1 + (-lead).max(0) as u32, 1 + lead.max(0) as u32);
            }
        }
        self.path.insert(key, ply);
        let start = self.nodes;
        // df-pn's numbers are the mover's; these are the attacker's: where the defender
        // moves, each pair is the other way round.
        let for_mover = move |(pn, dn): (u32, u32)| if attacking { (pn, dn) } else { (dn, pn) };
        let n = search_node(
            self,
            &mut kids,
            for_mover((th_pn, th_dn)),
            Tuning {
                weak: self.weak,
                ..Tuning::default()
            },
            // A child's mover is the other side: its numbers, and the thresholds it is
            // given, are the other way round again.
            |c| for_mover((c.dn, c.pn)),
            |_, _| {},
            |me, c, th| {
                let (th_dn, th_pn) = for_mover(th);
                (c.pn, c.dn, c.dep) = me.mid(&c.step.pos, c.step.key, th_pn, th_dn, ply + 1);
                !me.saver.stopped && !me.restart
            },
        );
        self.path.remove(&key);
        let Some(n) = n else {
            self.kids.put(ply as usize, kids);
            return (1, 1, FREE);
        };
        let (pn, dn) = for_mover((n.pn, n.dn));
        let mut dep = if dn != 0 {
            FREE
        } else if attacking {
            // Every move refuted: the disproof leans on all that its children's did.
            kids.iter().map(|c| c.dep).min().unwrap_or(FREE)
        } else {
            // The refutation that leans on the least of the path.
            kids.iter()
                .filter(|c| c.dn == 0)
                .map(|c| c.dep)
                .max()
                .unwrap_or(FREE)
        };
        let best = match (pn, attacking) {
            (0, true) => {
                let mv = kids[n.best].step.mv;
                I::Pos::move_code(match self.geo.key_mirrored(pos).1 {
                    true => self.geo.mirror_move(mv),
                    false => mv,
                })
            }
            _ => 0,
        };
        self.kids.put(ply as usize, kids);
        if dn == 0 && dep >= ply {
            // Leaned on nothing above this position: true wherever it is met.
            dep = FREE;
        }
        if pn == 0 {
            self.proven += 1;
            self.last_settled = self.nodes;
        } else if dn == 0 {
            self.disproven += 1;
            self.last_settled = self.nodes;
        }
        if dn != 0 || dep == FREE {
            let work = (self.nodes - start).min(u32::MAX as u64) as u32;
            self.tt.add(key, Numbers { pn, dn, best }, work);
        }
        (pn, dn, dep)
    }
}

/// The value of `root` and what finding it cost.
#[derive(Clone, Copy, Debug)]
pub struct Valued {
    /// Who wins, or a draw.
    pub value: Value,
    /// Nodes of the search for each side (the first player's, the second's; 0 where it
    /// was not needed).
    pub nodes: [u64; 2],
    /// Seconds of both searches.
    pub seconds: f64,
    /// Valued outright ([`crate::graph::value`]): the nodes are the positions listed
    /// (counted as the side to move's) and the short searches' before the listing.
    pub outright: bool,
}

/// The value of the unfinished `root`: where the game lists positions
/// ([`Instance::graph_limit`]), first by a short search for each side's win, then outright
/// when at most that many positions are reachable before a settled one (the nodes are then
/// the positions listed, counted as the side to move's); else as two searches: the side to
/// move's win, then the opponent's; neither is a draw. Each search has its own table of `options.table_bytes`
/// bytes. With `options.checkpoint` the searches save their solved positions and resume
/// from them (a checkpoint of the length phase that follows a win gives the winner at
/// once).
pub fn value<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    progress: &dyn Progress,
) -> Result<Valued, SolveError> {
    value_and_graph(inst, root, options, progress).map(|f| f.valued)
}

/// What [`value_and_graph`] found: the value, and what a win's length and proof may read.
pub(crate) struct Found<'a, I: Instance> {
    /// The value and what finding it cost.
    pub valued: Valued,
    /// The positions listed, when the value was found outright.
    pub graph: Option<crate::graph::Graph>,
    /// The search that proved a win, with its table, when one did (not a short one).
    pub attack: Option<Attack<'a, I>>,
}

/// Nodes each side's first, short search may visit before the positions are listed, by
/// default ([`Options::quick_nodes`]).
pub const QUICK_NODES: u64 = 1 << 18;
/// The table of each short search: small, as it is filled for each.
const QUICK_TABLE_BYTES: usize = 32 << 20;

/// The value of `root` when each side's search settles it within
/// [`Options::quick_nodes`] nodes:
/// most wins and losses have small proofs, and listing every reachable position can cost
/// millions of positions before it gives up. `None` when a search ran out of nodes (its
/// nodes are added to `nodes` all the same); an error when its table cannot be had.
fn quick_value<I: Instance>(
    inst: &I,
    root: &I::Pos,
    options: &Options<I::Table>,
    progress: &dyn Progress,
    nodes: &mut [u64; 2],
) -> Result<Option<Value>, SolveError> {
    let me = root.side_to_move();
    for attacker in [me, me.opponent()] {
        let saver = Saver::new(None, options.checkpoint_every, Some(options.quick_nodes))
            .interruptible(options.interrupt);
        let bytes = options.table_bytes.min(QUICK_TABLE_BYTES);
        let mut a = Attack::new(inst, options.tablebase, attacker, bytes, progress, saver)?;
        let wins = a.wins(root);
        nodes[attacker.index()] += a.nodes();
        match wins {
            Some(true) => return Ok(Some(Value::Win(attacker))),
            Some(false) => {}
            None => return Ok(None),
        }
    }
    Ok(Some(Value::Draw))
}

/// [`value`], and the graph of the positions listed when the value was found outright: a
/// draw's proof picks its moves from it, without listing them again, and a win's length
/// and proof read it when it knows every length (a graph whose lines end on a table's
/// results is dropped before the length search makes its table); or the search that
/// proved a win, whose settled positions start the length's search.
pub(crate) fn value_and_graph<'a, I: Instance>(
    inst: &'a I,
    root: &I::Pos,
    options: &Options<'a, I::Table>,
    progress: &'a dyn Progress,
) -> Result<Found<'a, I>, SolveError> {
    if root.outcome().is_some() {
        return Err(SolveError::GameOver);
    }
    if let Some(tb) = options.tablebase {
        inst.table_fits(tb, root).map_err(SolveError::OtherTable)?;
    }
    let t0 = Instant::now();
    let mut nodes = [0u64; 2];
    let me = root.side_to_move();
    let valued = |value: Value, nodes: [u64; 2], outright: bool| Valued {
        value,
        nodes,
        seconds: t0.elapsed().as_secs_f64(),
        outright,
    };
    let found = |valued: Valued, graph, attack| Found {
        valued,
        graph,
        attack,
    };
    // The lock is held until the searches end: one run a checkpoint.
    let (lock, resume) = Checkpoint::<I::Pos>::open(options.checkpoint, root)?;
    let first = match &resume {
        None => {
            let limit = inst.graph_limit(root);
            if limit > 0 && options.quick_nodes > 0 {
                if let Some(value) = quick_value(inst, root, options, progress, &mut nodes)? {
                    return Ok(found(valued(value, nodes, false), None, None));
                }
                if options.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
                    return Err(SolveError::Interrupted {
                        nodes: nodes[0] + nodes[1],
                        saved: None,
                    });
                }
            }
            if let Some((value, graph)) =
                crate::graph::value(inst, options.tablebase, root, limit, options.interrupt)
            {
                nodes[me.index()] += graph.len() as u64;
                let graph = (value == Value::Draw || graph.knows_lengths()).then_some(graph);
                return Ok(found(valued(value, nodes, true), graph, None));
            }
            me
        }
        Some(c) => match c.phase {
            Phase::Attack { attacker } => attacker,
            Phase::Length { winner, .. } => {
                nodes[winner.index()] = c.winner_nodes;
                return Ok(found(valued(Value::Win(winner), nodes, false), None, None));
            }
            Phase::Winner => {
                return Err(CheckpointError::other_search(
                    options.checkpoint,
                    "a search of a game without draws",
                )
                .into())
            }
        },
    };
    let mut saver = Saver::new(
        options.checkpoint,
        options.checkpoint_every,
        options.stop_after,
    )
    .interruptible(options.interrupt)
    .holding(lock);
    if first != me {
        // The side to move's search is over: it found no win.
        nodes[me.index()] = resume.as_ref().map_or(0, |c| c.winner_nodes);
    }
    for attacker in [me, me.opponent()] {
        if attacker == me && first != me {
            continue;
        }
        let mut a = Attack::new(
            inst,
            options.tablebase,
            attacker,
            options.table_bytes,
            progress,
            saver,
        )?;
        a.earlier = nodes[me.index()];
        if let Some(c) = resume.as_ref().filter(|_| attacker == first) {
            let so_far = if attacker == me {
                c.winner_nodes
            } else {
                c.length_nodes
            };
            a.load(so_far, &c.entries);
        }
        let wins = a.wins(root);
        nodes[attacker.index()] = a.nodes();
        match wins {
            None => return Err(stop_error(&mut a.saver, nodes[0] + nodes[1])),
            Some(true) => {
                let v = valued(Value::Win(attacker), nodes, false);
                return Ok(found(v, None, Some(a)));
            }
            Some(false) => {}
        }
        saver = a.saver;
        if attacker == me {
            // A crash from here on never repeats the side to move's search.
            let next = Checkpoint {
                root: *root,
                phase: Phase::Attack {
                    attacker: me.opponent(),
                },
                winner_nodes: nodes[me.index()],
                length_nodes: 0,
                entries: Vec::new(),
                children: Vec::new(),
            };
            saver.save(&next, false);
            if saver.stopped {
                return Err(stop_error(&mut saver, nodes[0] + nodes[1]));
            }
        }
    }
    Ok(found(valued(Value::Draw, nodes, false), None, None))
}
