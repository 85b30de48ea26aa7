//! TCP-PR (Bohacek, Hespanha, Lee, Lim, Obraczka): loss is detected only
//! by per-packet timers, never by duplicate ACKs.
//!
//! A packet n is declared dropped when `time > time(n) + mxrtt` (Table I
//! line 5), with `mxrtt = beta * srtt` (eq. 1) and
//! `srtt = max(alpha^(1/floor(cwnd)) * srtt, sample)` on every ACK (eq. 2).
//! A drop halves the window to cwnd(n)/2, the window when n was sent; the
//! `memorize` list keeps the other drops of the same burst from halving it
//! again. The extreme-loss version (Table III) falls back to cwnd = 1, waits
//! mxrtt (at least 1 s) and backs off exponentially, as a SACK sender's
//! timeout would; `tcp-pr-basic` (Table I) never does.
//!
//! Where the paper's text is lost (Table III lines 8-25 and 39-44) the rules
//! are rebuilt from Sections III-A and III-B; each choice is named where it
//! is made. Reading of ACKs: an ACK "for packet n" is any acknowledgment of
//! n, cumulative or SACK; TCP-PR uses SACK blocks (when the receiver sends
//! them) only to learn which packets arrived, never to infer a loss.

use crate::segment::{AckSegment, TxKind};
use crate::sender::state::SenderState;
use reorderlab_sim::Time;
use std::collections::VecDeque;

/// TCP-PR's sending mode (Table III).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrMode {
    SlowStart,
    CongestionAvoidance,
    /// After an extreme loss: nothing is sent until `waituntil` (Table III line 45).
    Waiting,
}

/// TCP-PR's parameters and state.
#[derive(Clone, Debug)]
pub struct TcpPr {
    /// alpha: srtt's decay per RTT (eq. 2); 0.999 in the paper (Section IV).
    pub alpha: f64,
    /// beta: mxrtt = beta * srtt (eq. 1); 3.0 in the paper (Section IV).
    pub beta: f64,
    /// Extreme-loss handling of Section III-B (Table III); off for Table I.
    pub extreme: bool,
    pub mode: PrMode,
    /// srtt of eq. (2): tracks the peaks of the RTT.
    pub srtt: Option<Time>,
    /// mxrtt: the estimate of the largest possible RTT (eq. 1).
    pub mxrtt: Time,
    /// cburst: drops removed from memorize in the current burst (Section III-B).
    pub cburst: u32,
    /// cwnd(n) of the drop that started the burst: the window the burst's
    /// packets were sent in, which cburst is held against.
    pub burst_cwnd: f64,
    /// A duplicate cumulative ACK arrived since SND.UNA last advanced (no
    /// SACK): packets a later cumulative ACK covers waited behind a hole.
    hole_seen: bool,
    /// waituntil: end of the wait after an extreme loss (Table III line 5).
    pub waituntil: Option<Time>,
    /// (time(n), n) in sending order; its first live entry is the packet of
    /// to-be-ack with the smallest time(n), whose timer expires first.
    sent: VecDeque<(Time, u64)>,
    /// Scratch list of (n, time(n)) acknowledged by one ACK; no time(n) when
    /// the ACK gives no valid RTT sample for n.
    acked: Vec<(u64, Option<Time>)>,
    /// Drops detected (timer expiries).
    pub drops_detected: u64,
}

/// mxrtt before the first RTT sample: RFC 6298's initial RTO (the paper
/// does not say).
pub const INITIAL_MXRTT: Time = Time::from_secs(1);
/// Smallest mxrtt after an extreme loss: "we increase mxrtt to one second" (Section III-B).
pub const EXTREME_MXRTT: Time = Time::from_secs(1);

impl TcpPr {
    pub fn new(alpha: f64, beta: f64, extreme: bool) -> Self {
        TcpPr {
            alpha,
            beta,
            extreme,
            mode: PrMode::SlowStart,
            srtt: None,
            mxrtt: INITIAL_MXRTT,
            cburst: 0,
            burst_cwnd: 0.0,
            hole_seen: false,
            waituntil: None,
            sent: VecDeque::new(),
            acked: Vec::new(),
            drops_detected: 0,
        }
    }

    /// Records time(n) for a transmission of n (Table I line 28).
    pub fn on_send(&mut self, now: Time, seg: u64) {
        self.sent.push_back((now, seg));
    }

