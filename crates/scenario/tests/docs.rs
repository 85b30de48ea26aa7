//! Every TOML example in docs/scenarios.md is valid: full documents as they
//! are, `[topology]` fragments with a name, duration and flow around them,
//! and `[[impairments]]` / `[[traffic]]` fragments appended to a dumbbell.

mod common;

use common::*;
use reorderlab_scenario::parse;

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
        let text = if block.starts_with("name = ") {
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
        checked += 1;
    }
    // One per topology kind, impairment kind and traffic kind, and more.
    assert!(checked >= 19, "only {checked} examples found");
}
