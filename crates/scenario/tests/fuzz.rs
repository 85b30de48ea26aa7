//! No input makes `parse` panic: random text, random mutations of a valid
//! file, and random overrides.

mod common;

use common::*;
use proptest::prelude::*;
use reorderlab_scenario::{parse, Scenario, Topology};

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
            Just("traffic".to_string()),
            Just("links".to_string()),
            Just("hops".to_string()),
            Just("delay".to_string()),
            Just("dist".to_string()),
            Just("kind".to_string()),
            Just("endpoints".to_string()),
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
        Just("4294967295".to_string()),
        Just("{ dist = \"uniform\", min = \"2s\", max = \"1s\" }".to_string()),
        Just("[[\"S\", \"D\"]]".to_string()),
        Just("spikes".to_string()),
        Just("custom".to_string()),
        "\\PC{0,12}",
    ];
    (key, value).prop_map(|(k, v)| format!("{k}={v}"))
}

/// Values a key might be given, beyond the type of what was there.
fn any_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,20}".prop_map(|s| format!("{s:?}")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("true".to_string()),
        Just("1979-05-27".to_string()),
        Just("0".to_string()),
        Just("4294967295".to_string()),
        Just("4294967296".to_string()),
        Just("\"0s\"".to_string()),
        Just("\"1ns\"".to_string()),
        Just("\"18446744073s\"".to_string()),
        Just("\"99999999999Gbps\"".to_string()),
        Just("[0, 4294967295]".to_string()),
        Just("[[\"A\"], 1]".to_string()),
        Just("{ dist = \"normal\", mean = \"1s\" }".to_string()),
        Just("{ dist = \"uniform\", min = \"3s\", max = \"1s\" }".to_string()),
        Just("{ dist = \"exponential\", mean = 0 }".to_string()),
        Just("{ dist = 1, x = [] }".to_string()),
        Just("\"S\"".to_string()),
        Just("\"bottleneck\"".to_string()),
    ]
}

/// Whether the accessors can be called without allocating absurdly (a
/// valid scenario may ask for 2^32 routers; building it is the caller's
/// concern, not the parser's).
fn small(s: &Scenario) -> bool {
    let size = match &s.topology {
        Topology::Dumbbell(_) => u64::from(s.pairs()),
        Topology::Multipath(m) => m.hops.iter().map(|h| u64::from(*h)).sum(),
        Topology::WirelessInfrastructure(w) => u64::from(w.wired_hops),
        Topology::WirelessMultihop(w) => u64::from(w.hops),
        Topology::MultiBottleneck(m) => u64::from(m.routers),
        _ => 0,
    };
    size <= 10_000 && s.total_flows() <= 10_000
}

/// Calls every accessor of a parsed scenario (none may panic).
fn exercise(s: &Scenario) {
    if small(s) {
        let ends = s.flow_endpoints();
        assert_eq!(ends.len(), s.total_flows() as usize);
        let nodes = s.node_names();
        // Flows and traffic run between named nodes.
        for (a, b) in &ends {
            assert!(
                nodes.contains(a) && nodes.contains(b),
                "{a} -> {b} not in {nodes:?}"
            );
        }
        for t in &s.traffic {
            let (a, b) = match t {
                reorderlab_scenario::TrafficSpec::Cbr(c) => (&c.src, &c.dst),
                reorderlab_scenario::TrafficSpec::Web(w) => (&w.src, &w.dst),
            };
            assert!(nodes.contains(a) && nodes.contains(b));
        }
        let links = s.link_names();
        for imp in &s.impairments {
            assert!(links.contains(&imp.link), "{} not in {links:?}", imp.link);
        }
        let _ = (
            s.topology.link_names(),
            s.topology.node_names(),
            s.default_endpoints(),
        );
    }
    let _ = s.canonical_text();
}

#[test]
fn the_corpus_is_valid() {
    for text in CORPUS {
        match parse(text, "c.toml", &[], VARIANTS) {
            Ok(s) => exercise(&s),
            Err(e) => panic!("corpus document is invalid:\n{e}\n{text}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn mutations_of_the_corpus_never_panic(
        doc in 0usize..16,
        edits in proptest::collection::vec(edit(), 1..8),
    ) {
        let text = mutate(CORPUS[doc % CORPUS.len()], &edits);
        match parse(&text, "f.toml", &[], VARIANTS) {
            Ok(s) => exercise(&s),
            Err(e) => {
                let shown = e.to_string();
                prop_assert!(!e.problems().is_empty());
                prop_assert!(shown.lines().all(|l| l.starts_with("f.toml: ")), "{}", shown);
                prop_assert_eq!(shown.lines().count(), e.problems().len());
            }
        }
    }

    #[test]
    fn replacing_any_value_in_the_corpus_never_panics(
        doc in 0usize..16,
        line in 0usize..200,
        value in any_value(),
    ) {
        let lines: Vec<&str> = CORPUS[doc % CORPUS.len()].lines().collect();
        let i = line % lines.len();
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        if let Some((k, _)) = lines[i].split_once(" = ") {
            out[i] = format!("{k} = {value}");
        }
        if let Ok(s) = parse(&out.join("\n"), "f.toml", &[], VARIANTS) {
            exercise(&s);
        }
    }

    #[test]
    fn random_overrides_of_the_corpus_never_panic(
        doc in 0usize..16,
        specs in proptest::collection::vec(override_spec(), 0..5),
    ) {
        if let Ok(s) = parse(CORPUS[doc % CORPUS.len()], "f.toml", &specs, VARIANTS) {
            exercise(&s);
        }
    }

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
fn huge_counts_are_checked_without_materializing_names() {
    // Each of these parses (or fails) at once: names of numbered families are
    // ranges, never lists of 2^32 strings.
    let big = |topo: &str, link: &str| {
        on(
            topo,
            &format!("[[impairments]]\nlink = \"{link}\"\nkind = \"loss\"\nprobability = 0\n"),
        )
    };
    let cases = [
        (
            format!("{DUMBBELL}\npairs = 4294967295"),
            "access-dst:4294967294",
            true,
        ),
        (
            "kind = \"wireless-multihop\"\nhops = 4294967295".to_string(),
            "wireless:4294967294",
            true,
        ),
        (
            "kind = \"wireless-infrastructure\"\nwired_hops = 4294967295".to_string(),
            "wired:7",
            true,
        ),
        (
            "kind = \"multi-bottleneck\"\nrouters = 4294967295".to_string(),
            "R4294967294-R4294967295",
            true,
        ),
        (
            format!(
                "kind = \"multipath\"\nhops = [{}]",
                vec!["4294967295"; 16].join(", ")
            ),
            "path15:4294967294",
            true,
        ),
        (format!("{DUMBBELL}\npairs = 4294967295"), "nowhere", false),
        (
            "kind = \"multi-bottleneck\"\nrouters = 4294967295".to_string(),
            "R9-R8",
            false,
        ),
    ];
    for (topo, link, valid) in cases {
        let r = parse(&big(&topo, link), "f.toml", &[], VARIANTS);
        assert_eq!(r.is_ok(), valid, "{topo} {link}: {r:?}");
        if let Err(e) = r {
            assert!(e.to_string().len() < 1000, "{e}");
        }
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
