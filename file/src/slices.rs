//! A slice directory: one table kept as a folder of slice files (`<name>.<extension>`,
//! each with its own checksummed header) and a `manifest` saying what the folder is a
//! table of. The manifest is text: the line `quasar slice directory v1`, then
//! `kind <format>`, one `key value` line per parameter of the table, and last `crc <hex>`,
//! the CRC-32 of every byte above that line, so that a damaged manifest is reported as
//! damage. A build writes it (atomically, under its lock) before its first slice; a reader
//! derives from the parameters the slices there must be and surveys which are built,
//! missing or damaged, so that an incomplete directory is named as such by every reader.

use super::{FileError, OutputLock};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest's file name in a slice directory.
pub const MANIFEST: &str = "manifest";
/// The manifest's first line.
pub const FIRST_LINE: &str = "quasar slice directory v1";
/// The largest manifest read: a few parameters take a few dozen bytes.
const LIMIT: u64 = 1 << 16;
/// Missing slices an error names beyond the first.
const NAMED: usize = 3;

/// One format of slice directory: its kind, its slice files and its words for messages.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The value of the manifest's `kind` line.
    pub kind: &'static str,
    /// What a directory of the format is, for messages (`checkers database`).
    pub what: &'static str,
    /// The ending of a slice file's name, without the dot.
    pub extension: &'static str,
    /// The first line of the format's manifest before this one (`key value` lines, no
    /// kind and no checksum), still read as this kind.
    pub legacy: Option<&'static str>,
    /// The command that builds, finishes or rebuilds a directory of the format with the
    /// manifest's parameters (placeholders for those it lacks) at the path given.
    pub build: fn(&Manifest, &Path) -> String,
}

/// What a slice directory holds: its kind and its parameters, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    kind: String,
    params: Vec<(String, String)>,
}

impl fmt::Display for Manifest {
    /// `kind checkers, max-pieces 5`: for messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kind {}", self.kind)?;
        for (k, v) in &self.params {
            write!(f, ", {k} {v}")?;
        }
        Ok(())
    }
}

/// True for a key of lower-case letters, digits and dashes.
fn is_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl Manifest {
    /// A manifest of `kind` without parameters.
    pub fn new(kind: &str) -> Manifest {
        Manifest {
            kind: kind.to_string(),
            params: Vec::new(),
        }
    }

    /// This manifest with the parameter `key` set to `value` (a key of lower-case letters,
    /// digits and dashes; a value of one line).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Manifest {
        let value = value.to_string();
        debug_assert!(is_key(key) && !value.is_empty() && !value.contains('\n'));
        match self.params.iter_mut().find(|(k, _)| k == key) {
            Some(p) => p.1 = value,
            None => self.params.push((key.to_string(), value)),
        }
        self
    }

    /// The kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The value of parameter `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The manifest's text, its checksum line last.
    pub fn to_text(&self) -> String {
        let mut text = format!("{FIRST_LINE}\nkind {}\n", self.kind);
        for (k, v) in &self.params {
            text.push_str(&format!("{k} {v}\n"));
        }
        let crc = crc32fast::hash(text.as_bytes());
        text.push_str(&format!("crc {crc:08x}\n"));
        text
    }

    /// Reads a manifest's text (or `layout`'s legacy one); the error says what is wrong.
    pub fn parse(text: &str, layout: &Layout) -> Result<Manifest, String> {
        let first = text.lines().next().unwrap_or("");
        if layout.legacy == Some(first) {
            let mut m = Manifest::new(layout.kind);
            for line in text.lines().skip(1).filter(|l| !l.is_empty()) {
                let (k, v) = line
                    .split_once(' ')
                    .filter(|(k, v)| is_key(k) && !v.is_empty())
                    .ok_or_else(|| format!("{line:?} is not a `key value` line"))?;
                m = m.with(k, v);
            }
            return Ok(m);
        }
        if first != FIRST_LINE {
            return Err(format!(
                "its first line is {:?}, not {FIRST_LINE:?}: not a quasar slice directory's manifest",
                super::shorten(first, 60)
            ));
        }
        let Some(at) = text.rfind("crc ") else {
            return Err("it has no `crc` line: cut short".into());
        };
        let (body, tail) = text.split_at(at);
        // Exactly as written: lower-case hex, one line end (a flipped case is damage too).
        let want = format!("crc {:08x}\n", crc32fast::hash(body.as_bytes()));
        if !body.ends_with('\n') || tail != want {
            return Err("checksum mismatch".into());
        }
        let mut lines = body.lines().skip(1);
        let kind = lines
            .next()
            .and_then(|l| l.strip_prefix("kind "))
            .filter(|k| !k.is_empty())
            .ok_or("its second line is no `kind` line")?;
        let mut m = Manifest::new(kind);
        for line in lines {
            let (k, v) = line
                .split_once(' ')
                .filter(|(k, v)| is_key(k) && !v.is_empty())
                .ok_or_else(|| format!("{line:?} is not a `key value` line"))?;
            m = m.with(k, v);
        }
        Ok(m)
    }

    /// The manifest of the directory `dir` read as `layout`'s, `None` when there is none
    /// (a damaged one is an error naming it).
    pub fn read(dir: &Path, layout: &Layout) -> Result<Option<Manifest>, SliceDirError> {
        let path = dir.join(MANIFEST);
        let text = match super::read_to_string(&path, LIMIT, "slice directory manifest") {
            Err(e) if e.is_not_found() => return Ok(None),
            Err(FileError::Damaged { msg, .. }) => return Err(damaged(dir, layout, msg)),
            Err(e) => return Err(e.into()),
            Ok(t) => t,
        };
        Manifest::parse(&text, layout)
            .map(Some)
            .map_err(|why| damaged(dir, layout, why))
    }
}

