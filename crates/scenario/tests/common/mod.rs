//! Shared fixtures for the integration tests.
#![allow(dead_code)]

use reorderlab_scenario::{parse, Problem, Scenario, ScenarioError};

/// Variant names the tests pretend the TCP crate knows.
pub const VARIANTS: &[&str] = &["newreno", "sack", "tdfr"];

/// The example from the brief, verbatim.
pub const EXAMPLE: &str = r#"name = "one-sack-flow"
duration = "60s"
seed = 1
[measure]
from = "10s"
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "15Mbps"
delay = "10ms"
queue = 250
aqm = "droptail"
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "sack"
count = 1
mss = 1460
bytes = "5MB"
start = "0s"
delayed_ack = false
timestamps = false
min_rto = "1s"
rwnd = "1MB"
[[impairments]]
link = "bottleneck"
direction = "forward"
kind = "loss"
probability = 0.01
"#;

/// A minimal valid document to which tests append keys.
pub const MINIMAL: &str = r#"name = "m"
duration = "60s"
[topology]
kind = "dumbbell"
bottleneck = { rate = "15Mbps" }
access = { rate = "100Mbps" }
[[flows]]
variant = "newreno"
"#;

pub fn ok(text: &str) -> Scenario {
    match parse(text, "t.toml", &[], VARIANTS) {
        Ok(s) => s,
        Err(e) => panic!("expected a valid scenario, got:\n{e}"),
    }
}

pub fn ok_with(text: &str, overrides: &[&str]) -> Scenario {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    match parse(text, "t.toml", &o, VARIANTS) {
        Ok(s) => s,
        Err(e) => panic!("expected a valid scenario, got:\n{e}"),
    }
}

pub fn problems_with(text: &str, overrides: &[&str]) -> Vec<Problem> {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    match parse(text, "t.toml", &o, VARIANTS) {
        Ok(s) => panic!("expected problems, got a valid scenario: {s:?}"),
        Err(ScenarioError::Invalid { file, problems }) => {
            assert_eq!(file, "t.toml");
            assert!(!problems.is_empty());
            problems
        }
        Err(e) => panic!("expected Invalid, got {e}"),
    }
}

pub fn problems(text: &str) -> Vec<Problem> {
    problems_with(text, &[])
}

/// Asserts that exactly one problem was reported, with this key and message.
pub fn only_problem(text: &str, key: &str, message: &str) {
    let ps = problems(text);
    let expected = vec![Problem {
        key: key.into(),
        message: message.into(),
    }];
    assert_eq!(ps, expected, "for input:\n{text}");
}

/// The example with `from` replaced by `to` (which must occur exactly once).
pub fn example_with(from: &str, to: &str) -> String {
    assert_eq!(EXAMPLE.matches(from).count(), 1, "{from:?} must occur once");
    EXAMPLE.replace(from, to)
}
