//! What the proof and checkpoint files share beyond the frame of `quasar_file` (a
//! magic, a version and a CRC-32 of everything before it at the end): the root position at
//! bytes 12-31 of the header, and the byte that names a side.

use crate::instance::ProverPosition;
use crate::tt::Key;
use quasar_core::Side;
use quasar_file::{Fields, Frame, Seal};

/// The frame of a file of these formats: `what` names it, `remedy` says how to rewrite it.
pub const fn sealed_at_end(
    magic: [u8; 8],
    version: u32,
    older: &'static [u32],
    header_bytes: usize,
    what: &'static str,
    remedy: &'static str,
) -> Frame {
    Frame {
        magic,
        version,
        older,
        header_bytes,
        seal: Seal::FileEnd,
        what,
        remedy,
    }
}

/// The root position a header stores: the size parameters at bytes 12 and 13, the side to
/// move at `side_at`, the key's words at 16 and 24; else why not.
pub fn root_of<P: ProverPosition>(h: Fields, side_at: usize) -> Result<P, String> {
    let side = side_of(h.u8(side_at)).ok_or("bad side to move")?;
    let key = Key {
        a: h.u64(16),
        b: h.u64(24),
        side: side as u8,
    };
    P::from_params([h.u8(12), h.u8(13)], &key).map_err(|e| format!("bad root position: {e}"))
}

/// Whether the header's size bytes (12 and 13) are of the game of `P`.
pub fn of_game<P: ProverPosition>(h: &Fields) -> bool {
    P::owns_params([h.u8(12), h.u8(13)])
}

/// The side a stored byte names (0 first, 1 second), `None` for any other byte.
pub fn side_of(b: u8) -> Option<Side> {
    match b {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}
