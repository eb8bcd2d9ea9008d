//! The solved-table file: a 128-byte header (magic, format version, game name, the game's
//! parameters, position count, section count, CRC-32 of header and body) followed by
//! sections of packed values; written to a temporary file and renamed into place.

use crate::packed::PackedArray;
use quasar_file::{self as file, FileError, Frame, FrameError, OutputLock, Seal};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of every retrograde table file.
pub const MAGIC: [u8; 8] = *b"QUASARRT";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Header bytes before the body.
pub const HEADER_BYTES: usize = 128;
/// The frame of a table file: a CRC-32 of the whole file at byte 72.
pub const FRAME: Frame = Frame {
    magic: MAGIC,
    version: VERSION,
    older: &[],
    header_bytes: HEADER_BYTES,
    seal: Seal::ZeroedAt(72),
    what: "quasar retrograde table",
    remedy: "rebuild the table with `quasar tablebase build`",
};
/// Bytes of the game name field.
const NAME_BYTES: usize = 16;
/// Bytes of a section's own header.
const SECTION_HEADER: usize = 32;

/// Why a table file cannot be used; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file could not be read or written, or the file layer refused it (not a regular
    /// file, too large, another run's).
    #[error(transparent)]
    File(#[from] FileError),
    /// The file is not a table of this format, or is damaged.
    #[error("{path}: {msg}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
}

/// One array of values: a tag saying what it holds, an offset added to every stored value,
/// and the packed values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// What the values are (defined by the game: results, plies, scores, ...).
    pub tag: u32,
    /// Added to each stored value to give the real one (scores may be negative).
    pub offset: i32,
    /// The values, one per position.
    pub values: PackedArray,
}

/// A whole table: which game and parameters, and its sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFile {
    /// The game's name (at most 16 ASCII bytes), such as `woodpush`.
    pub game: String,
    /// The game's parameters (a width, a ko mode, ...), defined by the game.
    pub params: [u32; 8],
    /// Positions in the index.
    pub positions: u64,
    /// The value arrays.
    pub sections: Vec<Section>,
}

/// The game named in a table file's first [`HEADER_BYTES`] bytes (fewer are read as
/// far as they go); `None` when they do not start with [`MAGIC`] or stop before the name.
pub fn game_in_header(head: &[u8]) -> Option<String> {
    if !head.starts_with(&MAGIC) || head.len() < 12 + NAME_BYTES {
        return None;
    }
    let name = &head[12..12 + NAME_BYTES];
    let len = name.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
    Some(String::from_utf8_lossy(&name[..len]).into_owned())
}

impl TableFile {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = FRAME.header();
        let name = self.game.as_bytes();
        let k = name.len().min(NAME_BYTES);
        out[12..12 + k].copy_from_slice(&name[..k]);
        for (i, p) in self.params.iter().enumerate() {
            out[28 + 4 * i..32 + 4 * i].copy_from_slice(&p.to_le_bytes());
        }
        out[60..68].copy_from_slice(&self.positions.to_le_bytes());
        out[68..72].copy_from_slice(&(self.sections.len() as u32).to_le_bytes());
        for s in &self.sections {
            let mut h = [0u8; SECTION_HEADER];
            h[0..4].copy_from_slice(&s.tag.to_le_bytes());
            h[4..8].copy_from_slice(&s.values.bits().to_le_bytes());
            h[8..12].copy_from_slice(&s.offset.to_le_bytes());
            h[16..24].copy_from_slice(&s.values.len().to_le_bytes());
            h[24..32].copy_from_slice(&(s.values.words().len() as u64).to_le_bytes());
            out.extend_from_slice(&h);
            for w in s.values.words() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        FRAME.seal(&mut out);
        out
    }

