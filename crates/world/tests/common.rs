//! Helpers shared by the world's integration tests.

#![allow(dead_code)]

use reorderlab_metrics::RunReport;
use reorderlab_scenario::Scenario;

/// Parses a scenario from TOML text through the commands' validation path,
/// panicking with the problems if invalid.
pub fn scenario(text: &str) -> Scenario {
    match reorderlab_scenario::check(text, "test.toml", &[]) {
        Ok(s) => s,
        Err(e) => panic!("invalid test scenario:\n{e}\n---\n{text}"),
    }
}

pub fn run(text: &str) -> RunReport {
    reorderlab_world::run(&scenario(text)).expect("builds").0
}

/// A dumbbell with one flow table; `flow` and `extra` are TOML fragments.
pub fn dumbbell(
    duration: &str,
    rate: &str,
    delay: &str,
    queue: u32,
    flow: &str,
    extra: &str,
) -> String {
    format!(
        r#"
name = "t"
duration = "{duration}"
seed = 1
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "{rate}"
delay = "{delay}"
queue = {queue}
[topology.access]
rate = "1Gbps"
delay = "0ms"
[[flows]]
{flow}
{extra}
"#
    )
}