    /// ACK processing (Table III lines 26-38), once per packet acknowledged.
    pub fn on_ack(&mut self, st: &mut SenderState, now: Time, ack: &AckSegment) {
        let mut acked = std::mem::take(&mut self.acked);
        acked.clear();
        if st.cfg.sack {
            let new_una = st.seg_below(ack.ack).min(st.sb.nxt());
            for b in ack.sack_blocks() {
                let lo = st.seg_above(b.start).max(new_una);
                let hi = st.seg_below(b.end);
                st.sb
                    .mark_sacked_range(lo, hi, |s, r| acked.push((s, Some(r.last_sent))));
            }
        }
        let una = st.sb.una();
        let new_una = st.seg_below(ack.ack).min(st.sb.nxt());
        // Without SACK the sender cannot tell when a packet above a hole
        // arrived: after duplicate ACKs, only the packet that filled the
        // hole (the first one the cumulative ACK covers) gives an RTT
        // sample; the others are acknowledged without one, so srtt never
        // counts the time they waited behind the hole.
        let only_first_sample = !st.cfg.sack && self.hole_seen;
        if new_una == una && st.sb.packets_out() > 0 && !st.cfg.sack {
            self.hole_seen = true;
        }
        if new_una > una {
            self.hole_seen = false;
            let mut newest = Time::ZERO;
            let mut retx = false;
            st.sb.advance(new_una, |s, r| {
                if !r.sacked() {
                    let sampled = !only_first_sample || s == una;
                    acked.push((s, sampled.then_some(r.last_sent)));
                }
                newest = newest.max(r.last_sent);
                retx |= r.tx_count > 1;
            });
            st.retx_cursor = st.retx_cursor.max(new_una);
            // The RFC 6298 estimator is kept for reporting only.
            let sample = if st.cfg.timestamps {
                ack.ts_ecr.map(|e| now - e)
            } else {
                (!retx).then(|| now - newest)
            };
            if let Some(r) = sample {
                st.rtt.sample(r);
            }
        }
        acked.sort_unstable_by_key(|a| a.0);
        for &(_, sent) in &acked {
            self.ack_event(st, now, sent);
        }
        self.acked = acked;
        self.clean_head(st);
    }

    /// "ack received for packet n" (Table III lines 28-37); `time_n` is None
    /// when the ACK gives no valid RTT sample for n (see `on_ack`).
    fn ack_event(&mut self, st: &mut SenderState, now: Time, time_n: Option<Time>) {
        let floor_cwnd = st.cwnd.floor().max(1.0);
        let memo_empty = st.sb.memo_len() == 0;
        if self.mode == PrMode::Waiting {
            return;
        }
        // Line 29: srtt = max(alpha^(1/floor(cwnd)) * srtt, time - time(n))
        // (eq. 2); the decay applies per packet ACKed (cwnd times per RTT),
        // the sample only when it is valid.
        let decayed = self
            .srtt
            .map(|s| s.mul_f64(self.alpha.powf(1.0 / floor_cwnd)));
        let srtt = match (decayed, time_n.map(|t| now - t)) {
            (Some(d), Some(x)) => Some(d.max(x)),
            (d, x) => d.or(x),
        };
        if let Some(srtt) = srtt {
            self.srtt = Some(srtt);
            // Line 30: mxrtt := beta * srtt (eq. 1).
            self.mxrtt = srtt.mul_f64(self.beta);
        }
        if memo_empty {
            self.cburst = 0;
        }
        // Lines 33-37; the extreme-loss version grows cwnd only while
        // memorize is empty (Section III-B, last paragraph).
        if memo_empty || !self.extreme {
            if self.mode == PrMode::SlowStart && st.cwnd + 1.0 <= st.ssthresh {
                st.cwnd += 1.0;
            } else {
                self.mode = PrMode::CongestionAvoidance;
                st.cwnd += 1.0 / st.cwnd;
            }
        }
    }

    /// Drops stale entries from the front of the send-time list.
    fn clean_head(&mut self, st: &SenderState) {
        while let Some(&(t, seg)) = self.sent.front() {
            let live = st
                .sb
                .get(seg)
                .is_some_and(|r| !r.sacked() && (!r.lost() || r.retrans()) && r.last_sent == t);
            if live {
                return;
            }
            self.sent.pop_front();
        }
    }

