//! Builds split into named slices ordered in dependency waves, and the share of them one job
//! of a cluster takes (`--slice NAME`, `--wave W --shard i/N`): the one mechanism every
//! sliced table build (checkers databases, the 8x8 Breakthrough table) and the sharded arena
//! use, so an existing scheduler (GNU parallel, Slurm job arrays) can spread the work.

use std::fmt;
use std::str::FromStr;

/// One job's share of a list of independent items: those whose position `k` (from 0) has
/// `k % count == index - 1`. Written `i/N` with `1 <= i <= N`, as Slurm's `--array=1-N` and
/// GNU parallel's `{#}` number jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not of the form `i/N`.
    #[error("{0:?} is not a shard: write i/N, e.g. 2/8 for the second of 8 jobs")]
    Form(String),
    /// `i` outside `1..=N`, or `N` zero.
    #[error("shard {index}/{count}: i must lie in 1..=N (jobs are numbered from 1)")]
    Range {
        /// The job's number as given.
        index: u32,
        /// The number of jobs as given.
        count: u32,
    },
}

impl Shard {
    /// The whole list, as one job.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The `index`-th of `count` jobs (`1 <= index <= count`).
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 || index == 0 || index > count {
            return Err(ShardError::Range { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The job's number, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of jobs.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the item at position `k` (from 0) is this job's.
    pub fn takes(self, k: usize) -> bool {
        k % self.count as usize == (self.index - 1) as usize
    }

    /// This job's items of `items`, in order.
    pub fn pick<'a, T>(self, items: &'a [T]) -> impl Iterator<Item = &'a T> + 'a {
        items
            .iter()
            .enumerate()
            .filter(move |(k, _)| self.takes(*k))
            .map(|(_, t)| t)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(s.to_string());
        let (i, n) = s.trim().split_once('/').ok_or_else(form)?;
        let index = i.trim().parse().map_err(|_| form())?;
        let count = n.trim().parse().map_err(|_| form())?;
        Shard::new(index, count)
    }
}

/// A build's slices in dependency waves: every input of a slice lies in an earlier wave, so
/// the slices of one wave can be built at once, on any machines, once the waves before it
/// are finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    waves: Vec<Vec<String>>,
}

/// Which slices of a [`Plan`] one job builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every slice, wave after wave (one machine).
    All,
    /// The slice of this name.
    Slice(String),
    /// This job's share of one wave (from 0).
    Wave {
        /// The wave, from 0.
        wave: usize,
        /// The job's share of the wave's slices.
        shard: Shard,
    },
}

/// Why a [`Selection`] names nothing in a [`Plan`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// No slice has this name.
    #[error("no slice is named {0:?}: `tablebase plan` lists the slices")]
    NoSlice(String),
    /// The plan has fewer waves.
    #[error("wave {wave} does not exist: the plan has waves 0 to {last}", last = .waves.saturating_sub(1))]
    NoWave {
        /// The wave asked for.
        wave: usize,
        /// The plan's number of waves.
        waves: usize,
    },
}

impl Plan {
    /// A plan of these waves (empty waves are dropped).
    pub fn new(waves: Vec<Vec<String>>) -> Plan {
        Plan {
            waves: waves.into_iter().filter(|w| !w.is_empty()).collect(),
        }
    }

    /// The waves, first to last.
    pub fn waves(&self) -> &[Vec<String>] {
        &self.waves
    }

    /// The wave (from 0) holding the slice `name`.
    pub fn wave_of(&self, name: &str) -> Option<usize> {
        self.waves.iter().position(|w| w.iter().any(|s| s == name))
    }

    /// The slices a job builds, in an order that respects the dependencies.
    pub fn select(&self, which: &Selection) -> Result<Vec<&str>, PlanError> {
        match which {
            Selection::All => Ok(self.waves.iter().flatten().map(String::as_str).collect()),
            Selection::Slice(name) => match self.waves.iter().flatten().find(|s| *s == name) {
                Some(s) => Ok(vec![s.as_str()]),
                None => Err(PlanError::NoSlice(name.clone())),
            },
            Selection::Wave { wave, shard } => match self.waves.get(*wave) {
                Some(w) => Ok(shard.pick(w).map(String::as_str).collect()),
                None => Err(PlanError::NoWave {
                    wave: *wave,
                    waves: self.waves.len(),
                }),
            },
        }
    }

    /// The plan as text, one slice a line: its wave (from 0), a tab, its name; what
    /// `tablebase plan` prints and a driver script reads.
    pub fn to_lines(&self) -> String {
        let mut out = String::new();
        for (w, slices) in self.waves.iter().enumerate() {
            for s in slices {
                out.push_str(&format!("{w}\t{s}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_a_list_without_overlap_or_gap() {
        let items: Vec<usize> = (0..23).collect();
        for n in 1..=5u32 {
            let mut seen: Vec<usize> = (1..=n)
                .flat_map(|i| {
                    Shard::new(i, n)
                        .unwrap()
                        .pick(&items)
                        .copied()
                        .collect::<Vec<_>>()
                })
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, items, "{n} shards");
        }
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard::new(2, 8).unwrap());
        assert_eq!("2/8".parse::<Shard>().unwrap().to_string(), "2/8");
        for bad in ["0/3", "4/3", "1/0"] {
            assert!(matches!(
                bad.parse::<Shard>(),
                Err(ShardError::Range { .. })
            ));
        }
        for bad in ["", "3", "a/b", "1/2/3", "-1/2"] {
            assert!(matches!(bad.parse::<Shard>(), Err(ShardError::Form(_))));
        }
    }

    #[test]
    fn plans_select_slices_waves_and_shards() {
        let plan = Plan::new(vec![
            vec!["a".into(), "b".into(), "c".into()],
            vec![],
            vec!["d".into()],
        ]);
        assert_eq!(plan.waves().len(), 2);
        assert_eq!(plan.select(&Selection::All).unwrap(), ["a", "b", "c", "d"]);
        assert_eq!(plan.select(&Selection::Slice("d".into())).unwrap(), ["d"]);
        let second = Selection::Wave {
            wave: 0,
            shard: Shard::new(2, 2).unwrap(),
        };
        assert_eq!(plan.select(&second).unwrap(), ["b"]);
        assert_eq!(
            plan.select(&Selection::Slice("e".into())),
            Err(PlanError::NoSlice("e".into()))
        );
        assert!(matches!(
            plan.select(&Selection::Wave {
                wave: 2,
                shard: Shard::WHOLE
            }),
            Err(PlanError::NoWave { wave: 2, waves: 2 })
        ));
        assert_eq!(plan.to_lines(), "0\ta\n0\tb\n0\tc\n1\td\n");
    }
}
