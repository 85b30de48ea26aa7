//! State-machine tests of the sender, one per rule, driven by a fake clock:
//! a script of ACKs in and segments out at explicit times.

use super::*;
use crate::cc::Reno;
use crate::segment::SackBlock;

const MSS: u64 = 1000;

struct H {
    s: Sender,
    now: Time,
}

fn h(algo: &str, sack: bool, iw: u32) -> (H, Vec<(u64, TxKind)>) {
    let cfg = SenderConfig {
        mss: MSS as u32,
        initial_window: iw,
        sack,
        dsack: sack,
        ..SenderConfig::default()
    };
    let v = crate::variant::find(algo).unwrap();
    let mut s = v.sender(cfg, CongestionControl::Reno(Reno), &Default::default());
    let mut out = Vec::new();
    s.start(Time::ZERO, &mut out);
    (H { s, now: Time::ZERO }, segs(&out))
}

fn segs(out: &[DataSegment]) -> Vec<(u64, TxKind)> {
    out.iter().map(|d| (d.seq / MSS, d.kind)).collect()
}

impl H {
    fn at(&mut self, ms: u64) -> &mut Self {
        self.now = Time::from_millis(ms);
        self
    }
    /// An ACK with cumulative ACK `cum` (segments) and SACK blocks `[a, b)` in segments.
    fn ack(&mut self, cum: u64, sacks: &[(u64, u64)]) -> Vec<(u64, TxKind)> {
        let mut a = AckSegment {
            ack: cum * MSS,
            rwnd: u64::MAX,
            ..Default::default()
        };
        for &(x, y) in sacks {
            a.push_sack(SackBlock {
                start: x * MSS,
                end: y * MSS,
            });
        }
        let mut out = Vec::new();
        self.s.on_ack(self.now, &a, &mut out);
        self.s.sb.check();
        segs(&out)
    }
    fn timer(&mut self) -> Vec<(u64, TxKind)> {
        let mut out = Vec::new();
        self.s.on_timer(self.now, &mut out);
        segs(&out)
    }
}

fn new(range: std::ops::Range<u64>) -> Vec<(u64, TxKind)> {
    range.map(|s| (s, TxKind::New)).collect()
}

#[test]
fn initial_window_is_sent_at_start() {
    let (_, out) = h("reno", false, 4);
    assert_eq!(out, new(0..4));
}

#[test]
fn limited_transmit_sends_one_new_segment_on_each_of_the_first_two_dupacks() {
    // RFC 3042: cwnd unchanged, one new segment per duplicate ACK, at most two.
    let (mut t, _) = h("newreno", false, 10);
    assert_eq!(t.at(10).ack(0, &[]), new(10..11));
    assert_eq!(t.at(11).ack(0, &[]), new(11..12));
    assert_eq!(t.s.cwnd, 10.0, "limited transmit must not change cwnd");
    let third = t.at(12).ack(0, &[]);
    assert_eq!(third, vec![(0, TxKind::FastRetransmit)]);
}

#[test]
fn three_dupacks_trigger_fast_retransmit_and_halve_the_window_reno() {
    // RFC 5681 Section 3.2: on the third duplicate ACK, ssthresh = FlightSize / 2
    // (limited-transmit segments left out), retransmit SND.UNA, cwnd = ssthresh + 3.
    let (mut t, _) = h("reno", false, 10);
    t.at(10).ack(0, &[]);
    t.at(11).ack(0, &[]);
    assert!(!t.s.in_recovery);
    let out = t.at(12).ack(0, &[]);
    assert_eq!(out, vec![(0, TxKind::FastRetransmit)]);
    assert!(t.s.in_recovery);
    assert_eq!(
        t.s.ssthresh, 5.0,
        "half of the 10 segments in flight before limited transmit"
    );
    assert_eq!(t.s.cwnd, 8.0, "ssthresh + 3");
    assert_eq!(t.s.stats.fast_retransmits, 1);
    // Further dupacks inflate cwnd by one each; new data flows once cwnd exceeds flight (12).
    let mut sent = Vec::new();
    for i in 0..6 {
        sent.extend(t.at(13 + i).ack(0, &[]));
    }
    assert_eq!(t.s.cwnd, 14.0);
    assert_eq!(sent, new(12..14));
    // Reno leaves recovery on the first new ACK, cwnd deflated to ssthresh.
    t.at(30).ack(5, &[]);
    assert!(!t.s.in_recovery);
    assert_eq!(t.s.cwnd, 5.0);
}

