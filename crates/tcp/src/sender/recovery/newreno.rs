//! NewReno (RFC 6582): recovery lasts until `recover` is ACKed; each
//! partial ACK retransmits the next hole.

use crate::segment::{DataSegment, TxKind};
use crate::sender::state::{NewRenoTimer, SenderState};
use reorderlab_sim::Time;

/// NewReno's recovery state.
#[derive(Clone, Debug, Default)]
pub struct NewReno {
    /// Partial ACKs in this recovery.
    partial_acks: u32,
}

impl NewReno {
    /// RFC 6582 Section 3.2 step 2-3 (as RFC 5681): cwnd = ssthresh + 3 * SMSS.
    pub fn enter(&mut self, st: &mut SenderState, dupthresh: u32) {
        st.cwnd = st.ssthresh + dupthresh as f64;
        self.partial_acks = 0;
    }

    /// RFC 6582 Section 3.2 step 5: retransmit the first unacknowledged
    /// segment, deflate cwnd by the amount ACKed, add back one SMSS.
    /// Returns whether the retransmission timer restarts: "for the first
    /// partial ACK that arrives during fast recovery, also reset the
    /// retransmit timer" (Impatient, the default, RFC 6582 Section 4), or
    /// on every partial ACK (Slow-but-Steady).
    pub fn on_partial_ack(
        &mut self,
        st: &mut SenderState,
        now: Time,
        acked: u32,
        out: &mut Vec<DataSegment>,
    ) -> bool {
        let una = st.sb.una();
        st.mark_lost(una);
        st.retransmit(now, una, TxKind::Retransmit, out);
        st.cwnd = (st.cwnd - acked as f64 + 1.0).max(1.0);
        self.partial_acks += 1;
        match st.cfg.newreno_timer {
            NewRenoTimer::Impatient => self.partial_acks == 1,
            NewRenoTimer::SlowButSteady => true,
        }
    }

    /// RFC 6582 Section 3.2 step 3, option (1): cwnd = min(ssthresh, FlightSize + SMSS).
    pub fn exit(&mut self, st: &mut SenderState) {
        st.cwnd = st.ssthresh.min(st.sb.packets_out().max(1) as f64 + 1.0);
    }
}
