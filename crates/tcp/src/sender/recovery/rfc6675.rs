//! Conservative SACK-based loss recovery (RFC 6675): pipe instead of window
//! inflation, IsLost, and NextSeg's four rules.

use crate::sender::state::SenderState;

/// RFC 6675's recovery state.
#[derive(Clone, Debug, Default)]
pub struct Rfc6675 {
    /// RescueRxt (RFC 6675 Section 2), one rescue retransmission per recovery.
    pub rescue_rxt: Option<u64>,
}

impl Rfc6675 {
    /// Step (4.2): cwnd = ssthresh.
    pub fn enter(&mut self, st: &mut SenderState) {
        self.rescue_rxt = None;
        st.cwnd = st.ssthresh;
    }

    /// NextSeg rule 3 (an unSACKed segment below the highest SACKed one, not
    /// yet retransmitted) and rule 4 (the rescue retransmission).
    pub fn rule3_or_4(&mut self, st: &mut SenderState) -> Option<u64> {
        let fack = st.sb.fack();
        let start = st.retx_cursor.max(st.sb.una());
        for s in start..fack {
            let r = st.sb.get(s)?;
            if !r.sacked() && !r.lost() && r.tx_count == 1 {
                return Some(s);
            }
        }
        // Rule 4: one rescue retransmission of the segment below SND.MAX per recovery.
        if self.rescue_rxt.is_none() && fack < st.sb.nxt() {
            let s = st.sb.nxt() - 1;
            let r = st.sb.get(s)?;
            if !r.sacked() && !r.retrans() {
                self.rescue_rxt = Some(st.recover);
                return Some(s);
            }
        }
        None
    }
}

/// IsLost(HighACK + 1) (RFC 6675 Section 5 step 2), as marked by [`mark_lost`].
#[inline]
pub fn una_is_lost(st: &SenderState) -> bool {
    st.sb.get(st.sb.una()).is_some_and(|r| r.lost())
}

/// Marks every segment IsLost (RFC 6675 Section 4) says is lost: DupThresh
/// SACKed segments above it. Losses start below the DupThresh-th highest
/// SACKed segment; segments below the frontier were judged already.
pub fn mark_lost(st: &mut SenderState, dupthresh: u32) {
    if let Some(b) = st.sb.kth_highest_sacked(dupthresh) {
        for s in st.loss_frontier..b {
            let r = st.sb.get(s).copied();
            if r.is_some_and(|r| !r.sacked() && !r.lost()) {
                st.mark_lost(s);
            }
        }
        st.loss_frontier = st.loss_frontier.max(b);
    }
}
