//! The TCP sender: sans-IO, segment-numbered, with pluggable loss recovery
//! and congestion control.
//!
//! The sender is handed `now` and an input (an ACK, a timer firing) and
//! appends the data segments to transmit to an output vector; it tells the
//! caller when it next wants to be woken through [`Sender::next_wakeup`]. It
//! never reads a clock and never schedules anything itself.
//!
//! Units: sequence numbers on the wire are bytes; internally every segment
//! but the last of a finite transfer carries exactly one MSS, so the sender
//! numbers segments and keeps cwnd, ssthresh and pipe in segments, the unit
//! the papers use.

mod ncr;
mod recovery;
mod reorder;
mod rtt;
mod scoreboard;
mod tcp_pr;

pub use ncr::Ncr;
pub use recovery::RecoveryAlgo;
pub use reorder::{DupthreshPolicy, Reorder};
pub use rtt::RttEstimator;
pub use scoreboard::{Scoreboard, SegRecord};
pub use tcp_pr::{PrMode, TcpPr};

use crate::cc::{AckSample, CongestionControl};
use crate::segment::{AckSegment, DataSegment, Seq, TxKind};
use reorderlab_sim::Time;

/// Per-flow sender settings (negotiated options included).
#[derive(Clone, Debug)]
pub struct SenderConfig {
    /// SMSS in payload bytes (RFC 5681 Section 2).
    pub mss: u32,
    /// Bytes to send; None for an unending (bulk) transfer.
    pub total_bytes: Option<u64>,
    /// IW in segments (RFC 5681 Section 3.1, RFC 3390).
    pub initial_window: u32,
    /// Lower bound on RTO (RFC 6298 Section 2.4).
    pub min_rto: Time,
    /// Upper bound on RTO (RFC 6298 Section 2.5).
    pub max_rto: Time,
    /// Timestamp option in use (RFC 7323): RTT samples from TSecr.
    pub timestamps: bool,
    /// SACK in use (RFC 2018): the receiver reports SACK blocks.
    pub sack: bool,
    /// DSACK in use (RFC 2883).
    pub dsack: bool,
    /// Limited transmit (RFC 3042) on the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// DupThresh (RFC 5681 Section 3.2, RFC 6675 Section 2): 3 by default.
    pub dupthresh: u32,
}

impl Default for SenderConfig {
    fn default() -> Self {
        SenderConfig {
            mss: 1460,
            total_bytes: None,
            initial_window: 2,
            min_rto: Time::from_secs(1),
            max_rto: Time::from_secs(60),
            timestamps: false,
            sack: true,
            dsack: true,
            limited_transmit: true,
            dupthresh: 3,
        }
    }
}

/// Event counters of one sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmitted segments.
    pub retransmissions: u64,
    /// Fast retransmits: entries into loss recovery.
    pub fast_retransmits: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// ACKs carrying a DSACK block (RFC 2883).
    pub dsacks: u64,
    /// Duplicate ACKs received.
    pub dupacks: u64,
}

