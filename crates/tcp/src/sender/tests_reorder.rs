//! Fake-clock tests of the reordering defences: DSACK detection (dsack-nm),
//! Blanton-Allman dupthresh adaptation with undo, TD-FR, TCP-DCR, and
//! TCP-NCR (RFC 4653).

use super::*;
use crate::segment::SackBlock;
use crate::variant;
use std::collections::BTreeMap;

const MSS: u64 = 1000;

fn sender(name: &str, iw: u32) -> (Sender, Vec<(u64, TxKind)>) {
    let v = variant::find(name).unwrap();
    let cfg = SenderConfig {
        mss: MSS as u32,
        initial_window: iw,
        sack: true,
        dsack: true,
        ..SenderConfig::default()
    };
    let mut s = v.sender(cfg, v.default_cc(), &BTreeMap::new());
    let mut out = Vec::new();
    s.start(Time::ZERO, &mut out);
    (s, segs(&out))
}

/// The adapted dupthresh of a Blanton-Allman sender.
fn adapted(s: &Sender) -> f64 {
    match &s.loss {
        LossDetection::DupThresh(d) => d.value,
        _ => panic!("not a dupthresh sender"),
    }
}

fn ncr(s: &Sender) -> &Ncr {
    match &s.loss {
        LossDetection::Ncr(n) => n,
        _ => panic!("not an NCR sender"),
    }
}

fn segs(out: &[DataSegment]) -> Vec<(u64, TxKind)> {
    out.iter().map(|d| (d.seq / MSS, d.kind)).collect()
}

fn ack(
    s: &mut Sender,
    ms: u64,
    cum: u64,
    sacks: &[(u64, u64)],
    dsack: Option<(u64, u64)>,
) -> Vec<(u64, TxKind)> {
    let mut a = AckSegment {
        ack: cum * MSS,
        rwnd: u64::MAX,
        ..Default::default()
    };
    if let Some((x, y)) = dsack {
        a.push_sack(SackBlock {
            start: x * MSS,
            end: y * MSS,
        });
        a.dsack = true;
    }
    for &(x, y) in sacks {
        a.push_sack(SackBlock {
            start: x * MSS,
            end: y * MSS,
        });
    }
    let mut out = Vec::new();
    s.on_ack(Time::from_millis(ms), &a, &mut out);
    s.sb.check();
    segs(&out)
}

/// Segment 0 is delayed past `extra` SACKs of later segments: a spurious fast
/// retransmit of 0, then the original arrives, then the retransmission (DSACK).
fn spurious_episode(name: &str, extra: u64) -> Sender {
    let (mut s, _) = sender(name, 10);
    for k in 1..=extra {
        ack(&mut s, 100 + k, 0, &[(1, 1 + k)], None);
    }
    assert_eq!(
        s.stats.fast_retransmits, 1,
        "{name}: the reordering triggers a fast retransmit"
    );
    let nxt = s.sb.nxt();
    ack(&mut s, 120, nxt, &[], None); // the delayed original: everything is ACKed
    ack(&mut s, 130, nxt, &[], Some((0, 1))); // the retransmission arrives: DSACK
    s
}

#[test]
fn dsack_nm_detects_the_spurious_fast_retransmit_and_changes_nothing() {
    let s = spurious_episode("dsack-nm", 5);
    assert_eq!(s.stats.spurious_detected, 1);
    assert_eq!(s.dupthresh(), 3);
    assert_eq!(
        s.ssthresh, 5.0,
        "no undo: ssthresh stays at half the flight (10: limited transmit's 2 left out)"
    );
}

#[test]
fn ba_inc1_raises_dupthresh_by_one_and_slow_starts_back_to_the_prior_window() {
    let s = spurious_episode("ba-inc1", 5);
    assert_eq!(s.stats.spurious_detected, 1);
    assert_eq!(adapted(&s), 4.0);
    assert_eq!(
        s.ssthresh, 10.0,
        "ssthresh = cwnd before the cut: slow start back to it"
    );
    assert!(s.cwnd < s.ssthresh);
}

#[test]
fn ba_incn_raises_dupthresh_past_the_duplicate_acks_observed() {
    // 7 duplicate ACKs arrived for segment 0 before its original did.
    let s = spurious_episode("ba-incn", 7);
    assert_eq!(adapted(&s), 8.0, "one more than the 7 duplicate ACKs");
    assert_eq!(
        s.dupthresh(),
        8.min((0.9 * s.cwnd).floor() as u32).max(3),
        "capped at 0.9 cwnd"
    );
}

