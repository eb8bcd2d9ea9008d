//! What the proof and checkpoint files share: a magic and a version up front, a CRC-32 of
//! everything before it at the end, and a write that never leaves half a file behind.

use quasar_core::Side;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// The body of a file of `bytes` (everything but the checksum) once its magic, length,
/// checksum and version are right; else why not, in words for an error message.
pub fn unframe<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
    header_bytes: usize,
    what: &str,
) -> Result<&'a [u8], String> {
    if bytes.len() < header_bytes + 4 || &bytes[..8] != magic {
        return Err(format!("it does not start with a {what} header"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    if crc32fast::hash(body) != stored {
        return Err("the checksum does not match (the file is damaged or cut short)".into());
    }
    let theirs = u32::from_le_bytes([body[8], body[9], body[10], body[11]]);
    if theirs != version {
        return Err(format!(
            "format version {theirs}, this quasar reads {version}"
        ));
    }
    Ok(body)
}

/// Writes `path` through a temporary file in the same folder, synced and renamed when
/// `fill` has written all of it, so a crash mid-write leaves any previous file intact.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<std::fs::File>) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut f = BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        fill(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The side a stored byte names (0 first, 1 second), `None` for any other byte.
pub fn side_of(b: u8) -> Option<Side> {
    match b {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}
