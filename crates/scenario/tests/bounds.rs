//! The one validation path (`check`, used by every command): `cc` and
//! variant `params` against the TCP crate, a safe `name`, and the bounds on
//! inputs that would exhaust memory or never finish. Each case asserts the
//! key and the words of the message.

use reorderlab_scenario::{check, is_safe_name, Problem};

const BASE: &str = r#"name = "b"
duration = "60s"
[topology]
kind = "dumbbell"
bottleneck = { rate = "15Mbps", delay = "10ms" }
access = { rate = "100Mbps" }
[[flows]]
variant = "tcp-pr"
"#;

fn problems(text: &str) -> Vec<Problem> {
    match check(text, "t.toml", &[]) {
        Ok(_) => panic!("expected problems:\n{text}"),
        Err(e) => {
            assert!(e.to_string().starts_with("t.toml: "), "{e}");
            e.problems().to_vec()
        }
    }
}

/// `text` has exactly one problem, at `key`, whose message contains every needle.
fn only(text: &str, key: &str, needles: &[&str]) {
    let ps = problems(text);
    assert_eq!(ps.len(), 1, "{ps:?}");
    assert_eq!(ps[0].key, key, "{ps:?}");
    for n in needles {
        assert!(ps[0].message.contains(n), "{:?} lacks {n:?}", ps[0].message);
    }
}

fn with(extra: &str) -> String {
    format!("{BASE}{extra}\n")
}

#[test]
fn the_bundled_base_is_valid() {
    check(BASE, "t.toml", &[]).unwrap();
    check(&with("params = { alpha = 0.99, beta = 2 }"), "t.toml", &[]).unwrap();
}

#[test]
fn cc_must_be_a_known_congestion_control() {
    only(
        &with("cc = \"bogus\""),
        "flows[0].cc",
        &[
            "unknown congestion control \"bogus\"",
            "expected one of: reno",
        ],
    );
    only(
        &with("cc = \"rneo\""),
        "flows[0].cc",
        &["did you mean \"reno\"?"],
    );
}

#[test]
fn variant_params_are_known_and_in_their_papers_range() {
    only(
        &with("params = { beta = 0 }"),
        "flows[0].params.beta",
        &["beta", "TCP-PR eq. 1", "between 1 and 1000", "got 0"],
    );
    only(
        &with("params = { alpha = 2 }"),
        "flows[0].params.alpha",
        &["alpha", "between 0 and 1", "got 2"],
    );
    only(
        &with("params = { gamma = 1 }"),
        "flows[0].params.gamma",
        &[
            "unknown parameter \"gamma\" for variant \"tcp-pr\"",
            "alpha, beta",
        ],
    );
    // Every bad entry is reported, not only the first.
    let keys: Vec<String> = problems(&with("params = { alpha = 2, beta = 0 }"))
        .into_iter()
        .map(|p| p.key)
        .collect();
    assert_eq!(keys, ["flows[0].params.alpha", "flows[0].params.beta"]);
    only(
        &BASE
            .replace("tcp-pr", "sack")
            .replace("[[flows]]\n", "[[flows]]\nparams = { alpha = 1 }\n"),
        "flows[0].params.alpha",
        &["this variant takes no parameters"],
    );
}

#[test]
fn name_must_be_a_safe_file_name() {
    for bad in [
        "../../escape",
        "/tmp/abs",
        ".hidden",
        "a/b",
        "a b",
        "..",
        "x\\\\y",
    ] {
        only(
            &BASE.replace("name = \"b\"", &format!("name = \"{bad}\"")),
            "name",
            &[
                "expected a file name",
                "not starting with '.'",
                "results/<name>",
            ],
        );
        assert!(!is_safe_name(bad.replace("\\\\", "\\").as_str()));
    }
    for good in ["one-sack-flow", "a.b_c-1", "X"] {
        assert!(is_safe_name(good));
        check(
            &BASE.replace("name = \"b\"", &format!("name = \"{good}\"")),
            "t.toml",
            &[],
        )
        .unwrap();
    }
}

#[test]
fn bounds_on_inputs_that_exhaust_memory_or_never_finish() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "[measure]\nreorder_threshold = 4000000000",
            "measure.reorder_threshold",
            &["expected at most 1000000 packets", "32 bytes", "got 4000000000"],
        ),
        (
            "[measure]\nseries_interval = \"1ns\"",
            "measure.series_interval",
            &["at most 1000000 samples per flow", "got \"1ns\"", "at least 60us"],
        ),
        (
            "initial_window = 4294967295",
            "flows[0].initial_window",
            &["expected at most 100000 segments", "RFC 6928", "got 4294967295"],
        ),
        (
            "[[impairments]]\nlink = \"bottleneck\"\nkind = \"spikes\"\nevery = \"1ns\"\nlength = \"1ns\"",
            "impairments[0].every",
            &["at most 10000000 spikes", "duration = 60s", "at least 6us"],
        ),
        (
            "[[impairments]]\nlink = \"bottleneck\"\nkind = \"swap\"\ninterval = \"1ns\"\nswaps = 1",
            "impairments[0].interval",
            &["at most 10000000 swap events", "got \"1ns\""],
        ),
        (
            "[[impairments]]\nlink = \"bottleneck\"\nkind = \"swap\"\nswaps = 4294967295",
            "impairments[0].swaps",
            &["expected at most 65536 swaps per event", "got 4294967295"],
        ),
        (
            "[[impairments]]\nlink = \"bottleneck\"\nkind = \"arq\"\nframe_error = 1\nretries = 4294967295",
            "impairments[0].retries",
            &["expected at most 255 retries", "802.11", "got 4294967295"],
        ),
        (
            "[[traffic]]\nkind = \"cbr\"\nrate = \"1000Gbps\"",
            "traffic[0].rate",
            &["at most 10000000 packets per second", "got \"1000Gbps\"", "125000000 packets per second"],
        ),
    ];
    for (extra, key, needles) in cases {
        only(&with(extra), key, needles);
    }
    // Just inside the bounds is fine.
    for extra in [
        "[measure]\nreorder_threshold = 1000000",
        "[measure]\nseries_interval = \"60us\"",
        "initial_window = 100000",
        "[[impairments]]\nlink = \"bottleneck\"\nkind = \"arq\"\nframe_error = 1\nretries = 255",
        "[[traffic]]\nkind = \"cbr\"\nrate = \"80Gbps\"",
    ] {
        if let Err(e) = check(&with(extra), "t.toml", &[]) {
            panic!("{extra}: {e}");
        }
    }
}

#[test]
fn seeds_are_toml_integers() {
    only(
        &BASE.replace("duration", "seed = -1\nduration"),
        "seed",
        &["expected a non-negative integer, got -1"],
    );
    let e = check(BASE, "t.toml", &["seed=18446744073709551615".into()]).unwrap_err();
    assert_eq!(e.problems()[0].key, "seed");
    check(BASE, "t.toml", &["seed=9223372036854775807".into()]).unwrap();
}
