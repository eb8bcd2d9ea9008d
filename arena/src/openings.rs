//! Openings files: one start position a line in the game's text notation (the text
//! `--position` reads), blank lines and `#` comments skipped. A match plays each position
//! with both colours, in file order or shuffled by the match's seed, and cycles through the
//! file again when it asks for more games; the file's content hash identifies it in records.

use engine::setup::GameSetup;
use quasar_core::splitmix64 as mix;
use quasar_core::Game;
use quasar_file::{self as file, FileError};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The largest openings file read (a few hundred thousand positions).
pub const MAX_BYTES: u64 = 16 << 20;

/// The order in which a match takes the file's positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningsOrder {
    /// As the file lists them.
    #[default]
    Sequential,
    /// Shuffled by the match's seed, anew for each pass through the file.
    Random,
}

impl OpeningsOrder {
    /// The order as options and records name it.
    pub fn name(self) -> &'static str {
        match self {
            OpeningsOrder::Sequential => "sequential",
            OpeningsOrder::Random => "random",
        }
    }
}

impl fmt::Display for OpeningsOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OpeningsOrder {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "sequential" => Ok(OpeningsOrder::Sequential),
            "random" => Ok(OpeningsOrder::Random),
            _ => Err(format!("'{text}': use sequential or random")),
        }
    }
}

/// Why an openings file cannot be used; each names the file, and the line where one is at
/// fault.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file could not be read (missing, a folder, too large).
    #[error("openings file {0}")]
    File(#[from] FileError),
    /// The file is not UTF-8 text.
    #[error("openings file {}: not text (UTF-8)", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// The file holds no position.
    #[error("openings file {}: no positions (one position a line; blank lines and # comments are skipped)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A line is not a position of the game.
    #[error("openings file {}, line {line}: '{text}' is not a {game} position: {message}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The line as given.
        text: String,
        /// The game's name.
        game: &'static str,
        /// What the game's parser said.
        message: String,
    },
    /// A position whose game is already over.
    #[error("openings file {}, line {line}: the game is already over in '{text}'", path.display())]
    Over {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The line as given.
        text: String,
    },
    /// A position of another size than the match's.
    #[error("openings file {}, line {line}: the position is {size}, but the match is on {want}", path.display())]
    OtherSize {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The position's size parameters.
        size: String,
        /// The match's size parameters.
        want: String,
    },
}

/// One position of an openings file.
#[derive(Clone, Debug, PartialEq)]
pub struct BookPosition<G> {
    /// The position.
    pub position: G,
    /// Its 1-based line in the file.
    pub line: u32,
}

/// The positions of an openings file, checked against a match's game and size.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningBook<G> {
    /// The positions in file order.
    pub positions: Vec<BookPosition<G>>,
    /// FNV-1a over the positions' texts, one a line, as 16 hex digits: what records keep
    /// to tell one openings file from another (comments and spacing do not count).
    pub hash: String,
    /// The order a match takes them in.
    pub order: OpeningsOrder,
}

/// A 64-bit FNV-1a hash of `bytes`: stable across versions and platforms, as a record needs.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl<G: Game> OpeningBook<G> {
    /// Reads the openings file `path` for `setup`'s game and size.
    pub fn load<S: GameSetup<Game = G>>(
        path: &Path,
        setup: &S,
        order: OpeningsOrder,
    ) -> Result<OpeningBook<G>, OpeningsError> {
        let bytes = file::read(path, MAX_BYTES, "openings file")?;
        let text = String::from_utf8(bytes).map_err(|_| OpeningsError::NotText {
            path: path.to_path_buf(),
        })?;
        Self::parse(path, &text, setup, order)
    }

    /// The positions of `text`, the content of the openings file `path`.
    pub fn parse<S: GameSetup<Game = G>>(
        path: &Path,
        text: &str,
        setup: &S,
        order: OpeningsOrder,
    ) -> Result<OpeningBook<G>, OpeningsError> {
        let mut positions = Vec::new();
        let mut canonical = String::new();
        // A byte-order mark, which some editors write first, is no part of the first line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // An error quotes the line, cut: a line of 100 KB is no message.
            let at = |line_no: usize| {
                let text = quasar_file::shorten(line, 80).into_owned();
                (path.to_path_buf(), line_no, text)
            };
            let position = G::parse_position(line).map_err(|e| {
                let (path, line, text) = at(i + 1);
                OpeningsError::BadLine {
                    path,
                    line,
                    text,
                    game: S::NAME,
                    message: quasar_file::shorten(&e.to_string(), 200).into_owned(),
                }
            })?;
            let size = S::of_position(&position);
            if size != *setup {
                return Err(OpeningsError::OtherSize {
                    path: path.to_path_buf(),
                    line: i + 1,
                    size: size.params(),
                    want: setup.params(),
                });
            }
            if position.outcome().is_some() {
                let (path, line, text) = at(i + 1);
                return Err(OpeningsError::Over { path, line, text });
            }
            canonical.push_str(&position.position_text());
            canonical.push('\n');
            positions.push(BookPosition {
                position,
                line: (i + 1) as u32,
            });
        }
        if positions.is_empty() {
            return Err(OpeningsError::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(OpeningBook {
            positions,
            hash: format!("{:016x}", fnv1a(canonical.as_bytes())),
            order,
        })
    }

    /// The position of the match's opening `index` (games `2 index` and `2 index + 1`):
    /// pass `index / n` through the file's `n` positions takes them in file order, or in a
    /// shuffle drawn from `seed` and the pass.
    pub fn pick(&self, seed: u64, index: u32) -> &BookPosition<G> {
        let n = self.positions.len();
        let (pass, at) = (index as usize / n, index as usize % n);
        match self.order {
            OpeningsOrder::Sequential => &self.positions[at],
            OpeningsOrder::Random => {
                let mut order: Vec<usize> = (0..n).collect();
                let mut rng =
                    Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(0x0b00c + pass as u64)));
                order.shuffle(&mut rng);
                &self.positions[order[at]]
            }
        }
    }

    /// The book as records name it: `file 0123456789abcdef, sequential`.
    pub fn describe(&self) -> String {
        describe(&self.hash, self.order)
    }
}

/// An openings file as records name it, from its hash and order.
pub fn describe(hash: &str, order: OpeningsOrder) -> String {
    format!("file {hash}, {order}")
}
