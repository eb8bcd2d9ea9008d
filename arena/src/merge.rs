//! Records of one match merged into one (`quasar arena report`): the shards of a match
//! played on many machines, or runs of it on one, give the whole match when every game is
//! found once and all were played alike (same game, size, players, seed, openings, ply cap
//! and budgets); anything else is refused with the difference named.

use crate::matchup::pairings;
use crate::record::GameRecord;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where a game was found: its record and which game it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The record file.
    pub path: PathBuf,
    /// The game's number within its pairing.
    pub number: u32,
    /// Player A of the pairing.
    pub player_a: String,
    /// Player B of the pairing.
    pub player_b: String,
}

impl Place {
    fn of(path: &Path, g: &GameRecord) -> Place {
        Place {
            path: path.to_path_buf(),
            number: g.number,
            player_a: g.player_a.clone(),
            player_b: g.player_b.clone(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (game {} of {} vs {})",
            self.path.display(),
            self.number,
            self.player_a,
            self.player_b
        )
    }
}

/// Why records cannot be merged into one match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// The records hold no game at all.
    #[error("the records hold no games (an unfinished shard writes its games as they finish; wait for some, or check the paths)")]
    NoGames,
    /// Two games disagree on a setting of the match.
    #[error("{other} has {what} {other_value}, but {first} has {first_value}: the records are of different matches; give `arena report` the records of one match only")]
    Differ {
        /// The setting that differs.
        what: &'static str,
        /// The game that set it first.
        first: Box<Place>,
        /// Its value there.
        first_value: String,
        /// The game that disagrees.
        other: Box<Place>,
        /// Its value there.
        other_value: String,
    },
    /// The same game is in two records (or twice in the list of records).
    #[error("game {} of {} vs {} is in {} and again in {}: a game may be counted once; was one record given twice, or did two jobs play the same --shard?", .other.number, .other.player_a, .other.player_b, .first.path.display(), .other.path.display())]
    Twice {
        /// The first copy.
        first: Box<Place>,
        /// The second copy.
        other: Box<Place>,
    },
    /// A game whose opening or colours do not follow from its number.
    #[error("{place}: {why}; the record was edited or is not quasar's")]
    Inconsistent {
        /// The game.
        place: Box<Place>,
        /// What does not follow.
        why: String,
    },
    /// Old records (without the players' list) whose pairings fit no one order of players.
    #[error("the records' pairings fit no one list of players (among {0}): they are of different matches")]
    NoPlayerOrder(String),
}

/// The whole match that merged records make.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The game's name (`breakthrough`).
    pub game: String,
    /// The game's size parameters.
    pub params: String,
    /// The match seed.
    pub seed: u64,
    /// Random plies of each opening.
    pub opening_plies: u32,
    /// Where the openings came from (`2 random plies`, `file HASH, ORDER`).
    pub openings: String,
    /// Plies after which a game was stopped as a draw.
    pub ply_cap: u32,
    /// The players, in the match's order (which orders the pairings).
    pub players: Vec<String>,
    /// Each player's budget per move (`None` for a player without games).
    pub budgets: Vec<Option<String>>,
    /// Every game once, by pairing then number.
    pub games: Vec<GameRecord>,
    /// Games per pairing: the most any record's match asked for, and at least the highest
    /// number recorded plus one, rounded up to a whole opening (older records say nothing).
    pub games_per_pairing: u32,
    /// Games below that count missing from the records, per pairing `(player A, player B,
    /// numbers)`: a shard unfinished or not given.
    pub missing: Vec<(String, String, Vec<u32>)>,
}

/// The first value a setting was seen with, and where.
struct Seen {
    value: String,
    place: Place,
}

/// Remembers a setting's first value and refuses a different one later.
fn agree(
    seen: &mut HashMap<&'static str, Seen>,
    what: &'static str,
    value: String,
    place: &Place,
) -> Result<(), MergeError> {
    match seen.get(what) {
        None => {
            seen.insert(
                what,
                Seen {
                    value,
                    place: place.clone(),
                },
            );
            Ok(())
        }
        Some(s) if s.value == value => Ok(()),
        Some(s) => Err(MergeError::Differ {
            what,
            first: Box::new(s.place.clone()),
            first_value: s.value.clone(),
            other: Box::new(place.clone()),
            other_value: value,
        }),
    }
}

