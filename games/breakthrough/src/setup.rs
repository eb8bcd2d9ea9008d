//! Breakthrough's setup: its board sizes, start, `boardsize`, playout policy, row-limited
//! tables as oracles (opened once per process), evaluations and engines' defaults.

use crate::tablebase::Tablebase;
use crate::{Board, BreakthroughEval, BreakthroughPolicy, Position};
use engine::ab_player::AbEval;
use engine::engine::DefaultEngine;
use engine::net::NetSpec;
use engine::settings::{PlayoutKind, PlayoutSettings, ProbeRule, TableSpec};
use engine::setup::{GameSetup, OptionHelp, Picture, SetupError};
use mcts::Leaf;
use quasar_core::{Evaluation, Game, Oracle, Outcome, Side};
use quasar_file::cache::DEFAULT_CACHE_BYTES;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// Breakthrough on one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakthroughSetup {
    /// The board.
    pub board: Board,
}

impl BreakthroughSetup {
    /// Breakthrough on a `width x height` board (sizes known to be legal).
    pub fn sized(width: u32, height: u32) -> BreakthroughSetup {
        BreakthroughSetup {
            board: Board::new(width, height).expect("a legal Breakthrough board"),
        }
    }
}

/// 6x6, the size every command starts from.
impl Default for BreakthroughSetup {
    fn default() -> Self {
        BreakthroughSetup::sized(6, 6)
    }
}

impl GameSetup for BreakthroughSetup {
    type Game = Position;
    type Policy = BreakthroughPolicy;

    const NAME: &'static str = "breakthrough";

    fn params(&self) -> String {
        self.board.to_string()
    }