/// The sender.
#[derive(Clone, Debug)]
pub struct Sender {
    pub cfg: SenderConfig,
    pub algo: RecoveryAlgo,
    pub cc: CongestionControl,
    pub sb: Scoreboard,
    /// cwnd in segments (RFC 5681 Section 2).
    pub cwnd: f64,
    /// ssthresh in segments (RFC 5681 Section 2); infinite until the first loss.
    pub ssthresh: f64,
    pub rtt: RttEstimator,
    /// DupAcks: duplicate ACKs since the last advance of SND.UNA (RFC 6675 Section 2).
    pub dupacks: u32,
    /// In fast recovery (RFC 5681 Section 3.2, RFC 6675 Section 5).
    pub in_recovery: bool,
    /// recover / RecoveryPoint: one past the highest segment outstanding when
    /// recovery (or the last timeout) began (RFC 6582 Section 3.2, RFC 6675 Section 2).
    pub recover: u64,
    /// Segments below this have been examined by the IsLost rule (all lost or SACKed).
    loss_frontier: u64,
    /// Lowest segment that may be marked lost and not yet retransmitted.
    retx_cursor: u64,
    /// RescueRxt (RFC 6675 Section 4, NextSeg rule 4), one per recovery.
    rescue_rxt: Option<u64>,
    /// Retransmission timer deadline (RFC 6298 Section 5).
    rto_deadline: Option<Time>,
    /// Receiver's advertised window in bytes.
    peer_rwnd: u64,
    /// Segments in the transfer; None for bulk.
    total_segs: Option<u64>,
    /// Whether the current ACK's processing retransmitted something
    /// (NewReno-SACK's "at least one per partial ACK").
    retransmitted_this_ack: bool,
    /// Segments sent by limited transmit since SND.UNA last advanced; left
    /// out of FlightSize when ssthresh is set (RFC 5681 Section 3.2 step 2).
    lt_sent: u32,
    /// The kind the next retransmission is tagged with: the recovery's fast
    /// retransmit when SND.UNA's own retransmission was already in flight at
    /// entry, or the first retransmission after a TCP-PR loss event.
    tag_pending: Option<TxKind>,
    /// TCP-PR's state, when the loss detection is TCP-PR's timers.
    pub pr: Option<TcpPr>,
    /// DSACK spurious-recovery detection, dupthresh adaptation, TD-FR.
    pub reorder: Reorder,
    /// TCP-DCR's delayed response (RFC 4653), when enabled.
    pub ncr: Option<Ncr>,
    /// Data outstanding at the last timeout is not all ACKed yet: segments
    /// deemed lost are resent (go-back-N) outside fast recovery.
    pub(super) after_rto: bool,
    pub stats: SenderStats,
}

impl Sender {
    pub fn new(cfg: SenderConfig, algo: RecoveryAlgo, cc: CongestionControl) -> Sender {
        let total_segs = cfg.total_bytes.map(|b| b.div_ceil(cfg.mss as u64));
        Sender {
            cwnd: cfg.initial_window.max(1) as f64,
            ssthresh: f64::INFINITY,
            rtt: RttEstimator::new(cfg.min_rto, cfg.max_rto),
            algo,
            cc,
            sb: Scoreboard::new(),
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            loss_frontier: 0,
            retx_cursor: 0,
            rescue_rxt: None,
            rto_deadline: None,
            peer_rwnd: u64::MAX,
            total_segs,
            retransmitted_this_ack: false,
            lt_sent: 0,
            tag_pending: None,
            pr: None,
            reorder: Reorder::new(cfg.dupthresh),
            ncr: None,
            after_rto: false,
            stats: SenderStats::default(),
            cfg,
        }
    }

    /// Makes this a TCP-PR sender: cwnd starts at 1 (TCP-PR Table I line 2)
    /// and loss is detected by TCP-PR's timers only.
    pub fn with_tcp_pr(mut self, pr: TcpPr) -> Sender {
        self.algo = RecoveryAlgo::TcpPr;
        self.cwnd = 1.0;
        self.pr = Some(pr);
        self
    }

    /// Sends the initial window.
    pub fn start(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        self.transmit(now, out);
    }

    /// All data sent and acknowledged (finite transfers only).
    pub fn is_complete(&self) -> bool {
        self.total_segs.is_some_and(|t| self.sb.una() >= t)
    }

