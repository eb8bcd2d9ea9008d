//! Re-derives stored entries by plain recursion (no pruning, no generator array), for
//! `quasar tablebase verify`.

use crate::tablebase::probe::Tablebase;
use crate::tablebase::region::{Config, Region};
use crate::tablebase::store::Lookup;
use hashbrown::HashMap;
use quasar_core::rng::{SplitMix64, GOLDEN_GAMMA};
use rand::Rng;

/// Plain memoised recursion on the spec's `D`/`E`.
pub struct Rederive<'a> {
    region: &'a Region,
    memo: HashMap<Config, u32>,
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
        let mut moves = Vec::new();
        self.region.for_each_white_move(c, |m| {
            moves.push(m);
            true
        });
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
        let mut replies = Vec::new();
        self.region.for_each_black_move(t, |r| {
            replies.push(r);
            true
        });
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
/// configurations within the limits (present exactly when `D` is finite and at least 2).
pub fn verify_sample(tb: &Tablebase, samples: u64, seed: u64) -> VerifyReport {
    let region = tb.region();
    let table = tb.table();
    let mut rd = Rederive::new(region);
    let mut report = VerifyReport::default();
    let mut rng = SplitMix64::new(seed ^ GOLDEN_GAMMA);
    let mut next = move || rng.next_u64();
    let n = table.tree.len() as u64;
    for _ in 0..samples.min(n) {
        let i = (next() % n) as usize;
        let (key, value) = match (table.tree.key_at(i), table.tree.value_at(i)) {
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
        let b = region.board();
        let base = (b.height() - region.rows()) * b.width();
        let m = crate::tablebase::region::LocalMove {
            from: e.best_move.from as u32 - base,
            to: e.best_move.to as u32 - base,
        };
        let mut legal = false;
        region.for_each_white_move(c, |x| {
            legal |= x == m;
            true
        });
        if !legal || rd.e(region.after_white(c, m)) != d {
            report.failures.push(format!(
                "key {key}: the stored best move does not achieve {d}"
            ));
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