    /// Its defaults as the methods below choose them, by board (see each), and what its
    /// tables, verdicts and tree nodes are.
    fn option_help() -> &'static [OptionHelp] {
        const HELP: &[OptionHelp] = &[
            OptionHelp::default_of(
                "engine",
                "mcts, but ab with --eval mcts from 8 rows on boards without a shipped model \
                     (8x8 has one)",
            ),
            OptionHelp::note("table-cache", "a part is a slice"),
            OptionHelp::note("rule", "race is the thesis' race rule"),
            OptionHelp::default_of("every", "1 up to 7 rows, 0 from 8"),
            OptionHelp::default_of(
                "c",
                "0.4, from 8 rows up with --leaf eval 0.8 with a learned model and 0.2 \
                     without",
            ),
            OptionHelp::note(
                "eval",
                "MCTS's also weighs each piece on its home row, and on 8x8 alpha-beta with \
                     it is the strongest alpha-beta found",
            ),
            OptionHelp::note("nodes", "24 bytes each"),
            OptionHelp::default_of("imb", "0.25, 0.4 from 8 rows up"),
            OptionHelp::default_of("prior", "10, 30 from 8 rows up"),
            OptionHelp::note("net", "models shipped for 6x6 and 8x8"),
            OptionHelp::default_of(
                "leaf",
                "eval with a learned model or from 8 rows up, else playout",
            ),
            OptionHelp::note(
                "verdicts",
                "a win on the next move, a threat no capture answers",
            ),
        ];
        HELP
    }

    fn of_position(pos: &Position) -> Self {
        BreakthroughSetup { board: pos.board() }
    }

    fn from_params(text: &str) -> Result<Self, SetupError> {
        let board: Board = text.parse().map_err(|e| SetupError::Size(Box::new(e)))?;
        Ok(BreakthroughSetup { board })
    }

    fn picture(&self) -> Option<Picture> {
        let (w, h) = (self.board.width(), self.board.height());
        Some(Picture {
            cells: (0..h)
                .flat_map(|y| (0..w).map(move |x| [x as f64, y as f64]))
                .collect(),
            shape: "square",
            background: Vec::new(),
            colours: ["#f4f1e8", "#2b2b2b"],
            labels: (0..h)
                .rev()
                .flat_map(|row| {
                    (0..w).map(move |col| format!("{}{}", (b'a' + col as u8) as char, row + 1))
                })
                .collect(),
        })
    }

    fn cells(&self, pos: &Position) -> String {
        let b = self.board;
        // The picture's rows run from the top, Black's home row.
        (0..b.height())
            .rev()
            .flat_map(|row| (0..b.width()).map(move |col| 1u64 << b.square(col, row)))
            .map(|bit| {
                if pos.white() & bit != 0 {
                    'a'
                } else if pos.black() & bit != 0 {
                    'b'
                } else {
                    '.'
                }
            })
            .collect()
    }

    fn start(&self) -> Result<Position, SetupError> {
        Position::try_start(self.board).map_err(|e| SetupError::Size(e.into()))
    }

    fn boardsize(&self, args: &[&str]) -> Result<Self, SetupError> {
        let text = match args {
            [n] if n.contains(['x', 'X']) => n.to_string(),
            [n] => format!("{n}x{n}"),
            [w, h] => format!("{w}x{h}"),
            _ => {
                return Err(SetupError::Boardsize(
                    "boardsize takes N (an NxN board) or W H (columns and rows)".into(),
                ))
            }
        };
        let board: Board = text
            .parse()
            .map_err(|e: crate::BoardError| SetupError::Size(e.into()))?;
        let setup = BreakthroughSetup { board };
        setup.start()?;
        Ok(setup)
    }

    fn evaluation(&self) -> Option<Arc<dyn Evaluation<Position>>> {
        Some(Arc::new(BreakthroughEval::new(self.board)))
    }

    /// Alpha-beta's evaluation with each piece on its home row weighted
    /// (`crate::eval::HOME`).
    fn mcts_evaluation(&self) -> Option<Arc<dyn Evaluation<Position>>> {
        Some(Arc::new(BreakthroughEval::for_mcts(self.board)))
    }

    /// The n-tuple network's features of the board.
    fn features(&self) -> Option<Arc<dyn learn::Features<Position>>> {
        Some(Arc::new(crate::features::NTuple::new(self.board)))
    }

    /// The models shipped for 6x6 and 8x8.
    fn builtin_net(&self) -> Option<&'static [u8]> {
        crate::features::builtin_model(self.board)
    }

    /// The shipped models where they won their matches (6x6 and 8x8, docs/results.md);
    /// elsewhere the hand-written evaluation.
    fn default_net(&self) -> NetSpec {
        match (self.board.width(), self.board.height(), self.builtin_net()) {
            (6, 6, Some(_)) | (8, 8, Some(_)) => NetSpec::Builtin,
            _ => NetSpec::Off,
        }
    }

    /// The leaf's value: with a learned evaluation it beat the playout on 6x6, and with the
    /// hand-written one on 8x8 (docs/results.md).
    fn default_leaf(&self, learned: bool) -> Leaf {
        if learned || self.board.height() >= 8 {
            Leaf::Evaluation
        } else {
            Leaf::Playout
        }
    }

    fn boardsize_command(&self) -> String {
        // GTP's boardsize takes one number; other shapes are sent as width and height.
        let (w, h) = (self.board.width(), self.board.height());
        if w == h {
            format!("boardsize {w}")
        } else {
            format!("boardsize {w} {h}")
        }
    }

    fn policy(&self, p: &PlayoutSettings) -> Result<BreakthroughPolicy, SetupError> {
        Ok(match p.kind.unwrap_or(PlayoutKind::Policy) {
            PlayoutKind::Uniform => BreakthroughPolicy::uniform(),
            PlayoutKind::Policy => {
                let d = BreakthroughPolicy::default();
                BreakthroughPolicy {
                    win_in_one: p.win_in_one.unwrap_or(d.win_in_one),
                    stop_threats: p.stop_threats.unwrap_or(d.stop_threats),
                    capture_weight: p.capture_weight.unwrap_or(d.capture_weight),
                    eval_after: match p.eval_after {
                        None => d.eval_after,
                        Some(0) => None,
                        Some(n) => Some(n),
                    },
                    home: d.home,
                }
            }
        })
    }

    /// MCTS, except from 8 rows up without a shipped model, where alpha-beta with MCTS's
    /// evaluation beat MCTS with the hand-written one clearly. On 8x8, MCTS with the shipped
    /// model and wider exploration beat that alpha-beta (docs/results.md).
    fn default_engine(&self) -> DefaultEngine {
        if self.board.height() >= 8 && matches!(self.default_net(), NetSpec::Off) {
            DefaultEngine::AlphaBeta(AbEval::Mcts)
        } else {
            DefaultEngine::Mcts
        }
    }

    /// Exploration 0.4: at 20,000 simulations it beat 0.7 by 65.5% on 8x8 and 55.5% on 6x6
    /// (200 games each; docs/results/archive/strength-breakthrough.md). From 8 rows up
    /// with the leaves scored by the hand-written evaluation, 0.2: its scores against
    /// alpha-beta peaked there. From 8 rows up with a learned model, 0.8: the model's
    /// values are sharper than the hand-written ones, and with 0.2 the search followed one
    /// line deep and lost to alpha-beta where 0.8 beat it (docs/results.md).
    fn default_c(&self, leaf: Leaf, learned: bool) -> f64 {
        match (leaf, learned, self.board.height() >= 8) {
            (Leaf::Evaluation, true, true) => 0.8,
            (Leaf::Evaluation, false, true) => 0.2,
            _ => 0.4,
        }
    }

    /// Implicit minimax backups with priors of 10 visits: together, at 20,000 simulations
    /// on 6x6, they scored 69.0% against depth-7 alpha-beta where the search without them
    /// scored 41.0%. The weight is 0.4 from 8 rows up (tuned on 8x8) and 0.25 below: on
    /// 6x6 at 40,000 simulations against depth 9, 0.25 scored 64.5% where 0.4 scored 53.5%
    /// (400 games each; docs/results/archive/strength-breakthrough.md).
    fn default_imb(&self) -> f64 {
        if self.board.height() >= 8 {
            0.4
        } else {
            0.25
        }
    }

    /// See [`Self::default_imb`]. From 8 rows up 30: on 8x8, with the leaves scored by
    /// the evaluation, priors of 30 visits beat 10 by 151 - 49 at 100 ms a move, and scored
    /// as much against alpha-beta with the home row (200 games each; docs/results.md).
    fn default_prior(&self) -> u32 {
        if self.board.height() >= 8 {
            30
        } else {
            10
        }
    }

    /// Every ply up to 7 rows, expansion only from 8: on 6x6 every ply beat expansion only
    /// 135-65, on 8x8 at 100 ms expansion only beat every ply by far (docs/results/archive/tables-in-matches.md).
    fn default_oracle_every(&self) -> u32 {
        if self.board.height() >= 8 {
            0
        } else {
            1
        }
    }

    fn load_oracle(&self, table: &TableSpec) -> Result<Arc<dyn Oracle<Position>>, SetupError> {
        // The race rule only steers playouts: the table never proves a node with it.
        let race = table.rule == ProbeRule::Race;
        let cache = table.cache_bytes.unwrap_or(DEFAULT_CACHE_BYTES);
        Ok(shared_table(&table.path, self.board, race, cache)
            .map_err(|e| SetupError::Table(e.into()))?)
    }

    fn diagram(&self, pos: &Position) -> String {
        pos.diagram()
    }

    fn end_detail(&self, pos: &Position) -> Option<String> {
        let board = pos.board();
        Some(match pos.outcome()? {
            Outcome::Win(Side::First) if pos.white() & board.last_row() != 0 => {
                "White reached the far row".into()
            }
            Outcome::Win(Side::Second) if pos.black() & board.first_row() != 0 => {
                "Black reached the far row".into()
            }
            Outcome::Win(w) if pos.pieces(w.opponent()) == 0 => {
                format!("{} lost its last piece", Position::side_name(w.opponent()))
            }
            Outcome::Win(w) => format!("{} had no legal move", Position::side_name(w.opponent())),
            Outcome::Draw => "drawn by the rules".into(),
        })
    }
}

