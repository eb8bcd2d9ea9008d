//! The search: iterative deepening over a negamax principal-variation search with a
//! transposition table, killer and history ordering, the game's verdicts and forced moves,
//! an oracle at every node, and repetitions along the path scored as draws.

use crate::limits::{Limit, CHECK_EVERY};
use crate::ordering::{sort_by_score, Ordering};
use crate::score::{from_table, proven, to_table, Score, INFINITY, PROVEN, UNKNOWN_DISTANCE};
use crate::tt::{Bound, Table, TableTooLarge};
use quasar_core::progress::{SearchInfo, Watch};
use quasar_core::{Evaluation, Game, Oracle, EVAL_LIMIT, QUIESCENCE_PLIES};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What shapes the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Bytes of the transposition table.
    pub table_bytes: usize,
    /// The deepest iteration (plies).
    pub max_depth: u32,
    /// The most plies searched past an iteration's depth through positions the evaluation
    /// calls not quiet ([`Evaluation::is_quiet`]; 0: none).
    pub quiescence: u32,
}

impl Config {
    /// The plies a line may reach from the root, and so the per-ply buffers' count: the
    /// deepest iteration, the plies past it, and the root.
    fn plies(&self) -> usize {
        (self.max_depth + self.quiescence) as usize + 1
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            table_bytes: 64 << 20,
            max_depth: 64,
            quiescence: QUIESCENCE_PLIES,
        }
    }
}

/// Why a search could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The position is already over; there is no move to search.
    #[error("the game is already over in this position: there is no move to search")]
    GameOver,
    /// Every legal move was left out of the search.
    #[error("every legal move was left out: there is no move to search")]
    NoMoveLeft,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The move to play.
    pub best_move: M,
    /// Its value for the side to move.
    pub score: Score,
    /// The deepest iteration that finished (0 when the first was stopped).
    pub depth: u32,
    /// Nodes visited (every position searched, leaves included).
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
}

