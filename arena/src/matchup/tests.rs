//! Tests of matches: pairings, openings, settings, resumed and sharded records.

use super::*;
use breakthrough::{Board, BreakthroughPolicy, Position};
use engine::settings::{PlayoutSettings, TableSpec};
use engine::setup::SetupError;
use quasar_core::Oracle;

/// Breakthrough as the arena's tests see it (the binary registers the real one).
#[derive(Clone, Debug, PartialEq)]
struct TestSetup(Board);

impl GameSetup for TestSetup {
    type Game = Position;
    type Policy = BreakthroughPolicy;
    const NAME: &'static str = "breakthrough";
    fn params(&self) -> String {
        self.0.to_string()
    }
    fn of_position(pos: &Position) -> Self {
        TestSetup(pos.board())
    }
    fn from_params(text: &str) -> Result<Self, SetupError> {
        Ok(TestSetup(text.parse().map_err(
            |e: breakthrough::BoardError| SetupError::Size(e.into()),
        )?))
    }
    fn start(&self) -> Result<Position, SetupError> {
        Position::try_start(self.0).map_err(|e| SetupError::Size(e.into()))
    }
    fn boardsize(&self, _: &[&str]) -> Result<Self, SetupError> {
        Ok(self.clone())
    }
    fn boardsize_command(&self) -> String {
        format!("boardsize {}", self.0.width())
    }
    fn policy(&self, _: &PlayoutSettings) -> Result<BreakthroughPolicy, SetupError> {
        Ok(BreakthroughPolicy::default())
    }
    fn load_oracle(&self, t: &TableSpec) -> Result<Arc<dyn Oracle<Position>>, SetupError> {
        Err(SetupError::Table(
            format!("{}: no tables here", t.path.display()).into(),
        ))
    }
}

fn setup(w: u32, h: u32) -> TestSetup {
    TestSetup(Board::new(w, h).unwrap())
}

#[test]
fn pairings_cover_every_pair_once() {
    assert_eq!(pairings(2), vec![(0, 1)]);
    assert_eq!(pairings(4).len(), 6);
    assert_eq!(pairings(3), vec![(0, 1), (0, 2), (1, 2)]);
}

#[test]
fn openings_are_legal_open_and_repeatable() {
    let s = setup(6, 6);
    for i in 0..20 {
        let o = opening(&s, 4, 7, i).unwrap();
        assert_eq!(o, opening(&s, 4, 7, i).unwrap());
        let mut pos = s.start().unwrap();
        let mut legal = Vec::new();
        for &mv in &o {
            pos.legal_moves(&mut legal);
            assert!(legal.contains(&mv));
            pos.play(mv);
        }
        assert!(pos.outcome().is_none());
    }
    assert_ne!(opening(&s, 4, 7, 0).unwrap(), opening(&s, 4, 7, 1).unwrap());
    assert_eq!(opening(&s, 0, 7, 3).unwrap(), vec![]);
}

#[test]
fn backups_and_priors_need_an_evaluation() {
    // The test setup registers no evaluation: asking for one fails before any game,
    // naming the key; 0 (off) is taken.
    let s = setup(6, 6);
    for (keys, want) in [("imb=0.4", "imb=0.4"), ("prior=5", "prior=5")] {
        let settings = engine::settings::EngineSettings::parse_keys(keys).unwrap();
        let e = match engine::mcts_player::MctsFactory::new(settings.clone(), &s) {
            Ok(_) => panic!("{keys} was taken"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(want) && e.contains("needs an evaluation"), "{e}");
        assert!(s.searcher(&settings, 0).is_err());
    }
    let off = engine::settings::EngineSettings::parse_keys("imb=0,prior=0").unwrap();
    assert!(engine::mcts_player::MctsFactory::new(off, &s).is_ok());
}

#[test]
fn a_board_without_a_start_is_an_error_not_a_panic() {
    let e = opening(&setup(5, 3), 2, 1, 0).unwrap_err();
    assert!(matches!(e, MatchError::Setup(SetupError::Size(_))), "{e}");
    assert!(e.to_string().contains("no start position"), "{e}");
}

/// Records what a match reports, in order.
#[derive(Default)]
struct Reports(Mutex<Vec<String>>);

impl Progress for Reports {
    fn begin(&self, what: &str, total: u64) {
        self.0.lock().unwrap().push(format!("begin {what} {total}"));
    }
    fn advance(&self, units: u64) {
        self.0.lock().unwrap().push(format!("advance {units}"));
    }
    fn status(&self, what: &str, done: u64, total: u64) {
        self.0
            .lock()
            .unwrap()
            .push(format!("status {what} {done}/{total}"));
    }
    fn end(&self) {
        self.0.lock().unwrap().push("end".into());
    }
}

#[test]
fn a_match_reports_its_games_and_a_resumed_one_starts_at_its_record() {
    let dir = std::env::temp_dir().join(format!("quasar-match-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.jsonl");
    let cfg = |games| MatchConfig {
        setup: setup(4, 4),
        games,
        limit: Limit::Count(1),
        clock: None,
        tolerance: Duration::from_secs(1),
        sims_safeguard: Duration::from_secs(10),
        opening_plies: 0,
        book: None,
        seed: 1,
        jobs: 2,
        ply_cap: 1000,
        sprt: None,
        shard: Shard::WHOLE,
        adjudicator: None,
        value_rules: ValueRules::default(),
        interrupt: None,
    };
    let players: Vec<Contestant<Position>> = (1..=2)
        .map(|k| Contestant {
            spec: format!("random:seed={k}"),
            factory: Arc::new(engine::random_player::RandomFactory::new(Some(k))),
        })
        .collect();
    let first = Reports::default();
    run_match(&cfg(2), &players, &record, &first).unwrap();
    let got = first.0.into_inner().unwrap();
    assert_eq!(got, ["begin games 2", "advance 1", "advance 1", "end"]);
    // Four games on the same record: the two played are done from the start.
    let second = Reports::default();
    let outcome = run_match(&cfg(4), &players, &record, &second).unwrap();
    assert_eq!((outcome.resumed, outcome.played), (2, 2));
    let got = second.0.into_inner().unwrap();
    assert_eq!(
        got,
        [
            "begin games 4",
            "status games 2/4",
            "advance 1",
            "advance 1",
            "end"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