    /// When TCP-PR next needs to look at its timers: the first instant
    /// after time(n) + mxrtt of the oldest packet of to-be-ack.
    pub fn next_wakeup(&self) -> Option<Time> {
        let head = self.sent.front().map(|&(t, _)| t + self.mxrtt + Time(1));
        match (head, self.waituntil) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Timer processing: the end of a wait (Table III lines 45-50), then every
    /// packet of to-be-ack with time > time(n) + mxrtt is dropped (line 8 on).
    pub fn on_timer(&mut self, st: &mut SenderState, now: Time) {
        if self.waituntil.is_some_and(|w| w <= now) {
            self.end_wait(st);
        }
        loop {
            self.clean_head(st);
            let Some(&(t, seg)) = self.sent.front() else {
                break;
            };
            // Table I line 5: dropped when time > time(n) + mxrtt.
            if now <= t + self.mxrtt {
                break;
            }
            self.sent.pop_front();
            self.drop_detected(st, now, seg);
        }
    }

    /// Packet n's timer expired (Table I lines 5-13; Table III lines 8-25
    /// rebuilt from Section III-B).
    fn drop_detected(&mut self, st: &mut SenderState, now: Time, n: u64) {
        let Some(r) = st.sb.get(n).copied() else {
            return;
        };
        self.drops_detected += 1;
        // remove(to-be-ack, n); add(to-be-sent, n).
        st.mark_all_lost(n);
        let was_retransmitted = r.tx_count > 1;
        let extreme = self.extreme;
        if st.sb.unmemo(n) {
            // Other drops in a burst do not halve cwnd again (line 12).
            self.cburst += 1;
            // "we check if cburst ... exceeds cwnd/2+1" (Section III-B),
            // after "timeouts in TCP SACK when more than cwnd/2+1 packets are
            // dropped within a window": the window the burst was dropped
            // from, cwnd(n) of its first drop, not the window halved since.
            let burst_too_long = self.cburst as f64 > self.burst_cwnd / 2.0 + 1.0;
            if extreme && self.mode != PrMode::Waiting && (burst_too_long || was_retransmitted) {
                self.extreme_loss(st, now, r.cwnd_at_send as f64);
            }
            return;
        }
        if self.mode == PrMode::Waiting {
            // Drops found while waiting belong to the loss that started the
            // wait; they are resent when it ends.
            return;
        }
        if extreme && st.cwnd <= 1.0 && st.ssthresh.is_finite() {
            // "If further (new) drops occur while cwnd = 1, instead of
            // dividing cwnd by two we double mxrtt" (Section III-B).
            st.stats.timeouts += 1;
            self.mxrtt = self.mxrtt * 2;
            self.mode = PrMode::Waiting;
            self.waituntil = Some(now + self.mxrtt);
            st.sb.memorize_to_be_ack();
            st.tag_pending = Some(TxKind::Timeout);
            return;
        }
        self.burst_cwnd = r.cwnd_at_send as f64;
        if extreme && (st.cwnd < 4.0 || was_retransmitted) {
            st.sb.memorize_to_be_ack();
            self.cburst = 0;
            self.extreme_loss(st, now, r.cwnd_at_send as f64);
            return;
        }
        // A new drop: memorize := to-be-ack; cwnd := cwnd(n)/2; ssthr := cwnd (lines 8-10).
        st.sb.memorize_to_be_ack();
        self.cburst = 0;
        st.cwnd = (r.cwnd_at_send as f64 / 2.0).max(1.0);
        st.ssthresh = st.cwnd;
        st.stats.fast_retransmits += 1;
        st.tag_pending = Some(TxKind::FastRetransmit);
    }

    /// Extreme loss (Section III-B): "sets SSTHRESH to cwnd/2, resets cwnd to
    /// one", mxrtt to at least one second, and waits mxrtt before sending.
    /// ssthr uses cwnd(n) as the halving rule does.
    fn extreme_loss(&mut self, st: &mut SenderState, now: Time, cwnd_n: f64) {
        st.stats.timeouts += 1;
        st.ssthresh = (cwnd_n / 2.0).max(2.0);
        st.cwnd = 1.0;
        st.tag_pending = Some(TxKind::Timeout);
        self.mxrtt = self.mxrtt.max(EXTREME_MXRTT);
        self.mode = PrMode::Waiting;
        self.waituntil = Some(now + self.mxrtt);
    }

    /// time > waituntil (Table III lines 45-50): memorize goes back to
    /// to-be-sent, to-be-ack is emptied, slow start resumes. Packets of
    /// to-be-ack outside memorize are resent too (the table would otherwise
    /// forget them).
    fn end_wait(&mut self, st: &mut SenderState) {
        st.sb.clear_memo();
        let (una, nxt) = (st.sb.una(), st.sb.nxt());
        for s in una..nxt {
            st.sb.mark_all_lost(s);
        }
        st.retx_cursor = una;
        self.sent.clear();
        self.mode = PrMode::SlowStart;
        self.waituntil = None;
    }

    /// flush-cwnd's condition: "while cwnd > |to-be-ack|" (Table I line 24).
    pub fn window_allows(&self, st: &SenderState) -> bool {
        self.mode != PrMode::Waiting && (st.sb.pipe() as f64) < st.cwnd
    }
}

#[cfg(test)]
mod tests {
    //! One test per rule of TCP-PR's Tables I and III, with a fake clock.
    use super::*;
    use crate::cc::{CongestionControl, Reno};
    use crate::segment::DataSegment;
    use crate::segment::{AckSegment, SackBlock};
    use crate::sender::{Sender, SenderConfig};

