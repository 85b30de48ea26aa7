//! Start-time jitter: `start` drawn per flow breaks the phase lock of
//! identical flows, deterministically.

mod common;
use common::{dumbbell, run, scenario};

fn flows(start: &str, seed: u64) -> String {
    let flow = format!("variant = \"sack\"\ncount = 6\nstart = {start}");
    dumbbell("8s", "10Mbps", "10ms", 30, &flow, "").replace("seed = 1", &format!("seed = {seed}"))
}

#[test]
fn without_jitter_the_seed_changes_nothing_and_with_it_every_seed_differs() {
    let rows = |text: &str| {
        run(text)
            .flows
            .iter()
            .map(|f| (f.goodput_bps, f.retransmissions))
            .collect::<Vec<_>>()
    };
    // Drop-tail and no random impairment: nothing is random, so every seed
    // gives the same rows (a confidence interval over seeds of width 0).
    let locked = rows(&flows("\"0s\"", 1));
    assert_eq!(locked, rows(&flows("\"0s\"", 2)));
    let jitter = "{ dist = \"uniform\", min = \"0s\", max = \"1s\" }";
    let free = rows(&flows(jitter, 1));
    assert!(free.windows(2).any(|w| w[0] != w[1]), "{free:?}");
    // Same seed, same output; another seed, other draws.
    assert_eq!(free, rows(&flows(jitter, 1)));
    assert_ne!(free, rows(&flows(jitter, 2)));
}

/// Each flow draws from its own stream: a flow's start does not depend on
/// how many flows follow it, and the draws stay inside [min, max].
#[test]
fn each_flow_draws_its_start_from_its_own_stream() {
    let jitter = "{ dist = \"uniform\", min = \"100ms\", max = \"1s\" }";
    let starts = |text: &str| {
        let w = reorderlab_world::build(&scenario(text)).expect("builds");
        w.flows.iter().map(|f| f.transfer.start).collect::<Vec<_>>()
    };
    let six = starts(&flows(jitter, 3));
    let three = starts(&flows(jitter, 3).replace("count = 6", "count = 3"));
    assert_eq!(six[..3], three[..]);
    let (lo, hi) = (
        reorderlab_sim::Time::from_millis(100),
        reorderlab_sim::Time::from_secs(1),
    );
    assert!(six.iter().all(|&t| t >= lo && t <= hi), "{six:?}");
    assert!(six.windows(2).all(|w| w[0] != w[1]), "{six:?}");
}
