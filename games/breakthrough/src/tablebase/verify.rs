//! Re-derives stored entries by plain recursion (no pruning, no generator array), for
//! `quasar tablebase verify`; a sliced table's sampled configurations by a bounded AND-OR
//! search ("can White win within k?"), a formulation the generator does not share.

use crate::tablebase::probe::Tablebase;
use crate::tablebase::region::{Config, LocalMove, Region};
use crate::Move;
use hashbrown::HashMap;
use quasar_core::rng::{SplitMix64, GOLDEN_GAMMA};
use rand::Rng;

/// The moves `each` calls its function with, as a list: the searches recurse while going
/// through them.
fn listed(each: impl FnOnce(&mut dyn FnMut(LocalMove) -> bool)) -> Vec<LocalMove> {
    let mut moves = Vec::new();
    each(&mut |m| {
        moves.push(m);
        true
    });
    moves
}

/// A stored best move (squares of the board) as a move of the region, when it is one of
/// White's moves from `c`.
fn white_move(region: &Region, c: Config, mv: Move) -> Option<LocalMove> {
    let b = region.board();
    let base = (b.height() - region.rows()) * b.width();
    let m = LocalMove {
        from: mv.from as u32 - base,
        to: mv.to as u32 - base,
    };
    listed(|f| region.for_each_white_move(c, f))
        .contains(&m)
        .then_some(m)
}

/// Plain memoised recursion on the spec's `D`/`E`.
pub struct Rederive<'a> {
    region: &'a Region,
    memo: HashMap<Config, u32>,
}

impl std::fmt::Debug for Rederive<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rederive")
            .field("region", &self.region)
            .field("memo_entries", &self.memo.len())
            .finish()
    }
}

/// Infinite depth.
pub const INFINITE: u32 = u32::MAX;

impl<'a> Rederive<'a> {
    /// A fresh evaluator for `region`.
    pub fn new(region: &'a Region) -> Rederive<'a> {
        Rederive {
            region,
            memo: HashMap::new(),
        }
    }

    /// `D(c)`, White to move.
    pub fn d(&mut self, c: Config) -> u32 {
        if c.white & self.region.goal_minus_one() != 0 {
            return 1;
        }
        if c.white == 0 {
            return INFINITE;
        }
        if let Some(&v) = self.memo.get(&c) {
            return v;
        }
        let moves = listed(|f| self.region.for_each_white_move(c, f));
        let best = moves
            .into_iter()
            .map(|m| self.e(self.region.after_white(c, m)))
            .min()
            .unwrap_or(INFINITE);
        self.memo.insert(c, best);
        best
    }

    /// `E(t)`, Black to move.
    pub fn e(&mut self, t: Config) -> u32 {
        let plus = |d: u32| d.saturating_add(1);
        let mut v = plus(self.d(t));
        let replies = listed(|f| self.region.for_each_black_move(t, f));
        for r in replies {
            let (after, leaves) = self.region.after_black(t, r);
            let d = self.d(after);
            v = v.max(if leaves { plus(d) } else { d });
        }
        v
    }
}

/// Outcome of a verification.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Stored entries re-derived.
    pub entries_checked: u64,
    /// Random configurations checked for presence or absence.
    pub configs_checked: u64,
    /// Descriptions of disagreements (empty when the table is right).
    pub failures: Vec<String>,
}

/// Checks `samples` random stored entries (depth and best move) and `samples` random
/// configurations within the limits (present exactly when `D` is finite and at least 2);
/// on a sliced table, `2 * samples` configurations of finished slices.
pub fn verify_sample(tb: &Tablebase, samples: u64, seed: u64) -> VerifyReport {
    let region = tb.region();
    let table = tb.table();
    let Some(tree) = table.tree.as_static() else {
        return verify_sliced(tb, 2 * samples, seed);
    };
    let mut rd = Rederive::new(region);
    let mut report = VerifyReport::default();
    let mut rng = SplitMix64::new(seed ^ GOLDEN_GAMMA);
    let mut next = move || rng.next_u64();
    let n = tree.len() as u64;
    for _ in 0..samples.min(n) {
        let i = (next() % n) as usize;
        let (key, value) = match (tree.key_at(i), tree.value_at(i)) {
            (Ok(k), Ok(v)) => (k, v),
            (Err(c), _) | (_, Err(c)) => {
                report.failures.push(format!("entry {i}: {c}"));
                continue;
            }
        };
        let e = table.codec.decode(value);
        let c = region.config_of_key(key);
        let d = rd.d(c);
        report.entries_checked += 1;
        if d != e.depth {
            report.failures.push(format!(
                "key {key}: stored depth {}, re-derived {d}",
                e.depth
            ));
            continue;
        }
        match white_move(region, c, e.best_move) {
            Some(m) if rd.e(region.after_white(c, m)) == d => {}
            _ => report.failures.push(format!(
                "key {key}: the stored best move does not achieve {d}"
            )),
        }
    }
    let limits = table.header.limits;
    let mut tries = 0;
    while report.configs_checked < samples && tries < samples * 1000 {
        tries += 1;
        let white = next() & next() & region.white_cells();
        let black = next() & next() & region.black_cells() & !white;
        if !limits.allows(white.count_ones(), black.count_ones()) {
            continue;
        }
        let c = Config { white, black };
        report.configs_checked += 1;
        let d = rd.d(c);
        let stored = match tb.lookup(c) {
            Ok(e) => e.map(|e| e.depth),
            Err(corrupt) => {
                report
                    .failures
                    .push(format!("key {}: {corrupt}", region.key(c)));
                continue;
            }
        };
        let expected = (d >= 2 && d != INFINITE).then_some(d);
        if stored != expected {
            report.failures.push(format!(
                "configuration key {}: stored {stored:?}, re-derived {expected:?}",
                region.key(c)
            ));
        }
    }
    report
}

