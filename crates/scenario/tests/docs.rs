//! Every TOML example in docs/scenarios.md is valid: full documents as they
//! are, `[topology]` fragments with a name, duration and flow around them,
//! and `[[impairments]]` / `[[traffic]]` fragments appended to a dumbbell.

mod common;

use common::*;
use reorderlab_scenario::file::File;
use reorderlab_scenario::{check, parse};

fn blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```toml") => current = Some(String::new()),
            (Some(b), "```") => {
                out.push(std::mem::take(b));
                current = None;
            }
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_example_in_the_documentation_is_valid() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenarios.md");
    let doc = std::fs::read_to_string(path).expect("docs/scenarios.md is readable");
    let mut checked = 0;
    for block in blocks(&doc) {
        let first = block
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .unwrap_or("");
        let text = if first.starts_with("name = ") {
            block.clone()
        } else if block.starts_with("[topology]\n") {
            format!("name = \"doc\"\nduration = \"60s\"\n{block}\n[[flows]]\nvariant = \"sack\"\n")
        } else if block.starts_with("[[impairments]]") || block.starts_with("[[traffic]]") {
            format!("{MINIMAL}{block}")
        } else {
            continue;
        };
        if let Err(e) = parse(&text, "docs/scenarios.md", &[], VARIANTS) {
            panic!("a documentation example is invalid:\n{e}\n---\n{text}");
        }
        // The commands' one validation path (variants, cc and params from
        // the TCP crate) and the typed schema behind the JSON Schema.
        if let Err(e) = check(&text, "docs/scenarios.md", &[]) {
            panic!("a documentation example fails `validate`:\n{e}\n---\n{text}");
        }
        let v: toml::Value = toml::from_str(&text).expect("TOML");
        if let Err(e) = serde_path_to_error::deserialize::<_, File>(v) {
            panic!(
                "a documentation example does not fit the typed schema: {}: {}\n---\n{text}",
                e.path(),
                e.inner()
            );
        }
        checked += 1;
    }
    // One per topology kind, impairment kind and traffic kind, and more.
    assert!(checked >= 19, "only {checked} examples found");
}

/// The complete example at the top of docs/scenarios.md is the bundled
/// scenario it names, byte for byte.
#[test]
fn the_complete_example_is_the_bundled_file() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let doc = std::fs::read_to_string(format!("{root}/docs/scenarios.md")).unwrap();
    let file = std::fs::read_to_string(format!("{root}/scenarios/one-sack-flow.toml")).unwrap();
    assert!(doc.contains("A complete example (`scenarios/one-sack-flow.toml`)"));
    assert_eq!(blocks(&doc)[0], file);
}