/// The error of a damaged manifest in `dir`.
fn damaged(dir: &Path, layout: &Layout, why: String) -> SliceDirError {
    SliceDirError::Manifest {
        path: dir.join(MANIFEST),
        why,
        build: (layout.build)(&Manifest::new(layout.kind), dir),
    }
}

/// Why a slice directory cannot be used (or not whole); every variant names the directory.
#[derive(Debug, thiserror::Error)]
pub enum SliceDirError {
    /// The file layer refused the manifest or the directory.
    #[error(transparent)]
    File(#[from] FileError),
    /// The directory could not be listed.
    #[error("{dir}: {source}")]
    Io {
        /// The directory.
        dir: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A file given where the directory belongs.
    #[error(
        "{dir} is a file: a {what} is the folder of its slice files and manifest; give the folder"
    )]
    NotFolder {
        /// The path given.
        dir: PathBuf,
        /// What was expected.
        what: &'static str,
    },
    /// The directory has no manifest.
    #[error("{dir} has no manifest (no file {MANIFEST} in it): not the directory of a {what}, or its build never started; build one with `{build}`")]
    NoManifest {
        /// The directory.
        dir: PathBuf,
        /// What was expected.
        what: &'static str,
        /// The command that builds one.
        build: String,
    },
    /// The manifest is damaged or not one.
    #[error("{path}: {why}: the manifest is damaged; delete it and run the directory's build again (`{build}`; finished slices are kept)")]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        why: String,
        /// The build.
        build: String,
    },
    /// The manifest is of another kind of table.
    #[error("{dir} holds a slice directory of kind {found}, not a {what}: give the directory of a {what}")]
    Kind {
        /// The directory.
        dir: PathBuf,
        /// The kind its manifest names.
        found: String,
        /// What was expected.
        what: &'static str,
    },
    /// A build's parameters differ from those of the directory it writes to.
    #[error("{dir} holds a table of {found} (its manifest), not of {wanted}: write elsewhere, or build with the directory's options")]
    Disagrees {
        /// The directory.
        dir: PathBuf,
        /// Its manifest.
        found: Box<Manifest>,
        /// The build's.
        wanted: Box<Manifest>,
    },
    /// Slices are not built.
    #[error("{dir}: the {what} is incomplete: {missing} of its {total} slices are not built, the first {first}; run `{build}` to finish it")]
    Incomplete {
        /// The directory.
        dir: PathBuf,
        /// What it is.
        what: &'static str,
        /// Slices not built.
        missing: usize,
        /// Slices in all.
        total: usize,
        /// The first slice not built and its file, then the next few (`a (no file
        /// a.ext), then b and c`).
        first: String,
        /// The build that finishes it.
        build: String,
    },
    /// One slice a reader needs is not built.
    #[error("{dir}: slice {slice} of the {what} is not built (no file {slice}.{extension}): the {what} is incomplete; run `{build}` to finish it")]
    MissingSlice {
        /// The directory.
        dir: PathBuf,
        /// What it is.
        what: &'static str,
        /// The slice.
        slice: String,
        /// The slice files' ending.
        extension: &'static str,
        /// The build that finishes it.
        build: String,
    },
    /// A slice file fails its checks.
    #[error("{dir}: slice file {file} of the {what} is damaged: {why}; delete it and run `{build}` to rebuild it")]
    Damaged {
        /// The directory.
        dir: PathBuf,
        /// What it is.
        what: &'static str,
        /// The slice's file name.
        file: String,
        /// What is wrong.
        why: String,
        /// The build that rebuilds it.
        build: String,
    },
}