/// Merges the games of `records` (each a record's path and its games) into one match.
pub fn merge(records: &[(PathBuf, Vec<GameRecord>)]) -> Result<Merged, MergeError> {
    let mut seen: HashMap<&'static str, Seen> = HashMap::new();
    let mut budgets: HashMap<String, Seen> = HashMap::new();
    let mut openings: HashMap<u32, Seen> = HashMap::new();
    let mut copies: HashMap<(String, String, u32), Place> = HashMap::new();
    let mut all: Vec<(&Path, &GameRecord)> = Vec::new();
    for (path, games) in records {
        for g in games {
            let place = Place::of(path, g);
            if let Some(first) = copies.get(&(g.player_a.clone(), g.player_b.clone(), g.number)) {
                return Err(MergeError::Twice {
                    first: Box::new(first.clone()),
                    other: Box::new(place),
                });
            }
            check_consistent(g, &place)?;
            agree(&mut seen, "game", g.game.clone(), &place)?;
            agree(&mut seen, "parameters", g.params.clone(), &place)?;
            agree(&mut seen, "seed", g.seed.to_string(), &place)?;
            agree(&mut seen, "openings", g.openings_text(), &place)?;
            agree(&mut seen, "ply cap", g.ply_cap.to_string(), &place)?;
            if let Some(rules) = &g.value_rules {
                agree(&mut seen, "resign and draw rules", rules.clone(), &place)?;
            }
            if !g.players.is_empty() {
                agree(&mut seen, "players", list(&g.players), &place)?;
            }
            for (player, budget) in [(&g.first, &g.first_budget), (&g.second, &g.second_budget)] {
                let what = budgets.entry(player.clone()).or_insert_with(|| Seen {
                    value: budget.clone(),
                    place: place.clone(),
                });
                if what.value != *budget {
                    return Err(MergeError::Differ {
                        what: "budget",
                        first: Box::new(what.place.clone()),
                        first_value: format!("{} for {player}", what.value),
                        other: Box::new(place),
                        other_value: format!("{budget} for {player}"),
                    });
                }
            }
            // An openings file's position is the start itself; older records keep none.
            let moves = match (&g.openings_file, &g.start) {
                (Some(_), Some(start)) => format!("{} to {start}", list(&g.opening_moves)),
                _ => list(&g.opening_moves),
            };
            let o = openings.entry(g.opening).or_insert_with(|| Seen {
                value: moves.clone(),
                place: place.clone(),
            });
            if o.value != moves {
                return Err(MergeError::Differ {
                    what: "opening",
                    first: Box::new(o.place.clone()),
                    first_value: format!("[{}]", o.value),
                    other: Box::new(place),
                    other_value: format!("[{moves}]"),
                });
            }
            copies.insert((g.player_a.clone(), g.player_b.clone(), g.number), place);
            all.push((path, g));
        }
    }
    let Some(&(_, first)) = all.first() else {
        return Err(MergeError::NoGames);
    };
    let players = match all.iter().find(|(_, g)| !g.players.is_empty()) {
        Some(&(path, g)) => {
            check_pairings_fit(&g.players, &Place::of(path, g), &all)?;
            g.players.clone()
        }
        None => order_players(&all)?,
    };
    let pairs = pairings(players.len());
    let index: HashMap<&str, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let pair_of = |g: &GameRecord| {
        let key = (index[g.player_a.as_str()], index[g.player_b.as_str()]);
        pairs
            .iter()
            .position(|&p| p == key)
            .expect("every game's pairing was checked to fit the players' order")
    };
    let mut games: Vec<GameRecord> = all.iter().map(|&(_, g)| g.clone()).collect();
    games.sort_by_key(|g| (pair_of(g), g.number));
    let highest = games.iter().map(|g| g.number).max().unwrap_or(0);
    let asked = games.iter().filter_map(|g| g.games_per_pairing).max();
    let games_per_pairing = asked.unwrap_or(0).max((highest + 1).next_multiple_of(2));
    let mut numbers: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for g in &games {
        numbers.entry(pair_of(g)).or_default().push(g.number);
    }
    let mut missing = Vec::new();
    for (pi, &(a, b)) in pairs.iter().enumerate() {
        let have = numbers.get(&pi).map_or(&[][..], Vec::as_slice);
        let gone: Vec<u32> = (0..games_per_pairing)
            .filter(|n| have.binary_search(n).is_err())
            .collect();
        if !gone.is_empty() {
            missing.push((players[a].clone(), players[b].clone(), gone));
        }
    }
    let budgets = players
        .iter()
        .map(|p| budgets.get(p).map(|s| s.value.clone()))
        .collect();
    Ok(Merged {
        game: first.game.clone(),
        params: first.params.clone(),
        seed: first.seed,
        opening_plies: first.opening_plies,
        openings: first.openings_text(),
        ply_cap: first.ply_cap,
        players,
        budgets,
        games,
        games_per_pairing,
        missing,
    })
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

/// Refuses a game whose opening or colours do not follow from its number.
fn check_consistent(g: &GameRecord, place: &Place) -> Result<(), MergeError> {
    let (first, second) = if g.a_moves_first() {
        (&g.player_a, &g.player_b)
    } else {
        (&g.player_b, &g.player_a)
    };
    let why = if g.opening != g.number / 2 {
        format!("its opening is {}, not {}", g.opening, g.number / 2)
    } else if g.first != *first || g.second != *second {
        format!(
            "{} moves first, but in an {} game {first} does",
            g.first,
            if g.a_moves_first() { "even" } else { "odd" }
        )
    } else if g.player_a == g.player_b {
        "a player plays itself".to_string()
    } else {
        return Ok(());
    };
    Err(MergeError::Inconsistent {
        place: Box::new(place.clone()),
        why,
    })
}

/// Refuses a game (of an old record without the list) whose pairing is not one of the
/// match among `players`, the list the game at `listed` gave.
fn check_pairings_fit(
    players: &[String],
    listed: &Place,
    games: &[(&Path, &GameRecord)],
) -> Result<(), MergeError> {
    let at = |p: &str| players.iter().position(|q| q == p);
    for &(path, g) in games {
        if let (Some(a), Some(b)) = (at(&g.player_a), at(&g.player_b)) {
            if a < b {
                continue;
            }
        }
        return Err(MergeError::Differ {
            what: "players",
            first: Box::new(listed.clone()),
            first_value: list(players),
            other: Box::new(Place::of(path, g)),
            other_value: format!("of a pairing {} vs {}", g.player_a, g.player_b),
        });
    }
    Ok(())
}

/// The players of old records (without the list) in an order where every game's player A
/// comes before its player B, as the match's pairings do; ties by first appearance.
fn order_players(games: &[(&Path, &GameRecord)]) -> Result<Vec<String>, MergeError> {
    let mut names: Vec<&str> = Vec::new();
    for (_, g) in games {
        for p in [&g.player_a, &g.player_b] {
            if !names.contains(&p.as_str()) {
                names.push(p);
            }
        }
    }
    let mut before: Vec<(usize, usize)> = Vec::new();
    let at = |p: &str| names.iter().position(|q| *q == p).expect("listed above");
    for (_, g) in games {
        let edge = (at(&g.player_a), at(&g.player_b));
        if !before.contains(&edge) {
            before.push(edge);
        }
    }
    let mut order = Vec::with_capacity(names.len());
    let mut placed = vec![false; names.len()];
    while order.len() < names.len() {
        let next = (0..names.len())
            .find(|&i| !placed[i] && before.iter().all(|&(a, b)| b != i || placed[a]));
        let Some(i) = next else {
            return Err(MergeError::NoPlayerOrder(names.join(", ")));
        };
        placed[i] = true;
        order.push(names[i].to_string());
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `number` of pairing (a, b) of the match among `players`.
    fn g(players: &[&str], a: &str, b: &str, number: u32) -> GameRecord {
        GameRecord {
            opening_plies: 1,
            opening_moves: vec![format!("a2-a{}", 3 + number / 2)],
            players: players.iter().map(|p| p.to_string()).collect(),
            games_per_pairing: Some(4),
            ..GameRecord::for_test(a, b, number)
        }
    }

    const P3: [&str; 3] = ["x", "y", "z"];

    /// A three-player round robin of 4 games per pairing, as records of `n` shards.
    fn shards(n: u32) -> Vec<(PathBuf, Vec<GameRecord>)> {
        let mut recs: Vec<(PathBuf, Vec<GameRecord>)> = (1..=n)
            .map(|i| (PathBuf::from(format!("s{i}.jsonl")), vec![]))
            .collect();
        for (pi, (a, b)) in pairings(3).into_iter().enumerate() {
            for number in 0..4 {
                let i = (0..n)
                    .find(|&i| {
                        crate::matchup::in_share(
                            quasar_core::Shard::new(i + 1, n).unwrap(),
                            4,
                            pi,
                            number,
                        )
                    })
                    .unwrap();
                recs[i as usize].1.push(g(&P3, P3[a], P3[b], number));
            }
        }
        recs
    }

    #[test]
    fn shards_merge_into_the_whole_match_in_order() {
        let whole = merge(&shards(1)).unwrap();
        for n in [2, 3, 5] {
            let m = merge(&shards(n)).unwrap();
            assert_eq!(m, whole, "{n} shards");
        }
        assert_eq!(whole.games.len(), 12);
        assert_eq!(whole.players, P3);
        assert_eq!(whole.games_per_pairing, 4);
        assert!(whole.missing.is_empty());
        let order: Vec<(String, u32)> = whole
            .games
            .iter()
            .map(|g| (format!("{}{}", g.player_a, g.player_b), g.number))
            .collect();
        assert_eq!(order[0], ("xy".into(), 0));
        assert_eq!(order[4], ("xz".into(), 0));
        assert_eq!(order[11], ("yz".into(), 3));
        assert_eq!(whole.budgets, vec![Some("100ms".to_string()); 3]);
    }

    #[test]
    fn a_missing_shard_is_reported_as_missing_games() {
        let mut recs = shards(2);
        recs.remove(1);
        let m = merge(&recs).unwrap();
        // Units (pairing, opening) 1, 3, 5 are the second shard's: opening 1 (games 2 and 3)
        // of each pairing.
        assert_eq!(
            m.missing,
            vec![
                ("x".into(), "y".into(), vec![2, 3]),
                ("x".into(), "z".into(), vec![2, 3]),
                ("y".into(), "z".into(), vec![2, 3]),
            ]
        );
        assert_eq!(m.games.len(), 6);
        // Older records do not say how many games the match asked for: the last opening's
        // games cannot be missed.
        for g in &mut recs[0].1 {
            g.games_per_pairing = None;
        }
        let m = merge(&recs).unwrap();
        assert_eq!(m.games_per_pairing, 2);
        assert!(m.missing.is_empty());
    }

    #[test]
    fn the_same_game_twice_is_refused_with_both_records() {
        let mut recs = shards(2);
        recs.push(recs[0].clone());
        let e = merge(&recs).unwrap_err();
        assert!(matches!(e, MergeError::Twice { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.starts_with("game 0 of x vs y is in s1.jsonl and again in s1.jsonl"),
            "{text}"
        );
    }

    #[test]
    fn every_difference_is_named() {
        type Edit = fn(&mut GameRecord);
        // Each edit is made to shard 2's last game, y vs z game 3 (z moves first), and is
        // found against the first game that set the value.
        let cases: [(Edit, &str, &str); 7] = [
            (
                |g| g.seed = 2,
                "seed 2",
                "s1.jsonl (game 0 of x vs y) has 1",
            ),
            (
                |g| g.params = "7x7".into(),
                "parameters 7x7",
                "s1.jsonl (game 0 of x vs y) has 6x6",
            ),
            (
                |g| g.game = "woodpush".into(),
                "game woodpush",
                "s1.jsonl (game 0 of x vs y) has breakthrough",
            ),
            (
                |g| g.ply_cap = 9,
                "ply cap 9",
                "s1.jsonl (game 0 of x vs y) has 1000",
            ),
            (
                |g| g.second_budget = "5 sims".into(),
                "budget 5 sims for y",
                "s1.jsonl (game 0 of x vs y) has 100ms for y",
            ),
            (
                |g| g.opening_moves = vec!["b2-b3".into()],
                "opening [b2-b3]",
                "s2.jsonl (game 2 of x vs y) has [a2-a4]",
            ),
            (
                |g| g.players = vec!["x".into(), "y".into(), "w".into()],
                "players x, y, w",
                "s1.jsonl (game 0 of x vs y) has x, y, z",
            ),
        ];
        for (edit, now, then) in cases {
            let mut recs = shards(2);
            edit(recs[1].1.last_mut().unwrap());
            let e = merge(&recs).unwrap_err();
            let text = e.to_string();
            assert!(matches!(e, MergeError::Differ { .. }), "{text}");
            assert!(
                text.starts_with(&format!(
                    "s2.jsonl (game 3 of y vs z) has {now}, but {then}:"
                )),
                "{text}"
            );
        }
        // Old records (without the list) whose pairings are not the listed match's.
        let mut recs = shards(2);
        recs[1].1.push(g(&[], "x", "w", 0));
        let e = merge(&recs).unwrap_err().to_string();
        assert!(
            e.starts_with("s2.jsonl (game 0 of x vs w) has players of a pairing x vs w, but s1.jsonl (game 0 of x vs y) has x, y, z"),
            "{e}"
        );
    }

    #[test]
    fn an_edited_game_is_refused() {
        let mut recs = shards(1);
        recs[0].1[1].first = "x".into();
        let e = merge(&recs).unwrap_err();
        assert!(matches!(e, MergeError::Inconsistent { .. }), "{e}");
        assert!(e.to_string().contains("game 1 of x vs y"), "{e}");
    }

    #[test]
    fn old_records_without_the_list_find_the_players_order() {
        let mut recs = shards(2);
        for (_, games) in &mut recs {
            for g in games.iter_mut() {
                g.players.clear();
            }
        }
        // Shard 2 comes first, backwards: y and z appear before x, yet x comes first, as
        // player A of every pairing it plays.
        recs.reverse();
        recs[0].1.reverse();
        let m = merge(&recs).unwrap();
        assert_eq!(m.players, P3);
        assert_eq!(m.games.len(), 12);
        // A pairing the other way round fits no order.
        recs[0].1.push(g(&[], "z", "x", 9));
        let e = merge(&recs).unwrap_err();
        assert!(matches!(e, MergeError::NoPlayerOrder(_)), "{e}");
    }

    #[test]
    fn no_games_is_an_error() {
        let recs = vec![(PathBuf::from("a.jsonl"), vec![])];
        assert_eq!(merge(&recs), Err(MergeError::NoGames));
    }
}
