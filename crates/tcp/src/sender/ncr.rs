//! TCP-NCR as RFC 4653 specifies it: the duplicate-ACK threshold
//! becomes about a congestion window of data having left the network, so
//! both the retransmission and the congestion response are delayed by
//! roughly one RTT, and Extended Limited Transmit keeps new data flowing
//! meanwhile. The window reduction itself comes from the flow's congestion
//! control (`cc`). Because the threshold counts segments, NCR's delay shrinks
//! with the window (it is never below three duplicates): TCP-DCR
//! (`reorder.rs`) waits one RTT of time instead.

use super::Sender;

/// TCP-NCR state (RFC 4653 Section 3).
#[derive(Clone, Debug)]
pub struct Ncr {
    /// Careful Limited Transmit (LT_F = 2/3) instead of Aggressive (LT_F = 1/2).
    pub careful: bool,
    /// LT_F: fraction of outstanding data that must be SACKed before a
    /// retransmission (RFC 4653 Section 3).
    pub lt_f: f64,
    /// In Extended Limited Transmit.
    pub active: bool,
    /// FlightSizePrev in segments (RFC 4653 (I.1)).
    pub flight_prev: u32,
    /// Skipped in segments (RFC 4653 (I.2)), Careful variant only.
    pub skipped: u32,
    /// DupThresh as RFC 4653 (I.3) and (E.6) set it.
    pub dupthresh: u32,
    /// Extended Limited Transmit periods that ended in a cumulative ACK
    /// (reordering) rather than loss recovery.
    pub reordering_ends: u64,
    /// An ACK without SACK information advanced the cumulative ACK point
    /// since the last entry: the next ACK with SACK information enters
    /// Extended Limited Transmit (RFC 4653 Section 3.1).
    armed: bool,
}

impl Ncr {
    pub fn new(careful: bool) -> Self {
        Ncr {
            careful,
            lt_f: if careful { 2.0 / 3.0 } else { 0.5 },
            active: false,
            flight_prev: 0,
            skipped: 0,
            dupthresh: 3,
            reordering_ends: 0,
            armed: true,
        }
    }

    /// DupThresh = max(LT_F * (FlightSize / SMSS), 3) (RFC 4653 (I.3), (E.6)).
    fn threshold(&self, flight: u32) -> u32 {
        ((self.lt_f * flight as f64) as u32).max(3)
    }
}

impl Sender {
    /// Called for every ACK before loss detection, with the ACK's effect on
    /// the scoreboard known. Implements RFC 4653 Sections 3.1-3.3.
    pub(super) fn ncr_on_ack(&mut self, advanced: bool, has_sack: bool, newly_sacked: u32) {
        let flight = self.sb.packets_out();
        let in_loss_recovery = self.in_recovery || self.after_rto;
        let Some(n) = self.ncr.as_mut() else { return };
        // RFC 4653 Section 3.1 arms Extended Limited Transmit with an ACK
        // that advances the cumulative ACK and carries no SACK information.
        // Under persistent reordering every ACK carries SACK information, so
        // after its first loss recovery a literal NCR would never engage
        // again; any advancing ACK outside loss recovery re-arms it here.
        if advanced && (!has_sack || !in_loss_recovery) {
            n.armed = true;
        }
        if in_loss_recovery {
            // RFC 6675 (fast recovery or the recovery after a timeout)
            // governs; DupThresh is held (Section 3.4).
            n.active = false;
            return;
        }
        if advanced && n.active {
            // Reordering, not loss: terminate and avoid a burst (T.1, T.2).
            n.active = false;
            n.reordering_ends += 1;
            self.cwnd = ((flight + 1) as f64).min(n.flight_prev as f64).max(1.0);
            self.ssthresh = n.flight_prev as f64;
            if has_sack {
                // (T.4): restart with (I.2) and (I.3), not (I.1).
                n.active = true;
                n.skipped = 0;
                n.dupthresh = n.threshold(flight);
            }
        } else if !n.active && n.armed && has_sack && newly_sacked > 0 {
            // (I.1)-(I.3) on the first ACK with SACK information after an
            // ACK without it that advanced the cumulative ACK point.
            n.armed = false;
            n.active = true;
            n.flight_prev = flight;
            n.skipped = 0;
            n.dupthresh = n.threshold(flight);
        }
        if n.active {
            // (E.6) after the ACK's SACK information is processed.
            n.dupthresh = n.threshold(flight);
        }
    }

    /// Whether DCR is in Extended Limited Transmit.
    pub(super) fn ncr_active(&self) -> bool {
        self.ncr.as_ref().is_some_and(|n| n.active) && !self.in_recovery
    }

    /// (E.2): one new segment while (pipe + Skipped) <= FlightSizePrev - 1.
    pub(super) fn ncr_window_allows(&self) -> bool {
        let n = self.ncr.as_ref().expect("NCR state");
        self.sb.pipe() + n.skipped < n.flight_prev
    }

    /// (E.3)-(E.4): after an Extended Limited Transmit transmission.
    pub(super) fn ncr_on_send(&mut self) {
        if let Some(n) = self.ncr.as_mut() {
            if n.active && n.careful {
                n.skipped += 1;
            }
        }
    }

    /// RFC 4653 Section 3.4: ssthresh = cwnd = FlightSizePrev / 2 (through the
    /// flow's congestion control); Extended Limited Transmit ends.
    pub(super) fn ncr_flight_for_cut(&mut self, flight: u32) -> u32 {
        match self.ncr.as_mut() {
            Some(n) if n.active => {
                n.active = false;
                n.flight_prev
            }
            _ => flight,
        }
    }
}
