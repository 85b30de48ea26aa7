//! Invariants over random scenarios: every byte of a finite transfer is
//! delivered exactly once and in order, ground-truth counts are consistent,
//! and nothing panics.

mod common;
use common::*;
use proptest::prelude::*;

const VARIANTS: &[&str] = &["reno", "newreno", "sack", "fack", "newreno-sack"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn finite_transfers_complete_exactly_once_under_loss(
        seed in 1u64..1_000_000,
        variant in 0usize..VARIANTS.len(),
        flows in 1u32..4,
        bytes in 1u64..300_000,
        mss in prop::sample::select(vec![536u32, 1000, 1460]),
        fwd_loss in 0.0f64..0.08,
        rev_loss in 0.0f64..0.08,
        delayed_ack in any::<bool>(),
        timestamps in any::<bool>(),
        queue in 2u32..60,
        delay_ms in 1u64..60,
    ) {
        let text = format!(
            r#"
name = "prop"
duration = "3000s"
seed = {seed}
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "5Mbps"
delay = "{delay_ms}ms"
queue = {queue}
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "{v}"
count = {flows}
bytes = {bytes}
mss = {mss}
delayed_ack = {delayed_ack}
timestamps = {timestamps}
min_rto = "200ms"
[[impairments]]
link = "bottleneck"
kind = "loss"
probability = {fwd_loss}
[[impairments]]
link = "bottleneck"
direction = "reverse"
kind = "loss"
probability = {rev_loss}
"#,
            v = VARIANTS[variant]
        );
        let r = run(&text);
        for f in &r.flows {
            prop_assert_eq!(f.bytes_delivered, bytes, "flow {} delivered {} of {}", f.id, f.bytes_delivered, bytes);
            prop_assert!(f.completion_time_s.is_some());
            prop_assert!(f.spurious_retransmissions <= f.retransmissions);
            prop_assert!(f.spurious_fast_retransmits <= f.fast_retransmits);
            prop_assert!(f.spurious_timeouts <= f.timeouts);
            prop_assert!(f.fast_retransmits + f.timeouts <= f.retransmissions);
            let min_segments = bytes.div_ceil(mss as u64);
            prop_assert!(f.segments_sent >= min_segments);
            prop_assert_eq!(f.segments_sent - f.retransmissions, min_segments, "each segment sent new exactly once");
        }
    }
}

#[test]
fn no_loss_no_reordering_means_no_retransmission_verdicts_are_spurious() {
    // Congestion losses only (a small queue): every retransmission was needed
    // or, after a timeout's go-back-N, may resend data that had arrived. Fast
    // retransmits must all be genuine with a FIFO path.
    for v in VARIANTS {
        let text = dumbbell(
            "60s",
            "10Mbps",
            "20ms",
            20,
            &format!("variant = \"{v}\"\ncount = 4"),
            "",
        );
        let r = run(&text);
        for f in &r.flows {
            assert!(f.fast_retransmits > 0, "{v}: expected congestion losses");
            if *v == "reno" {
                // Classic Reno (RFC 5681 without RFC 6582's recover guard)
                // takes the duplicate ACKs that a timeout's go-back-N draws
                // from the receiver for a new loss: the false fast
                // retransmits RFC 6582 Section 3.2 step 1 exists to avoid.
                // They can only follow a timeout.
                assert!(
                    f.spurious_fast_retransmits == 0 || f.timeouts > 0,
                    "{v}: flow {} had a spurious fast retransmit without a timeout",
                    f.id
                );
                continue;
            }
            assert_eq!(
                f.spurious_fast_retransmits, 0,
                "{v}: flow {} had a spurious fast retransmit on a FIFO path",
                f.id
            );
        }
    }
}

#[test]
fn sack_senders_never_resend_what_arrived_on_a_loss_only_path() {
    // Issue 10's invariant: with random loss and no reordering or delay
    // variation, a SACK sender's fast retransmits, NextSeg retransmissions
    // (rules 1, 3 and the rescue of rule 4) and post-timeout go-back-N are
    // all of data that was dropped. rwnd = 30 segments makes the sender run
    // out of new data in recovery, where the rescue retransmission fires.
    // (Debug builds also assert that no segment is retransmitted twice in
    // one recovery.)
    for v in [
        "sack",
        "fack",
        "newreno-sack",
        "dsack-nm",
        "ba-inc1",
        "td-fr",
        "tcp-dcr",
        "tcp-ncr",
    ] {
        for rwnd in ["rwnd = 43800", ""] {
            let text = dumbbell(
                "40s",
                "20Mbps",
                "10ms",
                100,
                &format!("variant = \"{v}\"\nmss = 1460\nmin_rto = \"200ms\"\n{rwnd}"),
                "[[impairments]]\nlink = \"bottleneck\"\ndirection = \"forward\"\nkind = \"loss\"\nprobability = 0.02\n",
            );
            let r = run(&text);
            let f = &r.flows[0];
            assert!(f.fast_retransmits > 50, "{v} {rwnd}: expected losses");
            assert_eq!(f.spurious_fast_retransmits, 0, "{v} {rwnd}");
            if f.spurious_timeouts == 0 {
                assert_eq!(
                    f.spurious_retransmissions, 0,
                    "{v} {rwnd}: resent data the receiver held ({} of {} retransmissions)",
                    f.spurious_retransmissions, f.retransmissions
                );
            }
        }
    }
}
