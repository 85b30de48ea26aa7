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

/// A scenario whose `[topology]` table has the body `topology`, with one
/// `[[flows]]` table (variant "sack") that `rest` continues (flow keys first,
/// then further tables).
pub fn on(topology: &str, rest: &str) -> String {
    format!(
        "name = \"t\"\nduration = \"60s\"\n[topology]\n{topology}\n[[flows]]\nvariant = \"sack\"\n{rest}"
    )
}

/// The dumbbell of [`MINIMAL`] as a topology body for [`on`].
pub const DUMBBELL: &str =
    "kind = \"dumbbell\"\nbottleneck = { rate = \"15Mbps\" }\naccess = { rate = \"100Mbps\" }";

/// Shorthand for a [`Problem`](reorderlab_scenario::Problem).
pub fn p(key: &str, message: &str) -> reorderlab_scenario::Problem {
    reorderlab_scenario::Problem {
        key: key.into(),
        message: message.into(),
    }
}

/// Valid documents exercising every topology kind, impairment kind, traffic
/// kind and distribution form (the fuzz tests mutate them).
pub const CORPUS: &[&str] = &[
    r#"name = "lot"
duration = "100s"
[measure]
from = "40s"
reorder_threshold = 3
[topology]
kind = "parking-lot"
link = { rate = "15Mbps", delay = "10ms", queue = 250, aqm = "red", red = { min_th = 5 } }
cross_rates = ["5Mbps", "1.66Mbps", "2.5Mbps"]
[[flows]]
variant = "sack"
count = 2
[[flows]]
variant = "newreno"
src = "CS1"
dst = "CD3"
[[flows]]
variant = "tdfr"
reverse = true
[[impairments]]
link = "bottleneck:2"
direction = "reverse"
kind = "delay"
fraction = 0.02
delay = { dist = "normal", mean = "25ms", sd = "8ms" }
[[impairments]]
link = "bottlenecks"
kind = "swap"
interval = "1s"
swaps = 4
[[impairments]]
link = "cs1"
kind = "spikes"
length = { dist = "uniform", min = "3s", max = "15s" }
every = { dist = "exponential", mean = "30s" }
[[impairments]]
link = "access-d"
kind = "rate-change"
at = "30s"
rate = "1Mbps"
[[impairments]]
link = "cd2"
kind = "burst-loss"
rate = 0.0002
length = { dist = "constant", value = "350ms" }
[[impairments]]
link = "access-s"
kind = "arq"
frame_error = 0.1
retries = 3
attempt_delay = "5ms"
[[traffic]]
kind = "web"
src = "CS1"
dst = "CD1"
pairs = 2
sessions = 10
variant = "sack"
mss = 1460
start = "0s"
inter_page = { dist = "exponential", mean = "1s" }
objects_per_page = [1, 3]
inter_object = "10ms"
object_size_mean = "40KB"
object_size_shape = 1.2
[[traffic]]
kind = "cbr"
src = "CS2"
dst = "CD2"
rate = "1Mbps"
packet_bytes = 1000
start = "1s"
stop = "90s"
"#,
    r#"name = "mesh"
duration = "60s"
[topology]
kind = "multipath"
epsilon = 0.5
link_delay = "60ms"
rate = "10Mbps"
queue = 100
aqm = "droptail"
hops = [2, 3, 4]
[[flows]]
variant = "sack"
[[impairments]]
link = "path1"
kind = "loss"
probability = 0.01
"#,
    r#"name = "chain"
duration = "1000s"
[topology]
kind = "chain"
max_window = 50
packet_bytes = 1040
bottleneck = { delay = "50ms", queue = 100 }
access = { rate = "10Mbps", delay = "1ms" }
[[flows]]
variant = "sack"
[[impairments]]
link = "bottleneck"
kind = "delay"
fraction = 0.1
delay = "50ms"
"#,
    r#"name = "wifi"
duration = "60s"
[topology]
kind = "wireless-infrastructure"
wired_hops = 2
wired = { rate = "100Mbps", delay = "10ms" }
wireless = { rate = "2Mbps", delay = "1ms", queue = 50 }
[[flows]]
variant = "newreno"
[[impairments]]
link = "wireless"
kind = "loss"
probability = 0.05
"#,
    r#"name = "multihop"
duration = "60s"
[topology]
kind = "wireless-multihop"
hops = 4
wireless = { rate = "2Mbps" }
[[flows]]
variant = "newreno"
[[impairments]]
link = "wireless"
kind = "arq"
frame_error = 0.15
"#,
    r#"name = "highspeed"
duration = "400s"
[measure]
from = "100s"
to = "300s"
[topology]
kind = "multi-bottleneck"
routers = 5
link = { rate = "1Gbps", delay = "23ms" }
access = { rate = "10Gbps", delay = "1ms", queue = 10000 }
[[flows]]
variant = "sack"
count = 3
[[flows]]
variant = "sack"
src = "H5"
dst = "H4"
[[impairments]]
link = "R2-R3"
direction = "reverse"
kind = "delay"
fraction = 0.05
delay = { dist = "normal", mean = "25ms", sd = "8ms" }
[[traffic]]
kind = "web"
"#,
    r#"name = "custom"
duration = "60s"
[topology]
kind = "custom"
nodes = ["S", "R", "D", "X"]
endpoints = [["S", "D"], ["X", "D"]]
[[topology.links]]
name = "s-r"
a = "S"
b = "R"
rate = "10Mbps"
delay = "1ms"
[[topology.links]]
name = "r-d"
a = "R"
b = "D"
rate = "5Mbps"
delay = "20ms"
queue = 60
aqm = "red"
[[topology.links]]
name = "x-r"
a = "X"
b = "R"
rate = "10Mbps"
[[topology.links]]
name = "s-d"
a = "S"
b = "D"
rate = "10Mbps"
delay = "40ms"
[[topology.multipath]]
src = "S"
dst = "D"
epsilon = 1
[[flows]]
variant = "sack"
count = 2
[[impairments]]
link = "r-d"
kind = "spikes"
[[traffic]]
kind = "cbr"
rate = "500kbps"
"#,
];