    /// Reads a table from its bytes, checking magic, version, sizes and checksum; `path`
    /// names the source in errors.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<TableFile, TableFileError> {
        let bad = |msg: String| TableFileError::Invalid {
            path: path.to_path_buf(),
            msg,
        };
        let f = FRAME.check(bytes, path)?;
        let name = &f.all()[12..12 + NAME_BYTES];
        let game = String::from_utf8_lossy(
            &name[..name.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES)],
        )
        .into_owned();
        let mut params = [0u32; 8];
        for (i, p) in params.iter_mut().enumerate() {
            *p = f.u32(28 + 4 * i);
        }
        let positions = f.u64(60);
        let count = f.u32(68);
        let mut at = HEADER_BYTES;
        let mut sections = Vec::new();
        for k in 0..count {
            if bytes.len() < at + SECTION_HEADER {
                return Err(bad(format!("section {k} is cut off")));
            }
            let tag = f.u32(at);
            let bits = f.u32(at + 4);
            let offset = f.u32(at + 8) as i32;
            let len = f.u64(at + 16);
            let words = f.u64(at + 24) as usize;
            at += SECTION_HEADER;
            if words > (bytes.len() - at) / 8 {
                return Err(bad(format!("section {k} is cut off")));
            }
            let data = bytes[at..at + 8 * words]
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            at += 8 * words;
            let values = PackedArray::from_words(bits, len, data).ok_or_else(|| {
                bad(format!(
                    "section {k}: {bits}-bit values do not fill {words} words"
                ))
            })?;
            sections.push(Section {
                tag,
                offset,
                values,
            });
        }
        if at != bytes.len() {
            return Err(bad(format!(
                "{} bytes after the last section",
                bytes.len() - at
            )));
        }
        Ok(TableFile {
            game,
            params,
            positions,
            sections,
        })
    }

    /// Writes the table to `path` atomically, taking its lock (see [`quasar_file`]).
    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        Ok(file::write(path, &self.to_bytes())?)
    }

    /// Writes the table to `path` atomically under `lock`, already held.
    pub fn save_under(&self, path: &Path, lock: &OutputLock) -> Result<(), TableFileError> {
        Ok(file::write_with(path, lock, |f| {
            f.write_all(&self.to_bytes())
        })?)
    }

    /// Reads and checks the table at `path`: a regular file, read no further than its
    /// header's position and section counts allow (values of at most 32 bits).
    pub fn load(path: &Path) -> Result<TableFile, TableFileError> {
        let bytes = file::read_by_header(path, HEADER_BYTES, "quasar retrograde table", |h| {
            if h[0..8] != MAGIC {
                return Err(FrameError::Magic { what: FRAME.what }.to_string());
            }
            let positions = u64::from_le_bytes(h[60..68].try_into().expect("8 bytes"));
            let sections = u32::from_le_bytes(h[68..72].try_into().expect("4 bytes"));
            let words = positions.div_ceil(2).saturating_add(1);
            let section = (SECTION_HEADER as u64).saturating_add(words.saturating_mul(8));
            Ok((HEADER_BYTES as u64).saturating_add(section.saturating_mul(sections.into())))
        })?;
        TableFile::from_bytes(&bytes, path)
    }

    /// The section with `tag`, if present.
    pub fn section(&self, tag: u32) -> Option<&Section> {
        self.sections.iter().find(|s| s.tag == tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TableFile {
        let mut a = PackedArray::new(3, 100);
        for i in 0..100 {
            a.set(i, (i % 7) as u32);
        }
        TableFile {
            game: "toy".into(),
            params: [9, 1, 0, 0, 0, 0, 0, 0],
            positions: 100,
            sections: vec![Section {
                tag: 3,
                offset: -4,
                values: a,
            }],
        }
    }

    #[test]
    fn bytes_round_trip_and_damage_is_caught() {
        let t = sample();
        let bytes = t.to_bytes();
        let p = Path::new("toy.table");
        assert_eq!(TableFile::from_bytes(&bytes, p).unwrap(), t);
        for at in [0, 9, 30, 80, 140, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            assert!(
                TableFile::from_bytes(&b, p).is_err(),
                "flip at {at} accepted"
            );
        }
        assert!(TableFile::from_bytes(&bytes[..bytes.len() - 8], p).is_err());
        assert!(TableFile::from_bytes(&bytes[..50], p).is_err());
    }

    #[test]
    fn the_header_names_the_game() {
        let bytes = sample().to_bytes();
        assert_eq!(
            game_in_header(&bytes[..HEADER_BYTES]).as_deref(),
            Some("toy")
        );
        assert_eq!(game_in_header(&bytes[..20]), None);
        assert_eq!(
            game_in_header(b"QUASARTB and more than twenty-eight bytes"),
            None
        );
    }
}
