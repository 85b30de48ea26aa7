//! TCP-NCR as RFC 4653 specifies it: the duplicate-ACK threshold becomes
//! about a congestion window of data having left the network, so both the
//! retransmission and the congestion response are delayed by roughly one
//! RTT, and Extended Limited Transmit keeps new data flowing meanwhile. The
//! window reduction itself comes from the flow's congestion control (`cc`).
//! Because the threshold counts segments, NCR's delay shrinks with the
//! window (it is never below three duplicates): TCP-DCR (`dcr.rs`) waits one
//! RTT of time instead.

use crate::sender::state::SenderState;

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
    /// DupThresh outside Extended Limited Transmit (RFC 5681's 3).
    pub base: u32,
    /// Extended Limited Transmit periods that ended in a cumulative ACK
    /// (reordering) rather than loss recovery.
    pub reordering_ends: u64,
    /// An ACK without SACK information advanced the cumulative ACK point
    /// since the last entry: the next ACK with SACK information enters
    /// Extended Limited Transmit (RFC 4653 Section 3.1).
    armed: bool,
}

impl Ncr {
    pub fn new(careful: bool, base: u32) -> Self {
        Ncr {
            careful,
            lt_f: if careful { 2.0 / 3.0 } else { 0.5 },
            active: false,
            flight_prev: 0,
            skipped: 0,
            dupthresh: 3,
            base,
            reordering_ends: 0,
            armed: true,
        }
    }

    /// DupThresh = max(LT_F * (FlightSize / SMSS), 3) (RFC 4653 (I.3), (E.6)).
    fn threshold(&self, flight: u32) -> u32 {
        ((self.lt_f * flight as f64) as u32).max(3)
    }

    /// RFC 4653: DupThresh follows the flight size during Extended Limited
    /// Transmit and is held through the recovery it starts.
    pub fn dupthresh(&self, st: &SenderState) -> u32 {
        if self.active || st.in_recovery {
            self.dupthresh
        } else {
            self.base
        }
    }

    /// Whether in Extended Limited Transmit.
    pub fn elt_active(&self, st: &SenderState) -> bool {
        self.active && !st.in_recovery
    }

    /// Called for every ACK before loss detection, with the ACK's effect on
    /// the scoreboard known. Implements RFC 4653 Sections 3.1-3.3.
    pub fn on_ack(&mut self, st: &mut SenderState, advanced: bool, has_sack: bool, newly: u32) {
        let flight = st.sb.packets_out();
        let in_loss_recovery = st.in_recovery || st.after_rto;
        // RFC 4653 Section 3.1 arms Extended Limited Transmit with an ACK
        // that advances the cumulative ACK and carries no SACK information.
        // Under persistent reordering every ACK carries SACK information, so
        // after its first loss recovery a literal NCR would never engage
        // again; any advancing ACK outside loss recovery re-arms it here.
        if advanced && (!has_sack || !in_loss_recovery) {
            self.armed = true;
        }
        if in_loss_recovery {
            // RFC 6675 (fast recovery or the recovery after a timeout)
            // governs; DupThresh is held (Section 3.4).
            self.active = false;
            return;
        }
        if advanced && self.active {
            // Reordering, not loss: terminate and avoid a burst (T.1, T.2).
            self.active = false;
            self.reordering_ends += 1;
            st.cwnd = ((flight + 1) as f64).min(self.flight_prev as f64).max(1.0);
            st.ssthresh = self.flight_prev as f64;
            if has_sack {
                // (T.4): restart with (I.2) and (I.3), not (I.1).
                self.active = true;
                self.skipped = 0;
                self.dupthresh = self.threshold(flight);
            }
        } else if !self.active && self.armed && has_sack && newly > 0 {
            // (I.1)-(I.3) on the first ACK with SACK information after an
            // ACK without it that advanced the cumulative ACK point.
            self.armed = false;
            self.active = true;
            self.flight_prev = flight;
            self.skipped = 0;
            self.dupthresh = self.threshold(flight);
        }
        if self.active {
            // (E.6) after the ACK's SACK information is processed.
            self.dupthresh = self.threshold(flight);
        }
    }

    /// (E.2): one new segment while (pipe + Skipped) <= FlightSizePrev - 1.
    pub fn window_allows(&self, st: &SenderState) -> bool {
        st.sb.pipe() + self.skipped < self.flight_prev
    }

    /// (E.3)-(E.4): after an Extended Limited Transmit transmission.
    pub fn on_send(&mut self) {
        if self.active && self.careful {
            self.skipped += 1;
        }
    }

    /// RFC 4653 Section 3.4: ssthresh = cwnd = FlightSizePrev / 2 (through the
    /// flow's congestion control); Extended Limited Transmit ends.
    pub fn flight_for_cut(&mut self, flight: u32) -> u32 {
        if self.active {
            self.active = false;
            self.flight_prev
        } else {
            flight
        }
    }
}
