//! NewReno (RFC 6582): recovery lasts until `recover` is ACKed; each
//! partial ACK retransmits the next hole.

use crate::segment::{DataSegment, TxKind};
use crate::sender::state::SenderState;
use reorderlab_sim::Time;

/// NewReno's recovery state.
#[derive(Clone, Debug, Default)]
pub struct NewReno {}

impl NewReno {
    /// RFC 6582 Section 3.2 step 2-3 (as RFC 5681): cwnd = ssthresh + 3 * SMSS.
    pub fn enter(&mut self, st: &mut SenderState, dupthresh: u32) {
        st.cwnd = st.ssthresh + dupthresh as f64;
    }

    /// RFC 6582 Section 3.2 step 5: retransmit the first unacknowledged
    /// segment, deflate cwnd by the amount ACKed, add back one SMSS.
    pub fn on_partial_ack(
        &mut self,
        st: &mut SenderState,
        now: Time,
        acked: u32,
        out: &mut Vec<DataSegment>,
    ) {
        let una = st.sb.una();
        st.mark_lost(una);
        st.retransmit(now, una, TxKind::Retransmit, out);
        st.cwnd = (st.cwnd - acked as f64 + 1.0).max(1.0);
    }

    /// RFC 6582 Section 3.2 step 3, option (1): cwnd = min(ssthresh, FlightSize + SMSS).
    pub fn exit(&mut self, st: &mut SenderState) {
        st.cwnd = st.ssthresh.min(st.sb.packets_out().max(1) as f64 + 1.0);
    }
}