impl<M> Report<M> {
    /// Nodes a second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// An alpha-beta searcher for one game; it keeps its transposition table and history from
/// search to search (call [`AlphaBeta::clear`] between games).
pub struct AlphaBeta<G: Game> {
    config: Config,
    eval: Arc<dyn Evaluation<G>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    table: Table<G::Move>,
    order: Ordering<G::Move>,
    /// One move buffer and one score buffer per ply, so the search allocates nothing.
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    /// One buffer per ply of the evaluations of a frontier node's children, scored
    /// together where the evaluation can (an incremental model: a child from its parent's
    /// sums costs a fraction of a whole evaluation).
    leaves: Vec<Vec<i32>>,
    /// Hashes of the positions from the root to the current node, for repetitions.
    path: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The best root move of the running iteration and its value.
    root_best: Option<(G::Move, i32)>,
    /// The depth of the running iteration: a line reaches its horizon there, and searches
    /// on through positions that are not quiet up to `quiescence` plies further.
    iteration: u32,
    /// Root moves left out of this search (the lines a multi-line analysis already has).
    exclude: Vec<G::Move>,
    /// The caller's flag that ends the search early, read with the clock.
    external_stop: Option<Arc<AtomicBool>>,
}

impl<G: Game> std::fmt::Debug for AlphaBeta<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The table and the per-ply buffers are left out: they are large and say little.
        f.debug_struct("AlphaBeta")
            .field("config", &self.config)
            .field("eval", &self.eval)
            .field("oracle", &self.oracle)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with `eval` at its leaves and no oracle. Panics when the table's memory
    /// is not there, as any failed allocation aborts; a size a user gives goes through
    /// [`AlphaBeta::try_new`].
    pub fn new(config: Config, eval: Arc<dyn Evaluation<G>>) -> AlphaBeta<G> {
        AlphaBeta::try_new(config, eval).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with `eval` at its leaves and no oracle, or why its transposition table
    /// cannot be allocated.
    pub fn try_new(
        config: Config,
        eval: Arc<dyn Evaluation<G>>,
    ) -> Result<AlphaBeta<G>, TableTooLarge> {
        let plies = config.plies();
        Ok(AlphaBeta {
            table: Table::new(config.table_bytes)?,
            order: Ordering::new(plies),
            moves: vec![Vec::new(); plies],
            scores: vec![Vec::new(); plies],
            leaves: vec![Vec::new(); plies],
            path: Vec::with_capacity(plies),
            config,
            eval,
            oracle: None,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            root_best: None,
            iteration: 0,
            exclude: Vec::new(),
            external_stop: None,
        })
    }

    /// The same searcher consulting `oracle` at every node below the root, where a proven
    /// result ends the line, and at the root, where a move the oracle names is played.
    pub fn with_oracle(mut self, oracle: Arc<dyn Oracle<G>>) -> AlphaBeta<G> {
        self.oracle = Some(oracle);
        self
    }

    /// A searcher with the same configuration, evaluation and oracle, and nothing learnt.
    pub fn fresh(&self) -> AlphaBeta<G> {
        let ab = AlphaBeta::new(self.config.clone(), self.eval.clone());
        match &self.oracle {
            Some(o) => ab.with_oracle(o.clone()),
            None => ab,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The evaluation's name.
    pub fn evaluation_name(&self) -> &'static str {
        self.eval.name()
    }

    /// The evaluation's scale: the value at which the side to move wins three games in four.
    pub fn evaluation_scale(&self) -> f64 {
        self.eval.scale()
    }

    /// The first damage the oracle's probes met, if any (see [`Oracle::damage`]).
    pub fn damage(&self) -> Option<String> {
        self.oracle.as_ref()?.damage()
    }

    /// Forgets the transposition table and the history (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.order = Ordering::new(self.config.plies());
    }

    /// Searches `pos` within `limit` and returns the move to play.
    pub fn search(
        &mut self,
        pos: &G,
        limit: impl Into<Limit>,
    ) -> Result<Report<G::Move>, SearchError> {
        self.search_with(pos, limit.into(), &[], &mut Watch::none())
    }

    /// Searches `pos` within `limit` with the root moves in `exclude` left out (a second
    /// best line is the best of the rest), reporting each finished depth to `watch` and
    /// stopping early when its flag is raised; [`SearchError::NoMoveLeft`] when `exclude`
    /// holds every legal move.
    pub fn search_with(
        &mut self,
        pos: &G,
        limit: impl Into<Limit>,
        exclude: &[G::Move],
        watch: &mut Watch<'_, G::Move>,
    ) -> Result<Report<G::Move>, SearchError> {
        let limit = limit.into();
        if pos.outcome().is_some() {
            return Err(SearchError::GameOver);
        }
        let start = Instant::now();
        let mut root_moves = Vec::new();
        pos.legal_moves(&mut root_moves);
        if root_moves.is_empty() {
            return Err(SearchError::GameOver);
        }
        root_moves.retain(|m| !exclude.contains(m));
        let Some(&first) = root_moves.first() else {
            return Err(SearchError::NoMoveLeft);
        };
        if exclude.is_empty() {
            if let Some(report) = self.oracle_root(pos, &root_moves, start) {
                return Ok(report);
            }
        }
        self.exclude.clear();
        self.exclude.extend_from_slice(exclude);
        self.external_stop = watch.stop.clone();
        let result = self.iterate(pos, limit, start, &root_moves, first, watch);
        self.exclude.clear();
        self.external_stop = None;
        Ok(result)
    }

    /// When the oracle proves the root and names a legal move, that move is played at once,
    /// as MCTS plays it: the oracle can choose among equal proofs (by distance, or by the
    /// progress that keeps a won ending from being drawn by a rule of play), where the
    /// search sees only equal values.
    fn oracle_root(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        start: Instant,
    ) -> Option<Report<G::Move>> {
        let (p, mv) = self.oracle.as_ref()?.root_move(pos, root_moves)?;
        self.nodes = 1;
        let plies = p.plies.unwrap_or(UNKNOWN_DISTANCE);
        Some(Report {
            best_move: mv,
            score: Score::from_value(proven(p.result, 0, plies)),
            depth: 0,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            pv: vec![mv],
        })
    }

    /// Iterative deepening from depth 1 within `limit`.
    fn iterate(
        &mut self,
        pos: &G,
        limit: Limit,
        start: Instant,
        root_moves: &[G::Move],
        first: G::Move,
        watch: &mut Watch<'_, G::Move>,
    ) -> Report<G::Move> {
        self.table.new_search();
        self.order.new_search();
        self.nodes = 0;
        self.stopped = false;
        let (max_depth, soft) = match limit {
            Limit::Depth(d) => (d.clamp(1, self.config.max_depth), None),
            Limit::Time(t) => (self.config.max_depth, Some(t / 2)),
            Limit::Nodes(_) => (self.config.max_depth, None),
        };
        self.deadline = match limit {
            Limit::Time(t) => quasar_core::Limit::Time(t).deadline(start),
            _ => None,
        };
        self.node_limit = match limit {
            Limit::Nodes(n) => n.max(1),
            _ => u64::MAX,
        };
        let mut best = (first, 0);
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            self.root_best = None;
            self.iteration = depth;
            self.path.clear();
            let value = self.node(pos, depth, -INFINITY, INFINITY, 0, None);
            if self.stopped {
                // The moves searched before the stop were searched fully; the first was
                // the previous iteration's best, so what was found is at least as good.
                if let Some(b) = self.root_best {
                    if depth_done == 0 || b.0 != best.0 {
                        best = b;
                    }
                }
                break;
            }
            best = (self.root_best.map_or(first, |b| b.0), value);
            depth_done = depth;
            if watch.observed() {
                let info = SearchInfo {
                    depth: Some(depth),
                    simulations: None,
                    nodes: self.nodes,
                    elapsed: start.elapsed(),
                    value: Score::from_value(value).into(),
                    pv: self.principal_variation(pos, best.0, depth),
                    moves: Vec::new(),
                };
                watch.report(&info);
            }
            if value.abs() > PROVEN || (root_moves.len() == 1 && soft.is_some()) {
                break;
            }
            if soft.is_some_and(|s| start.elapsed() >= s) {
                break;
            }
        }
        let pv = self.principal_variation(pos, best.0, depth_done.max(1));
        Report {
            best_move: best.0,
            score: Score::from_value(best.1),
            depth: depth_done,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            pv,
        }
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .external_stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.stopped = true;
        }
    }

    /// The negamax value of `pos` for its side to move, searched `depth` plies deep within
    /// the window (`alpha`, `beta`); `ply` plies below the root. `known` is the position's
    /// evaluation when its parent already scored it with its siblings.
    fn node(
        &mut self,
        pos: &G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        known: Option<i32>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        let side = pos.side_to_move();
        if let Some(o) = pos.outcome() {
            return proven(o.result_for(side), ply, 0);
        }
        let key = pos.hash();
        if ply > 0 {
            // A position repeated along the path (games that cycle) is scored a draw.
            let p = ply as usize;
            if self.path[..p]
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&h| h == key)
            {
                return 0;
            }
            if let Some(v) = self.eval.verdict(pos) {
                return proven(v.result, ply, v.plies);
            }
            if let Some(oracle) = &self.oracle {
                if let Some(p) = oracle.probe_value(pos) {
                    return proven(p.result, ply, p.plies.unwrap_or(UNKNOWN_DISTANCE));
                }
            }
        }
        // At the horizon a position that is not quiet is searched a ply further: its
        // value is about to change in a way the evaluation cannot see. Such a node's
        // value depends on how far its line may still go, so the table neither cuts it
        // nor keeps it.
        let extended =
            depth == 0 && ply < self.iteration + self.config.quiescence && !self.eval.is_quiet(pos);
        let depth = if extended { 1 } else { depth };
        if depth == 0 {
            let v = known.unwrap_or_else(|| self.eval.evaluate(pos));
            return v.clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let mut table_move = None;
        if let Some(e) = self.table.probe(key) {
            table_move = e.mv;
            if ply > 0 && !extended && e.depth as u32 >= depth {
                let v = from_table(e.value, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        let mut scores = std::mem::take(&mut self.scores[p]);
        let mut leaves = std::mem::take(&mut self.leaves[p]);
        // Scored together once a second child is needed: a cut node most often needs
        // one, and one child alone costs the same either way.
        let mut batch = false;
        // The root of a search with moves left out weighs every other move: forced moves
        // would leave nothing to rank once the forced ones are out.
        let every = ply == 0 && !self.exclude.is_empty();
        if every || !self.eval.forced_moves(pos, &mut moves) || moves.is_empty() {
            pos.legal_moves(&mut moves);
        }
        if every {
            moves.retain(|m| !self.exclude.contains(m));
        }
        scores.clear();
        for &mv in &moves {
            let tactical = self.eval.is_tactical(pos, mv);
            scores.push(self.order.score(mv, p, table_move, tactical));
        }
        sort_by_score(&mut moves, &mut scores);
        let alpha_start = alpha;
        // A position without moves that the game does not call over counts as a draw.
        let mut best = if moves.is_empty() { 0 } else { -INFINITY };
        let mut best_move = None;
        self.path.push(key);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            if depth == 1 && i == 1 {
                batch = self.eval.evaluate_children(pos, &moves, &mut leaves);
            }
            let known = batch.then(|| leaves[i]);
            let v = if i == 0 {
                -self.node(&child, depth - 1, -beta, -alpha, ply + 1, known)
            } else {
                let v = -self.node(&child, depth - 1, -alpha - 1, -alpha, ply + 1, known);
                if v > alpha && v < beta && !self.stopped {
                    -self.node(&child, depth - 1, -beta, -alpha, ply + 1, known)
                } else {
                    v
                }
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some((mv, v));
                }
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        let tactical = self.eval.is_tactical(pos, mv);
                        self.order.cutoff(mv, p, depth, tactical);
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.moves[p] = moves;
        self.scores[p] = scores;
        self.leaves[p] = leaves;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        // A root with moves left out has a value that is not the position's.
        if !every && !extended {
            self.table
                .store(key, to_table(best, ply), stored_move, depth, bound);
        }
        best
    }

    /// The best move followed by the table's moves, while they are legal and new.
    fn principal_variation(&self, pos: &G, best: G::Move, max: u32) -> Vec<G::Move> {
        let mut pv = vec![best];
        let mut p = pos.clone();
        p.play(best);
        let mut seen = vec![pos.hash(), p.hash()];
        let mut legal = Vec::new();
        while pv.len() < max as usize && p.outcome().is_none() {
            let Some(mv) = self.table.probe(p.hash()).and_then(|e| e.mv) else {
                break;
            };
            p.legal_moves(&mut legal);
            if !legal.contains(&mv) {
                break;
            }
            p.play(mv);
            if seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
            pv.push(mv);
        }
        pv
    }
}
