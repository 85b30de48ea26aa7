//! Loss recovery: what the sender does once loss detection has started a
//! recovery — what cwnd becomes, what each ACK during recovery means, what
//! is retransmitted, and when recovery ends. Each file is one algorithm:
//!
//! - `reno.rs`: RFC 5681 fast retransmit and fast recovery (classic Reno);
//! - `newreno.rs`: RFC 6582 (partial ACKs keep recovery going);
//! - `rfc6675.rs`: conservative SACK-based recovery (pipe, IsLost, NextSeg);
//! - `fack.rs`: Mathis and Mahdavi's forward acknowledgment;
//! - `newreno_sack.rs`: the Eifel paper's NewReno-SACK;
//! - `retransmit.rs`: no recovery phase at all (TCP-PR resends what its
//!   timers declare lost as the window allows).

mod fack;
mod newreno;
mod newreno_sack;
mod reno;
mod retransmit;
mod rfc6675;

pub use newreno::NewReno;
pub use rfc6675::Rfc6675;

use super::state::SenderState;
use crate::segment::DataSegment;
use reorderlab_sim::Time;

/// The recovery algorithm of a sender (a closed set, dispatched by `match`).
#[derive(Clone, Debug)]
pub enum Recovery {
    Reno,
    NewReno(NewReno),
    Sack(Rfc6675),
    Fack(Rfc6675),
    NewRenoSack(Rfc6675),
    Retransmit,
}

impl Recovery {
    /// Reno-style window inflation by one segment per duplicate ACK.
    #[inline]
    pub fn inflates_window(&self) -> bool {
        matches!(self, Recovery::Reno | Recovery::NewReno(_))
    }

    /// The SACK scoreboard drives retransmissions (RFC 6675 NextSeg).
    #[inline]
    pub fn uses_sack(&self) -> bool {
        matches!(
            self,
            Recovery::Sack(_) | Recovery::Fack(_) | Recovery::NewRenoSack(_)
        )
    }

    /// Whether a new recovery waits until SND.UNA reaches `recover` (the
    /// RecoveryPoint of the last recovery or timeout): RFC 6582 Section 3.2
    /// step 1 and RFC 6675 Section 5.1. Classic Reno (RFC 5681 without RFC
    /// 6582) has no such guard: three fresh duplicate ACKs after it left
    /// recovery start another fast retransmit, even in the same window.
    #[inline]
    pub fn guards_recover(&self) -> bool {
        !matches!(self, Recovery::Reno)
    }

    /// Whether the scoreboard says SND.UNA is lost although fewer than
    /// DupThresh duplicate ACKs arrived: IsLost(HighACK + 1) (RFC 6675
    /// Section 5 step 2) or FACK's rule.
    #[inline]
    pub fn loss_indicated(&self, st: &SenderState, dupthresh: u32) -> bool {
        match self {
            Recovery::Sack(_) | Recovery::NewRenoSack(_) => rfc6675::una_is_lost(st),
            Recovery::Fack(_) => fack::una_is_lost(st, dupthresh),
            _ => false,
        }
    }

    /// Marks the segments the SACK information shows lost.
    #[inline]
    pub fn mark_lost(&mut self, st: &mut SenderState, dupthresh: u32) {
        match self {
            Recovery::Sack(_) | Recovery::NewRenoSack(_) => rfc6675::mark_lost(st, dupthresh),
            Recovery::Fack(_) => fack::mark_lost(st, dupthresh),
            _ => {}
        }
    }

    /// Entering recovery, after ssthresh was set: cwnd, the recovery's own
    /// state, and the fast retransmit of SND.UNA.
    pub fn enter(
        &mut self,
        st: &mut SenderState,
        dupthresh: u32,
        now: Time,
        out: &mut Vec<DataSegment>,
    ) {
        match self {
            Recovery::Reno => reno::enter(st, dupthresh),
            Recovery::NewReno(n) => n.enter(st, dupthresh),
            Recovery::Sack(r) | Recovery::Fack(r) | Recovery::NewRenoSack(r) => r.enter(st),
            Recovery::Retransmit => {}
        }
        fast_retransmit(st, now, out);
    }

