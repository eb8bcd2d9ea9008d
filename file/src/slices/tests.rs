//! Tests of slice directories: manifests, surveys, damaged and legacy layouts.

use super::*;

fn build(m: &Manifest, dir: &Path) -> String {
    format!(
        "make-test --size {} -o {}",
        m.get("size").unwrap_or("N"),
        dir.display()
    )
}

const TEST: Layout = Layout {
    kind: "test",
    what: "test table",
    extension: "tsl",
    legacy: Some("old test table v0"),
    build,
};

#[test]
fn a_manifest_round_trips_and_any_damage_is_named_as_damage() {
    let m = Manifest::new("test").with("size", 5).with("rows", "3");
    let text = m.to_text();
    assert!(text.starts_with("quasar slice directory v1\nkind test\nsize 5\nrows 3\ncrc "));
    assert_eq!(Manifest::parse(&text, &TEST).unwrap(), m);
    assert_eq!(m.to_string(), "kind test, size 5, rows 3");
    let bytes = text.as_bytes();
    // Every flipped bit after the first line: damage, never another manifest.
    for at in FIRST_LINE.len() + 1..bytes.len() - 1 {
        for bit in 0..7 {
            let mut bad = bytes.to_vec();
            bad[at] ^= 1 << bit;
            let Ok(bad) = String::from_utf8(bad) else {
                continue;
            };
            assert!(Manifest::parse(&bad, &TEST).is_err(), "byte {at} bit {bit}");
        }
    }
    let cut = &text[..text.len() - 12];
    assert_eq!(
        Manifest::parse(cut, &TEST).unwrap_err(),
        "it has no `crc` line: cut short"
    );
    // The legacy manifest: its lines, no kind, no checksum.
    let old = Manifest::parse("old test table v0\nsize 5\nrows 3\n", &TEST).unwrap();
    assert_eq!(old, m);
    assert!(Manifest::parse("something else\n", &TEST)
        .unwrap_err()
        .contains("not a quasar slice directory's manifest"));
}

#[test]
fn a_survey_names_missing_and_damaged_slices_and_the_build() {
    // Writes run one at a time, as the file layer's tests of `remove_temps` need.
    let (_serial, d) = super::super::tests::scratch("slices");
    std::fs::remove_dir(&d).unwrap();
    let m = Manifest::new("test").with("size", 4);
    let e = SliceDir::open(&d, &TEST).unwrap_err().to_string();
    assert!(e.contains("No such file"), "{e}");
    std::fs::create_dir_all(&d).unwrap();
    let e = SliceDir::open(&d, &TEST).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "{0} has no manifest (no file manifest in it): not the directory of a test \
             table, or its build never started; build one with `make-test --size N -o {0}`",
            d.display()
        )
    );
    let dir = SliceDir::create(&d, &TEST, &m, |old| (old == &m).then(|| old.clone())).unwrap();
    // A second start of the same build agrees; another is refused naming both.
    SliceDir::create(&d, &TEST, &m, |old| (old == &m).then(|| old.clone())).unwrap();
    let other = Manifest::new("test").with("size", 5);
    let e = SliceDir::create(&d, &TEST, &other, |old| {
        (old == &other).then(|| old.clone())
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.ends_with("holds a table of kind test, size 4 (its manifest), not of kind test, size 5: write elsewhere, or build with the directory's options"),
        "{e}"
    );
    let names: Vec<String> = (0..6).map(|i| format!("s{i}")).collect();
    for name in ["s0", "s2", "s3"] {
        std::fs::write(dir.slice_path(name), b"12345678").unwrap();
    }
    std::fs::write(dir.slice_path("s3"), b"1234").unwrap();
    let check = |_: &str, _: &Path, len: u64| match len {
        8 => Ok(()),
        n => Err(format!("{n} bytes, not 8: cut short")),
    };
    let survey = dir.survey(&names, check).unwrap();
    assert_eq!(survey.missing, ["s1", "s4", "s5"]);
    assert_eq!(
        survey.damaged,
        [("s3".to_string(), "4 bytes, not 8: cut short".to_string())]
    );
    assert_eq!(survey.built(), 2);
    let p = d.display();
    assert_eq!(
        dir.check(&survey).unwrap_err().to_string(),
        format!("{p}: the test table is incomplete: 3 of its 6 slices are not built, the first s1 (no file s1.tsl), then s4 and s5; run `make-test --size 4 -o {p}` to finish it")
    );
    for name in ["s1", "s4", "s5"] {
        std::fs::write(dir.slice_path(name), b"12345678").unwrap();
    }
    let survey = dir.survey(&names, check).unwrap();
    assert_eq!(
        dir.check(&survey).unwrap_err().to_string(),
        format!("{p}: slice file s3.tsl of the test table is damaged: 4 bytes, not 8: cut short; delete it and run `make-test --size 4 -o {p}` to rebuild it")
    );
    assert_eq!(
        dir.missing("s9").to_string(),
        format!("{p}: slice s9 of the test table is not built (no file s9.tsl): the test table is incomplete; run `make-test --size 4 -o {p}` to finish it")
    );
    // A damaged manifest is named as such, with the build that replaces it.
    let path = d.join(MANIFEST);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("size 4", "size 6")).unwrap();
    let e = SliceDir::open(&d, &TEST).unwrap_err().to_string();
    assert_eq!(e, format!("{}: checksum mismatch: the manifest is damaged; delete it and run the directory's build again (`make-test --size N -o {p}`; finished slices are kept)", path.display()));
    // A legacy manifest is read, and rewritten by the next build.
    std::fs::write(&path, "old test table v0\nsize 4\n").unwrap();
    assert_eq!(SliceDir::open(&d, &TEST).unwrap().manifest(), &m);
    SliceDir::create(&d, &TEST, &m, |old| (old == &m).then(|| old.clone())).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), m.to_text());
    // Another kind is refused by name.
    std::fs::write(&path, Manifest::new("other").to_text()).unwrap();
    let e = SliceDir::open(&d, &TEST).unwrap_err().to_string();
    assert_eq!(
        e,
        format!("{p} holds a slice directory of kind other, not a test table: give the directory of a test table")
    );
    std::fs::remove_dir_all(&d).unwrap();
}