    const MSS: u64 = 1000;

    struct H {
        s: Sender,
    }

    fn pr(extreme: bool) -> H {
        let cfg = SenderConfig {
            mss: MSS as u32,
            sack: true,
            dsack: true,
            ..SenderConfig::default()
        };
        let v = crate::variant::find(if extreme { "tcp-pr" } else { "tcp-pr-basic" }).unwrap();
        let s = v.sender(cfg, CongestionControl::Reno(Reno), &Default::default());
        H { s }
    }

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    impl H {
        fn start(&mut self) -> Vec<(u64, TxKind)> {
            let mut out = Vec::new();
            self.s.start(Time::ZERO, &mut out);
            segs(&out)
        }
        fn ack(&mut self, at: u64, cum: u64, sacks: &[(u64, u64)]) -> Vec<(u64, TxKind)> {
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
            self.s.on_ack(ms(at), &a, &mut out);
            self.s.sb.check();
            segs(&out)
        }
        fn timer(&mut self, at: u64) -> Vec<(u64, TxKind)> {
            let mut out = Vec::new();
            self.s.on_timer(ms(at), &mut out);
            self.s.sb.check();
            segs(&out)
        }
        /// Fires the timer at the sender's next wake-up; returns (time ms, output).
        fn fire(&mut self) -> (u64, Vec<(u64, TxKind)>) {
            let at = self.s.next_wakeup().unwrap().as_nanos().div_ceil(1_000_000);
            (at, self.timer(at))
        }
        fn st(&self) -> &TcpPr {
            match &self.s.loss {
                crate::sender::loss::LossDetection::TcpPr(p) => p,
                _ => unreachable!(),
            }
        }
        /// Grows the window by ACKing each outstanding segment 100 ms after it was sent.
        fn grow_to(&mut self, target: usize) -> u64 {
            let mut t = 0;
            while self.s.sb.packets_out() < target as u32 {
                t += 100;
                let nxt = self.s.sb.nxt();
                self.ack(t, nxt, &[]);
            }
            t
        }
    }

    fn segs(out: &[DataSegment]) -> Vec<(u64, TxKind)> {
        out.iter().map(|d| (d.seq / MSS, d.kind)).collect()
    }

    #[test]
    fn initialization_table_iii_lines_1_to_7() {
        let mut h = pr(true);
        assert_eq!(h.start(), vec![(0, TxKind::New)], "cwnd := 1");
        assert_eq!(h.s.cwnd, 1.0);
        assert!(h.s.ssthresh.is_infinite(), "ssthr := +inf");
        assert_eq!(h.st().mode, PrMode::SlowStart);
        assert_eq!(h.st().waituntil, None);
        assert_eq!(h.s.sb.memo_len(), 0);
        assert_eq!(h.st().cburst, 0);
        assert_eq!(
            h.s.next_wakeup(),
            Some(INITIAL_MXRTT + Time(1)),
            "just after time(0) + initial mxrtt"
        );
    }

