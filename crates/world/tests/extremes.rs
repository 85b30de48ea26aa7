//! Fuzz-style: extreme values of every parameter that could exhaust memory
//! or never finish (issue 11) either fail validation with a message naming
//! the key, or run, within the `run` guard, in bounded wall-clock time.
//! Every case gets a wall-clock bound.

use std::time::{Duration, Instant};

use reorderlab_world::{LimitHit, Limits, RunError};

const BASE: &str = r#"name = "x"
duration = "20s"
[topology]
kind = "dumbbell"
bottleneck = { rate = "100Mbps", delay = "5ms" }
access = { rate = "1Gbps" }
[[flows]]
variant = "sack"
[[impairments]]
link = "bottleneck"
kind = "delay"
fraction = 0.01
delay = "20ms"
"#;

/// Tables appended to BASE and overrides applied, each with the key of the
/// problem it must give (`None`: valid, then it must run within the guard).
fn cases() -> Vec<(String, Vec<String>, Option<String>)> {
    let imp = |body: &str| format!("{BASE}[[impairments]]\nlink = \"bottleneck\"\n{body}\n");
    let set = |s: &str| (BASE.to_string(), vec![s.to_string()]);
    let mut v = Vec::new();
    for (k, val, bad) in [
        ("measure.reorder_threshold", "4000000000", true),
        ("measure.reorder_threshold", "4294967295", true),
        ("measure.reorder_threshold", "1000001", true),
        ("measure.reorder_threshold", "1000000", false),
        ("measure.series_interval", "1ns", true),
        ("measure.series_interval", "20us", false),
        ("flows.0.initial_window", "4294967295", true),
        ("flows.0.initial_window", "100000", false),
        ("flows.0.dupthresh", "4294967295", false),
        ("flows.0.mss", "1", false),
        ("flows.0.min_rto", "1ns", false),
        ("impairments.0.fraction", "1", false),
        ("impairments.0.delay", "1ns", false),
        ("topology.bottleneck.queue", "4294967295", false),
        ("topology.bottleneck.rate", "1000Gbps", false),
        ("topology.bottleneck.rate", "1bps", false),
    ] {
        let (text, o) = set(&format!("{k}={val}"));
        v.push((text, o, bad.then(|| k.replace(".0.", "[0]."))));
    }
    let key = |k: &str, bad: bool| bad.then(|| k.to_string());
    for (body, bad) in [
        ("kind = \"spikes\"\nevery = \"1ns\"\nlength = \"1ns\"", true),
        (
            "kind = \"spikes\"\nevery = { dist = \"exponential\", mean = \"1ns\" }",
            true,
        ),
        (
            "kind = \"spikes\"\nevery = \"2us\"\nlength = \"1us\"",
            false,
        ),
    ] {
        v.push((imp(body), vec![], key("impairments[1].every", bad)));
    }
    for (body, k, bad) in [
        (
            "kind = \"swap\"\ninterval = \"1ns\"\nswaps = 1",
            "impairments[1].interval",
            true,
        ),
        (
            "kind = \"swap\"\nswaps = 4294967295",
            "impairments[1].swaps",
            true,
        ),
        (
            "kind = \"swap\"\ninterval = \"2us\"\nswaps = 65536",
            "",
            false,
        ),
        (
            "kind = \"arq\"\nframe_error = 1\nretries = 4294967295",
            "impairments[1].retries",
            true,
        ),
        (
            "kind = \"arq\"\nframe_error = 1\nretries = 255\nattempt_delay = 0",
            "",
            false,
        ),
        (
            "kind = \"burst-loss\"\nrate = 1\nlength = \"1ns\"",
            "",
            false,
        ),
    ] {
        v.push((imp(body), vec![], key(k, bad)));
    }
    for (rate, bad) in [("1000Gbps", true), ("80.1Gbps", true), ("80Gbps", false)] {
        v.push((
            format!("{BASE}[[traffic]]\nkind = \"cbr\"\nrate = \"{rate}\"\n"),
            vec![],
            key("traffic[0].rate", bad),
        ));
    }
    v
}

#[test]
fn extreme_values_are_refused_or_bounded() {
    let limits = Limits {
        max_events: Some(3_000_000),
        max_memory: Some(4 << 30),
    };
    for (text, overrides, bad_key) in cases() {
        let started = Instant::now();
        let what = format!("{overrides:?}\n{text}");
        match (
            reorderlab_scenario::check(&text, "x.toml", &overrides),
            bad_key,
        ) {
            (Err(e), Some(k)) => {
                assert!(
                    e.problems()
                        .iter()
                        .any(|p| p.key == *k && p.message.contains("expected")),
                    "{what}: expected a problem at {k}, got:\n{e}"
                );
            }
            (Err(e), None) => panic!("{what}: expected valid, got:\n{e}"),
            (Ok(_), Some(k)) => panic!("{what}: expected a problem at {k}, got a valid scenario"),
            (Ok(sc), None) => match reorderlab_world::run_limited(&sc, limits) {
                Ok(_) | Err(RunError::Limit(LimitHit::Events { .. })) => {}
                Err(e) => panic!("{what}: {e}"),
            },
        }
        let took = started.elapsed();
        assert!(took < Duration::from_secs(20), "{what}: took {took:?}");
    }
}