/// The table at `path` for `board`, opened once per process, rule and cache size (a
/// compressed table larger than `cache` bytes is read through a cache of that size) while
/// an engine holds it: engines naming the same table share its answer cache, its block
/// cache and its slices' memory maps (a full 8x8 sliced table maps up to 32,896 files per
/// opening, and the system limits a process' maps to about 65,000).
fn shared_table(
    path: &Path,
    board: Board,
    race: bool,
    cache: u64,
) -> Result<Arc<Tablebase>, crate::tablebase::TableFileError> {
    type Open = Vec<(PathBuf, Board, bool, u64, Weak<Tablebase>)>;
    static OPEN: Mutex<Open> = Mutex::new(Vec::new());
    // A poisoned lock only means another engine's opening panicked: the list is still sound.
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    open.retain(|(.., held)| held.strong_count() > 0);
    let same = |(p, b, r, c, _): &&(PathBuf, Board, bool, u64, Weak<Tablebase>)| {
        p == path && *b == board && *r == race && *c == cache
    };
    if let Some(tb) = open.iter().find(same).and_then(|(.., held)| held.upgrade()) {
        return Ok(tb);
    }
    let tb = Tablebase::open_for(path, board)?
        .with_race_guess(race)
        .with_table_cache(cache);
    let tb = Arc::new(tb);
    warn_if_incomplete(path, &tb);
    open.push((path.to_path_buf(), board, race, cache, Arc::downgrade(&tb)));
    Ok(tb)
}

