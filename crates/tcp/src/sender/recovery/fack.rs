//! Forward acknowledgment (Mathis and Mahdavi, SIGCOMM 1996): data between
//! SND.UNA and SND.FACK that is not SACKed is taken to have left the
//! network once more than DupThresh segments lie between it and SND.FACK.
//! Retransmission then follows RFC 6675's NextSeg (`rfc6675.rs`).

use crate::sender::state::SenderState;

/// FACK's trigger: more than DupThresh segments between SND.UNA and SND.FACK.
#[inline]
pub fn una_is_lost(st: &SenderState, dupthresh: u32) -> bool {
    st.sb.fack() - st.sb.una() > dupthresh as u64
}

/// Marks lost every unSACKed segment more than DupThresh below SND.FACK.
pub fn mark_lost(st: &mut SenderState, dupthresh: u32) {
    let limit = st.sb.fack().saturating_sub(dupthresh as u64);
    for s in st.loss_frontier..limit {
        st.mark_lost(s);
    }
    st.loss_frontier = st.loss_frontier.max(limit);
}