#[test]
fn newreno_partial_ack_retransmits_next_hole_and_stays_in_recovery() {
    // RFC 6582 Section 3.2 step 5.
    let (mut t, _) = h("newreno", false, 10);
    for i in 0..3 {
        t.at(10 + i).ack(0, &[]);
    }
    assert!(t.s.in_recovery);
    assert_eq!(t.s.recover, 12, "recover = highest segment sent + 1");
    let cwnd_before = t.s.cwnd;
    // Partial ACK: segments 0..4 ACKed, 4 is the next hole.
    let out = t.at(40).ack(4, &[]);
    assert_eq!(out.first(), Some(&(4, TxKind::Retransmit)));
    assert!(t.s.in_recovery, "partial ACK keeps NewReno in recovery");
    assert_eq!(
        t.s.cwnd,
        cwnd_before - 4.0 + 1.0,
        "deflate by the ACKed amount, add back one"
    );
    // Full ACK ends recovery with cwnd = min(ssthresh, FlightSize + 1).
    let all = t.s.sb.nxt();
    t.at(60).ack(all, &[]);
    assert!(!t.s.in_recovery);
    assert!(t.s.cwnd <= t.s.ssthresh);
}

#[test]
fn reno_leaves_recovery_on_partial_ack_and_needs_new_dupacks() {
    let (mut t, _) = h("reno", false, 10);
    for i in 0..3 {
        t.at(10 + i).ack(0, &[]);
    }
    let out = t.at(40).ack(4, &[]);
    assert!(!t.s.in_recovery);
    assert!(
        out.iter().all(|(_, k)| *k == TxKind::New),
        "no retransmission on a partial ACK: {out:?}"
    );
}

#[test]
fn rfc6675_pipe_and_nextseg() {
    // 10 segments out; segment 0 lost, 1..=3 SACKed one by one.
    let (mut t, _) = h("sack", true, 10);
    // Each ACK SACKs new data: a duplicate ACK; pipe drops by one, so one new
    // segment may go (RFC 6675 Section 5 step 3, limited transmit by pipe).
    assert_eq!(t.at(10).ack(0, &[(1, 2)]), new(10..11));
    assert_eq!(t.s.sb.pipe(), 10);
    assert_eq!(t.at(11).ack(0, &[(1, 3)]), new(11..12));
    // Third SACKed segment: IsLost(0) and DupAcks = 3; enter recovery.
    let out = t.at(12).ack(0, &[(1, 4)]);
    assert_eq!(out[0], (0, TxKind::FastRetransmit));
    assert_eq!(
        t.s.ssthresh, 5.0,
        "FlightSize 12 less the 2 limited-transmit segments, / 2 (step 4.2)"
    );
    assert_eq!(t.s.cwnd, 5.0, "cwnd = ssthresh on entry (step 4.2)");
    // pipe: 12 out - 3 SACKed - 1 lost + 1 retransmitted = 9 > cwnd: nothing more.
    assert_eq!(t.s.sb.pipe(), 9);
    assert_eq!(out.len(), 1);
    // SACKs for 4..9 bring pipe to 3: two more may go, new data (rule 2).
    let out = t.at(20).ack(0, &[(1, 10)]);
    assert_eq!(t.s.sb.pipe(), 5);
    assert_eq!(out, new(12..14));
    // Segment 10 is lost too: SACKs above it make IsLost(10) true, and rule 1
    // (a lost segment) goes before new data.
    let out = t.at(30).ack(0, &[(11, 14), (1, 10)]);
    assert_eq!(out.first(), Some(&(10, TxKind::Retransmit)), "{out:?}");
    // Full ACK ends recovery; cwnd stays at ssthresh.
    t.at(40).ack(14, &[]);
    assert!(!t.s.in_recovery);
    assert_eq!(t.s.cwnd, 5.0);
}