/// Says once per process and table, on standard error, that a sliced table at `path` is
/// incomplete or has a slice cut short, and which: a search uses it only where it is intact.
pub fn warn_if_incomplete(path: &Path, tb: &Tablebase) {
    if let Some(e) = tb.incomplete() {
        engine::warn::warn_incomplete(path, &e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::{build_slices, Region, Silent, SlicedTable};
    use engine::settings::EngineSettings;
    use quasar_core::Selection;

    fn setup(w: u32, h: u32) -> BreakthroughSetup {
        BreakthroughSetup::sized(w, h)
    }

    #[test]
    fn an_alpha_beta_player_searches_with_its_own_evaluation_or_that_of_mcts() {
        let s = setup(6, 6);
        let name = |keys: &str| {
            let settings = engine::ab_player::AbSettings::parse_keys(keys).unwrap();
            settings.searcher(&s).unwrap().evaluation_name()
        };
        assert_eq!(name(""), "efms+safety");
        assert_eq!(name("eval=ab"), "efms+safety");
        assert_eq!(name("eval=mcts"), "efms+safety+home");
    }

    #[test]
    fn boardsize_takes_n_or_w_h_and_refuses_boards_without_a_start() {
        let s = setup(8, 8);
        assert_eq!(s.boardsize(&["6"]).unwrap(), setup(6, 6));
        assert_eq!(s.boardsize(&["5", "7"]).unwrap(), setup(5, 7));
        assert_eq!(s.boardsize(&["5x7"]).unwrap(), setup(5, 7));
        for bad in [
            &["3"][..],
            &["5", "3"],
            &["9"],
            &["x"],
            &[],
            &["4", "4", "4"],
        ] {
            assert!(s.boardsize(bad).is_err(), "{bad:?}");
        }
        assert!(s
            .boardsize(&["3"])
            .unwrap_err()
            .to_string()
            .contains("no start position"));
        assert_eq!(setup(6, 6).boardsize_command(), "boardsize 6");
        assert_eq!(setup(5, 7).boardsize_command(), "boardsize 5 7");
    }

    #[test]
    fn engines_naming_the_same_table_and_rule_share_one_opening() {
        let dir = std::env::temp_dir().join(format!("quasar-shared-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("4x4-r3.d");
        let region = Region::new(Board::new(4, 4).unwrap(), 3).unwrap();
        let table = SlicedTable::create(&path, &region).unwrap();
        let plan = table.slicing().plan();
        let names = plan.select(&Selection::All).unwrap();
        build_slices(&table, &names, &Silent, |_| {}).unwrap();
        let s = setup(4, 4);
        let spec = |rule| TableSpec {
            path: path.clone(),
            rule,
            cache_bytes: None,
        };
        let (a, b) = (
            s.load_oracle(&spec(ProbeRule::Sound)),
            s.load_oracle(&spec(ProbeRule::Sound)),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        let race = s.load_oracle(&spec(ProbeRule::Race)).unwrap();
        assert!(!Arc::ptr_eq(&a, &race));
        // Another board is refused as before, not handed the open table.
        assert!(setup(5, 4).load_oracle(&spec(ProbeRule::Sound)).is_err());
        // The list holds no table alive: once the engines drop it, it is freed.
        assert_eq!(Arc::strong_count(&a), 2);
        drop((a, b));
        let again = s.load_oracle(&spec(ProbeRule::Sound)).unwrap();
        assert_eq!(Arc::strong_count(&again), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tables_are_probed_every_ply_on_short_boards_and_at_expansion_on_tall_ones() {
        let every = |w, h| {
            let s = setup(w, h);
            let c =
                EngineSettings::default().config((), 0, s.search_defaults(Leaf::Playout, false));
            c.oracle_in_playouts.map_or(0, |k| k.get())
        };
        assert_eq!((every(6, 6), every(5, 7)), (1, 1));
        assert_eq!((every(8, 8), every(7, 8)), (0, 0));
        let set = EngineSettings::parse_keys("tb=t.qtb,every=2").unwrap();
        assert_eq!(
            set.config((), 0, setup(8, 8).search_defaults(Leaf::Playout, false))
                .oracle_in_playouts
                .map(|k| k.get()),
            Some(2)
        );
    }

    #[test]
    fn tall_boards_score_leaves_by_the_evaluation_with_their_own_exploration() {
        let leaf_and_c = |w, h, keys: &str| {
            let s = setup(w, h);
            let set = EngineSettings::parse_keys(keys).unwrap();
            let u = s.evaluation_use(&set).unwrap();
            let c = set.config((), 0, s.search_defaults(u.leaf, u.learned)).c;
            (u.leaf, c)
        };
        // 8x8 searches with its learned model and wide exploration, or with the
        // hand-written evaluation and narrow exploration.
        assert_eq!(leaf_and_c(8, 8, ""), (Leaf::Evaluation, 0.8));
        assert_eq!(leaf_and_c(8, 8, "net=off"), (Leaf::Evaluation, 0.2));
        assert_eq!(leaf_and_c(8, 8, "leaf=playout"), (Leaf::Playout, 0.4));
        assert_eq!(leaf_and_c(8, 8, "c=0.3"), (Leaf::Evaluation, 0.3));
        // 6x6 scores its leaves by its learned model, with the usual exploration.
        assert_eq!(leaf_and_c(6, 6, ""), (Leaf::Evaluation, 0.4));
        assert_eq!(leaf_and_c(6, 6, "net=off"), (Leaf::Playout, 0.4));
    }

    #[test]
    fn backups_and_priors_use_breakthroughs_evaluation_and_are_on_by_default() {
        let s = setup(6, 6);
        let on = EngineSettings::parse_keys("imb=0.4,prior=5").unwrap();
        let u = s.evaluation_use(&on).unwrap();
        assert!(u.evaluation.is_some());
        assert_eq!((u.imb, u.prior), (0.4, 5));
        let mut searcher = s.searcher(&on, 1).unwrap();
        assert_eq!(searcher.config().imb, 0.4);
        let r = searcher.search(&s.start().unwrap(), quasar_core::Limit::Count(300));
        assert_eq!(r.simulations, 300);
        assert!(r.best_move.is_some());
        // Together they won clearly against alpha-beta: the default player uses both.
        let d = s.evaluation_use(&EngineSettings::default()).unwrap();
        assert!(d.evaluation.is_some());
        assert_eq!((d.imb, d.prior), (0.25, 10));
        // The weights and priors measured best on each board: 0.25 and 10 on 6x6, 0.4 and
        // 30 on 8x8.
        let d8 = setup(8, 8)
            .evaluation_use(&EngineSettings::default())
            .unwrap();
        assert_eq!((d8.imb, d8.prior), (0.4, 30));
        let off = EngineSettings::parse_keys("imb=0,prior=0").unwrap();
        assert!(s.evaluation_use(&off).unwrap().evaluation.is_none());
    }

    #[test]
    fn forced_result_checks_alone_read_the_evaluation_but_score_leaves_by_playouts() {
        let s = setup(8, 8);
        // The checks search with the evaluation's verdicts; its values serve nothing, so
        // leaves keep their playouts and a leaf scored by the evaluation is refused.
        let only = EngineSettings::parse_keys("imb=0,prior=0,check=20/4").unwrap();
        let u = s.evaluation_use(&only).unwrap();
        assert!(u.evaluation.is_some());
        assert_eq!(u.leaf, Leaf::Playout);
        let eval_leaf = EngineSettings::parse_keys("imb=0,prior=0,check=20/4,leaf=eval").unwrap();
        assert!(s.evaluation_use(&eval_leaf).is_err());
        let mut searcher = s.searcher(&only, 1).unwrap();
        assert_eq!(
            searcher.config().check,
            Some(mcts::Check {
                after: 20,
                depth: 4
            })
        );
        let r = searcher.search(&s.start().unwrap(), quasar_core::Limit::Count(300));
        assert_eq!(r.simulations, 300);
    }

    #[test]
    fn the_guard_plays_forced_wins_and_vetoes_only_moves_alpha_beta_proves_lost() {
        use alphabeta::{AlphaBeta, Limit, Score};
        use quasar_core::GameResult;
        use rand::{RngExt, SeedableRng};
        let s = setup(6, 6);
        let guarded = EngineSettings::parse_keys("guard=0.3").unwrap();
        let plain = EngineSettings::parse_keys("guard=0").unwrap();
        let mut check = AlphaBeta::new(alphabeta::Config::default(), s.evaluation().unwrap());
        let mut win_check = check.fresh();
        // Lost: the opponent, to move after `mv`, forces a win within six plies.
        let mut lost = |pos: &Position, mv| {
            let mut child = *pos;
            child.play(mv);
            child.outcome().is_none()
                && matches!(
                    check.search(&child, Limit::Depth(6)).unwrap().score,
                    Score::Proven {
                        result: GameResult::Win,
                        ..
                    }
                )
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut vetoed, mut won, mut moves) = (0, 0, Vec::new());
        for _ in 0..400 {
            let mut pos = s.start().unwrap();
            for _ in 0..rng.random_range(8..20) {
                pos.legal_moves(&mut moves);
                if pos.outcome().is_some() {
                    break;
                }
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
            if pos.outcome().is_some() {
                continue;
            }
            let budget = quasar_core::Limit::Count(20);
            let g = s.searcher(&guarded, 1).unwrap().search(&pos, budget);
            let p = s.searcher(&plain, 1).unwrap().search(&pos, budget);
            // The same tree under both: a different move is a forced win that alpha-beta
            // found, or a veto.
            if g.best_move != p.best_move {
                let mut child = pos;
                child.play(g.best_move.unwrap());
                let wins = child.outcome().is_some()
                    || matches!(
                        win_check.search(&child, Limit::Depth(6)).unwrap().score,
                        Score::Proven {
                            result: GameResult::Loss,
                            ..
                        }
                    );
                if wins {
                    won += 1;
                    assert_eq!(g.proven.map(|p| p.result), Some(GameResult::Win), "{pos}");
                } else {
                    vetoed += 1;
                    assert!(lost(&pos, p.best_move.unwrap()), "{pos}");
                    assert!(!lost(&pos, g.best_move.unwrap()), "{pos}");
                }
            }
        }
        assert!(
            vetoed > 0 && won > 0,
            "20 simulations blunder and miss a win somewhere in 400 positions: {vetoed} vetoes, {won} wins"
        );
        assert_eq!(s.searcher(&guarded, 1).unwrap().guard_share(), 0.3);
        assert_eq!(s.searcher(&plain, 1).unwrap().guard_share(), 0.0);
    }

    #[test]
    fn the_policy_follows_the_switches() {
        let s = setup(6, 6);
        let full = s.policy(&PlayoutSettings::default()).unwrap();
        assert_eq!(full, BreakthroughPolicy::default());
        let uniform = PlayoutSettings {
            kind: Some(PlayoutKind::Uniform),
            ..PlayoutSettings::default()
        };
        assert_eq!(s.policy(&uniform).unwrap(), BreakthroughPolicy::uniform());
        let tuned = PlayoutSettings {
            eval_after: Some(0),
            capture_weight: Some(2),
            win_in_one: Some(false),
            ..PlayoutSettings::default()
        };
        let p = s.policy(&tuned).unwrap();
        assert_eq!(
            (p.eval_after, p.capture_weight, p.win_in_one, p.stop_threats),
            (None, 2, false, true)
        );
    }

    #[test]
    fn games_end_in_the_games_own_words() {
        let s = setup(4, 4);
        let goal = Position::from_fen("W3/4/1B2/4 b").unwrap();
        assert_eq!(s.end_detail(&goal).unwrap(), "White reached the far row");
        let captured = Position::from_fen("4/4/1W2/4 b").unwrap();
        assert_eq!(
            s.end_detail(&captured).unwrap(),
            "Black lost its last piece"
        );
        assert_eq!(s.end_detail(&s.start().unwrap()), None);
    }
}
