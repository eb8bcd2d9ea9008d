//! The retrograde pass: `D` for every region configuration within the limits, computed
//! over a dense byte array with memoised recursion in parallel, then the stored entries
//! (finite `D >= 2`, canonical mirror member, best move by the spec's tie-break).

use crate::tablebase::index::Indexer;
use crate::tablebase::key::ValueCodec;
use crate::tablebase::recurrence::{Depths, Recurrence};
use crate::tablebase::region::{Config, Limits, Region, RegionError};
use crate::Move;
use quasar_core::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// Not computed yet.
const UNKNOWN: u8 = 0;
/// `D = inf`: White cannot force a win in the region.
pub const INF: u8 = 255;
/// Indices handed to one parallel task.
const CHUNK: u64 = 1 << 14;

/// The memo of the whole build: slot `rank(c)` holds `D(c)`, computed by the recurrence
/// on first use (and stored for the mirror image too).
struct Memo<'a> {
    region: &'a Region,
    index: &'a Indexer,
    memo: &'a [AtomicU8],
}

impl Memo<'_> {
    /// The recurrence over this memo, uncapped.
    #[inline]
    fn recurrence(&self) -> Recurrence<'_, Self> {
        Recurrence::new(self.region, self, INF)
    }
}

impl Depths for Memo<'_> {
    #[inline]
    fn depth(&self, c: Config) -> u8 {
        let r = self.index.rank(c) as usize;
        let v = self.memo[r].load(Relaxed);
        if v != UNKNOWN {
            return v;
        }
        let v = self.recurrence().solve(c);
        self.memo[r].store(v, Relaxed);
        // The mirror image has the same D: computing it once halves the work.
        let m = self.region.mirror(c);
        self.memo[self.index.rank(m) as usize].store(v, Relaxed);
        v
    }
}

/// What one build did, for the final report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Region configurations within the limits (both members of each mirror pair).
    pub configurations: u64,
    /// Of those, configurations with finite `D >= 2` (both mirror members).
    pub wins: u64,
    /// Entries stored (one per mirror pair).
    pub stored: u64,
    /// `histogram[d]`: stored entries of depth `d`.
    pub histogram: Vec<u64>,
    /// Size of the generator's numbering (bytes of its array).
    pub index_len: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory of the process in KiB (`VmHWM`), where the OS reports it.
    pub peak_kib: Option<u64>,
}

/// A generated table: sorted `(key, value)` pairs and how they were made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The region.
    pub region: Region,
    /// The piece limits.
    pub limits: Limits,
    /// The value packing.
    pub codec: ValueCodec,
    /// Sorted by key, keys unique.
    pub entries: Vec<(u64, u32)>,
    /// Figures of the build.
    pub report: BuildReport,
}

/// Peak resident memory of this process in KiB (kept here under its old path).
pub use quasar_core::measure::peak_memory_kib;

