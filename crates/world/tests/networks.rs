//! The networks of the papers, end to end: each impairment and topology
//! does to a flow what the scenario says.

mod common;
use common::*;

fn multipath(eps: f64, variant: &str) -> String {
    format!(
        r#"
name = "mp"
duration = "30s"
seed = 3
[measure]
from = "5s"
[topology]
kind = "multipath"
epsilon = {eps}
link_delay = "10ms"
[[flows]]
variant = "{variant}"
"#
    )
}

#[test]
fn multipath_minimum_hop_routing_does_not_reorder_and_full_multipath_does() {
    let single = run(&multipath(500.0, "sack"));
    assert_eq!(
        single.flows[0].reordered_ratio, 0.0,
        "epsilon = 500 is minimum-hop routing"
    );
    assert!(single.flows[0].bytes_delivered > 0);
    let multi = run(&multipath(0.0, "sack"));
    let r = multi.flows[0].reordered_ratio;
    assert!(
        r > 0.03,
        "epsilon = 0 spreads packets over paths of 2, 3 and 4 hops: reordered ratio {r}"
    );
    assert!(multi.flows[0].reordering_extent_max > 0);
    // Reordering makes SACK retransmit spuriously; the ground truth sees it.
    assert!(multi.flows[0].spurious_fast_retransmits > 0);
}

#[test]
fn tcp_pr_keeps_its_throughput_under_full_multipath_where_sack_collapses() {
    let sack = run(&multipath(0.0, "sack")).flows[0].goodput_bps;
    let pr = run(&multipath(0.0, "tcp-pr")).flows[0].goodput_bps;
    assert!(
        pr > 2.0 * sack,
        "TCP-PR {pr:.0} b/s vs SACK {sack:.0} b/s under persistent reordering"
    );
}

#[test]
fn delay_spikes_cause_spurious_timeouts_and_the_ground_truth_says_so() {
    // Eifel paper Section IV-A: spikes of U[3, 15] s every U[20, 40] s on a
    // 2 Mbit/s, 150 ms link; a 5 MB SACK transfer.
    let text = r#"
name = "spikes"
duration = "600s"
seed = 5
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "2Mbps"
delay = "150ms"
queue = 75
[topology.access]
rate = "100Mbps"
delay = "0ms"
[[flows]]
variant = "sack"
bytes = "5MB"
mss = 1000
timestamps = true
[[impairments]]
link = "bottleneck"
kind = "spikes"
"#;
    let r = run(text);
    let f = &r.flows[0];
    assert_eq!(f.bytes_delivered, 5_000_000);
    assert!(f.timeouts > 0, "spikes longer than the RTO must time out");
    assert!(
        f.spurious_timeouts > 0,
        "a spike delays, it does not drop: the timeouts are spurious ({} of {})",
        f.spurious_timeouts,
        f.timeouts
    );
    // Every needed retransmission repairs a real drop.
    let drops: u64 = r.links.iter().map(|l| l.drops).sum();
    assert!(
        f.retransmissions - f.spurious_retransmissions <= drops,
        "{} needed retransmissions for {drops} drops",
        f.retransmissions - f.spurious_retransmissions
    );
}

#[test]
fn arq_hides_loss_but_reorders_and_residual_loss_remains_when_retries_run_out() {
    let text = |p: f64, retries: u32| {
        format!(
            r#"
name = "arq"
duration = "60s"
seed = 2
[topology]
kind = "wireless-multihop"
hops = 4
[[flows]]
variant = "sack"
[[impairments]]
link = "wireless"
kind = "arq"
frame_error = {p}
retries = {retries}
attempt_delay = "5ms"
"#
        )
    };
    let clean = run(&text(0.0, 3));
    assert_eq!(clean.flows[0].reordered_ratio, 0.0);
    let arq = run(&text(0.1, 3));
    assert!(
        arq.flows[0].reordered_ratio > 0.01,
        "ARQ retries let later frames pass: {}",
        arq.flows[0].reordered_ratio
    );
    let drops: u64 = arq.links.iter().map(|l| l.impairment_drops).sum();
    let packets: u64 = arq
        .links
        .iter()
        .filter(|l| l.name.starts_with("wireless"))
        .map(|l| l.packets)
        .sum();
    // Residual loss per hop is 0.1^4 = 1e-4: tiny but not zero over ~10^5 frames.
    let rate = drops as f64 / packets as f64;
    assert!(rate < 5e-4, "residual loss {rate}");
}

