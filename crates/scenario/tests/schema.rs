//! The typed schema (`reorderlab_scenario::file`) and what is generated from
//! it stay in step with the checked-in files and with the validator.
//!
//! `REORDERLAB_BLESS=1 cargo test -p reorderlab-scenario --test schema`
//! rewrites docs/scenario.schema.json and the generated sections of
//! docs/scenarios.md (also printed by `reorderlab schema --json/--markdown`).

use std::path::PathBuf;

use reorderlab_scenario::{check, doc, file::File};

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn bless() -> bool {
    std::env::var_os("REORDERLAB_BLESS").is_some_and(|v| v != "0")
}

#[test]
fn the_json_schema_file_is_current() {
    let path = repo().join("docs/scenario.schema.json");
    let want = doc::json_schema();
    if bless() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/scenario.schema.json is stale: run REORDERLAB_BLESS=1 cargo test -p reorderlab-scenario --test schema (or reorderlab schema --json > docs/scenario.schema.json)"
    );
}

#[test]
fn the_generated_tables_of_the_docs_are_current() {
    let path = repo().join("docs/scenarios.md");
    let have = std::fs::read_to_string(&path).unwrap();
    let want = doc::update(&have).unwrap();
    if bless() && want != have {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    assert!(
        have == want,
        "the generated tables of docs/scenarios.md are stale: run REORDERLAB_BLESS=1 cargo test -p reorderlab-scenario --test schema"
    );
}

/// Deserializes `text` into the typed schema; the error names the dotted key.
fn typed(text: &str) -> Result<File, String> {
    let v: toml::Value = toml::from_str(text).map_err(|e| e.to_string())?;
    serde_path_to_error::deserialize(v).map_err(|e| format!("{}: {}", e.path(), e.inner()))
}

#[test]
fn every_valid_scenario_fits_the_typed_schema() {
    let mut n = 0;
    for e in std::fs::read_dir(repo().join("scenarios")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        check(&text, "f.toml", &[]).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if let Err(e) = typed(&text) {
            panic!(
                "{} is valid but does not fit the typed schema: {e}",
                p.display()
            );
        }
        n += 1;
    }
    assert!(n >= 5, "only {n} bundled scenarios");
}

#[test]
fn the_typed_schema_denies_what_the_validator_denies() {
    let base = std::fs::read_to_string(repo().join("scenarios/one-sack-flow.toml")).unwrap();
    typed(&base).unwrap();
    for (from, to, path) in [
        ("seed = 1", "seed = 1\nsed = 2", "sed"),
        (
            "variant = \"sack\"",
            "variant = \"sack\"\ndelayed_acks = true",
            "flows[0]",
        ),
        ("rate = \"15Mbps\"", "rate = \"fast\"", "topology.rate"),
        ("kind = \"loss\"", "kind = \"reorder\"", "impairments[0]"),
    ] {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        assert!(check(&text, "f.toml", &[]).is_err(), "{to}");
        let e = typed(&text).expect_err(to);
        let key = e.split(':').next().unwrap_or("");
        assert!(
            key.starts_with(path.split('.').next().unwrap()),
            "{to}: {e}"
        );
    }
}

#[test]
fn the_json_schema_knows_every_top_level_key_the_validator_knows() {
    let schema: serde_json::Value = serde_json::from_str(&doc::json_schema()).unwrap();
    let props: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let e = reorderlab_scenario::parse("colour = 1\n", "f.toml", &[], &[]).unwrap_err();
    let line = e
        .problems()
        .iter()
        .find(|p| p.key == "colour")
        .unwrap()
        .message
        .clone();
    let known: Vec<&str> = line
        .rsplit("expected one of: ")
        .next()
        .unwrap()
        .split(", ")
        .collect();
    let mut a = props.clone();
    let mut b = known.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}
