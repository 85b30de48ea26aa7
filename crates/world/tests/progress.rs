//! The progress hook of the event loop: called every N events with the
//! simulated time, and without effect on the run.

mod common;
use common::{dumbbell, scenario};
use reorderlab_world::output::summary_json;
use reorderlab_world::Limits;

#[test]
fn an_observed_run_reports_progress_and_the_same_results() {
    let text = dumbbell(
        "5s",
        "10Mbps",
        "10ms",
        50,
        "variant = \"sack\"\ncount = 2",
        "",
    );
    let sc = scenario(&text);
    let (plain, _) = reorderlab_world::run(&sc).unwrap();
    let mut seen = Vec::new();
    let (observed, _) =
        reorderlab_world::run_observed(&sc, Limits::NONE, 1000, &mut |t, n| seen.push((t, n)))
            .unwrap();
    assert_eq!(summary_json(&plain), summary_json(&observed));
    assert_eq!(seen.len() as u64, plain.events / 1000, "{}", plain.events);
    for (i, w) in seen.windows(2).enumerate() {
        assert!(w[0].0 <= w[1].0, "time goes forward");
        assert_eq!(w[1].1 - w[0].1, 1000, "every 1000 events ({i})");
    }
    assert!(seen.last().unwrap().0 <= sc.duration);
    // A limit still stops an observed run.
    let limits = Limits {
        max_events: Some(2500),
        max_memory: None,
    };
    let mut calls = 0;
    let r = reorderlab_world::run_observed(&sc, limits, 1000, &mut |_, _| calls += 1);
    assert!(r.is_err());
    assert_eq!(calls, 2);
}