/// Computes `D` for every configuration of `region` within `limits` and returns the
/// stored entries, reporting its phases (`solve`, `collect`, in generator indices) to
/// `progress`.
pub fn generate(
    region: &Region,
    limits: Limits,
    progress: &dyn Progress,
) -> Result<Generated, RegionError> {
    let start = Instant::now();
    let index = Indexer::new(region, limits)?;
    let len = index.len();
    let codec = ValueCodec::new(region.board());
    let memo: Vec<AtomicU8> = (0..len).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    let memo_depths = Memo {
        region,
        index: &index,
        memo: &memo,
    };
    let solver = memo_depths.recurrence();
    let chunks = len.div_ceil(CHUNK);
    let configurations = AtomicU64::new(0);
    progress.begin("solve", len);
    (0..chunks).into_par_iter().for_each(|ch| {
        let (lo, hi) = (ch * CHUNK, ((ch + 1) * CHUNK).min(len));
        let mut count = 0;
        for r in lo..hi {
            if let Some(c) = index.unrank(r) {
                count += 1;
                solver.value(c);
            }
        }
        configurations.fetch_add(count, Relaxed);
        progress.advance(hi - lo);
    });
    progress.end();

    progress.begin("collect", len);
    let wins = AtomicU64::new(0);
    let parts: Vec<Vec<(u64, u32)>> = (0..chunks)
        .into_par_iter()
        .map(|ch| {
            let (lo, hi) = (ch * CHUNK, ((ch + 1) * CHUNK).min(len));
            let mut out = Vec::new();
            let mut count = 0;
            for r in lo..hi {
                let d = memo[r as usize].load(Relaxed);
                if !(2..INF).contains(&d) {
                    continue;
                }
                let Some(c) = index.unrank(r) else { continue };
                count += 1;
                let key = region.key(c);
                if key > region.key(region.mirror(c)) {
                    continue; // the mirror image is the canonical member
                }
                if let Some(m) = solver.best_move(c, d) {
                    let mv = Move {
                        from: region.board_cell(m.from),
                        to: region.board_cell(m.to),
                    };
                    out.push((key, codec.encode(d as u32, mv)));
                }
            }
            wins.fetch_add(count, Relaxed);
            progress.advance(hi - lo);
            out
        })
        .collect();
    progress.end();
    drop(memo);
    let total: usize = parts.iter().map(Vec::len).sum();
    let mut entries = Vec::with_capacity(total);
    for p in parts {
        entries.extend_from_slice(&p);
    }
    entries.par_sort_unstable_by_key(|e| e.0);
    let mut histogram = vec![0u64; 2];
    for &(_, v) in &entries {
        let d = codec.decode(v).depth as usize;
        if histogram.len() <= d {
            histogram.resize(d + 1, 0);
        }
        histogram[d] += 1;
    }
    let report = BuildReport {
        configurations: configurations.into_inner(),
        wins: wins.into_inner(),
        stored: entries.len() as u64,
        histogram,
        index_len: len,
        seconds: start.elapsed().as_secs_f64(),
        peak_kib: peak_memory_kib(),
    };
    Ok(Generated {
        region: region.clone(),
        limits,
        codec,
        entries,
        report,
    })
}

