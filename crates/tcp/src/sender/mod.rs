//! The TCP sender: sans-IO, segment-numbered, composed of orthogonal parts.
//!
//! The sender is handed `now` and an input (an ACK, a timer firing) and
//! appends the data segments to transmit to an output vector; it tells the
//! caller when it next wants to be woken through [`Sender::next_wakeup`]. It
//! never reads a clock and never schedules anything itself.
//!
//! A sender is its shared state ([`SenderState`]: scoreboard, RTT, cwnd,
//! ssthresh, timers) plus four parts, each a folder with one mechanism per
//! file, dispatched by `match` (no trait objects on the per-ACK path):
//! - loss detection (`loss/`): when recovery starts;
//! - recovery (`recovery/`): what is sent while recovering;
//! - spurious-retransmission detection and response (`spurious/`);
//! - congestion control (`crate::cc`): window growth and the cut.
//!
//! This file holds what every sender does the same way: reading an ACK into
//! the scoreboard, counting duplicate ACKs, the RFC 6298 timer and the
//! timeout's go-back-N, and the transmit loop.
//!
//! Units: sequence numbers on the wire are bytes; internally every segment
//! but the last of a finite transfer carries exactly one MSS, so the sender
//! numbers segments and keeps cwnd, ssthresh and pipe in segments, the unit
//! the papers use.

pub mod loss;
pub mod recovery;
mod rtt;
mod scoreboard;
pub mod spurious;
mod state;

pub use loss::{DupThresh, DupthreshPolicy, LossDetection, Ncr, PrMode, TcpPr};
pub use recovery::Recovery;
pub use rtt::RttEstimator;
pub use scoreboard::{Scoreboard, SegRecord};
pub use spurious::{Response, Spurious};
pub use state::{NewRenoTimer, SenderConfig, SenderState, SenderStats};

use crate::cc::{AckSample, CongestionControl};
use crate::segment::{AckSegment, DataSegment, TxKind};
use reorderlab_sim::Time;

/// The sender: shared state plus its parts.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The state every part reads and changes (a `Sender` derefs to it).
    pub st: SenderState,
    pub loss: LossDetection,
    pub recovery: Recovery,
    pub spurious: Spurious,
    pub cc: CongestionControl,
}

impl std::ops::Deref for Sender {
    type Target = SenderState;
    fn deref(&self) -> &SenderState {
        &self.st
    }
}

impl std::ops::DerefMut for Sender {
    fn deref_mut(&mut self) -> &mut SenderState {
        &mut self.st
    }
}

impl Sender {
    /// A sender from its parts. TCP-PR's timers start it at cwnd = 1 (TCP-PR
    /// Table I line 2) and replace the RFC 6298 timer.
    pub fn new(
        cfg: SenderConfig,
        loss: LossDetection,
        recovery: Recovery,
        spurious: Spurious,
        cc: CongestionControl,
    ) -> Sender {
        let mut st = SenderState::new(cfg);
        if let LossDetection::TcpPr(_) = loss {
            st.cwnd = 1.0;
            st.rto_timer = false;
        }
        Sender {
            st,
            loss,
            recovery,
            spurious,
            cc,
        }
    }

    /// Sends the initial window.
    pub fn start(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let from = out.len();
        self.transmit(now, out);
        self.note_sends(now, out, from);
    }

    /// All data sent and acknowledged (finite transfers only).
    pub fn is_complete(&self) -> bool {
        self.st.total_segs.is_some_and(|t| self.st.sb.una() >= t)
    }

