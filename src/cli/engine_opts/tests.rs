//! The engine options' parsing: flags, their hidden aliases, and their agreement with the
//! player specs' keys.

use super::*;
use clap::Parser;
use mcts::Config;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    engine: EngineArgs,
}

fn settings(args: &[&str]) -> Result<EngineSettings, clap::Error> {
    Cli::try_parse_from(std::iter::once("quasar").chain(args.iter().copied()))
        .map(|c| c.engine.settings())
}

#[test]
fn the_flags_defaults_are_the_search_defaults() {
    let s = settings(&[]).unwrap();
    let ours = s.config((), 0, engine::settings::SearchDefaults::default());
    let theirs = Config::<()>::default();
    assert_eq!(
        (ours.c, ours.node_budget, ours.threads),
        (theirs.c, theirs.node_budget, theirs.threads)
    );
    assert_eq!(
        (ours.parallelism, ours.seed),
        (theirs.parallelism, theirs.seed)
    );
    assert_eq!(ours.oracle_in_playouts, theirs.oracle_in_playouts);
    assert_eq!(s.playout.eval_after, None, "the game's own default");
}

#[test]
fn flags_and_spec_keys_build_the_same_settings() {
    let flags = settings(&[
        "--sims",
        "300",
        "--c",
        "0.4",
        "--nodes",
        "5000",
        "--parallel",
        "tree",
        "--threads",
        "2",
        "--eval-after",
        "0",
        "--no-win-in-one",
        "--tb",
        "t.qtb",
        "--race",
        "--seed",
        "3",
        "--oracle-every",
        "2",
        "--playout",
        "uniform",
        "--imb",
        "0.25",
        "--prior",
        "8",
    ])
    .unwrap();
    let spec = EngineSettings::parse_keys(
        "sims=300,c=0.4,nodes=5000,parallel=tree,threads=2,eval-after=0,win-in-one=off,\
         tb=t.qtb,rule=race,seed=3,every=2,playout=uniform,imb=0.25,prior=8",
    )
    .unwrap();
    assert_eq!(flags, spec);
}

#[test]
fn every_mcts_key_is_a_flag_of_the_same_name() {
    let samples = [
        ("tb", "t.qtb"),
        ("table-cache", "0.5"),
        ("rule", "race"),
        ("every", "2"),
        ("c", "0.4"),
        ("playout", "uniform"),
        ("time", "250ms"),
        ("sims", "9"),
        ("quiesce", "4"),
        ("threads", "2"),
        ("parallel", "tree"),
        ("nodes", "5000"),
        ("seed", "3"),
        ("eval-after", "0"),
        ("capture-weight", "2"),
        ("win-in-one", "off"),
        ("stop-threats", "off"),
        ("probe-children", "next-visit"),
        ("imb", "0.4"),
        ("imb-decided", "0.95"),
        ("prior", "20"),
        ("prior-depth", "2"),
        ("net", "m.qsrmodel"),
        ("leaf", "eval"),
        ("expand-after", "3"),
        ("verdicts", "off"),
        ("guard", "0.3"),
        ("check", "20/4"),
    ];
    // tc= is a clock in an arena's games, which a single search has no use for.
    let keys: Vec<&str> = engine::settings::KEYS
        .split(", ")
        .filter(|&k| k != "tc")
        .collect();
    let named: Vec<&str> = samples.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, named, "a sample for every key, in the keys' order");
    for (key, value) in samples {
        let flag = format!("--{key}");
        let mut args = vec![flag.as_str(), value];
        if key != "tb" {
            args.extend(["--tb", "t.qtb"]);
        }
        let s = settings(&args).unwrap_or_else(|e| panic!("{flag}: {e}"));
        let text = s.to_string();
        let want = format!("{key}={value}");
        assert!(text.split(',').any(|kv| kv == want), "{flag}: {text}");
    }
}

#[test]
fn the_old_flag_names_are_the_new_ones() {
    let tb = ["--tb", "t.qtb"];
    for (old, new) in [
        (&["--no-win-in-one"][..], &["--win-in-one", "off"][..]),
        (&["--no-stop-threats"], &["--stop-threats", "off"]),
        (&["--no-verdicts"], &["--verdicts", "off"]),
        (&["--race"], &["--rule", "race"]),
        (&["--oracle-every", "3"], &["--every", "3"]),
        (&["--playout", "policy"], &["--playout", "full"]),
    ] {
        let (old, new) = ([old, &tb].concat(), [new, &tb].concat());
        assert_eq!(settings(&old).unwrap(), settings(&new).unwrap(), "{old:?}");
    }
    assert!(settings(&["--no-verdicts", "--verdicts", "on"]).is_err());
    assert!(settings(&["--every", "2"]).is_err(), "needs --tb");
}

#[test]
fn bad_values_are_refused_when_parsed() {
    for bad in [
        &["--sims", "0"][..],
        &["--c", "-1"],
        &["--c", "1e300"],
        &["--c", "100.01"],
        &["--nodes", "10"],
        &["--time", "5"],
        &["--imb", "-0.1"],
        &["--imb", "2"],
        &["--prior", "-1"],
        &["--prior", "100000"],
        &["--guard", "-0.1"],
        &["--guard", "0.95"],
        &["--playout", "smart"],
        &["--win-in-one", "maybe"],
    ] {
        assert!(settings(bad).is_err(), "{bad:?}");
    }
    let ok = settings(&["--time", "900us"]).unwrap();
    assert_eq!(ok.limit, Some(Limit::Time(Duration::from_micros(900))));
}