/// "Can White win within `k` moves?" by plain AND-OR recursion on the spec's definition,
/// memoised per question: independent of the generator's min/max and its slices.
pub struct WithinK<'a> {
    region: &'a Region,
    memo: HashMap<(Config, u32), bool>,
}

impl std::fmt::Debug for WithinK<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithinK")
            .field("region", &self.region)
            .field("memo_entries", &self.memo.len())
            .finish()
    }
}

impl<'a> WithinK<'a> {
    /// A fresh search of `region`.
    pub fn new(region: &'a Region) -> WithinK<'a> {
        WithinK {
            region,
            memo: HashMap::new(),
        }
    }

    /// Whether `D(c) <= k`, White to move.
    pub fn d_within(&mut self, c: Config, k: u32) -> bool {
        if c.white & self.region.goal_minus_one() != 0 {
            return k >= 1;
        }
        if c.white == 0 || k < 2 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(c, k)) {
            return v;
        }
        let moves = listed(|f| self.region.for_each_white_move(c, f));
        let v = moves
            .into_iter()
            .any(|m| self.e_within(self.region.after_white(c, m), k));
        self.memo.insert((c, k), v);
        v
    }

    /// Whether `E(t) <= k`, Black to move: every Black option (elsewhere, each region
    /// move) leaves White a win within its remaining budget.
    pub fn e_within(&mut self, t: Config, k: u32) -> bool {
        if k == 0 || !self.d_within(t, k - 1) {
            return false;
        }
        let replies = listed(|f| self.region.for_each_black_move(t, f));
        replies.into_iter().all(|r| {
            let (after, leaves) = self.region.after_black(t, r);
            self.d_within(after, if leaves { k - 1 } else { k })
        })
    }

    /// `min(D(c), cap)`.
    pub fn capped(&mut self, c: Config, cap: u32) -> u32 {
        (1..cap).find(|&k| self.d_within(c, k)).unwrap_or(cap)
    }
}

/// Checks `samples` random configurations of a sliced table's (plain or compressed)
/// finished slices: the stored capped depth against [`WithinK`], and through the prober's
/// lookup the entry (present exactly when `2 <= D <= R`) and its best move (legal,
/// achieving `D`).
pub fn verify_sliced(tb: &Tablebase, samples: u64, seed: u64) -> VerifyReport {
    let mut report = VerifyReport::default();
    let Some(table) = tb.table().tree.slices() else {
        report.failures.push("not a sliced table".into());
        return report;
    };
    let s = table.slicing();
    let region = tb.region();
    let cap = s.cap() as u32;
    let finished: Vec<u32> = (0..s.slices())
        .filter(|&id| s.is_canonical(id) && table.has(id))
        .collect();
    if finished.is_empty() {
        report.failures.push("no finished slice to check".into());
        return report;
    }
    let mut rng = SplitMix64::new(seed ^ GOLDEN_GAMMA);
    for _ in 0..samples {
        let id = finished[(rng.next_u64() % finished.len() as u64) as usize];
        let mut c = s.config(id, rng.next_u64() % s.per_slice());
        if rng.next_u64() % 2 == 1 {
            c = region.mirror(c); // the stored member's mirror image is read through it
        }
        // A fresh memo a sample keeps memory flat on large tables.
        let mut search = WithinK::new(region);
        let want = search.capped(c, cap);
        report.configs_checked += 1;
        let stored = match table.depth(c) {
            Ok(d) => d.map(u32::from),
            Err(e) => {
                report.failures.push(format!("slice {}: {e}", s.name(id)));
                continue;
            }
        };
        if stored != Some(want) {
            report.failures.push(format!(
                "configuration key {} (slice {}): stored depth {stored:?}, re-derived {want}",
                region.key(c),
                s.name(id)
            ));
            continue;
        }
        let entry = match tb.lookup(c) {
            Ok(e) => e,
            Err(e) => {
                report.failures.push(format!("slice {}: {e}", s.name(id)));
                continue;
            }
        };
        report.entries_checked += entry.is_some() as u64;
        match entry {
            None if want >= cap || c.white == 0 => {}
            Some(e) if e.depth == want && want < cap => match white_move(region, c, e.best_move) {
                Some(m) if search.e_within(region.after_white(c, m), want) => {}
                _ => report.failures.push(format!(
                    "key {}: the best move does not achieve {want}",
                    region.key(c)
                )),
            },
            other => report.failures.push(format!(
                "key {}: lookup gives {other:?}, re-derived depth {want}",
                region.key(c)
            )),
        }
    }
    report
}