    /// A duplicate ACK during recovery.
    #[inline]
    pub fn on_dupack(&mut self, st: &mut SenderState) {
        if self.inflates_window() {
            // Each further duplicate ACK means a segment left the network (RFC 5681 Section 3.2 step 4).
            st.cwnd += 1.0;
        }
    }

    /// A partial ACK (SND.UNA advanced by `acked`, below `recover`).
    pub fn on_partial_ack(
        &mut self,
        st: &mut SenderState,
        now: Time,
        acked: u32,
        dupthresh: u32,
        out: &mut Vec<DataSegment>,
    ) -> PartialAck {
        let mut r = PartialAck {
            exit: false,
            restart_timer: true,
        };
        match self {
            // Reno leaves recovery on any new ACK (RFC 5681 Section 3.2 step 6).
            Recovery::Reno => r.exit = true,
            Recovery::NewReno(n) => r.restart_timer = n.on_partial_ack(st, now, acked, out),
            Recovery::Sack(_) | Recovery::NewRenoSack(_) => rfc6675::mark_lost(st, dupthresh),
            Recovery::Fack(_) => fack::mark_lost(st, dupthresh),
            Recovery::Retransmit => {}
        }
        r
    }

    /// Leaving recovery: cwnd after it.
    pub fn exit(&mut self, st: &mut SenderState) {
        match self {
            Recovery::Reno => reno::exit(st),
            Recovery::NewReno(n) => n.exit(st),
            // RFC 6675: cwnd was set to ssthresh on entry and is not inflated.
            _ => st.cwnd = st.cwnd.min(st.ssthresh.max(1.0)),
        }
    }

    /// NextSeg rule 1 (RFC 6675 Section 4): the next segment deemed lost to
    /// retransmit in SACK-based recovery; None outside it.
    #[inline]
    pub fn rule1(&mut self, st: &mut SenderState) -> Option<Option<u64>> {
        match self {
            Recovery::Sack(r) | Recovery::Fack(r) | Recovery::NewRenoSack(r) if st.in_recovery => {
                Some(r.rule1(st))
            }
            _ => None,
        }
    }

    /// Something to retransmit when neither a lost segment nor new data
    /// can go (RFC 6675 NextSeg rules 3 and 4).
    #[inline]
    pub fn next_seg_last_resort(&mut self, st: &mut SenderState) -> Option<u64> {
        match self {
            Recovery::Sack(r) | Recovery::Fack(r) | Recovery::NewRenoSack(r) if st.in_recovery => {
                r.rule3_or_4(st)
            }
            _ => None,
        }
    }

    /// After an ACK was processed and the window used.
    #[inline]
    pub fn after_ack(
        &mut self,
        st: &mut SenderState,
        now: Time,
        advanced: bool,
        out: &mut Vec<DataSegment>,
    ) {
        if let Recovery::NewRenoSack(r) = self {
            newreno_sack::after_ack(r, st, now, advanced, out);
        }
    }
}

/// What a partial ACK did.
#[derive(Clone, Copy, Debug)]
pub struct PartialAck {
    /// Recovery ends (Reno).
    pub exit: bool,
    /// The retransmission timer restarts (RFC 6298 Section 5.3; NewReno's
    /// Impatient variant restarts it on the first partial ACK only).
    pub restart_timer: bool,
}

/// RFC 5681 Section 3.2 step 2 / RFC 6675 step (4.3): the first segment
/// presumed dropped goes out at once, unless its retransmission is already
/// in flight (it was sent after the previous RecoveryPoint and lost: a new
/// congestion event, but nothing to resend yet).
fn fast_retransmit(st: &mut SenderState, now: Time, out: &mut Vec<DataSegment>) {
    let una = st.sb.una();
    st.tag_pending = Some(crate::segment::TxKind::FastRetransmit);
    if st.sb.get(una).is_some_and(|r| !r.retrans()) {
        st.mark_lost(una);
        st.retransmit(now, una, crate::segment::TxKind::FastRetransmit, out);
    }
}
