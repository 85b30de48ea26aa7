//! TCP-DCR (Bhandarkar et al.; TCP-PR Section II; the high-speed paper
//! Section II): the duplicate-ACK trigger starts a wait of one RTT; fast
//! retransmit and the window cut happen only if the hole is still there
//! when it ends, and the cut is taken from the flight at the trigger
//! (FlightSizePrev, as RFC 4653 Section 3.4 does), not from the flight
//! grown meanwhile.

use crate::sender::state::SenderState;
use reorderlab_sim::Time;

/// TCP-DCR's state.
#[derive(Clone, Debug, Default)]
pub struct Dcr {
    /// DupThresh (fixed) that starts the wait.
    pub dupthresh: u32,
    /// When the trigger came, and the flight then.
    trigger: Option<(Time, u32)>,
    /// When the wait ends.
    pub deadline: Option<Time>,
}

impl Dcr {
    pub fn new(dupthresh: u32) -> Self {
        Dcr {
            dupthresh,
            ..Dcr::default()
        }
    }

    pub fn reset(&mut self) {
        self.trigger = None;
        self.deadline = None;
    }

    /// Whether the RTT since the trigger has passed; otherwise arms the deadline.
    pub fn allows(&mut self, st: &SenderState, now: Time) -> bool {
        let flight = st.sb.packets_out();
        let (t, _) = *self.trigger.get_or_insert((now, flight));
        let rtt = st.rtt.srtt.unwrap_or(Time::from_secs(1));
        if now >= t + rtt {
            self.deadline = None;
            true
        } else {
            self.deadline = Some(t + rtt);
            false
        }
    }

    /// FlightSize for the cut: the flight at the trigger.
    pub fn flight_for_cut(&mut self, flight: u32) -> u32 {
        match self.trigger.take() {
            Some((_, f)) => f,
            None => flight,
        }
    }
}
