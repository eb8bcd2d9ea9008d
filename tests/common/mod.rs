//! Helpers the end-to-end tests share: running the binary and a per-run scratch folder.

use std::path::PathBuf;
use std::process::Command;

/// Runs `quasar` with `args`: whether it succeeded, its standard output and error.
pub fn quasar(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("run quasar");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path named `name` in this test run's own folder for the test file `tag`.
pub fn temp(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quasar-e2e-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
