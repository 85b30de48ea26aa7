//! No input makes `parse` panic: random text, random mutations of a valid
//! file, and random overrides.

mod common;

use common::*;
use proptest::prelude::*;
use reorderlab_scenario::parse;

/// One byte-level edit of a document.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), 0usize..64).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut bytes = base.as_bytes().to_vec();
    for e in edits {
        let len = bytes.len().max(1);
        match *e {
            Edit::Replace(i, b) => {
                if !bytes.is_empty() {
                    bytes[i % len] = b;
                }
            }
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Delete(i) => {
                if !bytes.is_empty() {
                    bytes.remove(i % len);
                }
            }
            Edit::Duplicate(i, n) => {
                let start = i % len;
                let end = (start + n).min(bytes.len());
                let chunk = bytes.get(start..end).unwrap_or(&[]).to_vec();
                bytes.splice(start..start, chunk);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Characters that matter to TOML and to the unit parser.
fn tomlish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("=".to_string()),
            Just("\"".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just("{".to_string()),
            Just("}".to_string()),
            Just(".".to_string()),
            Just("\n".to_string()),
            Just("-".to_string()),
            "[a-z_]{1,8}",
            "[0-9]{1,25}",
            Just("ms".to_string()),
            Just("Mbps".to_string()),
            Just("KiB".to_string()),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

/// Values an override might carry.
fn override_spec() -> impl Strategy<Value = String> {
    let key = proptest::collection::vec(
        prop_oneof![
            Just("flows".to_string()),
            Just("topology".to_string()),
            Just("bottleneck".to_string()),
            Just("impairments".to_string()),
            Just("measure".to_string()),
            Just("red".to_string()),
            "[0-9]{1,3}",
            "[a-z_]{0,6}",
        ],
        0..6,
    )
    .prop_map(|v| v.join("."));
    let value = prop_oneof![
        Just("1".to_string()),
        Just("-1".to_string()),
        Just("1e400".to_string()),
        Just("nan".to_string()),
        Just("{ a = [1, { b = 2 }] }".to_string()),
        Just("[".to_string()),
        "\\PC{0,12}",
    ];
    (key, value).prop_map(|(k, v)| format!("{k}={v}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse(&text, "f.toml", &[], VARIANTS);
    }

    #[test]
    fn tomlish_text_never_panics(text in tomlish()) {
        let _ = parse(&text, "f.toml", &[], VARIANTS);
        let _ = parse(&format!("{EXAMPLE}\n{text}"), "f.toml", &[], VARIANTS);
    }

    #[test]
    fn mutations_of_the_example_never_panic(edits in proptest::collection::vec(edit(), 1..8)) {
        let text = mutate(EXAMPLE, &edits);
        if let Err(e) = parse(&text, "f.toml", &[], VARIANTS) {
            // Every error names the file on every line and has at least one problem.
            let shown = e.to_string();
            prop_assert!(!e.problems().is_empty());
            prop_assert!(shown.lines().all(|l| l.starts_with("f.toml: ")), "{}", shown);
            prop_assert_eq!(shown.lines().count(), e.problems().len());
        }
    }

    #[test]
    fn random_overrides_never_panic(specs in proptest::collection::vec(override_spec(), 0..5)) {
        let _ = parse(EXAMPLE, "f.toml", &specs, VARIANTS);
    }

    #[test]
    fn replacing_any_value_never_panics(line in 0usize..40, value in prop_oneof![
        "\\PC{0,20}".prop_map(|s| format!("{s:?}")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("true".to_string()),
        Just("1979-05-27".to_string()),
    ]) {
        // Keep the key, swap the value: exercises the validator, not the TOML parser.
        let lines: Vec<&str> = EXAMPLE.lines().collect();
        let i = line % lines.len();
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        if let Some((k, _)) = lines[i].split_once(" = ") {
            out[i] = format!("{k} = {value}");
        }
        let _ = parse(&out.join("\n"), "f.toml", &[], VARIANTS);
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    for open in ["[", "{a="] {
        let text = format!("x = {}", open.repeat(100_000));
        let e = parse(&text, "f.toml", &[], VARIANTS).unwrap_err();
        assert_eq!(e.problems().len(), 1);
    }
    let key = format!("{} = 1", vec!["a"; 100_000].join("."));
    assert!(parse(&key, "f.toml", &[], VARIANTS).is_err());
    let header = format!("[{}]", vec!["a"; 100_000].join("."));
    assert!(parse(&header, "f.toml", &[], VARIANTS).is_err());
    let value = format!("seed={}", "[".repeat(100_000));
    assert!(parse(EXAMPLE, "f.toml", &[value], VARIANTS).is_err());
}