#[test]
fn rfc6675_islost_enters_recovery_before_three_dupacks_when_many_segments_are_sacked() {
    // One ACK SACKing three segments above SND.UNA: DupAcks = 1, IsLost(0) true.
    let (mut t, _) = h("sack", true, 10);
    let out = t.at(10).ack(0, &[(1, 4)]);
    assert_eq!(out.first(), Some(&(0, TxKind::FastRetransmit)));
    assert_eq!(t.s.dupacks, 1);
}

#[test]
fn fack_enters_recovery_when_fack_is_more_than_dupthresh_above_una() {
    // Segments 0..4 missing, 4 SACKed: fack - una = 5 > 3.
    let (mut t, _) = h("fack", true, 10);
    let out = t.at(10).ack(0, &[(4, 5)]);
    assert_eq!(out.first(), Some(&(0, TxKind::FastRetransmit)));
    // FACK counts 0 (the retransmission) and 1 (below fack - 3 = 2) as out of
    // the network: both are deemed lost; one retransmission in flight.
    assert!(t.s.sb.get(1).unwrap().lost());
    assert!(!t.s.sb.get(2).unwrap().lost());
}

#[test]
fn newreno_sack_retransmits_on_every_partial_ack_even_when_pipe_is_full() {
    // Segments 0 and 1 lost, 2..5 SACKed in one ACK: IsLost(0) and IsLost(1).
    let run = |algo| {
        let (mut t, _) = h(algo, true, 10);
        let first = t.at(10).ack(0, &[(2, 5)]);
        assert_eq!(first, vec![(0, TxKind::FastRetransmit)]);
        // cwnd = ssthresh = 5; pipe = 10 - 3 SACKed - 2 lost + 1 retransmitted = 6.
        assert_eq!((t.s.cwnd, t.s.sb.pipe()), (5.0, 6));
        // Partial ACK of the retransmitted segment 0: pipe 5 = cwnd.
        let out = t.at(20).ack(1, &[(2, 5)]);
        assert_eq!(t.s.sb.pipe(), 5 + out.len() as u32);
        out
    };
    assert_eq!(
        run("sack"),
        vec![],
        "RFC 6675 waits for pipe to fall below cwnd"
    );
    assert_eq!(
        run("newreno-sack"),
        vec![(1, TxKind::Retransmit)],
        "NewReno-SACK retransmits on the partial ACK"
    );
}

#[test]
fn rto_backs_off_exponentially_and_goes_back_to_slow_start() {
    // RFC 6298 Section 5.4-5.6; RFC 5681 eq. 4.
    let (mut t, _) = h("newreno", false, 4);
    // First RTT sample: 100 ms; RTO = max(1 s, ...) = 1 s.
    t.at(100).ack(1, &[]);
    assert_eq!(t.s.next_wakeup(), Some(Time::from_millis(1100)));
    let out = t.at(1100).timer();
    assert_eq!(out, vec![(1, TxKind::Timeout)]);
    assert_eq!(t.s.cwnd, 1.0);
    assert_eq!(
        t.s.ssthresh, 2.5,
        "FlightSize / 2 with 5 out (cwnd grew to 5)"
    );
    assert_eq!(
        t.s.next_wakeup(),
        Some(Time::from_millis(1100 + 2000)),
        "RTO doubled"
    );
    let out = t.at(3100).timer();
    assert_eq!(out, vec![(1, TxKind::Timeout)]);
    assert_eq!(
        t.s.next_wakeup(),
        Some(Time::from_millis(3100 + 4000)),
        "doubled again"
    );
    assert_eq!(t.s.ssthresh, 2.5, "ssthresh held across back-offs");
    assert_eq!(t.s.stats.timeouts, 2);
}

