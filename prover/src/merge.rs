//! Proofs written by several jobs (`--out FILE --shard I/N`, each proving its share of
//! the loser's first replies, or of a draw's the first moves of the side that does not
//! hold) merged into one file: the pieces' records, sorted by hash in
//! each, are taken a 256th of the hash range at a time from every piece, a position in two
//! pieces keeps its smallest bound (its sub-proof in that piece is whole), and the file is
//! named only once complete.

use crate::instance::ProverPosition;
use crate::proof::{sort_records, write_proof_file, ProofError, ProofFile, ProofView, Record};
use crate::proof_writer::ProofSummary;
use quasar_file::OutputLock;

use std::io;
use std::path::{Path, PathBuf};

/// Hash bits that cut the merge into parts.
const PART_BITS: u32 = 8;

/// Merges the proof pieces at `pieces` (one proof's root, winner and length) into `out`.
pub fn merge<P: ProverPosition>(
    pieces: &[PathBuf],
    out: &Path,
) -> Result<ProofSummary, ProofError> {
    let lock = OutputLock::acquire(out)?;
    let files = pieces
        .iter()
        .map(|p| ProofFile::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let views = files
        .iter()
        .map(ProofFile::view::<P>)
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = views.first() else {
        return Err(ProofError::Invalid("no proof pieces to merge".into()));
    };
    for (v, p) in views.iter().zip(pieces) {
        if (v.root, v.verdict) != (first.root, first.verdict) {
            return Err(ProofError::Invalid(format!(
                "{} proves that {}, {} that {}: pieces of one proof only",
                p.display(),
                v.verdict.text(&v.root),
                pieces[0].display(),
                first.verdict.text(&first.root),
            )));
        }
    }
    let root = first.root;
    let mover = root.side_to_move();
    if first.verdict.winner().is_none_or(|w| w == mover) {
        // Each job wrote the root's record with the move whose replies it shared out (a
        // draw's: the side to move's holding move): the jobs must have agreed on it, or no
        // piece proves the other move's replies.
        let moves: Vec<Option<Record>> = views.iter().map(|v| v.find(&root.raw_key())).collect();
        if moves
            .iter()
            .any(|m| m.map(|r| r.mv) != moves[0].map(|r| r.mv))
        {
            return Err(ProofError::Invalid(
                "the pieces prove different moves at the root (or one has no root record): \
                 write every piece from the same checkpoint"
                    .into(),
            ));
        }
    }
    merge_views(&views, Vec::new(), &first.root, first.verdict, out, &lock)
}

/// Writes the proof `verdict` of `root` to `out` (under its `lock`) from the records of
/// `views` and `extra` (sorted by [`sort_records`]): a position in two of them keeps its
/// smallest bound, which proves what any larger one would (a record's sub-proof is whole
/// in its own piece, and every record it leads to only gets a smaller bound).
pub(crate) fn merge_views<P: ProverPosition>(
    views: &[ProofView<P>],
    extra: Vec<Record>,
    root: &P,
    verdict: crate::proof::Verdict,
    out: &Path,
    lock: &OutputLock,
) -> Result<ProofSummary, ProofError> {
    let expected: u64 = views.iter().map(ProofView::len).sum::<u64>() + extra.len() as u64;
    let mut cursors = vec![0u64; views.len()];
    let mut extra = extra.into_iter().peekable();
    let chunks = (0..1u64 << PART_BITS).map(|part| -> io::Result<Vec<Record>> {
        let mut chunk = Vec::new();
        for (v, at) in views.iter().zip(cursors.iter_mut()) {
            while *at < v.len() {
                let r = v.record(*at).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, "a record of an unknown kind")
                })?;
                if r.hash() >> (64 - PART_BITS) != part {
                    break;
                }
                chunk.push(r);
                *at += 1;
            }
        }
        while let Some(r) = extra.next_if(|r| r.hash() >> (64 - PART_BITS) == part) {
            chunk.push(r);
        }
        sort_records(&mut chunk, true);
        Ok(chunk)
    });
    write_proof_file(out, lock, root, verdict, expected, chunks)
}