#[test]
fn ba_ewma_moves_dupthresh_a_quarter_of_the_way_to_the_observation() {
    let s = spurious_episode("ba-ewma", 7);
    assert_eq!(adapted(&s), 0.75 * 3.0 + 0.25 * 7.0);
}

#[test]
fn a_dsack_for_only_some_retransmissions_is_not_a_spurious_episode() {
    let (mut s, _) = sender("ba-inc1", 10);
    // Segments 0 and 1 lost (really); 2..=5 SACKed: both retransmitted.
    ack(&mut s, 101, 0, &[(2, 6)], None);
    let nxt = s.sb.nxt();
    ack(&mut s, 120, 1, &[(2, nxt)], None);
    ack(&mut s, 121, nxt, &[], None);
    // A DSACK for segment 0 only (say, a duplicated packet): one of two.
    ack(&mut s, 130, nxt, &[], Some((0, 1)));
    assert_eq!(s.stats.spurious_detected, 0);
    assert_eq!(adapted(&s), 3.0);
}

#[test]
fn timeout_resets_an_adapted_dupthresh() {
    let mut s = spurious_episode("ba-inc1", 5);
    assert_eq!(adapted(&s), 4.0);
    let mut out = Vec::new();
    s.start(Time::from_millis(131), &mut out); // new data in flight
    let d = s.next_wakeup().unwrap();
    s.on_timer(d, &mut out);
    assert_eq!(s.stats.timeouts, 1);
    assert_eq!(adapted(&s), 3.0);
}

#[test]
fn td_fr_waits_max_half_rtt_and_dt_after_the_first_duplicate() {
    let (mut s, _) = sender("td-fr", 10);
    // srtt 100 ms from a first ACK.
    ack(&mut s, 100, 1, &[], None);
    assert_eq!(s.rtt.srtt, Some(Time::from_millis(100)));
    // Duplicates at 110, 112, 114 ms: DT = 4 ms < RTT/2 = 50 ms.
    ack(&mut s, 110, 1, &[(2, 3)], None);
    ack(&mut s, 112, 1, &[(2, 4)], None);
    let out = ack(&mut s, 114, 1, &[(2, 5)], None);
    assert!(
        !s.in_recovery,
        "no fast retransmit at the third duplicate: {out:?}"
    );
    assert_eq!(
        s.next_wakeup(),
        Some(Time::from_millis(160)),
        "first duplicate + RTT/2"
    );
    let mut out = Vec::new();
    s.on_timer(Time::from_millis(160), &mut out);
    assert!(s.in_recovery);
    assert_eq!(segs(&out).first(), Some(&(1, TxKind::FastRetransmit)));
}

#[test]
fn td_fr_does_nothing_when_the_hole_fills_before_the_wait_ends() {
    let (mut s, _) = sender("td-fr", 10);
    ack(&mut s, 100, 1, &[], None);
    ack(&mut s, 110, 1, &[(2, 3)], None);
    ack(&mut s, 112, 1, &[(2, 4)], None);
    ack(&mut s, 114, 1, &[(2, 5)], None);
    ack(&mut s, 130, 5, &[], None); // the reordered segment arrives
    assert_eq!(s.loss.deadline(), None);
    let mut out = Vec::new();
    s.on_timer(Time::from_millis(160), &mut out);
    assert!(!s.in_recovery);
    assert_eq!(s.stats.fast_retransmits, 0);
}

#[test]
fn ncr_dupthresh_is_half_the_flight_and_extended_limited_transmit_keeps_sending() {
    let (mut s, _) = sender("tcp-ncr", 20);
    // First SACK: enter Extended Limited Transmit with FlightSizePrev = 20.
    let out = ack(&mut s, 100, 0, &[(1, 2)], None);
    let n = ncr(&s);
    assert!(n.active);
    assert_eq!(n.flight_prev, 20);
    // Aggressive: one new segment per segment that left (pipe 19 + 0 <= 19).
    assert_eq!(out, vec![(20, TxKind::New)]);
    // (E.6): DupThresh = max(1/2 * 21, 3) = 10.
    assert_eq!(s.dupthresh(), 10);
    // Nine more SACKed segments: IsLost(0) needs 10 SACKed above it.
    for k in 2..=9 {
        ack(&mut s, 100 + k, 0, &[(1, 1 + k)], None);
    }
    assert!(
        !s.in_recovery,
        "dupthresh {} not reached with 9 SACKed",
        s.dupthresh()
    );
    assert_eq!(
        s.cwnd, 20.0,
        "no window change during Extended Limited Transmit"
    );
}