    #[test]
    fn ack_updates_srtt_as_a_decaying_maximum_and_mxrtt_as_beta_srtt() {
        let mut h = pr(true);
        h.start();
        h.ack(100, 1, &[]);
        assert_eq!(h.st().srtt, Some(ms(100)));
        assert_eq!(h.st().mxrtt, ms(300), "mxrtt = 3 * srtt");
        // cwnd is 2 now (segments 1, 2 sent at 100 ms). A 50 ms sample: srtt
        // decays by alpha^(1/floor(cwnd)) = 0.999^(1/2) and stays above 50 ms.
        h.ack(150, 2, &[]);
        let want = ms(100).mul_f64(0.999f64.powf(0.5));
        assert_eq!(h.st().srtt, Some(want));
        // A larger sample takes over at once (srtt tracks the peaks).
        h.ack(400, 3, &[]);
        assert_eq!(h.st().srtt, Some(ms(300)));
        assert_eq!(h.st().mxrtt, ms(900));
    }

    #[test]
    fn slow_start_adds_one_per_acked_packet_then_one_over_cwnd() {
        let mut h = pr(true);
        h.start();
        h.ack(100, 1, &[]);
        assert_eq!(h.s.cwnd, 2.0);
        // A cumulative ACK of two packets is two "ack received" events.
        h.ack(200, 3, &[]);
        assert_eq!(h.s.cwnd, 4.0);
        h.s.ssthresh = 4.0;
        h.ack(300, 4, &[]);
        assert_eq!(h.st().mode, PrMode::CongestionAvoidance, "cwnd + 1 > ssthr");
        assert_eq!(h.s.cwnd, 4.25);
    }

    #[test]
    fn duplicate_acks_and_sack_holes_never_trigger_a_retransmission() {
        let mut h = pr(true);
        h.start();
        h.grow_to(8);
        let una = h.s.sb.una();
        let nxt = h.s.sb.nxt();
        // Everything above SND.UNA SACKed, many times over: no loss declared.
        for i in 0..10 {
            let out = h.ack(1000 + i, una, &[(una + 1, nxt)]);
            assert!(out.iter().all(|(_, k)| *k == TxKind::New), "{out:?}");
        }
        assert_eq!(h.st().drops_detected, 0);
    }

    #[test]
    fn drop_detected_after_mxrtt_halves_to_the_window_at_send_time() {
        let mut h = pr(true);
        h.start();
        let t = h.grow_to(8);
        let una = h.s.sb.una();
        let r = *h.s.sb.get(una).unwrap();
        // The other packets are ACKed (SACKed), so cwnd grows past cwnd(n).
        let nxt = h.s.sb.nxt();
        h.ack(t + 100, una, &[(una + 1, nxt)]);
        assert!(h.s.cwnd > r.cwnd_at_send as f64);
        // The first timer to expire is n's: just after time(n) + mxrtt (Table I line 5).
        assert_eq!(
            h.s.next_wakeup(),
            Some(r.last_sent + h.st().mxrtt + Time(1))
        );
        let (_, out) = h.fire();
        assert_eq!(h.st().drops_detected, 1);
        assert_eq!(
            h.s.cwnd,
            (r.cwnd_at_send as f64 / 2.0).max(1.0),
            "cwnd := cwnd(n)/2, not half the current window"
        );
        assert_eq!(h.s.ssthresh, h.s.cwnd, "ssthr := cwnd");
        assert!(
            out.is_empty(),
            "to-be-ack is larger than the halved window: {out:?}"
        );
        assert_eq!(h.s.stats.fast_retransmits, 1);
        // n went back to to-be-sent: once ACKs shrink to-be-ack below cwnd,
        // it goes first (smallest sequence number).
        let nxt = h.s.sb.nxt();
        let out = h.ack(t + 400, una, &[(una + 1, nxt)]);
        assert_eq!(out.first(), Some(&(una, TxKind::FastRetransmit)), "{out:?}");
    }

    #[test]
    fn memorize_stops_a_burst_from_halving_twice_and_cburst_counts_it() {
        let mut h = pr(false);
        h.start();
        let t = h.grow_to(16);
        let una = h.s.sb.una();
        let (c0, c1) = (
            h.s.sb.get(una).unwrap().cwnd_at_send,
            h.s.sb.get(una + 1).unwrap().cwnd_at_send,
        );
        // Two packets lost in the same window: una and una + 1.
        let nxt = h.s.sb.nxt();
        h.ack(t + 50, una, &[(una + 2, nxt)]);
        // Both were sent at the same instant: one timer expiry finds both, una first.
        h.fire();
        assert_eq!(h.st().drops_detected, 2);
        assert_eq!(
            h.s.cwnd,
            c0 as f64 / 2.0,
            "a drop in memorize does not halve again (lines 11-12), cwnd(n+1) = {c1}"
        );
        assert!(!h.s.sb.get(una + 1).unwrap().memo(), "remove(memorize, n)");
        assert_eq!(h.s.stats.fast_retransmits, 1);
        assert_eq!(h.st().cburst, 1);
    }