#[test]
fn karn_rule_skips_samples_from_retransmitted_segments() {
    let (mut t, _) = h("newreno", false, 2);
    t.at(100).ack(1, &[]);
    assert_eq!(t.s.rtt.srtt, Some(Time::from_millis(100)));
    // Segment 1..: time out and retransmit, then an ACK 3 s later.
    t.at(1100).timer();
    t.at(4100).ack(3, &[]);
    assert_eq!(
        t.s.rtt.srtt,
        Some(Time::from_millis(100)),
        "ACK of a retransmission gives no sample"
    );
    assert_eq!(
        t.s.rtt.backoff, 1,
        "back-off persists without a valid sample"
    );
    // Segment 3 was retransmitted at 4.1 s: its ACK gives no sample either.
    t.at(4150).ack(4, &[]);
    assert_eq!(t.s.rtt.backoff, 1);
    // Segment 4, sent once at 4.1 s, gives a sample and ends the back-off.
    assert_eq!(
        t.s.sb.get(4).map(|r| (r.tx_count, r.last_sent)),
        Some((1, Time::from_millis(4100)))
    );
    t.at(4160).ack(5, &[]);
    assert_eq!(t.s.rtt.latest, Some(Time::from_millis(60)));
    assert_eq!(t.s.rtt.backoff, 0);
}

#[test]
fn timeout_marks_outstanding_lost_and_goes_back_n() {
    let (mut t, _) = h("newreno", false, 4);
    t.at(100).ack(1, &[]);
    // cwnd 5 after one slow-start ACK: 1..6 outstanding (5 segments).
    assert_eq!(t.s.sb.packets_out(), 5);
    t.at(1100).timer();
    assert_eq!(t.s.sb.lost_out(), 5);
    // ACK of the retransmitted segment 1: cwnd 2, segments 2 and 3 are resent.
    let out = t.at(1200).ack(2, &[]);
    assert_eq!(out, vec![(2, TxKind::Retransmit), (3, TxKind::Retransmit)]);
}

#[test]
fn no_fast_retransmit_for_dupacks_below_recover_after_timeout() {
    // RFC 6582 Section 4: after a timeout, duplicate ACKs for data sent before
    // it must not start a fast retransmit.
    let (mut t, _) = h("newreno", false, 6);
    t.at(1000).timer();
    for i in 0..4 {
        t.at(1010 + i).ack(0, &[]);
    }
    assert!(!t.s.in_recovery);
    assert_eq!(t.s.stats.fast_retransmits, 0);
}

#[test]
fn rtt_from_timestamps_uses_tsecr() {
    let cfg = SenderConfig {
        mss: MSS as u32,
        timestamps: true,
        sack: false,
        dsack: false,
        ..SenderConfig::default()
    };
    let mut s = crate::variant::find("newreno").unwrap().sender(
        cfg,
        CongestionControl::Reno(Reno),
        &Default::default(),
    );
    let mut out = Vec::new();
    s.start(Time::ZERO, &mut out);
    assert_eq!(out[0].ts_val, Some(Time::ZERO));
    let a = AckSegment {
        ack: MSS,
        ts_ecr: Some(Time::ZERO),
        ts_val: Some(Time(1)),
        rwnd: u64::MAX,
        ..Default::default()
    };
    s.on_ack(Time::from_millis(70), &a, &mut out);
    assert_eq!(s.rtt.latest, Some(Time::from_millis(70)));
}

