//! Building a sliced table: a slice solved from the finished slices it reads, and written.

use super::{write_atomic, SliceHeader, SlicedTable, Slot};
use crate::tablebase::recurrence::Recurrence;
use crate::tablebase::store::file::TableFileError;
use crate::tablebase::store::Corrupt;
use crate::tablebase::store::Reader;
use rayon::prelude::*;
use std::cell::Cell;

impl SlicedTable {
    /// Computes slice `id` from the slices it reads, which must be finished: its packed
    /// bytes and depth histogram. An error names a needed slice that cannot be read.
    pub fn solve_slice(&self, id: u32) -> Result<(Vec<u8>, [u64; 17]), Corrupt> {
        let s = &self.slicing;
        for input in s.inputs(id) {
            match self.slot(input) {
                Slot::Present(_) => {}
                Slot::Missing => {
                    return Err(Corrupt::MissingSlice {
                        slice: s.slice_name(input),
                    })
                }
                Slot::Failed(c) => return Err(*c),
            }
        }
        const BYTES: usize = 1 << 12;
        let per_byte = s.per_byte() as u64;
        let mut out = vec![0u8; s.bytes_per_slice()];
        let histograms = out
            .par_chunks_mut(BYTES)
            .enumerate()
            .map(|(chunk, bytes)| {
                let reader = Reader {
                    table: self,
                    failed: Cell::new(None),
                };
                let solver = Recurrence::new(s.region(), &reader, s.cap());
                let mut hist = [0u64; 17];
                let mut depths = vec![0u8; bytes.len() * per_byte as usize];
                let first = (chunk * BYTES) as u64 * per_byte;
                let end = (first + depths.len() as u64).min(s.per_slice());
                for idx in first..end {
                    let d = solver.solve(s.config(id, idx));
                    depths[(idx - first) as usize] = d;
                    hist[d as usize] += 1;
                }
                // Padding digits past the slice's end are stored as the cap.
                for d in depths[(end - first) as usize..].iter_mut() {
                    *d = s.cap();
                }
                s.pack(&depths, bytes);
                // A block of an input found damaged on the way: nothing built from it.
                match reader.failed.get() {
                    Some(e) => Err(e),
                    None => Ok(hist),
                }
            })
            .collect::<Result<Vec<_>, Corrupt>>()?;
        let mut histogram = [0u64; 17];
        for h in histograms {
            for (x, y) in histogram.iter_mut().zip(h) {
                *x += y;
            }
        }
        Ok((out, histogram))
    }

    /// Writes slice `id` (through a temporary file renamed when complete).
    pub fn write_slice(
        &self,
        id: u32,
        packed: &[u8],
        histogram: [u64; 17],
    ) -> Result<SliceHeader, TableFileError> {
        let s = &self.slicing;
        let header = SliceHeader {
            slice: id,
            configs: s.per_slice(),
            histogram,
            crc: crc32fast::hash(packed),
        };
        let bytes = header.encode(s.region().board(), s.region().rows(), s.states());
        write_atomic(&self.slice_path(id), &[&bytes, packed])?;
        Ok(header)
    }
}