    #[test]
    fn flush_cwnd_sends_while_cwnd_exceeds_to_be_ack() {
        let mut h = pr(false);
        h.start();
        h.grow_to(4);
        h.s.ssthresh = 1.0;
        // cwnd is fractional in congestion avoidance: 5 outstanding, cwnd 5.x sends one more only when cwnd > 5.
        let nxt = h.s.sb.nxt();
        let out = h.ack(10_000, nxt, &[]);
        let outstanding = h.s.sb.pipe() as f64;
        assert!(
            outstanding >= h.s.cwnd && outstanding < h.s.cwnd + 1.0,
            "pipe {outstanding} vs cwnd {} after sending {out:?}",
            h.s.cwnd
        );
    }

    #[test]
    fn extreme_loss_when_a_drop_is_detected_with_cwnd_below_4() {
        let mut h = pr(true);
        h.start();
        h.ack(100, 1, &[]); // cwnd 2, segments 1 and 2 out
        let out = h.timer(100 + 301);
        assert_eq!(h.s.cwnd, 1.0, "cwnd := 1");
        assert_eq!(h.st().mode, PrMode::Waiting);
        assert!(
            h.st().mxrtt >= Time::from_secs(1),
            "mxrtt increased to one second"
        );
        assert!(out.is_empty(), "nothing is sent while waiting: {out:?}");
        assert_eq!(h.s.stats.timeouts, 1);
        let w = h.st().waituntil.unwrap();
        assert_eq!(w, ms(401) + h.st().mxrtt);
        // Lines 45-50: at waituntil, memorize goes back to to-be-sent and slow start resumes.
        let out = h.timer(w.as_millis_f64() as u64);
        assert_eq!(h.st().mode, PrMode::SlowStart);
        assert_eq!(h.st().waituntil, None);
        assert_eq!(h.s.sb.memo_len(), 0);
        assert_eq!(
            out,
            vec![(1, TxKind::Timeout)],
            "cwnd 1: the first lost packet, tagged as the timeout"
        );
    }

    #[test]
    fn extreme_loss_when_a_retransmitted_packet_is_dropped() {
        let mut h = pr(true);
        h.start();
        let t = h.grow_to(16);
        let una = h.s.sb.una();
        let nxt = h.s.sb.nxt();
        h.ack(t + 10, una, &[(una + 1, nxt)]);
        let (at, _) = h.fire(); // first drop: halve
        assert!(h.s.cwnd >= 4.0);
        // ACK everything else so the retransmission of una goes out.
        let nxt = h.s.sb.nxt();
        let out = h.ack(at + 1, una, &[(una + 1, nxt)]);
        assert_eq!(out.first(), Some(&(una, TxKind::FastRetransmit)));
        assert_eq!(h.st().mode, PrMode::CongestionAvoidance);
        // The retransmission is lost too; keep ACKing the rest so only it expires.
        loop {
            let (at, _) = h.fire();
            if h.s.cwnd == 1.0 {
                break;
            }
            assert!(
                h.s.sb.get(una).unwrap().tx_count == 2 && at < t + 100_000,
                "only una's retransmission may expire"
            );
            let nxt = h.s.sb.nxt();
            h.ack(at, una, &[(una + 1, nxt)]);
        }
        assert_eq!(h.st().mode, PrMode::Waiting);
        assert_eq!(h.s.stats.timeouts, 1);
    }

    /// Loses `lost` packets from SND.UNA up in one burst (the rest of the
    /// window SACKed) and fires timers until the burst is handled; returns
    /// W = cwnd(n) of the first drop and the largest cburst seen.
    fn burst(lost: impl Fn(f64) -> u64) -> (H, f64, u32) {
        let mut h = pr(true);
        h.start();
        let t = h.grow_to(40);
        let una = h.s.sb.una();
        let nxt = h.s.sb.nxt();
        let w = h.s.sb.get(una).unwrap().cwnd_at_send as f64;
        let lost = lost(w);
        h.ack(t + 10, una, &[(una + lost, nxt)]);
        // What that ACK let go arrives too: only the burst is missing.
        let nxt = h.s.sb.nxt();
        h.ack(t + 11, una, &[(una + lost, nxt)]);
        let mut max_cburst = 0;
        // Fire timers until every packet of the burst has been declared
        // dropped (later packets, sent as the window opened, are not part
        // of it), or the burst turned extreme.
        while h.st().drops_detected < lost && h.st().mode != PrMode::Waiting {
            h.fire();
            max_cburst = max_cburst.max(h.st().cburst);
        }
        (h, w, max_cburst)
    }