/// Why a sliced build stopped.
#[derive(Debug, thiserror::Error)]
pub enum SliceBuildError {
    /// The name is not a slice of this table.
    #[error("{0:?} is not a slice of this table: `quasar tablebase plan` lists them")]
    NoSlice(String),
    /// An input slice is not finished.
    #[error("slice {slice} reads slice {input} (wave {wave}), which is not built yet: build the earlier waves first")]
    Input {
        /// The slice asked for.
        slice: String,
        /// The missing input.
        input: String,
        /// The input's wave.
        wave: usize,
    },
    /// Reading an input or writing the slice failed.
    #[error(transparent)]
    File(#[from] crate::tablebase::store::TableFileError),
    /// An input slice is damaged.
    #[error("{0}")]
    Damaged(#[from] crate::tablebase::store::Corrupt),
}

/// What happened to one slice of a sliced build.
#[derive(Clone, Debug, PartialEq)]
pub enum SliceOutcome {
    /// Already finished and intact: skipped.
    Skipped(String),
    /// Built now, in this many seconds; `replaced` when a damaged file was rebuilt.
    Built {
        /// The slice.
        name: String,
        /// Wall-clock seconds.
        seconds: f64,
        /// A damaged file was there.
        replaced: bool,
    },
}

/// What a sliced build did, for the final report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlicedReport {
    /// Slices built now.
    pub built: u64,
    /// Slices found finished and skipped.
    pub skipped: u64,
    /// Of those built, damaged files replaced.
    pub replaced: u64,
    /// Configurations computed now.
    pub configurations: u64,
    /// `histogram[d]`: configurations computed now of capped depth `d`.
    pub histogram: Vec<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Builds the named slices of `table` in order (an order [`Slicing::plan`] gives), each
/// written as soon as it is finished; slices already finished (checksum checked) are
/// skipped, a damaged one is rebuilt, and a slice whose inputs are not built is an error.
/// `on_slice` hears of every slice; `progress` counts slices.
///
/// [`Slicing::plan`]: crate::tablebase::slices::Slicing::plan
pub fn build_slices(
    table: &crate::tablebase::store::SlicedTable,
    names: &[&str],
    progress: &dyn Progress,
    mut on_slice: impl FnMut(&SliceOutcome),
) -> Result<SlicedReport, SliceBuildError> {
    use crate::tablebase::store::sliced::SliceState;
    let start = Instant::now();
    let s = table.slicing();
    let mut report = SlicedReport {
        histogram: vec![0; s.cap() as usize + 1],
        ..SlicedReport::default()
    };
    progress.begin("slices", names.len() as u64);
    for &name in names {
        let id = s
            .parse(name)
            .filter(|&id| s.is_canonical(id))
            .ok_or_else(|| SliceBuildError::NoSlice(name.to_string()))?;
        let replaced = match table.state(id) {
            SliceState::Finished(_) => {
                report.skipped += 1;
                on_slice(&SliceOutcome::Skipped(name.to_string()));
                progress.advance(1);
                continue;
            }
            SliceState::Damaged(_) => true,
            SliceState::Missing => false,
        };
        for input in s.inputs(id) {
            if !table.has(input) {
                return Err(SliceBuildError::Input {
                    slice: name.to_string(),
                    input: s.name(input),
                    wave: s.wave(input),
                });
            }
        }
        let t = Instant::now();
        let (packed, histogram) = table.solve_slice(id)?;
        table.write_slice(id, &packed, histogram)?;
        for (d, n) in report.histogram.iter_mut().enumerate() {
            *n += histogram[d];
        }
        report.built += 1;
        report.replaced += replaced as u64;
        report.configurations += s.per_slice();
        on_slice(&SliceOutcome::Built {
            name: name.to_string(),
            seconds: t.elapsed().as_secs_f64(),
            replaced,
        });
        progress.advance(1);
    }
    progress.end();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::store::{SlicedTable, TableFile};
    use crate::tablebase::{Silent, Tablebase};
    use crate::Board;

    /// A sliced build answers every configuration exactly as the whole build does, where a
    /// sound probe can use it (`D <= R`), and nothing elsewhere.
    fn sliced_equals_whole(w: u32, h: u32, n: u32) {
        let region = Region::new(Board::new(w, h).unwrap(), n).unwrap();
        let whole = Tablebase::from_generated(&generate(&region, Limits::NONE, &Silent).unwrap());
        let dir = std::env::temp_dir().join(format!(
            "quasar-sliced-unit-{}-{w}x{h}-r{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let table = SlicedTable::create(&dir, &region).unwrap();
        let plan = table.slicing().plan();
        let names: Vec<&str> = plan.waves().iter().flatten().map(String::as_str).collect();
        let report = build_slices(&table, &names, &Silent, |_| {}).unwrap();
        assert_eq!(report.built as usize, names.len());
        let sliced = Tablebase::from_table(TableFile::open(&dir).unwrap());
        let s = table.slicing();
        let lowest = region.lowest_row();
        let mut hits = 0;
        for id in 0..s.slices() {
            for idx in 0..s.per_slice() {
                let c = s.config(id, idx);
                let want = whole.lookup(c).unwrap().filter(|e| e.depth <= lowest);
                assert_eq!(
                    sliced.lookup(c).unwrap(),
                    want,
                    "{w}x{h} r{n} key {}",
                    region.key(c)
                );
                hits += want.is_some() as u64;
            }
        }
        assert!(hits > 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sliced_builds_equal_whole_builds_value_for_value() {
        for (w, h, n) in [
            (5, 5, 3),
            (6, 6, 3),
            (4, 5, 4),
            (4, 6, 4),
            (3, 8, 4),
            (4, 7, 4),
        ] {
            sliced_equals_whole(w, h, n);
        }
    }
}
