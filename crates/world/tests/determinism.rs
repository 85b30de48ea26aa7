//! Same scenario and seed, byte-identical output files: no exceptions
//! (summary.json holds no wall-clock time).

mod common;
use common::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Runs `text` and writes its output files into a fresh directory; returns
/// every file written, by name, with its bytes.
fn outputs(text: &str, tag: &str) -> BTreeMap<String, Vec<u8>> {
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "reorderlab-determinism-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let (report, series) = reorderlab_world::run(&scenario(text)).expect("builds");
    reorderlab_world::output::write_all(&dir, &report, &series).expect("writes");
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    files
}

#[test]
fn two_runs_with_one_seed_give_byte_identical_files() {
    let text = dumbbell(
        "30s",
        "15Mbps",
        "10ms",
        50,
        "variant = \"sack\"\ncount = 3\ndelayed_ack = true\ntimestamps = true",
        "[[impairments]]\nlink = \"bottleneck\"\nkind = \"loss\"\nprobability = 0.01\n\
         [measure]\nseries_interval = \"1s\"\n",
    );
    let a = outputs(&text, "a");
    let b = outputs(&text, "b");
    let names: Vec<&str> = a.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "flows.csv",
            "links.csv",
            "reorder_density.csv",
            "series.csv",
            "summary.json"
        ]
    );
    assert!(!String::from_utf8_lossy(&a["summary.json"]).contains("wall"));
    for (name, bytes) in &a {
        assert!(
            b.get(name) == Some(bytes),
            "{name} differs between two runs"
        );
    }
    assert_eq!(a.len(), b.len());
    // And the seed matters: another seed gives other draws.
    let c = outputs(&text.replace("seed = 1", "seed = 2"), "c");
    assert_ne!(a["summary.json"], c["summary.json"]);
}