    /// When the sender wants [`Sender::on_timer`] called.
    pub fn next_wakeup(&self) -> Option<Time> {
        if self.pr.is_some() {
            return self.pr_next_wakeup();
        }
        match (self.rto_deadline, self.reorder.td_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Bytes cumulatively acknowledged.
    pub fn bytes_acked(&self) -> u64 {
        self.seq_of(self.sb.una())
    }

    /// The current RTO (back-off included).
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }

    #[inline]
    fn seq_of(&self, seg: u64) -> Seq {
        let s = seg * self.cfg.mss as u64;
        match self.cfg.total_bytes {
            Some(t) => s.min(t),
            None => s,
        }
    }

    /// Segment whose end is at byte `end` or below: segments wholly covered by `[.., end)`.
    #[inline]
    fn seg_below(&self, end: Seq) -> u64 {
        match (self.cfg.total_bytes, self.total_segs) {
            (Some(t), Some(n)) if end >= t => n,
            _ => end / self.cfg.mss as u64,
        }
    }

    /// First segment starting at or above byte `start`.
    #[inline]
    fn seg_above(&self, start: Seq) -> u64 {
        start.div_ceil(self.cfg.mss as u64)
    }

    fn has_new_data(&self) -> bool {
        self.total_segs.is_none_or(|t| self.sb.nxt() < t)
    }

    /// Segments the receiver's window still admits above SND.UNA.
    fn rwnd_segs(&self) -> u64 {
        (self.peer_rwnd / self.cfg.mss as u64).max(1)
    }

    /// Processes an ACK.
    pub fn on_ack(&mut self, now: Time, ack: &AckSegment, out: &mut Vec<DataSegment>) {
        self.peer_rwnd = ack.rwnd;
        self.retransmitted_this_ack = false;
        let una = self.sb.una();
        let new_una = self.seg_below(ack.ack).min(self.sb.nxt());

        if self.cfg.dsack && ack.dsack_block().is_some() {
            self.stats.dsacks += 1;
        }
        if self.pr.is_some() {
            return self.pr_on_ack(now, ack, out);
        }
        if let Some(d) = ack.dsack_block().filter(|_| self.cfg.dsack) {
            let (lo, hi) = (self.seg_above(d.start), self.seg_below(d.end));
            self.reorder_on_dsack(lo, hi);
        }

        // SACK blocks (the DSACK block, if any, reports data below una or
        // already SACKed, so marking it is harmless).
        let mut newly_sacked = 0u32;
        if self.cfg.sack {
            for b in ack.sack_blocks() {
                let lo = self.seg_above(b.start).max(new_una);
                let hi = self.seg_below(b.end);
                newly_sacked += self.sb.mark_sacked_range(lo, hi, |_, _| {});
            }
        }

        let advanced = new_una > una;
        if advanced {
            self.on_new_ack(now, ack, una, new_una, out);
        }
        if self.ncr.is_some() {
            let has_sack = ack.sack_blocks().len() > ack.dsack as usize;
            self.ncr_on_ack(advanced, has_sack, newly_sacked);
        }
        if newly_sacked > 0 {
            self.mark_lost_by_sack();
        }
        if !advanced && self.is_dupack(ack, una, newly_sacked) {
            self.on_dupack(now, out);
        }
        if self.sb.packets_out() == 0 {
            self.rto_deadline = None;
        }
        self.transmit(now, out);
        if self.algo == RecoveryAlgo::NewRenoSack
            && self.in_recovery
            && new_una > una
            && !self.retransmitted_this_ack
        {
            // Eifel paper Section III-A: at least one retransmission per partial ACK.
            self.force_retransmit_first_hole(now, out);
        }
    }

    /// A duplicate ACK: RFC 5681 Section 2 without SACK; with SACK, one that
    /// SACKs new data (RFC 6675 Section 2).
    fn is_dupack(&self, ack: &AckSegment, una: u64, newly_sacked: u32) -> bool {
        if self.sb.packets_out() == 0 || self.seg_below(ack.ack) != una {
            return false;
        }
        if self.cfg.sack {
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
        let acked = (new_una - una) as u32;
        let mut any_retransmitted = false;
        let mut newest_sent = Time::ZERO;
        self.sb.advance(new_una, |_, r| {
            any_retransmitted |= r.tx_count > 1;
            newest_sent = newest_sent.max(r.last_sent);
        });
        self.loss_frontier = self.loss_frontier.max(new_una);
        self.retx_cursor = self.retx_cursor.max(new_una);

        // RTT sample: from TSecr (RFC 7323 Section 4.1), else from a segment
        // never retransmitted (Karn's rule, RFC 6298 Section 3).
        let sample = if self.cfg.timestamps {
            ack.ts_ecr.map(|e| now - e)
        } else if !any_retransmitted {
            Some(now - newest_sent)
        } else {
            None
        };
        if let Some(r) = sample {
            self.rtt.sample(r);
        }

        self.reorder_on_new_ack(new_una, self.dupacks);
        if self.after_rto && new_una >= self.recover {
            self.after_rto = false;
        }
        self.dupacks = 0;
        self.lt_sent = 0;
        if self.in_recovery {
            if new_una >= self.recover {
                self.exit_recovery();
            } else {
                self.on_partial_ack(now, acked, out);
            }
        } else {
            let s = AckSample {
                now,
                acked,
                rtt: sample,
                min_rtt: self.rtt.min_rtt,
                flight: self.sb.packets_out(),
            };
            self.cc.on_ack(&mut self.cwnd, self.ssthresh, &s);
        }
        // RFC 6298 Section 5.3: restart the timer when new data is ACKed.
        self.rto_deadline = (self.sb.packets_out() > 0).then(|| now + self.rtt.rto());
    }

    fn on_dupack(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        self.dupacks += 1;
        self.stats.dupacks += 1;
        if self.in_recovery {
            if self.algo.inflates_window() {
                // Each further duplicate ACK means a segment left the network (RFC 5681 Section 3.2 step 4).
                self.cwnd += 1.0;
            }
            return;
        }
        if self.reorder.td_fr {
            self.td_fr_on_dupack(now);
        }
        if self.sb.una() >= self.recover
            && self.loss_detected()
            && self.delayed_response_allows(now)
        {
            self.enter_recovery(now, out);
        }
    }

    /// Whether the ACK clock says SND.UNA is lost: DupThresh duplicate ACKs
    /// (RFC 5681 Section 3.2), IsLost(HighACK + 1) (RFC 6675 Section 5 step 2),
    /// or more than DupThresh segments between SND.UNA and SND.FACK (FACK).
    fn loss_detected(&self) -> bool {
        if self.dupacks >= self.dupthresh() {
            return true;
        }
        match self.algo {
            RecoveryAlgo::Sack | RecoveryAlgo::NewRenoSack => {
                self.sb.get(self.sb.una()).is_some_and(|r| r.lost())
            }
            RecoveryAlgo::Fack => self.sb.fack() - self.sb.una() > self.dupthresh() as u64,
            RecoveryAlgo::Reno | RecoveryAlgo::NewReno | RecoveryAlgo::TcpPr => false,
        }
    }

    /// Marks segments lost by the SACK-based rule of the recovery algorithm.
    /// RFC 6675 IsLost: DupThresh SACKed segments above. FACK: more than
    /// DupThresh segments between it and SND.FACK. Cost is bounded by the
    /// segments above the frontier of segments already judged.
    fn mark_lost_by_sack(&mut self) {
        let dupthresh = self.dupthresh() as u64;
        match self.algo {
            RecoveryAlgo::Reno | RecoveryAlgo::NewReno | RecoveryAlgo::TcpPr => {}
            RecoveryAlgo::Fack => {
                let limit = self.sb.fack().saturating_sub(dupthresh);
                for s in self.loss_frontier..limit {
                    if self.sb.mark_lost(s) {
                        self.retx_cursor = self.retx_cursor.min(s);
                    }
                }
                self.loss_frontier = self.loss_frontier.max(limit);
            }
            RecoveryAlgo::Sack | RecoveryAlgo::NewRenoSack => {
                // Losses start below the DupThresh-th highest SACKed segment.
                if let Some(b) = self.sb.kth_highest_sacked(dupthresh as u32) {
                    for s in self.loss_frontier..b {
                        let r = self.sb.get(s).copied();
                        if r.is_some_and(|r| !r.sacked() && !r.lost()) && self.sb.mark_lost(s) {
                            self.retx_cursor = self.retx_cursor.min(s);
                        }
                    }
                    self.loss_frontier = self.loss_frontier.max(b);
                }
            }
        }
    }

    /// Fast retransmit: enter loss recovery (RFC 5681 Section 3.2 steps 2-3,
    /// RFC 6582 Section 3.2 step 2, RFC 6675 Section 5 step 4).
    fn enter_recovery(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let flight = self.sb.packets_out() - self.lt_sent;
        let flight = self.ncr_flight_for_cut(flight);
        let flight = self.dcr_flight_for_cut(flight);
        self.stats.fast_retransmits += 1;
        self.episode_start(self.cwnd);
        self.ssthresh = self.cc.ssthresh_after_loss(now, self.cwnd, flight);
        self.recover = self.sb.nxt();
        self.in_recovery = true;
        self.rescue_rxt = None;
        self.cwnd = if self.algo.inflates_window() {
            // RFC 5681 Section 3.2 step 3: cwnd = ssthresh + 3 * SMSS.
            self.ssthresh + self.dupthresh() as f64
        } else {
            // RFC 6675 Section 5 step 4.2: cwnd = ssthresh.
            self.ssthresh
        };
        let una = self.sb.una();
        self.tag_pending = Some(TxKind::FastRetransmit);
        // RFC 6675 step 4.3: the first segment presumed dropped goes out at
        // once, unless its retransmission is already in flight (it was sent
        // after the previous RecoveryPoint and lost: a new congestion event,
        // but nothing to resend yet).
        if self.sb.get(una).is_some_and(|r| !r.retrans()) {
            if self.sb.mark_lost(una) {
                self.retx_cursor = self.retx_cursor.min(una);
            }
            self.retransmit(now, una, TxKind::FastRetransmit, out);
        }
    }

    fn exit_recovery(&mut self) {
        self.in_recovery = false;
        self.tag_pending = None;
        match self.algo {
            RecoveryAlgo::Reno => self.cwnd = self.ssthresh,
            // RFC 6582 Section 3.2 step 3, option (1).
            RecoveryAlgo::NewReno => {
                self.cwnd = self.ssthresh.min(self.sb.packets_out().max(1) as f64 + 1.0)
            }
            // RFC 6675: cwnd was set to ssthresh on entry and is not inflated.
            RecoveryAlgo::Sack
            | RecoveryAlgo::NewRenoSack
            | RecoveryAlgo::Fack
            | RecoveryAlgo::TcpPr => {
                self.cwnd = self.cwnd.min(self.ssthresh.max(1.0));
            }
        }
    }

    fn on_partial_ack(&mut self, now: Time, acked: u32, out: &mut Vec<DataSegment>) {
        match self.algo {
            // Reno leaves recovery on any new ACK (RFC 5681 Section 3.2 step 6).
            RecoveryAlgo::Reno => self.exit_recovery(),
            RecoveryAlgo::NewReno => {
                // RFC 6582 Section 3.2 step 5: retransmit the first unacknowledged
                // segment, deflate cwnd by the amount ACKed, add back one SMSS.
                let una = self.sb.una();
                if self.sb.mark_lost(una) {
                    self.retx_cursor = self.retx_cursor.min(una);
                }
                self.retransmit(now, una, TxKind::Retransmit, out);
                self.cwnd = (self.cwnd - acked as f64 + 1.0).max(1.0);
            }
            RecoveryAlgo::Sack | RecoveryAlgo::NewRenoSack | RecoveryAlgo::Fack => {
                self.mark_lost_by_sack();
            }
            RecoveryAlgo::TcpPr => {}
        }
    }

    /// NewReno-SACK (Eifel paper Section III-A): retransmit the first
    /// not-yet-retransmitted hole, or SND.UNA, even when pipe >= cwnd.
    fn force_retransmit_first_hole(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let una = self.sb.una();
        let target = self.next_lost_to_retransmit().or_else(|| {
            let r = self.sb.get(una)?;
            (!r.sacked() && !r.retrans()).then_some(una)
        });
        if let Some(s) = target {
            if self.sb.mark_lost(s) {
                self.retx_cursor = self.retx_cursor.min(s);
            }
            self.retransmit(now, s, TxKind::Retransmit, out);
        }
    }

    /// A retransmission timeout (RFC 6298 Section 5.4-5.6, RFC 5681 Section
    /// 3.1 eq. 4, RFC 6675 Section 5.1, RFC 6582 Section 4).
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        if self.pr.is_some() {
            return self.pr_on_timer(now, out);
        }
        if self.reorder.td_deadline.is_some_and(|d| d <= now) {
            // TD-FR's wait is over and the hole is still there.
            self.reorder.td_deadline = None;
            if !self.in_recovery && self.sb.una() >= self.recover && self.loss_detected() {
                self.enter_recovery(now, out);
                self.transmit(now, out);
            }
        }
        match self.rto_deadline {
            Some(d) if d <= now => {}
            _ => return,
        }
        if self.sb.packets_out() == 0 {
            self.rto_deadline = None;
            return;
        }
        self.stats.timeouts += 1;
        self.after_rto = true;
        self.reorder_on_timeout();
        if let Some(n) = self.ncr.as_mut() {
            n.active = false;
        }
        if self.rtt.backoff == 0 {
            // ssthresh is reduced once per timeout series, not per back-off.
            let eq4 = self
                .cc
                .ssthresh_after_loss(now, self.cwnd, self.sb.packets_out());
            // A timeout that interrupts fast recovery answers the congestion
            // event recovery already answered: FlightSize then counts all the
            // data SACKed meanwhile, and eq. 4 would raise ssthresh above
            // the value recovery set. RFC 5681 asks for "no more than" eq. 4,
            // so keep the smaller one (as Linux does).
            self.ssthresh = if self.in_recovery {
                eq4.min(self.ssthresh)
            } else {
                eq4
            };
        }
        self.cwnd = 1.0;
        self.in_recovery = false;
        self.tag_pending = None;
        self.dupacks = 0;
        self.recover = self.sb.nxt();
        // Everything outstanding and not SACKed is deemed lost; SACK
        // information is kept (RFC 6675 Section 5.1).
        let (una, nxt) = (self.sb.una(), self.sb.nxt());
        for s in una..nxt {
            self.sb.mark_lost(s);
        }
        self.loss_frontier = nxt;
        self.retx_cursor = una;
        self.rtt.back_off();
        self.rto_deadline = Some(now + self.rtt.rto());
        if let Some(first) = self.next_lost_to_retransmit() {
            self.retransmit(now, first, TxKind::Timeout, out);
        }
        self.transmit(now, out);
    }

    /// Lowest segment marked lost whose retransmission is not in flight.
    fn next_lost_to_retransmit(&mut self) -> Option<u64> {
        let mut s = self.retx_cursor.max(self.sb.una());
        let nxt = self.sb.nxt();
        while s < nxt {
            let r = self.sb.get(s)?;
            if r.lost() && !r.retrans() && !r.sacked() {
                self.retx_cursor = s;
                return Some(s);
            }
            s += 1;
        }
        self.retx_cursor = nxt;
        None
    }

    /// The window available for sending, in segments, as the algorithm counts it.
    #[inline]
    fn window_allows(&self, new_data: bool) -> bool {
        if self.pr.is_some() {
            return self.pr_window_allows();
        }
        if self.ncr_active() {
            // RFC 4653 (E.2): Extended Limited Transmit sends new data only.
            return new_data && self.ncr_window_allows();
        }
        if self.reorder.td_fr && self.dupacks > 0 && !self.in_recovery && !self.after_rto {
            // TD-FR keeps RFC 3042's limited transmit while it waits: the
            // flight may exceed cwnd by two segments, no more.
            return new_data && self.sb.packets_out() as f64 + 1.0 <= self.cwnd + 2.0 + 1e-9;
        }
        // Segments deemed lost leave pipe once recovery (or a timeout's
        // go-back-N) is under way. Before it starts (TD-FR's wait), they are
        // still counted: otherwise each loss marked in the wait would be
        // replaced by new data and the flight would balloon.
        let pipe = if self.in_recovery || self.after_rto {
            self.sb.pipe()
        } else {
            self.sb.packets_out() - self.sb.sacked_out()
        } as f64;
        let mut cwnd = self.cwnd;
        if new_data && self.cfg.limited_transmit && !self.in_recovery && !self.cfg.sack {
            // RFC 3042: up to two extra new segments on the first two duplicate ACKs.
            // With SACK, pipe already leaves out SACKed segments (RFC 6675 Section 5 step 3).
            cwnd += self.dupacks.min(2) as f64;
        }
        pipe + 1.0 <= cwnd + 1e-9
    }

    /// Sends what the window allows: retransmissions of segments deemed lost
    /// first (NextSeg rule 1), then new data (rule 2), then, in SACK
    /// recovery, rules 3 and 4 of RFC 6675 NextSeg.
    fn transmit(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        loop {
            if !self.window_allows(false) {
                // Limited transmit may still allow new data.
                if self.window_allows(true)
                    && self.can_send_new()
                    && (self.dupacks > 0 || self.ncr_active())
                {
                    self.lt_sent += 1;
                    self.send_new(now, out);
                    continue;
                }
                return;
            }
            // Segments deemed lost are resent in recovery or after a timeout,
            // never merely because IsLost says so (RFC 6675 Section 5).
            if self.in_recovery || self.after_rto || self.pr.is_some() {
                if let Some(s) = self.next_lost_to_retransmit() {
                    self.retransmit(now, s, TxKind::Retransmit, out);
                    continue;
                }
            }
            if self.can_send_new() {
                self.send_new(now, out);
                continue;
            }
            if self.in_recovery && self.algo.uses_sack() {
                if let Some(s) = self.nextseg_rule3_or_4() {
                    self.sb.mark_lost(s);
                    self.retransmit(now, s, TxKind::Retransmit, out);
                    continue;
                }
            }
            return;
        }
    }

    fn can_send_new(&self) -> bool {
        self.has_new_data() && self.sb.nxt() - self.sb.una() < self.rwnd_segs()
    }

    /// RFC 6675 NextSeg rule 3 (an unSACKed segment below the highest SACKed
    /// one, not yet retransmitted) and rule 4 (the rescue retransmission).
    fn nextseg_rule3_or_4(&mut self) -> Option<u64> {
        let fack = self.sb.fack();
        let start = self.retx_cursor.max(self.sb.una());
        for s in start..fack {
            let r = self.sb.get(s)?;
            if !r.sacked() && !r.lost() && r.tx_count == 1 {
                return Some(s);
            }
        }
        // Rule 4: one rescue retransmission of the segment below SND.MAX per recovery.
        if self.rescue_rxt.is_none() && fack < self.sb.nxt() {
            let s = self.sb.nxt() - 1;
            let r = self.sb.get(s)?;
            if !r.sacked() && !r.retrans() {
                self.rescue_rxt = Some(self.recover);
                return Some(s);
            }
        }
        None
    }

    fn send_new(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        if self.ncr_active() {
            self.ncr_on_send();
        }
        let seg = self.sb.push_new(now, self.cwnd);
        let seq = self.seq_of(seg);
        let len = (self.seq_of(seg + 1) - seq) as u32;
        let len = if self.total_segs.is_none() {
            self.cfg.mss
        } else {
            len
        };
        self.emit(now, seq, len, TxKind::New, out);
    }

    fn retransmit(&mut self, now: Time, seg: u64, kind: TxKind, out: &mut Vec<DataSegment>) {
        if self.sb.get(seg).is_none() {
            return;
        }
        let kind = match (self.tag_pending, kind) {
            (Some(t), TxKind::Retransmit) => {
                self.tag_pending = None;
                t
            }
            (Some(_), TxKind::FastRetransmit | TxKind::Timeout) => {
                self.tag_pending = None;
                kind
            }
            _ => kind,
        };
        self.episode_retransmit(seg);
        self.sb.on_retransmit(seg, now, self.cwnd);
        self.retransmitted_this_ack = true;
        self.stats.retransmissions += 1;
        let seq = self.seq_of(seg);
        let len = (self.seq_of(seg + 1) - seq) as u32;
        let len = if self.total_segs.is_none() {
            self.cfg.mss
        } else {
            len
        };
        self.emit(now, seq, len, kind, out);
    }

    #[inline]
    fn emit(&mut self, now: Time, seq: Seq, len: u32, kind: TxKind, out: &mut Vec<DataSegment>) {
        self.stats.segments_sent += 1;
        out.push(DataSegment {
            seq,
            len,
            ts_val: self.cfg.timestamps.then_some(now),
            kind,
        });
        if self.pr.is_some() {
            // TCP-PR keeps no RFC 6298 timer: time(n) per packet instead.
            let seg = seq / self.cfg.mss as u64;
            self.pr_on_send(now, seg);
            return;
        }
        // RFC 6298 Section 5.1: start the timer if it is not running.
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_reorder;