#[test]
fn ncr_loss_recovery_cuts_from_the_flight_before_extended_limited_transmit() {
    let (mut s, _) = sender("tcp-ncr", 20);
    let mut k = 1;
    while !s.in_recovery && k < 40 {
        ack(&mut s, 100 + k, 0, &[(1, 1 + k)], None);
        k += 1;
    }
    assert!(
        s.in_recovery,
        "segment 0 is really lost: recovery starts after about a flight of SACKs"
    );
    assert!(k > 10, "later than three duplicates: {k}");
    assert_eq!(
        s.ssthresh, 10.0,
        "ssthresh = cwnd = FlightSizePrev / 2 (RFC 4653 Section 3.4)"
    );
    assert_eq!(s.cwnd, 10.0);
}

#[test]
fn ncr_reordering_ends_extended_limited_transmit_without_a_cut() {
    let (mut s, _) = sender("tcp-ncr", 20);
    for k in 1..=6 {
        ack(&mut s, 100 + k, 0, &[(1, 1 + k)], None);
    }
    let nxt = s.sb.nxt();
    ack(&mut s, 120, nxt, &[], None);
    let n = ncr(&s);
    assert!(!n.active);
    assert_eq!(n.reordering_ends, 1);
    assert_eq!(s.ssthresh, 20.0, "(T.2) ssthresh = FlightSizePrev");
    assert_eq!(s.stats.fast_retransmits, 0);
}

#[test]
fn ncr_careful_sends_one_segment_per_two_that_left() {
    let v = variant::find("tcp-ncr").unwrap();
    let cfg = SenderConfig {
        mss: MSS as u32,
        initial_window: 20,
        ..SenderConfig::default()
    };
    let mut p = BTreeMap::new();
    p.insert("careful".to_string(), 1.0);
    let mut s = v.sender(cfg, v.default_cc(), &p);
    let mut out = Vec::new();
    s.start(Time::ZERO, &mut out);
    let mut sent = 0;
    for k in 1..=8 {
        sent += ack(&mut s, 100 + k, 0, &[(1, 1 + k)], None).len();
    }
    assert_eq!(sent, 4, "Careful Limited Transmit halves the sending rate");
}

#[test]
fn dcr_waits_one_rtt_after_the_trigger_then_cuts_from_the_flight_at_the_trigger() {
    let (mut s, _) = sender("tcp-dcr", 10);
    ack(&mut s, 100, 1, &[], None); // srtt 100 ms, cwnd 11: segments 1..12 out
    ack(&mut s, 110, 1, &[(2, 3)], None);
    ack(&mut s, 111, 1, &[(2, 4)], None);
    let flight = s.sb.packets_out(); // FlightSize when the third duplicate arrives
    let out = ack(&mut s, 112, 1, &[(2, 5)], None);
    assert!(!s.in_recovery, "the response waits: {out:?}");
    assert!(
        out.iter().all(|(_, k)| *k == TxKind::New),
        "new data keeps flowing meanwhile"
    );
    assert_eq!(
        s.next_wakeup(),
        Some(Time::from_millis(212)),
        "one RTT after the trigger"
    );
    // More SACKs arrive; the flight grows with new data.
    for k in 5..9 {
        ack(&mut s, 150 + k, 1, &[(2, k + 1)], None);
    }
    let mut out = Vec::new();
    s.on_timer(Time::from_millis(212), &mut out);
    assert!(s.in_recovery);
    assert_eq!(segs(&out).first(), Some(&(1, TxKind::FastRetransmit)));
    assert_eq!(
        s.ssthresh,
        flight as f64 / 2.0,
        "cut from the flight at the trigger, not the grown one"
    );
}

#[test]
fn dcr_reordering_shorter_than_an_rtt_never_cuts() {
    let (mut s, _) = sender("tcp-dcr", 10);
    ack(&mut s, 100, 1, &[], None);
    for k in 2..8 {
        ack(&mut s, 100 + k, 1, &[(2, k + 1)], None);
    }
    let nxt = s.sb.nxt();
    ack(&mut s, 180, nxt, &[], None); // the late segment arrives within the RTT
    let mut out = Vec::new();
    s.on_timer(Time::from_millis(212), &mut out);
    assert_eq!(s.stats.fast_retransmits, 0);
    assert!(s.ssthresh.is_infinite());
}
