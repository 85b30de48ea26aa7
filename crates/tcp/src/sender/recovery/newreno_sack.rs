//! NewReno-SACK (Eifel response paper, Section III-A): RFC 6675 recovery
//! that retransmits at least one segment on every partial ACK, even when
//! pipe >= cwnd, as NewReno does.

use super::Rfc6675;
use crate::segment::{DataSegment, TxKind};
use crate::sender::state::SenderState;
use reorderlab_sim::Time;

/// After a partial ACK that retransmitted nothing: retransmit the first
/// hole NextSeg rule 1 offers, or else SND.UNA if this recovery has not
/// retransmitted it yet.
pub fn after_ack(
    r: &mut Rfc6675,
    st: &mut SenderState,
    now: Time,
    advanced: bool,
    out: &mut Vec<DataSegment>,
) {
    if !st.in_recovery || !advanced || st.retransmitted_this_ack {
        return;
    }
    let una = st.sb.una();
    let target = r.rule1(st).or_else(|| {
        let rec = st.sb.get(una)?;
        let resent_now = rec.tx_count > 1 && rec.epoch == st.rtx_epoch;
        (!rec.sacked() && !rec.retrans() && !resent_now).then_some(una)
    });
    if let Some(s) = target {
        st.mark_lost(s);
        st.retransmit(now, s, TxKind::Retransmit, out);
    }
}
