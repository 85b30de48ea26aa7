//! Time-delayed fast recovery (Paxson; Blanton and Allman; TCP-PR Section
//! II): fast retransmit only once max(RTT/2, DT) has passed since the first
//! duplicate ACK, DT being the time between the first and the DupThresh-th
//! duplicate ACK. RFC 3042's limited transmit keeps sending meanwhile.

use crate::sender::state::SenderState;
use reorderlab_sim::Time;

/// TD-FR's state.
#[derive(Clone, Debug, Default)]
pub struct TdFr {
    /// DupThresh (fixed).
    pub dupthresh: u32,
    /// Arrival of the first and the DupThresh-th duplicate ACK.
    first_dupack: Option<Time>,
    thresh_dupack: Option<Time>,
    /// When fast retransmit may start.
    pub deadline: Option<Time>,
}

impl TdFr {
    pub fn new(dupthresh: u32) -> Self {
        TdFr {
            dupthresh,
            ..TdFr::default()
        }
    }

    pub fn reset(&mut self) {
        self.first_dupack = None;
        self.thresh_dupack = None;
        self.deadline = None;
    }

    /// Records duplicate-ACK arrival times.
    pub fn on_dupack(&mut self, st: &SenderState, now: Time) {
        if st.dupacks == 1 || self.first_dupack.is_none() {
            self.first_dupack.get_or_insert(now);
        }
        if st.dupacks >= self.dupthresh && self.thresh_dupack.is_none() {
            self.thresh_dupack = Some(now);
        }
    }

    /// Whether recovery may start now; otherwise arms the deadline.
    pub fn allows(&mut self, st: &SenderState, now: Time) -> bool {
        let first = *self.first_dupack.get_or_insert(now);
        let third = *self.thresh_dupack.get_or_insert(now);
        let half_rtt = st.rtt.srtt.map_or(Time::ZERO, |s| Time(s.0 / 2));
        let deadline = first + half_rtt.max(third - first);
        if now >= deadline {
            self.deadline = None;
            true
        } else {
            self.deadline = Some(deadline);
            false
        }
    }

    /// While it waits, TD-FR keeps limited transmit. Without SACK that is
    /// RFC 3042's: the flight may exceed cwnd by two segments, no more. With
    /// SACK it is RFC 6675 step (3)'s, the sender's own rule (one new
    /// segment per segment SACKed): capping the flight at cwnd + 2 would
    /// stop the ACK clock for the whole wait and drain the path.
    pub fn window(st: &SenderState, new_data: bool) -> Option<bool> {
        (st.dupacks > 0 && !st.in_recovery && !st.after_rto && !st.cfg.sack)
            .then(|| new_data && st.sb.packets_out() as f64 + 1.0 <= st.cwnd + 2.0 + 1e-9)
    }
}
