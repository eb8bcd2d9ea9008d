//! Tests of engine settings: every key read and printed back, the config, the refusals.

use super::*;

/// The defaults of a game whose playouts consult a table at every `k`-th turn.
fn every(k: u32) -> SearchDefaults {
    SearchDefaults {
        oracle_every: k,
        ..SearchDefaults::default()
    }
}
use std::time::Duration;

#[test]
fn every_key_reads_and_prints_back() {
    let text = "tb=t.qtb,table-cache=0.5,rule=race,c=0.4,playout=uniform,time=250ms,threads=2,parallel=tree,\
                nodes=5000,seed=9,every=4,probe-children=next-visit,eval-after=0,capture-weight=2,\
                win-in-one=off,stop-threats=on,imb=0.4,imb-decided=0.95,prior=20,prior-depth=2,verdicts=off";
    let s = EngineSettings::parse_keys(text).unwrap();
    assert_eq!(
        s.table_spec(),
        Some(TableSpec {
            path: "t.qtb".into(),
            rule: ProbeRule::Race,
            cache_bytes: Some(512 << 10),
        })
    );
    assert_eq!(s.limit, Some(Limit::Time(Duration::from_millis(250))));
    assert_eq!(s.playout.eval_after, Some(0));
    assert_eq!(s.playout.win_in_one, Some(false));
    assert_eq!((s.imb, s.prior), (Some(0.4), Some(20)));
    assert_eq!(s.prior_depth, Some(2));
    assert_eq!(s.imb_decided, Some(Some(0.95)));
    assert_eq!(
        s.config((), 1, SearchDefaults::default()).imb_decided,
        Some(0.95)
    );
    let off = EngineSettings::parse_keys("imb-decided=off").unwrap();
    assert_eq!(off.imb_decided, Some(None));
    assert_eq!(off.to_string(), "imb-decided=off");
    assert_eq!(s.config((), 1, SearchDefaults::default()).prior_depth, 2);
    assert_eq!(
        (
            s.config((), 1, SearchDefaults::default()).imb,
            s.config((), 1, SearchDefaults::default()).prior
        ),
        (0.4, 20)
    );
    assert_eq!(
        s.config((), 1, SearchDefaults::default()).child_probes,
        ChildProbes::NextVisit
    );
    let d = EngineSettings::default().config((), 1, SearchDefaults::default());
    assert_eq!(d.child_probes, ChildProbes::Expansion);
    assert_eq!(s.to_string(), text.replace(' ', ""));
    assert_eq!(EngineSettings::parse_keys(&s.to_string()).unwrap(), s);
    assert_eq!(
        EngineSettings::parse_keys("").unwrap(),
        EngineSettings::default()
    );
}

#[test]
fn the_config_takes_what_is_set_and_defaults_the_rest() {
    let s = EngineSettings::parse_keys("tb=t,c=0.3,nodes=4000,parallel=tree,every=0").unwrap();
    let c = s.config("policy", 77, every(1));
    assert_eq!(
        (c.c, c.node_budget, c.parallelism),
        (0.3, 4000, Parallelism::Tree)
    );
    assert_eq!(
        (c.oracle_in_playouts, c.seed, c.playout),
        (None, 77, "policy")
    );
    let d = EngineSettings::default().config((), 5, every(1));
    let want = Config::<()>::default();
    assert_eq!(
        (d.c, d.node_budget, d.threads),
        (want.c, want.node_budget, 1)
    );
    assert_eq!(d.oracle_in_playouts, want.oracle_in_playouts);
    let by_game = EngineSettings::default().config((), 5, every(0));
    assert_eq!(
        by_game.oracle_in_playouts, None,
        "the game's default when unset"
    );
    let set = EngineSettings::parse_keys("tb=t,every=3")
        .unwrap()
        .config((), 5, every(0));
    assert_eq!(
        set.oracle_in_playouts,
        NonZeroU32::new(3),
        "a set key beats the game"
    );
    let fixed = EngineSettings::parse_keys("seed=3")
        .unwrap()
        .config((), 5, every(1));
    assert_eq!(fixed.seed, 3);
}

#[test]
fn bad_settings_say_why() {
    let cases = [
        ("depth=3", "unknown key 'depth'"),
        ("c=fast", "c=fast"),
        ("c=-1", "from 0 to 100"),
        (
            "c=1e300",
            "c=1e300: the exploration constant must be a number from 0 to 100",
        ),
        ("c=100.5", "from 0 to 100"),
        ("c=NaN", "from 0 to 100"),
        ("playout=smart", "playout=uniform or playout=full"),
        ("time=100", "no unit"),
        ("time=100ms,sims=5", "conflicts"),
        ("sims=0", "at least one simulation"),
        ("threads=0", "threads=0"),
        ("nodes=10", "at least 1000"),
        ("parallel=both", "parallel=root or parallel=tree"),
        ("win-in-one=maybe", "on or off"),
        ("tb", "not key=value"),
        ("tb=a,tb=b", "twice"),
        ("rule=race", "needs a tablebase"),
        ("rule=sound", "needs a tablebase"),
        ("every=4", "needs a tablebase"),
        ("probe-children=expansion", "needs a tablebase"),
        (
            "tb=x,probe-children=never",
            "expansion, next-visit or first-visit",
        ),
        ("tb=x,every=-1", "every=-1"),
        ("capture-weight=0", "1 to 1000"),
        ("imb=-0.1", "from 0 to 1"),
        ("imb=1.5", "from 0 to 1"),
        ("imb=NaN", "from 0 to 1"),
        ("imb=much", "imb=much"),
        ("prior=-3", "prior=-3"),
        ("prior=20000", "at most 10000"),
        ("prior-depth=5", "at most 4 plies"),
        ("prior-depth=-1", "prior-depth=-1"),
        ("prior-depth=deep", "prior-depth=deep"),
        ("imb=0.4,imb=0.3", "twice"),
        ("imb-decided=0.4", "from 0.5 to 1"),
        ("imb-decided=1.5", "from 0.5 to 1"),
        ("imb-decided=NaN", "from 0.5 to 1"),
        ("imb-decided=on", "from 0.5 to 1"),
        ("guard=0.95", "from 0 to 0.9"),
        ("guard=-0.2", "from 0 to 0.9"),
        ("guard=NaN", "from 0 to 0.9"),
        ("guard=some", "guard=some"),
    ];
    for (text, want) in cases {
        let e = EngineSettings::parse_keys(text)
            .expect_err(text)
            .to_string();
        assert!(e.contains(want), "{text}: '{e}' should mention '{want}'");
    }
}
