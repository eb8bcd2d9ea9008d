//! Checks of a whole sliced table: which slices are built, each finished file whole, and
//! the block index written from them.

use super::{write_atomic, SliceHeader, SliceState, SlicedTable, SLICE_HEADER};
use crate::tablebase::store::file::TableFileError;
use crate::tablebase::store::slice_blocks::{BlockIndex, BLOCK_INDEX};
use crate::tablebase::store::Corrupt;
use quasar_core::progress::Progress;
use quasar_file::slices;
use rayon::prelude::*;

impl SlicedTable {
    /// The headers of every finished slice, checking each file whole (on all cores),
    /// reporting slices done to `progress`; the first damaged slice is the error, and
    /// then, if any slice is not built, [`Corrupt::Incomplete`].
    pub fn verify_all(&self, progress: &dyn Progress) -> Result<Vec<SliceHeader>, Corrupt> {
        let (headers, missing) = self.check_all(progress)?;
        match missing.first() {
            None => Ok(headers),
            Some(&first) => Err(self.incomplete(first, missing.len())),
        }
    }

    /// The error of a table whose stored slices `first` and `missing - 1` others are not
    /// built.
    fn incomplete(&self, first: u32, missing: usize) -> Corrupt {
        let s = &self.slicing;
        Corrupt::Incomplete {
            first: s.slice_name(first),
            missing: missing as u32,
            slices: (0..s.slices()).filter(|&id| s.is_canonical(id)).count() as u32,
        }
    }

    /// Which stored slices are built, not built, or have a file of another size than a
    /// slice's (cut short), from one listing of the directory: no slice is opened, so a
    /// flipped byte is found only where it is read.
    pub fn survey(&self) -> Result<slices::Survey, TableFileError> {
        let s = &self.slicing;
        let names: Vec<String> = (0..s.slices())
            .filter(|&id| s.is_canonical(id))
            .map(|id| s.name(id).to_string())
            .collect();
        let want = (SLICE_HEADER + self.slice_len) as u64;
        Ok(self.files.survey(&names, |_, _, len| match len == want {
            true => Ok(()),
            false => Err(format!("{len} bytes, not the {want} of a slice: cut short")),
        })?)
    }

    /// The error naming the first slices not built and how many are not, when the table
    /// is incomplete, else the first slice cut short (see [`SlicedTable::survey`]).
    pub fn completeness(&self) -> Result<(), TableFileError> {
        Ok(self.files.check(&self.survey()?)?)
    }

    /// The headers of every finished slice and the stored slices not built, checking each
    /// file whole (on all cores), reporting slices done to `progress`; the first damaged
    /// slice is the error.
    pub fn check_all(
        &self,
        progress: &dyn Progress,
    ) -> Result<(Vec<SliceHeader>, Vec<u32>), Corrupt> {
        let ids: Vec<u32> = (0..self.slicing.slices())
            .filter(|&id| self.slicing.is_canonical(id))
            .collect();
        progress.begin("slices", ids.len() as u64);
        let states: Vec<(u32, SliceState)> = ids
            .par_iter()
            .map(|&id| {
                let st = self.state(id);
                progress.advance(1);
                (id, st)
            })
            .collect();
        progress.end();
        let (mut headers, mut missing) = (Vec::new(), Vec::new());
        for (id, st) in states {
            match st {
                SliceState::Finished(h) => headers.push(h),
                SliceState::Missing => missing.push(id),
                SliceState::Damaged(_) => {
                    return Err(Corrupt::Slice {
                        slice: self.slicing.slice_name(id),
                    })
                }
            }
        }
        Ok((headers, missing))
    }

    /// The first damaged slice a read ran into, if any.
    pub fn first_damage(&self) -> Option<Corrupt> {
        self.first_bad.get().copied()
    }

    /// Checks every finished slice whole and writes the table's block index with blocks of
    /// `block_bytes` (a power of two, at least 64;
    /// [`SLICE_BLOCK_BYTES`](crate::tablebase::store::slice_blocks::SLICE_BLOCK_BYTES) for
    /// use), so that probes of a later open check only the blocks they read.
    pub fn write_block_index(
        &self,
        block_bytes: usize,
        progress: &dyn Progress,
    ) -> Result<(), TableFileError> {
        let index = BlockIndex::build(&self.slicing, block_bytes, progress, |id| {
            match self.read_slice(id) {
                Err(e) if e.is_not_found() => Ok(None),
                Err(_) => Err(Corrupt::Slice {
                    slice: self.slicing.slice_name(id),
                }),
                Ok(mut bytes) => match self.check(id, &bytes) {
                    Ok(h) => Ok(Some((bytes.split_off(SLICE_HEADER), h.crc))),
                    Err(_) => Err(Corrupt::Slice {
                        slice: self.slicing.slice_name(id),
                    }),
                },
            }
        })
        .map_err(|source| TableFileError::Damaged {
            path: self.dir().to_path_buf(),
            source,
        })?;
        write_atomic(&self.dir().join(BLOCK_INDEX), &[&index])
    }
}
