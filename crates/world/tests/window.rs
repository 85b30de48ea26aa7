//! `[measure] from/to` bounds every per-flow, per-link and per-source
//! figure; the `*_total` fields and `bytes_delivered` cover the whole run.

mod common;
use common::{dumbbell, run};
use reorderlab_metrics::{FlowReport, RunReport};

/// One SACK flow with random loss and reordering (5% of packets held back
/// 20-40 ms) and a window given by `measure`.
fn lossy(flow: &str, measure: &str) -> RunReport {
    let extra = format!(
        r#"[[impairments]]
link = "bottleneck"
kind = "loss"
probability = 0.02
[[impairments]]
link = "bottleneck"
kind = "delay"
fraction = 0.05
delay = {{ dist = "uniform", min = "20ms", max = "40ms" }}
[[traffic]]
kind = "cbr"
rate = "100kbps"
packet_bytes = 500
stop = "1s"
[measure]
{measure}
"#
    );
    run(&dumbbell("20s", "10Mbps", "10ms", 100, flow, &extra))
}

/// A 300 kB transfer finishes in the first seconds: a window from 10 s sees
/// none of its retransmissions, timeouts, reordering or packets, while the
/// whole-run totals do.
#[test]
fn a_window_after_the_losses_counts_none_of_them() {
    let flow = "variant = \"sack\"\nbytes = \"300kB\"";
    let r = lossy(flow, "from = \"10s\"");
    let f = &r.flows[0];
    assert!(f.completion_time_s.unwrap() < 10.0, "{f:?}");
    assert!(f.retransmissions_total > 0, "{f:?}");
    let whole = lossy(flow, "");
    let w = &whole.flows[0];
    assert!(w.reordered_ratio > 0.0 && w.retransmissions > 0, "{w:?}");
    assert_eq!(
        (
            f.segments_sent,
            f.retransmissions,
            f.spurious_retransmissions,
            f.fast_retransmits,
            f.spurious_fast_retransmits,
            f.timeouts,
            f.spurious_timeouts,
            f.dsacks_received,
        ),
        (0, 0, 0, 0, 0, 0, 0, 0),
        "{f:?}"
    );
    assert_eq!((f.goodput_bps, f.throughput_bps), (0.0, 0.0));
    assert_eq!(f.reordered_ratio, 0.0);
    assert_eq!(
        (f.reordering_extent_max, f.reordering_extent_mean),
        (0, 0.0)
    );
    assert!(r.reorder_density.is_empty(), "{:?}", r.reorder_density);
    assert!(r.links.iter().all(|l| l.packets == 0 && l.drops == 0));
    let cbr = &r.traffic[0];
    assert_eq!((cbr.packets_sent, cbr.packets_delivered), (0, 0));
    assert_eq!(cbr.goodput_bps, 0.0);
    // The whole-run figures are the same in both runs (the window does not
    // change what is simulated), and the full window's counts are the totals.
    assert_eq!(f.bytes_delivered, w.bytes_delivered);
    assert_eq!(
        (
            f.retransmissions_total,
            f.spurious_retransmissions_total,
            f.timeouts_total
        ),
        (w.retransmissions, w.spurious_retransmissions, w.timeouts)
    );
    assert_eq!(w.retransmissions, w.retransmissions_total);
    assert!(whole.traffic[0].packets_sent > 0);
}

/// Two adjacent windows split every count of a bulk flow: their sums are
/// the whole run's.
#[test]
fn adjacent_windows_add_up_to_the_whole_run() {
    let flow = "variant = \"sack\"";
    let cut = "7.123456789s";
    let a = lossy(flow, &format!("to = \"{cut}\""));
    let b = lossy(flow, &format!("from = \"{cut}\""));
    let whole = lossy(flow, "");
    let (a, b, w) = (&a.flows[0], &b.flows[0], &whole.flows[0]);
    let counts = |f: &FlowReport| {
        [
            f.segments_sent,
            f.retransmissions,
            f.spurious_retransmissions,
            f.fast_retransmits,
            f.spurious_fast_retransmits,
            f.timeouts,
            f.spurious_timeouts,
            f.dsacks_received,
        ]
    };
    let sum: Vec<u64> = counts(a)
        .iter()
        .zip(counts(b))
        .map(|(x, y)| x + y)
        .collect();
    assert_eq!(sum, counts(w), "{a:?}\n{b:?}\n{w:?}");
    assert!(a.retransmissions > 0 && b.retransmissions > 0);
    assert!(a.reordered_ratio > 0.0 && b.reordered_ratio > 0.0);
    let density = |r: &RunReport| r.reorder_density.iter().map(|d| d.count).sum::<u64>();
    let (da, db) = (
        density(&lossy(flow, &format!("to = \"{cut}\""))),
        density(&lossy(flow, &format!("from = \"{cut}\""))),
    );
    assert_eq!(da + db, density(&whole));
}