#[test]
fn finite_transfer_completes_with_a_short_last_segment() {
    let cfg = SenderConfig {
        mss: 1000,
        total_bytes: Some(2500),
        initial_window: 4,
        ..SenderConfig::default()
    };
    let mut s = crate::variant::find("sack").unwrap().sender(
        cfg,
        CongestionControl::Reno(Reno),
        &Default::default(),
    );
    let mut out = Vec::new();
    s.start(Time::ZERO, &mut out);
    assert_eq!(
        out.iter().map(|d| (d.seq, d.len)).collect::<Vec<_>>(),
        vec![(0, 1000), (1000, 1000), (2000, 500)]
    );
    let a = AckSegment {
        ack: 2500,
        rwnd: u64::MAX,
        ..Default::default()
    };
    s.on_ack(Time::from_millis(10), &a, &mut out);
    assert!(s.is_complete());
    assert_eq!(
        s.next_wakeup(),
        None,
        "timer stops with nothing outstanding"
    );
}

#[test]
fn receiver_window_limits_new_data() {
    let (mut t, out) = h("sack", true, 10);
    assert_eq!(out.len(), 10);
    let mut a = AckSegment {
        ack: 2 * MSS,
        rwnd: 4 * MSS,
        ..Default::default()
    };
    let mut o = Vec::new();
    t.s.on_ack(Time::from_millis(10), &a, &mut o);
    assert!(o.is_empty(), "8 outstanding > rwnd of 4 segments");
    a.ack = 10 * MSS;
    t.s.on_ack(Time::from_millis(20), &a, &mut o);
    assert_eq!(o.len(), 4);
}

#[test]
fn new_recovery_does_not_resend_a_retransmission_already_in_flight() {
    // Segment 10 is sent during recovery (above RecoveryPoint), deemed lost
    // and retransmitted; a later loss signal at SND.UNA = 10 starts a new
    // recovery (new congestion event) but must not resend segment 10 again.
    let (mut t, _) = h("sack", true, 10);
    t.at(10).ack(0, &[(1, 4)]);
    assert_eq!(t.s.recover, 10);
    t.at(20).ack(0, &[(1, 10)]);
    // New data 10.. went out; 10 is lost, 11..=13 SACKed: IsLost(10).
    let out = t.at(30).ack(0, &[(11, 14), (1, 10)]);
    assert!(out.contains(&(10, TxKind::Retransmit)), "{out:?}");
    // Full ACK of the recovery (to 10) exits; the next SACK is a dupack with SND.UNA lost.
    t.at(40).ack(10, &[(11, 14)]);
    assert!(!t.s.in_recovery);
    let out = t.at(41).ack(10, &[(11, 15)]);
    assert!(
        t.s.in_recovery,
        "loss of data sent after RecoveryPoint is a new congestion event"
    );
    assert!(
        !out.iter().any(|(s, _)| *s == 10),
        "segment 10's retransmission is still in flight: {out:?}"
    );
    assert_eq!(t.s.sb.get(10).unwrap().tx_count, 2);
}

#[test]
fn a_timeout_during_fast_recovery_does_not_raise_ssthresh() {
    // RFC 5681 eq. 4 with FlightSize inflated by SACKed data would raise it.
    let (mut t, _) = h("sack", true, 10);
    t.at(10).ack(0, &[(1, 4)]);
    assert!(t.s.in_recovery);
    let after_fr = t.s.ssthresh;
    // Lots of new data SACKed while the retransmission of 0 is lost.
    for k in 0..30 {
        let nxt = t.s.sb.nxt();
        t.at(20 + k).ack(0, &[(1, nxt)]);
    }
    assert!(
        t.s.sb.packets_out() as f64 / 2.0 > after_fr,
        "FlightSize grew"
    );
    let d = t.s.next_wakeup().unwrap();
    t.now = d;
    t.timer();
    assert_eq!(t.s.stats.timeouts, 1);
    assert!(
        t.s.ssthresh <= after_fr,
        "ssthresh {} must not exceed recovery's {}",
        t.s.ssthresh,
        after_fr
    );
}
