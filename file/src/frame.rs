//! The framed header every binary format shares: an 8-byte magic, a little-endian u32
//! format version at byte 8, the format's own parameters, and a CRC-32 that guards the
//! header. Reading checks, in this order, the length, the magic, the checksum and only then
//! the version, so that a damaged header (a flipped version byte included) is reported as
//! damage, never as "another version"; a version the format had before, whose checksum lay
//! elsewhere, is still named as that version.

use super::FileError;
use std::path::Path;

/// Where a format keeps the CRC-32 that guards its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seal {
    /// The header's last four bytes: a CRC-32 of the header before them.
    HeaderEnd,
    /// The file's last four bytes: a CRC-32 of everything before them.
    FileEnd,
    /// Four bytes at this offset in the header: a CRC-32 of the whole file with them zero.
    ZeroedAt(usize),
}

/// One binary format's frame: what its header starts with and how it is sealed.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The first eight bytes.
    pub magic: [u8; 8],
    /// The version this code reads and writes.
    pub version: u32,
    /// Versions the format had before, laid out otherwise: named as such even when this
    /// version's checksum fails on them.
    pub older: &'static [u32],
    /// Bytes of the header, the seal included when it lies there.
    pub header_bytes: usize,
    /// Where the checksum lies.
    pub seal: Seal,
    /// What a file of the format is, for messages (`Breakthrough table`).
    pub what: &'static str,
    /// What a user does about a damaged file or one of another version, for messages.
    pub remedy: &'static str,
}

/// Why bytes are not an intact frame of a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// Fewer bytes than the header (and the seal) take.
    #[error(
        "{len} bytes, shorter than the {need}-byte header of a {what}: truncated or not a {what}"
    )]
    Short {
        /// The bytes there are.
        len: usize,
        /// The bytes a header takes.
        need: usize,
        /// The format.
        what: &'static str,
    },
    /// Another magic.
    #[error("not a {what} (bad magic)")]
    Magic {
        /// The format.
        what: &'static str,
    },
    /// The checksum fails.
    #[error("{} checksum mismatch: the file is damaged{}", if *.header_only { "header" } else { "file" }, if *.header_only { "" } else { " or cut short" })]
    Checksum {
        /// The checksum covers the header alone.
        header_only: bool,
    },
    /// An intact header of another version.
    #[error("format version {found}; this quasar reads version {reads}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version read here.
        reads: u32,
    },
}

impl FrameError {
    /// True for damage (a cut, a failed checksum), false for a file of another format or
    /// version.
    pub fn is_damage(&self) -> bool {
        matches!(self, FrameError::Short { .. } | FrameError::Checksum { .. })
    }
}

/// Little-endian fields of a checked header (or any bytes): each reader takes an offset
/// the format fixes; an offset past the end is a bug of the format's code and panics.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a>(pub &'a [u8]);

impl<'a> Fields<'a> {
    /// The byte at `at`.
    pub fn u8(&self, at: usize) -> u8 {
        self.0[at]
    }

    /// The u16 at `at`.
    pub fn u16(&self, at: usize) -> u16 {
        u16::from_le_bytes(self.bytes::<2>(at))
    }

    /// The u32 at `at`.
    pub fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.bytes::<4>(at))
    }

    /// The u64 at `at`.
    pub fn u64(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.bytes::<8>(at))
    }

    /// The `N` bytes at `at`.
    pub fn bytes<const N: usize>(&self, at: usize) -> [u8; N] {
        self.0[at..at + N]
            .try_into()
            .expect("a field inside the bytes")
    }

    /// All the bytes.
    pub fn all(&self) -> &'a [u8] {
        self.0
    }
}

