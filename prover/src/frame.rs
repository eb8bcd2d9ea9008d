//! What the proof and checkpoint files share: a magic and a version up front and a CRC-32
//! of everything before it at the end (they are written through `quasar_core::file`).

use quasar_core::Side;

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

/// The side a stored byte names (0 first, 1 second), `None` for any other byte.
pub fn side_of(b: u8) -> Option<Side> {
    match b {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}