    /// When the sender wants [`Sender::on_timer`] called.
    pub fn next_wakeup(&self) -> Option<Time> {
        if let LossDetection::TcpPr(pr) = &self.loss {
            return pr.next_wakeup();
        }
        match (self.st.rto_deadline, self.loss.deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Bytes cumulatively acknowledged.
    pub fn bytes_acked(&self) -> u64 {
        self.st.seq_of(self.st.sb.una())
    }

    /// The dupthresh in force.
    #[inline]
    pub fn dupthresh(&self) -> u32 {
        self.loss.dupthresh(&self.st)
    }

    /// Tells the parts that watch transmissions about the segments sent
    /// since `out[from]`: the DSACK detector's episode, TCP-PR's timers.
    fn note_sends(&mut self, now: Time, out: &[DataSegment], from: usize) {
        let mss = self.st.cfg.mss as u64;
        for d in &out[from..] {
            let seg = d.seq / mss;
            if d.kind.is_retransmission() {
                if let Some(det) = self.spurious.dsack.as_mut() {
                    det.on_retransmit(seg);
                }
            }
            if let LossDetection::TcpPr(pr) = &mut self.loss {
                pr.on_send(now, seg);
            }
        }
    }

    /// Processes an ACK.
    pub fn on_ack(&mut self, now: Time, ack: &AckSegment, out: &mut Vec<DataSegment>) {
        let from = out.len();
        self.on_ack_inner(now, ack, out);
        self.note_sends(now, out, from);
    }

    fn on_ack_inner(&mut self, now: Time, ack: &AckSegment, out: &mut Vec<DataSegment>) {
        let st = &mut self.st;
        st.peer_rwnd = ack.rwnd;
        st.retransmitted_this_ack = false;
        let una = st.sb.una();
        let new_una = st.seg_below(ack.ack).min(st.sb.nxt());

        if st.cfg.dsack && ack.dsack_block().is_some() {
            st.stats.dsacks += 1;
        }
        if let LossDetection::TcpPr(pr) = &mut self.loss {
            pr.on_ack(st, now, ack);
            return self.transmit(now, out);
        }
        if let (Some(d), Some(det)) = (ack.dsack_block(), self.spurious.dsack.as_mut()) {
            let (lo, hi) = (st.seg_above(d.start), st.seg_below(d.end));
            if let Some(e) = det.on_dsack(lo, hi, st.dupacks) {
                st.stats.spurious_detected += 1;
                self.loss.on_spurious(e.dupacks_seen);
                self.spurious.response.apply(st, &e);
            }
        }

        // SACK blocks (the DSACK block, if any, reports data below una or
        // already SACKed, so marking it is harmless).
        let mut newly_sacked = 0u32;
        if st.cfg.sack {
            for b in ack.sack_blocks() {
                let lo = st.seg_above(b.start).max(new_una);
                let hi = st.seg_below(b.end);
                newly_sacked += st.sb.mark_sacked_range(lo, hi, |_, _| {});
            }
        }

        let advanced = new_una > una;
        if advanced {
            self.on_new_ack(now, ack, una, new_una, out);
        }
        let has_sack = ack.sack_blocks().len() > ack.dsack as usize;
        self.loss
            .on_ack(&mut self.st, advanced, has_sack, newly_sacked);
        if newly_sacked > 0 {
            let dupthresh = self.dupthresh();
            self.recovery.mark_lost(&mut self.st, dupthresh);
        }
        if !advanced && self.is_dupack(ack, una, newly_sacked) {
            self.on_dupack(now, out);
        }
        if self.st.sb.packets_out() == 0 {
            self.st.rto_deadline = None;
        }
        self.transmit(now, out);
        self.recovery.after_ack(&mut self.st, now, advanced, out);
    }

    /// A duplicate ACK: RFC 5681 Section 2 without SACK; with SACK, one that
    /// SACKs new data (RFC 6675 Section 2).
    fn is_dupack(&self, ack: &AckSegment, una: u64, newly_sacked: u32) -> bool {
        if self.st.sb.packets_out() == 0 || self.st.seg_below(ack.ack) != una {
            return false;
        }
        if self.st.cfg.sack {
            newly_sacked > 0
        } else {
            true
        }
    }

    fn on_new_ack(
        &mut self,
        now: Time,
        ack: &AckSegment,
        una: u64,
        new_una: u64,
        out: &mut Vec<DataSegment>,
    ) {
        let st = &mut self.st;
        let acked = (new_una - una) as u32;
        // The segment at the old SND.UNA: its arrival is what advanced the
        // cumulative ACK (the others were SACKed before, or arrived with it).
        let first = st.sb.get(una).copied();
        st.sb.advance(new_una, |_, _| {});
        st.loss_frontier = st.loss_frontier.max(new_una);
        st.retx_cursor = st.retx_cursor.max(new_una);

        // RTT sample: from TSecr (RFC 7323 Section 4), else from the segment
        // that advanced SND.UNA, if it was never retransmitted (Karn's rule,
        // RFC 6298 Section 3). Timing a segment ACKed only once a hole below
        // it filled would count its wait behind the hole.
        let sample = if st.cfg.timestamps {
            ack.ts_ecr.map(|e| now - e)
        } else {
            first
                .filter(|r| r.tx_count == 1)
                .map(|r| now - r.first_sent)
        };
        if let Some(r) = sample {
            st.rtt.sample(r);
        }

        if let Some(det) = self.spurious.dsack.as_mut() {
            det.on_new_ack(new_una, st.dupacks);
        }
        self.loss.on_new_ack();
        let st = &mut self.st;
        if st.after_rto && new_una >= st.recover {
            st.after_rto = false;
        }
        st.dupacks = 0;
        st.lt_sent = 0;
        let mut restart_timer = true;
        if st.in_recovery {
            if new_una >= st.recover {
                self.exit_recovery();
            } else {
                let dupthresh = self.dupthresh();
                let p = self
                    .recovery
                    .on_partial_ack(&mut self.st, now, acked, dupthresh, out);
                restart_timer = p.restart_timer;
                if p.exit {
                    self.exit_recovery();
                }
            }
        } else {
            let s = AckSample {
                now,
                acked,
                rtt: sample,
                min_rtt: st.rtt.min_rtt,
                flight: st.sb.packets_out(),
            };
            self.cc.on_ack(&mut st.cwnd, st.ssthresh, &s);
        }
        // RFC 6298 Section 5.3: restart the timer when new data is ACKed
        // (unless the recovery's own rule says not to).
        let st = &mut self.st;
        if st.sb.packets_out() == 0 {
            st.rto_deadline = None;
        } else if restart_timer {
            st.rto_deadline = Some(now + st.rtt.rto());
        }
    }

    fn on_dupack(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        self.st.dupacks += 1;
        self.st.stats.dupacks += 1;
        if self.st.in_recovery {
            self.recovery.on_dupack(&mut self.st);
            return;
        }
        self.loss.on_dupack(&self.st, now);
        if (self.st.sb.una() >= self.st.recover || !self.recovery.guards_recover())
            && self.loss_detected()
            && self.loss.allows_recovery(&self.st, now)
        {
            self.enter_recovery(now, out);
        }
    }

    /// Whether the ACK clock says SND.UNA is lost: DupThresh duplicate ACKs
    /// (RFC 5681 Section 3.2), or the recovery algorithm's scoreboard rule
    /// (IsLost(HighACK + 1), RFC 6675 Section 5 step 2; FACK's).
    fn loss_detected(&self) -> bool {
        let dupthresh = self.dupthresh();
        self.st.dupacks >= dupthresh || self.recovery.loss_indicated(&self.st, dupthresh)
    }

    /// Fast retransmit: enter loss recovery (RFC 5681 Section 3.2 steps 2-3,
    /// RFC 6582 Section 3.2 step 2, RFC 6675 Section 5 step 4).
    fn enter_recovery(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let dupthresh = self.dupthresh();
        let flight = self.st.sb.packets_out() - self.st.lt_sent;
        let flight = self.loss.flight_for_cut(flight);
        self.loss.on_recovery_start();
        if let Some(det) = self.spurious.dsack.as_mut() {
            det.on_recovery_start(&self.st);
        }
        let st = &mut self.st;
        st.stats.fast_retransmits += 1;
        st.new_epoch();
        st.ssthresh = self.cc.ssthresh_after_loss(now, st.cwnd, flight);
        st.recover = st.sb.nxt();
        st.in_recovery = true;
        self.recovery.enter(st, dupthresh, now, out);
    }

    fn exit_recovery(&mut self) {
        self.st.in_recovery = false;
        self.st.tag_pending = None;
        self.recovery.exit(&mut self.st);
    }

    /// Timer processing: a delaying loss detection's wait, then the
    /// retransmission timeout (RFC 6298 Section 5.4-5.6, RFC 5681 Section
    /// 3.1 eq. 4, RFC 6675 Section 5.1, RFC 6582 Section 4).
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let from = out.len();
        self.on_timer_inner(now, out);
        self.note_sends(now, out, from);
    }

    fn on_timer_inner(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        if let LossDetection::TcpPr(pr) = &mut self.loss {
            pr.on_timer(&mut self.st, now);
            return self.transmit(now, out);
        }
        if self.loss.take_expired(now) {
            // The wait is over and the hole is still there.
            if !self.st.in_recovery && self.st.sb.una() >= self.st.recover && self.loss_detected() {
                self.enter_recovery(now, out);
                self.transmit(now, out);
            }
        }
        match self.st.rto_deadline {
            Some(d) if d <= now => {}
            _ => return,
        }
        if self.st.sb.packets_out() == 0 {
            self.st.rto_deadline = None;
            return;
        }
        self.on_timeout(now, out);
    }

    /// The retransmission timer expired with data outstanding.
    fn on_timeout(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        self.loss.on_timeout();
        if let Some(det) = self.spurious.dsack.as_mut() {
            det.on_timeout();
        }
        let st = &mut self.st;
        st.stats.timeouts += 1;
        st.new_epoch();
        st.after_rto = true;
        if st.rtt.backoff == 0 {
            // ssthresh is reduced once per timeout series, not per back-off.
            let eq4 = self
                .cc
                .ssthresh_after_loss(now, st.cwnd, st.sb.packets_out());
            // A timeout that interrupts fast recovery answers the congestion
            // event recovery already answered: FlightSize then counts all the
            // data SACKed meanwhile, and eq. 4 would raise ssthresh above
            // the value recovery set. RFC 5681 asks for "no more than" eq. 4,
            // so keep the smaller one (as Linux does).
            st.ssthresh = if st.in_recovery {
                eq4.min(st.ssthresh)
            } else {
                eq4
            };
        }
        st.cwnd = 1.0;
        st.in_recovery = false;
        st.tag_pending = None;
        st.dupacks = 0;
        st.recover = st.sb.nxt();
        // Everything outstanding and not SACKed is deemed lost, and so is
        // every retransmission in flight; SACK information is kept (RFC 6675
        // Section 5.1 allows it, Linux does): no SACKed segment is resent.
        let (una, nxt) = (st.sb.una(), st.sb.nxt());
        for s in una..nxt {
            st.sb.mark_all_lost(s);
        }
        st.loss_frontier = nxt;
        st.retx_cursor = una;
        st.rtt.back_off();
        st.rto_deadline = Some(now + st.rtt.rto());
        if let Some(first) = st.next_lost_to_retransmit() {
            st.retransmit(now, first, TxKind::Timeout, out);
        }
        self.transmit(now, out);
    }

    /// Whether the window admits one more segment (new data or not).
    #[inline]
    fn window_allows(&self, new_data: bool) -> bool {
        let st = &self.st;
        if let Some(w) = self.loss.window(st, new_data) {
            return w;
        }
        // Segments deemed lost leave pipe once recovery (or a timeout's
        // go-back-N) is under way. Before it starts (TD-FR's wait), they are
        // still counted: otherwise each loss marked in the wait would be
        // replaced by new data and the flight would balloon.
        let pipe = if st.in_recovery || st.after_rto {
            st.sb.pipe()
        } else {
            st.sb.packets_out() - st.sb.sacked_out()
        } as f64;
        let mut cwnd = st.cwnd;
        if new_data && st.cfg.limited_transmit && !st.in_recovery && !st.after_rto && !st.cfg.sack {
            // RFC 3042: up to two extra new segments on the first two
            // duplicate ACKs. With SACK, pipe already leaves out SACKed
            // segments (RFC 6675 Section 5 step 3). Not while a timeout's
            // go-back-N is under way: the duplicate ACKs then answer
            // retransmissions of data the receiver holds (RFC 5681 Section
            // 3.1: after an RTO the sender slow-starts from SND.UNA).
            cwnd += st.dupacks.min(2) as f64;
        }
        pipe + 1.0 <= cwnd + 1e-9
    }

    /// Sends what the window allows: retransmissions of segments deemed lost
    /// first (NextSeg rule 1), then new data (rule 2), then, in SACK
    /// recovery, rules 3 and 4 of RFC 6675 NextSeg.
    fn transmit(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let resend_lost = matches!(self.recovery, Recovery::Retransmit);
        loop {
            if !self.window_allows(false) {
                // Limited transmit may still allow new data.
                if self.window_allows(true)
                    && self.st.can_send_new()
                    && (self.st.dupacks > 0 || self.loss.extended_limited_transmit(&self.st))
                {
                    self.send_new(now, out);
                    continue;
                }
                return;
            }
            // Segments deemed lost are resent in recovery (NextSeg rule 1 in
            // SACK recovery) or after a timeout, never merely because IsLost
            // says so (RFC 6675 Section 5).
            let lost = match self.recovery.rule1(&mut self.st) {
                Some(rule1) => rule1,
                None if self.st.in_recovery || self.st.after_rto || resend_lost => {
                    self.st.next_lost_to_retransmit()
                }
                None => None,
            };
            if let Some(s) = lost {
                self.st.retransmit(now, s, TxKind::Retransmit, out);
                continue;
            }
            if self.st.can_send_new() {
                self.send_new(now, out);
                continue;
            }
            if let Some(s) = self.recovery.next_seg_last_resort(&mut self.st) {
                self.st.retransmit(now, s, TxKind::Retransmit, out);
                continue;
            }
            return;
        }
    }

    fn send_new(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let st = &mut self.st;
        if st.dupacks > 0 && !st.in_recovery && !st.after_rto {
            // New data on a duplicate ACK before recovery is limited
            // transmit (RFC 3042; RFC 6675 Section 5 step 3), whether the
            // window rule that let it go was RFC 3042's or pipe's.
            st.lt_sent += 1;
        }
        self.loss.on_send_new(&self.st);
        self.st.send_new(now, out);
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_reorder;
