//! What every sender keeps, whatever its loss detection, recovery and
//! congestion control: the negotiated options, the scoreboard, the RTT
//! estimator, cwnd and ssthresh, the duplicate-ACK count, the recovery
//! flags and the retransmission timer, and the primitives that put a
//! segment on the wire. The pluggable parts (`loss/`, `recovery/`,
//! `spurious/`, `cc/`) read and change this state; none of them owns it.

use super::rtt::RttEstimator;
use super::scoreboard::Scoreboard;
use crate::segment::{DataSegment, Seq, TxKind};
use reorderlab_sim::Time;

/// RFC 6582 Section 3.2 step 5 / Section 4: when a partial ACK restarts the
/// retransmission timer during NewReno recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NewRenoTimer {
    /// "Impatient": only the first partial ACK restarts it (RFC 6582 Section 4 recommends this).
    #[default]
    Impatient,
    /// "Slow-but-Steady": every partial ACK restarts it.
    SlowButSteady,
}

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
    /// NewReno's timer rule on partial ACKs (RFC 6582 Section 4).
    pub newreno_timer: NewRenoTimer,
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
            newreno_timer: NewRenoTimer::Impatient,
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
    /// Recoveries found spurious by the spurious-retransmission detector.
    pub spurious_detected: u64,
    /// Segments retransmitted a second time within one fast recovery, with
    /// no timeout in between: none of the recovery algorithms should ever
    /// do this (checked in tests; a debug build asserts it).
    pub repeated_retransmissions: u64,
}

/// The state every sender shares (see the module comment).
#[derive(Clone, Debug)]
pub struct SenderState {
    pub cfg: SenderConfig,
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
    /// Data outstanding at the last timeout is not all ACKed yet: segments
    /// deemed lost are resent (go-back-N) outside fast recovery
    /// (RFC 5681 Section 3.1, RFC 6675 Section 5.1).
    pub after_rto: bool,
    /// Segments below this have been examined by the SACK loss-marking rule.
    pub loss_frontier: u64,
    /// Lowest segment that may be marked lost and not yet retransmitted.
    pub retx_cursor: u64,
    /// Retransmission timer deadline (RFC 6298 Section 5); None when off.
    pub rto_deadline: Option<Time>,
    /// Whether this sender runs the RFC 6298 timer at all (TCP-PR does not).
    pub rto_timer: bool,
    /// Receiver's advertised window in bytes.
    pub peer_rwnd: u64,
    /// Segments in the transfer; None for bulk.
    pub total_segs: Option<u64>,
    /// Whether the current ACK's processing retransmitted something.
    pub retransmitted_this_ack: bool,
    /// Segments sent by limited transmit since SND.UNA last advanced; left
    /// out of FlightSize when ssthresh is set (RFC 5681 Section 3.2 step 2,
    /// RFC 6675 Section 5 step 4.2).
    pub lt_sent: u32,
    /// The kind the next retransmission is tagged with: the recovery's fast
    /// retransmit when SND.UNA's own retransmission was already in flight at
    /// entry, or the first retransmission after a TCP-PR loss event.
    pub tag_pending: Option<TxKind>,
    /// Retransmission epoch: counts recoveries and timeouts (wrapping); a
    /// segment's record keeps the epoch of its latest retransmission.
    pub rtx_epoch: u8,
    pub stats: SenderStats,
}

impl SenderState {
    pub fn new(cfg: SenderConfig) -> SenderState {
        let total_segs = cfg.total_bytes.map(|b| b.div_ceil(cfg.mss as u64));
        SenderState {
            cwnd: cfg.initial_window.max(1) as f64,
            ssthresh: f64::INFINITY,
            rtt: RttEstimator::new(cfg.min_rto, cfg.max_rto),
            sb: Scoreboard::new(),
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            after_rto: false,
            loss_frontier: 0,
            retx_cursor: 0,
            rto_deadline: None,
            rto_timer: true,
            peer_rwnd: u64::MAX,
            total_segs,
            retransmitted_this_ack: false,
            lt_sent: 0,
            tag_pending: None,
            rtx_epoch: 0,
            stats: SenderStats::default(),
            cfg,
        }
    }