#[test]
fn cbr_delivers_its_rate_on_an_idle_link() {
    let text = r#"
name = "cbr"
duration = "20s"
seed = 1
[measure]
from = "1s"
[topology]
kind = "dumbbell"
pairs = 1
[topology.bottleneck]
rate = "10Mbps"
delay = "20ms"
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "sack"
bytes = 1000
[[traffic]]
kind = "cbr"
src = "S0"
dst = "D0"
rate = "1Mbps"
packet_bytes = 1000
"#;
    let r = run(text);
    let t = &r.traffic[0];
    assert_eq!(t.kind, "cbr");
    assert!(
        t.packets_sent - t.packets_delivered <= 3,
        "only the packets on the wire at the end are missing"
    );
    assert!(
        (t.goodput_bps - 1e6).abs() < 1e6 * 0.001,
        "CBR goodput {}",
        t.goodput_bps
    );
}

#[test]
fn web_sessions_complete_objects_over_the_bottleneck() {
    let text = r#"
name = "web"
duration = "60s"
seed = 4
[topology]
kind = "dumbbell"
pairs = 1
[topology.bottleneck]
rate = "15Mbps"
delay = "10ms"
queue = 250
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "sack"
[[traffic]]
kind = "web"
src = "R1"
dst = "R2"
pairs = 2
sessions = 5
"#;
    let r = run(text);
    let w = &r.traffic[0];
    assert_eq!(w.kind, "web");
    assert_eq!(w.sessions, 10);
    // Closed loop: ~1 page per (1 s think + transfer) per session.
    assert!(
        w.objects_completed > 200 && w.objects_completed <= w.objects_started,
        "{} of {}",
        w.objects_completed,
        w.objects_started
    );
    assert!(
        w.objects_started - w.objects_completed <= 10,
        "at most one object in flight per session"
    );
    let mean = w.bytes_delivered as f64 / w.objects_completed as f64;
    assert!(
        mean > 15_000.0 && mean < 120_000.0,
        "mean object {mean} bytes (Pareto mean 40 KB, heavy tail)"
    );
    assert!(
        r.flows[0].goodput_bps > 5e6,
        "the bulk flow shares the link"
    );
}

#[test]
fn parking_lot_flows_cross_their_bottlenecks() {
    let text = r#"
name = "pl"
duration = "40s"
seed = 1
[measure]
from = "10s"
[topology]
kind = "parking-lot"
[[flows]]
variant = "sack"
[[flows]]
variant = "sack"
src = "CS1"
dst = "CD3"
[[flows]]
variant = "sack"
src = "CS2"
dst = "CD2"
"#;
    let r = run(text);
    // CS1's link is 5 Mbit/s and CS2's 1.66 Mbit/s: those flows are capped there.
    assert!(r.flows[1].goodput_bps < 5e6);
    assert!(r.flows[2].goodput_bps < 1.66e6);
    assert!(
        r.flows[0].goodput_bps > 5e6,
        "S->D gets the rest of the 15 Mbit/s links"
    );
    let b2 = r
        .links
        .iter()
        .find(|l| l.name == "bottleneck:2" && l.direction == "forward")
        .unwrap();
    assert!(
        b2.utilization > 0.9,
        "R2->R3 carries all three flows: {}",
        b2.utilization
    );
}

#[test]
fn delayed_packets_on_the_chain_reorder_by_the_configured_fraction() {
    let text = r#"
name = "chain"
duration = "60s"
seed = 7
[topology]
kind = "chain"
max_window = 50
[topology.bottleneck]
delay = "50ms"
[[flows]]
variant = "sack"
mss = 1000
rwnd = 50000
[[impairments]]
link = "bottleneck"
kind = "delay"
fraction = 0.05
delay = { dist = "normal", mean = "25ms", sd = "8ms" }
"#;
    let r = run(text);
    let f = &r.flows[0];
    // Each delayed packet is overtaken (reordered itself? no: it arrives late,
    // after later ones, so it is the reordered one): about 5% reordered.
    assert!(
        (f.reordered_ratio - 0.05).abs() < 0.015,
        "reordered ratio {}",
        f.reordered_ratio
    );
    // RR-TCP's rule: S = M / R = 50 / 0.1 s = 500 packets/s of 1040 bytes.
    let bn = r
        .links
        .iter()
        .find(|l| l.name == "bottleneck" && l.direction == "forward")
        .unwrap();
    assert!(bn.packets > 0);
}