    #[test]
    fn extreme_loss_when_cburst_exceeds_half_the_bursts_window_plus_one() {
        // Section III-B: extreme when cburst > cwnd/2 + 1, cwnd being the
        // window the burst was dropped from (cwnd(n) of its first drop, W).
        // floor(W/2 + 1) + 2 drops: cburst reaches floor(W/2 + 1) + 1.
        let (h, w, cburst) = burst(|w| (w / 2.0 + 1.0).floor() as u64 + 2);
        assert!(w >= 16.0, "a large window: W = {w}");
        assert_eq!(h.st().mode, PrMode::Waiting, "W = {w}");
        assert_eq!(h.s.cwnd, 1.0);
        assert_eq!(cburst as f64, (w / 2.0 + 1.0).floor() + 1.0);
    }

    #[test]
    fn a_burst_of_half_the_window_is_not_extreme_although_it_exceeds_half_the_halved_one() {
        // floor(W/2 + 1) + 1 drops: cburst reaches floor(W/2 + 1), not above
        // W/2 + 1, but far above (W/2)/2 + 1, the threshold read from the
        // window already halved by the burst's first drop.
        let (h, w, cburst) = burst(|w| (w / 2.0 + 1.0).floor() as u64 + 1);
        assert!(cburst as f64 > (w / 2.0) / 2.0 + 1.0);
        assert_ne!(h.st().mode, PrMode::Waiting, "W = {w}, cburst {cburst}");
        assert_eq!(h.s.cwnd, (w / 2.0).max(1.0), "halved once, to cwnd(n)/2");
        assert_eq!(h.s.stats.timeouts, 0);
    }

    #[test]
    fn new_drops_at_cwnd_one_double_mxrtt() {
        let mut h = pr(true);
        h.start();
        h.ack(100, 1, &[]);
        h.timer(401); // extreme: waiting
        let w = h.st().waituntil.unwrap();
        let m1 = h.st().mxrtt;
        h.timer(w.as_millis_f64() as u64); // resend segment 1, cwnd 1
        assert_eq!(h.s.cwnd, 1.0);
        // Its retransmission is lost again: a new drop at cwnd = 1.
        let t2 = w + m1 + ms(1);
        h.timer(t2.as_millis_f64() as u64);
        assert_eq!(h.st().mxrtt, m1 * 2, "exponential back-off of mxrtt");
        assert_eq!(h.st().mode, PrMode::Waiting);
        assert_eq!(h.s.cwnd, 1.0);
    }

    #[test]
    fn extreme_version_does_not_grow_cwnd_while_memorize_is_not_empty() {
        for extreme in [true, false] {
            let mut h = pr(extreme);
            h.start();
            let t = h.grow_to(16);
            let una = h.s.sb.una();
            let nxt = h.s.sb.nxt();
            h.ack(t + 10, una, &[(una + 1, nxt - 4)]);
            let (at, _) = h.fire(); // drop of una: memorize holds the last 4 and the new ones
            assert!(h.s.sb.memo_len() > 0);
            let cwnd = h.s.cwnd;
            h.ack(at, una, &[(una + 1, nxt - 3)]);
            if extreme {
                assert_eq!(
                    h.s.cwnd, cwnd,
                    "Table III: no increment while memorize is non-empty"
                );
            } else {
                assert!(h.s.cwnd > cwnd, "Table I grows on every ACK");
            }
        }
    }

    #[test]
    fn basic_version_never_returns_to_slow_start() {
        let mut h = pr(false);
        h.start();
        h.ack(100, 1, &[]);
        h.timer(401);
        assert_eq!(h.s.cwnd, 1.0, "cwnd(n)/2 floored at one");
        assert_ne!(h.st().mode, PrMode::Waiting);
        assert_eq!(h.st().waituntil, None);
        assert_eq!(h.s.stats.timeouts, 0);
    }
}
