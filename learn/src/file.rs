//! The model file: quasar's framed header (magic, version, checksum over the whole file),
//! the identity the model was trained for, and the weights as little-endian `f32`.
//!
//! Layout (version 1): bytes 0-7 `QSRMODEL`, 8-11 the version, 12-15 the number of
//! weights, 16-19 the bias, 20-23 the identity's length in bytes, 24-27 the base's weight, 28-31
//! zero; then the
//! identity (game, size and feature set, one a line), the weights, and a CRC-32 of all
//! that comes before it.

use crate::features::Identity;
use crate::model::Model;
use quasar_file::{self as qfile, Fields, FileError, Frame, Seal};
use std::path::{Path, PathBuf};

/// The model file's frame.
pub const FRAME: Frame = Frame {
    magic: *b"QSRMODEL",
    version: 1,
    older: &[],
    header_bytes: HEADER,
    seal: Seal::FileEnd,
    what: "quasar model",
    remedy: "train it again with `quasar train fit`",
};

const HEADER: usize = 32;
/// More weights than any feature set has: a count above it is damage.
const MAX_WEIGHTS: u64 = 1 << 24;
/// Longer identities than any game writes.
const MAX_IDENTITY: u64 = 1 << 10;

/// Why a model cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file cannot be read or written, or is damaged.
    #[error(transparent)]
    File(#[from] FileError),
    /// An intact model for another game, size or feature set.
    #[error("{path} is a model for {found}, not for {expected}: train one for this game and size with `quasar train`")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What it was trained for.
        found: Box<Identity>,
        /// What the search needs.
        expected: Box<Identity>,
    },
}

/// Writes `model` to `path` atomically (nothing is left half-written on failure).
pub fn save(path: &Path, model: &Model) -> Result<(), FileError> {
    qfile::write(path, &to_bytes(model))
}

/// The file's bytes for `model`.
pub fn to_bytes(model: &Model) -> Vec<u8> {
    let id = identity_text(&model.identity);
    let mut bytes = FRAME.header();
    qfile::frame::put_u32(&mut bytes, 12, model.weights.len() as u32);
    bytes[16..20].copy_from_slice(&model.bias.to_le_bytes());
    qfile::frame::put_u32(&mut bytes, 20, id.len() as u32);
    bytes[24..28].copy_from_slice(&model.base_weight.to_le_bytes());
    bytes.extend_from_slice(id.as_bytes());
    for w in &model.weights {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    FRAME.seal(&mut bytes);
    bytes
}

/// Reads the model at `path` and checks that it was trained for `expected`.
pub fn load(path: &Path, expected: &Identity) -> Result<Model, NetError> {
    let model = load_any(path)?;
    if &model.identity != expected {
        return Err(NetError::Mismatch {
            path: path.to_path_buf(),
            found: Box::new(model.identity),
            expected: Box::new(expected.clone()),
        });
    }
    Ok(model)
}

/// The model shipped inside the program as `bytes`; a damaged or mismatched built-in model
/// is a fault of the build, which the game's tests catch.
pub fn from_builtin(bytes: &[u8], expected: &Identity) -> Model {
    let model = from_bytes(bytes, Path::new("the built-in model"))
        .unwrap_or_else(|e| panic!("a fault of the build: {e}"));
    assert_eq!(
        &model.identity, expected,
        "the built-in model is for the game it ships with"
    );
    model
}

/// Reads the model at `path`, whatever it was trained for.
pub fn load_any(path: &Path) -> Result<Model, FileError> {
    let bytes = qfile::read_by_header(path, HEADER, FRAME.what, |h| {
        let f = Fields(h);
        if h[..8] != FRAME.magic {
            return Err(format!("not a {} (bad magic)", FRAME.what));
        }
        let (n, id) = (f.u32(12) as u64, f.u32(20) as u64);
        if n > MAX_WEIGHTS || id > MAX_IDENTITY {
            return Err(format!(
                "its header claims {n} weights and a {id}-byte identity, more than any model has: damaged"
            ));
        }
        Ok(HEADER as u64 + id + 4 * n + 4)
    })?;
    from_bytes(&bytes, path)
}

/// The model in `bytes`, read from `path`: damage, another version or a body that does not
/// match its header is an error naming `path`.
fn from_bytes(bytes: &[u8], path: &Path) -> Result<Model, FileError> {
    let damaged = |msg: &str| FileError::Damaged {
        path: path.to_path_buf(),
        msg: msg.to_string(),
    };
    let body = FRAME.open(bytes).map_err(|source| FileError::Frame {
        path: path.to_path_buf(),
        source,
        remedy: FRAME.remedy,
    })?;
    let f = Fields(body.all());
    let n = f.u32(12) as usize;
    let bias = f32::from_le_bytes(f.bytes::<4>(16));
    let base_weight = f32::from_le_bytes(f.bytes::<4>(24));
    let id_len = f.u32(20) as usize;
    if body.all().len() != HEADER + id_len + 4 * n {
        return Err(damaged(&format!(
            "{} bytes where its header needs {}: damaged",
            bytes.len(),
            HEADER + id_len + 4 * n + 4
        )));
    }
    let id = std::str::from_utf8(&body.all()[HEADER..HEADER + id_len])
        .map_err(|_| damaged("its identity is not text: damaged"))?;
    let identity = parse_identity(id)
        .ok_or_else(|| damaged("its identity is not game, size and features: damaged"))?;
    let weights: Vec<f32> = body.all()[HEADER + id_len..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")))
        .collect();
    if !bias.is_finite() || !base_weight.is_finite() || weights.iter().any(|w| !w.is_finite()) {
        return Err(damaged("a weight is not a finite number: damaged"));
    }
    Ok(Model {
        identity,
        weights,
        bias,
        base_weight,
    })
}

fn identity_text(id: &Identity) -> String {
    format!("{}\n{}\n{}", id.game, id.params, id.features)
}

fn parse_identity(text: &str) -> Option<Identity> {
    let mut lines = text.split('\n');
    let (game, params, features) = (lines.next()?, lines.next()?, lines.next()?);
    if lines.next().is_some() || [game, params, features].iter().any(|s| s.is_empty()) {
        return None;
    }
    Some(Identity {
        game: game.into(),
        params: params.into(),
        features: features.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        Model {
            identity: Identity {
                game: "toy".into(),
                params: "3".into(),
                features: "cells-v1".into(),
            },
            weights: vec![0.5, -1.25, 3.0],
            bias: 0.125,
            base_weight: 0.75,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("learn-file-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("m.qsrmodel")
    }

    #[test]
    fn a_model_reads_back_as_written() {
        let p = temp("round");
        save(&p, &model()).unwrap();
        assert_eq!(load(&p, &model().identity).unwrap(), model());
    }

    #[test]
    fn another_identity_is_refused_by_name() {
        let p = temp("other");
        save(&p, &model()).unwrap();
        let mut want = model().identity;
        want.params = "4".into();
        let e = load(&p, &want).unwrap_err().to_string();
        assert!(
            e.contains("toy 3 (cells-v1)") && e.contains("not for toy 4"),
            "{e}"
        );
    }

    #[test]
    fn every_flipped_byte_and_every_cut_is_damage() {
        let bytes = to_bytes(&model());
        let p = temp("damage");
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            std::fs::write(&p, &b).unwrap();
            assert!(load_any(&p).is_err(), "flip at byte {i} accepted");
        }
        for len in 0..bytes.len() {
            std::fs::write(&p, &bytes[..len]).unwrap();
            assert!(load_any(&p).is_err(), "cut to {len} bytes accepted");
        }
    }
}