/// Writes `v` little-endian at `at` of `out`.
pub fn put_u32(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Writes `v` little-endian at `at` of `out`.
pub fn put_u64(out: &mut [u8], at: usize, v: u64) {
    out[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Bytes of a frame's header before a format's own fields: the magic and the version.
const FRAME_PREFIX: usize = 12;

/// A format's fields written one after another, little-endian: the format names each
/// field once, in order, and [`FieldReader`] takes them back in the same order, so that
/// neither side spells out a byte offset.
#[derive(Clone, Debug, Default)]
pub struct FieldWriter(Vec<u8>);

impl FieldWriter {
    /// No fields yet.
    pub fn new() -> FieldWriter {
        FieldWriter(Vec::new())
    }

    /// The start of a header of `frame`: its magic and version, the format's fields next.
    pub fn header(frame: &Frame) -> FieldWriter {
        let mut h = frame.header();
        h.truncate(FRAME_PREFIX);
        FieldWriter(h)
    }

    /// Appends a byte.
    pub fn u8(&mut self, v: u8) -> &mut FieldWriter {
        self.0.push(v);
        self
    }

    /// Appends a u32.
    pub fn u32(&mut self, v: u32) -> &mut FieldWriter {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Appends a u64.
    pub fn u64(&mut self, v: u64) -> &mut FieldWriter {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Appends bytes as they are.
    pub fn bytes(&mut self, v: &[u8]) -> &mut FieldWriter {
        self.0.extend_from_slice(v);
        self
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing is written.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The header of `frame` these fields make, zero-padded to its size and sealed
    /// ([`Seal::HeaderEnd`]); fields that do not fit before the seal are a bug of the
    /// format's code and panic.
    pub fn seal(self, frame: &Frame) -> Vec<u8> {
        assert_eq!(frame.seal, Seal::HeaderEnd, "a header sealed at its end");
        assert!(
            self.0.len() <= frame.header_bytes - 4,
            "{} bytes of fields in a {}-byte header",
            self.0.len(),
            frame.header_bytes
        );
        let mut h = self.0;
        h.resize(frame.header_bytes, 0);
        frame.seal(&mut h);
        h
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// Fields read back in the order a [`FieldWriter`] wrote them; a read past the bytes'
/// end is `None` (a file cut short, or a length field that lies), never a panic.
#[derive(Clone, Copy, Debug)]
pub struct FieldReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> FieldReader<'a> {
    /// Reads `bytes` from their start.
    pub fn new(bytes: &'a [u8]) -> FieldReader<'a> {
        FieldReader { bytes, at: 0 }
    }

    /// Reads a checked header's own fields, after its magic and version.
    pub fn header(fields: Fields<'a>) -> FieldReader<'a> {
        FieldReader {
            bytes: fields.all(),
            at: FRAME_PREFIX,
        }
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let b = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(b)
    }

    /// The next byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.bytes(1)?[0])
    }

    /// The next u32.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(4)?.try_into().ok()?))
    }

    /// The next u64.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }

    /// Bytes read so far (from the start of the bytes given).
    pub fn position(&self) -> usize {
        self.at
    }
}

impl Frame {
    /// A zeroed header of this format with its magic and version written.
    pub fn header(&self) -> Vec<u8> {
        let mut h = vec![0u8; self.header_bytes];
        h[..8].copy_from_slice(&self.magic);
        put_u32(&mut h, 8, self.version);
        h
    }

    /// Writes the checksum into `bytes`, the header (for [`Seal::HeaderEnd`], the rest is
    /// not read) or the whole file, which for [`Seal::FileEnd`] gets it appended.
    pub fn seal(&self, bytes: &mut Vec<u8>) {
        match self.seal {
            Seal::HeaderEnd => {
                let at = self.header_bytes - 4;
                let crc = crc32fast::hash(&bytes[..at]);
                put_u32(bytes, at, crc);
            }
            Seal::FileEnd => {
                let crc = crc32fast::hash(bytes);
                bytes.extend_from_slice(&crc.to_le_bytes());
            }
            Seal::ZeroedAt(at) => {
                put_u32(bytes, at, 0);
                let crc = crc32fast::hash(bytes);
                put_u32(bytes, at, crc);
            }
        }
    }

    /// The bytes before the seal once length, magic, checksum and version are right:
    /// for [`Seal::FileEnd`] everything but the last four bytes, else all of `bytes`
    /// (which for [`Seal::HeaderEnd`] may be the header alone).
    pub fn open<'a>(&self, bytes: &'a [u8]) -> Result<Fields<'a>, FrameError> {
        let need = self.header_bytes + if self.seal == Seal::FileEnd { 4 } else { 0 };
        if bytes.len() < need {
            return Err(FrameError::Short {
                len: bytes.len(),
                need,
                what: self.what,
            });
        }
        if bytes[..8] != self.magic {
            return Err(FrameError::Magic { what: self.what });
        }
        let (body, intact) = match self.seal {
            Seal::HeaderEnd => {
                let at = self.header_bytes - 4;
                (
                    bytes,
                    crc32fast::hash(&bytes[..at]) == Fields(bytes).u32(at),
                )
            }
            Seal::FileEnd => {
                let (body, tail) = bytes.split_at(bytes.len() - 4);
                (body, crc32fast::hash(body) == Fields(tail).u32(0))
            }
            Seal::ZeroedAt(at) => {
                let mut crc = crc32fast::Hasher::new();
                crc.update(&bytes[..at]);
                crc.update(&[0; 4]);
                crc.update(&bytes[at + 4..]);
                (bytes, crc.finalize() == Fields(bytes).u32(at))
            }
        };
        let found = Fields(bytes).u32(8);
        if !intact && !self.older.contains(&found) {
            return Err(FrameError::Checksum {
                header_only: self.seal == Seal::HeaderEnd,
            });
        }
        if found != self.version {
            return Err(FrameError::Version {
                found,
                reads: self.version,
            });
        }
        Ok(Fields(body))
    }

    /// [`Frame::open`] for the file `path`: a failure is a [`FileError::Frame`] naming it.
    pub fn check<'a>(&self, bytes: &'a [u8], path: &Path) -> Result<Fields<'a>, FileError> {
        self.open(bytes).map_err(|source| FileError::Frame {
            path: path.to_path_buf(),
            source,
            remedy: self.remedy,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Frame = Frame {
        magic: *b"QTESTFMT",
        version: 3,
        older: &[1, 2],
        header_bytes: 32,
        seal: Seal::HeaderEnd,
        what: "test file",
        remedy: "write it again",
    };

    fn sealed(f: &Frame, body: &[u8]) -> Vec<u8> {
        let mut b = f.header();
        put_u64(&mut b, 16, 0x0102_0304_0506_0708);
        if f.seal != Seal::HeaderEnd {
            b.extend_from_slice(body);
        }
        f.seal(&mut b);
        b
    }

    #[test]
    fn every_seal_round_trips_and_every_flip_is_caught_as_damage() {
        for seal in [Seal::HeaderEnd, Seal::FileEnd, Seal::ZeroedAt(24)] {
            let f = Frame { seal, ..TEST };
            let bytes = sealed(&f, b"some body");
            let fields = f.open(&bytes).unwrap();
            assert_eq!(fields.u64(16), 0x0102_0304_0506_0708);
            assert_eq!(fields.u8(0), b'Q');
            assert_eq!(
                fields.all().len(),
                bytes.len() - if seal == Seal::FileEnd { 4 } else { 0 }
            );
            for at in 8..bytes.len() {
                // The header's bytes after the magic (and, sealed over the file, the body's).
                if seal == Seal::HeaderEnd && at >= f.header_bytes {
                    continue;
                }
                let mut bad = bytes.clone();
                bad[at] ^= 0x10;
                let e = f.open(&bad).unwrap_err();
                assert!(e.is_damage(), "{seal:?}, byte {at}: {e}");
            }
        }
    }

    #[test]
    fn fields_read_back_in_order_and_a_read_past_the_end_is_none() {
        let mut w = FieldWriter::header(&TEST);
        w.u8(7).u32(0xDEAD_BEEF).u64(1 << 40).bytes(b"ab");
        assert_eq!(w.len(), 12 + 1 + 4 + 8 + 2);
        let h = w.seal(&TEST);
        assert_eq!(h.len(), TEST.header_bytes);
        let mut r = FieldReader::header(TEST.open(&h).unwrap());
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u32(), Some(0xDEAD_BEEF));
        assert_eq!(r.u64(), Some(1 << 40));
        assert_eq!(r.bytes(2), Some(&b"ab"[..]));
        assert_eq!(r.position(), 27);
        let mut body = FieldWriter::new();
        body.u32(5).u8(1);
        let bytes = body.into_bytes();
        let mut r = FieldReader::new(&bytes);
        assert_eq!(r.u32(), Some(5));
        assert_eq!(r.u32(), None, "one byte left");
        assert_eq!(r.u8(), Some(1));
        assert_eq!(r.bytes(usize::MAX), None);
    }

    #[test]
    #[should_panic(expected = "bytes of fields")]
    fn fields_past_the_seal_are_refused() {
        let mut w = FieldWriter::header(&TEST);
        w.bytes(&[0; 20]);
        w.seal(&TEST);
    }

    #[test]
    fn each_failure_has_its_own_words() {
        let bytes = sealed(&TEST, b"");
        let path = Path::new("x.bin");
        let err = |b: &[u8]| TEST.check(b, path).unwrap_err().to_string();
        assert_eq!(
            err(&bytes[..10]),
            "x.bin: 10 bytes, shorter than the 32-byte header of a test file: truncated or not a test file; write it again"
        );
        let mut other = bytes.clone();
        other[0] = b'X';
        assert_eq!(
            err(&other),
            "x.bin: not a test file (bad magic); write it again"
        );
        let mut flipped = bytes.clone();
        flipped[9] ^= 1;
        assert_eq!(
            err(&flipped),
            "x.bin: header checksum mismatch: the file is damaged; write it again"
        );
        // An older version, whose checksum lay elsewhere, is named by its version.
        let mut old = bytes.clone();
        put_u32(&mut old, 8, 1);
        assert_eq!(
            err(&old),
            "x.bin: format version 1; this quasar reads version 3; write it again"
        );
        // A newer one, intact, too.
        let mut newer = bytes.clone();
        put_u32(&mut newer, 8, 4);
        TEST.seal(&mut newer);
        assert_eq!(
            err(&newer),
            "x.bin: format version 4; this quasar reads version 3; write it again"
        );
    }
}
