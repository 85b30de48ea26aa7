//! NewReno-SACK (Eifel response paper, Section III-A): RFC 6675 recovery
//! that retransmits at least one segment on every partial ACK, even when
//! pipe >= cwnd, as NewReno does.

use crate::segment::{DataSegment, TxKind};
use crate::sender::state::SenderState;
use reorderlab_sim::Time;

/// After a partial ACK that retransmitted nothing: retransmit the first
/// not-yet-retransmitted hole, or SND.UNA.
pub fn after_ack(st: &mut SenderState, now: Time, advanced: bool, out: &mut Vec<DataSegment>) {
    if !st.in_recovery || !advanced || st.retransmitted_this_ack {
        return;
    }
    let una = st.sb.una();
    let target = st.next_lost_to_retransmit().or_else(|| {
        let r = st.sb.get(una)?;
        (!r.sacked() && !r.retrans()).then_some(una)
    });
    if let Some(s) = target {
        st.mark_lost(s);
        st.retransmit(now, s, TxKind::Retransmit, out);
    }
}
