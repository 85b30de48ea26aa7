//! Conservative SACK-based loss recovery (RFC 6675): pipe instead of window
//! inflation, IsLost, and NextSeg's four rules with HighRxt and RescueRxt.

use crate::sender::state::SenderState;

/// RFC 6675's recovery state.
#[derive(Clone, Debug, Default)]
pub struct Rfc6675 {
    /// HighRxt (RFC 6675 Section 2), as the segment above it: segments below
    /// `high_rxt` were retransmitted in this recovery or passed over by
    /// NextSeg, and rules 1 and 3 look only above it.
    pub high_rxt: u64,
    /// RescueRxt (RFC 6675 Section 2), as the segment holding it.
    pub rescue_rxt: Option<u64>,
}

impl Rfc6675 {
    /// Step (4.2): cwnd = ssthresh; step (4.3): HighRxt and RescueRxt are
    /// set to the segment the fast retransmit resends (SND.UNA), "to prevent
    /// repeated retransmission of the same data or a premature rescue
    /// retransmission".
    pub fn enter(&mut self, st: &mut SenderState) {
        st.cwnd = st.ssthresh;
        let una = st.sb.una();
        self.high_rxt = una + 1;
        self.rescue_rxt = Some(una);
    }

    /// NextSeg rule 1: the smallest unSACKed segment above HighRxt that
    /// IsLost, whose retransmission is not already in flight (one sent
    /// before this recovery began, after a timeout).
    pub fn rule1(&mut self, st: &mut SenderState) -> Option<u64> {
        st.retx_cursor = st.retx_cursor.max(self.high_rxt);
        let s = st.next_lost_to_retransmit()?;
        self.high_rxt = s + 1;
        Some(s)
    }

    /// NextSeg rule 3 (an unSACKed segment above HighRxt and below the
    /// highest SACKed one) and rule 4 (the rescue retransmission).
    pub fn rule3_or_4(&mut self, st: &mut SenderState) -> Option<u64> {
        let fack = st.sb.fack();
        let mut s = st.sb.first_unsacked_from(self.high_rxt);
        while s < fack {
            let r = st.sb.get(s)?;
            if !r.sacked() && !r.retrans() {
                // (C.2): HighRxt moves to the retransmitted segment.
                self.high_rxt = s + 1;
                return Some(s);
            }
            s = st.sb.first_unsacked_from(s + 1);
        }
        self.high_rxt = self.high_rxt.max(fack);
        self.rescue(st)
    }

    /// Rule 4: once HighACK is above RescueRxt, one retransmission of the
    /// highest outstanding unSACKed segment; RescueRxt becomes
    /// RecoveryPoint, so there is one per recovery. We read "outstanding"
    /// as outstanding when recovery began (below RecoveryPoint): the rule
    /// is there to repair a lost tail of the window the loss hit, and new
    /// data sent during recovery may simply still be on its way.
    fn rescue(&mut self, st: &mut SenderState) -> Option<u64> {
        let una = st.sb.una();
        if self.rescue_rxt.is_some_and(|r| una <= r) {
            return None;
        }
        let mut s = st.recover.min(st.sb.nxt()).checked_sub(1)?;
        while s >= una {
            let r = st.sb.get(s)?;
            if !r.sacked() {
                if r.retrans() || (r.tx_count > 1 && r.epoch == st.rtx_epoch) {
                    return None;
                }
                self.rescue_rxt = Some(st.recover - 1);
                return Some(s);
            }
            s = s.checked_sub(1)?;
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
            st.mark_lost(s);
        }
        st.loss_frontier = st.loss_frontier.max(b);
    }
}