/// What a survey found: of the slices the manifest implies, those not built and those
/// whose file fails its check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// Slices the directory must hold.
    pub total: usize,
    /// Those without a file, in the order given.
    pub missing: Vec<String>,
    /// Those whose file fails its check, with why, in the order given.
    pub damaged: Vec<(String, String)>,
}

impl Survey {
    /// Slices built and intact (as far as the check looked).
    pub fn built(&self) -> usize {
        self.total - self.missing.len() - self.damaged.len()
    }

    /// True when every slice is built and intact.
    pub fn is_whole(&self) -> bool {
        self.missing.is_empty() && self.damaged.is_empty()
    }
}

/// A slice directory opened: its path, format and manifest.
#[derive(Clone, Debug)]
pub struct SliceDir {
    dir: PathBuf,
    layout: Layout,
    manifest: Manifest,
}

impl SliceDir {
    /// Opens `dir` as a directory of `layout`: its manifest must be there, intact and of
    /// the layout's kind.
    pub fn open(dir: &Path, layout: &Layout) -> Result<SliceDir, SliceDirError> {
        SliceDir::open_or(dir, layout, |_| None)
    }

    /// [`SliceDir::open`], with `infer` giving the manifest of a directory without one
    /// (one an older build wrote; `None`: refused as no slice directory).
    pub fn open_or(
        dir: &Path,
        layout: &Layout,
        infer: impl FnOnce(&Path) -> Option<Manifest>,
    ) -> Result<SliceDir, SliceDirError> {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_file() => {
                return Err(SliceDirError::NotFolder {
                    dir: dir.to_path_buf(),
                    what: layout.what,
                })
            }
            Ok(m) if !m.is_dir() => {
                return Err(FileError::NotRegular {
                    path: dir.to_path_buf(),
                    kind: super::describe(&m.file_type()),
                }
                .into())
            }
            Ok(_) => {}
            Err(e) => return Err(FileError::io(dir, e).into()),
        }
        let manifest = match Manifest::read(dir, layout)? {
            Some(m) => m,
            None => infer(dir).ok_or_else(|| SliceDirError::NoManifest {
                dir: dir.to_path_buf(),
                what: layout.what,
                build: (layout.build)(&Manifest::new(layout.kind), dir),
            })?,
        };
        if manifest.kind != layout.kind {
            return Err(SliceDirError::Kind {
                dir: dir.to_path_buf(),
                found: manifest.kind,
                what: layout.what,
            });
        }
        Ok(SliceDir {
            dir: dir.to_path_buf(),
            layout: *layout,
            manifest,
        })
    }

    /// Starts a build into `dir` (created if missing) of the table `wanted` describes:
    /// under the manifest's lock, an existing manifest is passed to `combine`, which gives
    /// the manifest to keep (written when it differs) or `None` when the two disagree (an
    /// error naming both); without one, `wanted` is written.
    pub fn create(
        dir: &Path,
        layout: &Layout,
        wanted: &Manifest,
        combine: impl FnOnce(&Manifest) -> Option<Manifest>,
    ) -> Result<SliceDir, SliceDirError> {
        debug_assert_eq!(wanted.kind, layout.kind);
        super::check_output_dir(dir)?;
        std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
        let path = dir.join(MANIFEST);
        // Jobs of one build start side by side: each reads and writes under the lock.
        let lock = OutputLock::wait(&path)?;
        let found = Manifest::read(dir, layout)?;
        let keep = match &found {
            None => wanted.clone(),
            Some(found) if found.kind != layout.kind => {
                return Err(SliceDirError::Kind {
                    dir: dir.to_path_buf(),
                    found: found.kind.clone(),
                    what: layout.what,
                })
            }
            Some(found) => combine(found).ok_or_else(|| SliceDirError::Disagrees {
                dir: dir.to_path_buf(),
                found: Box::new(found.clone()),
                wanted: Box::new(wanted.clone()),
            })?,
        };
        // A legacy manifest is rewritten in this format, with its checksum.
        if found.as_ref() != Some(&keep) || is_legacy(&path, layout) {
            super::write_with(&path, &lock, |f| f.write_all(keep.to_text().as_bytes()))?;
        }
        Ok(SliceDir {
            dir: dir.to_path_buf(),
            layout: *layout,
            manifest: keep,
        })
    }

    /// Whether `dir` looks like a directory of `layout`, for telling formats apart before
    /// opening: its manifest names the layout's kind, or it has none (or a damaged one)
    /// and holds a file with the layout's slice ending.
    pub fn looks_like(dir: &Path, layout: &Layout) -> bool {
        match Manifest::read(dir, layout) {
            Ok(Some(m)) => m.kind == layout.kind,
            _ => std::fs::read_dir(dir).is_ok_and(|mut entries| {
                entries.any(|e| {
                    e.is_ok_and(|e| {
                        Path::new(&e.file_name()).extension() == Some(layout.extension.as_ref())
                    })
                })
            }),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Its manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Its format.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The file of slice `name`.
    pub fn slice_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.{}", self.layout.extension))
    }

    /// The command that builds or finishes this directory.
    pub fn build_command(&self) -> String {
        (self.layout.build)(&self.manifest, &self.dir)
    }

    /// Which of the slices `names` (those the manifest implies) are built, from one
    /// listing of the directory; `check` sees each one's name, file and length and says
    /// why a file is damaged (a cheap check, such as its length: a reader checks the
    /// contents when it opens them).
    pub fn survey<S: AsRef<str>>(
        &self,
        names: &[S],
        check: impl Fn(&str, &Path, u64) -> Result<(), String>,
    ) -> Result<Survey, SliceDirError> {
        let io = |source| SliceDirError::Io {
            dir: self.dir.clone(),
            source,
        };
        let suffix = format!(".{}", self.layout.extension);
        let mut files = std::collections::HashMap::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            if let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(&suffix)) {
                // A link is followed, as a reader would.
                let len = std::fs::metadata(entry.path())
                    .map_or(None, |m| m.is_file().then_some(m.len()));
                files.insert(stem.to_string(), len);
            }
        }
        let mut survey = Survey {
            total: names.len(),
            ..Survey::default()
        };
        for name in names {
            let name = name.as_ref();
            match files.get(name) {
                None => survey.missing.push(name.to_string()),
                Some(None) => survey
                    .damaged
                    .push((name.to_string(), "not a regular file".into())),
                Some(&Some(len)) => {
                    if let Err(why) = check(name, &self.slice_path(name), len) {
                        survey.damaged.push((name.to_string(), why));
                    }
                }
            }
        }
        Ok(survey)
    }

    /// The error of `survey` when it is not whole: slices not built first, then the
    /// first damaged one.
    pub fn check(&self, survey: &Survey) -> Result<(), SliceDirError> {
        if let Some(first) = survey.missing.first() {
            let next = &survey.missing[1..survey.missing.len().min(NAMED + 1)];
            let more = match next {
                [] => String::new(),
                [one] => format!(", then {one}"),
                [init @ .., last] => format!(", then {} and {last}", init.join(", ")),
            };
            return Err(SliceDirError::Incomplete {
                dir: self.dir.clone(),
                what: self.layout.what,
                missing: survey.missing.len(),
                total: survey.total,
                first: format!("{first} (no file {first}.{}){more}", self.layout.extension),
                build: self.build_command(),
            });
        }
        match survey.damaged.first() {
            Some((slice, why)) => Err(self.damaged(slice, why)),
            None => Ok(()),
        }
    }

    /// The error of slice `slice` not built, for a reader that needs it.
    pub fn missing(&self, slice: &str) -> SliceDirError {
        SliceDirError::MissingSlice {
            dir: self.dir.clone(),
            what: self.layout.what,
            slice: slice.to_string(),
            extension: self.layout.extension,
            build: self.build_command(),
        }
    }

    /// The error of slice `slice`'s file failing its check (`why`).
    pub fn damaged(&self, slice: &str, why: &str) -> SliceDirError {
        SliceDirError::Damaged {
            dir: self.dir.clone(),
            what: self.layout.what,
            file: format!("{slice}.{}", self.layout.extension),
            why: why.to_string(),
            build: self.build_command(),
        }
    }
}

/// True when the manifest at `path` is `layout`'s legacy one (rewritten in this format
/// by the next build).
fn is_legacy(path: &Path, layout: &Layout) -> bool {
    let Some(legacy) = layout.legacy else {
        return false;
    };
    super::read_to_string(path, LIMIT, "slice directory manifest")
        .is_ok_and(|t| t.lines().next() == Some(legacy))
}

#[cfg(test)]
mod tests;