    /// The current RTO (back-off included).
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }

    /// First byte of segment `seg`.
    #[inline]
    pub fn seq_of(&self, seg: u64) -> Seq {
        let s = seg * self.cfg.mss as u64;
        match self.cfg.total_bytes {
            Some(t) => s.min(t),
            None => s,
        }
    }

    /// Segment whose end is at byte `end` or below: segments wholly covered by `[.., end)`.
    #[inline]
    pub fn seg_below(&self, end: Seq) -> u64 {
        match (self.cfg.total_bytes, self.total_segs) {
            (Some(t), Some(n)) if end >= t => n,
            _ => end / self.cfg.mss as u64,
        }
    }

    /// First segment starting at or above byte `start`.
    #[inline]
    pub fn seg_above(&self, start: Seq) -> u64 {
        start.div_ceil(self.cfg.mss as u64)
    }

    pub fn has_new_data(&self) -> bool {
        self.total_segs.is_none_or(|t| self.sb.nxt() < t)
    }

    /// Segments the receiver's window still admits above SND.UNA.
    fn rwnd_segs(&self) -> u64 {
        (self.peer_rwnd / self.cfg.mss as u64).max(1)
    }

    /// New data exists and the receiver's window admits it.
    pub fn can_send_new(&self) -> bool {
        self.has_new_data() && self.sb.nxt() - self.sb.una() < self.rwnd_segs()
    }

    /// Marks `seg` lost and lets the retransmission cursor see it.
    pub fn mark_lost(&mut self, seg: u64) {
        if self.sb.mark_lost(seg) {
            self.retx_cursor = self.retx_cursor.min(seg);
        }
    }

    /// Deems `seg` and any retransmission of it in flight lost.
    pub fn mark_all_lost(&mut self, seg: u64) {
        if self.sb.mark_all_lost(seg) {
            self.retx_cursor = self.retx_cursor.min(seg);
        }
    }

    /// A new retransmission epoch: a recovery begins or a timeout fires.
    pub fn new_epoch(&mut self) {
        self.rtx_epoch = self.rtx_epoch.wrapping_add(1);
    }

    /// Lowest segment marked lost whose retransmission is not in flight.
    pub fn next_lost_to_retransmit(&mut self) -> Option<u64> {
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

    /// Payload length of segment `seg`.
    fn len_of(&self, seg: u64) -> u32 {
        if self.total_segs.is_none() {
            return self.cfg.mss;
        }
        (self.seq_of(seg + 1) - self.seq_of(seg)) as u32
    }

    /// Sends the next new segment.
    pub fn send_new(&mut self, now: Time, out: &mut Vec<DataSegment>) {
        let seg = self.sb.push_new(now, self.cwnd);
        self.emit(now, seg, TxKind::New, out);
    }

    /// Retransmits `seg` (the caller has marked it lost).
    pub fn retransmit(&mut self, now: Time, seg: u64, kind: TxKind, out: &mut Vec<DataSegment>) {
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
        if self.in_recovery {
            let r = self.sb.get(seg).expect("checked above");
            if r.tx_count > 1 && r.epoch == self.rtx_epoch {
                self.stats.repeated_retransmissions += 1;
                debug_assert!(false, "segment {seg} retransmitted twice in one recovery");
            }
        }
        self.sb.on_retransmit(seg, now, self.cwnd, self.rtx_epoch);
        self.retransmitted_this_ack = true;
        self.stats.retransmissions += 1;
        self.emit(now, seg, kind, out);
    }

    #[inline]
    fn emit(&mut self, now: Time, seg: u64, kind: TxKind, out: &mut Vec<DataSegment>) {
        self.stats.segments_sent += 1;
        out.push(DataSegment {
            seq: self.seq_of(seg),
            len: self.len_of(seg),
            ts_val: self.cfg.timestamps.then_some(now),
            kind,
        });
        // RFC 6298 Section 5.1: start the timer if it is not running.
        if self.rto_timer && self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }
}
