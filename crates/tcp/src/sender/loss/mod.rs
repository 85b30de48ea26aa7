//! Loss detection: when the sender decides that data is lost and loss
//! recovery may start. Each file is one mechanism:
//!
//! - `dupthresh.rs`: DupThresh duplicate ACKs (RFC 5681 Section 3.2, RFC
//!   6675 Section 5), fixed or adapted after spurious retransmissions
//!   (Blanton and Allman);
//! - `td_fr.rs`: time-delayed fast recovery (wait max(RTT/2, DT));
//! - `dcr.rs`: TCP-DCR (retransmit and cut one RTT after the trigger);
//! - `ncr.rs`: TCP-NCR (RFC 4653: DupThresh about a flight of data);
//! - `tcp_pr.rs`: TCP-PR's per-packet timers, no duplicate ACKs at all.
//!
//! Which segments the ACK stream marks lost once recovery runs (IsLost,
//! FACK's rule) belongs to the recovery algorithm (`recovery/`); the
//! retransmission timeout every sender has is in the sender itself.

mod dcr;
mod dupthresh;
mod ncr;
pub mod tcp_pr;
mod td_fr;

pub use dcr::Dcr;
pub use dupthresh::{DupThresh, DupthreshPolicy, DUPTHRESH_CWND_CAP};
pub use ncr::Ncr;
pub use tcp_pr::{PrMode, TcpPr};
pub use td_fr::TdFr;

use super::state::SenderState;
use reorderlab_sim::Time;

/// The loss-detection mechanism of a sender (a closed set, dispatched by `match`).
#[derive(Clone, Debug)]
pub enum LossDetection {
    DupThresh(DupThresh),
    TdFr(TdFr),
    Dcr(Dcr),
    Ncr(Ncr),
    TcpPr(TcpPr),
}

impl LossDetection {
    /// The dupthresh in force (RFC 5681 Section 3.2, adapted by the mechanism).
    #[inline]
    pub fn dupthresh(&self, st: &SenderState) -> u32 {
        match self {
            LossDetection::DupThresh(d) => d.effective(st.cwnd),
            LossDetection::TdFr(t) => t.dupthresh,
            LossDetection::Dcr(d) => d.dupthresh,
            LossDetection::Ncr(n) => n.dupthresh(st),
            LossDetection::TcpPr(_) => u32::MAX,
        }
    }

    /// Every ACK, after the scoreboard took its SACK information and before
    /// the duplicate-ACK rules run.
    #[inline]
    pub fn on_ack(&mut self, st: &mut SenderState, advanced: bool, has_sack: bool, newly: u32) {
        if let LossDetection::Ncr(n) = self {
            n.on_ack(st, advanced, has_sack, newly);
        }
    }

    /// SND.UNA advanced: any wait for the old hole is over.
    #[inline]
    pub fn on_new_ack(&mut self) {
        match self {
            LossDetection::TdFr(t) => t.reset(),
            LossDetection::Dcr(d) => d.reset(),
            _ => {}
        }
    }

    /// A duplicate ACK outside recovery (counted in `st.dupacks` already).
    #[inline]
    pub fn on_dupack(&mut self, st: &SenderState, now: Time) {
        if let LossDetection::TdFr(t) = self {
            t.on_dupack(st, now);
        }
    }

    /// Whether recovery may start now that the ACK clock says loss; a
    /// delaying mechanism arms its deadline instead.
    #[inline]
    pub fn allows_recovery(&mut self, st: &SenderState, now: Time) -> bool {
        match self {
            LossDetection::TdFr(t) => t.allows(st, now),
            LossDetection::Dcr(d) => d.allows(st, now),
            _ => true,
        }
    }

    /// When a delaying mechanism's wait ends.
    #[inline]
    pub fn deadline(&self) -> Option<Time> {
        match self {
            LossDetection::TdFr(t) => t.deadline,
            LossDetection::Dcr(d) => d.deadline,
            _ => None,
        }
    }

    /// The wait armed by [`LossDetection::allows_recovery`] is over at `now`:
    /// clears it and returns true.
    pub fn take_expired(&mut self, now: Time) -> bool {
        let d = match self {
            LossDetection::TdFr(t) => &mut t.deadline,
            LossDetection::Dcr(d) => &mut d.deadline,
            _ => return false,
        };
        if d.is_some_and(|d| d <= now) {
            *d = None;
            true
        } else {
            false
        }
    }

    /// Recovery starts: no wait is pending any more.
    pub fn on_recovery_start(&mut self) {
        match self {
            LossDetection::TdFr(t) => t.deadline = None,
            LossDetection::Dcr(d) => d.deadline = None,
            _ => {}
        }
    }

    /// FlightSize the cut is taken from: NCR's FlightSizePrev, DCR's flight
    /// at the trigger, else `flight`.
    pub fn flight_for_cut(&mut self, flight: u32) -> u32 {
        match self {
            LossDetection::Ncr(n) => n.flight_for_cut(flight),
            LossDetection::Dcr(d) => d.flight_for_cut(flight),
            _ => flight,
        }
    }

    /// A recovery was found spurious; `seen` duplicate ACKs arrived for its hole.
    pub fn on_spurious(&mut self, seen: u32) {
        if let LossDetection::DupThresh(d) = self {
            d.on_spurious(seen);
        }
    }

    /// A retransmission timeout: adapted thresholds and waits are reset.
    pub fn on_timeout(&mut self) {
        match self {
            LossDetection::DupThresh(d) => d.on_timeout(),
            LossDetection::TdFr(t) => t.reset(),
            LossDetection::Dcr(d) => d.reset(),
            LossDetection::Ncr(n) => n.active = false,
            LossDetection::TcpPr(_) => {}
        }
    }

    /// A window rule of the mechanism that replaces the sender's own, if any.
    #[inline]
    pub fn window(&self, st: &SenderState, new_data: bool) -> Option<bool> {
        match self {
            LossDetection::Ncr(n) if n.elt_active(st) => Some(new_data && n.window_allows(st)),
            LossDetection::TdFr(_) => TdFr::window(st, new_data),
            LossDetection::TcpPr(p) => Some(p.window_allows(st)),
            _ => None,
        }
    }

    /// In RFC 4653's Extended Limited Transmit.
    #[inline]
    pub fn extended_limited_transmit(&self, st: &SenderState) -> bool {
        matches!(self, LossDetection::Ncr(n) if n.elt_active(st))
    }

    /// A new segment was sent.
    #[inline]
    pub fn on_send_new(&mut self, st: &SenderState) {
        if let LossDetection::Ncr(n) = self {
            if n.elt_active(st) {
                n.on_send();
            }
        }
    }
}
