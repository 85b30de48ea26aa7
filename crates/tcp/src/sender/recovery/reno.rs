//! Reno's fast retransmit and fast recovery (RFC 5681 Section 3.2).

use crate::sender::state::SenderState;

/// Step 3: cwnd = ssthresh + 3 * SMSS (DupThresh segments have left).
pub fn enter(st: &mut SenderState, dupthresh: u32) {
    st.cwnd = st.ssthresh + dupthresh as f64;
}

/// Step 6: on the next ACK of new data, "deflate" the window: cwnd = ssthresh.
pub fn exit(st: &mut SenderState) {
    st.cwnd = st.ssthresh;
}
